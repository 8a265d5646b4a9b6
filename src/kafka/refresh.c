/* refresh.c — one refresh: metadata, group list, describes, committed offsets, log offsets (refresh.h). */
#include "config.h"

#include "kafka/refresh.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/timeutil.h"
#include "util/xalloc.h"

/* Log-offset lookups run one thread per chunk of a partition leader's partitions (offsets_for_times
 * blocks), at most this many at a time. */
#define MAX_LEADER_THREADS 16
/* Partitions per offsets_for_times call. librdkafka 2.0.2 matches a ListOffsets answer to its request
 * with rd_kafka_topic_partition_list_find, a linear scan per partition: a call costs O(n^2) strcmp
 * (1,067 partitions per leader: 35 ms of CPU a refresh, 10,667: seconds). Chunks make it O(n * chunk)
 * for one extra pair of ListOffsets per chunk, and the chunks run in parallel (bench/,
 * doc/PERFORMANCE.md). */
#define OFFSETS_CHUNK 250
/* The event loop wakes at least this often to notice a stop request. */
#define POLL_SLICE_MS 100

static int remaining_ms(int64_t deadline)
{
	int64_t r = deadline - now_mono_ms();
	return r > 0 ? (int)r : 0;
}

static bool stopping(const bool *stop)
{
	return stop && __atomic_load_n(stop, __ATOMIC_ACQUIRE);
}

/* Appends "; what" to *dst (a growing list of refresh errors). */
static void errors_add(char **dst, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void errors_add(char **dst, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (*dst && strstr(*dst, buf))
		return; /* the same error from several brokers: once is enough */
	char *n = *dst ? xasprintf("%s; %s", *dst, buf) : xstrdup(buf);
	free(*dst);
	*dst = n;
}

bool refresh_group_wanted(const struct lt_refresh_ctx *rc, const char *group)
{
	bool in = rc->n_include == 0;
	for (size_t i = 0; i < rc->n_include && !in; i++)
		in = regexec(&rc->include[i], group, 0, NULL, 0) == 0;
	for (size_t i = 0; i < rc->n_exclude && in; i++)
		in = regexec(&rc->exclude[i], group, 0, NULL, 0) != 0;
	return in;
}

/* ------------------------------------------------------------------ per-group work */

struct group_work {
	char *name;
	bool listed;   /* ListGroups returned it (else: an extra group, or kept from the last refresh) */
	bool desc_done, off_sent, off_done;
	const rd_kafka_ConsumerGroupDescription_t *desc; /* points into desc_ev */
	const rd_kafka_group_result_t *off;              /* points into off_ev */
	rd_kafka_event_t *desc_ev, *off_ev;              /* kept until the group is built */
	bool built;    /* added to the snapshot (or found not to exist) as soon as both answers were in */
	char *error;
};

static int cmp_work(const void *a, const void *b)
{
	return strcmp(((const struct group_work *)a)->name, ((const struct group_work *)b)->name);
}

struct work_set {
	struct group_work *w;
	size_t n, cap;
};

static void work_add(struct work_set *ws, const char *name, bool listed)
{
	ws->w = xgrow(ws->w, &ws->cap, ws->n + 1, sizeof *ws->w);
	ws->w[ws->n++] = (struct group_work){ .name = xstrdup(name), .listed = listed };
}

/* Sorts and merges duplicates (a name listed by ListGroups and also given as extra keeps listed). */
static void work_sort_unique(struct work_set *ws)
{
	if (ws->n == 0)
		return;
	qsort(ws->w, ws->n, sizeof *ws->w, cmp_work);
	size_t o = 0;
	for (size_t i = 1; i < ws->n; i++) {
		if (strcmp(ws->w[i].name, ws->w[o].name) == 0) {
			ws->w[o].listed |= ws->w[i].listed;
			free(ws->w[i].name);
		} else {
			ws->w[++o] = ws->w[i];
		}
	}
	ws->n = o + 1;
}

/* ------------------------------------------------------------------ stage 1: metadata */

static int metadata_stage(struct lt_refresh_ctx *rc, lt_snapshot *s, int64_t deadline,
			  const struct rd_kafka_metadata **mdp, char *err, size_t errlen)
{
	rd_kafka_t *rk = client_rk(rc->client);
	rd_kafka_resp_err_t e = rd_kafka_metadata(rk, 1, NULL, mdp, remaining_ms(deadline));
	client_poll(rc->client);
	if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
		char last[512];
		client_last_error(rc->client, last, sizeof last);
		snprintf(err, errlen, "cannot reach the cluster within %.1f s: %s%s%s", rc->timeout_ms / 1000.0,
			 rd_kafka_err2str(e), last[0] ? " (" : "", last[0] ? last : "");
		if (last[0])
			strncat(err, ")", errlen - strlen(err) - 1);
		*mdp = NULL;
		return -1;
	}
	const struct rd_kafka_metadata *md = *mdp;
	for (int i = 0; i < md->broker_cnt; i++) {
		bool known = false;
		for (size_t k = 0; k < rc->n_known_brokers && !known; k++)
			known = rc->known_brokers[k] == md->brokers[i].id;
		if (!known) {
			rc->known_brokers = xrealloc(rc->known_brokers,
						     (rc->n_known_brokers + 1) * sizeof *rc->known_brokers);
			rc->known_brokers[rc->n_known_brokers++] = md->brokers[i].id;
		}
	}
	s->brokers_up = md->broker_cnt;
	s->brokers_total = (int)rc->n_known_brokers;
	return 0;
}

