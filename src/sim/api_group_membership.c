/* api_group_membership.c — JoinGroup v0–v5, SyncGroup v0–v3, Heartbeat v0–v3, LeaveGroup v0–v1 for
 * real consumers, on top of the membership state machine (membership.c). Consumer-protocol (KIP-848)
 * groups never get a state machine: SyncGroup, Heartbeat and LeaveGroup find no member there.
 *
 * The state machine owns the truth about a group that real clients joined; it hangs on sim_group.priv
 * (struct coord). After every request and timer the group's public fields in cluster.h (state,
 * generation, protocol, leader, members with client id, host, subscription and assignment) are rewritten
 * from it, so ListGroups, DescribeGroups and the control API see real members like any other.
 * Synthetic members (control API) are left untouched by that mirror.
 *
 * JoinGroup and SyncGroup may be answered later (join barrier, waiting for the leader): they reserve
 * their place in the connection's answer queue (sim_req_defer), so answers stay in request order.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/api.h"
#include "sim/membership.h"
#include "sim/offsets_log.h"
#include "sim/server.h"
#include "util/xalloc.h"
#include "util/timeutil.h"

/* The coordinator's view of one group. */
struct coord {
	struct mb_group *mb;
	struct mb_config cfg;
	struct sim_server *srv;
	struct sim_group *g;
	uint64_t timer;
	int64_t timer_due;
};

/* A parked JoinGroup/SyncGroup. */
struct waiter {
	struct sim_server *srv;
	struct sim_resp *resp;
	struct coord *c;
	int16_t version;
};

/* ---- answers ---- */
static void on_join(void *arg, const struct mb_join_result *r, void *ops_arg)
{
	(void)ops_arg;
	struct waiter *w = arg;
	struct wire_buf b;
	int16_t v = w->version;

	wire_buf_init(&b);
	if (v >= 2)
		wire_put_i32(&b, 0); /* throttle_time_ms */
	wire_put_i16(&b, r->error);
	wire_put_i32(&b, r->generation_id);
	wire_put_str(&b, r->protocol_name, false);
	wire_put_str(&b, r->leader_id, false);
	wire_put_str(&b, r->member_id, false);
	wire_put_array(&b, (int32_t)r->n_members, false);
	for (size_t i = 0; i < r->n_members; i++) {
		wire_put_str(&b, r->members[i].member_id, false);
		if (v >= 5)
			wire_put_str(&b, NULL, false); /* group_instance_id: static membership not simulated */
		wire_put_bytes(&b, r->members[i].metadata, (int32_t)r->members[i].metadata_len, false);
	}
	sim_resp_complete(w->srv, w->resp, &b);
	wire_buf_free(&b);
	free(w);
}

static void on_sync(void *arg, int16_t error, const uint8_t *assignment, size_t len, void *ops_arg)
{
	(void)ops_arg;
	struct waiter *w = arg;
	struct wire_buf b;

	wire_buf_init(&b);
	if (w->version >= 1)
		wire_put_i32(&b, 0);
	wire_put_i16(&b, error);
	wire_put_bytes(&b, assignment, (int32_t)len, false);
	sim_resp_complete(w->srv, w->resp, &b);
	wire_buf_free(&b);
	free(w);
}

static const struct mb_ops coord_ops = { on_join, on_sync, NULL };

static void waiter_cancel(void *arg, struct sim_resp *resp)
{
	(void)resp;
	struct waiter *w = arg;
	if (w->c)
		mb_cancel_waiter(w->c->mb, w);
	free(w);
}

/* ---- mirror into cluster.h ---- */
static const enum sim_group_state state_map[] = {
	[MB_EMPTY] = SIM_GROUP_EMPTY,
	[MB_PREPARING_REBALANCE] = SIM_GROUP_PREPARING_REBALANCE,
	[MB_COMPLETING_REBALANCE] = SIM_GROUP_COMPLETING_REBALANCE,
	[MB_STABLE] = SIM_GROUP_STABLE,
	[MB_DEAD] = SIM_GROUP_DEAD,
};

static void set_str(char **dst, const char *src)
{
	free(*dst);
	*dst = src ? xstrdup(src) : NULL;
}

