/* test_util_prom.c — the Prometheus text format writer (util/prom): escaping, unknown values left out,
 * sorting, one HELP/TYPE per metric, no duplicate series, exact numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/prom.h"
#include "../lib/cmocka_main.h"

static char *render(lt_prom *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(prom_write(p, f), 0);
	fclose(f);
	return buf;
}

static void escaping(void **state)
{
	(void)state;
	static const struct {
		const char *in, *label, *help;
	} cases[] = {
		{ "plain", "plain", "plain" },
		{ "back\\slash", "back\\\\slash", "back\\\\slash" },
		{ "say \"hi\"", "say \\\"hi\\\"", "say \"hi\"" },
		/* a newline is a control: its terminal-safe text \x0a, whose backslash is the format's \\ */
		{ "two\nlines", "two\\\\x0alines", "two\\\\x0alines" },
		{ "\\\"\n", "\\\\\\\"\\\\x0a", "\\\\\"\\\\x0a" },
		{ "caf\xC3\xA9", "caf\xC3\xA9", "caf\xC3\xA9" }, /* UTF-8 stays */
		{ "bad\xFFz", "bad\\\\xffz", "bad\\\\xffz" },    /* not UTF-8: the byte, escaped */
		/* OSC 52 (clipboard), BEL, CR, a C1 CSI, a bidi override, a line separator: never raw */
		{ "o\x1b]52;c;eA==\x07", "o\\\\x1b]52;c;eA==\\\\x07", "o\\\\x1b]52;c;eA==\\\\x07" },
		{ "cr\r", "cr\\\\x0d", "cr\\\\x0d" },
		{ "c1\xC2\x9B"
		  "31m",
		  "c1\\\\u009b31m", "c1\\\\u009b31m" },
		{ "\xE2\x80\xAE"
		  "exe",
		  "\\\\u202eexe", "\\\\u202eexe" },
		{ "a\xE2\x80\xA8"
		  "b",
		  "a\\\\u2028b", "a\\\\u2028b" },
		{ "", "", "" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *l = prom_escape_label_value(cases[i].in), *h = prom_escape_help(cases[i].in);
		assert_string_equal(l, cases[i].label);
		assert_string_equal(h, cases[i].help);
		free(l);
		free(h);
	}
}

static void one_series_line_per_sample_with_escaped_labels(void **state)
{
	(void)state;
	lt_prom *p = prom_new();
	prom_gauge(p, "m_lag", "Lag, messages \\ end");
	const char *names[] = { "group", "topic" };
	const char *values[] = { "g\"1\\\n", NULL };
	prom_int(p, "m_lag", names, values, 2, 42);
	char *out = render(p);
	assert_string_equal(out, "# HELP m_lag Lag, messages \\\\ end\n"
				 "# TYPE m_lag gauge\n"
				 "m_lag{group=\"g\\\"1\\\\\\\\x0a\",topic=\"\"} 42\n");
	free(out);
	prom_free(p);
}

static void unknown_values_are_left_out(void **state)
{
	(void)state;
	lt_prom *p = prom_new();
	prom_gauge(p, "m_rate", "rate");
	prom_gauge(p, "m_never", "declared, no sample: no HELP either");
	const char *names[] = { "p" };
	const char *v0[] = { "0" }, *v1[] = { "1" }, *v2[] = { "2" }, *v3[] = { "3" };
	prom_double(p, "m_rate", names, v0, 1, NAN);
	prom_double(p, "m_rate", names, v1, 1, INFINITY);
	prom_double(p, "m_rate", names, v2, 1, -INFINITY);
	prom_double(p, "m_rate", names, v3, 1, 0.1);
	char *out = render(p);
	assert_string_equal(out, "# HELP m_rate rate\n# TYPE m_rate gauge\nm_rate{p=\"3\"} 0.1\n");
	assert_null(strstr(out, "NaN"));
	assert_null(strstr(out, "m_never"));
	free(out);
	prom_free(p);
	/* nothing at all: an empty file, which the textfile collector reads as no metrics */
	p = prom_new();
	prom_gauge(p, "m_rate", "rate");
	out = render(p);
	assert_string_equal(out, "");
	free(out);
	prom_free(p);
}

