/* refresh_groups.c — the groups stage: one event loop for ListGroups (per broker), the describes
 * (batched through group_batch.c, per group for what the batch cannot answer) and the committed
 * offsets; it handles each answer as it comes, and in a steady refresh decides which groups the
 * commit stream gives (steady_mark, steady_decide, stream_resolve).
 */
#include "config.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "kafka/client.h"
#include "kafka/explain.h"
#include "kafka/group_batch.h"
#include "kafka/refresh.h"
#include "kafka/refresh_internal.h"
#include "model/group_view.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

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

/* The event loop wakes at least this often to notice a stop request. */
#define POLL_SLICE_MS 100

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

bool refresh_group_wanted(const struct lt_refresh_ctx *rc, const char *group)
{
	bool in = rc->n_include == 0;
	for (size_t i = 0; i < rc->n_include && !in; i++)
		in = regexec(&rc->include[i], group, 0, NULL, 0) == 0;
	for (size_t i = 0; i < rc->n_exclude && in; i++)
		in = regexec(&rc->exclude[i], group, 0, NULL, 0) != 0;
	return in;
}

static bool broker_in(const struct rd_kafka_metadata *md, int32_t id)
{
	for (int i = 0; i < md->broker_cnt; i++)
		if (md->brokers[i].id == id)
			return true;
	return false;
}

static void steady_decide(struct stage2 *st, struct work_set *ws);
static bool batch_settle(struct stage2 *st, struct work_set *ws, struct group_work *gw);

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

/* The batched describe starts once every broker's ListGroups has answered (or timed out), not beside
 * them: a broker answers one connection's requests in order, so a list sent after the batch's
 * DescribeGroups waits for it, and a broker slow to describe would then lose its list as well (librdkafka
 * sends the batch's requests as soon as a connection is up, before the admin calls' ListGroups). The
 * cost is one ListGroups round trip; the batch keeps its deadline (half the refresh's time). */
static void batch_start(struct stage2 *st, struct work_set *ws)
{
	if (!st->batch_pending || st->batch)
		return;
	int ms = deadline_remaining_ms(st->batch_deadline);
	st->batch = ws->batch = group_batch_start(st->rk, st->q, ms > 0 ? ms : 1);
}

/* One broker's ListGroups has answered. A broker lists exactly the groups it coordinates, so every group
 * it lists that is not on its way already is described right there, by name: no FindCoordinator, on the
 * first refresh too (librdkafka 2.0.2 would send one per group; 2.10+ two, for ConsumerGroupDescribe and
 * again for its fallback to DescribeGroups), and a broker that is slow or down holds back only its own
 * groups. When the last broker has answered, groups no broker listed go the cold way (send_cold). */
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
							  stream may give them (then they follow the describe) */
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
	 * insert of each call's timeout timer into one list (quadratic: doc/ARCHITECTURE.md). While the batch
	 * runs a group's offsets go out at once, unless the stream may give them (--once's, still loading, or
	 * a steady refresh's: its first runs the batch too): then they follow the describe (stream_instead). */
	if (nb)
		warm_append(st, by, nb, !st->batch_pending || st->stream_wait || st->steady);
	free(by);
	if (st->lists_pending > 0 && --st->lists_pending == 0) {
		batch_start(st, ws);
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

/* --once: some described groups wait for the stream (parked_due). It gets half of the time left to finish
 * loading the history (--once waits for it afterwards anyway), then stream_caught_up; groups it cannot give
 * are asked (OffsetFetch) with the time left. Groups described later take the stream as a steady refresh
 * does when it was caught up (stream_synced), else send their OffsetFetch. */
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
	st->stream_synced = synced;
	st->n_parked = 0;
	for (size_t i = 0; i < ws->n; i++) {
		struct group_work *gw = ws->w[i];
		if (!gw->off_parked)
			continue;
		gw->off_parked = false;
		if (synced && stream_offsets(rc, gw)) {
			build_if_complete(st->s, ws, rc->prev, gw);
		} else if (!stopping(stop)) {
			rc->stats.stream_late += !synced;
			offsets_send(st, gw, gw->coord);
		}
	}
}

/* Whether the parked groups (--once) stop waiting now: every other answer is in, or the stream has
 * finished loading (or cannot), or half of the stage's time is gone. Not "every other answer is in" alone:
 * a broker that is slow or down would then hold every other broker's groups until the deadline, their
 * offsets neither taken from the stream nor asked for. */
static bool parked_due(const struct stage2 *st)
{
	if (st->n_parked == 0)
		return false;
	if (st->pending == 0 || now_mono_ms() >= st->park_until)
		return true;
	lt_reader_state rs = commit_reader_state(st->rc->reader, NULL, 0);
	return (rs != LT_READER_STARTING && rs != LT_READER_LOADING) || commit_reader_topic_missing(st->rc->reader);
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

void groups_stage(struct lt_refresh_ctx *rc, lt_snapshot *s, const struct rd_kafka_metadata *md, int64_t deadline,
		  const bool *stop, struct work_set *ws, struct event_keep *keep, bool steady)
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
		st.park_until = now_mono_ms() + deadline_remaining_ms(deadline) / 2;
	}
	/* Every group in one DescribeGroups per coordinator (group_batch.h), after the lists (batch_start),
	 * until half of the time: what it cannot answer in time is asked group by group with the rest. Not
	 * when groups are asked for by name (-g: the cluster's other groups are not wanted), nor in a steady
	 * refresh, which describes only the groups that changed, unless it is the first (no last snapshot:
	 * every group is described, as in --once whose commit stream was caught up before the refresh
	 * looked). */
	if ((!steady || !rc->prev) && rc->n_extra == 0 && !rc->no_batch) {
		st.batch_deadline = now_mono_ms() + deadline_remaining_ms(deadline) / 2;
		st.batch_pending = true; /* started by batch_start when the lists are in */
		st.pending++;
		if (st.lists_pending == 0) /* no broker to list */
			batch_start(&st, ws);
	}
	send_warm(&st, ws);

	while (st.pending > 0 || st.n_parked > 0) {
		if (parked_due(&st) && !stopping(stop)) {
			stream_resolve(&st, ws, stop);
			continue;
		}
		/* while groups are parked, the loop wakes to see whether the stream has loaded (parked_due) */
		int64_t wake = st.n_parked > 0 && now_mono_ms() + POLL_SLICE_MS < deadline
				       ? now_mono_ms() + POLL_SLICE_MS
				       : deadline;
		rd_kafka_event_t *ev = wait_event(q, rc->client, wake, stop, st.batch_pending ? st.batch : NULL);
		if (!ev && st.batch && st.batch_pending && group_batch_ready(st.batch) && !stopping(stop)) {
			on_batch(&st, ws);
			continue;
		}
		if (!ev && wake < deadline && !stopping(stop))
			continue;
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
