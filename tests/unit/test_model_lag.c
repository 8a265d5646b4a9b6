/* test_model_lag.c — the pure rules of the model: lag, rates, ETA, time lag, status. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_int.h"
#include "../lib/cmocka_main.h"

/* ---- lag ---- */

static void lag_rules(void **state)
{
	(void)state;
	bool has;
	int64_t lag;
	unsigned f;

	f = lag_compute(0, 40, 100, &has, &lag);
	assert_true(has);
	assert_int_equal(lag, 60);
	assert_int_equal(f, 0);

	/* no committed offset: unknown, never 0 */
	f = lag_compute(0, LT_OFFSET_NONE, 100, &has, &lag);
	assert_false(has);
	assert_int_equal(f, 0);

	/* committed ahead of the log end: 0 and flagged */
	f = lag_compute(0, 150, 100, &has, &lag);
	assert_true(has);
	assert_int_equal(lag, 0);
	assert_int_equal(f, LT_PF_AHEAD_OF_END);

	/* below log start: flagged, counted to the log end */
	f = lag_compute(50, 10, 100, &has, &lag);
	assert_true(has);
	assert_int_equal(lag, 90);
	assert_int_equal(f, LT_PF_OUT_OF_RANGE);

	/* log end unknown: lag unknown (range still judged) */
	f = lag_compute(50, 10, LT_OFFSET_NONE, &has, &lag);
	assert_false(has);
	assert_int_equal(f, LT_PF_OUT_OF_RANGE);
	f = lag_compute(LT_OFFSET_NONE, 10, LT_OFFSET_NONE, &has, &lag);
	assert_false(has);
	assert_int_equal(f, 0);

	/* log start unknown: no range flag */
	f = lag_compute(LT_OFFSET_NONE, 10, 20, &has, &lag);
	assert_int_equal(f, 0);
	assert_int_equal(lag, 10);

	/* equal: caught up */
	lag_compute(0, 100, 100, &has, &lag);
	assert_true(has);
	assert_int_equal(lag, 0);
}

static void lag_huge_offsets(void **state)
{
	(void)state;
	bool has;
	int64_t lag;
	lag_compute(0, 0, INT64_MAX, &has, &lag);
	assert_true(has);
	assert_int_equal(lag, INT64_MAX);
	lag_compute(0, INT64_MAX - 5, INT64_MAX, &has, &lag);
	assert_int_equal(lag, 5);
	assert_int_equal(lag_compute(0, INT64_MAX, 3, &has, &lag), LT_PF_AHEAD_OF_END);
	assert_int_equal(lag, 0);
	assert_int_equal(sat_add(INT64_MAX - 1, 10), INT64_MAX);
	assert_int_equal(sat_add(INT64_MIN + 1, -10), INT64_MIN);
	assert_int_equal(sat_add(40, 2), 42);
}

/* A group's totals: over the partitions that have each value; the total saturates; none is zero. */
static void group_totals_rules(void **state)
{
	(void)state;
	lt_partition p[4] = { 0 };
	p[0] = (lt_partition){ .has_lag = true, .lag = 5, .has_time_lag = true, .time_lag_ms = 9000 };
	p[1] = (lt_partition){ .has_lag = true, .lag = INT64_MAX - 1, .has_rates = true, .consume_rate = 1.5 };
	p[2] = (lt_partition){ .lag = 1000, .time_lag_ms = 99000, .consume_rate = 7 }; /* unknown: not counted */
	p[3] = (lt_partition){ .has_time_lag = true, .time_lag_ms = 2000, .has_rates = true, .consume_rate = 2 };
	lt_group_totals t = group_totals(p, 4);
	assert_true(t.any_lag);
	assert_true(t.any_time_lag);
	assert_int_equal(t.total_lag, INT64_MAX);
	assert_int_equal(t.max_lag, INT64_MAX - 1);
	assert_int_equal(t.max_time_lag_ms, 9000);
	assert_true(t.consume_rate == 3.5);
	t = group_totals(&p[2], 1);
	assert_false(t.any_lag || t.any_time_lag);
	assert_true(t.total_lag == 0 && t.max_lag == 0 && t.max_time_lag_ms == 0 && t.consume_rate == 0);
}

/* ---- rates ---- */

