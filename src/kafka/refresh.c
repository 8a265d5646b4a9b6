/* refresh.c — one refresh: metadata, group list, describes, committed offsets, log offsets (refresh.h). */
#include "config.h"

#include "kafka/refresh.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "commitlog/stream.h"
#include "kafka/assignment.h"
#include "kafka/explain.h"
#include "kafka/group_batch.h"
#include "kafka/log_offsets.h"
#include "model/group_view.h"
#include "util/errbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

/* The event loop wakes at least this often to notice a stop request. */
#define POLL_SLICE_MS 100

static bool stopping(const bool *stop)
{
	return stop && __atomic_load_n(stop, __ATOMIC_ACQUIRE);
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
	bool listed;               /* ListGroups returned it (else: an extra group, or kept from the last refresh) */
	lt_group_state list_state; /* its state in ListGroups' answer, when listed */
	lt_group_type list_type;   /* and its type (ListGroups v5, librdkafka >= 2.10; else unknown) */
	int32_t coord;             /* coordinator broker id: last refresh's, then the describe's; -1 unknown */
	bool warm;                 /* coordinator known from last refresh: requests go straight to it */
	bool desc_sent, desc_done, off_sent, off_done, off_retried;
	int probes;                    /* brokers asked after NOT_COORDINATOR (see probe_next_broker) */
	const struct lt_ticket *probe; /* the describe ticket of the probe in flight, NULL if none */
	const rd_kafka_ConsumerGroupDescription_t *desc; /* points into a kept event */
	const struct rd_kafka_group_info *binfo;         /* or its description from the batch (group_batch.h) */
	bool batch_wait;                                 /* its describe is the batch's, which has not returned */
	bool desc_asked;                                 /* a describe of its own went out (warm_top_up) */
	const rd_kafka_group_result_t *off;              /* idem */
	struct kept_event *desc_ev, *off_ev;             /* the events they point into */
	bool built;                                      /* in the snapshot already: its events are released */
	bool unauthorized; /* GROUP_AUTHORIZATION_FAILED: no Describe on it (left out, counted once) */
	char *error;
	/* steady refresh (see steady_decide) */
	bool deferred;    /* waits for ListGroups to decide between the stream and a describe */
	bool swept;       /* this refresh's slice of the full sweep: described, fetched and verified */
	bool from_stream; /* built from the last snapshot and the stream's commits */
	int32_t gen;      /* the stream's generation for it before it was described, -2 unknown */
	/* committed offsets from the stream instead of OffsetFetch (stream_offsets) */
	bool off_parked; /* described; waits for the stream to catch up (--once) before either */
	bool off_stream; /* soff holds its committed offsets */
	struct stream_off *soff;
	size_t n_soff;
};

/* A live commit copied out of the stream (its topic is only valid under the stream's lock). */
struct stream_off {
	char *topic;
	int32_t partition, leader_epoch;
	int64_t offset;
};

static void soff_free(struct group_work *gw)
{
	for (size_t i = 0; i < gw->n_soff; i++)
		free(gw->soff[i].topic);
	free(gw->soff);
	gw->soff = NULL;
	gw->n_soff = 0;
}

/* Described: by the per-group call or by the batch. */
static bool has_desc(const struct group_work *gw)
{
	return gw->desc || gw->binfo;
}

/* Pointers, so that a group's work stays put while the set grows (requests hold it as opaque). */
struct work_set {
	struct group_work **w; /* sorted by name after work_sort() */
	size_t n, cap;
	bool list_done;           /* every broker's ListGroups answered (possibly with errors) */
	bool list_complete;       /* ... and every broker answered: a group it did not list does not exist */
	bool commit_epochs;       /* keep the commits' leader epochs (the refresh context's setting) */
	lt_commit_reader *verify; /* steady refresh: compare fetched offsets with the stream (verify_group) */
	int64_t taken_at_ms;      /* the refresh's start (wall clock) */
	struct lt_refresh_stats *stats;
	lt_group_batch *batch;   /* the batched describe (binfo points into it), NULL when not used */
	const lt_snapshot *prev; /* the last snapshot: a batch-described member's group.instance.id */
};

static int cmp_work(const void *a, const void *b)
{
	return strcmp((*(struct group_work *const *)a)->name, (*(struct group_work *const *)b)->name);
}

static struct group_work *work_find(const struct work_set *ws, const char *name)
{
	struct group_work key = { .name = (char *)name }, *kp = &key;
	struct group_work **hit = ws->n ? bsearch(&kp, ws->w, ws->n, sizeof *ws->w, cmp_work) : NULL;
	return hit ? *hit : NULL;
}

static struct group_work *work_add(struct work_set *ws, const char *name, bool listed)
{
	ws->w = xgrow(ws->w, &ws->cap, ws->n + 1, sizeof *ws->w);
	struct group_work *gw = xcalloc(1, sizeof *gw);
	gw->name = xstrdup(name);
	gw->listed = listed;
	gw->coord = -1;
	gw->gen = -2;
	ws->w[ws->n++] = gw;
	return gw;
}

/* Sorts and merges duplicates (a group both remembered and given as extra is one group). */
static void work_sort(struct work_set *ws)
{
	if (ws->n == 0)
		return;
	qsort(ws->w, ws->n, sizeof *ws->w, cmp_work);
	size_t o = 0;
	for (size_t i = 1; i < ws->n; i++) {
		if (strcmp(ws->w[i]->name, ws->w[o]->name) == 0) {
			if (ws->w[i]->listed && !ws->w[o]->listed) {
				ws->w[o]->list_state = ws->w[i]->list_state;
				ws->w[o]->list_type = ws->w[i]->list_type;
			}
			ws->w[o]->listed |= ws->w[i]->listed;
			free(ws->w[i]->name);
			free(ws->w[i]);
		} else {
			ws->w[++o] = ws->w[i];
		}
	}
	ws->n = o + 1;
}

static void work_free(struct work_set *ws)
{
	for (size_t i = 0; i < ws->n; i++) {
		free(ws->w[i]->name);
		free(ws->w[i]->error);
		soff_free(ws->w[i]);
		free(ws->w[i]);
	}
	free(ws->w);
}

/* Kept result events: descriptions and offsets point into them until their groups are built. A
 * group is built into the snapshot as soon as both its answers are in, and an event is destroyed
 * when the last group using it is built: on bench L the events of all 5,000 groups together are
 * ~78 MB, which holding them to the end of the refresh added to the peak RSS. */
struct kept_event {
	rd_kafka_event_t *ev; /* NULL once destroyed */
	size_t users;         /* groups whose desc/off point into it and are not built yet */
};

struct event_keep {
	struct kept_event **ev;
	size_t n, cap;
};

static struct kept_event *keep_event(struct event_keep *k, rd_kafka_event_t *ev)
{
	k->ev = xgrow(k->ev, &k->cap, k->n + 1, sizeof *k->ev);
	struct kept_event *ke = xcalloc(1, sizeof *ke);
	ke->ev = ev;
	k->ev[k->n++] = ke;
	return ke;
}

/* Destroys the event if no group uses it (any more). */
static void release_event(struct kept_event *ke, bool drop_user)
{
	if (!ke)
		return;
	if (drop_user && ke->users > 0)
		ke->users--;
	if (ke->users == 0 && ke->ev) {
		rd_kafka_event_destroy(ke->ev);
		ke->ev = NULL;
	}
}

static void keep_free(struct event_keep *k)
{
	for (size_t i = 0; i < k->n; i++) {
		if (k->ev[i]->ev)
			rd_kafka_event_destroy(k->ev[i]->ev);
		free(k->ev[i]);
	}
	free(k->ev);
}

/* ------------------------------------------------------------------ stage 1: metadata */

static int metadata_stage(struct lt_refresh_ctx *rc, lt_snapshot *s, int64_t deadline,
			  const struct rd_kafka_metadata **mdp, char *err, size_t errlen)
{
	rd_kafka_t *rk = client_rk(rc->client);
	/* Several shorter attempts rather than one long one: librdkafka sends the request to one broker
	 * it believes usable, and if that broker has just died the request waits for the whole timeout
	 * while the others could answer. Each attempt picks a usable broker anew. */
	int slice = rc->timeout_ms / 4 > 500 ? rc->timeout_ms / 4 : 500;
	rd_kafka_resp_err_t e = RD_KAFKA_RESP_ERR__TIMED_OUT;
	while (deadline_remaining_ms(deadline) > 0) {
		int r = deadline_remaining_ms(deadline);
		e = rd_kafka_metadata(rk, 1, NULL, mdp, r < slice ? r : slice);
		client_poll(rc->client);
		if (e == RD_KAFKA_RESP_ERR_NO_ERROR)
			break;
		if (client_security_failed(rc->client))
			break; /* wrong credentials or certificates: waiting out the timeout will not change them */
	}
	if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
		char last[512];
		client_last_error(rc->client, last, sizeof last);
		if (client_security_failed(rc->client) && last[0]) {
			snprintf(err, errlen, "cannot connect to the cluster: %s", last);
		} else {
			snprintf(err, errlen, "cannot reach the cluster within %.1f s: %s%s%s", rc->timeout_ms / 1000.0,
				 rd_kafka_err2str(e), last[0] ? " (" : "", last[0] ? last : "");
			if (last[0])
				strncat(err, ")", errlen - strlen(err) - 1);
		}
		*mdp = NULL;
		return -1;
	}
	const struct rd_kafka_metadata *md = *mdp;
	for (int i = 0; i < md->broker_cnt; i++) {
		snapshot_add_broker(s, md->brokers[i].id, md->brokers[i].host, md->brokers[i].port);
		bool known = false;
		for (size_t k = 0; k < rc->n_known_brokers && !known; k++)
			known = rc->known_brokers[k] == md->brokers[i].id;
		if (!known) {
			rc->known_brokers =
				xrealloc(rc->known_brokers, (rc->n_known_brokers + 1) * sizeof *rc->known_brokers);
			rc->known_brokers[rc->n_known_brokers++] = md->brokers[i].id;
		}
	}
	s->brokers_up = md->broker_cnt;
	s->brokers_total = (int)rc->n_known_brokers;
	return 0;
}

/* ------------------------------------------------------------------ stage 2: groups */

