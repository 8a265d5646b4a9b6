/* test_position_prom.c — Prometheus' text format and the positions in it (position/prom.h, report.h). */
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

#include "position/prom.h"
#include "position/report.h"
#include "../lib/cmocka_main.h"

static char scratch[4096];

static int parse(const char *line, lt_prom_sample *s, const char **why)
{
	*why = NULL;
	return prom_parse_line(line, strlen(line), s, scratch, why);
}

static void assert_text(lt_prom_text t, const char *want)
{
	assert_int_equal(t.len, strlen(want));
	assert_memory_equal(t.s, want, t.len);
}

static void a_sample_with_labels_escapes_and_a_timestamp(void **state)
{
	(void)state;
	lt_prom_sample s;
	const char *why;
	assert_int_equal(parse("m_1:x{a=\"x\\\\y\",b = \"q\\\"\\n\" , c=\"\",} -3.5e2 1700000000123\r", &s, &why), 1);
	assert_text(s.name, "m_1:x");
	assert_int_equal(s.n_labels, 3);
	assert_text(s.labels[0].name, "a");
	assert_text(s.labels[0].value, "x\\y");
	assert_text(s.labels[1].name, "b");
	assert_text(s.labels[1].value, "q\"\n");
	assert_text(s.labels[2].value, "");
	assert_true(s.value == -350.0);
	assert_true(s.has_ts);
	assert_int_equal(s.ts_ms, 1700000000123LL);

	assert_int_equal(parse("\tup  1", &s, &why), 1); /* no labels, blanks and tabs, no timestamp */
	assert_text(s.name, "up");
	assert_int_equal(s.n_labels, 0);
	assert_false(s.has_ts);
	assert_int_equal(parse("x{} 2 -5", &s, &why), 1); /* empty braces; negative timestamp */
	assert_int_equal(s.ts_ms, -5);
	assert_int_equal(parse("x{a=\"{},=#\"} 2 # {trace_id=\"1\"} 1", &s, &why), 1); /* exemplar ignored */
	assert_text(s.labels[0].value, "{},=#");
}

static void comments_and_blank_lines_are_not_samples(void **state)
{
	(void)state;
	lt_prom_sample s;
	const char *why;
	assert_int_equal(parse("", &s, &why), 0);
	assert_int_equal(parse("   \t\r", &s, &why), 0);
	assert_int_equal(parse("# HELP x The \\\\ help\\n text", &s, &why), 0);
	assert_int_equal(parse("# TYPE x gauge", &s, &why), 0);
	assert_int_equal(parse("#anything at all {", &s, &why), 0);
	assert_int_equal(parse("  # indented comment", &s, &why), 0);
}

static void special_values(void **state)
{
	(void)state;
	lt_prom_sample s;
	const char *why;
	assert_int_equal(parse("x NaN", &s, &why), 1);
	assert_true(isnan(s.value));
	assert_int_equal(parse("x +Inf", &s, &why), 1);
	assert_true(isinf(s.value) && s.value > 0);
	assert_int_equal(parse("x -Inf", &s, &why), 1);
	assert_true(isinf(s.value) && s.value < 0);
	double v;
	assert_true(prom_parse_float("1.5E3", 5, &v) && v == 1500.0);
	assert_true(prom_parse_float(".5", 2, &v) && v == 0.5);
	assert_true(prom_parse_float("-0", 2, &v) && v == 0.0);
	assert_false(prom_parse_float("0x10", 4, &v)); /* not the format's */
	assert_false(prom_parse_float("1,5", 3, &v));
	assert_false(prom_parse_float("nan(1)", 6, &v));
	assert_false(prom_parse_float("", 0, &v));
	assert_false(prom_parse_float("e5", 2, &v));
	assert_false(prom_parse_float("1e", 2, &v));
	assert_false(prom_parse_float("--1", 3, &v));
	/* a decimal-comma locale where the machine has one: the format's '.' still reads */
	if (!setlocale(LC_NUMERIC, "de_DE.UTF-8") && !setlocale(LC_NUMERIC, "fr_FR.UTF-8"))
		setlocale(LC_NUMERIC, "de_DE");
	bool ok = prom_parse_float("2.25", 4, &v);
	setlocale(LC_NUMERIC, "C");
	assert_true(ok && v == 2.25);
}