static void sorted_grouped_and_deduplicated(void **state)
{
	(void)state;
	lt_prom *p = prom_new();
	prom_gauge(p, "z_last", "z");
	prom_gauge(p, "a_first", "a");
	const char *names[] = { "topic", "partition" };
	/* added out of order, interleaved across metrics, with a duplicate series (value 99 must lose) */
	const char *t10[] = { "t", "10" }, *t2[] = { "t", "2" }, *s0[] = { "s", "0" }, *t02[] = { "t", "02" };
	prom_int(p, "z_last", names, t10, 2, 10);
	prom_int(p, "a_first", names, t2, 2, 1);
	prom_int(p, "z_last", names, t2, 2, 2);
	prom_int(p, "z_last", names, s0, 2, 0);
	prom_int(p, "z_last", names, t2, 2, 99);
	prom_int(p, "a_first", names, t10, 2, 3);
	prom_int(p, "z_last", names, t02, 2, 7); /* "02" sorts with 2 but is another series */
	char *out = render(p);
	assert_string_equal(out, "# HELP a_first a\n# TYPE a_first gauge\n"
				 "a_first{topic=\"t\",partition=\"2\"} 1\n"
				 "a_first{topic=\"t\",partition=\"10\"} 3\n"
				 "# HELP z_last z\n# TYPE z_last gauge\n"
				 "z_last{topic=\"s\",partition=\"0\"} 0\n"
				 "z_last{topic=\"t\",partition=\"02\"} 7\n"
				 "z_last{topic=\"t\",partition=\"2\"} 2\n"
				 "z_last{topic=\"t\",partition=\"10\"} 10\n");
	free(out);
	prom_free(p);
}

static void exact_numbers(void **state)
{
	(void)state;
	lt_prom *p = prom_new();
	prom_gauge(p, "s", "seconds");
	prom_gauge(p, "i", "ints");
	prom_gauge(p, "d", "doubles");
	const char *n[] = { "k" };
	const char *k[] = { "a" }, *k2[] = { "b" }, *k3[] = { "c" }, *k4[] = { "d" }, *k5[] = { "e" };
	prom_ms_as_seconds(p, "s", n, k, 1, 1500);
	prom_ms_as_seconds(p, "s", n, k2, 1, 3000);
	prom_ms_as_seconds(p, "s", n, k3, 1, -250);
	prom_ms_as_seconds(p, "s", n, k4, 1, 1764547200123);
	prom_ms_as_seconds(p, "s", n, k5, 1, 7);
	prom_int(p, "i", n, k, 1, INT64_MAX);
	prom_int(p, "i", n, k2, 1, -1);
	prom_double(p, "d", n, k, 1, 1.0 / 3.0);
	prom_double(p, "d", n, k2, 1, 12.5);
	char *out = render(p);
	assert_string_equal(out, "# HELP d doubles\n# TYPE d gauge\n"
				 "d{k=\"a\"} 0.33333333333333331\n"
				 "d{k=\"b\"} 12.5\n"
				 "# HELP i ints\n# TYPE i gauge\n"
				 "i{k=\"a\"} 9223372036854775807\n"
				 "i{k=\"b\"} -1\n"
				 "# HELP s seconds\n# TYPE s gauge\n"
				 "s{k=\"a\"} 1.5\n"
				 "s{k=\"b\"} 3\n"
				 "s{k=\"c\"} -0.25\n"
				 "s{k=\"d\"} 1764547200.123\n"
				 "s{k=\"e\"} 0.007\n");
	free(out);
	prom_free(p);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(escaping),
	cmocka_unit_test(one_series_line_per_sample_with_escaped_labels),
	cmocka_unit_test(unknown_values_are_left_out),
	cmocka_unit_test(sorted_grouped_and_deduplicated),
	cmocka_unit_test(exact_numbers),
};

LT_TEST_MAIN(NULL, NULL)