static void rate_basic(void **state)
{
	(void)state;
	int64_t t[] = { 0, 1000, 2000, 3000 };
	int64_t v[] = { 100, 200, 300, 400 };
	double r;
	assert_true(rate_compute(t, v, 4, 10, &r));
	assert_true(fabs(r - 100.0) < 1e-9);
	/* window limits the samples used: last 2 */
	int64_t v2[] = { 0, 1000, 1100, 1200 };
	assert_true(rate_compute(t, v2, 4, 2, &r));
	assert_true(fabs(r - 100.0) < 1e-9);
	assert_true(rate_compute(t, v2, 4, 4, &r));
	assert_true(fabs(r - 400.0) < 1e-9);
}

static void rate_edge_cases(void **state)
{
	(void)state;
	double r = 99;
	int64_t t[] = { 0, 1000, 2000, 3000 };
	/* empty, one sample */
	assert_false(rate_compute(t, NULL, 0, 10, &r));
	assert_true(r == 0);
	int64_t one[] = { 5 };
	assert_false(rate_compute(t, one, 1, 10, &r));
	/* equal timestamps: no division by zero */
	int64_t teq[] = { 1000, 1000, 1000 };
	int64_t v[] = { 1, 2, 3 };
	assert_false(rate_compute(teq, v, 3, 10, &r));
	assert_true(r == 0);
	/* time going backwards */
	int64_t tback[] = { 3000, 1000 };
	assert_false(rate_compute(tback, v, 2, 10, &r));
	/* unknown values are skipped */
	int64_t vn[] = { 100, LT_OFFSET_NONE, 300, LT_OFFSET_NONE };
	assert_true(rate_compute(t, vn, 4, 10, &r));
	assert_true(fabs(r - 100.0) < 1e-9);
	int64_t vnone[] = { LT_OFFSET_NONE, LT_OFFSET_NONE, LT_OFFSET_NONE, LT_OFFSET_NONE };
	assert_false(rate_compute(t, vnone, 4, 10, &r));
	/* flat: rate 0, known */
	int64_t vf[] = { 7, 7, 7, 7 };
	assert_true(rate_compute(t, vf, 4, 10, &r));
	assert_true(r == 0);
}

static void rate_counter_backwards(void **state)
{
	(void)state;
	double r;
	int64_t t[] = { 0, 1000, 2000, 3000, 4000 };
	/* log end dropped (topic recreated) between 1000 and 2000: only the new life counts */
	int64_t v[] = { 5000, 6000, 10, 60, 110 };
	assert_true(rate_compute(t, v, 5, 10, &r));
	assert_true(fabs(r - 50.0) < 1e-9);
	/* dropped at the newest sample: one sample in the new life, no rate */
	int64_t v2[] = { 5000, 6000, 7000, 8000, 3 };
	assert_false(rate_compute(t, v2, 5, 10, &r));
	assert_true(r >= 0);
}

static void rate_huge_offsets(void **state)
{
	(void)state;
	double r;
	int64_t t[] = { 0, 1000 };
	int64_t v[] = { 0, INT64_MAX };
	assert_true(rate_compute(t, v, 2, 10, &r));
	assert_true(isfinite(r) && r > 9e18);
	int64_t v2[] = { INT64_MAX - 10, INT64_MAX };
	assert_true(rate_compute(t, v2, 2, 10, &r));
	assert_true(isfinite(r) && r >= 0);
}

static void eta_rules(void **state)
{
	(void)state;
	int64_t eta;
	assert_true(eta_compute(1000, 200, 100, &eta));
	assert_int_equal(eta, 10000);
	assert_true(eta_compute(0, 0, 100, &eta)); /* caught up */
	assert_int_equal(eta, 0);
	assert_false(eta_compute(1000, 100, 100, &eta)); /* never */
	assert_false(eta_compute(1000, 50, 100, &eta));
	assert_false(eta_compute(1000, 0, 0, &eta));
	assert_true(eta_compute(INT64_MAX, 1e-12, 0, &eta)); /* no overflow */
	assert_int_equal(eta, INT64_MAX);
	assert_false(eta_compute(10, NAN, 0, &eta));
	assert_false(eta_compute(10, INFINITY, INFINITY, &eta));
}

/* ---- time lag ---- */

static void timelag_interpolates(void **state)
{
	(void)state;
	int64_t t[] = { 10000, 20000, 30000 };
	int64_t e[] = { 100, 200, 300 };
	int64_t out;
	/* c = 150 was the log end at 15000; now 30000 → 15 s */
	assert_true(timelag_compute(t, e, 3, 150, 30000, &out));
	assert_int_equal(out, 15000);
	/* on a point */
	assert_true(timelag_compute(t, e, 3, 200, 30000, &out));
	assert_int_equal(out, 10000);
	assert_true(timelag_compute(t, e, 3, 100, 30000, &out));
	assert_int_equal(out, 20000);
	/* now later than the newest point */
	assert_true(timelag_compute(t, e, 3, 250, 40000, &out));
	assert_int_equal(out, 15000);
}

