/* test_util_timeutil.c — the two clocks (util/timeutil). No timing assertions beyond ordering. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <time.h>

#include "util/timeutil.h"
#include "../lib/cmocka_main.h"

static void wall_clock_is_epoch_milliseconds(void **state)
{
	(void)state;
	int64_t ms = now_wall_ms();
	int64_t s = (int64_t)time(NULL);
	/* same second as time(2), give or take one */
	assert_true(ms / 1000 >= s - 1 && ms / 1000 <= s + 1);
	assert_true(ms > 1600000000000LL); /* after 2020: milliseconds, not seconds */
}

static void monotonic_clock_never_goes_back(void **state)
{
	(void)state;
	int64_t prev = now_mono_ms();
	for (int i = 0; i < 100000; i++) {
		int64_t t = now_mono_ms();
		assert_true(t >= prev);
		prev = t;
	}
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int64_t a = now_mono_ms();
	nanosleep(&ts, NULL);
	assert_true(now_mono_ms() - a >= 19);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(wall_clock_is_epoch_milliseconds),
	cmocka_unit_test(monotonic_clock_never_goes_back),
};

LT_TEST_MAIN(NULL, NULL)