static void bad_lines_say_what_is_wrong(void **state)
{
	(void)state;
	static const struct {
		const char *line, *why;
	} cases[] = {
		{ "x{a=\"1\",a=\"2\"} 1", "a label given twice" },
		{ "x{a=\"\\t\"} 1", "an invalid escape in a label value (only \\\\, \\\" and \\n)" },
		{ "x{a=\"1} 1", "an unterminated label value" },
		{ "x{a=1} 1", "a label value not in double quotes" },
		{ "x{a\"1\"} 1", "no '=' after a label name" },
		{ "x{a=\"1\" b=\"2\"} 1", "no ',' or '}' after a label value" },
		{ "x{1a=\"1\"} 1", "not a label name" },
		{ "x{a:b=\"1\"} 1", "no '=' after a label name" },
		{ "x", "no value" },
		{ "x{a=\"1\"}", "no value" },
		{ "x{a=\"1\"}1", "no blank between the name and the value" },
		{ "x one", "a value that is not a number" },
		{ "x 1 2.5", "a timestamp that is not an integer" },
		{ "x 1 99999999999999999999", "a timestamp that is not an integer" },
		{ "x 1 2 3", "text after the timestamp" },
		{ "9x 1", "not a metric name" },
		{ "<html><body>Not found</body></html>", "not a metric name" },
	};
	lt_prom_sample s;
	const char *why;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(parse(cases[i].line, &s, &why), -1);
		assert_string_equal(why, cases[i].why);
	}
	assert_int_equal(prom_parse_line("x 1\0", 4, &s, scratch, &why), -1);
	assert_string_equal(why, "a NUL byte");
	char many[2048] = "x{";
	for (int i = 0; i <= LT_PROM_MAX_LABELS; i++)
		sprintf(many + strlen(many), "l%d=\"v\",", i);
	strcat(many, "} 1");
	assert_int_equal(parse(many, &s, &why), -1);
	assert_string_equal(why, "too many labels");
}

/* What Micrometer (Spring Boot) serves for two consumers, with the noise around it. */
static const char micrometer_page[] =
	"# HELP kafka_consumer_fetch_manager_records_lag The latest lag of the partition\n"
	"# TYPE kafka_consumer_fetch_manager_records_lag gauge\n"
	"kafka_consumer_fetch_manager_records_lag{client_id=\"app-1\",kafka_version=\"3.9.0\",partition=\"0\","
	"spring_id=\"c\",topic=\"orders\",} 12.0\n"
	"kafka_consumer_fetch_manager_records_lag{client_id=\"app-1\",kafka_version=\"3.9.0\",partition=\"1\","
	"spring_id=\"c\",topic=\"orders\",} NaN\n"
	"# TYPE kafka_consumer_fetch_manager_records_lead gauge\r\n"
	"kafka_consumer_fetch_manager_records_lead{client_id=\"app-1\",partition=\"0\",topic=\"orders\"} 988.0\r\n"
	"kafka_consumer_fetch_manager_records_lead{client_id=\"app-2\",partition=\"3\",topic=\"pay\\\"ments\"} 5e1\n"
	"\n"
	"kafka_consumer_fetch_manager_records_lag_max{client_id=\"app-1\"} 40.0\n"
	"jvm_memory_used_bytes{area=\"heap\",id=\"G1 Eden Space\",} 1.2345678E7\n"
	"kafka_consumer_fetch_manager_records_lag{client_id=\"app-3\",topic=\"orders\"} 1\n"
	"kafka_consumer_fetch_manager_records_lag{client_id=\"app-3\",topic=\"orders\",partition=\"x\"} 1\n"
	"this line is garbage\n"
	"kafka_consumer_fetch_manager_records_lag{client_id=\"app-2\",partition=\"3\",topic=\"pay\\\"ments\"} 7 1000\n"
	"kafka_consumer_fetch_manager_records_lag{client_id=\"app-2\",partition=\"3\",topic=\"pay\\\"ments\"} 9 900\n"
	"kafka_consumer_fetch_manager_records_lead{client_id=\"app-2\",partition=\"4\",topic=\"pay\\\"ments\"} 1\n"
	"kafka_consumer_fetch_manager_records_lead{client_id=\"app-2\",partition=\"4\",topic=\"pay\\\"ments\"} 2";

static void positions_from_a_micrometer_page(void **state)
{
	(void)state;
	lt_pos_reports r;
	pos_reports_init(&r);
	prom_extract_positions(micrometer_page, strlen(micrometer_page), &prom_names_builtin, &r);
	assert_int_equal(r.n_units, 17);
	assert_int_equal(r.n_bad, 1);
	assert_string_equal(r.first_error, "line 13: a value that is not a number");
	assert_int_equal(r.n_matched, 10); /* _lag_max is another metric */
	assert_int_equal(r.n_no_value, 1);
	assert_int_equal(r.n_unlabelled, 2);
	assert_string_equal(r.missing_label, "partition");
	assert_int_equal(r.n, 5); /* app-1 orders-0 lead + lag, app-2 payments-3 lead + lag, -4 lead */

	const lt_pos_report *p = pos_reports_find(&r, "app-1", "orders", 0);
	assert_non_null(p);
	assert_int_equal(p->kind, LT_POSK_LEAD); /* preferred over the lag */
	assert_int_equal(p->value, 988);
	assert_int_equal(p->ts_ms, -1);
	assert_int_equal(p->committed, -1);
	assert_int_equal(p[1].kind, LT_POSK_LAG);                /* the lag is kept too, after it */
	assert_null(pos_reports_find(&r, "app-1", "orders", 1)); /* NaN */
	assert_null(pos_reports_find(&r, "app-1", "orders", 2));
	assert_null(pos_reports_find(&r, "app-1", "pay\"ments", 3));
	p = pos_reports_find(&r, "app-2", "pay\"ments", 3);
	assert_non_null(p);
	assert_int_equal(p->value, 50);
	assert_int_equal(p[1].kind, LT_POSK_LAG);
	assert_int_equal(p[1].value, 7); /* the newer timestamp, though it came first */
	assert_int_equal(p[1].ts_ms, 1000);
	p = pos_reports_find(&r, "app-2", "pay\"ments", 4);
	assert_int_equal(p->value, 2); /* the same series twice without timestamps: the last */
	pos_reports_free(&r);
}