/* ------------------------------------------------------------------ stage 2: group list */

static rd_kafka_event_t *wait_event(rd_kafka_queue_t *q, lt_client *cl, int64_t deadline, const bool *stop)
{
	while (!stopping(stop)) {
		int r = remaining_ms(deadline);
		if (r <= 0)
			return NULL;
		rd_kafka_event_t *ev = rd_kafka_queue_poll(q, r < POLL_SLICE_MS ? r : POLL_SLICE_MS);
		client_poll(cl);
		if (ev)
			return ev;
	}
	return NULL;
}

static void list_stage(struct lt_refresh_ctx *rc, lt_snapshot *s, rd_kafka_queue_t *q, int64_t deadline,
		       const bool *stop, struct work_set *ws)
{
	rd_kafka_t *rk = client_rk(rc->client);
	rd_kafka_AdminOptions_t *opt = rd_kafka_AdminOptions_new(rk, RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPS);
	char why[256];
	rd_kafka_AdminOptions_set_request_timeout(opt, remaining_ms(deadline), why, sizeof why);
	rd_kafka_ListConsumerGroups(rk, opt, q);
	rd_kafka_AdminOptions_destroy(opt);

	bool complete = false;
	rd_kafka_event_t *ev = wait_event(q, rc->client, deadline, stop);
	if (!ev) {
		errors_add(&s->error, "ListGroups: no answer within the timeout");
	} else if (rd_kafka_event_error(ev)) {
		errors_add(&s->error, "ListGroups: %s", rd_kafka_event_error_string(ev));
	} else {
		const rd_kafka_ListConsumerGroups_result_t *res = rd_kafka_event_ListConsumerGroups_result(ev);
		size_t n_valid = 0, n_err = 0;
		const rd_kafka_ConsumerGroupListing_t **valid = rd_kafka_ListConsumerGroups_result_valid(res, &n_valid);
		const rd_kafka_error_t **errs = rd_kafka_ListConsumerGroups_result_errors(res, &n_err);
		for (size_t i = 0; i < n_valid; i++) {
			const char *name = rd_kafka_ConsumerGroupListing_group_id(valid[i]);
			if (name && refresh_group_wanted(rc, name))
				work_add(ws, name, true);
		}
		for (size_t i = 0; i < n_err; i++)
			errors_add(&s->error, "ListGroups: %s", rd_kafka_error_string(errs[i]));
		complete = n_err == 0;
	}
	if (ev)
		rd_kafka_event_destroy(ev);

	/* A broker that did not answer may coordinate groups we showed last time: describe them anyway,
	 * so they stay (stale, with the error) instead of silently vanishing. */
	if (!complete && rc->prev)
		for (size_t i = 0; i < rc->prev->n_groups; i++)
			work_add(ws, rc->prev->groups[i].group, false);
	for (size_t i = 0; i < rc->n_extra; i++)
		work_add(ws, rc->extra[i], false);
	work_sort_unique(ws);
}