static void coord_mirror(struct coord *c)
{
	struct sim_group *g = c->g;
	const struct mb_group *mb = c->mb;
	enum sim_group_state old_state = g->state;
	int32_t old_generation = g->generation_id;

	g->state = state_map[mb->state];
	g->generation_id = mb->generation_id;
	if (mb->protocol_type)
		set_str(&g->protocol_type, mb->protocol_type);
	set_str(&g->protocol_name, mb->protocol_name ? mb->protocol_name : "");
	set_str(&g->leader_id, mb->leader_id);
	for (size_t i = 0; i < g->nmembers;) {
		if (!g->members[i]->synthetic)
			sim_group_remove_member(g, g->members[i]->member_id);
		else
			i++;
	}
	for (size_t i = 0; i < mb->n_members; i++) {
		const struct mb_member *x = mb->members[i];
		struct sim_member *m = sim_member_new(x->member_id, x->client_id, x->client_host);
		m->session_timeout_ms = x->session_timeout_ms;
		m->rebalance_timeout_ms = x->rebalance_timeout_ms;
		m->last_seen_ms = x->last_heartbeat_ms;
		for (size_t k = 0; k < x->n_protocols; k++)
			sim_member_add_protocol(m, x->protocols[k].name, x->protocols[k].metadata,
						(int32_t)x->protocols[k].metadata_len);
		if (x->assignment_len)
			sim_member_set_assignment(m, x->assignment, (int32_t)x->assignment_len);
		sim_group_add_member(g, m);
	}
	sim_offsets_log_group_change(c->srv->st, g, old_state, old_generation, now_wall_ms());
}

static void coord_timer(struct sim_server *srv, void *arg);

/* After every change: mirror, and keep one timer at the state machine's next deadline. */
static void coord_after(struct coord *c)
{
	coord_mirror(c);
	int64_t due = mb_next_deadline(c->mb);
	if (c->timer && due == c->timer_due)
		return;
	if (c->timer)
		sim_timer_cancel(c->srv, c->timer);
	c->timer = 0;
	if (due != INT64_MAX) {
		c->timer = sim_timer_add(c->srv, due, coord_timer, c);
		c->timer_due = due;
	}
}

static void coord_timer(struct sim_server *srv, void *arg)
{
	(void)srv;
	struct coord *c = arg;
	c->timer = 0;
	mb_tick(c->mb, now_mono_ms());
	coord_after(c);
}

static void coord_free(void *priv)
{
	struct coord *c = priv;
	mb_group_kill(c->mb); /* answers anything parked */
	if (c->timer)
		sim_timer_cancel(c->srv, c->timer);
	mb_group_free(c->mb);
	free(c);
}

/* The broker's group settings (cluster.h: 0 means Kafka's default). */
static void coord_config(const struct sim_state *st, struct mb_config *cfg)
{
	mb_config_default(cfg);
	if (st->group_min_session_timeout_ms > 0)
		cfg->min_session_timeout_ms = st->group_min_session_timeout_ms;
	if (st->group_max_session_timeout_ms > 0)
		cfg->max_session_timeout_ms = st->group_max_session_timeout_ms;
	cfg->initial_rebalance_delay_ms = st->group_initial_rebalance_delay_ms;
}

/* The coordinator state of g, created on first use (for an existing simple group too). */
static struct coord *coord_get(struct sim_req *req, struct sim_group *g)
{
	if (g->priv)
		return g->priv;
	struct coord *c = xcalloc(1, sizeof *c);
	coord_config(req->st, &c->cfg);
	c->srv = req->srv;
	c->g = g;
	c->mb = mb_group_new(g->group_id, &c->cfg, &coord_ops, (uint64_t)req->now_ms ^ sim_state_rand(req->st));
	c->mb->generation_id = g->generation_id;
	if (g->protocol_type && g->protocol_type[0])
		c->mb->protocol_type = xstrdup(g->protocol_type);
	g->priv = c;
	g->priv_free = coord_free;
	return c;
}

/* Group-level checks shared by the four APIs: NOT_COORDINATOR, INVALID_GROUP_ID. */
static int16_t group_check(struct sim_req *req, struct wire_str gid)
{
	if (gid.len <= 0)
		return KERR_INVALID_GROUP_ID;
	return sim_req_check_coordinator(req, gid.p, (size_t)gid.len);
}

/* ---- JoinGroup ---- */
static void join_error(struct wire_buf *out, int16_t v, int16_t err, struct wire_str member_id)
{
	if (v >= 2)
		wire_put_i32(out, 0);
	wire_put_i16(out, err);
	wire_put_i32(out, -1);
	wire_put_str(out, "", false);
	wire_put_str(out, "", false);
	wire_put_strn(out, member_id.p, member_id.len < 0 ? 0 : member_id.len, false);
	wire_put_array(out, 0, false);
}

