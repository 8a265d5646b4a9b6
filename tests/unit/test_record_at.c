/* test_record_at.c — --at TIME read against a recording's span (src/record/at.c): a clock time falls on the
 * day of the recording where it is inside the span, whichever day that is; when no day has it, one line
 * names the recording's span and no invented date; the first and last record's own seconds are inside. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "record/record.h"
#include "../lib/cmocka_main.h"

#define MIN_MS  60000LL
#define HOUR_MS (60 * MIN_MS)
#define DAY_MS  (24 * HOUR_MS)
#define D0      1764547200000LL /* 2025-12-01T00:00:00Z */

static int64_t at_ok(const char *s, int64_t first, int64_t last)
{
	int64_t t = -1;
	char err[256] = "";
	if (rec_parse_at(s, first, last, &t, err, sizeof err) != 0)
		fail_msg("--at %s refused: %s", s, err);
	return t;
}

static const char *at_err(const char *s, int64_t first, int64_t last)
{
	static char err[256];
	int64_t t = -1;
	err[0] = '\0';
	assert_int_equal(rec_parse_at(s, first, last, &t, err, sizeof err), -1);
	assert_null(strchr(err, '\n'));
	return err;
}

/* 14:30 to 15:30 of one day: 15:00 is that day; 13:00 is on no day of it, and the line says so with the span
 * (not as 13:00 of the next day). */
static void one_afternoon(void **state)
{
	(void)state;
	const int64_t first = D0 + 14 * HOUR_MS + 30 * MIN_MS, last = D0 + 15 * HOUR_MS + 30 * MIN_MS;
	assert_int_equal(at_ok("15:00", first, last), D0 + 15 * HOUR_MS);
	assert_int_equal(at_ok("14:30", first, last), first);
	assert_int_equal(at_ok("15:30:00", first, last), last);
	const char *e = at_err("13:00", first, last);
	assert_non_null(strstr(e, "13:00"));
	assert_non_null(strstr(e, "2025-12-01 14:30:00Z to 2025-12-01 15:30:00Z"));
	assert_null(strstr(e, "2025-12-02"));
	e = at_err("16:00", first, last);
	assert_non_null(strstr(e, "2025-12-01 14:30:00Z to 2025-12-01 15:30:00Z"));
}

/* Across midnight: 23:00 is the first day, 01:00 the second. */
static void a_night(void **state)
{
	(void)state;
	const int64_t first = D0 + 22 * HOUR_MS, last = D0 + DAY_MS + 2 * HOUR_MS;
	assert_int_equal(at_ok("23:00", first, last), D0 + 23 * HOUR_MS);
	assert_int_equal(at_ok("01:00", first, last), D0 + DAY_MS + HOUR_MS);
	assert_non_null(strstr(at_err("12:00", first, last), "2025-12-01 22:00:00Z to 2025-12-02 02:00:00Z"));
}

/* Three days from 14:30: 13:00 is the second day (the first one inside), 15:00 the first; on the last day,
 * a time after the end is the day before. */
static void several_days(void **state)
{
	(void)state;
	const int64_t first = D0 + 14 * HOUR_MS + 30 * MIN_MS, last = D0 + 2 * DAY_MS + 10 * HOUR_MS;
	assert_int_equal(at_ok("13:00", first, last), D0 + DAY_MS + 13 * HOUR_MS);
	assert_int_equal(at_ok("15:00", first, last), D0 + 15 * HOUR_MS);
	assert_int_equal(at_ok("09:00", first, last), D0 + DAY_MS + 9 * HOUR_MS);
}

/* A typed time has whole seconds: the first and the last record's own seconds are inside. */
static void record_seconds_are_inside(void **state)
{
	(void)state;
	const int64_t first = D0 + 14 * HOUR_MS + 30 * MIN_MS + 400, last = D0 + 15 * HOUR_MS + 30 * MIN_MS + 700;
	assert_int_equal(at_ok("14:30", first, last), first - 400);
	assert_int_equal(at_ok("15:30:00", first, last), last - 700);
	at_err("14:29:59", first, last);
	at_err("15:30:01", first, last);
}

/* The other forms: a datetime (outside: its own time and the span), a span before the end; bad input. */
static void other_forms(void **state)
{
	(void)state;
	const int64_t first = D0 + 14 * HOUR_MS + 30 * MIN_MS, last = D0 + 15 * HOUR_MS + 30 * MIN_MS;
	assert_int_equal(at_ok("2025-12-01T15:00:00Z", first, last), D0 + 15 * HOUR_MS);
	assert_int_equal(at_ok("-10m", first, last), last - 10 * MIN_MS);
	assert_non_null(strstr(at_err("2025-12-02T13:00:00Z", first, last), "outside the recording"));
	assert_non_null(strstr(at_err("25:00", first, last), "--at expects"));
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(one_afternoon), cmocka_unit_test(a_night),
	cmocka_unit_test(several_days),  cmocka_unit_test(record_seconds_are_inside),
	cmocka_unit_test(other_forms),
};

LT_TEST_MAIN(NULL, NULL)