/* ------------------------------------------------------------------ stage 3: describe + offsets */

static void offsets_send(rd_kafka_t *rk, rd_kafka_AdminOptions_t *opt, rd_kafka_queue_t *q, struct group_work *gw,
			 int64_t deadline)
{
	char why[256];
	/* NULL partitions: every partition the group has committed (Empty groups have no assignment
	 * to ask about). One group per call in librdkafka 2.0.2; all calls share the queue. */
	rd_kafka_ListConsumerGroupOffsets_t *req = rd_kafka_ListConsumerGroupOffsets_new(gw->name, NULL);
	rd_kafka_AdminOptions_set_request_timeout(opt, remaining_ms(deadline) > 0 ? remaining_ms(deadline) : 1,
						  why, sizeof why);
	rd_kafka_AdminOptions_set_opaque(opt, gw);
	rd_kafka_ListConsumerGroupOffsets(rk, &req, 1, opt, q);
	rd_kafka_ListConsumerGroupOffsets_destroy(req);
	gw->off_sent = true;
}

static void set_error(struct group_work *gw, const char *what, const char *why)
{
	if (gw->error)
		return;
	gw->error = xasprintf("%s: %s", what, why);
}

static bool group_build(lt_snapshot *s, const struct group_work *gw);

/* Both answers in and no error: the group goes into the snapshot now and its result events are freed,
 * so a refresh never holds every group's librdkafka results at once (bench L: 78 MB). */
static void work_build_early(lt_snapshot *s, struct group_work *gw)
{
	if (gw->error || !gw->desc || !gw->off)
		return;
	group_build(s, gw);
	gw->built = true;
	gw->desc = NULL;
	gw->off = NULL;
	rd_kafka_event_destroy(gw->desc_ev);
	rd_kafka_event_destroy(gw->off_ev);
	gw->desc_ev = gw->off_ev = NULL;
}

static void describe_send(rd_kafka_t *rk, rd_kafka_AdminOptions_t *opt, rd_kafka_queue_t *q, struct group_work *gw,
			  int64_t deadline)
{
	char why[256];
	const char *name = gw->name;
	rd_kafka_AdminOptions_set_request_timeout(opt, remaining_ms(deadline) > 0 ? remaining_ms(deadline) : 1,
						  why, sizeof why);
	rd_kafka_AdminOptions_set_opaque(opt, gw);
	rd_kafka_DescribeConsumerGroups(rk, &name, 1, opt, q);
}

/* Describes at most DESCRIBE_WINDOW groups at a time, one group per call, and asks for a group's
 * offsets as soon as its description is in. librdkafka 2.0.2's coordinator cache keeps only ~11
 * groups: with every group in flight at once each OffsetFetch needed a FindCoordinator of its own
 * (two per group per refresh; bench M: 1,983 FindCoordinator for 1,000 groups). In a small window the
 * coordinator the describe looked up is still cached when the offsets request goes out: one
 * FindCoordinator per group, the fewest librdkafka's API allows. */
#define DESCRIBE_WINDOW 6

