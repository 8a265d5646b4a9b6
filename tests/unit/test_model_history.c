/* test_model_history.c — model_enrich over sequences of snapshots: history rings, rates, time lag,
 * status, group aggregates, trend, forgetting, compact storage and its memory budget. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/model.h"
#include "model/model_int.h"
#include "../lib/cmocka_main.h"

typedef struct {
	const char *topic;
	int32_t partition;
	int64_t log_start, committed, log_end;
	bool owned;
	bool stale;
} pspec;

/* A snapshot with one group of the given partitions at time t (ms). */
static lt_snapshot *snap(int64_t t, const char *group, const pspec *ps, size_t n)
{
	lt_snapshot *s = snapshot_new();
	s->taken_at_ms = t;
	lt_group *g = snapshot_add_group(s, group);
	g->state = LT_GROUP_STABLE;
	lt_member *m = group_add_member(g, "m-1", "client-1", "/10.0.0.1");
	for (size_t i = 0; i < n; i++) {
		lt_partition *p = group_add_partition(g, ps[i].topic, ps[i].partition);
		p->log_start = ps[i].log_start;
		p->committed = ps[i].committed;
		p->log_end = ps[i].log_end;
		if (ps[i].stale)
			p->flags |= LT_PF_STALE;
		if (ps[i].owned)
			member_add_assignment(m, ps[i].topic, ps[i].partition);
	}
	snapshot_finish(s);
	return s;
}

/* Feeds one partition (committed c[i], log end e[i] at t = (i+1) s) and returns the last snapshot. */
static lt_snapshot *feed(lt_history *h, size_t n, const int64_t *c, const int64_t *e, bool owned)
{
	lt_snapshot *s = NULL;
	for (size_t i = 0; i < n; i++) {
		if (s)
			snapshot_unref(s);
		pspec p = { "t", 0, 0, c[i], e[i], owned, false };
		s = snap((int64_t)(i + 1) * 1000, "g", &p, 1);
		model_enrich(h, s);
	}
	return s;
}

static lt_history *hist(size_t window)
{
	lt_model_params p;
	model_params_default(&p);
	p.window = window;
	return history_new(&p);
}

/* time_lag_threshold marks partitions (and their group) whose time lag is above it; 0 never marks. */
static void time_lag_threshold_flags(void **state)
{
	(void)state;
	const int64_t c[] = { 100, 100, 100, 100, 100, 100 };
	const int64_t e[] = { 100, 200, 300, 400, 500, 600 }; /* log end was 100 at t=1s; now is t=6s */
	const int64_t thresholds[] = { 0, 3000, 10000 };
	const bool want[] = { false, true, false };
	for (size_t i = 0; i < 3; i++) {
		lt_model_params p;
		model_params_default(&p);
		p.window = 5;
		p.time_lag_threshold_ms = thresholds[i];
		lt_history *h = history_new(&p);
		lt_snapshot *s = feed(h, 6, c, e, true);
		const lt_partition *pt = &s->groups[0].partitions[0];
		assert_true(pt->has_time_lag);
		assert_int_equal(pt->time_lag_ms, 5000);
		assert_int_equal(!!(pt->flags & LT_PF_TIME_LAG_HIGH), want[i]);
		assert_int_equal(s->groups[0].time_lag_high, want[i]);
		snapshot_unref(s);
		history_free(h);
	}
}

static void params_defaults(void **state)
{
	(void)state;
	lt_model_params p;
	model_params_default(&p);
	assert_int_equal(p.allowed_lag, 0);
	assert_int_equal(p.window, 10);
	assert_int_equal(p.ring_capacity, 16);
	assert_int_equal(p.forget_after, 30);
	/* out-of-range params are clamped, not trusted */
	p.window = 0;
	p.ring_capacity = 100000;
	p.forget_after = 0;
	lt_history *h = history_new(&p);
	assert_int_equal(history_params(h)->window, 2);
	assert_int_equal(history_params(h)->ring_capacity, LT_RING_MAX);
	assert_int_equal(history_params(h)->forget_after, 1);
	history_free(h);
	h = history_new(NULL);
	assert_int_equal(history_params(h)->ring_capacity, 16);
	model_enrich(h, NULL); /* a failed refresh may have no snapshot */
	model_enrich(NULL, NULL);
	lt_snapshot *s = snapshot_new();
	model_enrich(h, s); /* no groups */
	snapshot_unref(s);
	history_free(h);
	history_free(NULL);
}

/* Owners that cannot be read (a consumer-protocol group through the classic API) are not "unassigned";
 * in a known Empty group every committed partition is. */
static void unreadable_owners_not_unassigned(void **state)
{
	(void)state;
	pspec ps[] = { { "a", 0, 0, 40, 100, false, false } };
	for (int empty = 0; empty < 2; empty++) {
		lt_history *h = hist(5);
		lt_snapshot *s = snap(1000, "g", ps, 1);
		lt_group *g = &s->groups[0];
		g->members_unreadable = true;
		g->state = empty ? LT_GROUP_EMPTY : LT_GROUP_STABLE;
		model_enrich(h, s);
		assert_int_equal(!!(g->partitions[0].flags & LT_PF_UNASSIGNED), empty);
		assert_true(g->partitions[0].has_lag);
		snapshot_unref(s);
		history_free(h);
	}
}