static void timelag_caught_up_and_unknown(void **state)
{
	(void)state;
	int64_t t[] = { 10000, 20000 };
	int64_t e[] = { 100, 200 };
	int64_t out = 42;
	assert_true(timelag_compute(t, e, 2, 200, 20000, &out));
	assert_int_equal(out, 0);
	assert_true(timelag_compute(t, e, 2, 250, 20000, &out)); /* ahead: 0 */
	assert_int_equal(out, 0);
	/* fewer than two points: unknown unless caught up */
	assert_false(timelag_compute(t, e, 1, 50, 20000, &out));
	assert_true(timelag_compute(t, e, 1, 100, 20000, &out));
	assert_int_equal(out, 0);
	assert_false(timelag_compute(t, e, 0, 100, 20000, &out));
	/* no committed offset */
	assert_false(timelag_compute(t, e, 2, LT_OFFSET_NONE, 20000, &out));
}

static void timelag_idle_is_zero_not_nan(void **state)
{
	(void)state;
	/* idle partition: log end never moves; caught up → 0 */
	int64_t t[] = { 1000, 2000, 3000, 4000 };
	int64_t e[] = { 500, 500, 500, 500 };
	int64_t out = -1;
	assert_true(timelag_compute(t, e, 4, 500, 4000, &out));
	assert_int_equal(out, 0);
	/* idle but behind: the flat table gives a lower bound, never a division by zero */
	assert_true(timelag_compute(t, e, 4, 400, 4000, &out));
	assert_int_equal(out, 3000);
}

static void timelag_idle_behind_uses_last_move(void **state)
{
	(void)state;
	int64_t t[] = { 100000, 102000, 104000 };
	int64_t e[] = { 500, 500, 500 };
	int64_t out;
	/* the log end last moved at 10 s: the unread message at 400 is at least 94 s old */
	assert_true(timelag_compute_moved(t, e, 3, 400, 104000, 10000, &out));
	assert_int_equal(out, 94000);
	/* unknown or later than the table (inconsistent): the oldest point bounds it */
	assert_true(timelag_compute_moved(t, e, 3, 400, 104000, INT64_MIN, &out));
	assert_int_equal(out, 4000);
	assert_true(timelag_compute_moved(t, e, 3, 400, 104000, 103000, &out));
	assert_int_equal(out, 4000);
	/* caught up: still 0 */
	assert_true(timelag_compute_moved(t, e, 3, 500, 104000, 10000, &out));
	assert_int_equal(out, 0);
	/* moving table: moved_at is not used */
	int64_t e2[] = { 300, 400, 500 };
	assert_true(timelag_compute_moved(t, e2, 3, 400, 104000, 10000, &out));
	assert_int_equal(out, 2000);
}

static void timelag_outside_table(void **state)
{
	(void)state;
	/* c older than the oldest point: extrapolate along oldest..newest (10 msgs/s) */
	int64_t t[] = { 10000, 20000, 30000 };
	int64_t e[] = { 100, 200, 300 };
	int64_t out;
	assert_true(timelag_compute(t, e, 3, 50, 30000, &out));
	assert_int_equal(out, 25000);
	/* far beyond: still finite, clamped */
	assert_true(timelag_compute(t, e, 3, 0, 30000, &out));
	assert_int_equal(out, 30000);
	int64_t e2[] = { INT64_MAX - 2, INT64_MAX - 1, INT64_MAX };
	assert_true(timelag_compute(t, e2, 3, 0, 30000, &out));
	assert_true(out > 0 && out <= INT64_MAX / 2);
}

static void timelag_flat_segments_and_equal_times(void **state)
{
	(void)state;
	int64_t out;
	/* flat segment 200..200 between 20 s and 30 s; c = 200: the message at 200 was written after
	 * 30 s (the log end was still 200 then), interpolated on 30 s..40 s */
	int64_t t[] = { 10000, 20000, 30000, 40000 };
	int64_t e[] = { 100, 200, 200, 300 };
	assert_true(timelag_compute(t, e, 4, 200, 40000, &out));
	assert_int_equal(out, 10000);
	assert_true(timelag_compute(t, e, 4, 250, 40000, &out));
	assert_int_equal(out, 5000);
	/* equal timestamps: no division by zero */
	int64_t teq[] = { 5000, 5000, 5000 };
	int64_t e3[] = { 100, 200, 300 };
	assert_true(timelag_compute(teq, e3, 3, 150, 6000, &out));
	assert_int_equal(out, 1000);
	assert_true(timelag_compute(teq, e3, 3, 10, 6000, &out));
	assert_int_equal(out, 1000);
}

