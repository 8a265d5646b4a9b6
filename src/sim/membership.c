/* membership.c — classic group membership, following Kafka's GroupCoordinator/ClassicGroup (see the
 * header for what is and is not modelled). Function names mirror Kafka's where a reader may want to
 * compare: add_member_and_rebalance, prepare_rebalance, complete_join, ... */
#include "sim/membership.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "util/xalloc.h"

static const char *const state_names[] = {
	[MB_EMPTY] = "Empty",
	[MB_PREPARING_REBALANCE] = "PreparingRebalance",
	[MB_COMPLETING_REBALANCE] = "CompletingRebalance",
	[MB_STABLE] = "Stable",
	[MB_DEAD] = "Dead",
};

const char *mb_state_name(enum mb_state s)
{
	return (unsigned)s < sizeof state_names / sizeof state_names[0] ? state_names[s] : "Unknown";
}

void mb_config_default(struct mb_config *cfg)
{
	cfg->min_session_timeout_ms = 6000;
	cfg->max_session_timeout_ms = 1800000;
	cfg->initial_rebalance_delay_ms = 3000;
	cfg->require_member_id = true;
}

int16_t mb_check_session_timeout(const struct mb_config *cfg, int32_t session_timeout_ms)
{
	if (session_timeout_ms < cfg->min_session_timeout_ms || session_timeout_ms > cfg->max_session_timeout_ms)
		return MB_ERR_INVALID_SESSION_TIMEOUT;
	return MB_ERR_NONE;
}

/* ---- members ---- */
static void protocols_free(struct mb_protocol *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(p[i].name);
		free(p[i].metadata);
	}
	free(p);
}

static uint8_t *bytes_dup(const uint8_t *d, size_t n)
{
	if (!n)
		return NULL;
	uint8_t *c = xmalloc(n);
	memcpy(c, d, n);
	return c;
}

static struct mb_protocol *protocols_dup(const struct mb_protocol_in *in, size_t n)
{
	struct mb_protocol *p = xcalloc(n ? n : 1, sizeof *p);
	for (size_t i = 0; i < n; i++) {
		p[i].name = xstrdup(in[i].name);
		p[i].metadata = bytes_dup(in[i].metadata, in[i].metadata_len);
		p[i].metadata_len = in[i].metadata_len;
	}
	return p;
}

static void member_free(struct mb_member *m)
{
	free(m->member_id);
	free(m->client_id);
	free(m->client_host);
	protocols_free(m->protocols, m->n_protocols);
	free(m->assignment);
	free(m);
}

struct mb_member *mb_find_member(const struct mb_group *g, const char *member_id)
{
	for (size_t i = 0; i < g->n_members; i++)
		if (!strcmp(g->members[i]->member_id, member_id))
			return g->members[i];
	return NULL;
}

static ssize_t pending_index(const struct mb_group *g, const char *member_id)
{
	for (size_t i = 0; i < g->n_pending; i++)
		if (!strcmp(g->pending[i].member_id, member_id))
			return (ssize_t)i;
	return -1;
}

static void pending_remove_at(struct mb_group *g, size_t i)
{
	free(g->pending[i].member_id);
	memmove(&g->pending[i], &g->pending[i + 1], (g->n_pending - i - 1) * sizeof g->pending[0]);
	g->n_pending--;
}

/* Same protocols, same order, same metadata bytes (Kafka's MemberMetadata.matches). */
static bool member_matches(const struct mb_member *m, const struct mb_join_req *req)
{
	if (m->n_protocols != req->n_protocols)
		return false;
	for (size_t i = 0; i < m->n_protocols; i++) {
		const struct mb_protocol *a = &m->protocols[i];
		const struct mb_protocol_in *b = &req->protocols[i];
		if (strcmp(a->name, b->name) || a->metadata_len != b->metadata_len ||
		    (a->metadata_len && memcmp(a->metadata, b->metadata, a->metadata_len)))
			return false;
	}
	return true;
}