static void first_refresh(void **state)
{
	(void)state;
	lt_history *h = hist(5);
	pspec ps[] = {
		{ "a", 0, 0, 40, 100, true, false },
		{ "a", 1, 50, 10, 100, true, false },            /* below log start */
		{ "b", 0, 0, 150, 100, false, false },           /* ahead of end */
		{ "b", 1, 0, LT_OFFSET_NONE, 100, true, false }, /* no commit */
	};
	lt_snapshot *s = snap(1000, "g", ps, 4);
	model_enrich(h, s);
	lt_group *g = &s->groups[0];
	lt_partition *p = g->partitions;
	assert_true(p[0].has_lag);
	assert_int_equal(p[0].lag, 60);
	assert_false(p[0].has_rates);
	assert_false(p[0].has_time_lag);                  /* one point, behind: unknown */
	assert_int_equal(p[0].status, LT_STATUS_PENDING); /* behind, window not full: not evaluated yet */
	assert_int_equal(p[1].lag, 90);
	assert_true(p[1].flags & LT_PF_OUT_OF_RANGE);
	assert_int_equal(p[1].status, LT_STATUS_STOP); /* below the log start: a fact, no window needed */
	assert_int_equal(p[2].lag, 0);
	assert_int_equal(p[2].status, LT_STATUS_OK); /* no lag: a fact too */
	assert_true(p[2].flags & LT_PF_AHEAD_OF_END);
	assert_true(p[2].flags & LT_PF_UNASSIGNED);
	assert_true(p[2].has_time_lag); /* caught up */
	assert_int_equal(p[2].time_lag_ms, 0);
	assert_false(p[3].has_lag);
	assert_int_equal(p[3].status, LT_STATUS_UNKNOWN);
	assert_false(p[3].flags & LT_PF_UNASSIGNED);

	assert_int_equal(g->total_lag, 150);
	assert_int_equal(g->max_lag, 90);
	assert_int_equal(g->n_topics, 2);
	assert_true(g->has_max_time_lag);
	assert_int_equal(g->max_time_lag_ms, 0);
	assert_true(g->consume_rate == 0);          /* no rates yet */
	assert_int_equal(g->status, LT_STATUS_ERR); /* the STOP partition, whatever the pending one becomes */
	assert_false(g->status_complete);
	assert_int_equal(s->status_window, 5);
	assert_int_equal(g->n_trend, 1);
	assert_int_equal(g->trend[0], 150);
	snapshot_unref(s);
	history_free(h);
}

static void observed_flags_kept_derived_recomputed(void **state)
{
	(void)state;
	lt_history *h = hist(5);
	pspec ps[] = { { "t", 0, 0, 10, 20, true, false } };
	lt_snapshot *s = snap(1000, "g", ps, 1);
	lt_partition *p = &s->groups[0].partitions[0];
	/* flags left by a previous enrich of the same snapshot, or set by the collector */
	p->flags = LT_PF_NO_LEADER | LT_PF_LOG_UNKNOWN | LT_PF_OUT_OF_RANGE | LT_PF_AHEAD_OF_END | LT_PF_IDLE |
		   LT_PF_UNASSIGNED;
	model_enrich(h, s);
	assert_int_equal(p->flags, LT_PF_NO_LEADER | LT_PF_LOG_UNKNOWN);
	snapshot_unref(s);
	history_free(h);
}

static void no_commit_anywhere(void **state)
{
	(void)state;
	lt_history *h = hist(5);
	int64_t c[] = { -1, -1, -1 };
	int64_t e[] = { 10, 20, 30 };
	lt_snapshot *s = feed(h, 3, c, e, true);
	lt_group *g = &s->groups[0];
	assert_false(g->partitions[0].has_lag);
	assert_false(g->partitions[0].has_time_lag);
	assert_false(g->partitions[0].has_eta);
	assert_int_equal(g->max_lag, 0);
	assert_int_equal(g->total_lag, 0);
	assert_int_equal(g->status, LT_STATUS_UNKNOWN);
	assert_int_equal(g->n_trend, 0);
	snapshot_unref(s);
	history_free(h);
}

static void rates_eta_and_time_lag(void **state)
{
	(void)state;
	lt_history *h = hist(5);
	/* produce 100/s, consume 200/s, 1 s apart */
	int64_t c[] = { 0, 200, 400, 600, 800, 1000 };
	int64_t e[] = { 1000, 1100, 1200, 1300, 1400, 1500 };
	lt_snapshot *s = feed(h, 6, c, e, true);
	lt_partition *p = &s->groups[0].partitions[0];
	assert_true(p->has_rates);
	assert_true(fabs(p->consume_rate - 200) < 1e-6);
	assert_true(fabs(p->produce_rate - 100) < 1e-6);
	assert_int_equal(p->lag, 500);
	assert_true(p->has_eta);
	assert_int_equal(p->eta_ms, 5000);
	/* committed 1000 was the log end at t = 1 s; now 6 s */
	assert_true(p->has_time_lag);
	assert_int_equal(p->time_lag_ms, 5000);
	assert_true(fabs(s->groups[0].consume_rate - 200) < 1e-6);
	assert_int_equal(s->groups[0].max_time_lag_ms, 5000);
	assert_int_equal(p->status, LT_STATUS_OK); /* lag decreasing */
	snapshot_unref(s);

	/* not catching up: ETA never */
	lt_history *h2 = hist(5);
	int64_t c2[] = { 0, 50, 100, 150 };
	int64_t e2[] = { 1000, 1100, 1200, 1300 };
	s = feed(h2, 4, c2, e2, true);
	p = &s->groups[0].partitions[0];
	assert_true(p->has_rates);
	assert_false(p->has_eta);
	snapshot_unref(s);
	history_free(h);
	history_free(h2);
}