/* One event loop for the group list, the describes and the committed offsets:
 *  - ListConsumerGroups goes out first, with a shorter timeout (a dead broker must not hold the
 *    refresh: librdkafka keeps sending it ListGroups until the request times out);
 *  - at the same time, the groups of the last refresh are described and their offsets fetched:
 *    they rarely change, and a broker that does not answer ListGroups cannot make them vanish;
 *  - groups the list adds are described when it arrives, and their offsets fetched when their
 *    describe answers.
 * Why requests name their broker: librdkafka 2.0.2 sends a FindCoordinator before every group admin
 * request unless the coordinator is in its cache, and that cache keeps only about ten entries. With
 * hundreds of groups it never hits, which would make four requests per group. So a group's
 * coordinator comes from the last refresh (or from this refresh's describe, which did the one
 * FindCoordinator), and the request goes straight there (rd_kafka_AdminOptions_set_broker). A group
 * whose coordinator moved fails there once and is retried through the FindCoordinator path. */

static rd_kafka_event_t *wait_event(rd_kafka_queue_t *q, lt_client *cl, int64_t deadline, const bool *stop,
				    const lt_group_batch *batch)
{
	while (!stopping(stop)) {
		if (batch && group_batch_ready(batch))
			return NULL; /* the batch's thread yielded the queue: the caller takes its answer */
		int r = deadline_remaining_ms(deadline);
		if (r <= 0)
			return NULL;
		rd_kafka_event_t *ev = rd_kafka_queue_poll(q, r < POLL_SLICE_MS ? r : POLL_SLICE_MS);
		client_poll(cl);
		if (ev)
			return ev;
	}
	return NULL;
}

/* Every admin request carries a ticket as its opaque. Results are matched to the current refresh's
 * work by group name, never by pointer, because a request may be answered after its refresh ended
 * (then the answer is dropped).
 *
 * Why requests through FindCoordinator ("cold") get an hour-long timeout: in librdkafka 2.0.2 an
 * admin request that times out while its coordinator lookup is still pending (the coordinator is
 * down) aborts the process on an assertion when the coordinator comes back
 * (rd_kafka_enq_once_del_source_return: eonce->refcnt > 0; librdkafka issue 4605). So a cold request
 * is never allowed to time out in practice: the refresh stops waiting for it at its own deadline,
 * the request stays in flight, and the group is not asked about the long way again until it answers.
 * Requests sent to a named broker do not look up coordinators and keep the refresh's timeout. */
enum ticket_kind { TICKET_LIST, TICKET_DESCRIBE, TICKET_OFFSETS };

struct lt_ticket {
	struct lt_ticket *prev, *next;
	enum ticket_kind kind;
	uint64_t seq;   /* the refresh that sent it */
	bool cold;      /* through FindCoordinator */
	int32_t broker; /* a list's broker */
	size_t n;       /* groups: a describe's batch, or the one group of an offsets request */
	char **names;
};

#define COLD_TIMEOUT_MS (3600 * 1000)

static struct lt_ticket *ticket_new(struct lt_refresh_ctx *rc, enum ticket_kind kind, bool cold,
				    struct group_work *const *g, size_t n)
{
	struct lt_ticket *t = xcalloc(1, sizeof *t);
	t->kind = kind;
	t->seq = rc->seq;
	t->cold = cold;
	t->n = n;
	t->names = xcalloc(n + 1, sizeof *t->names);
	for (size_t i = 0; i < n; i++)
		t->names[i] = xstrdup(g[i]->name);
	t->next = rc->tickets;
	if (rc->tickets)
		rc->tickets->prev = t;
	rc->tickets = t;
	return t;
}

static void ticket_free(struct lt_refresh_ctx *rc, struct lt_ticket *t)
{
	if (t->prev)
		t->prev->next = t->next;
	else
		rc->tickets = t->next;
	if (t->next)
		t->next->prev = t->prev;
	for (size_t i = 0; i < t->n; i++)
		free(t->names[i]);
	free(t->names);
	free(t);
}

/* Is a cold describe for this group still in flight from an earlier refresh? */
static bool cold_in_flight(const struct lt_refresh_ctx *rc, const char *name)
{
	for (const struct lt_ticket *t = rc->tickets; t; t = t->next)
		if (t->cold && t->seq != rc->seq)
			for (size_t i = 0; i < t->n; i++)
				if (strcmp(t->names[i], name) == 0)
					return true;
	return false;
}

void refresh_ctx_close(struct lt_refresh_ctx *rc)
{
	if (rc->q)
		rd_kafka_queue_destroy(rc->q);
	rc->q = NULL;
	while (rc->tickets)
		ticket_free(rc, rc->tickets);
}

struct stage2 {
	struct lt_refresh_ctx *rc;
	lt_snapshot *s;
	rd_kafka_t *rk;
	rd_kafka_queue_t *q;
	int64_t deadline;      /* for requests to named brokers */
	size_t pending;        /* this refresh's results still expected */
	size_t lists_pending;  /* brokers whose ListGroups has not answered */
	bool list_failed;      /* some broker's ListGroups failed: a group not listed may still exist */
	bool *list_answered;   /* per md->brokers[i] */
	struct warm_ent *warm; /* warm groups in sending order (send_warm) */
	size_t n_warm, next_warm;
	const struct rd_kafka_metadata *md; /* this refresh's brokers */
	bool steady;      /* the commit stream is caught up: quiet groups are not asked (steady_decide) */
	bool stream_wait; /* --once, stream still loading: described groups park (stream_offsets) */
	size_t n_parked;
	size_t warm_cap;
	lt_group_batch *batch; /* the batched describe (group_batch.h), NULL when not used */
	bool batch_pending;    /* it has not returned yet (counted in pending) */
};

static void options_timeout(rd_kafka_AdminOptions_t *opt, int64_t deadline, bool cold)
{
	char why[256];
	int r = cold ? COLD_TIMEOUT_MS : deadline_remaining_ms(deadline);
	rd_kafka_AdminOptions_set_request_timeout(opt, r > 0 ? r : 1, why, sizeof why);
}

static void describe_send(struct stage2 *st, struct group_work **g, size_t n, int32_t broker)
{
	if (n == 0)
		return;
	struct lt_ticket *t = ticket_new(st->rc, TICKET_DESCRIBE, broker < 0, g, n);
	const char **names = xcalloc(n, sizeof *names);
	for (size_t i = 0; i < n; i++)
		names[i] = g[i]->name;
	rd_kafka_AdminOptions_t *opt = rd_kafka_AdminOptions_new(st->rk, RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS);
	options_timeout(opt, st->deadline, broker < 0);
	char why[256];
	if (broker >= 0)
		rd_kafka_AdminOptions_set_broker(opt, broker, why, sizeof why);
	rd_kafka_AdminOptions_set_opaque(opt, t);
	rd_kafka_DescribeConsumerGroups(st->rk, names, n, opt, st->q);
	rd_kafka_AdminOptions_destroy(opt);
	free(names);
	st->pending++;
	st->rc->stats.described += n;
}

static void offsets_send(struct stage2 *st, struct group_work *gw, int32_t broker)
{
	struct lt_ticket *t = ticket_new(st->rc, TICKET_OFFSETS, broker < 0, &gw, 1);
	rd_kafka_AdminOptions_t *opt = rd_kafka_AdminOptions_new(st->rk, RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS);
	options_timeout(opt, st->deadline, broker < 0);
	char why[256];
	if (broker >= 0)
		rd_kafka_AdminOptions_set_broker(opt, broker, why, sizeof why);
	rd_kafka_AdminOptions_set_opaque(opt, t);
	/* NULL partitions: every partition the group has committed (Empty groups have no assignment
	 * to ask about). One group per call in librdkafka 2.0.2; all calls share the queue. */
	rd_kafka_ListConsumerGroupOffsets_t *req = rd_kafka_ListConsumerGroupOffsets_new(gw->name, NULL);
	rd_kafka_ListConsumerGroupOffsets(st->rk, &req, 1, opt, st->q);
	rd_kafka_ListConsumerGroupOffsets_destroy(req);
	rd_kafka_AdminOptions_destroy(opt);
	gw->off_sent = true;
	st->pending++;
	st->rc->stats.fetched++;
}

static void set_error(struct group_work *gw, const char *what, const char *why)
{
	if (gw->error)
		return;
	char acl[200];
	gw->error = xasprintf("%s: %s", what, explain_authorization(what, why, acl, sizeof acl) ? acl : why);
	/* A principal allowed to Describe only some groups still gets the others from ListGroups when it
	 * may Describe the cluster: those are left out of the snapshot and counted in its error. */
	if (strstr(why, rd_kafka_err2str(RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED)))
		gw->unauthorized = true;
}

static int cmp_coord(const void *a, const void *b)
{
	const struct group_work *const *x = a, *const *y = b;
	if ((*x)->coord != (*y)->coord)
		return ((*x)->coord > (*y)->coord) - ((*x)->coord < (*y)->coord);
	return strcmp((*x)->name, (*y)->name);
}

/* Groups per warm describe call. librdkafka 2.0.2 sends one DescribeGroups request per group anyway
 * (the simulator counts them), but answers a call with one event when all of its groups are in: a
 * group is built, and its offsets event freed, only once its describe event is in. With one call per
 * coordinator (1,667 groups on bench L) every offsets event waited for the largest describe, and the
 * peak RSS held all of them; batches let groups be built while the rest are in flight. */
#define DESCRIBE_BATCH 32
/* Warm admin calls in flight at most (a describe batch and its offsets calls are 33). Sending all of
 * bench L's 10,000 requests at once held ~45 MB of request and answer buffers in librdkafka; a window
 * of this size still keeps every coordinator's connection busy. */
#define WARM_WINDOW 400

struct warm_ent {
	struct group_work *gw;
	size_t round;       /* batch number within its coordinator: batches go out round-robin over coordinators */
	bool describe_only; /* a group ListGroups just listed: its offsets wait for its describe (on_describe) */
};

static int cmp_warm(const void *a, const void *b)
{
	const struct warm_ent *x = a, *y = b;
	if (x->round != y->round)
		return (x->round > y->round) - (x->round < y->round);
	if (x->gw->coord != y->gw->coord)
		return (x->gw->coord > y->gw->coord) - (x->gw->coord < y->gw->coord);
	return strcmp(x->gw->name, y->gw->name);
}

static bool stream_instead(struct stage2 *st, struct group_work *gw);

/* Sends warm batches (a describe, then its groups' offsets requests) while fewer than WARM_WINDOW
 * calls are in flight. Called at the start and after every answer. */