static const struct mb_protocol *member_protocol(const struct mb_member *m, const char *name)
{
	for (size_t i = 0; i < m->n_protocols; i++)
		if (!strcmp(m->protocols[i].name, name))
			return &m->protocols[i];
	return NULL;
}

/* How many current members support protocol `name`. */
static size_t protocol_support(const struct mb_group *g, const char *name)
{
	size_t n = 0;
	for (size_t i = 0; i < g->n_members; i++)
		if (member_protocol(g->members[i], name))
			n++;
	return n;
}

static bool supports_protocols(const struct mb_group *g, const struct mb_join_req *req)
{
	if (g->state == MB_EMPTY)
		return req->protocol_type && req->protocol_type[0] && req->n_protocols > 0;
	if (!g->protocol_type || !req->protocol_type || strcmp(g->protocol_type, req->protocol_type))
		return false;
	for (size_t i = 0; i < req->n_protocols; i++)
		if (protocol_support(g, req->protocols[i].name) == g->n_members)
			return true;
	return false;
}

/* Each member votes for its most preferred protocol among those every member supports; the most votes
 * win. Kafka breaks ties arbitrarily (hash order); here the earlier candidate in the first member's
 * preference order wins, so results are reproducible. */
static const char *select_protocol(const struct mb_group *g)
{
	const struct mb_member *first = g->members[0];
	size_t best_votes = 0;
	const char *best = NULL;

	for (size_t c = 0; c < first->n_protocols; c++) {
		const char *cand = first->protocols[c].name;
		if (protocol_support(g, cand) != g->n_members)
			continue;
		size_t votes = 0;
		for (size_t i = 0; i < g->n_members; i++) {
			const struct mb_member *m = g->members[i];
			for (size_t k = 0; k < m->n_protocols; k++) {
				if (protocol_support(g, m->protocols[k].name) != g->n_members)
					continue;
				if (!strcmp(m->protocols[k].name, cand))
					votes++;
				break; /* the member's first common protocol is its vote */
			}
		}
		if (!best || votes > best_votes) {
			best = cand;
			best_votes = votes;
		}
	}
	return best;
}

static int32_t group_rebalance_timeout(const struct mb_group *g)
{
	int32_t t = 0;
	for (size_t i = 0; i < g->n_members; i++)
		if (g->members[i]->rebalance_timeout_ms > t)
			t = g->members[i]->rebalance_timeout_ms;
	return t;
}

static bool has_all_members_joined(const struct mb_group *g)
{
	for (size_t i = 0; i < g->n_members; i++)
		if (!g->members[i]->awaiting_join)
			return false;
	return g->n_pending == 0;
}

static void set_str(char **dst, const char *src)
{
	free(*dst);
	*dst = src ? xstrdup(src) : NULL;
}

/* Kafka: clientId + "-" + a random UUID. Here the UUID comes from a seeded generator (splitmix64),
 * which is as unique as needed and keeps the module free of entropy sources. */
static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static char *generate_member_id(struct mb_group *g, const char *client_id)
{
	uint64_t a = splitmix64(&g->id_seed), b = splitmix64(&g->id_seed);
	a = (a & ~0xF000ull) | 0x4000ull;       /* version 4 */
	b = (b & ~(3ull << 62)) | (2ull << 62); /* variant 10 */
	return xasprintf("%s-%08x-%04x-%04x-%04x-%012llx", client_id ? client_id : "", (unsigned)(a >> 32),
			 (unsigned)(a >> 16) & 0xffff, (unsigned)a & 0xffff, (unsigned)(b >> 48),
			 (unsigned long long)(b & 0xffffffffffffull));
}

/* ---- replies ---- */
static void reply_join_error(const struct mb_group *g, void *waiter, const char *member_id, int16_t error)
{
	struct mb_join_result r = {
		.error = error,
		.generation_id = -1,
		.protocol_name = "",
		.leader_id = "",
		.member_id = member_id,
	};
	if (waiter)
		g->ops->join_reply(waiter, &r, g->ops->arg);
}

