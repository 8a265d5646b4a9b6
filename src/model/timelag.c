/* timelag.c — time lag by kafka-lag-exporter's method (doc/RESET-SEMANTICS.md, "Time lag").
 *
 * The log-end series is a table of points (t, e): "at time t the log ended at e". The message at
 * the committed offset c was written when the log end passed c; interpolating the table gives
 * that time, and the time lag is now minus it. Differences from kafka-lag-exporter, all to avoid
 * its NaN (seglo/kafka-lag-exporter#111):
 *  - c >= the newest log end: caught up, 0 (an idle caught-up partition is 0, not NaN);
 *  - the table is first cut after the last point where the log end went backwards (topic
 *    recreated): offsets of two lives of a partition are not comparable;
 *  - flat segments are never divided by: the segment searched is the newest one with
 *    l.e <= c < r.e, which has r.e > l.e;
 *  - c older than the whole table: extrapolate along oldest..newest; if the log end never moved
 *    over the table (an idle partition with unread messages), the message at c was written no
 *    later than the log end last moved, so the lag is now minus that time (the history keeps it
 *    per partition) — or, when that is not known, now minus the oldest point: a lower bound;
 *  - the result is clamped to [0, INT64_MAX/2].
 * The table slides (the ring holds the last refreshes), so the same c read against it later gives
 * another time: a bracketing point leaves, the extrapolation's slope follows the rate of the last
 * refreshes. A lag that went backwards while the consumer stood still would be a lie, so
 * timelag_written_at says which kind of estimate it made, and the history holds the time it gave
 * while c stands still (history_hold_written_at): kept as first found, and a lower bound replaced
 * only by an earlier time. The lag then grows with the clock. Every kind but caught-up is an
 * estimate (LT_PF_TIME_LAG_ESTIMATED): no time here was read from a record.
 */
#include <math.h>
#include <stdint.h>

#include "model/model_int.h"

static int64_t clamp_lag(double lag)
{
	if (!(lag > 0))
		return 0; /* also catches NaN, though none can arise */
	if (lag >= (double)(INT64_MAX / 2))
		return INT64_MAX / 2;
	return (int64_t)lag;
}

bool timelag_compute(const int64_t *t, const int64_t *e, size_t n, int64_t committed, int64_t now, int64_t *out_ms)
{
	return timelag_compute_moved(t, e, n, committed, now, INT64_MIN, out_ms);
}

bool timelag_compute_moved(const int64_t *t, const int64_t *e, size_t n, int64_t committed, int64_t now,
			   int64_t moved_at, int64_t *out_ms)
{
	double written_at = 0;
	lt_timelag_kind kind = timelag_written_at(t, e, n, committed, moved_at, &written_at);
	*out_ms = 0;
	if (kind == LT_TL_UNKNOWN)
		return false;
	if (kind != LT_TL_CAUGHT_UP)
		*out_ms = timelag_since(now, written_at);
	return true;
}

int64_t timelag_since(int64_t now, double written_at)
{
	return clamp_lag((double)now - written_at);
}

lt_timelag_kind timelag_written_at(const int64_t *t, const int64_t *e, size_t n, int64_t committed, int64_t moved_at,
				   double *written_at)
{
	*written_at = 0;
	if (committed < 0 || n == 0)
		return LT_TL_UNKNOWN;
	if (committed >= e[n - 1])
		return LT_TL_CAUGHT_UP; /* including an idle partition */
	if (n < 2)
		return LT_TL_UNKNOWN;
	size_t start = 0;
	for (size_t i = 1; i < n; i++)
		if (e[i] < e[i - 1])
			start = i;
	if (n - start < 2)
		return LT_TL_UNKNOWN;
	size_t newest = n - 1;
	if (committed >= e[start]) {
		size_t r = newest;
		while (r > start && !(e[r - 1] <= committed && committed < e[r]))
			r--;
		/* Exists: e[start] <= c < e[newest] and the run is non-decreasing. */
		if (r == start) {
			*written_at = (double)t[start];
			return LT_TL_BOUND;
		}
		size_t l = r - 1;
		double frac = ((double)committed - (double)e[l]) / ((double)e[r] - (double)e[l]);
		*written_at = (double)t[l] + frac * ((double)t[r] - (double)t[l]);
		return LT_TL_INTERPOLATED;
	}
	if (e[newest] > e[start]) {
		double slope = ((double)t[newest] - (double)t[start]) / ((double)e[newest] - (double)e[start]);
		*written_at = (double)t[start] - ((double)e[start] - (double)committed) * slope;
		return LT_TL_EXTRAPOLATED;
	}
	if (moved_at != INT64_MIN && moved_at < t[start]) {
		*written_at = (double)moved_at;
		return LT_TL_BOUND; /* written no later than the log end last moved */
	}
	*written_at = (double)t[start];
	return LT_TL_BOUND;
}
