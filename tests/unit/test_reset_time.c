/* test_reset_time.c — --to-datetime and --by-duration parsing: every accepted form, every rejection. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "util/timeparse.h"
#include "../lib/cmocka_main.h"

#define NOW 1795946400000LL /* 2026-11-29T10:00:00.000Z */

static int64_t dt_ok(const char *s)
{
	char err[256] = "";
	int64_t ms = -12345;
	if (reset_parse_datetime(s, NOW, &ms, err, sizeof err) != 0)
		fail_msg("'%s' rejected: %s", s, err);
	return ms;
}

static void dt_bad(const char *s, const char *want_in_err)
{
	char err[512] = "";
	int64_t ms = 77;
	if (reset_parse_datetime(s, NOW, &ms, err, sizeof err) == 0)
		fail_msg("'%s' accepted as %lld", s, (long long)ms);
	assert_int_equal(ms, 77);
	if (!strstr(err, want_in_err))
		fail_msg("error for '%s' lacks '%s': %s", s, want_in_err, err);
	/* every error quotes the input */
	char quoted[300];
	snprintf(quoted, sizeof quoted, "'%s'", s);
	if (!strstr(err, quoted))
		fail_msg("error does not quote the input: %s", err);
}

static void datetime_kafka_forms(void **state)
{
	(void)state;
	assert_int_equal(dt_ok("2026-11-29T10:00:00.000"), NOW); /* no zone: UTC */
	assert_int_equal(dt_ok("2026-11-29T10:00:00.000Z"), NOW);
	assert_int_equal(dt_ok("2026-11-29T10:00:00.123+08:00"), 1795917600123LL);
	assert_int_equal(dt_ok("2026-11-29T10:00:00.123+0800"), 1795917600123LL);
	assert_int_equal(dt_ok("2026-11-29T10:00:00.123+08"), 1795917600123LL);
	assert_int_equal(dt_ok("2026-11-29T10:00:00.000-05:30"), 1795966200000LL);
	assert_int_equal(dt_ok("2024-02-29T23:59:59.999"), 1709251199999LL); /* leap day */
	assert_int_equal(dt_ok("1970-01-01T00:00:00.000Z"), 0);
	assert_int_equal(dt_ok("9999-12-31T23:59:59.999Z"), 253402300799999LL);
}

static void datetime_extras(void **state)
{
	(void)state;
	assert_int_equal(dt_ok("2026-11-29T10:00:00"), NOW); /* seconds without milliseconds */
	assert_int_equal(dt_ok("2026-11-29T18:00:00+08:00"), NOW);
	assert_int_equal(dt_ok("-6h"), NOW - 6 * 3600000LL); /* relative: before now */
	assert_int_equal(dt_ok("6h"), NOW - 6 * 3600000LL);
	assert_int_equal(dt_ok("30m"), NOW - 30 * 60000LL);
	assert_int_equal(dt_ok("90s"), NOW - 90000LL);
	assert_int_equal(dt_ok("2d"), NOW - 2 * 86400000LL);
	assert_int_equal(dt_ok("1w"), NOW - 7 * 86400000LL);
	assert_int_equal(dt_ok("0s"), NOW);
}

static void datetime_rejections(void **state)
{
	(void)state;
	dt_bad("", "empty");
	dt_bad("2026-02-30T10:00:00.000", "has no day 30"); /* impossible date */
	dt_bad("2025-02-29T10:00:00.000", "has no day 29"); /* not a leap year */
	dt_bad("1900-02-29T10:00:00.000", "has no day 29");
	dt_bad("2026-13-01T10:00:00.000", "month 13");
	dt_bad("2026-00-01T10:00:00.000", "month 00");
	dt_bad("2026-11-29T24:00:00.000", "not a time of day");
	dt_bad("2026-11-29T10:60:00.000", "not a time of day");
	dt_bad("2026-11-29T10:00:60.000", "not a time of day");
	dt_bad("2026-11-29 10:00:00.000", "'T'");
	dt_bad("2026-11-29", "'T'");
	dt_bad("2026-11-29T10:00", "HH:mm:ss");
	dt_bad("2026-11-29T10:00:00.00", "exactly 3 digits");
	dt_bad("2026-11-29T10:00:00.0000", "exactly 3 digits");
	dt_bad("2026-11-29T10:00:00.000Zjunk", "at the end");
	dt_bad("2026-11-29T10:00:00.000 ", "at the end");
	dt_bad("2026-11-29T10:00:00.000+8", "zone");
	dt_bad("2026-11-29T10:00:00.000+08:0", "zone");
	dt_bad("2026-11-29T10:00:00.000+19:00", "out of range");
	dt_bad("2026-11-29T10:00:00.000+08:00:00", "at the end");
	dt_bad("26-11-29T10:00:00.000", "yyyy-MM-dd");
	dt_bad("1969-12-31T23:59:59.999Z", "before 1970"); /* would read as ListOffsets' "latest" */
	dt_bad("1970-01-01T00:00:00.000+01:00", "before 1970");
	dt_bad("yesterday", "'T'");
	dt_bad("6x", "unknown unit 'x'");
	dt_bad("-h", "'T'");
	dt_bad("99999999999999999999h", "too large");
	dt_bad("100000w", "before 1970");
	/* every error shows an accepted example */
	char err[512];
	int64_t ms;
	assert_int_equal(reset_parse_datetime("nope", NOW, &ms, err, sizeof err), -1);
	assert_non_null(strstr(err, "e.g. 2026-11-29T10:00:00.000"));
}