static void describe_offsets_stage(struct lt_refresh_ctx *rc, rd_kafka_queue_t *q, int64_t deadline,
				   const bool *stop, struct work_set *ws, lt_snapshot *s)
{
	if (ws->n == 0)
		return;
	rd_kafka_t *rk = client_rk(rc->client);
	rd_kafka_AdminOptions_t *dopt = rd_kafka_AdminOptions_new(rk, RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS);
	rd_kafka_AdminOptions_t *oopt = rd_kafka_AdminOptions_new(rk, RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS);
	size_t next = 0, describing = 0, pending = 0;

	for (;;) {
		while (next < ws->n && describing < DESCRIBE_WINDOW) {
			describe_send(rk, dopt, q, &ws->w[next++], deadline);
			describing++;
			pending++;
		}
		if (pending == 0)
			break;
		rd_kafka_event_t *ev = wait_event(q, rc->client, deadline, stop);
		if (!ev)
			break;
		pending--;
		switch (rd_kafka_event_type(ev)) {
		case RD_KAFKA_EVENT_DESCRIBECONSUMERGROUPS_RESULT: {
			struct group_work *gw = rd_kafka_event_opaque(ev);
			describing--;
			gw->desc_ev = ev;
			if (rd_kafka_event_error(ev)) {
				set_error(gw, "DescribeGroups", rd_kafka_event_error_string(ev));
			} else {
				size_t n = 0;
				const rd_kafka_ConsumerGroupDescription_t **d = rd_kafka_DescribeConsumerGroups_result_groups(
					rd_kafka_event_DescribeConsumerGroups_result(ev), &n);
				for (size_t i = 0; i < n; i++) {
					/* One group per call: only its own description counts. */
					if (strcmp(rd_kafka_ConsumerGroupDescription_group_id(d[i]), gw->name) != 0)
						continue;
					const rd_kafka_error_t *ge = rd_kafka_ConsumerGroupDescription_error(d[i]);
					if (ge)
						set_error(gw, "DescribeGroups", rd_kafka_error_string(ge));
					else
						gw->desc = d[i];
				}
			}
			gw->desc_done = true;
			if (!gw->off_sent) {
				offsets_send(rk, oopt, q, gw, deadline);
				pending++;
			}
			break;
		}
		case RD_KAFKA_EVENT_LISTCONSUMERGROUPOFFSETS_RESULT: {
			struct group_work *gw = rd_kafka_event_opaque(ev);
			gw->off_done = true;
			gw->off_ev = ev;
			if (rd_kafka_event_error(ev)) {
				set_error(gw, "OffsetFetch", rd_kafka_event_error_string(ev));
				break;
			}
			size_t n = 0;
			const rd_kafka_group_result_t **gr = rd_kafka_ListConsumerGroupOffsets_result_groups(
				rd_kafka_event_ListConsumerGroupOffsets_result(ev), &n);
			if (n < 1) {
				set_error(gw, "OffsetFetch", "empty result");
			} else if (rd_kafka_group_result_error(gr[0])) {
				set_error(gw, "OffsetFetch", rd_kafka_error_string(rd_kafka_group_result_error(gr[0])));
			} else {
				gw->off = gr[0];
			}
			work_build_early(s, gw);
			break;
		}
		default:
			rd_kafka_event_destroy(ev);
			pending++; /* not ours (cannot happen on a private queue) */
			break;
		}
	}
	rd_kafka_AdminOptions_destroy(dopt);
	rd_kafka_AdminOptions_destroy(oopt);

	for (size_t i = 0; i < ws->n; i++) {
		struct group_work *gw = &ws->w[i];
		const char *why_missing = stopping(stop) ? "refresh interrupted" : "no answer within the timeout";
		if (!gw->desc_done)
			set_error(gw, "DescribeGroups", why_missing);
		else if (!gw->off_done)
			set_error(gw, "OffsetFetch", why_missing);
	}
}

/* ------------------------------------------------------------------ building groups */

static lt_group_state state_from_rd(rd_kafka_consumer_group_state_t st)
{
	switch (st) {
	case RD_KAFKA_CONSUMER_GROUP_STATE_PREPARING_REBALANCE: return LT_GROUP_PREPARING_REBALANCE;
	case RD_KAFKA_CONSUMER_GROUP_STATE_COMPLETING_REBALANCE: return LT_GROUP_COMPLETING_REBALANCE;
	case RD_KAFKA_CONSUMER_GROUP_STATE_STABLE: return LT_GROUP_STABLE;
	case RD_KAFKA_CONSUMER_GROUP_STATE_DEAD: return LT_GROUP_DEAD;
	case RD_KAFKA_CONSUMER_GROUP_STATE_EMPTY: return LT_GROUP_EMPTY;
	default: return LT_GROUP_UNKNOWN;
	}
}