static void names_and_labels_can_be_configured(void **state)
{
	(void)state;
	static const char page[] =
		"app_position{consumer=\"c-1\",t=\"x\",p=\"2\"} 42\n"
		"kafka_consumer_fetch_manager_records_lead{client_id=\"c-1\",topic=\"x\",partition=\"2\"} 1\n";
	lt_prom_names names = {
		.position = { "app_position" }, .client_label = "consumer", .topic_label = "t", .partition_label = "p"
	};
	lt_pos_reports r;
	pos_reports_init(&r);
	prom_extract_positions(page, strlen(page), &names, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].kind, LT_POSK_POSITION);
	assert_int_equal(r.v[0].value, 42);
	assert_int_equal(r.n_matched, 1);
	pos_reports_free(&r);

	/* the built-in names with the wrong labels: matched, but all unlabelled */
	pos_reports_init(&r);
	prom_extract_positions(page, strlen(page) - 1,
			       &(lt_prom_names){ .lead = { "kafka_consumer_fetch_manager_records_lead" },
						 .client_label = "client",
						 .topic_label = "topic",
						 .partition_label = "partition" },
			       &r);
	assert_int_equal(r.n, 0);
	assert_int_equal(r.n_matched, 1);
	assert_int_equal(r.n_unlabelled, 1);
	assert_string_equal(r.missing_label, "client");
	assert_int_equal(r.n_units, 2);
	pos_reports_free(&r);
}

static void jmx_exporter_names_without_rules(void **state)
{
	(void)state;
	static const char page[] =
		"# HELP kafka_consumer_consumer_fetch_manager_metrics_records_lead The latest lead of the partition "
		"kafka.consumer:name=null,type=consumer-fetch-manager-metrics,attribute=records-lead\n"
		"# TYPE kafka_consumer_consumer_fetch_manager_metrics_records_lead untyped\n"
		"kafka_consumer_consumer_fetch_manager_metrics_records_lead{client_id=\"consumer-g-1\",partition=\"0\","
		"topic=\"t\",} 17.0\n";
	lt_pos_reports r;
	pos_reports_init(&r);
	prom_extract_positions(page, strlen(page), &prom_names_builtin, &r);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.v[0].client_id, "consumer-g-1");
	assert_int_equal(r.v[0].value, 17);
	assert_int_equal(r.n_bad, 0);
	pos_reports_free(&r);
}

static void reports_become_positions(void **state)
{
	(void)state;
	int64_t pos = -7;
	lt_pos_report rep = { .kind = LT_POSK_LEAD, .value = 30 };
	assert_true(pos_report_position(&rep, 100, 500, &pos));
	assert_int_equal(pos, 130);
	assert_false(pos_report_position(&rep, -1, 500, &pos)); /* log start unknown */
	rep.kind = LT_POSK_LAG;
	assert_true(pos_report_position(&rep, -1, 500, &pos));
	assert_int_equal(pos, 470);
	assert_false(pos_report_position(&rep, 100, -1, &pos));
	rep.value = 501; /* a lag beyond the log end: not a position */
	assert_false(pos_report_position(&rep, 0, 500, &pos));
	rep.kind = LT_POSK_POSITION;
	rep.value = 12;
	assert_true(pos_report_position(&rep, -1, -1, &pos));
	assert_int_equal(pos, 12);
	rep.kind = LT_POSK_LEAD;
	rep.value = INT64_MAX;
	assert_false(pos_report_position(&rep, 1, -1, &pos));

	int64_t o;
	assert_true(pos_value_to_offset(12.4, &o) && o == 12);
	assert_true(pos_value_to_offset(-3.0, &o) && o == -3);
	assert_false(pos_value_to_offset(NAN, &o));
	assert_false(pos_value_to_offset(INFINITY, &o));
	assert_false(pos_value_to_offset(9.3e18, &o));
	assert_true(pos_value_to_offset(9.2e18, &o) && o == 9200000000000000000LL);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(a_sample_with_labels_escapes_and_a_timestamp),
	cmocka_unit_test(comments_and_blank_lines_are_not_samples),
	cmocka_unit_test(special_values),
	cmocka_unit_test(bad_lines_say_what_is_wrong),
	cmocka_unit_test(positions_from_a_micrometer_page),
	cmocka_unit_test(names_and_labels_can_be_configured),
	cmocka_unit_test(jmx_exporter_names_without_rules),
	cmocka_unit_test(reports_become_positions),
};

LT_TEST_MAIN(NULL, NULL)