static void dur_ok(const char *s, int64_t sec, int32_t nanos)
{
	char err[256] = "";
	int64_t got_s;
	int32_t got_n;
	if (reset_parse_duration(s, &got_s, &got_n, err, sizeof err) != 0)
		fail_msg("'%s' rejected: %s", s, err);
	if (got_s != sec || got_n != nanos)
		fail_msg("'%s' gave %lld s %d ns, want %lld s %d ns", s, (long long)got_s, got_n, (long long)sec,
			 nanos);
}

static void dur_bad(const char *s, const char *want)
{
	char err[512] = "";
	int64_t sec;
	int32_t n;
	if (reset_parse_duration(s, &sec, &n, err, sizeof err) == 0)
		fail_msg("'%s' accepted", s);
	if (!strstr(err, want))
		fail_msg("error for '%s' lacks '%s': %s", s, want, err);
}

static void duration_forms(void **state)
{
	(void)state;
	dur_ok("PT6H", 6 * 3600, 0);
	dur_ok("P1DT2H", 86400 + 7200, 0);
	dur_ok("P2D", 2 * 86400, 0);
	dur_ok("PT30M", 1800, 0);
	dur_ok("PT0.5S", 0, 500000000);
	dur_ok("PT1,25S", 1, 250000000);
	dur_ok("pt6h", 6 * 3600, 0); /* Duration.parse is case-insensitive */
	dur_ok("P1DT1H1M1.001S", 86400 + 3600 + 61, 1000000);
	dur_ok("-PT6H", -6 * 3600, 0); /* negative: the future */
	dur_ok("PT-6H", -6 * 3600, 0);
	dur_ok("PT-0.5S", -1, 500000000); /* normalised like java.time.Duration */
	dur_ok("PT1H-30M", 1800, 0);
	dur_ok("+PT1S", 1, 0);
	dur_ok("PT0S", 0, 0);
}

static void duration_rejections(void **state)
{
	(void)state;
	dur_bad("", "empty");
	dur_bad("6h", "start with P");
	dur_bad("P", "no days");
	dur_bad("PT", "nothing after T");
	dur_bad("P1H", "after T");
	dur_bad("PT1D", "before T");
	dur_bad("P1W", "unknown or missing unit"); /* weeks are Period, not Duration */
	dur_bad("P1Y", "unknown or missing unit");
	dur_bad("PT1M1H", "out of order");
	dur_bad("PT1H1H", "out of order");
	dur_bad("PT1.5H", "only seconds");
	dur_bad("PT6", "unknown or missing unit");
	dur_bad("PT6Hjunk", "expected a number");
	dur_bad("PTH", "expected a number");
	dur_bad("PT1.1234567891S", "9 decimals");
	dur_bad("P99999999999999999999D", "expected a number");
	dur_bad("P1DT2H ", "expected a number");
	dur_bad("6h", "e.g. PT6H"); /* the error shows an accepted example */
	dur_bad("bad", "'bad'");    /* and quotes the input */
}

static void duration_before_now(void **state)
{
	(void)state;
	char err[256];
	int64_t ms;
	assert_int_equal(reset_duration_before("PT6H", NOW, &ms, err, sizeof err), 0);
	assert_int_equal(ms, NOW - 6 * 3600000LL);
	/* Instant.minus(0.5 ms).toEpochMilli() floors: one whole millisecond earlier */
	assert_int_equal(reset_duration_before("PT0.0005S", NOW, &ms, err, sizeof err), 0);
	assert_int_equal(ms, NOW - 1);
	assert_int_equal(reset_duration_before("PT-0.0005S", NOW, &ms, err, sizeof err), 0);
	assert_int_equal(ms, NOW);
	assert_int_equal(reset_duration_before("P100000D", NOW, &ms, err, sizeof err), -1);
	assert_non_null(strstr(err, "before 1970"));
	assert_int_equal(reset_duration_before("bad", NOW, &ms, err, sizeof err), -1);
	assert_non_null(strstr(err, "'bad'"));
}

static void format_round_trip(void **state)
{
	(void)state;
	char buf[40];
	reset_format_time(NOW + 123, buf, sizeof buf);
	assert_string_equal(buf, "2026-11-29T10:00:00.123Z");
	reset_format_time(0, buf, sizeof buf);
	assert_string_equal(buf, "1970-01-01T00:00:00.000Z");
	reset_format_time(1709251199999LL, buf, sizeof buf);
	assert_string_equal(buf, "2024-02-29T23:59:59.999Z");
	assert_int_equal(dt_ok(buf), 1709251199999LL);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(datetime_kafka_forms), cmocka_unit_test(datetime_extras),
	cmocka_unit_test(datetime_rejections),  cmocka_unit_test(duration_forms),
	cmocka_unit_test(duration_rejections),  cmocka_unit_test(duration_before_now),
	cmocka_unit_test(format_round_trip),
};

LT_TEST_MAIN(NULL, NULL)