static void status_sequences(void **state)
{
	(void)state;
	/* STOP: nobody owns it, log end moves, committed stuck for a full window */
	lt_history *h = hist(5);
	int64_t c[] = { 5, 5, 5, 5, 5, 5 };
	int64_t e[] = { 10, 20, 30, 40, 50, 60 };
	lt_snapshot *s = feed(h, 4, c, e, false);
	/* window not full yet: not evaluated (never "OK"), and so the group is not either */
	assert_int_equal(s->groups[0].partitions[0].status, LT_STATUS_PENDING);
	assert_int_equal(s->groups[0].status, LT_STATUS_PENDING);
	assert_false(s->groups[0].status_complete);
	snapshot_unref(s);
	history_free(h);
	h = hist(5);
	s = feed(h, 6, c, e, false);
	assert_int_equal(s->groups[0].partitions[0].status, LT_STATUS_STOP);
	assert_int_equal(s->groups[0].status, LT_STATUS_ERR); /* Burrow's group rule */
	assert_true(s->groups[0].status_complete);
	snapshot_unref(s);
	history_free(h);

	/* STALL: owned */
	h = hist(5);
	s = feed(h, 6, c, e, true);
	assert_int_equal(s->groups[0].partitions[0].status, LT_STATUS_STALL);
	snapshot_unref(s);
	history_free(h);

	/* idle: the log end does not move — not STOP, flagged idle */
	h = hist(5);
	int64_t ei[] = { 60, 60, 60, 60, 60, 60 };
	s = feed(h, 6, c, ei, false);
	assert_int_equal(s->groups[0].partitions[0].status, LT_STATUS_OK);
	assert_true(s->groups[0].partitions[0].flags & LT_PF_IDLE);
	assert_true(s->groups[0].partitions[0].has_time_lag); /* lower bound, not NaN */
	snapshot_unref(s);
	history_free(h);

	/* REWIND: committed went down */
	h = hist(5);
	int64_t cr[] = { 10, 20, 30, 40, 15, 25 };
	s = feed(h, 6, cr, e, true);
	assert_int_equal(s->groups[0].partitions[0].status, LT_STATUS_REWIND);
	assert_int_equal(s->groups[0].status, LT_STATUS_ERR);
	assert_true(s->groups[0].partitions[0].consume_rate >= 0);
	snapshot_unref(s);
	history_free(h);

	/* WARN: consuming slower than produced */
	h = hist(5);
	int64_t cw[] = { 1, 2, 3, 4, 5, 6 };
	s = feed(h, 6, cw, e, true);
	assert_int_equal(s->groups[0].partitions[0].status, LT_STATUS_WARN);
	snapshot_unref(s);
	history_free(h);
}

static void idle_behind_time_lag_keeps_growing(void **state)
{
	(void)state;
	/* produced until t = 3 s, then idle for much longer than the ring; the consumer sits 100
	 * messages behind: its time lag grows with the idle time instead of stopping at the ring's span,
	 * from the write time found while the points were in the ring (1 s: the log end passed 900 then),
	 * not from the later lower bound (3 s, when the log end last moved) */
	lt_history *h = hist(5);
	int64_t c[40], e[40];
	for (int i = 0; i < 40; i++) {
		c[i] = 900;
		e[i] = i < 3 ? 900 + 50 * i : 1000;
	}
	lt_snapshot *s = feed(h, 40, c, e, false);
	lt_partition *p = &s->groups[0].partitions[0];
	assert_true(p->has_time_lag);
	assert_int_equal(p->time_lag_ms, 40000 - 1000); /* now (40 s) - when the log end passed 900 */
	assert_true(p->flags & LT_PF_IDLE);
	assert_int_equal(p->status, LT_STATUS_OK); /* idle, nobody owns it: not STOP */
	snapshot_unref(s);
	history_free(h);
}

/* A stopped group (committed offset standing still) behind a log end that grows at a jittery rate,
 * sampled at jittery intervals: its time lag grows with the clock at every refresh, never backwards —
 * neither when the interpolation points slide out of the ring nor when the committed offset is older
 * than every point (extrapolated). Every value but a caught-up 0 is marked estimated. */
static void stopped_time_lag_never_decreases(void **state)
{
	(void)state;
	static const int64_t behind[] = { 0, 40, 5000 }; /* offsets behind the log end before the first refresh */
	for (size_t k = 0; k < sizeof behind / sizeof behind[0]; k++) {
		lt_history *h = hist(10);
		uint64_t seed = 0x2545f4914f6cdd1dULL + k;
		int64_t t = 1000, e = 100000, committed = e - behind[k], prev = -1, prev_t = 0;
		for (int i = 0; i < 60; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			t += 1500 + (int64_t)(seed >> 33) % 1000; /* 1.5 to 2.5 s between refreshes */
			e += 5 + (int64_t)(seed >> 20) % 400;     /* 2 to 270 messages a second */
			pspec p = { "t", 0, 0, committed, e, false, false };
			lt_snapshot *s = snap(t, "g", &p, 1);
			model_enrich(h, s);
			const lt_partition *lp = &s->groups[0].partitions[0];
			if (i > 0) {
				assert_true(lp->has_time_lag);
				if (prev >= 0 && lp->time_lag_ms < prev + (t - prev_t)) {
					print_message("behind %lld, refresh %d: time lag %lld ms after %lld ms %lld ms "
						      "earlier\n",
						      (long long)behind[k], i, (long long)lp->time_lag_ms,
						      (long long)prev, (long long)(t - prev_t));
					fail();
				}
				assert_true(lp->flags & LT_PF_TIME_LAG_ESTIMATED);
				prev = lp->time_lag_ms;
				prev_t = t;
			}
			snapshot_unref(s);
		}
		history_free(h);
	}
}

/* A committed series keeps window + 2 samples: two failed (stale) refreshes inside the window
 * still leave it full; three do not (not enough data: PENDING, not OK). */