/* Copies a previous group's observed data into s, marked stale. */
static lt_group *group_copy_stale(lt_snapshot *s, const lt_group *pg, int64_t prev_taken_at, int64_t now,
				  const char *error)
{
	lt_group *g = snapshot_add_group(s, pg->group);
	g->state = pg->state;
	g->protocol_type = xstrdup(pg->protocol_type);
	g->protocol = xstrdup(pg->protocol);
	g->coordinator = pg->coordinator;
	g->error = xstrdup(error ? error : pg->error);
	/* Age of the data: how old it already was, plus the time since that refresh. */
	g->stale_ms = pg->stale_ms + (now - prev_taken_at);
	for (size_t m = 0; m < pg->n_members; m++) {
		const lt_member *pm = &pg->members[m];
		lt_member *nm = group_add_member(g, pm->member_id, pm->client_id, pm->host);
		nm->instance_id = xstrdup(pm->instance_id);
		for (size_t a = 0; a < pm->n_assigned; a++)
			member_add_assignment(nm, pm->assigned[a].topic, pm->assigned[a].partition);
	}
	for (size_t k = 0; k < pg->n_partitions; k++) {
		const lt_partition *pp = &pg->partitions[k];
		lt_partition *np = group_add_partition(g, pp->topic, pp->partition);
		np->log_start = pp->log_start;
		np->committed = pp->committed;
		np->log_end = pp->log_end;
		np->commit_metadata = xstrdup(pp->commit_metadata);
		np->flags = LT_PF_STALE | (pp->flags & LT_PF_NO_LEADER);
		np->stale_ms = g->stale_ms;
	}
	return g;
}

static bool partition_in(const lt_group *g, const char *topic, int32_t partition)
{
	for (size_t k = 0; k < g->n_partitions; k++)
		if (g->partitions[k].partition == partition && strcmp(g->partitions[k].topic, topic) == 0)
			return true;
	return false;
}

/* Builds the group from fresh results. Returns false when the group does not exist (an extra or
 * formerly seen group that describes as Dead, with no members and no committed offsets). */
static bool group_build(lt_snapshot *s, const struct group_work *gw)
{
	const rd_kafka_ConsumerGroupDescription_t *d = gw->desc;
	const rd_kafka_topic_partition_list_t *offs = gw->off ? rd_kafka_group_result_partitions(gw->off) : NULL;
	size_t n_commits = 0;
	for (int i = 0; offs && i < offs->cnt; i++)
		n_commits += offs->elems[i].offset >= 0;
	lt_group_state st = state_from_rd(rd_kafka_ConsumerGroupDescription_state(d));
	size_t n_members = rd_kafka_ConsumerGroupDescription_member_count(d);
	if (st == LT_GROUP_DEAD && n_members == 0 && n_commits == 0)
		return false;

	lt_group *g = snapshot_add_group(s, gw->name);
	g->state = st;
	g->protocol_type = xstrdup(rd_kafka_ConsumerGroupDescription_is_simple_consumer_group(d) ? "" : "consumer");
	const char *assignor = rd_kafka_ConsumerGroupDescription_partition_assignor(d);
	g->protocol = xstrdup(assignor ? assignor : "");
	const rd_kafka_Node_t *coord = rd_kafka_ConsumerGroupDescription_coordinator(d);
	g->coordinator = coord ? rd_kafka_Node_id(coord) : -1;
	for (size_t m = 0; m < n_members; m++) {
		const rd_kafka_MemberDescription_t *md = rd_kafka_ConsumerGroupDescription_member(d, m);
		lt_member *lm = group_add_member(g, rd_kafka_MemberDescription_consumer_id(md),
						 rd_kafka_MemberDescription_client_id(md),
						 rd_kafka_MemberDescription_host(md));
		lm->instance_id = xstrdup(rd_kafka_MemberDescription_group_instance_id(md));
		const rd_kafka_MemberAssignment_t *ma = rd_kafka_MemberDescription_assignment(md);
		const rd_kafka_topic_partition_list_t *ap = ma ? rd_kafka_MemberAssignment_partitions(ma) : NULL;
		for (int i = 0; ap && i < ap->cnt; i++)
			member_add_assignment(lm, ap->elems[i].topic, ap->elems[i].partition);
	}
	for (int i = 0; offs && i < offs->cnt; i++) {
		const rd_kafka_topic_partition_t *tp = &offs->elems[i];
		/* -1: no commit for this partition (an "all partitions" fetch may still list it). */
		if (tp->offset < 0 || partition_in(g, tp->topic, tp->partition))
			continue;
		lt_partition *p = group_add_partition(g, tp->topic, tp->partition);
		p->committed = tp->err ? LT_OFFSET_NONE : tp->offset;
		if (tp->metadata && tp->metadata_size > 0)
			p->commit_metadata = xstrndup(tp->metadata, tp->metadata_size);
	}
	return true;
}