static void timelag_log_end_backwards(void **state)
{
	(void)state;
	int64_t out;
	/* topic recreated between 20 s and 30 s: old points are not used */
	int64_t t[] = { 10000, 20000, 30000, 40000 };
	int64_t e[] = { 9000, 9500, 100, 200 };
	assert_true(timelag_compute(t, e, 4, 150, 40000, &out));
	assert_int_equal(out, 5000);
	/* only one point in the new life: unknown */
	int64_t e2[] = { 9000, 9500, 9800, 200 };
	assert_false(timelag_compute(t, e2, 4, 150, 40000, &out));
}

/* ---- status ---- */

/* Window of n samples, 1 s apart, ending at t = n*1000. */
static lt_window *mkwin(size_t n, const int64_t *c, const int64_t *e)
{
	lt_window *w = calloc(1, sizeof *w);
	w->n = w->ne = n;
	for (size_t i = 0; i < n; i++) {
		w->t[i] = w->te[i] = (int64_t)(i + 1) * 1000;
		w->c[i] = c[i];
		w->e[i] = w->ev[i] = e[i];
	}
	return w;
}

static lt_status st(const lt_window *w, bool owned, bool *idle)
{
	int64_t c = w->n ? w->c[w->n - 1] : LT_OFFSET_NONE;
	int64_t e = w->n ? w->e[w->n - 1] : LT_OFFSET_NONE;
	bool has;
	int64_t lag;
	lag_compute(LT_OFFSET_NONE, c, e, &has, &lag);
	bool dummy;
	return status_compute(w, 5, 0, (int64_t)w->n * 1000, owned, has, lag, idle ? idle : &dummy);
}

static void status_unknown_and_not_full(void **state)
{
	(void)state;
	int64_t c[] = { -1, -1, -1, -1, -1 };
	int64_t e[] = { 10, 20, 30, 40, 50 };
	lt_window *w = mkwin(5, c, e);
	assert_int_equal(st(w, false, NULL), LT_STATUS_UNKNOWN);
	free(w);
	/* stopped consumer, but only 4 samples of a window of 5: not evaluated yet (PENDING, not OK) */
	int64_t c2[] = { 5, 5, 5, 5 };
	w = mkwin(4, c2, e);
	assert_int_equal(st(w, false, NULL), LT_STATUS_PENDING);
	assert_false(status_evaluated(LT_STATUS_PENDING));
	free(w);
	/* empty history */
	w = calloc(1, sizeof *w);
	assert_int_equal(st(w, false, NULL), LT_STATUS_UNKNOWN);
	bool idle = true;
	assert_int_equal(status_compute(w, 5, 0, 0, false, true, 10, &idle), LT_STATUS_PENDING);
	assert_false(idle);
	free(w);
}

static void status_stop_and_stall(void **state)
{
	(void)state;
	int64_t c[] = { 5, 5, 5, 5, 5 };
	int64_t e[] = { 10, 20, 30, 40, 50 };
	lt_window *w = mkwin(5, c, e);
	bool idle = true;
	/* log end moving, committed stuck, nobody owns it: STOP */
	assert_int_equal(st(w, false, &idle), LT_STATUS_STOP);
	assert_false(idle);
	/* owned by a live member: STALL */
	assert_int_equal(st(w, true, NULL), LT_STATUS_STALL);
	free(w);
	/* consumed early in the window, then stopped for longer than it was committing: STOP */
	int64_t c2[] = { 1, 2, 5, 5, 5 };
	w = mkwin(5, c2, e);
	assert_int_equal(st(w, false, NULL), LT_STATUS_STOP);
	/* owned: lag never decreased → WARN */
	assert_int_equal(st(w, true, NULL), LT_STATUS_WARN);
	free(w);
}