static void warm_top_up(struct stage2 *st)
{
	while (st->next_warm < st->n_warm && st->pending < WARM_WINDOW) {
		size_t i = st->next_warm, e = i;
		struct group_work *batch[DESCRIBE_BATCH];
		while (e < st->n_warm && st->warm[e].round == st->warm[i].round &&
		       st->warm[e].gw->coord == st->warm[i].gw->coord) {
			batch[e - i] = st->warm[e].gw;
			e++;
		}
		/* A group may be queued twice (waiting for the batch, then asked by itself when the batch could
		 * not describe it): each request goes out once. */
		struct group_work *asked[DESCRIBE_BATCH];
		size_t na = 0;
		for (size_t j = 0; j < e - i; j++)
			if (!batch[j]->batch_wait && !batch[j]->desc_asked && !batch[j]->desc_done)
				asked[na++] = batch[j];
		describe_send(st, asked, na, batch[0]->coord);
		for (size_t j = 0; j < na; j++)
			asked[j]->desc_asked = true;
		for (size_t j = 0; j < e - i; j++) {
			struct group_work *gw = batch[j];
			gw->desc_sent = true;
			if (st->warm[i + j].describe_only || gw->off_sent || gw->off_done || gw->off_parked)
				continue;
			if (!(has_desc(gw) && stream_instead(st, gw))) /* described by the batch: as on_describe */
				offsets_send(st, gw, gw->coord);
		}
		st->next_warm = e;
	}
}

/* Queues warm groups: per coordinator, describes in batches, each followed by its groups' offsets
 * requests, through a window (warm_top_up). Called at the start, and by the steady refresh again once
 * ListGroups has answered (the groups it does not take from the stream): those queue behind the rest. */
static void warm_append(struct stage2 *st, struct group_work **by, size_t nb, bool describe_only)
{
	qsort(by, nb, sizeof *by, cmp_coord);
	size_t base = st->n_warm, round0 = 0;
	for (size_t i = st->next_warm; i < st->n_warm; i++)
		if (st->warm[i].round + 1 > round0)
			round0 = st->warm[i].round + 1;
	st->warm = xgrow(st->warm, &st->warm_cap, base + nb + 1, sizeof *st->warm);
	for (size_t i = 0, first = 0; i < nb; i++) {
		if (i > 0 && by[i]->coord != by[i - 1]->coord)
			first = i;
		st->warm[base + i] = (struct warm_ent){ .gw = by[i],
							.round = round0 + (i - first) / DESCRIBE_BATCH,
							.describe_only = describe_only };
	}
	st->n_warm = base + nb;
	qsort(st->warm + st->next_warm, st->n_warm - st->next_warm, sizeof *st->warm, cmp_warm);
	warm_top_up(st);
}

static void send_warm(struct stage2 *st, struct work_set *ws)
{
	struct group_work **by = xcalloc(ws->n + 1, sizeof *by);
	size_t nb = 0;
	for (size_t i = 0; i < ws->n; i++)
		if (ws->w[i]->warm && !ws->w[i]->deferred) {
			ws->w[i]->batch_wait = st->batch_pending;
			by[nb++] = ws->w[i];
		}
	warm_append(st, by, nb, false);
	free(by);
}

/* Cold groups (coordinator unknown) in one describe, which looks coordinators up. Only groups whose
 * coordinator is known to be up: ListGroups just listed them (a broker lists the groups it
 * coordinates), or every broker answered ListGroups. A lookup whose coordinator is down never ends
 * in librdkafka 2.0.2: it aborts the process when the coordinator returns after the request timed
 * out, and it blocks rd_kafka_destroy while the coordinator stays away. */
static void send_cold(struct stage2 *st, struct work_set *ws, bool list_complete)
{
	struct group_work **by = xcalloc(ws->n + 1, sizeof *by);
	size_t nb = 0;
	for (size_t i = 0; i < ws->n; i++) {
		struct group_work *gw = ws->w[i];
		if (gw->warm || gw->desc_sent || !(gw->listed || list_complete))
			continue;
		gw->desc_sent = true;
		if (cold_in_flight(st->rc, gw->name)) {
			/* still looking for its coordinator since an earlier refresh: do not pile up */
			gw->desc_done = gw->off_done = true;
			set_error(gw, "DescribeGroups", "coordinator not available (lookup still pending)");
			continue;
		}
		by[nb++] = gw;
	}
	for (size_t i = 0; i < nb; i += DESCRIBE_BATCH) /* batches: see DESCRIBE_BATCH */
		describe_send(st, &by[i], nb - i < DESCRIBE_BATCH ? nb - i : DESCRIBE_BATCH, -1);
	free(by);
}

static bool broker_in(const struct rd_kafka_metadata *md, int32_t id)
{
	for (int i = 0; i < md->broker_cnt; i++)
		if (md->brokers[i].id == id)
			return true;
	return false;
}

static lt_group_state state_from_rd(rd_kafka_consumer_group_state_t st);

/* One broker's ListGroups has answered. A broker lists exactly the groups it coordinates, so every group
 * it lists that is not on its way already is described right there, by name: no FindCoordinator, on the
 * first refresh too (librdkafka 2.0.2 would send one per group; 2.10+ two, for ConsumerGroupDescribe and
 * again for its fallback to DescribeGroups), and a broker that is slow or down holds back only its own
 * groups. When the last broker has answered, groups no broker listed go the cold way (send_cold). */
static void steady_decide(struct stage2 *st, struct work_set *ws);
static bool batch_settle(struct stage2 *st, struct work_set *ws, struct group_work *gw);
static void steady_read_gens(struct lt_refresh_ctx *rc, struct group_work **g, size_t n);

/* A broker's group list failed: the groups it coordinates may be missing from the snapshot altogether.
 * Recorded as unread (one per broker), not in the refresh-wide error: the outputs say it per cause. */
static void list_failed(struct stage2 *st, int32_t broker, const char *why)
{
	/* librdkafka prefixes "Broker [1] ListConsumerGroups: ": the broker is said apart, so that one cause
	 * on three brokers is one cause */
	if (strncmp(why, "Broker [", 8) == 0 && strstr(why, "]") && strstr(strstr(why, "]"), ": "))
		why = strstr(strstr(why, "]"), ": ") + 2;
	char acl[200], reason[600];
	snprintf(reason, sizeof reason, "ListGroups: %s",
		 explain_authorization("ListGroups", why, acl, sizeof acl) ? acl : why);
	bool known = false; /* several errors from one broker: its first is the reason */
	for (size_t i = 0; i < st->s->n_unread; i++)
		known |= !st->s->unread[i].group && st->s->unread[i].broker == broker;
	if (!known)
		snapshot_add_unread(st->s, NULL, broker, reason);
	st->list_failed = true;
}

static void on_list(struct stage2 *st, rd_kafka_event_t *ev, const struct lt_ticket *t, struct work_set *ws)
{
	int32_t broker = t->broker;
	for (int i = 0; i < st->md->broker_cnt; i++)
		if (st->md->brokers[i].id == broker)
			st->list_answered[i] = true;
	struct group_work **by = NULL;
	size_t nb = 0;
	if (rd_kafka_event_error(ev)) {
		list_failed(st, broker, rd_kafka_event_error_string(ev));
	} else {
		const rd_kafka_ListConsumerGroups_result_t *res = rd_kafka_event_ListConsumerGroups_result(ev);
		size_t n_valid = 0, n_err = 0;
		const rd_kafka_ConsumerGroupListing_t **valid = rd_kafka_ListConsumerGroups_result_valid(res, &n_valid);
		const rd_kafka_error_t **errs = rd_kafka_ListConsumerGroups_result_errors(res, &n_err);
		for (size_t i = 0; i < n_err; i++)
			list_failed(st, broker, rd_kafka_error_string(errs[i]));

		/* The listed state is what a consumer-protocol group is shown with (group_view.h) when the describe
		 * cannot read it. librdkafka keeps only its own enum of the state, which has no Assigning or
		 * Reconciling (they arrive as UNKNOWN; the state string is not kept). */
		/* Lookups first, additions after: work_find is a binary search, which a name appended in the same
		 * pass would break (a remembered group then missed and added twice). After the sort every name is
		 * looked up again: a broker that lists a name twice makes work_sort merge (and free) a copy. */
		struct group_work **seen = xcalloc(n_valid + 1, sizeof *seen);
		for (size_t i = 0; i < n_valid; i++) {
			const char *name = rd_kafka_ConsumerGroupListing_group_id(valid[i]);
			seen[i] = name ? work_find(ws, name) : NULL;
		}
		size_t first_new = ws->n;
		for (size_t i = 0; i < n_valid; i++) {
			const char *name = rd_kafka_ConsumerGroupListing_group_id(valid[i]);
			if (name && !seen[i] && refresh_group_wanted(st->rc, name))
				seen[i] = work_add(ws, name, true);
		}
		if (ws->n != first_new) {
			work_sort(ws);
			for (size_t i = 0; i < n_valid; i++)
				if (seen[i])
					seen[i] = work_find(ws, rd_kafka_ConsumerGroupListing_group_id(valid[i]));
		}
		by = xcalloc(n_valid + 1, sizeof *by);
		for (size_t i = 0; i < n_valid; i++) {
			struct group_work *gw = seen[i];
			if (!gw)
				continue;
			/* a group asked for by name (or remembered) is marked listed even if the regexes drop it:
			 * "not listed" would read as "does not exist" */
			gw->listed = true;
			gw->list_state = state_from_rd(rd_kafka_ConsumerGroupListing_state(valid[i]));
			gw->list_type = client_listing_type(valid[i]);
			if (!gw->warm && !gw->desc_sent) {
				gw->warm = true; /* its coordinator is known now: requests go straight to it */
				gw->coord = broker;
				gw->desc_sent = true;
				if (st->batch_pending) /* described by the batch; its offsets go out now unless the
							  stream may give them (--once: they follow the describe) */
					gw->batch_wait = true;
				else if (st->batch && !batch_settle(st, ws, gw)) {
					/* the batch, returned already, described it */
					if (!stream_instead(st, gw))
						offsets_send(st, gw, gw->coord);
					continue;
				}
				by[nb++] = gw;
			}
		}
		free(seen);
	}
	if (nb)
		qsort(by, nb, sizeof *by, cmp_work);
	if (nb && st->rc->reader && st->rc->steady)
		steady_read_gens(st->rc, by, nb);
	/* through the window too: tens of thousands of admin calls at once cost librdkafka 2.0.2 a sorted
	 * insert of each call's timeout timer into one list (quadratic: doc/ARCHITECTURE.md) */
	if (nb)
		warm_append(st, by, nb, !st->batch_pending || st->stream_wait);
	free(by);
	if (st->lists_pending > 0 && --st->lists_pending == 0) {
		ws->list_done = true;
		ws->list_complete = !st->list_failed;
		send_cold(st, ws, ws->list_complete);
		if (st->steady)
			steady_decide(st, ws);
	}
}

/* A group's describe failed. No retry through FindCoordinator here (see send_cold): next refresh
 * the group is cold, and asked again once ListGroups shows its coordinator is up. */
