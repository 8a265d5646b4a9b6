/* test_util_json.c — the JSON writer: structure, escaping, numbers, errors (util/json). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "../lib/cmocka_main.h"

static void nested_structure_and_commas(void **state)
{
	(void)state;
	lt_json j;
	json_init_buf(&j);
	json_object_begin(&j);
	json_key(&j, "groups");
	json_array_begin(&j);
	json_object_begin(&j);
	json_kv_string(&j, "group", "g");
	json_kv_int(&j, "members", 2);
	json_kv_int_or_null(&j, "committed", -1, false);
	json_kv_int_or_null(&j, "lag", 50, true);
	json_kv_bool(&j, "stale", false);
	json_kv_null(&j, "error");
	json_object_end(&j);
	json_object_begin(&j);
	json_object_end(&j);
	json_array_end(&j);
	json_key(&j, "empty");
	json_array_begin(&j);
	json_array_end(&j);
	json_object_end(&j);
	assert_int_equal(json_finish(&j), 0);
	assert_string_equal(json_buf(&j, NULL), "{\"groups\":[{\"group\":\"g\",\"members\":2,\"committed\":null,"
						"\"lag\":50,\"stale\":false,\"error\":null},{}],\"empty\":[]}");
	json_free(&j);
}

static void pretty_output_is_indented(void **state)
{
	(void)state;
	lt_json j;
	json_init_buf(&j);
	json_set_pretty(&j, true);
	json_object_begin(&j);
	json_kv_int(&j, "a", 1);
	json_key(&j, "b");
	json_array_begin(&j);
	json_int(&j, 2);
	json_array_end(&j);
	json_object_end(&j);
	assert_int_equal(json_finish(&j), 0);
	assert_string_equal(json_buf(&j, NULL), "{\n  \"a\": 1,\n  \"b\": [\n    2\n  ]\n}");
	json_free(&j);
}

static char *one_string(const char *s, size_t n)
{
	lt_json j;
	json_init_buf(&j);
	json_string_n(&j, s, n);
	assert_int_equal(json_finish(&j), 0);
	return json_buf_take(&j, NULL);
}

static void strings_are_fully_escaped(void **state)
{
	(void)state;
	static const struct {
		const char *in;
		size_t n;
		const char *out;
	} cases[] = {
		{ "plain", 5, "\"plain\"" },
		{ "q\"b\\", 4, "\"q\\\"b\\\\\"" },
		{ "\n\t\x1b\x7f", 4, "\"\\u000a\\u0009\\u001b\\u007f\"" },
		{ "nul\0x", 5, "\"nul\\u0000x\"" },
		{ "c1\xc2\x85", 4, "\"c1\\u0085\"" },
		{ "ls\xe2\x80\xa8", 5, "\"ls\\u2028\"" },
		/* bidi controls: escaped too (the same string to a JSON reader, never raw on a terminal) */
		{ "rlo\xe2\x80\xae", 6, "\"rlo\\u202e\"" },
		{ "\xe2\x81\xa6"
		  "i",
		  4, "\"\\u2066i\"" },
		{ "\xe2\x80\x8f"
		  "m",
		  4, "\"\\u200fm\"" },
		{ "\xd8\x9c"
		  "a",
		  3, "\"\\u061ca\"" },
		{ "caf\xc3\xa9 \xf0\x9f\x98\x80", 10, "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"" },
		{ "bad\xff", 4, "\"bad\xef\xbf\xbd\"" },
		{ "\xc0\xaf", 2, "\"\xef\xbf\xbd\xef\xbf\xbd\"" },                 /* overlong: two bad bytes */
		{ "\xed\xa0\x80", 3, "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"" }, /* surrogate */
		{ "/", 1, "\"/\"" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *got = one_string(cases[i].in, cases[i].n);
		assert_string_equal(got, cases[i].out);
		free(got);
	}
	lt_json j;
	json_init_buf(&j);
	json_string(&j, NULL);
	assert_string_equal(json_buf(&j, NULL), "null");
	json_free(&j);
}

static char *one_number(double v)
{
	lt_json j;
	json_init_buf(&j);
	json_double(&j, v);
	return json_buf_take(&j, NULL);
}

static void numbers_are_exact_and_finite(void **state)
{
	(void)state;
	lt_json j;
	json_init_buf(&j);
	json_array_begin(&j);
	json_int(&j, INT64_MIN);
	json_int(&j, INT64_MAX);
	json_uint(&j, UINT64_MAX);
	json_array_end(&j);
	assert_string_equal(json_buf(&j, NULL), "[-9223372036854775808,9223372036854775807,18446744073709551615]");
	json_free(&j);

	const double vals[] = { 0.0, 1.5, -2.25, 0.1, 1e300, 123456789.125, 1.0 / 3.0 };
	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
		char *s = one_number(vals[i]);
		assert_true(strtod(s, NULL) == vals[i]);
		free(s);
	}
	char *s = one_number(0.1);
	assert_string_equal(s, "0.1");
	free(s);
	s = one_number(NAN);
	assert_string_equal(s, "null");
	free(s);
	s = one_number(INFINITY);
	assert_string_equal(s, "null");
	free(s);
	s = one_number(-INFINITY);
	assert_string_equal(s, "null");
	free(s);
}

