/* refresh_steady.c — what the commit stream tells a refresh (the steady refresh): whether it has caught
 * up with __consumer_offsets, each group's generation, whether a group is quiet, a group's live commits
 * in place of OffsetFetch, and the sweep's check of fetched offsets against the stream. Sends no group
 * request; the groups stage (refresh_groups.c) acts on its answers.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kafka/commitreader.h"
#include "kafka/refresh_internal.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

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
int32_t stream_gen(const lt_commit_group_stats *gs)
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
bool steady_sync(struct lt_refresh_ctx *rc, int64_t deadline, const bool *stop)
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
void steady_read_gens(struct lt_refresh_ctx *rc, struct group_work **g, size_t n)
{
	lt_reader_state rs = commit_reader_state(rc->reader, NULL, 0);
	if (rs != LT_READER_LIVE && rs != LT_READER_LOADING)
		return;
	const lt_commit_stream *cs = commit_reader_lock(rc->reader);
	for (size_t i = 0; i < n; i++)
		g[i]->gen = stream_gen_of(cs, g[i]->name);
	commit_reader_unlock(rc->reader);
}

/* Whether a remembered group is quiet: nothing says its members or state changed since it was last
 * described. */
bool steady_quiet(const struct lt_steady *sd, const struct group_work *gw, const lt_group *pg,
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

void collect_live(const lt_commit_live *c, void *arg)
{
	struct live_list *l = arg;
	l->c = xgrow(l->c, &l->cap, l->n + 1, sizeof *l->c);
	l->c[l->n++] = *c; /* the topic is the stream's interned name: valid under its lock */
	l->metadata |= c->has_metadata;
}

/* A described group's committed offsets from the stream instead of OffsetFetch (any refresh whose stream
 * is caught up, steady_sync; the only one of --once): every commit goes through __consumer_offsets, so the
 * stream's live commits are what OffsetFetch would return. Not for the groups it cannot vouch for: those of
 * the consumer protocol (records the stream does not decode), groups it does not know or whose metadata
 * record was deleted, groups with expired offsets or offsets past their forecast expiry (the broker may be
 * deleting them now), and commits with metadata (not kept). Copies the commits: true when it took them. */
bool stream_offsets(struct lt_refresh_ctx *rc, struct group_work *gw)
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

/* steady_sync's check for --once: the stream is live and has read up to where __consumer_offsets ends now,
 * without steady_sync's half wait on the high watermarks (stream_catch_up). */
bool stream_caught_up(struct lt_refresh_ctx *rc, int64_t deadline, const bool *stop)
{
	int32_t n = commit_reader_partitions(rc->reader);
	if (n <= 0 || commit_reader_state(rc->reader, NULL, 0) != LT_READER_LIVE)
		return false;
	return stream_catch_up(rc, n, deadline, stop, false);
}

/* A swept group's fetched offsets against the stream's. A difference counts when the stream's commit
 * is older than the refresh (a commit made during the refresh may be in one and not yet in the other). */
void verify_group(const struct work_set *ws, const lt_group *g)
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
void steady_remember(struct lt_refresh_ctx *rc, const struct work_set *ws)
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