static void status_window_with_gaps(void **state)
{
	(void)state;
	for (int n_stale = 2; n_stale <= 3; n_stale++) {
		lt_history *h = hist(5);
		lt_snapshot *s = NULL;
		for (int i = 0; i < 7; i++) {
			bool stale = i >= 1 && i <= n_stale; /* refreshes 1..n_stale failed */
			pspec p = { "t", 0, 0, 5, 10 + 10 * i, false, stale };
			if (s)
				snapshot_unref(s);
			s = snap(1000 * (i + 1), "g", &p, 1);
			model_enrich(h, s);
		}
		assert_int_equal(s->groups[0].partitions[0].status, n_stale == 2 ? LT_STATUS_STOP : LT_STATUS_PENDING);
		snapshot_unref(s);
		history_free(h);
	}
}

static void group_is_worst_partition(void **state)
{
	(void)state;
	lt_history *h = hist(3);
	lt_snapshot *s = NULL;
	for (int i = 0; i < 4; i++) {
		pspec ps[] = {
			{ "t", 0, 0, 100 + 10 * i, 100 + 10 * i, true, false }, /* caught up: OK */
			{ "t", 1, 0, 5, 100 + 10 * i, true, false },            /* STALL */
			{ "u", 0, 0, LT_OFFSET_NONE, 50, true, false },         /* UNKNOWN */
		};
		if (s)
			snapshot_unref(s);
		s = snap(1000 * (i + 1), "g", ps, 3);
		model_enrich(h, s);
	}
	assert_int_equal(s->groups[0].partitions[0].status, LT_STATUS_OK);
	assert_int_equal(s->groups[0].partitions[1].status, LT_STATUS_STALL);
	assert_int_equal(s->groups[0].partitions[2].status, LT_STATUS_UNKNOWN);
	assert_int_equal(s->groups[0].status, LT_STATUS_ERR);
	snapshot_unref(s);
	history_free(h);
}

static void log_end_backwards(void **state)
{
	(void)state;
	/* topic deleted and recreated: the log end drops; rates and time lag use the new life only */
	lt_history *h = hist(5);
	int64_t c[] = { 900, 950, 0, 10, 20 };
	int64_t e[] = { 1000, 1100, 5, 25, 45 };
	lt_snapshot *s = feed(h, 5, c, e, true);
	lt_partition *p = &s->groups[0].partitions[0];
	assert_true(p->has_rates);
	assert_true(fabs(p->produce_rate - 20) < 1e-6);
	assert_true(fabs(p->consume_rate - 10) < 1e-6);
	assert_true(p->has_time_lag);
	assert_true(p->time_lag_ms >= 0);
	assert_int_equal(p->lag, 25);
	snapshot_unref(s);
	history_free(h);
}

static void equal_timestamps(void **state)
{
	(void)state;
	lt_history *h = hist(5);
	lt_snapshot *s = NULL;
	for (int i = 0; i < 3; i++) {
		pspec p = { "t", 0, 0, 10 * i, 100 + 20 * i, true, false };
		if (s)
			snapshot_unref(s);
		s = snap(5000, "g", &p, 1); /* same time every refresh */
		model_enrich(h, s);
	}
	lt_partition *p = &s->groups[0].partitions[0];
	assert_false(p->has_rates);
	assert_false(p->has_eta);
	assert_true(!p->has_time_lag || p->time_lag_ms >= 0);
	assert_int_equal(p->lag, 120);
	snapshot_unref(s);
	history_free(h);
}

