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
	*out_ms = 0;
	if (committed < 0 || n == 0)
		return false;
	if (committed >= e[n - 1])
		return true; /* caught up, including an idle partition */
	if (n < 2)
		return false;
	size_t start = 0;
	for (size_t i = 1; i < n; i++)
		if (e[i] < e[i - 1])
			start = i;
	if (n - start < 2)
		return false;
	size_t newest = n - 1;
	double predicted;
	if (committed >= e[start]) {
		size_t r = newest;
		while (r > start && !(e[r - 1] <= committed && committed < e[r]))
			r--;
		/* Exists: e[start] <= c < e[newest] and the run is non-decreasing. */
		if (r == start) {
			*out_ms = clamp_lag((double)now - (double)t[start]);
			return true;
		}
		size_t l = r - 1;
		double frac = ((double)committed - (double)e[l]) / ((double)e[r] - (double)e[l]);
		predicted = (double)t[l] + frac * ((double)t[r] - (double)t[l]);
	} else if (e[newest] > e[start]) {
		double slope = ((double)t[newest] - (double)t[start]) / ((double)e[newest] - (double)e[start]);
		predicted = (double)t[start] - ((double)e[start] - (double)committed) * slope;
	} else {
		predicted = (double)t[start];
		if (moved_at != INT64_MIN && moved_at < t[start])
			predicted = (double)moved_at;
	}
	*out_ms = clamp_lag((double)now - predicted);
	return true;
}