/* ------------------------------------------------------------------ stage 4: log offsets */

struct tp_ent {
	const char *topic;  /* points into the snapshot */
	int32_t partition;
	int32_t leader;     /* -1: none (topic gone, partition unknown, no leader) */
	int64_t log_start, log_end;
	bool ok;
};

static int cmp_tp(const void *a, const void *b)
{
	const struct tp_ent *x = a, *y = b;
	int c = strcmp(x->topic, y->topic);
	if (c)
		return c;
	return (x->partition > y->partition) - (x->partition < y->partition);
}

static int cmp_tp_leader(const void *a, const void *b)
{
	const struct tp_ent *x = a, *y = b;
	if (x->leader != y->leader)
		return (x->leader > y->leader) - (x->leader < y->leader);
	return cmp_tp(a, b);
}

static int cmp_md_topic(const void *a, const void *b)
{
	return strcmp((*(const rd_kafka_metadata_topic_t *const *)a)->topic,
		      (*(const rd_kafka_metadata_topic_t *const *)b)->topic);
}

static int32_t leader_of(const rd_kafka_metadata_topic_t *const *idx, size_t n, const struct rd_kafka_metadata *md,
			 const char *topic, int32_t partition)
{
	rd_kafka_metadata_topic_t key = { .topic = (char *)topic };
	const rd_kafka_metadata_topic_t *kp = &key;
	const rd_kafka_metadata_topic_t *const *hit = bsearch(&kp, idx, n, sizeof *idx, cmp_md_topic);
	if (!hit || (*hit)->err)
		return -1;
	for (int i = 0; i < (*hit)->partition_cnt; i++) {
		const rd_kafka_metadata_partition_t *mp = &(*hit)->partitions[i];
		if (mp->id != partition)
			continue;
		if (mp->leader < 0)
			return -1;
		for (int b = 0; b < md->broker_cnt; b++)
			if (md->brokers[b].id == mp->leader)
				return mp->leader;
		return -1; /* leader not among the live brokers */
	}
	return -1;
}

struct leader_job {
	rd_kafka_t *rk;
	struct tp_ent *tps;    /* this leader's range */
	size_t n;
	int64_t deadline;
	rd_kafka_resp_err_t err;
	int32_t leader;
};

/* Two offsets_for_times calls for one chunk of a leader's partitions: −2 (log start) then −1 (log end);
 * each sends one ListOffsets. A call per leader (rather than one for all) keeps a dead leader from
 * failing the others: offsets_for_times drops every result when any leader fails. */
static void *leader_job_run(void *arg)
{
	struct leader_job *j = arg;
	static const int64_t which[2] = { -2, -1 };
	for (int w = 0; w < 2 && !j->err; w++) {
		rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new((int)j->n);
		for (size_t i = 0; i < j->n; i++)
			rd_kafka_topic_partition_list_add(l, j->tps[i].topic, j->tps[i].partition)->offset = which[w];
		int r = remaining_ms(j->deadline);
		j->err = r > 0 ? rd_kafka_offsets_for_times(j->rk, l, r) : RD_KAFKA_RESP_ERR__TIMED_OUT;
		for (int i = 0; !j->err && i < l->cnt; i++) {
			const rd_kafka_topic_partition_t *e = &l->elems[i];
			struct tp_ent *t = &j->tps[i];
			/* The list keeps its order: element i is tps[i]. */
			if (e->err || e->offset < 0) {
				t->ok = false;
				continue;
			}
			if (w == 0) {
				t->log_start = e->offset;
				t->ok = true;
			} else if (t->ok) {
				t->log_end = e->offset;
			}
		}
		rd_kafka_topic_partition_list_destroy(l);
	}
	if (j->err)
		for (size_t i = 0; i < j->n; i++)
			j->tps[i].ok = false;
	return NULL;
}