static void lags_readback(lt_history *h, const char *group, const char *topic, int32_t part, const int64_t *want,
			  size_t n)
{
	int64_t out[LT_RING_MAX];
	size_t got = history_partition_lags(h, group, topic, part, out, LT_RING_MAX);
	assert_int_equal(got, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(out[i], want[i]);
}

static void huge_offsets_and_wide_rings(void **state)
{
	(void)state;
	/* Offsets near INT64_MAX; jumps larger than 2^32 (forcing the int64 fallback); steps of 1e8
	 * (forcing rebases). Lags read back from the history must be exact. */
	const int64_t starts[] = { INT64_MAX - 100000, 0, 0, 1000 };
	const int64_t steps[] = { 1000, INT64_C(1000000000000), INT64_C(100000000), 6000 };
	for (size_t k = 0; k < 4; k++) {
		lt_history *h = hist(5);
		int64_t want[LT_RING_MAX];
		lt_snapshot *s = NULL;
		size_t n = 40;
		for (size_t i = 0; i < n; i++) {
			int64_t c = starts[k] + (int64_t)i * (steps[k] / 2);
			int64_t e = c + (int64_t)i * 7;
			if (k == 0)
				e = c + (int64_t)(i % 3); /* stays below INT64_MAX */
			pspec p = { "t", 0, 0, c, e, true, false };
			if (s)
				snapshot_unref(s);
			s = snap((int64_t)(i + 1) * 1000, "g", &p, 1);
			model_enrich(h, s);
			want[i] = e - c;
			assert_int_equal(s->groups[0].partitions[0].lag, want[i]);
		}
		size_t cap = history_committed_capacity(h);
		assert_int_equal(cap, 7); /* window 5 + 2 */
		lags_readback(h, "g", "t", 0, want + n - cap, cap);
		/* int16 deltas hold steps of 500 and 3000 (rebasing as they drift); 5e7 and 5e11 go wide */
		assert_int_equal(history_wide_count(h), k == 1 || k == 2 ? 2 : 0);
		lt_partition *p = &s->groups[0].partitions[0];
		assert_true(p->has_rates);
		assert_true(isfinite(p->consume_rate) && p->consume_rate >= 0);
		assert_true(!p->has_time_lag || p->time_lag_ms >= 0);
		snapshot_unref(s);
		history_free(h);
	}
}

static void counters_from_zero_to_max(void **state)
{
	(void)state;
	/* One partition jumps between 0 and INT64_MAX: every value must survive storage. */
	lt_history *h = hist(5);
	int64_t vals[] = { 0, INT64_MAX, 5, INT64_MAX - 1, 1 };
	lt_snapshot *s = NULL;
	int64_t want[5];
	for (size_t i = 0; i < 5; i++) {
		pspec p = { "t", 0, 0, vals[i], vals[i], true, false };
		if (s)
			snapshot_unref(s);
		s = snap((int64_t)(i + 1) * 1000, "g", &p, 1);
		model_enrich(h, s);
		want[i] = 0;
		assert_int_equal(s->groups[0].partitions[0].status, LT_STATUS_OK);
	}
	lags_readback(h, "g", "t", 0, want, 5);
	snapshot_unref(s);
	history_free(h);
}

static void wide_blocks_recycled(void **state)
{
	(void)state;
	/* series that went wide are forgotten and their blocks reused by new ones */
	lt_model_params mp;
	model_params_default(&mp);
	mp.forget_after = 2;
	lt_history *h = history_new(&mp);
	int64_t t = 0;
	for (int cycle = 0; cycle < 4; cycle++) {
		char group[16];
		snprintf(group, sizeof group, "g%d", cycle);
		int64_t want[3];
		for (int i = 0; i < 3; i++) {
			int64_t c = i % 2 ? INT64_C(1000000000000) * (cycle + 1) : i;
			pspec p = { "t", cycle, 0, c, c + 10 * i + cycle, true, false };
			lt_snapshot *s = snap(t += 1000, group, &p, 1);
			model_enrich(h, s);
			want[i] = 10 * i + cycle;
			snapshot_unref(s);
		}
		lags_readback(h, group, "t", cycle, want, 3);
		assert_int_equal(history_wide_count(h), 2); /* committed and log end */
		for (int i = 0; i < 4; i++) {               /* another group only: group's series are forgotten */
			pspec p = { "other", 0, 0, 1, 2, true, false };
			lt_snapshot *s = snap(t += 1000, "other", &p, 1);
			model_enrich(h, s);
			snapshot_unref(s);
		}
		assert_int_equal(history_partition_lags(h, group, "t", cycle, want, 3), 0);
		assert_int_equal(history_series_count(h, NULL), 1);
		assert_int_equal(history_wide_count(h), 0);
	}
	history_free(h);
}

static void stale_not_recorded(void **state)
{
	(void)state;
	lt_history *h = hist(5);
	lt_snapshot *s = NULL;
	for (int i = 0; i < 4; i++) {
		pspec p = { "t", 0, 0, 10 * i, 100, true, i == 2 };
		if (s)
			snapshot_unref(s);
		s = snap(1000 * (i + 1), "g", &p, 1);
		model_enrich(h, s);
		assert_true(s->groups[0].partitions[0].has_lag); /* still derived */
		if (i == 2)
			assert_true(s->groups[0].partitions[0].flags & LT_PF_STALE);
	}
	int64_t want[] = { 100, 90, 70 }; /* the stale round (lag 80) is a gap */
	lags_readback(h, "g", "t", 0, want, 3);
	snapshot_unref(s);

	/* a partition stale from the start has no series, but is derived */
	pspec p = { "new", 0, 0, 1, 5, true, true };
	s = snap(9000, "g", &p, 1);
	model_enrich(h, s);
	assert_int_equal(s->groups[0].partitions[0].lag, 4);
	assert_int_equal(history_partition_lags(h, "g", "new", 0, want, 3), 0);
	snapshot_unref(s);
	history_free(h);
}

static void partition_lags_query(void **state)
{
	(void)state;
	lt_history *h = hist(5);
	int64_t c[20], e[20];
	for (int i = 0; i < 20; i++) {
		c[i] = i;
		e[i] = 3 * i;
	}
	lt_snapshot *s = feed(h, 20, c, e, true);
	int64_t out[4];
	/* the newest 4 of the 7 kept (window 5 + 2), oldest first */
	assert_int_equal(history_partition_lags(h, "g", "t", 0, out, 4), 4);
	assert_int_equal(out[0], 2 * 16);
	assert_int_equal(out[3], 2 * 19);
	assert_int_equal(history_partition_lags(h, "nope", "t", 0, out, 4), 0);
	assert_int_equal(history_partition_lags(h, "g", "nope", 0, out, 4), 0);
	assert_int_equal(history_partition_lags(h, "g", "t", 7, out, 4), 0);
	assert_int_equal(history_partition_lags(h, "g", "t", 0, out, 0), 0);
	assert_int_equal(history_partition_lags(NULL, "g", "t", 0, out, 4), 0);
	snapshot_unref(s);
	history_free(h);
}

static void trend_keeps_last_32(void **state)
{
	(void)state;
	lt_history *h = hist(5);
	int64_t c[40], e[40];
	for (int i = 0; i < 40; i++) {
		c[i] = 0;
		e[i] = i;
	}
	lt_snapshot *s = feed(h, 40, c, e, true);
	lt_group *g = &s->groups[0];
	assert_int_equal(g->n_trend, 32);
	assert_int_equal(g->trend[0], 8);
	assert_int_equal(g->trend[31], 39);
	snapshot_unref(s);
	history_free(h);
}

static void series_forgotten(void **state)
{
	(void)state;
	lt_model_params mp;
	model_params_default(&mp);
	mp.window = 3;
	mp.forget_after = 5;
	lt_history *h = history_new(&mp);
	/* two groups on shared and own topics */
	lt_snapshot *s = snapshot_new();
	s->taken_at_ms = 1000;
	lt_group *a = snapshot_add_group(s, "a");
	group_add_partition(a, "shared", 0)->committed = 1;
	group_add_partition(a, "only-a", 0)->committed = 1;
	lt_group *b = snapshot_add_group(s, "b");
	group_add_partition(b, "shared", 0)->committed = 1;
	for (size_t i = 0; i < s->n_groups; i++)
		for (size_t j = 0; j < s->groups[i].n_partitions; j++)
			s->groups[i].partitions[j].log_end = 10;
	snapshot_finish(s);
	model_enrich(h, s);
	size_t n_le;
	assert_int_equal(history_series_count(h, &n_le), 3);
	assert_int_equal(n_le, 2);
	snapshot_unref(s);

	/* then only b, for a long time: a's series and the only-a topic go */
	for (int i = 0; i < 8; i++) {
		pspec p = { "shared", 0, 0, 2 + i, 10 + i, true, false };
		s = snap(2000 + 1000 * i, "b", &p, 1);
		model_enrich(h, s);
		snapshot_unref(s);
	}
	assert_int_equal(history_series_count(h, &n_le), 1);
	assert_int_equal(n_le, 1);
	int64_t out[16];
	assert_int_equal(history_partition_lags(h, "a", "shared", 0, out, 16), 0);
	assert_int_equal(history_partition_lags(h, "b", "shared", 0, out, 16), 5); /* window 3 + 2 */

	/* a comes back: a fresh series */
	pspec p = { "only-a", 0, 0, 3, 9, true, false };
	s = snap(20000, "a", &p, 1);
	model_enrich(h, s);
	assert_int_equal(history_partition_lags(h, "a", "only-a", 0, out, 16), 1);
	assert_int_equal(out[0], 6);
	assert_int_equal(s->groups[0].n_trend, 1);
	snapshot_unref(s);
	history_free(h);
}

/* Partitions appear, disappear and reorder between refreshes, and groups share topics: every
 * partition must still find its own series (the lookup guesses "next series" first). */
static void series_identity_when_partitions_change(void **state)
{
	(void)state;
	lt_history *h = hist(3);
	const int32_t layouts[3][4] = { { 0, 1, 2, -1 }, { 0, 2, -1, -1 }, { 2, 1, 0, 3 } };
	for (int round = 0; round < 3; round++) {
		lt_snapshot *s = snapshot_new();
		s->taken_at_ms = 1000 * (round + 1);
		const char *groups[] = { "g1", "g2" };
		for (int gi = 0; gi < 2; gi++) {
			lt_group *g = snapshot_add_group(s, groups[gi]);
			for (int k = 0; k < 4 && layouts[round][k] >= 0; k++) {
				int32_t part = layouts[round][k];
				lt_partition *p = group_add_partition(g, gi && part == 3 ? "u" : "t", part);
				/* lag encodes (group, partition, round); the log end is the topic's, shared */
				p->committed = 1000 * gi;
				p->log_end = 10000 + 100 * part + round;
			}
		}
		/* no snapshot_finish for round 3: partitions in reverse order must work too */
		if (round < 2)
			snapshot_finish(s);
		model_enrich(h, s);
		snapshot_unref(s);
	}
	int64_t want_g1_t1[] = { 10100, 10102 };
	lags_readback(h, "g1", "t", 1, want_g1_t1, 2);
	int64_t want_g2_t1[] = { 9100, 9102 };
	lags_readback(h, "g2", "t", 1, want_g2_t1, 2);
	int64_t want_g1_t2[] = { 10200, 10201, 10202 };
	lags_readback(h, "g1", "t", 2, want_g1_t2, 3);
	int64_t want_g2_t0[] = { 9000, 9001, 9002 };
	lags_readback(h, "g2", "t", 0, want_g2_t0, 3);
	int64_t want_g1_t3[] = { 10302 };
	lags_readback(h, "g1", "t", 3, want_g1_t3, 1);
	int64_t want_g2_u3[] = { 9302 };
	lags_readback(h, "g2", "u", 3, want_g2_u3, 1);
	assert_int_equal(history_series_count(h, NULL), 2 * 3 + 2);
	history_free(h);
}

/* snapshot_finish (fixed to O(P log P)): assigned partitions without a commit are added once,
 * even when assigned twice; committed ones are not duplicated; members are linked. */
static void snapshot_finish_assignments(void **state)
{
	(void)state;
	lt_snapshot *s = snapshot_new();
	lt_group *g = snapshot_add_group(s, "g");
	for (int i = 99; i >= 0; i -= 2) /* committed: odd partitions, added in reverse */
		group_add_partition(g, "t", i)->committed = i;
	lt_member *m1 = group_add_member(g, "m1", "c1", "h1");
	lt_member *m2 = group_add_member(g, "m2", "c2", "h2");
	for (int i = 0; i < 100; i++)
		member_add_assignment(i < 50 ? m1 : m2, "t", i);
	member_add_assignment(m2, "t", 10); /* also assigned to m1 */
	member_add_assignment(m2, "t", 12);
	member_add_assignment(m1, "u", 0); /* uncommitted, twice */
	member_add_assignment(m1, "u", 0);
	snapshot_finish(s);
	g = &s->groups[0];
	assert_int_equal(g->n_partitions, 101);
	for (int i = 0; i < 100; i++) {
		assert_string_equal(g->partitions[i].topic, "t");
		assert_int_equal(g->partitions[i].partition, i);
		assert_int_equal(g->partitions[i].committed, i % 2 ? i : LT_OFFSET_NONE);
		assert_true(g->partitions[i].member >= 0);
	}
	assert_int_equal(g->partitions[99].member, 1);
	assert_int_equal(g->partitions[1].member, 0);
	assert_string_equal(g->partitions[100].topic, "u");
	assert_int_equal(g->partitions[100].member, 0);
	/* the array still grows correctly after dropping repeats */
	group_add_partition(g, "v", 0);
	assert_int_equal(g->n_partitions, 102);
	snapshot_unref(s);
}

/* Random walk against a plain reference: the compact rings (int16 deltas, rebases, wide
 * fallback, gaps) must give back exactly the lags a full int64 history would. Offsets move by
 * small steps, big jumps (2^40), drops (recreation), unknown values; partitions go stale or
 * disappear for a while. Deterministic (fixed seed). */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

enum { RG = 3, RP = 4, ROUNDS = 300 };

static int64_t walk(int64_t v)
{
	uint64_t r = rng() % 100;
	if (r < 70 && v > INT64_MAX - 100000)
		return INT64_MAX - (int64_t)(rng() % 1000); /* stays near the top */
	if (r < 60)
		return v + (int64_t)(rng() % 3000);
	if (r < 70)
		return v + (int64_t)(rng() % 100000);
	if (r < 75)
		return v < INT64_C(1) << 50 ? v + (INT64_C(1) << 40) : 3; /* a jump, or back to small */
	if (r < 80)
		return v / 2; /* backwards */
	if (r < 83)
		return INT64_MAX - (int64_t)(rng() % 1000);
	return v;
}

/* The tick counter wraps from 0x7fffffff to 0: a history started just before the wrap derives exactly
 * what one started at 0 does, round after round across it (ring_collect follows its slots tick by tick
 * instead of dividing). Ring sizes that divide 2^31 (16 and 16): with others two ticks of one window
 * can share a slot at the wrap (after 2^31 refreshes, 136 years at 2 s), before and after that change. */
static void tick_wrap_same_as_from_zero(void **state)
{
	(void)state;
	lt_model_params mp;
	model_params_default(&mp);
	mp.window = 14;
	mp.ring_capacity = 16;
	lt_history *h0 = history_new(&mp), *hw = history_new(&mp);
	history_set_tick(hw, 0x7fffffffu - 6);
	int64_t c[3] = { 0, 100, 5000 }, e[3] = { 50, 400, 5000 };
	for (int round = 0; round < 40; round++) {
		lt_snapshot *s[2];
		for (int k = 0; k < 2; k++) {
			pspec ps[3];
			for (int p = 0; p < 3; p++)
				ps[p] = (pspec){ "t", p, 0, c[p], e[p], p != 2, p == 1 && round % 7 == 3 };
			s[k] = snap(1000 * (int64_t)(round + 1), "g", ps, 3);
		}
		model_enrich(h0, s[0]);
		model_enrich(hw, s[1]);
		for (size_t p = 0; p < 3; p++) {
			const lt_partition *a = &s[0]->groups[0].partitions[p], *b = &s[1]->groups[0].partitions[p];
			assert_int_equal(a->has_rates, b->has_rates);
			assert_true(a->consume_rate == b->consume_rate);
			assert_true(a->produce_rate == b->produce_rate);
			assert_int_equal(a->has_eta, b->has_eta);
			assert_int_equal(a->eta_ms, b->eta_ms);
			assert_int_equal(a->has_time_lag, b->has_time_lag);
			assert_int_equal(a->time_lag_ms, b->time_lag_ms);
			assert_int_equal(a->status, b->status);
			assert_int_equal(a->flags, b->flags);
		}
		assert_int_equal(s[0]->groups[0].status, s[1]->groups[0].status);
		assert_int_equal(s[0]->groups[0].n_trend, s[1]->groups[0].n_trend);
		/* moving at different speeds, one stalling for a while: rates, time lag and status all vary */
		c[0] += 10 + round % 3;
		e[0] += 12;
		c[1] += round < 15 || round > 25 ? 20 : 0;
		e[1] += 25;
		e[2] += round % 5 == 0 ? 7 : 0;
		snapshot_unref(s[0]);
		snapshot_unref(s[1]);
	}
	size_t n0 = 0, nw = 0;
	int64_t l0[64], lw[64];
	n0 = history_partition_lags(h0, "g", "t", 0, l0, 64);
	nw = history_partition_lags(hw, "g", "t", 0, lw, 64);
	assert_true(n0 > 0);
	assert_int_equal(n0, nw);
	for (size_t i = 0; i < n0; i++)
		assert_int_equal(l0[i], lw[i]);
	history_free(h0);
	history_free(hw);
}

static void random_walk_matches_reference(void **state)
{
	(void)state;
	lt_model_params mp;
	model_params_default(&mp);
	mp.forget_after = 1000;
	lt_history *h = history_new(&mp);
	const size_t cap = history_committed_capacity(h);
	int64_t committed[RG][RP], log_end[RP];
	/* reference: per refresh, the lag each (group, partition) recorded, or none */
	static int64_t ref[ROUNDS][RG][RP];
	static bool has[ROUNDS][RG][RP];
	for (int p = 0; p < RP; p++)
		log_end[p] = (int64_t)(rng() % 1000);
	for (int g = 0; g < RG; g++)
		for (int p = 0; p < RP; p++)
			committed[g][p] = 0;
	for (int round = 0; round < ROUNDS; round++) {
		lt_snapshot *s = snapshot_new();
		s->taken_at_ms = 1000 * (round + 1);
		int64_t tp_log_end[RP]; /* what the history keeps for the shared topic-partition */
		bool tp_set[RP] = { false };
		for (int p = 0; p < RP; p++)
			log_end[p] = walk(log_end[p]);
		for (int g = 0; g < RG; g++) {
			char name[8];
			snprintf(name, sizeof name, "g%d", g);
			lt_group *grp = snapshot_add_group(s, name);
			for (int p = 0; p < RP; p++) {
				has[round][g][p] = false;
				if (rng() % 10 == 0)
					continue; /* absent this round */
				committed[g][p] = walk(committed[g][p]);
				lt_partition *lp = group_add_partition(grp, "t", p);
				lp->committed = rng() % 8 == 0 ? LT_OFFSET_NONE : committed[g][p];
				lp->log_end = rng() % 12 == 0 ? LT_OFFSET_NONE : log_end[p];
				if (rng() % 15 == 0) {
					lp->flags |= LT_PF_STALE;
					continue;
				}
				/* first known log end of the refresh wins for the shared series */
				if (!tp_set[p] || (tp_log_end[p] < 0 && lp->log_end >= 0)) {
					tp_log_end[p] = lp->log_end;
					tp_set[p] = true;
				}
				ref[round][g][p] = lp->committed; /* lag computed below, once the log end is known */
				has[round][g][p] = true;
			}
		}
		for (int g = 0; g < RG; g++)
			for (int p = 0; p < RP; p++)
				if (has[round][g][p]) {
					bool known;
					int64_t lag;
					lag_compute(LT_OFFSET_NONE, ref[round][g][p], tp_log_end[p], &known, &lag);
					has[round][g][p] = known;
					ref[round][g][p] = lag;
				}
		snapshot_finish(s);
		model_enrich(h, s);
		snapshot_unref(s);

		for (int g = 0; g < RG; g++)
			for (int p = 0; p < RP; p++) {
				int64_t want[LT_RING_MAX];
				size_t n = 0;
				for (int r = round - (int)cap + 1; r <= round; r++)
					if (r >= 0 && has[r][g][p])
						want[n++] = ref[r][g][p];
				char name[8];
				snprintf(name, sizeof name, "g%d", g);
				int64_t out[LT_RING_MAX];
				size_t got = history_partition_lags(h, name, "t", p, out, LT_RING_MAX);
				assert_int_equal(got, n);
				for (size_t i = 0; i < n; i++)
					assert_int_equal(out[i], want[i]);
			}
	}
	assert_true(history_wide_count(h) > 0); /* the walk did reach the int64 fallback */
	history_free(h);
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The L benchmark: 5,000 groups x 64 partitions, fed three refreshes. Reports bytes per partition
 * (TAP comment) and asserts the budget. `ntopics` 0: every group reads its own topic, the worst
 * case for the history (no log-end series shared); else groups share ntopics topics like the
 * simulator's scale scenario. */
static void l_scale(int ntopics, size_t budget)
{
	enum { GROUPS = 5000, PARTS = 64 };
	lt_history *h = history_new(NULL);
	double enrich_ms = 0;
	for (int round = 0; round < 3; round++) {
		lt_snapshot *s = snapshot_new();
		s->taken_at_ms = 1000 * (round + 1);
		char name[32];
		for (int gi = 0; gi < GROUPS; gi++) {
			snprintf(name, sizeof name, "group-%05d", gi);
			lt_group *g = snapshot_add_group(s, name);
			snprintf(name, sizeof name, "topic-%05d", ntopics ? gi % ntopics : gi);
			for (int pi = 0; pi < PARTS; pi++) {
				lt_partition *p = group_add_partition(g, name, pi);
				p->log_start = 0;
				p->committed = 1000000 + round * 100 + pi;
				p->log_end = p->committed + gi;
			}
		}
		snapshot_finish(s);
		double t0 = now_ms();
		model_enrich(h, s);
		enrich_ms = now_ms() - t0;
		snapshot_unref(s);
	}
	size_t n_le, n = history_series_count(h, &n_le);
	assert_int_equal(n, GROUPS * PARTS);
	assert_int_equal(n_le, ntopics ? ntopics * PARTS : GROUPS * PARTS);
	size_t bytes = history_bytes(h), used = history_bytes_used(h);
	printf("# history, %d groups x %d partitions, %s: %.1f MB allocated (%.1f bytes/partition), "
	       "%.1f MB used (%.1f bytes/partition); model_enrich %.0f ms (this build)\n",
	       GROUPS, PARTS, ntopics ? "shared topics" : "a topic per group", bytes / 1048576.0,
	       (double)bytes / (GROUPS * PARTS), used / 1048576.0, (double)used / (GROUPS * PARTS), enrich_ms);
	assert_true(used <= bytes);
	assert_true(bytes < budget);
	history_free(h);
}

static void memory_budget_l_scale_own_topics(void **state)
{
	(void)state;
	l_scale(0, 48u * 1024 * 1024);
}

static void memory_budget_l_scale_shared_topics(void **state)
{
	(void)state;
	l_scale(100, 24u * 1024 * 1024);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(params_defaults),
	cmocka_unit_test(time_lag_threshold_flags),
	cmocka_unit_test(first_refresh),
	cmocka_unit_test(unreadable_owners_not_unassigned),
	cmocka_unit_test(observed_flags_kept_derived_recomputed),
	cmocka_unit_test(no_commit_anywhere),
	cmocka_unit_test(rates_eta_and_time_lag),
	cmocka_unit_test(status_sequences),
	cmocka_unit_test(idle_behind_time_lag_keeps_growing),
	cmocka_unit_test(stopped_time_lag_never_decreases),
	cmocka_unit_test(status_window_with_gaps),
	cmocka_unit_test(group_is_worst_partition),
	cmocka_unit_test(log_end_backwards),
	cmocka_unit_test(equal_timestamps),
	cmocka_unit_test(huge_offsets_and_wide_rings),
	cmocka_unit_test(counters_from_zero_to_max),
	cmocka_unit_test(wide_blocks_recycled),
	cmocka_unit_test(snapshot_finish_assignments),
	cmocka_unit_test(stale_not_recorded),
	cmocka_unit_test(partition_lags_query),
	cmocka_unit_test(trend_keeps_last_32),
	cmocka_unit_test(series_forgotten),
	cmocka_unit_test(series_identity_when_partitions_change),
	cmocka_unit_test(random_walk_matches_reference),
	cmocka_unit_test(tick_wrap_same_as_from_zero),
	cmocka_unit_test(memory_budget_l_scale_own_topics),
	cmocka_unit_test(memory_budget_l_scale_shared_topics),
};

LT_TEST_MAIN(NULL, NULL)