static void status_idle_is_not_stop(void **state)
{
	(void)state;
	int64_t c[] = { 5, 5, 5, 5, 5 };
	int64_t e[] = { 50, 50, 50, 50, 50 };
	lt_window *w = mkwin(5, c, e);
	bool idle = false;
	/* nothing produced, nobody consuming: idle, not STOP */
	assert_int_equal(st(w, false, &idle), LT_STATUS_OK);
	assert_true(idle);
	/* a member owns it and does not read what is there: STALL */
	assert_int_equal(st(w, true, &idle), LT_STATUS_STALL);
	free(w);
	/* idle and caught up */
	int64_t c2[] = { 50, 50, 50, 50, 50 };
	w = mkwin(5, c2, e);
	assert_int_equal(st(w, false, &idle), LT_STATUS_OK);
	assert_true(idle);
	free(w);
}

static void status_rewind(void **state)
{
	(void)state;
	int64_t c[] = { 10, 20, 30, 5, 15 };
	int64_t e[] = { 100, 110, 120, 130, 140 };
	lt_window *w = mkwin(5, c, e);
	assert_int_equal(st(w, true, NULL), LT_STATUS_REWIND);
	free(w);
}

static void status_warn_and_ok(void **state)
{
	(void)state;
	/* consuming, but slower than produced: lag grows → WARN */
	int64_t c[] = { 10, 20, 30, 40, 50 };
	int64_t e[] = { 100, 120, 140, 160, 180 };
	lt_window *w = mkwin(5, c, e);
	assert_int_equal(st(w, true, NULL), LT_STATUS_WARN);
	free(w);
	/* lag decreasing: OK */
	int64_t c2[] = { 10, 40, 70, 100, 130 };
	w = mkwin(5, c2, e);
	assert_int_equal(st(w, true, NULL), LT_STATUS_OK);
	free(w);
	/* lag was zero inside the window: OK */
	int64_t c3[] = { 100, 110, 115, 120, 125 };
	w = mkwin(5, c3, e);
	assert_int_equal(st(w, true, NULL), LT_STATUS_OK);
	free(w);
	/* current lag within allowed lag */
	int64_t c4[] = { 5, 5, 5, 5, 175 };
	w = mkwin(5, c4, e);
	bool idle;
	assert_int_equal(status_compute(w, 5, 10, 5000, false, true, 5, &idle), LT_STATUS_OK);
	free(w);
}

/* With the commit stream: the exact time of the last commit decides "stopped". */
static lt_status stc(const lt_window *w, bool owned, int64_t last_commit_ms)
{
	bool has, idle;
	int64_t lag;
	lag_compute(LT_OFFSET_NONE, w->c[w->n - 1], w->e[w->n - 1], &has, &lag);
	return status_compute_commits(w, 5, 0, (int64_t)w->n * 1000, owned, has, lag, last_commit_ms, false, &idle);
}

static void status_with_commit_times(void **state)
{
	(void)state;
	/* window 1 s .. 5 s (span 4 s), now = 5 s; committed stuck at 5, log end moving */
	int64_t c[] = { 5, 5, 5, 5, 5 };
	int64_t e[] = { 10, 20, 30, 40, 50 };
	lt_window *w = mkwin(5, c, e);
	/* unowned, but it committed (the same offset) 1 s ago: alive and stuck = STALL, not STOP */
	assert_int_equal(stc(w, false, 4000), LT_STATUS_STALL);
	/* owned, and no commit for 4.5 s (longer than the window): STOP, not STALL */
	assert_int_equal(stc(w, true, 500), LT_STATUS_STOP);
	/* owned and committing: STALL, as without the stream */
	assert_int_equal(stc(w, true, 4900), LT_STATUS_STALL);
	/* unknown commit time: the polling rules (status_compute) */
	assert_int_equal(stc(w, false, -1), LT_STATUS_STOP);
	assert_int_equal(stc(w, true, -1), LT_STATUS_STALL);
	free(w);
	/* consuming and committing: the commit time does not change an OK/WARN verdict */
	int64_t c2[] = { 10, 40, 70, 100, 130 };
	int64_t e2[] = { 100, 120, 140, 160, 180 };
	w = mkwin(5, c2, e2);
	assert_int_equal(stc(w, true, 5000), LT_STATUS_OK);
	free(w);
	/* idle log, nobody owns it, no commit for long: still the idle fix (OK, leftover lag) */
	int64_t c3[] = { 5, 5, 5, 5, 5 };
	int64_t e3[] = { 50, 50, 50, 50, 50 };
	w = mkwin(5, c3, e3);
	assert_int_equal(stc(w, false, 100), LT_STATUS_OK);
	/* idle log but someone keeps committing the same offset without reading: STALL */
	assert_int_equal(stc(w, false, 4800), LT_STATUS_STALL);
	free(w);
}