static void log_offsets_stage(struct lt_refresh_ctx *rc, lt_snapshot *s, const struct rd_kafka_metadata *md,
			      int64_t deadline)
{
	size_t n = 0, cap = 0;
	struct tp_ent *tps = NULL;
	for (size_t g = 0; g < s->n_groups; g++) {
		lt_group *gr = &s->groups[g];
		if (gr->error)
			continue; /* stale or failed groups keep last round's numbers */
		for (size_t k = 0; k < gr->n_partitions; k++) {
			tps = xgrow(tps, &cap, n + 1, sizeof *tps);
			tps[n++] = (struct tp_ent){ .topic = gr->partitions[k].topic,
						    .partition = gr->partitions[k].partition };
		}
	}
	if (n == 0)
		return;
	qsort(tps, n, sizeof *tps, cmp_tp);
	size_t u = 0;
	for (size_t i = 1; i < n; i++)
		if (cmp_tp(&tps[i], &tps[u]) != 0)
			tps[++u] = tps[i];
	n = u + 1;

	const rd_kafka_metadata_topic_t **idx = xcalloc((size_t)md->topic_cnt + 1, sizeof *idx);
	for (int i = 0; i < md->topic_cnt; i++)
		idx[i] = &md->topics[i];
	qsort(idx, (size_t)md->topic_cnt, sizeof *idx, cmp_md_topic);
	for (size_t i = 0; i < n; i++) {
		tps[i].leader = leader_of(idx, (size_t)md->topic_cnt, md, tps[i].topic, tps[i].partition);
		tps[i].log_start = tps[i].log_end = LT_OFFSET_NONE;
	}
	free(idx);
	qsort(tps, n, sizeof *tps, cmp_tp_leader);

	size_t n_jobs = 0;
	struct leader_job *jobs = xcalloc(n, sizeof *jobs);
	for (size_t i = 0; i < n;) {
		size_t e = i;
		while (e < n && tps[e].leader == tps[i].leader)
			e++;
		for (size_t c = i; tps[i].leader >= 0 && c < e; c += OFFSETS_CHUNK)
			jobs[n_jobs++] = (struct leader_job){ .rk = client_rk(rc->client), .tps = &tps[c],
							      .n = e - c < OFFSETS_CHUNK ? e - c : OFFSETS_CHUNK,
							      .deadline = deadline, .leader = tps[i].leader };
		i = e;
	}
	for (size_t b = 0; b < n_jobs; b += MAX_LEADER_THREADS) {
		pthread_t th[MAX_LEADER_THREADS];
		bool started[MAX_LEADER_THREADS] = { false };
		size_t end = b + MAX_LEADER_THREADS < n_jobs ? b + MAX_LEADER_THREADS : n_jobs;
		for (size_t j = b; j < end; j++)
			started[j - b] = pthread_create(&th[j - b], NULL, leader_job_run, &jobs[j]) == 0;
		for (size_t j = b; j < end; j++) {
			if (started[j - b])
				pthread_join(th[j - b], NULL);
			else
				leader_job_run(&jobs[j]);
		}
	}
	for (size_t j = 0; j < n_jobs; j++)
		if (jobs[j].err)
			errors_add(&s->error, "ListOffsets (broker %d): %s", (int)jobs[j].leader,
				   rd_kafka_err2str(jobs[j].err));
	free(jobs);

	qsort(tps, n, sizeof *tps, cmp_tp);
	for (size_t g = 0; g < s->n_groups; g++) {
		lt_group *gr = &s->groups[g];
		if (gr->error)
			continue;
		for (size_t k = 0; k < gr->n_partitions; k++) {
			lt_partition *p = &gr->partitions[k];
			struct tp_ent key = { .topic = p->topic, .partition = p->partition };
			struct tp_ent *t = bsearch(&key, tps, n, sizeof *tps, cmp_tp);
			if (t && t->ok) {
				p->log_start = t->log_start;
				p->log_end = t->log_end;
			} else {
				p->flags |= LT_PF_NO_LEADER;
			}
		}
	}
	free(tps);
}

