/* timeutil.c — see timeutil.h. */
#include "util/timeutil.h"

#include <time.h>

static int64_t read_ms(clockid_t id)
{
	struct timespec ts;
	if (clock_gettime(id, &ts) != 0)
		return 0; /* cannot fail for these clocks on Linux */
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t now_wall_ms(void)
{
	return read_ms(CLOCK_REALTIME);
}

int64_t now_mono_ms(void)
{
	return read_ms(CLOCK_MONOTONIC);
}

int deadline_remaining_ms(int64_t deadline)
{
	int64_t r = deadline - now_mono_ms();
	return r > 0 ? (int)r : 0;
}
