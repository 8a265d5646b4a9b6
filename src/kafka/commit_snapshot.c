/* commit_snapshot.c — the commit stream's facts copied into a snapshot (see commit_snapshot.h). */
#include "config.h"

#include "kafka/commit_snapshot.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/timeutil.h"
#include "util/xalloc.h"

static lt_cstream_state state_of(lt_reader_state st)
{
	switch (st) {
	case LT_READER_STARTING: return LT_CSTREAM_STARTING;
	case LT_READER_LOADING: return LT_CSTREAM_LOADING;
	case LT_READER_LIVE: return LT_CSTREAM_LIVE;
	case LT_READER_DENIED: return LT_CSTREAM_DENIED;
	case LT_READER_FAILED:
	default: return LT_CSTREAM_FAILED;
	}
}

static void fill_partition(const lt_commit_stream *cs, const lt_commit_group *cg, lt_partition *p, int64_t now_ms)
{
	lt_commit_stats st;
	if (commit_stream_group_part_stats(cs, cg, p->topic, p->partition, now_ms, &st) != 0)
		return;
	p->has_last_commit = true;
	p->last_commit_ms = st.last_commit_ms;
	p->last_commit_age_ms = st.last_commit_age_ms;
	p->commits_per_min = st.commits_per_min;
	p->has_unmoved = true;
	p->unmoved_ms = st.unmoved_ms;
	p->repeating = st.repeating;
}

static void fill_group(const lt_commit_stream *cs, lt_group *g, int64_t now_ms)
{
	const lt_commit_group *cg = commit_stream_group(cs, g->group); /* one lookup for all its rows */
	if (!cg)
		return;
	for (size_t k = 0; k < g->n_partitions; k++)
		fill_partition(cs, cg, &g->partitions[k], now_ms);
	lt_commit_group_stats gs;
	if (commit_stream_group_stats(cs, g->group, now_ms, &gs) != 0)
		return;
	if (gs.last_commit_ms >= 0) {
		g->has_last_commit = true;
		g->last_commit_ms = gs.last_commit_ms;
		g->last_commit_age_ms = gs.last_commit_age_ms;
		g->commits_per_min = gs.commits_per_min;
	}
	/* The forecast follows Kafka's rule (stream.h); a group the coordinator reports with members
	 * keeps its subscribed offsets, which the stream knows from the metadata it read. A consumer-protocol
	 * (KIP-848) group's members and subscriptions are in its own records (ConsumerGroupMemberMetadata):
	 * without them in the stream (a broker that writes none) its commits would look like a simple group's
	 * and be forecast to expire although the group subscribes to them, so such a group gets a forecast
	 * only when the stream read its records. */
	if (gs.has_expiry && (g->type != LT_GTYPE_CONSUMER || gs.new_protocol)) {
		g->has_expiry = true;
		g->expires_at_ms = gs.expires_at_ms;
		g->expires_in_ms = gs.expires_in_ms;
		g->expiry_warn = gs.expiry_warn;
	}
}

/* group and topic point into the stream, valid while the reader's lock is held (all of fill_expired) */
struct expired_entry {
	const char *group, *topic;
	int32_t partition;
	int64_t last_commit_ms, expired_ms;
};

struct expired_list {
	struct expired_entry *e;
	size_t n, cap;
};

static void collect_expired(const char *group, const lt_commit_expired *e, void *arg)
{
	struct expired_list *l = arg;
	l->e = xgrow(l->e, &l->cap, l->n + 1, sizeof *l->e);
	l->e[l->n++] = (struct expired_entry){ group, e->topic, e->partition, e->last_commit_ms, e->expired_ms };
}

static lt_partition *find_part(lt_group *g, const char *topic, int32_t partition)
{
	for (size_t k = 0; k < g->n_partitions; k++)
		if (g->partitions[k].partition == partition && strcmp(g->partitions[k].topic, topic) == 0)
			return &g->partitions[k];
	return NULL;
}

/* Topic names are interned per snapshot (snapshot.h): one (pointer, partition) is one topic-partition. */
static int cmp_tp(const void *a, const void *b)
{
	const lt_partition *x = *(lt_partition *const *)a, *y = *(lt_partition *const *)b;
	if (x->topic != y->topic)
		return (uintptr_t)x->topic < (uintptr_t)y->topic ? -1 : 1;
	return x->partition < y->partition ? -1 : x->partition > y->partition;
}

/* Expired partitions that were added without log offsets take them from another group of the snapshot that
 * has the same topic-partition (the collector asked only for the partitions of the groups it found): one
 * pass over the snapshot, a binary search per row. */
static void log_offsets_from_others(lt_snapshot *s)
{
	lt_partition **need = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < s->n_groups; i++)
		for (size_t k = 0; k < s->groups[i].n_partitions; k++) {
			lt_partition *p = &s->groups[i].partitions[k];
			if ((p->flags & LT_PF_EXPIRED) && p->committed < 0 && p->log_end < 0) {
				need = xgrow(need, &cap, n + 1, sizeof *need);
				need[n++] = p;
			}
		}
	if (!n)
		return;
	qsort(need, n, sizeof *need, cmp_tp);
	for (size_t i = 0; i < s->n_groups; i++)
		for (size_t k = 0; k < s->groups[i].n_partitions; k++) {
			lt_partition *o = &s->groups[i].partitions[k];
			if (o->log_end < 0 || (o->flags & (LT_PF_STALE | LT_PF_NO_LEADER | LT_PF_LOG_UNKNOWN)))
				continue;
			lt_partition **hit = bsearch(&o, need, n, sizeof *need, cmp_tp);
			while (hit && hit > need && cmp_tp(hit - 1, &o) == 0)
				hit--;
			for (; hit && hit < need + n && cmp_tp(hit, &o) == 0; hit++) {
				(*hit)->log_start = o->log_start;
				(*hit)->log_end = o->log_end;
			}
		}
	free(need);
}