/* ------------------------------------------------------------------ the refresh */

static void carry_all_stale(struct lt_refresh_ctx *rc, lt_snapshot *s, int64_t now, const char *why)
{
	for (size_t i = 0; rc->prev && i < rc->prev->n_groups; i++)
		group_copy_stale(s, &rc->prev->groups[i], rc->prev->taken_at_ms, now, why);
}

int refresh_run(struct lt_refresh_ctx *rc, const bool *stop, lt_snapshot **out, char *err, size_t errlen)
{
	int64_t t0 = now_mono_ms();
	int64_t deadline = t0 + rc->timeout_ms;
	lt_snapshot *s = snapshot_new();
	s->seq = ++rc->seq;
	s->taken_at_ms = now_wall_ms();
	s->cluster = xstrdup(rc->cluster_name);
	*out = s;
	err[0] = '\0';

	const struct rd_kafka_metadata *md = NULL;
	if (metadata_stage(rc, s, deadline, &md, err, errlen) != 0) {
		s->error = xstrdup(err);
		s->brokers_total = (int)rc->n_known_brokers;
		carry_all_stale(rc, s, s->taken_at_ms, err);
		snapshot_finish(s);
		s->duration_ms = now_mono_ms() - t0;
		return LT_REFRESH_UNREACHABLE;
	}

	rd_kafka_queue_t *q = rd_kafka_queue_new(client_rk(rc->client));
	struct work_set ws = { 0 };
	list_stage(rc, s, q, deadline, stop, &ws);
	describe_offsets_stage(rc, q, deadline, stop, &ws, s);

	for (size_t i = 0; i < ws.n; i++) {
		struct group_work *gw = &ws.w[i];
		if (gw->built)
			continue;
		if (!gw->error && gw->desc && gw->off) {
			group_build(s, gw);
			continue;
		}
		const lt_group *pg = snapshot_find_group(rc->prev, gw->name);
		if (pg) {
			group_copy_stale(s, pg, rc->prev->taken_at_ms, s->taken_at_ms, gw->error);
		} else if (gw->listed || (gw->desc && gw->off)) {
			/* Never seen before and failed now: show it with its error, nothing else known. */
			lt_group *g = snapshot_add_group(s, gw->name);
			g->error = xstrdup(gw->error ? gw->error : "incomplete answer");
			if (gw->desc)
				g->state = state_from_rd(rd_kafka_ConsumerGroupDescription_state(gw->desc));
		} else if (gw->error) {
			errors_add(&s->error, "group %s: %s", gw->name, gw->error);
		}
	}
	for (size_t i = 0; i < ws.n; i++) {
		if (ws.w[i].desc_ev)
			rd_kafka_event_destroy(ws.w[i].desc_ev);
		if (ws.w[i].off_ev)
			rd_kafka_event_destroy(ws.w[i].off_ev);
		free(ws.w[i].name);
		free(ws.w[i].error);
	}
	free(ws.w);
	rd_kafka_queue_destroy(q);

	if (!stopping(stop))
		log_offsets_stage(rc, s, md, deadline);
	rd_kafka_metadata_destroy(md);
	client_poll(rc->client);

	snapshot_finish(s);
	s->duration_ms = now_mono_ms() - t0;
	bool partial = s->error != NULL;
	for (size_t i = 0; i < s->n_groups && !partial; i++)
		partial = s->groups[i].error != NULL;
	return partial ? LT_REFRESH_PARTIAL : LT_REFRESH_OK;
}