/* The generation's answer to one member: the member list (with each one's metadata for the selected
 * protocol) goes to the leader only. */
static void reply_join_generation(const struct mb_group *g, const struct mb_member *m, void *waiter)
{
	struct mb_join_result r = {
		.error = MB_ERR_NONE,
		.generation_id = g->generation_id,
		.protocol_name = g->protocol_name ? g->protocol_name : "",
		.leader_id = g->leader_id ? g->leader_id : "",
		.member_id = m->member_id,
	};
	struct mb_join_member *list = NULL;
	if (g->leader_id && !strcmp(g->leader_id, m->member_id)) {
		list = xcalloc(g->n_members ? g->n_members : 1, sizeof *list);
		for (size_t i = 0; i < g->n_members; i++) {
			const struct mb_protocol *p = member_protocol(g->members[i], g->protocol_name);
			list[i].member_id = g->members[i]->member_id;
			list[i].metadata = p ? p->metadata : NULL;
			list[i].metadata_len = p ? p->metadata_len : 0;
		}
		r.members = list;
		r.n_members = g->n_members;
	}
	if (waiter)
		g->ops->join_reply(waiter, &r, g->ops->arg);
	free(list);
}

static void complete_heartbeat(struct mb_member *m, int64_t now_ms)
{
	m->last_heartbeat_ms = now_ms;
}

/* Answers a parked SyncGroup (if any); Kafka's maybeInvokeSyncCallback + heartbeat reschedule. */
static void sync_answer(const struct mb_group *g, struct mb_member *m, int16_t error, int64_t now_ms)
{
	if (!m->awaiting_sync)
		return;
	void *w = m->sync_waiter;
	m->awaiting_sync = false;
	m->sync_waiter = NULL;
	if (w)
		g->ops->sync_reply(w, error, error ? NULL : m->assignment, error ? 0 : m->assignment_len, g->ops->arg);
	complete_heartbeat(m, now_ms);
}

static void join_answer_error(const struct mb_group *g, struct mb_member *m, const char *member_id, int16_t error)
{
	if (!m->awaiting_join)
		return;
	void *w = m->join_waiter;
	m->awaiting_join = false;
	m->join_waiter = NULL;
	reply_join_error(g, w, member_id, error);
}

/* ---- the state machine ---- */
static void complete_join(struct mb_group *g, int64_t now_ms);

static void group_remove_at(struct mb_group *g, size_t i)
{
	struct mb_member *m = g->members[i];
	memmove(&g->members[i], &g->members[i + 1], (g->n_members - i - 1) * sizeof g->members[0]);
	g->n_members--;
	if (g->leader_id && !strcmp(g->leader_id, m->member_id))
		set_str(&g->leader_id, g->n_members ? g->members[0]->member_id : NULL);
	member_free(m);
}

static void group_remove(struct mb_group *g, struct mb_member *m)
{
	for (size_t i = 0; i < g->n_members; i++)
		if (g->members[i] == m) {
			group_remove_at(g, i);
			return;
		}
}

static void try_complete_join(struct mb_group *g, int64_t now_ms)
{
	if (g->state == MB_PREPARING_REBALANCE && !g->initial_join && has_all_members_joined(g))
		complete_join(g, now_ms);
}

static void reset_and_propagate_assignment_error(struct mb_group *g, int16_t error, int64_t now_ms)
{
	for (size_t i = 0; i < g->n_members; i++) {
		struct mb_member *m = g->members[i];
		free(m->assignment);
		m->assignment = NULL;
		m->assignment_len = 0;
		sync_answer(g, m, error, now_ms);
	}
}

