/* timeutil.h — the two clocks lagtop reads. Only the collector, the UI loop and the sim read
 * clocks; the model and reset planning get time passed in. */
#ifndef LAGTOP_UTIL_TIMEUTIL_H
#define LAGTOP_UTIL_TIMEUTIL_H

#include <stdint.h>

/* Wall clock, milliseconds since the Unix epoch (CLOCK_REALTIME): for timestamps shown or stored. */
int64_t now_wall_ms(void);

/* Monotonic clock, milliseconds from an arbitrary start (CLOCK_MONOTONIC): for intervals and
 * timeouts, immune to clock changes. */
int64_t now_mono_ms(void);
/* Milliseconds left until a monotonic deadline (now_mono_ms() + budget), 0 when past. */
int deadline_remaining_ms(int64_t deadline);

#endif
