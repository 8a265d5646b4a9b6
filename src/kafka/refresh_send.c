/* refresh_send.c — the groups stage's requests: DescribeGroups and OffsetFetch, each sent straight to
 * its coordinator when it is known, through a window of calls in flight (the warm groups, in batches
 * per coordinator), and the cold describe that looks coordinators up. Decides at each OffsetFetch
 * whether the commit stream answers instead (stream_instead).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "kafka/refresh_internal.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

void options_timeout(rd_kafka_AdminOptions_t *opt, int64_t deadline, bool cold)
{
	char why[256];
	int r = cold ? COLD_TIMEOUT_MS : deadline_remaining_ms(deadline);
	rd_kafka_AdminOptions_set_request_timeout(opt, r > 0 ? r : 1, why, sizeof why);
}

/* The options of a group request: its timeout (an hour when cold, see COLD_TIMEOUT_MS), its broker when
 * the coordinator is known (broker >= 0), and its ticket. */
static rd_kafka_AdminOptions_t *group_request_options(struct stage2 *st, rd_kafka_admin_op_t op, int32_t broker,
						      struct lt_ticket *t)
{
	rd_kafka_AdminOptions_t *opt = rd_kafka_AdminOptions_new(st->rk, op);
	options_timeout(opt, st->deadline, broker < 0);
	char why[256];
	if (broker >= 0)
		rd_kafka_AdminOptions_set_broker(opt, broker, why, sizeof why);
	rd_kafka_AdminOptions_set_opaque(opt, t);
	return opt;
}

void describe_send(struct stage2 *st, struct group_work **g, size_t n, int32_t broker)
{
	if (n == 0)
		return;
	struct lt_ticket *t = ticket_new(st->rc, TICKET_DESCRIBE, broker < 0, g, n);
	const char **names = xcalloc(n, sizeof *names);
	for (size_t i = 0; i < n; i++)
		names[i] = g[i]->name;
	rd_kafka_AdminOptions_t *opt = group_request_options(st, RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS, broker, t);
	rd_kafka_DescribeConsumerGroups(st->rk, names, n, opt, st->q);
	rd_kafka_AdminOptions_destroy(opt);
	free(names);
	st->pending++;
	st->rc->stats.described += n;
}

void offsets_send(struct stage2 *st, struct group_work *gw, int32_t broker)
{
	struct lt_ticket *t = ticket_new(st->rc, TICKET_OFFSETS, broker < 0, &gw, 1);
	rd_kafka_AdminOptions_t *opt = group_request_options(st, RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS, broker, t);
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

/* Sends warm batches (a describe, then its groups' offsets requests) while fewer than WARM_WINDOW
 * calls are in flight. Called at the start and after every answer. */
void warm_top_up(struct stage2 *st)
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
void warm_append(struct stage2 *st, struct group_work **by, size_t nb, bool describe_only)
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

void send_warm(struct stage2 *st, struct work_set *ws)
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
void send_cold(struct stage2 *st, struct work_set *ws, bool list_complete)
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

/* At a described group's OffsetFetch: true when the stream answers instead, now (a caught-up stream: a
 * steady refresh, or --once once stream_resolve found it caught up) or once it has caught up (--once, whose
 * stream is still loading: the group waits in stream_resolve). */
bool stream_instead(struct stage2 *st, struct group_work *gw)
{
	bool caught_up = st->steady || st->stream_synced;
	if (!(caught_up || st->stream_wait) || gw->swept || gw->list_type == LT_GTYPE_CONSUMER ||
	    described_of(gw).type == LT_GTYPE_CONSUMER)
		return false;
	if (caught_up)
		return stream_offsets(st->rc, gw);
	gw->off_parked = true;
	st->n_parked++;
	return true;
}