static void prepare_rebalance(struct mb_group *g, int64_t now_ms)
{
	/* members waiting for the leader's assignment must rejoin instead */
	if (g->state == MB_COMPLETING_REBALANCE)
		reset_and_propagate_assignment_error(g, MB_ERR_REBALANCE_IN_PROGRESS, now_ms);
	int32_t rebalance_timeout = group_rebalance_timeout(g);
	if (g->state == MB_EMPTY) {
		/* InitialDelayedJoin: wait for more members of a fresh group, up to the rebalance timeout */
		int32_t delay = g->cfg->initial_rebalance_delay_ms;
		g->initial_join = true;
		g->join_deadline_ms = now_ms + delay;
		g->initial_remaining_ms = rebalance_timeout > delay ? rebalance_timeout - delay : 0;
	} else {
		g->initial_join = false;
		g->join_deadline_ms = now_ms + rebalance_timeout;
	}
	g->state = MB_PREPARING_REBALANCE;
	set_str(&g->protocol_name, NULL);
	try_complete_join(g, now_ms);
}

static void maybe_prepare_rebalance(struct mb_group *g, int64_t now_ms)
{
	if (g->state == MB_STABLE || g->state == MB_COMPLETING_REBALANCE || g->state == MB_EMPTY)
		prepare_rebalance(g, now_ms);
}

/* Kafka's removeMemberAndUpdateGroup: a parked JoinGroup is answered UNKNOWN_MEMBER_ID so that a live
 * client rejoins; a parked SyncGroup likewise (Kafka leaves it to time out — we must not, see header). */
static void remove_member_and_update_group(struct mb_group *g, struct mb_member *m, int64_t now_ms)
{
	join_answer_error(g, m, "", MB_ERR_UNKNOWN_MEMBER_ID);
	if (m->awaiting_sync) {
		void *w = m->sync_waiter;
		m->awaiting_sync = false;
		if (w)
			g->ops->sync_reply(w, MB_ERR_UNKNOWN_MEMBER_ID, NULL, 0, g->ops->arg);
	}
	group_remove(g, m);
	switch (g->state) {
	case MB_STABLE:
	case MB_COMPLETING_REBALANCE: maybe_prepare_rebalance(g, now_ms); break;
	case MB_PREPARING_REBALANCE: try_complete_join(g, now_ms); break;
	case MB_EMPTY:
	case MB_DEAD: break;
	}
}

/* Kafka's maybeElectNewJoinedLeader: the leader must be one of the members that rejoined. */
static bool elect_joined_leader(struct mb_group *g)
{
	if (!g->leader_id)
		return false;
	struct mb_member *leader = mb_find_member(g, g->leader_id);
	if (leader && leader->awaiting_join)
		return true;
	for (size_t i = 0; i < g->n_members; i++)
		if (g->members[i]->awaiting_join) {
			set_str(&g->leader_id, g->members[i]->member_id);
			return true;
		}
	return false;
}

/* The join barrier is done (everyone rejoined, or the rebalance timeout passed): drop the members that
 * did not rejoin, start the next generation and answer every parked JoinGroup. */
static void complete_join(struct mb_group *g, int64_t now_ms)
{
	for (size_t i = 0; i < g->n_members;) {
		struct mb_member *m = g->members[i];
		if (!m->awaiting_join) {
			if (m->awaiting_sync)
				sync_answer(g, m, MB_ERR_UNKNOWN_MEMBER_ID, now_ms);
			group_remove_at(g, i);
		} else {
			i++;
		}
	}
	g->initial_join = false;
	g->new_member_added = false; /* Kafka leaves it set; a stale flag would stretch a later initial delay */
	if (g->state == MB_DEAD)
		return;
	if (!elect_joined_leader(g) && g->n_members) {
		/* cannot happen without static members; keep the barrier up like Kafka does */
		g->join_deadline_ms = now_ms + group_rebalance_timeout(g);
		return;
	}
	g->generation_id++;
	if (!g->n_members) {
		set_str(&g->protocol_name, NULL);
		g->state = MB_EMPTY;
		return;
	}
	set_str(&g->protocol_name, select_protocol(g));
	g->state = MB_COMPLETING_REBALANCE;
	for (size_t i = 0; i < g->n_members; i++) {
		struct mb_member *m = g->members[i];
		void *w = m->join_waiter;
		m->awaiting_join = false;
		m->join_waiter = NULL;
		reply_join_generation(g, m, w);
		complete_heartbeat(m, now_ms);
		m->is_new = false;
	}
}