static void describe_failed(struct group_work *gw, const char *why)
{
	gw->desc_done = true;
	set_error(gw, "DescribeGroups", why);
}

/* The group's remembered coordinator answered NOT_COORDINATOR: it moved (a failover) while the old
 * broker stayed up. librdkafka 2.0.2 would keep answering from its coordinator cache (entries in use
 * never expire), so the group would stay stale until lagtop restarts. Instead ask the next live
 * broker directly, each at most once per refresh; whoever answers is the coordinator from now on.
 * Returns false when every broker has been asked. */
static bool probe_next_broker(struct stage2 *st, struct group_work *gw)
{
	const struct rd_kafka_metadata *md = st->md;
	if (!md || md->broker_cnt < 2 || gw->probes >= md->broker_cnt - 1)
		return false;
	int at = 0;
	for (int i = 0; i < md->broker_cnt; i++)
		if (md->brokers[i].id == gw->coord)
			at = i;
	gw->coord = md->brokers[(at + 1) % md->broker_cnt].id;
	gw->probes++;
	describe_send(st, &gw, 1, gw->coord);
	gw->probe = st->rc->tickets; /* describe_send's ticket is the newest */
	return true;
}

static bool stream_instead(struct stage2 *st, struct group_work *gw);

static void on_describe(struct stage2 *st, struct kept_event *ke, const struct lt_ticket *t, struct work_set *ws)
{
	rd_kafka_event_t *ev = ke->ev;
	struct group_work **batch = xcalloc(t->n + 1, sizeof *batch);
	size_t nb = 0;
	for (size_t i = 0; i < t->n; i++) {
		struct group_work *gw = work_find(ws, t->names[i]);
		if (gw)
			batch[nb++] = gw;
	}
	if (rd_kafka_event_error(ev)) {
		for (size_t i = 0; i < nb; i++)
			if (!batch[i]->desc_done && !(batch[i]->probe && batch[i]->probe != t))
				describe_failed(batch[i], rd_kafka_event_error_string(ev));
	} else {
		size_t n = 0;
		const rd_kafka_ConsumerGroupDescription_t **d = rd_kafka_DescribeConsumerGroups_result_groups(
			rd_kafka_event_DescribeConsumerGroups_result(ev), &n);
		for (size_t i = 0; i < n; i++) {
			struct group_work *gw = work_find(ws, rd_kafka_ConsumerGroupDescription_group_id(d[i]));
			if (!gw || gw->desc_done)
				continue;
			if (gw->probe && gw->probe != t)
				continue; /* a probe to another broker is in flight: its answer decides */
			const rd_kafka_error_t *ge = rd_kafka_ConsumerGroupDescription_error(d[i]);
			if (ge) {
				if (rd_kafka_error_code(ge) == RD_KAFKA_RESP_ERR_NOT_COORDINATOR && gw->warm &&
				    probe_next_broker(st, gw))
					continue;
				char why[512];
				describe_failed(gw, client_error_text(ge, why, sizeof why));
				continue;
			}
			gw->desc_done = true;
			gw->desc = d[i];
			gw->desc_ev = ke;
			ke->users++;
			const rd_kafka_Node_t *node = rd_kafka_ConsumerGroupDescription_coordinator(d[i]);
			gw->coord = node ? rd_kafka_Node_id(node) : -1;
			if (!gw->off_sent && !gw->off_done) {
				if (gw->coord < 0)
					describe_failed(gw, "no coordinator in the answer");
				else if (!stream_instead(st, gw))
					offsets_send(st, gw, gw->coord);
			}
		}
		/* groups of this call the answer left out */
		for (size_t i = 0; i < nb; i++)
			if (!batch[i]->desc_done && !(batch[i]->probe && batch[i]->probe != t))
				describe_failed(batch[i], "missing from the answer");
	}
	/* a group whose describe failed needs no offsets */
	for (size_t i = 0; i < nb; i++)
		if (batch[i]->desc_done && !has_desc(batch[i]) && !batch[i]->off_sent)
			batch[i]->off_done = true;
	free(batch);
}

static void on_offsets(struct stage2 *st, struct kept_event *ke, const struct lt_ticket *t, struct work_set *ws)
{
	rd_kafka_event_t *ev = ke->ev;
	struct group_work *gw = work_find(ws, t->names[0]);
	if (!gw || gw->off_done)
		return;
	const char *why = NULL;
	char whybuf[512];
	const rd_kafka_group_result_t *res = NULL;
	if (rd_kafka_event_error(ev)) {
		why = rd_kafka_event_error_string(ev);
	} else {
		size_t n = 0;
		const rd_kafka_group_result_t **gr = rd_kafka_ListConsumerGroupOffsets_result_groups(
			rd_kafka_event_ListConsumerGroupOffsets_result(ev), &n);
		if (n < 1)
			why = "empty result";
		else if (rd_kafka_group_result_error(gr[0]))
			why = client_error_text(rd_kafka_group_result_error(gr[0]), whybuf, sizeof whybuf);
		else
			res = gr[0];
	}
	if (res) {
		gw->off = res;
		gw->off_ev = ke;
		ke->users++;
		gw->off_done = true;
		return;
	}
	if (gw->warm && !gw->off_retried) {
		/* The coordinator may have moved. If the describe already found the current one, ask it;
		 * if the describe is still running, it sends the offsets request when it answers. */
		gw->off_retried = true;
		gw->off_sent = false;
		if (gw->desc_done && has_desc(gw) && gw->coord >= 0)
			offsets_send(st, gw, gw->coord);
		else if (gw->desc_done)
			gw->off_done = true; /* the describe failed for good: so does the group */
		return;
	}
	gw->off_done = true;
	set_error(gw, "OffsetFetch", why);
}

static bool group_build(lt_snapshot *s, const struct work_set *ws, const lt_snapshot *prev,
			const struct group_work *gw);
static lt_group_described described_of(const struct group_work *gw);
static bool batch_usable(const struct rd_kafka_group_info *gi, const lt_group *pg);

/* The batch has returned. A group it describes as the per-group call would (batch_usable) is described
 * by it (its offsets then follow as on_describe's do, through the window); true when the group needs a
 * describe of its own. */
static bool batch_settle(struct stage2 *st, struct work_set *ws, struct group_work *gw)
{
	gw->batch_wait = false;
	const struct rd_kafka_group_info *gi = group_batch_find(st->batch, gw->name);
	if (!gi || !batch_usable(gi, snapshot_find_group(ws->prev, gw->name)))
		return true;
	gw->binfo = gi;
	gw->desc_done = true;
	gw->coord = gi->broker.id;
	st->rc->stats.batched++;
	return false;
}

/* Builds the group if both its answers are in, and releases the events they point into. A group the
 * describe answers as Dead with nothing waits for ListGroups (warm groups are described before the
 * list arrives): it may be a live consumer-protocol group (group_view.h). refresh_run builds the
 * groups still waiting when the stage ends. */
static void build_if_complete(lt_snapshot *s, const struct work_set *ws, const lt_snapshot *prev, struct group_work *gw)
{
	if (gw->built || gw->error || !has_desc(gw) || !(gw->off || gw->off_stream))
		return;
	if (!ws->list_done) {
		lt_group_described d = described_of(gw);
		if (group_describe_ambiguous(&d))
			return;
	}
	group_build(s, ws, prev, gw);
	gw->built = true;
	gw->desc = NULL;
	gw->binfo = NULL;
	gw->off = NULL;
	soff_free(gw);
	release_event(gw->desc_ev, true);
	release_event(gw->off_ev, true);
	gw->desc_ev = gw->off_ev = NULL;
}

static void build_batch(lt_snapshot *s, const struct lt_ticket *t, struct work_set *ws, const lt_snapshot *prev)
{
	for (size_t i = 0; i < t->n; i++) {
		struct group_work *gw = work_find(ws, t->names[i]);
		if (gw)
			build_if_complete(s, ws, prev, gw);
	}
}

static void steady_mark(struct stage2 *st, struct work_set *ws);
static void stream_resolve(struct stage2 *st, struct work_set *ws, const bool *stop);

/* The batch's answer: the groups waiting for it are described by it, or asked one by one (a group of a
 * broker that did not answer in time, or one it cannot describe: batch_usable). */
static void on_batch(struct stage2 *st, struct work_set *ws)
{
	st->batch_pending = false;
	st->pending--;
	struct group_work **ask = xcalloc(ws->n + 1, sizeof *ask), **fetch = xcalloc(ws->n + 1, sizeof *fetch);
	size_t na = 0, nf = 0;
	for (size_t i = 0; i < ws->n; i++) {
		struct group_work *gw = ws->w[i];
		if (!gw->batch_wait)
			continue;
		if (batch_settle(st, ws, gw))
			ask[na++] = gw;
		else if (!gw->off_sent && !gw->off_done)
			fetch[nf++] = gw;
		else
			build_if_complete(st->s, ws, st->rc->prev, gw);
	}
	/* described_only: its offsets follow its describe (on_describe), unless they went out already */
	warm_append(st, ask, na, true);
	warm_append(st, fetch, nf, false);
	free(ask);
	free(fetch);
}