int sim_api_join_group(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out)
{
	int16_t v = req->api_version;
	struct wire_str gid = wire_str(rd, false);
	int32_t session_timeout = wire_i32(rd);
	int32_t rebalance_timeout = v >= 1 ? wire_i32(rd) : session_timeout;
	struct wire_str member_id = wire_str(rd, false);
	if (v >= 5)
		(void)wire_str(rd, false); /* group_instance_id: treated as a dynamic member */
	struct wire_str ptype = wire_str(rd, false);
	int32_t n = wire_array(rd, false, 2 + 4);
	if (rd->err || n < 0)
		return SIM_API_MALFORMED;
	struct mb_protocol_in *protos = xcalloc(n ? (size_t)n : 1, sizeof *protos);
	char **names = xcalloc(n ? (size_t)n : 1, sizeof *names);
	for (int32_t i = 0; i < n && !rd->err; i++) {
		struct wire_str name = wire_str(rd, false);
		struct wire_str meta = wire_bytes(rd, false);
		names[i] = name.len >= 0 ? wire_str_dup(name) : xstrdup("");
		protos[i] = (struct mb_protocol_in){ names[i], (const uint8_t *)meta.p,
						     meta.len > 0 ? (size_t)meta.len : 0 };
	}
	int rc = SIM_API_OK;
	if (rd->err) {
		rc = SIM_API_MALFORMED;
		goto done;
	}

	int16_t err = group_check(req, gid);
	struct mb_config bounds;
	coord_config(req->st, &bounds);
	if (!err)
		err = mb_check_session_timeout(&bounds, session_timeout);
	struct sim_group *g = err ? NULL : sim_group_find(req->st, gid.p, (size_t)gid.len);
	if (g && g->type == SIM_GROUP_CONSUMER) {
		/* Kafka 4.x replaces an Empty consumer-protocol group by a classic one; a classic member joining a
		 * live one would become a classic member of that group (KIP-848's migration path), which the
		 * sim does not simulate: it refuses the way Kafka refuses a group of another kind. */
		if (g->state == SIM_GROUP_EMPTY)
			sim_group_to_classic(g);
		else
			err = g->state == SIM_GROUP_DEAD ? KERR_COORDINATOR_NOT_AVAILABLE
							 : KERR_INCONSISTENT_GROUP_PROTOCOL;
		if (err)
			g = NULL;
	}
	if (!err && !g) {
		/* only a new member creates a group */
		if (member_id.len > 0) {
			err = KERR_UNKNOWN_MEMBER_ID;
		} else {
			char *id = wire_str_dup(gid);
			g = sim_group_get_or_create(req->st, id);
			free(id);
		}
	}
	if (err) {
		join_error(out, v, err, member_id);
		goto done;
	}

	struct coord *c = coord_get(req, g);
	char *mid = member_id.len > 0 ? wire_str_dup(member_id) : xstrdup("");
	char *cid = req->client_id.len >= 0 ? wire_str_dup(req->client_id) : xstrdup("");
	char *pt = ptype.len >= 0 ? wire_str_dup(ptype) : xstrdup("");
	struct mb_join_req jr = {
		.member_id = mid,
		.client_id = cid,
		.client_host = req->client_host,
		.session_timeout_ms = session_timeout,
		.rebalance_timeout_ms = rebalance_timeout,
		.protocol_type = pt,
		.protocols = protos,
		.n_protocols = (size_t)n,
		.member_id_required = v >= 4,
	};
	struct waiter *w = xcalloc(1, sizeof *w);
	w->srv = req->srv;
	w->c = c;
	w->version = v;
	w->resp = sim_req_defer(req, waiter_cancel, w);
	mb_join(c->mb, &jr, w, req->mono_ms);
	coord_after(c);
	free(mid);
	free(cid);
	free(pt);
	rc = SIM_API_DEFERRED;
done:
	for (int32_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(protos);
	return rc;
}

/* ---- SyncGroup ---- */
int sim_api_sync_group(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out)
{
	int16_t v = req->api_version;
	struct wire_str gid = wire_str(rd, false);
	int32_t generation = wire_i32(rd);
	struct wire_str member_id = wire_str(rd, false);
	if (v >= 3)
		(void)wire_str(rd, false); /* group_instance_id */
	int32_t n = wire_array(rd, false, 2 + 4);
	if (rd->err || n < 0)
		return SIM_API_MALFORMED;
	struct mb_assignment_in *a = xcalloc(n ? (size_t)n : 1, sizeof *a);
	for (int32_t i = 0; i < n && !rd->err; i++) {
		struct wire_str id = wire_str(rd, false);
		struct wire_str bytes = wire_bytes(rd, false);
		a[i] = (struct mb_assignment_in){ id.len >= 0 ? wire_str_dup(id) : xstrdup(""),
						  (const uint8_t *)bytes.p, bytes.len > 0 ? (size_t)bytes.len : 0 };
	}
	int rc = SIM_API_OK;
	if (rd->err) {
		rc = SIM_API_MALFORMED;
		goto done;
	}
	int16_t err = group_check(req, gid);
	struct sim_group *g = err ? NULL : sim_group_find(req->st, gid.p, (size_t)gid.len);
	if (!err && (!g || !g->priv))
		err = KERR_UNKNOWN_MEMBER_ID;
	if (err) {
		if (v >= 1)
			wire_put_i32(out, 0);
		wire_put_i16(out, err);
		wire_put_bytes(out, NULL, 0, false);
		goto done;
	}
	struct coord *c = g->priv;
	char *mid = member_id.len > 0 ? wire_str_dup(member_id) : xstrdup("");
	struct waiter *w = xcalloc(1, sizeof *w);
	w->srv = req->srv;
	w->c = c;
	w->version = v;
	w->resp = sim_req_defer(req, waiter_cancel, w);
	mb_sync(c->mb, mid, generation, a, (size_t)n, w, req->mono_ms);
	coord_after(c);
	free(mid);
	rc = SIM_API_DEFERRED;
done:
	for (int32_t i = 0; i < n; i++)
		free((char *)a[i].member_id);
	free(a);
	return rc;
}

/* ---- Heartbeat, LeaveGroup ---- */
int sim_api_heartbeat(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out)
{
	int16_t v = req->api_version;
	struct wire_str gid = wire_str(rd, false);
	int32_t generation = wire_i32(rd);
	struct wire_str member_id = wire_str(rd, false);
	if (v >= 3)
		(void)wire_str(rd, false);
	if (rd->err)
		return SIM_API_MALFORMED;
	int16_t err = group_check(req, gid);
	struct sim_group *g = err ? NULL : sim_group_find(req->st, gid.p, (size_t)gid.len);
	if (!err && (!g || !g->priv))
		err = KERR_UNKNOWN_MEMBER_ID;
	if (!err) {
		struct coord *c = g->priv;
		char *mid = member_id.len > 0 ? wire_str_dup(member_id) : xstrdup("");
		err = mb_heartbeat(c->mb, mid, generation, req->mono_ms);
		free(mid);
		coord_after(c);
	}
	if (v >= 1)
		wire_put_i32(out, 0);
	wire_put_i16(out, err);
	return SIM_API_OK;
}

int sim_api_leave_group(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out)
{
	int16_t v = req->api_version;
	struct wire_str gid = wire_str(rd, false);
	struct wire_str member_id = wire_str(rd, false);
	if (rd->err)
		return SIM_API_MALFORMED;
	int16_t err = group_check(req, gid);
	struct sim_group *g = err ? NULL : sim_group_find(req->st, gid.p, (size_t)gid.len);
	if (!err && (!g || !g->priv))
		err = KERR_UNKNOWN_MEMBER_ID;
	if (!err) {
		struct coord *c = g->priv;
		char *mid = member_id.len > 0 ? wire_str_dup(member_id) : xstrdup("");
		err = mb_leave(c->mb, mid, req->mono_ms);
		free(mid);
		coord_after(c);
	}
	if (v >= 1)
		wire_put_i32(out, 0);
	wire_put_i16(out, err);
	return SIM_API_OK;
}

/* ---- OffsetCommit from members ---- */
int sim_group_commit_check(struct sim_req *req, struct sim_group *g, struct wire_str member_id, int32_t generation,
			   int16_t *err)
{
	if (!g || !g->priv)
		return -1;
	struct coord *c = g->priv;
	char *mid = member_id.len > 0 ? wire_str_dup(member_id) : xstrdup("");
	*err = mb_commit_check(c->mb, mid, generation, req->mono_ms);
	free(mid);
	coord_after(c);
	return 0;
}