/* A parked JoinGroup replaced by a newer one from the same member: the old one must still be answered. */
static void park_join(struct mb_group *g, struct mb_member *m, void *waiter)
{
	if (m->awaiting_join)
		reply_join_error(g, m->join_waiter, m->member_id, MB_ERR_REBALANCE_IN_PROGRESS);
	m->awaiting_join = true;
	m->join_waiter = waiter;
}

static void add_member_and_rebalance(struct mb_group *g, const struct mb_join_req *req, char *member_id, void *waiter,
				     int64_t now_ms)
{
	struct mb_member *m = xcalloc(1, sizeof *m);
	m->member_id = member_id;
	m->client_id = xstrdup(req->client_id ? req->client_id : "");
	m->client_host = xstrdup(req->client_host ? req->client_host : "");
	m->session_timeout_ms = req->session_timeout_ms;
	m->rebalance_timeout_ms = req->rebalance_timeout_ms;
	m->protocols = protocols_dup(req->protocols, req->n_protocols);
	m->n_protocols = req->n_protocols;
	m->is_new = true;
	m->last_heartbeat_ms = now_ms; /* expires after MB_NEW_MEMBER_JOIN_TIMEOUT_MS while still new */

	/* a second member arriving during a fresh group's initial delay extends it */
	if (g->state == MB_PREPARING_REBALANCE && g->generation_id == 0)
		g->new_member_added = true;
	if (!g->n_members)
		set_str(&g->protocol_type, req->protocol_type);
	if (!g->leader_id)
		set_str(&g->leader_id, member_id);
	g->members = xgrow(g->members, &g->cap_members, g->n_members + 1, sizeof g->members[0]);
	g->members[g->n_members++] = m;
	park_join(g, m, waiter);

	ssize_t p = pending_index(g, member_id);
	if (p >= 0)
		pending_remove_at(g, (size_t)p);
	maybe_prepare_rebalance(g, now_ms);
}

static void update_member_and_rebalance(struct mb_group *g, struct mb_member *m, const struct mb_join_req *req,
					void *waiter, int64_t now_ms)
{
	protocols_free(m->protocols, m->n_protocols);
	m->protocols = protocols_dup(req->protocols, req->n_protocols);
	m->n_protocols = req->n_protocols;
	m->session_timeout_ms = req->session_timeout_ms;
	m->rebalance_timeout_ms = req->rebalance_timeout_ms;
	park_join(g, m, waiter);
	maybe_prepare_rebalance(g, now_ms);
}