static void numbers_ignore_the_locale(void **state)
{
	(void)state;
	/* a locale with a decimal comma where the machine has one (otherwise this checks the C locale:
	 * cmocka's skip() reads as a failure under the TAP driver) */
	if (!setlocale(LC_NUMERIC, "de_DE.UTF-8") && !setlocale(LC_NUMERIC, "fr_FR.UTF-8"))
		setlocale(LC_NUMERIC, "de_DE");
	char *s = one_number(1.5);
	setlocale(LC_NUMERIC, "C");
	assert_string_equal(s, "1.5");
	free(s);
}

static void misuse_is_reported(void **state)
{
	(void)state;
	lt_json j;
	json_init_buf(&j); /* unclosed */
	json_object_begin(&j);
	assert_int_equal(json_finish(&j), -1);
	json_free(&j);

	json_init_buf(&j); /* value without key in an object */
	json_object_begin(&j);
	json_int(&j, 1);
	json_object_end(&j);
	assert_int_equal(json_finish(&j), -1);
	json_free(&j);

	json_init_buf(&j); /* key in an array */
	json_array_begin(&j);
	json_key(&j, "k");
	json_int(&j, 1);
	json_array_end(&j);
	assert_int_equal(json_finish(&j), -1);
	json_free(&j);

	json_init_buf(&j); /* mismatched close */
	json_array_begin(&j);
	json_object_end(&j);
	assert_int_equal(json_finish(&j), -1);
	json_free(&j);

	json_init_buf(&j); /* two top-level values */
	json_int(&j, 1);
	json_int(&j, 2);
	assert_int_equal(json_finish(&j), -1);
	json_free(&j);
}

static void deep_nesting_is_bounded(void **state)
{
	(void)state;
	lt_json j;
	json_init_buf(&j);
	for (int i = 0; i < LT_JSON_MAX_DEPTH + 5; i++)
		json_array_begin(&j);
	for (int i = 0; i < LT_JSON_MAX_DEPTH + 5; i++)
		json_array_end(&j);
	assert_int_equal(json_finish(&j), -1);
	json_free(&j);
}

static void writes_to_a_file(void **state)
{
	(void)state;
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	assert_non_null(fp);
	lt_json j;
	json_init_file(&j, fp);
	json_object_begin(&j);
	json_kv_string(&j, "k", "v\x01");
	json_kv_double(&j, "r", 2.5);
	json_object_end(&j);
	assert_int_equal(json_finish(&j), 0);
	fclose(fp);
	assert_string_equal(text, "{\"k\":\"v\\u0001\",\"r\":2.5}\n");
	free(text);

	/* a write error surfaces in json_finish */
	FILE *full = fopen("/dev/full", "w");
	assert_non_null(full);
	json_init_file(&j, full);
	json_array_begin(&j);
	for (int i = 0; i < 10000; i++)
		json_string(&j, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	json_array_end(&j);
	assert_int_equal(json_finish(&j), -1);
	fclose(full);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(nested_structure_and_commas), cmocka_unit_test(pretty_output_is_indented),
	cmocka_unit_test(strings_are_fully_escaped),   cmocka_unit_test(numbers_are_exact_and_finite),
	cmocka_unit_test(numbers_ignore_the_locale),   cmocka_unit_test(misuse_is_reported),
	cmocka_unit_test(deep_nesting_is_bounded),     cmocka_unit_test(writes_to_a_file),
};

LT_TEST_MAIN(NULL, NULL)