static void groups_stage(struct lt_refresh_ctx *rc, lt_snapshot *s, const struct rd_kafka_metadata *md,
			 int64_t deadline, const bool *stop, struct work_set *ws, struct event_keep *keep, bool steady)
{
	if (!rc->q)
		rc->q = rd_kafka_queue_new(client_rk(rc->client));
	rd_kafka_queue_t *q = rc->q;
	struct stage2 st = {
		.rc = rc, .s = s, .rk = client_rk(rc->client), .q = q, .deadline = deadline, .md = md, .steady = steady
	};

	/* ListGroups, one call per broker of this refresh's metadata (on_list), with a third of the timeout:
	 * a broker that does not answer must not hold the refresh. */
	int list_ms = rc->timeout_ms / 3 > 500 ? rc->timeout_ms / 3 : 500;
	int64_t list_deadline = now_mono_ms() + list_ms < deadline ? now_mono_ms() + list_ms : deadline;
	st.list_answered = xcalloc((size_t)md->broker_cnt + 1, sizeof *st.list_answered);
	for (int i = 0; i < md->broker_cnt; i++) {
		char why[256];
		rd_kafka_AdminOptions_t *opt = rd_kafka_AdminOptions_new(st.rk, RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPS);
		options_timeout(opt, list_deadline, false);
		rd_kafka_AdminOptions_set_broker(opt, md->brokers[i].id, why, sizeof why);
		struct lt_ticket *t = ticket_new(rc, TICKET_LIST, false, NULL, 0);
		t->broker = md->brokers[i].id;
		rd_kafka_AdminOptions_set_opaque(opt, t);
		rd_kafka_ListConsumerGroups(st.rk, opt, q);
		rd_kafka_AdminOptions_destroy(opt);
		st.pending++;
		st.lists_pending++;
	}

	/* Last refresh's groups and the explicit ones go out now, without waiting for the list. */
	for (size_t i = 0; rc->prev && i < rc->prev->n_groups; i++)
		work_add(ws, rc->prev->groups[i].group, false);
	for (size_t i = 0; i < rc->n_extra; i++)
		work_add(ws, rc->extra[i], false);
	work_sort(ws);
	for (size_t i = 0; i < ws->n; i++) {
		struct group_work *gw = ws->w[i];
		const lt_group *pg = snapshot_find_group(rc->prev, gw->name);
		/* a remembered coordinator that is not up is not asked: FindCoordinator may know better */
		gw->warm = pg && !pg->error && pg->coordinator >= 0 && broker_in(md, pg->coordinator);
		gw->coord = gw->warm ? pg->coordinator : -1;
	}
	if (rc->reader && rc->steady)
		steady_mark(&st, ws);
	if (!steady && rc->one_shot && rc->reader && !rc->full_poll) {
		lt_reader_state rs = commit_reader_state(rc->reader, NULL, 0);
		st.stream_wait = rs == LT_READER_STARTING || rs == LT_READER_LOADING;
	}
	/* Every group in one DescribeGroups per coordinator (group_batch.h), beside the list, with half of
	 * the time: what it cannot answer in time is asked group by group with the rest. Not when groups are
	 * asked for by name (-g: the cluster's other groups are not wanted), nor in a steady refresh, which
	 * describes only the groups that changed, unless it is the first (no last snapshot: every group is
	 * described, as in --once whose commit stream was caught up before the refresh looked). */
	if ((!steady || !rc->prev) && rc->n_extra == 0 && !rc->no_batch) {
		int batch_ms = deadline_remaining_ms(deadline) / 2;
		st.batch = ws->batch = group_batch_start(st.rk, q, batch_ms > 0 ? batch_ms : 1);
		st.batch_pending = true;
		st.pending++;
	}
	send_warm(&st, ws);

again:
	while (st.pending > 0) {
		rd_kafka_event_t *ev = wait_event(q, rc->client, deadline, stop, st.batch_pending ? st.batch : NULL);
		if (!ev && st.batch_pending && group_batch_ready(st.batch) && !stopping(stop)) {
			on_batch(&st, ws);
			continue;
		}
		if (!ev)
			break;
		struct lt_ticket *t = rd_kafka_event_opaque(ev);
		if (!t || t->seq != rc->seq) {
			/* an answer to an earlier refresh: too late to use */
			if (t)
				ticket_free(rc, t);
			rd_kafka_event_destroy(ev);
			continue;
		}
		st.pending--;
		switch (rd_kafka_event_type(ev)) {
		case RD_KAFKA_EVENT_LISTCONSUMERGROUPS_RESULT:
			on_list(&st, ev, t, ws);
			rd_kafka_event_destroy(ev);
			break;
		case RD_KAFKA_EVENT_DESCRIBECONSUMERGROUPS_RESULT: {
			struct kept_event *ke = keep_event(keep, ev);
			on_describe(&st, ke, t, ws);
			build_batch(s, t, ws, rc->prev);
			release_event(ke, false);
			break;
		}
		case RD_KAFKA_EVENT_LISTCONSUMERGROUPOFFSETS_RESULT: {
			struct kept_event *ke = keep_event(keep, ev);
			on_offsets(&st, ke, t, ws);
			build_batch(s, t, ws, rc->prev);
			release_event(ke, false);
			break;
		}
		default: rd_kafka_event_destroy(ev); break;
		}
		ticket_free(rc, t);
		if (!stopping(stop))
			warm_top_up(&st);
	}
	if (st.n_parked > 0 && st.pending == 0 && !stopping(stop)) {
		stream_resolve(&st, ws, stop);
		goto again;
	}
	free(st.warm);

	char timeout_note[96];
	snprintf(timeout_note, sizeof timeout_note, "no answer within the timeout (%d.%d s, --timeout)",
		 rc->timeout_ms / 1000, rc->timeout_ms % 1000 / 100);
	const char *why_missing = stopping(stop) ? "refresh interrupted" : timeout_note;
	for (int i = 0; i < md->broker_cnt; i++)
		if (!st.list_answered[i]) {
			char reason[200];
			if (stopping(stop))
				snprintf(reason, sizeof reason, "ListGroups: %s", why_missing);
			else /* the list has a third of the timeout (groups_stage) */
				snprintf(reason, sizeof reason,
					 "ListGroups: no answer within a third of the timeout (%d.%d s of --timeout "
					 "%d.%d s)",
					 list_ms / 1000, list_ms % 1000 / 100, rc->timeout_ms / 1000,
					 rc->timeout_ms % 1000 / 100);
			snapshot_add_unread(s, NULL, md->brokers[i].id, reason);
		}
	free(st.list_answered);
	for (size_t i = 0; i < ws->n; i++) {
		struct group_work *gw = ws->w[i];
		if (!gw->desc_sent && gw->warm) /* still waiting for its turn in the window */
			set_error(gw, "DescribeGroups", why_missing);
		else if (!gw->desc_sent)
			set_error(gw, "DescribeGroups",
				  "not asked: its coordinator is unknown and a broker did not list its "
				  "groups");
		else if (!gw->desc_done)
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

/* Copies a previous group's state, type, protocol, coordinator and members into s (no partitions). */
static lt_group *group_copy_head(lt_snapshot *s, const lt_group *pg)
{
	lt_group *g = snapshot_add_group(s, pg->group);
	g->state = pg->state;
	g->type = pg->type;
	g->members_unreadable = pg->members_unreadable;
	g->protocol_type = xstrdup(pg->protocol_type);
	g->protocol = xstrdup(pg->protocol);
	g->coordinator = pg->coordinator;
	for (size_t m = 0; m < pg->n_members; m++) {
		const lt_member *pm = &pg->members[m];
		lt_member *nm = group_add_member(g, pm->member_id, pm->client_id, pm->host);
		nm->instance_id = xstrdup(pm->instance_id);
		for (size_t a = 0; a < pm->n_assigned; a++)
			member_add_assignment(nm, pm->assigned[a].topic, pm->assigned[a].partition);
	}
	return g;
}

/* Copies a previous group's observed data into s, marked stale. */
static lt_group *group_copy_stale(lt_snapshot *s, const lt_group *pg, int64_t prev_taken_at, int64_t now,
				  const char *error)
{
	lt_group *g = group_copy_head(s, pg);
	g->error = xstrdup(error ? error : pg->error);
	g->unread = true;
	/* Age of the data: how old it already was, plus the time since that refresh. */
	g->stale_ms = pg->stale_ms + (now - prev_taken_at);
	for (size_t k = 0; k < pg->n_partitions; k++) {
		const lt_partition *pp = &pg->partitions[k];
		lt_partition *np = group_add_partition(g, pp->topic, pp->partition);
		np->log_start = pp->log_start;
		np->committed = pp->committed;
		np->log_end = pp->log_end;
		const char *md = partition_commit_metadata(pg, pp);
		if (md)
			partition_ext_add(g, np)->commit_metadata = xstrdup(md);
		int32_t epoch = group_commit_epoch(pg, pp->topic, pp->partition);
		if (epoch >= 0)
			group_add_commit_epoch(g, pp->topic, pp->partition, epoch);
		np->flags = LT_PF_STALE | (pp->flags & (LT_PF_NO_LEADER | LT_PF_LOG_UNKNOWN));
		partition_ext_add(g, np)->stale_ms = g->stale_ms;
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

static lt_group_described batch_described(const struct rd_kafka_group_info *gi)
{
	return (lt_group_described){
		.state = state_from_rd(rd_kafka_consumer_group_state_code(gi->state ? gi->state : "")),
		.n_members = gi->member_cnt > 0 ? (size_t)gi->member_cnt : 0,
		.protocol_type_empty = !gi->protocol_type || !gi->protocol_type[0],
		.type = LT_GTYPE_UNKNOWN, /* DescribeGroups: what librdkafka's describe gives a classic group */
	};
}

static lt_group_described described_of(const struct group_work *gw)
{
	if (gw->binfo)
		return batch_described(gw->binfo);
	const rd_kafka_ConsumerGroupDescription_t *d = gw->desc;
	return (lt_group_described){
		.state = state_from_rd(rd_kafka_ConsumerGroupDescription_state(d)),
		.n_members = rd_kafka_ConsumerGroupDescription_member_count(d),
		.protocol_type_empty = rd_kafka_ConsumerGroupDescription_is_simple_consumer_group(d) != 0,
		.type = client_description_type(d),
	};
}

/* What ListGroups said of the group, as far as this refresh knows. */
static lt_group_listing listing_of(const struct work_set *ws, const struct group_work *gw)
{
	if (gw->listed)
		return (lt_group_listing){ .kind = LT_LISTING_LISTED, .state = gw->list_state, .type = gw->list_type };
	if (ws->list_done && ws->list_complete)
		return (lt_group_listing){ .kind = LT_LISTING_ABSENT };
	return (lt_group_listing){ .kind = LT_LISTING_UNKNOWN };
}

/* The group's state and type from its describe and ListGroups together (group_view_combine; the last
 * snapshot's view is the hint when ListGroups gave no complete answer). */
static lt_group_view view_of_work(const struct work_set *ws, const lt_snapshot *prev, const struct group_work *gw)
{
	lt_group_described desc = described_of(gw);
	lt_group_listing listing = listing_of(ws, gw);
	const lt_group *pg = snapshot_find_group(prev, gw->name);
	lt_group_view hint = pg ? group_view_of(pg) : (lt_group_view){ 0 };
	return group_view_combine(&listing, &desc, pg ? &hint : NULL);
}

/* Builds the group from fresh results (state and type: view_of_work).
 * Returns false when the group does not exist (an extra or formerly seen group that is Dead, with no
 * members and no committed offsets). A consumer-protocol group keeps its committed offsets: OffsetFetch
 * without a member id works for both group types. */
static void verify_group(const struct work_set *ws, const lt_group *g);

/* Protocol, coordinator and members from librdkafka's per-group describe. */
static void admin_members(lt_group *g, const rd_kafka_ConsumerGroupDescription_t *d)
{
	const char *assignor = rd_kafka_ConsumerGroupDescription_partition_assignor(d);
	g->protocol = xstrdup(assignor ? assignor : "");
	const rd_kafka_Node_t *coord = rd_kafka_ConsumerGroupDescription_coordinator(d);
	g->coordinator = coord ? rd_kafka_Node_id(coord) : -1;
	size_t n_members = rd_kafka_ConsumerGroupDescription_member_count(d);
	for (size_t m = 0; m < n_members; m++) {
		const rd_kafka_MemberDescription_t *md = rd_kafka_ConsumerGroupDescription_member(d, m);
		lt_member *lm =
			group_add_member(g, rd_kafka_MemberDescription_consumer_id(md),
					 rd_kafka_MemberDescription_client_id(md), rd_kafka_MemberDescription_host(md));
		lm->instance_id = xstrdup(rd_kafka_MemberDescription_group_instance_id(md));
		const rd_kafka_MemberAssignment_t *ma = rd_kafka_MemberDescription_assignment(md);
		const rd_kafka_topic_partition_list_t *ap = ma ? rd_kafka_MemberAssignment_partitions(ma) : NULL;
		for (int i = 0; ap && i < ap->cnt; i++)
			member_add_assignment(lm, ap->elems[i].topic, ap->elems[i].partition);
	}
}

static void add_assigned(const char *topic, int32_t partition, void *arg)
{
	member_add_assignment(arg, topic, partition);
}

static const lt_member *member_in(const lt_group *g, const char *member_id)
{
	for (size_t m = 0; g && member_id && m < g->n_members; m++)
		if (g->members[m].member_id && strcmp(g->members[m].member_id, member_id) == 0)
			return &g->members[m];
	return NULL;
}

/* The same from the batch (checked by batch_usable). DescribeGroups v0 has no group.instance.id: a member
 * of the last snapshot keeps the one it had (a member's id is the same while it stays). */
static void batch_members(lt_group *g, const struct rd_kafka_group_info *gi, const lt_group *pg)
{
	g->protocol = xstrdup(gi->protocol ? gi->protocol : "");
	g->coordinator = gi->broker.id;
	for (int m = 0; m < gi->member_cnt; m++) {
		const struct rd_kafka_group_member_info *mi = &gi->members[m];
		lt_member *lm = group_add_member(g, mi->member_id, mi->client_id, mi->client_host);
		const lt_member *pm = member_in(pg, mi->member_id);
		lm->instance_id = pm ? xstrdup(pm->instance_id) : NULL;
		char why[160];
		size_t len = mi->member_assignment_size > 0 ? (size_t)mi->member_assignment_size : 0;
		(void)assignment_decode(mi->member_assignment, len, add_assigned, lm, why, sizeof why);
	}
}

/* Whether the batch's answer for a group is the per-group describe's, member for member (group_batch.h
 * says what it cannot answer). */
static bool batch_usable(const struct rd_kafka_group_info *gi, const lt_group *pg)
{
	rd_kafka_consumer_group_state_t st = rd_kafka_consumer_group_state_code(gi->state ? gi->state : "");
	if (gi->err || st == RD_KAFKA_CONSUMER_GROUP_STATE_UNKNOWN || st == RD_KAFKA_CONSUMER_GROUP_STATE_DEAD)
		return false;
	const char *pt = gi->protocol_type ? gi->protocol_type : "";
	if (strcmp(pt, "consumer") != 0 && !(pt[0] == '\0' && gi->member_cnt == 0))
		return false;
	for (int m = 0; m < gi->member_cnt; m++) {
		const struct rd_kafka_group_member_info *mi = &gi->members[m];
		char why[160];
		size_t len = mi->member_assignment_size > 0 ? (size_t)mi->member_assignment_size : 0;
		if (assignment_decode(mi->member_assignment, len, NULL, NULL, why, sizeof why) != 0)
			return false;
		if (!group_batch_member_dynamic(mi->member_id, mi->client_id) && !member_in(pg, mi->member_id))
			return false; /* may be static: its group.instance.id needs the per-group describe */
	}
	return true;
}

static bool group_build(lt_snapshot *s, const struct work_set *ws, const lt_snapshot *prev, const struct group_work *gw)
{
	const rd_kafka_topic_partition_list_t *offs = gw->off ? rd_kafka_group_result_partitions(gw->off) : NULL;
	size_t n_commits = 0;
	for (int i = 0; offs && i < offs->cnt; i++)
		n_commits += offs->elems[i].offset >= 0;
	n_commits += gw->n_soff; /* from the stream: live commits only */
	lt_group_described desc = described_of(gw);
	lt_group_view view = view_of_work(ws, prev, gw);
	size_t n_members = desc.n_members;
	if (view.state == LT_GROUP_DEAD && n_members == 0 && n_commits == 0)
		return false;

	lt_group *g = snapshot_add_group(s, gw->name);
	g->state = view.state;
	g->type = view.type;
	g->members_unreadable = view.members_unreadable;
	if (view.state_carried)
		g->error = xasprintf("ListGroups gave no complete answer: the state (%s) is the one it listed earlier",
				     group_state_name(view.state));
	/* ListGroups gives a consumer-protocol group the protocol type "consumer"; its describe has none */
	g->protocol_type = xstrdup(view.type == LT_GTYPE_CONSUMER || !desc.protocol_type_empty ? "consumer" : "");
	if (gw->binfo)
		batch_members(g, gw->binfo, snapshot_find_group(prev, gw->name));
	else
		admin_members(g, gw->desc);
	for (int i = 0; offs && i < offs->cnt; i++) {
		const rd_kafka_topic_partition_t *tp = &offs->elems[i];
		/* -1: no commit for this partition (an "all partitions" fetch may still list it). */
		if (tp->offset < 0 || partition_in(g, tp->topic, tp->partition))
			continue;
		lt_partition *p = group_add_partition(g, tp->topic, tp->partition);
		p->committed = tp->err ? LT_OFFSET_NONE : tp->offset;
		if (tp->metadata && tp->metadata_size > 0)
			partition_ext_add(g, p)->commit_metadata = xstrndup(tp->metadata, tp->metadata_size);
#ifdef HAVE_RD_KAFKA_TOPIC_PARTITION_GET_LEADER_EPOCH
		int32_t epoch = rd_kafka_topic_partition_get_leader_epoch(tp);
		if (ws->commit_epochs && !tp->err && epoch >= 0)
			group_add_commit_epoch(g, tp->topic, tp->partition, epoch);
#endif /* librdkafka < 2.1 does not read it */
	}
	for (size_t i = 0; i < gw->n_soff; i++) {
		const struct stream_off *c = &gw->soff[i];
		if (partition_in(g, c->topic, c->partition))
			continue;
		group_add_partition(g, c->topic, c->partition)->committed = c->offset;
#ifdef HAVE_RD_KAFKA_TOPIC_PARTITION_GET_LEADER_EPOCH /* as above: the same epochs OffsetFetch gives */
		if (ws->commit_epochs && c->leader_epoch >= 0)
			group_add_commit_epoch(g, c->topic, c->partition, c->leader_epoch);
#endif
	}
	if (gw->swept && ws->verify)
		verify_group(ws, g);
	return true;
}

/* ------------------------------------------------------------------ the steady refresh */

/* With the commit stream live, most groups need no request at all: their committed offsets are the
 * stream's (every commit goes through __consumer_offsets), and their members change only in a
 * rebalance, which ListGroups' state and the stream's group metadata records (a new generation on every
 * completed rebalance) both show. So a refresh whose stream has caught up with where __consumer_offsets
 * ended when the refresh began (steady_sync) builds a quiet group from the last snapshot's members and
 * the stream's commits (steady_decide), and asks DescribeGroups and OffsetFetch only for the others:
 * groups ListGroups shows in another state, whose generation or member count moved, that are rebalancing,
 * consumer-protocol groups (whose records the stream does not decode), groups whose commits carry
 * metadata (not kept by the stream), groups that failed or are new, and a slice of all groups per refresh
 * (the sweep: every group once per LT_SWEEP_MS), whose fetched offsets are compared with the stream
 * (verify_group). A disagreement makes the next refresh poll everything; so does a stream that is not
 * live, cannot tell where the topic ends, or has not caught up within the wait: the snapshot's commit
 * stream line says why (rc->steady_note). */

/* The stream's generation of each group when it was last described, sorted by name. */
struct gen_ent {
	char *name;
	int32_t gen;
};

struct lt_steady {
	struct gen_ent *gens;
	size_t n_gens;
	size_t sweep_pos; /* where the next sweep slice starts: an index into the last snapshot's groups */
	bool poll_next;   /* the last verification failed: the next refresh polls */
	char poll_why[200];
};

/* How long a refresh waits for the stream to reach the end of __consumer_offsets (at most; a fifth of
 * the timeout when shorter) before it polls instead. */
#define SYNC_MAX_MS 2000

static int cmp_gen(const void *a, const void *b)
{
	return strcmp(((const struct gen_ent *)a)->name, ((const struct gen_ent *)b)->name);
}

static int32_t gen_recorded(const struct lt_steady *sd, const char *name)
{
	struct gen_ent key = { .name = (char *)name };
	const struct gen_ent *e = sd->n_gens ? bsearch(&key, sd->gens, sd->n_gens, sizeof *sd->gens, cmp_gen) : NULL;
	return e ? e->gen : -2;
}

static void gens_free(struct lt_steady *sd)
{
	for (size_t i = 0; i < sd->n_gens; i++)
		free(sd->gens[i].name);
	free(sd->gens);
	sd->gens = NULL;
	sd->n_gens = 0;
}

void refresh_ctx_free_steady(struct lt_refresh_ctx *rc)
{
	if (!rc->steady)
		return;
	gens_free(rc->steady);
	free(rc->steady);
	rc->steady = NULL;
}

/* The stream's generation of a group: its last metadata record's; -1 when it has none (only admin
 * commits, or deleted). */
static int32_t stream_gen(const lt_commit_group_stats *gs)
{
	return gs->has_metadata ? gs->generation : -1;
}

static int32_t stream_gen_of(const lt_commit_stream *cs, const char *group)
{
	lt_commit_group_stats gs;
	return commit_stream_group_info(cs, group, &gs) == 0 ? stream_gen(&gs) : -1;
}

/* Waits until `until` for the stream to have read up to end[0..n) (looks at least once); true when it has. */
static bool wait_reached(struct lt_refresh_ctx *rc, const int64_t *end, int32_t n, int64_t until, const bool *stop)
{
	bool ok;
	while (!(ok = commit_reader_reached(rc->reader, end, n)) && now_mono_ms() < until && !stopping(stop)) {
		struct timespec ts = { .tv_sec = 0, .tv_nsec = 2 * 1000000L };
		nanosleep(&ts, NULL);
	}
	return ok;
}

/* Whether the live stream has read its n __consumer_offsets partitions up to where they end now, within
 * a fifth of the timeout (200 ms .. SYNC_MAX_MS). The ends as the collector's handle reads them (high
 * watermarks) first: one ListOffsets on its idle connections. An open transaction keeps the reader
 * (read_committed) below the high watermarks for good, so a stream that has not reached them is held
 * against the ends its own handle sees (the last stable offsets; that request can queue behind the
 * reader's held fetch, hence second). `patient` (the steady refresh) gives the high watermarks half the
 * wait and polls when they cannot be read; otherwise (--once, whose reader has just loaded the history:
 * an open transaction, common with exactly-once applications, must cost it no wait) one look at them.
 * On false, rc->steady_note says why. */
static bool stream_catch_up(struct lt_refresh_ctx *rc, int32_t n, int64_t deadline, const bool *stop, bool patient)
{
	int wait_ms = rc->timeout_ms / 5;
	wait_ms = wait_ms > SYNC_MAX_MS ? SYNC_MAX_MS : wait_ms < 200 ? 200 : wait_ms;
	int64_t until = now_mono_ms() + wait_ms < deadline ? now_mono_ms() + wait_ms : deadline;
	int64_t *end = xcalloc((size_t)n, sizeof *end);
	rd_kafka_resp_err_t hw = offsets_topic_ends(client_rk(rc->client), end, n, deadline_remaining_ms(until));
	bool ok = hw == RD_KAFKA_RESP_ERR_NO_ERROR &&
		  wait_reached(rc, end, n, patient ? now_mono_ms() + (until - now_mono_ms()) / 2 : now_mono_ms(), stop);
	rd_kafka_resp_err_t why = patient ? hw : RD_KAFKA_RESP_ERR_NO_ERROR; /* the error the note names */
	bool ask_stable =
		!ok &&
		(!patient || (hw == RD_KAFKA_RESP_ERR_NO_ERROR && !stopping(stop) && deadline_remaining_ms(until) > 0));
	if (ask_stable) {
		rd_kafka_resp_err_t ls = commit_reader_ends(rc->reader, end, n, deadline_remaining_ms(until));
		if (ls == RD_KAFKA_RESP_ERR_NO_ERROR)
			ok = wait_reached(rc, end, n, until, stop);
		else if (!patient)
			why = ls;
	}
	free(end);
	if (why != RD_KAFKA_RESP_ERR_NO_ERROR)
		snprintf(rc->steady_note, sizeof rc->steady_note,
			 "cannot tell where %s ends (%s): committed offsets polled", LT_OFFSETS_TOPIC,
			 rd_kafka_err2str(why));
	else if (!ok)
		snprintf(rc->steady_note, sizeof rc->steady_note,
			 "commit stream behind (not caught up with %s within %d ms): committed offsets polled",
			 LT_OFFSETS_TOPIC, wait_ms);
	return ok;
}

/* Whether this refresh may take committed offsets from the stream: it is live and has read
 * __consumer_offsets at least up to where each partition ended when the refresh began (one ListOffsets
 * per leader), so it holds every commit OffsetFetch could return now. Otherwise rc->steady_note says why
 * (empty when the stream's own state already says it: off, loading, denied, failed). */
static bool steady_sync(struct lt_refresh_ctx *rc, int64_t deadline, const bool *stop)
{
	rc->steady_note[0] = '\0';
	if (!rc->reader || rc->full_poll)
		return false;
	if (!rc->steady)
		rc->steady = xcalloc(1, sizeof *rc->steady);
	struct lt_steady *sd = rc->steady;
	if (commit_reader_state(rc->reader, NULL, 0) != LT_READER_LIVE)
		return false;
	if (sd->poll_next) {
		sd->poll_next = false;
		snprintf(rc->steady_note, sizeof rc->steady_note, "%s", sd->poll_why);
		return false;
	}
	int32_t n = commit_reader_partitions(rc->reader);
	if (n <= 0)
		return false;
	return stream_catch_up(rc, n, deadline, stop, true);
}

/* The stream's generation of groups about to be described. Also while the stream is still loading: a
 * generation read from a partial history is at most the one the describe sees, so a later difference
 * only costs a describe more, never a missed rebalance. */
static void steady_read_gens(struct lt_refresh_ctx *rc, struct group_work **g, size_t n)
{
	lt_reader_state rs = commit_reader_state(rc->reader, NULL, 0);
	if (rs != LT_READER_LIVE && rs != LT_READER_LOADING)
		return;
	const lt_commit_stream *cs = commit_reader_lock(rc->reader);
	for (size_t i = 0; i < n; i++)
		g[i]->gen = stream_gen_of(cs, g[i]->name);
	commit_reader_unlock(rc->reader);
}

/* Before anything is sent: the stream's generation of every remembered group (what its describe will
 * show, or a later one), and in a steady refresh the sweep's slice; the other warm groups wait for
 * ListGroups (steady_decide). */
static void steady_mark(struct stage2 *st, struct work_set *ws)
{
	struct lt_refresh_ctx *rc = st->rc;
	struct lt_steady *sd = rc->steady;
	if (st->steady) {
		size_t n = rc->prev ? rc->prev->n_groups : 0;
		int iv = rc->interval_ms > 0 ? rc->interval_ms : 2000;
		size_t rounds = (size_t)(LT_SWEEP_MS / iv);
		if (rounds < 1)
			rounds = 1;
		size_t slice = (n + rounds - 1) / rounds;
		if (sd->sweep_pos >= n)
			sd->sweep_pos = 0;
		for (size_t k = 0; k < slice; k++) {
			struct group_work *gw = work_find(ws, rc->prev->groups[(sd->sweep_pos + k) % n].group);
			if (gw)
				gw->swept = true;
		}
		sd->sweep_pos = n ? (sd->sweep_pos + slice) % n : 0;
	}
	for (size_t i = 0; i < ws->n; i++)
		ws->w[i]->deferred = st->steady && ws->w[i]->warm && !ws->w[i]->swept;
	steady_read_gens(rc, ws->w, ws->n);
}

/* Whether a remembered group is quiet: nothing says its members or state changed since it was last
 * described. */
static bool steady_quiet(const struct lt_steady *sd, const struct group_work *gw, const lt_group *pg,
			 const lt_commit_group_stats *gs)
{
	if (pg->error || pg->stale_ms > 0 || pg->members_unreadable || pg->type != LT_GTYPE_CLASSIC)
		return false;
	if (pg->state != LT_GROUP_STABLE && pg->state != LT_GROUP_EMPTY)
		return false; /* rebalancing: ask until it settles */
	if (!gw->listed || gw->list_state != pg->state || gw->list_type == LT_GTYPE_CONSUMER)
		return false;
	if (gs->new_protocol)
		return false;
	if (gs->has_metadata ? gs->n_members != pg->n_members : pg->n_members != 0)
		return false;
	int32_t rec = gen_recorded(sd, gw->name);
	return rec != -2 && rec == stream_gen(gs);
}

struct live_list {
	lt_commit_live *c;
	size_t n, cap;
	bool metadata;
};

static void collect_live(const lt_commit_live *c, void *arg)
{
	struct live_list *l = arg;
	l->c = xgrow(l->c, &l->cap, l->n + 1, sizeof *l->c);
	l->c[l->n++] = *c; /* the topic is the stream's interned name: valid under its lock */
	l->metadata |= c->has_metadata;
}

/* A quiet group: the last snapshot's state, protocol, coordinator and members, and the stream's live
 * commits (what OffsetFetch would return). False when a commit carries metadata, which the stream does
 * not keep: then the group is asked. */
static bool build_from_stream(lt_snapshot *s, const struct work_set *ws, const struct group_work *gw,
			      const lt_group *pg, const lt_commit_stream *cs)
{
	struct live_list l = { 0 };
	commit_stream_each_commit(cs, gw->name, collect_live, &l);
	if (l.metadata) {
		free(l.c);
		return false;
	}
	lt_group *g = group_copy_head(s, pg);
	for (size_t i = 0; i < l.n; i++) {
		if (l.c[i].offset < 0)
			continue;
		lt_partition *p = group_add_partition(g, l.c[i].topic, l.c[i].partition);
		p->committed = l.c[i].offset;
#ifdef HAVE_RD_KAFKA_TOPIC_PARTITION_GET_LEADER_EPOCH /* as group_build: librdkafka < 2.1 has no epochs */
		if (ws->commit_epochs && l.c[i].leader_epoch >= 0)
			group_add_commit_epoch(g, l.c[i].topic, l.c[i].partition, l.c[i].leader_epoch);
#else
		(void)ws;
#endif
	}
	free(l.c);
	return true;
}

/* A described group's committed offsets from the stream instead of OffsetFetch (any refresh whose stream
 * is caught up, steady_sync; the only one of --once): every commit goes through __consumer_offsets, so the
 * stream's live commits are what OffsetFetch would return. Not for the groups it cannot vouch for: those of
 * the consumer protocol (records the stream does not decode), groups it does not know or whose metadata
 * record was deleted, groups with expired offsets or offsets past their forecast expiry (the broker may be
 * deleting them now), and commits with metadata (not kept). Copies the commits: true when it took them. */
static bool stream_offsets(struct lt_refresh_ctx *rc, struct group_work *gw)
{
	const lt_commit_stream *cs = commit_reader_lock(rc->reader);
	lt_commit_group_stats gs;
	bool ok = commit_stream_group_stats(cs, gw->name, now_wall_ms(), &gs) == 0 && !gs.new_protocol && !gs.deleted &&
		  gs.n_expired == 0 && !(gs.has_expiry && gs.expires_in_ms <= 0);
	struct live_list l = { 0 };
	if (ok)
		commit_stream_each_commit(cs, gw->name, collect_live, &l);
	ok = ok && !l.metadata;
	if (ok)
		gw->soff = xcalloc(l.n + 1, sizeof *gw->soff);
	for (size_t i = 0; ok && i < l.n; i++) {
		if (l.c[i].offset < 0)
			continue;
		gw->soff[gw->n_soff++] = (struct stream_off){ .topic = xstrdup(l.c[i].topic),
							      .partition = l.c[i].partition,
							      .leader_epoch = l.c[i].leader_epoch,
							      .offset = l.c[i].offset };
	}
	commit_reader_unlock(rc->reader);
	free(l.c);
	if (ok)
		gw->off_stream = gw->off_done = true;
	return ok;
}

/* At a described group's OffsetFetch: true when the stream answers instead, now (a caught-up stream) or
 * once it has caught up (--once, whose stream is still loading: the group waits in stream_resolve). */
static bool stream_instead(struct stage2 *st, struct group_work *gw)
{
	if (!(st->steady || st->stream_wait) || gw->swept || gw->list_type == LT_GTYPE_CONSUMER ||
	    described_of(gw).type == LT_GTYPE_CONSUMER)
		return false;
	if (st->steady)
		return stream_offsets(st->rc, gw);
	gw->off_parked = true;
	st->n_parked++;
	return true;
}

/* steady_sync's check for --once: the stream is live and has read up to where __consumer_offsets ends now,
 * without steady_sync's half wait on the high watermarks (stream_catch_up). */
static bool stream_caught_up(struct lt_refresh_ctx *rc, int64_t deadline, const bool *stop)
{
	int32_t n = commit_reader_partitions(rc->reader);
	if (n <= 0 || commit_reader_state(rc->reader, NULL, 0) != LT_READER_LIVE)
		return false;
	return stream_catch_up(rc, n, deadline, stop, false);
}

/* --once: every answer is in and some described groups wait for the stream. It gets half of the time
 * left to finish loading the history (--once waits for it afterwards anyway), then stream_caught_up;
 * groups it cannot give are asked (OffsetFetch) with the time left. */
static void stream_resolve(struct stage2 *st, struct work_set *ws, const bool *stop)
{
	struct lt_refresh_ctx *rc = st->rc;
	int64_t until = now_mono_ms() + deadline_remaining_ms(st->deadline) / 2;
	for (;;) {
		uint64_t seen = commit_reader_changes(rc->reader);
		lt_reader_state rs = commit_reader_state(rc->reader, NULL, 0);
		int left = deadline_remaining_ms(until);
		if ((rs != LT_READER_STARTING && rs != LT_READER_LOADING) || commit_reader_topic_missing(rc->reader) ||
		    left <= 0 || stopping(stop))
			break;
		commit_reader_wait_change(rc->reader, seen, left < POLL_SLICE_MS ? left : POLL_SLICE_MS);
	}
	bool synced = !stopping(stop) && stream_caught_up(rc, st->deadline, stop);
	st->stream_wait = false;
	st->n_parked = 0;
	for (size_t i = 0; i < ws->n; i++) {
		struct group_work *gw = ws->w[i];
		if (!gw->off_parked)
			continue;
		gw->off_parked = false;
		if (synced && stream_offsets(rc, gw))
			build_if_complete(st->s, ws, rc->prev, gw);
		else if (!stopping(stop))
			offsets_send(st, gw, gw->coord);
	}
}

/* Every broker's ListGroups is in: each deferred group is built from the stream when quiet, otherwise
 * described and its offsets fetched like any warm group. */
static void steady_decide(struct stage2 *st, struct work_set *ws)
{
	struct lt_refresh_ctx *rc = st->rc;
	struct group_work **ask = xcalloc(ws->n + 1, sizeof *ask);
	size_t na = 0;
	const lt_commit_stream *cs = commit_reader_lock(rc->reader);
	for (size_t i = 0; i < ws->n; i++) {
		struct group_work *gw = ws->w[i];
		if (!gw->deferred)
			continue;
		gw->deferred = false;
		const lt_group *pg = snapshot_find_group(rc->prev, gw->name);
		lt_commit_group_stats gs; /* steady_quiet reads the group's own fields only */
		bool known = commit_stream_group_info(cs, gw->name, &gs) == 0;
		gw->gen = known ? stream_gen(&gs) : -1;
		if (pg && known && steady_quiet(rc->steady, gw, pg, &gs) && build_from_stream(st->s, ws, gw, pg, cs)) {
			gw->from_stream = gw->built = true;
			gw->desc_sent = gw->desc_done = gw->off_sent = gw->off_done = true;
			rc->stats.from_stream++;
		} else {
			ask[na++] = gw;
		}
	}
	commit_reader_unlock(rc->reader);
	warm_append(st, ask, na, false);
	free(ask);
}

/* A swept group's fetched offsets against the stream's. A difference counts when the stream's commit
 * is older than the refresh (a commit made during the refresh may be in one and not yet in the other). */
static void verify_group(const struct work_set *ws, const lt_group *g)
{
	struct live_list l = { 0 };
	const lt_commit_stream *cs = commit_reader_lock(ws->verify);
	commit_stream_each_commit(cs, g->group, collect_live, &l);
	size_t bad = 0, polled = 0;
	for (size_t k = 0; k < g->n_partitions; k++)
		polled += g->partitions[k].committed >= 0;
	for (size_t i = 0; i < l.n; i++) {
		const lt_partition *p = NULL;
		for (size_t k = 0; k < g->n_partitions && !p; k++)
			if (g->partitions[k].partition == l.c[i].partition &&
			    strcmp(g->partitions[k].topic, l.c[i].topic) == 0)
				p = &g->partitions[k];
		if (l.c[i].offset >= 0 && p && p->committed >= 0)
			polled--;
		if ((!p || p->committed != l.c[i].offset) && l.c[i].last_commit_ms < ws->taken_at_ms)
			bad++;
	}
	commit_reader_unlock(ws->verify);
	free(l.c);
	ws->stats->verified++;
	ws->stats->mismatches += bad + polled; /* polled: commits OffsetFetch returned and the stream lacks */
}

/* Remembers the stream's generation of every group described (or built from the stream) this
 * refresh: the next one builds it from the stream only while the generation is the same. */
static void steady_remember(struct lt_refresh_ctx *rc, const struct work_set *ws)
{
	if (!rc->steady)
		return;
	struct lt_steady *sd = rc->steady;
	gens_free(sd);
	sd->gens = xcalloc(ws->n + 1, sizeof *sd->gens);
	for (size_t i = 0; i < ws->n; i++) { /* ws is sorted by name, and so is the table */
		const struct group_work *gw = ws->w[i];
		if (gw->gen == -2 || gw->error || !(gw->built || has_desc(gw)))
			continue;
		sd->gens[sd->n_gens++] = (struct gen_ent){ .name = xstrdup(gw->name), .gen = gw->gen };
	}
}

/* ------------------------------------------------------------------ the refresh */

static bool asked_by_name(const struct lt_refresh_ctx *rc, const char *name)
{
	for (size_t i = 0; i < rc->n_extra; i++)
		if (strcmp(rc->extra[i], name) == 0)
			return true;
	return false;
}

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
		snapshot_count_unread(s);
		s->duration_ms = now_mono_ms() - t0;
		return LT_REFRESH_UNREACHABLE;
	}

	/* Describes and offsets stop early enough to leave a fifth of the timeout to the log offsets. */
	int64_t admin_deadline = deadline - rc->timeout_ms / 5;
	memset(&rc->stats, 0, sizeof rc->stats);
	bool steady = steady_sync(rc, admin_deadline, stop);
	rc->stats.steady = steady;
	struct work_set ws = { .commit_epochs = rc->commit_epochs,
			       .verify = steady ? rc->reader : NULL,
			       .taken_at_ms = s->taken_at_ms,
			       .stats = &rc->stats,
			       .prev = rc->prev };
	struct event_keep keep = { 0 };
	groups_stage(rc, s, md, admin_deadline, stop, &ws, &keep, steady);
	if (steady && rc->stats.mismatches > 0) {
		rc->steady->poll_next = true;
		snprintf(rc->steady->poll_why, sizeof rc->steady->poll_why,
			 "the commit stream and OffsetFetch disagreed on %zu partition%s: committed offsets polled",
			 rc->stats.mismatches, rc->stats.mismatches == 1 ? "" : "s");
	}

	size_t n_unauth = 0;
	char unauth_names[200] = "";
	for (size_t i = 0; i < ws.n; i++) {
		struct group_work *gw = ws.w[i];
		if (gw->built)
			continue;
		if (gw->unauthorized && gw->error && (!gw->listed || asked_by_name(rc, gw->name))) {
			/* asked for by name (-g) and denied: said as such, never as "does not exist" */
			snapshot_add_unread(s, gw->name, -1, gw->error);
			continue;
		}
		if (gw->unauthorized) { /* neither a row with an error nor a stale copy: one count for all */
			size_t used = strlen(unauth_names);
			if (n_unauth < 3)
				snprintf(unauth_names + used, sizeof unauth_names - used, "%s%s", n_unauth ? ", " : "",
					 gw->name);
			n_unauth++;
			continue;
		}
		if (!gw->error && has_desc(gw) && (gw->off || gw->off_stream)) {
			group_build(s, &ws, rc->prev, gw);
			continue;
		}
		const lt_group *pg = snapshot_find_group(rc->prev, gw->name);
		if (pg) {
			group_copy_stale(s, pg, rc->prev->taken_at_ms, s->taken_at_ms, gw->error);
		} else if (gw->listed) {
			/* Never seen before and failed now: show it with its error, nothing else known. */
			lt_group *g = snapshot_add_group(s, gw->name);
			g->error = xstrdup(gw->error ? gw->error : "incomplete answer");
			g->unread = true;
			if (has_desc(gw)) {
				lt_group_view v = view_of_work(&ws, rc->prev, gw);
				g->state = v.state;
				g->type = v.type;
				g->members_unreadable = v.members_unreadable;
			}
		} else if (gw->error) {
			/* a -g group that could not be asked or answered: no row, but never "does not exist" */
			snapshot_add_unread(s, gw->name, -1, gw->error);
		}
	}
	if (n_unauth)
		err_append(&s->error, "%zu group%s not authorized (Describe on the group denied): %s%s", n_unauth,
			   n_unauth == 1 ? "" : "s", unauth_names, n_unauth > 3 ? ", ..." : "");
	keep_free(&keep);
	steady_remember(rc, &ws);
	group_batch_free(ws.batch);
	work_free(&ws);

	/* Sorts, and adds the assigned partitions that have no commit: they need log offsets too. */
	snapshot_finish(s);
	if (!stopping(stop))
		log_offsets_fill(client_rk(rc->client), s, md, deadline);
	rd_kafka_metadata_destroy(md);
	client_poll(rc->client);
	char last[512];
	if (client_last_error(rc->client, last, sizeof last))
		err_append(&s->error, "librdkafka: %s", last); /* fatal: the handle no longer works */

	snapshot_count_unread(s);
	s->duration_ms = now_mono_ms() - t0;
	bool partial = s->error != NULL || !snapshot_read_whole(s);
	for (size_t i = 0; i < s->n_groups && !partial; i++)
		partial = s->groups[i].error != NULL;
	return partial ? LT_REFRESH_PARTIAL : LT_REFRESH_OK;
}