void mb_join(struct mb_group *g, const struct mb_join_req *req, void *waiter, int64_t now_ms)
{
	const char *member_id = req->member_id ? req->member_id : "";

	if (g->state == MB_DEAD) {
		reply_join_error(g, waiter, member_id, MB_ERR_COORDINATOR_NOT_AVAILABLE);
		return;
	}
	if (mb_check_session_timeout(g->cfg, req->session_timeout_ms) != MB_ERR_NONE) {
		reply_join_error(g, waiter, member_id, MB_ERR_INVALID_SESSION_TIMEOUT);
		return;
	}
	if (!supports_protocols(g, req)) {
		reply_join_error(g, waiter, member_id, MB_ERR_INCONSISTENT_GROUP_PROTOCOL);
		return;
	}
	if (!member_id[0]) {
		char *id = generate_member_id(g, req->client_id);
		if (req->member_id_required && g->cfg->require_member_id) {
			/* the id is reserved until the member comes back with it, or its session times out */
			g->pending = xgrow(g->pending, &g->cap_pending, g->n_pending + 1, sizeof g->pending[0]);
			g->pending[g->n_pending++] = (struct mb_pending){ id, now_ms + req->session_timeout_ms };
			reply_join_error(g, waiter, id, MB_ERR_MEMBER_ID_REQUIRED);
		} else {
			add_member_and_rebalance(g, req, id, waiter, now_ms);
		}
	} else if (pending_index(g, member_id) >= 0) {
		add_member_and_rebalance(g, req, xstrdup(member_id), waiter, now_ms);
	} else {
		struct mb_member *m = mb_find_member(g, member_id);
		if (!m) {
			reply_join_error(g, waiter, member_id, MB_ERR_UNKNOWN_MEMBER_ID);
			return;
		}
		switch (g->state) {
		case MB_PREPARING_REBALANCE: update_member_and_rebalance(g, m, req, waiter, now_ms); break;
		case MB_COMPLETING_REBALANCE:
			/* a retry of a JoinGroup whose answer was lost: same answer again */
			if (member_matches(m, req))
				reply_join_generation(g, m, waiter);
			else
				update_member_and_rebalance(g, m, req, waiter, now_ms);
			break;
		case MB_STABLE:
			/* the leader rejoining forces a rebalance (it may have seen topic changes); a follower
			 * with unchanged metadata just gets the current generation back */
			if ((g->leader_id && !strcmp(g->leader_id, member_id)) || !member_matches(m, req)) {
				update_member_and_rebalance(g, m, req, waiter, now_ms);
			} else {
				struct mb_join_result r = {
					.error = MB_ERR_NONE,
					.generation_id = g->generation_id,
					.protocol_name = g->protocol_name ? g->protocol_name : "",
					.leader_id = g->leader_id ? g->leader_id : "",
					.member_id = member_id,
				};
				if (waiter)
					g->ops->join_reply(waiter, &r, g->ops->arg);
			}
			break;
		case MB_EMPTY:
		case MB_DEAD: reply_join_error(g, waiter, member_id, MB_ERR_UNKNOWN_MEMBER_ID); break;
		}
	}
	if (g->state == MB_PREPARING_REBALANCE)
		try_complete_join(g, now_ms);
	mb_tick(g, now_ms); /* a zero initial delay completes right away */
}

void mb_sync(struct mb_group *g, const char *member_id, int32_t generation_id, const struct mb_assignment_in *a,
	     size_t n, void *waiter, int64_t now_ms)
{
	struct mb_member *m = g->state == MB_DEAD ? NULL : mb_find_member(g, member_id);
	int16_t err = MB_ERR_NONE;

	if (g->state == MB_DEAD)
		err = MB_ERR_COORDINATOR_NOT_AVAILABLE;
	else if (!m)
		err = MB_ERR_UNKNOWN_MEMBER_ID;
	else if (generation_id != g->generation_id)
		err = MB_ERR_ILLEGAL_GENERATION;
	else if (g->state == MB_EMPTY)
		err = MB_ERR_UNKNOWN_MEMBER_ID;
	else if (g->state == MB_PREPARING_REBALANCE)
		err = MB_ERR_REBALANCE_IN_PROGRESS;
	if (err) {
		if (waiter)
			g->ops->sync_reply(waiter, err, NULL, 0, g->ops->arg);
		return;
	}
	if (g->state == MB_STABLE) {
		if (waiter)
			g->ops->sync_reply(waiter, MB_ERR_NONE, m->assignment, m->assignment_len, g->ops->arg);
		complete_heartbeat(m, now_ms);
		return;
	}
	/* CompletingRebalance: park until the leader's assignment arrives */
	if (m->awaiting_sync && m->sync_waiter)
		g->ops->sync_reply(m->sync_waiter, MB_ERR_REBALANCE_IN_PROGRESS, NULL, 0, g->ops->arg);
	m->awaiting_sync = true;
	m->sync_waiter = waiter;
	complete_heartbeat(m, now_ms);
	if (!g->leader_id || strcmp(g->leader_id, member_id))
		return;
	/* the leader: store every member's assignment (missing ones get nothing), answer all, Stable */
	for (size_t i = 0; i < g->n_members; i++) {
		struct mb_member *x = g->members[i];
		free(x->assignment);
		x->assignment = NULL;
		x->assignment_len = 0;
		for (size_t k = 0; k < n; k++)
			if (a[k].member_id && !strcmp(a[k].member_id, x->member_id)) {
				x->assignment = bytes_dup(a[k].assignment, a[k].len);
				x->assignment_len = a[k].assignment ? a[k].len : 0;
				break;
			}
	}
	g->state = MB_STABLE;
	for (size_t i = 0; i < g->n_members; i++)
		sync_answer(g, g->members[i], MB_ERR_NONE, now_ms);
}