static void status_unknown_samples_do_not_fill_window(void **state)
{
	(void)state;
	/* 5 samples, one without a log end: only 4 complete → not full → PENDING */
	int64_t c[] = { 5, 5, 5, 5, 5 };
	int64_t e[] = { 10, LT_OFFSET_NONE, 30, 40, 50 };
	lt_window *w = mkwin(5, c, e);
	assert_int_equal(st(w, false, NULL), LT_STATUS_PENDING);
	free(w);
}

/* What needs no window: the first sample can already say OK (no lag beyond the allowed lag)
 * or STOP (committed below the log start); anything else waits for `window` samples, and a full window
 * reaches the same verdicts. */
static lt_status st_range(const lt_window *w, size_t window, int64_t allowed, bool out_of_range)
{
	bool has, idle;
	int64_t lag;
	lag_compute(LT_OFFSET_NONE, w->c[w->n - 1], w->e[w->n - 1], &has, &lag);
	return status_compute_commits(w, window, allowed, (int64_t)w->n * 1000, true, has, lag, -1, out_of_range,
				      &idle);
}

static void status_completeness_rules(void **state)
{
	(void)state;
	int64_t e[] = { 100, 200, 300, 400, 500 };
	/* one sample, behind: pending; caught up: OK; below the log start: STOP */
	int64_t behind[] = { 50 };
	lt_window *w = mkwin(1, behind, e);
	assert_int_equal(st_range(w, 5, 0, false), LT_STATUS_PENDING);
	assert_int_equal(st_range(w, 5, 50, false), LT_STATUS_OK); /* lag 50 within the allowed lag */
	assert_int_equal(st_range(w, 5, 0, true), LT_STATUS_STOP);
	assert_int_equal(st_range(w, 5, 1000, true), LT_STATUS_STOP); /* lost messages beat the allowed lag */
	free(w);
	int64_t caught[] = { 100 };
	w = mkwin(1, caught, e);
	assert_int_equal(st_range(w, 5, 0, false), LT_STATUS_OK);
	free(w);
	/* four of five samples, lag growing while consuming: still pending; the fifth makes it WARN */
	int64_t slow[] = { 10, 20, 30, 40, 50 };
	w = mkwin(4, slow, e);
	assert_int_equal(st_range(w, 5, 0, false), LT_STATUS_PENDING);
	free(w);
	w = mkwin(5, slow, e);
	assert_int_equal(st_range(w, 5, 0, false), LT_STATUS_WARN);
	/* full window and below the log start: STOP, not WARN */
	assert_int_equal(st_range(w, 5, 0, true), LT_STATUS_STOP);
	free(w);
	/* a window smaller than 2 can never be evaluated by the windowed rules */
	w = mkwin(5, slow, e);
	assert_int_equal(st_range(w, 1, 0, false), LT_STATUS_PENDING);
	free(w);
	/* what status_evaluated counts as a verdict */
	assert_false(status_evaluated(LT_STATUS_UNKNOWN));
	for (lt_status s = LT_STATUS_OK; s <= LT_STATUS_ERR; s++)
		assert_true(status_evaluated(s));
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(lag_rules),
	cmocka_unit_test(lag_huge_offsets),
	cmocka_unit_test(group_totals_rules),
	cmocka_unit_test(rate_basic),
	cmocka_unit_test(rate_edge_cases),
	cmocka_unit_test(rate_counter_backwards),
	cmocka_unit_test(rate_huge_offsets),
	cmocka_unit_test(eta_rules),
	cmocka_unit_test(timelag_interpolates),
	cmocka_unit_test(timelag_caught_up_and_unknown),
	cmocka_unit_test(timelag_idle_is_zero_not_nan),
	cmocka_unit_test(timelag_idle_behind_uses_last_move),
	cmocka_unit_test(timelag_outside_table),
	cmocka_unit_test(timelag_flat_segments_and_equal_times),
	cmocka_unit_test(timelag_log_end_backwards),
	cmocka_unit_test(status_unknown_and_not_full),
	cmocka_unit_test(status_stop_and_stall),
	cmocka_unit_test(status_idle_is_not_stop),
	cmocka_unit_test(status_rewind),
	cmocka_unit_test(status_warn_and_ok),
	cmocka_unit_test(status_unknown_samples_do_not_fill_window),
	cmocka_unit_test(status_completeness_rules),
	cmocka_unit_test(status_with_commit_times),
};

LT_TEST_MAIN(NULL, NULL)