/* Returns whether a partition was added (the snapshot must be finished again). */
static bool mark_expired(lt_group *g, const struct expired_entry *e, int64_t now_ms)
{
	lt_partition *p = find_part(g, e->topic, e->partition);
	if (p && p->committed >= 0)
		return false; /* committed again since: the stream has not read that commit yet */
	bool added = !p;
	if (added)
		p = group_add_partition(g, e->topic, e->partition);
	p->flags |= LT_PF_EXPIRED;
	if (!p->has_last_commit) {
		p->has_last_commit = true;
		p->last_commit_ms = e->last_commit_ms;
		p->last_commit_age_ms = now_ms - e->last_commit_ms;
		p->commits_per_min = 0;
	}
	g->n_expired++;
	if (e->expired_ms > g->expired_ms)
		g->expired_ms = e->expired_ms;
	return added;
}

/* The offsets the broker expired, into the snapshot (see commit_snapshot.h). */
static void fill_expired(const lt_commit_stream *cs, lt_snapshot *s, int64_t now_ms,
			 bool (*wanted)(const char *group, void *arg), void *arg)
{
	struct expired_list l = { 0 };
	commit_stream_each_expired(cs, collect_expired, &l);
	for (size_t i = 0; i < s->n_groups; i++) {
		s->groups[i].n_expired = 0;
		s->groups[i].expired_ms = -1;
	}
	bool refinish = false;
	size_t n_known = s->n_groups; /* groups added below are not sorted yet: searched linearly */
	for (size_t i = 0; i < l.n; i++) {
		const struct expired_entry *e = &l.e[i];
		lt_snapshot sorted = { .groups = s->groups, .n_groups = n_known }; /* the part bsearch may see */
		lt_group *g = (lt_group *)snapshot_find_group(&sorted, e->group);
		for (size_t k = n_known; !g && k < s->n_groups; k++)
			if (strcmp(s->groups[k].group, e->group) == 0)
				g = &s->groups[k];
		if (!g) {
			/* a group the broker deleted: shown for the expiry horizon after the expiry, not for ever
			 * (clusters forget short-lived groups, console consumers', by the thousand) */
			if ((wanted && !wanted(e->group, arg)) || now_ms - e->expired_ms > commit_stream_horizon(cs))
				continue;
			g = snapshot_add_group(s, e->group);
			g->state = LT_GROUP_DEAD; /* what Kafka's describe says of a group it deleted */
			g->expired_ms = -1;
			refinish = true;
		}
		refinish |= mark_expired(g, e, now_ms);
	}
	if (refinish) {
		log_offsets_from_others(s);
		snapshot_finish(s);
	}
	free(l.e);
}

void commit_snapshot_fill(lt_commit_reader *r, lt_snapshot *s, int64_t now_ms,
			  bool (*wanted)(const char *group, void *arg), void *arg)
{
	free(s->commit_stream_reason);
	s->commit_stream_reason = NULL;
	if (!r) {
		s->commit_stream = LT_CSTREAM_OFF;
		s->commit_stream_reason =
			xstrdup("commit times unavailable: the commit stream is off (commit_stream = false or "
				"--no-commit-stream), polling only");
		return;
	}
	char why[256];
	lt_reader_state st = commit_reader_state(r, why, sizeof why);
	s->commit_stream = state_of(st);
	if (st == LT_READER_DENIED || st == LT_READER_FAILED) {
		s->commit_stream_reason = xasprintf("commit times unavailable: %s", why);
		return;
	}
	if (st == LT_READER_STARTING) {
		s->commit_stream_reason = xasprintf("commit times not loaded yet: %s", why);
		return;
	}
	char note[160];
	int64_t retention = commit_reader_retention(r, note, sizeof note);
	if (st == LT_READER_LOADING)
		s->commit_stream_reason = xasprintf("commit times partial: loading %s", LT_OFFSETS_TOPIC);
	else if (why[0])
		s->commit_stream_reason = xstrdup(why);
	else if (retention < 0)
		s->commit_stream_reason =
			xasprintf("no offset-expiry forecast: offsets.retention.minutes unknown (%s)", note);

	const lt_commit_stream *cs = commit_reader_lock(r);
	for (size_t i = 0; i < s->n_groups; i++)
		fill_group(cs, &s->groups[i], now_ms);
	fill_expired(cs, s, now_ms, wanted, arg);
	commit_reader_unlock(r);
}

lt_reader_state commit_reader_wait_loaded(lt_commit_reader *r, int timeout_ms)
{
	int64_t deadline = now_mono_ms() + timeout_ms;
	for (;;) {
		uint64_t seen = commit_reader_changes(r);
		lt_reader_state st = commit_reader_state(r, NULL, 0);
		if (st == LT_READER_DENIED || st == LT_READER_FAILED || now_mono_ms() >= deadline)
			return st;
		if (st == LT_READER_STARTING && commit_reader_topic_missing(r))
			return st; /* nothing committed on this cluster yet: no history to wait for */
		if (st == LT_READER_LIVE) {
			/* the expiry forecast also needs the retention: wait for the answer, not for a retry */
			char note[160];
			if (commit_reader_retention(r, note, sizeof note) >= 0 ||
			    (strncmp(note, "asking", 6) != 0 && strncmp(note, "not asked", 9) != 0))
				return st;
		}
		/* woken by the reader's next change (bounded: the deadline, and a stop that changes nothing) */
		int64_t left = deadline - now_mono_ms();
		commit_reader_wait_change(r, seen, left < 100 ? (int)(left > 0 ? left : 1) : 100);
	}
}