int16_t mb_heartbeat(struct mb_group *g, const char *member_id, int32_t generation_id, int64_t now_ms)
{
	if (g->state == MB_DEAD)
		return MB_ERR_COORDINATOR_NOT_AVAILABLE;
	struct mb_member *m = mb_find_member(g, member_id);
	if (!m)
		return MB_ERR_UNKNOWN_MEMBER_ID;
	if (generation_id != g->generation_id)
		return MB_ERR_ILLEGAL_GENERATION;
	switch (g->state) {
	case MB_EMPTY:
	case MB_DEAD: return MB_ERR_UNKNOWN_MEMBER_ID;
	case MB_PREPARING_REBALANCE: complete_heartbeat(m, now_ms); return MB_ERR_REBALANCE_IN_PROGRESS;
	case MB_COMPLETING_REBALANCE: /* Kafka >= 2.5: a heartbeat before SyncGroup is a normal one */
	case MB_STABLE: complete_heartbeat(m, now_ms); return MB_ERR_NONE;
	}
	return MB_ERR_NONE;
}

int16_t mb_leave(struct mb_group *g, const char *member_id, int64_t now_ms)
{
	if (g->state == MB_DEAD)
		return MB_ERR_COORDINATOR_NOT_AVAILABLE;
	ssize_t p = pending_index(g, member_id);
	if (p >= 0) {
		pending_remove_at(g, (size_t)p);
		try_complete_join(g, now_ms);
		return MB_ERR_NONE;
	}
	struct mb_member *m = mb_find_member(g, member_id);
	if (!m)
		return MB_ERR_UNKNOWN_MEMBER_ID;
	remove_member_and_update_group(g, m, now_ms);
	return MB_ERR_NONE;
}

int16_t mb_commit_check(struct mb_group *g, const char *member_id, int32_t generation_id, int64_t now_ms)
{
	const char *mid = member_id ? member_id : "";
	struct mb_member *m = NULL;

	if (g->state == MB_DEAD)
		return MB_ERR_COORDINATOR_NOT_AVAILABLE;
	if (generation_id < 0 && g->state == MB_EMPTY)
		return MB_ERR_NONE; /* admin client or a consumer without group management */
	if (generation_id >= 0 || mid[0]) {
		m = mb_find_member(g, mid);
		if (!m)
			return MB_ERR_UNKNOWN_MEMBER_ID;
		if (generation_id != g->generation_id)
			return MB_ERR_ILLEGAL_GENERATION;
	} else if (g->state != MB_EMPTY) {
		return MB_ERR_UNKNOWN_MEMBER_ID; /* only members commit to a non-empty group */
	}
	switch (g->state) {
	case MB_EMPTY: return MB_ERR_NONE;
	case MB_STABLE:
	case MB_PREPARING_REBALANCE:
		/* allowed while preparing: the heartbeat answer tells the member to rejoin */
		complete_heartbeat(m, now_ms);
		return MB_ERR_NONE;
	case MB_COMPLETING_REBALANCE: return MB_ERR_REBALANCE_IN_PROGRESS;
	case MB_DEAD: break;
	}
	return MB_ERR_COORDINATOR_NOT_AVAILABLE;
}

/* When member m's session runs out; INT64_MAX while it cannot expire (parked in a rebalance). */
static int64_t member_deadline(const struct mb_member *m)
{
	if (m->is_new)
		return m->awaiting_join ? m->last_heartbeat_ms + MB_NEW_MEMBER_JOIN_TIMEOUT_MS
					: m->last_heartbeat_ms + m->session_timeout_ms;
	if (m->awaiting_join || m->awaiting_sync)
		return INT64_MAX;
	return m->last_heartbeat_ms + m->session_timeout_ms;
}

