/* rates.c — consume and produce rates over the window, and the ETA to catch up. */
#include <math.h>
#include <stdint.h>

#include "model/model_int.h"

/* Uses the last `window` samples with a known value. A counter that went backwards (committed
 * rewound, topic deleted and recreated) restarts the run: the rate is measured only over the
 * samples after the drop, so it is never negative and never mixes two lives of a counter. */
bool rate_compute(const int64_t *t, const int64_t *v, size_t n, size_t window, double *rate)
{
	*rate = 0;
	/* Walk back from the newest known sample while the counter does not increase backwards. */
	size_t last = n;
	while (last > 0 && v[last - 1] < 0)
		last--;
	if (last == 0)
		return false;
	size_t newest = last - 1, first = newest, used = 1;
	for (size_t i = newest; i-- > 0 && used < window;) {
		if (v[i] < 0)
			continue;
		if (v[i] > v[first])
			break; /* went backwards between i and first */
		first = i;
		used++;
	}
	if (used < 2 || t[newest] <= t[first])
		return false;
	double dv = (double)v[newest] - (double)v[first];
	double dt = (double)(t[newest] - t[first]) / 1000.0;
	*rate = dv / dt;
	if (!isfinite(*rate) || *rate < 0)
		*rate = 0;
	return true;
}

/* lag 0 → 0 ms; consuming no faster than producing → false ("never"). Capped at ~292 million
 * years rather than overflowing int64. */
bool eta_compute(int64_t lag, double consume, double produce, int64_t *eta_ms)
{
	*eta_ms = 0;
	if (lag <= 0)
		return lag == 0;
	double net = consume - produce;
	if (!(net > 0) || !isfinite(net))
		return false;
	double ms = (double)lag / net * 1000.0;
	if (!isfinite(ms) || ms >= 9.0e18)
		*eta_ms = INT64_MAX;
	else
		*eta_ms = (int64_t)ms;
	return true;
}
