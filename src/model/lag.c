/* lag.c — lag of one partition from its observed offsets (the rules above lag_compute), and a group's totals. */
#include <stdint.h>

#include "model/model_int.h"

int64_t sat_add(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/* Offsets below zero are unknown (Kafka's -1). Rules:
 *  - no committed offset or no log end: lag unknown (never 0: "unknown" and "caught up" differ);
 *  - committed > log end (a stale read, or the log was truncated): lag 0, flagged;
 *  - committed < log start: flagged, the consumer will jump per auto.offset.reset; the lag is
 *    still counted to the log end, which is what it has to consume if it resets to earliest.
 * Both operands are >= 0 here, so log_end - committed cannot overflow. */
unsigned lag_compute(int64_t log_start, int64_t committed, int64_t log_end, bool *has_lag, int64_t *lag)
{
	unsigned flags = 0;
	*has_lag = false;
	*lag = 0;
	if (committed < 0)
		return 0;
	if (log_start >= 0 && committed < log_start)
		flags |= LT_PF_OUT_OF_RANGE;
	if (log_end < 0)
		return flags;
	*has_lag = true;
	if (committed > log_end) {
		flags |= LT_PF_AHEAD_OF_END;
		return flags;
	}
	*lag = log_end - committed;
	return flags;
}

void group_totals_add(lt_group_totals *t, const lt_partition *p)
{
	/* lags and time lags are never negative (lag_compute, timelag.c), so the maxima start at 0 */
	if (p->has_lag) {
		t->total_lag = sat_add(t->total_lag, p->lag);
		if (p->lag > t->max_lag)
			t->max_lag = p->lag;
		t->any_lag = true;
	}
	if (p->has_time_lag) {
		if (p->time_lag_ms > t->max_time_lag_ms)
			t->max_time_lag_ms = p->time_lag_ms;
		t->any_time_lag = true;
	}
	if (p->has_rates)
		t->consume_rate += p->consume_rate;
}

lt_group_totals group_totals(const lt_partition *p, size_t n)
{
	lt_group_totals t = { 0 };
	for (size_t i = 0; i < n; i++)
		group_totals_add(&t, &p[i]);
	return t;
}