int64_t mb_next_deadline(const struct mb_group *g)
{
	int64_t t = INT64_MAX;
	if (g->state == MB_DEAD)
		return t;
	if (g->state == MB_PREPARING_REBALANCE && g->join_deadline_ms < t)
		t = g->join_deadline_ms;
	for (size_t i = 0; i < g->n_members; i++) {
		int64_t d = member_deadline(g->members[i]);
		if (d < t)
			t = d;
	}
	for (size_t i = 0; i < g->n_pending; i++)
		if (g->pending[i].deadline_ms < t)
			t = g->pending[i].deadline_ms;
	return t;
}

void mb_tick(struct mb_group *g, int64_t now_ms)
{
	if (g->state == MB_DEAD)
		return;
	/* pending member ids that never came back */
	for (size_t i = 0; i < g->n_pending;) {
		if (g->pending[i].deadline_ms <= now_ms) {
			pending_remove_at(g, i);
			try_complete_join(g, now_ms);
		} else {
			i++;
		}
	}
	/* expired sessions; restart the scan after each removal since removal may answer and reshuffle */
	for (bool again = true; again;) {
		again = false;
		for (size_t i = 0; i < g->n_members; i++) {
			if (member_deadline(g->members[i]) <= now_ms) {
				remove_member_and_update_group(g, g->members[i], now_ms);
				again = true;
				break;
			}
		}
	}
	/* the join barrier's timer */
	while (g->state == MB_PREPARING_REBALANCE && g->join_deadline_ms <= now_ms) {
		if (g->initial_join && g->new_member_added && g->initial_remaining_ms > 0) {
			int32_t delay = g->cfg->initial_rebalance_delay_ms;
			int32_t step = delay < g->initial_remaining_ms ? delay : g->initial_remaining_ms;
			g->new_member_added = false;
			g->join_deadline_ms = now_ms + step;
			g->initial_remaining_ms = g->initial_remaining_ms > delay ? g->initial_remaining_ms - delay : 0;
		} else {
			complete_join(g, now_ms);
		}
	}
}

void mb_cancel_waiter(struct mb_group *g, void *waiter)
{
	for (size_t i = 0; i < g->n_members; i++) {
		struct mb_member *m = g->members[i];
		if (m->join_waiter == waiter)
			m->join_waiter = NULL; /* still counts as joined, like a client Kafka cannot see leave */
		if (m->sync_waiter == waiter)
			m->sync_waiter = NULL;
	}
}

struct mb_group *mb_group_new(const char *group_id, const struct mb_config *cfg, const struct mb_ops *ops,
			      uint64_t seed)
{
	struct mb_group *g = xcalloc(1, sizeof *g);
	g->group_id = xstrdup(group_id);
	g->state = MB_EMPTY;
	g->cfg = cfg;
	g->ops = ops;
	g->id_seed = seed;
	for (const char *p = group_id; *p; p++) /* fold the name in: ids differ across groups */
		g->id_seed = g->id_seed * 31 + (unsigned char)*p;
	return g;
}

void mb_group_kill(struct mb_group *g)
{
	for (size_t i = 0; i < g->n_members; i++) {
		struct mb_member *m = g->members[i];
		join_answer_error(g, m, m->member_id, MB_ERR_COORDINATOR_NOT_AVAILABLE);
		sync_answer(g, m, MB_ERR_COORDINATOR_NOT_AVAILABLE, 0);
	}
	g->state = MB_DEAD;
}

void mb_group_free(struct mb_group *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->n_members; i++)
		member_free(g->members[i]);
	for (size_t i = 0; i < g->n_pending; i++)
		free(g->pending[i].member_id);
	free(g->members);
	free(g->pending);
	free(g->group_id);
	free(g->protocol_type);
	free(g->protocol_name);
	free(g->leader_id);
	free(g);
}
