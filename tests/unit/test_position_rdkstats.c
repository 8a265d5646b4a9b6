/* test_position_rdkstats.c — positions from librdkafka's statistics JSON (position/rdkstats.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "position/rdkstats.h"
#include "../lib/cmocka_main.h"

/* Trimmed from a real consumer's statistics (librdkafka STATISTICS.md's example has the same shape). */
#define DOC(client, time, app0, committed0)                                                                            \
	"{\"name\":\"" client "#consumer-1\",\"client_id\":\"" client "\",\"type\":\"consumer\","                      \
	"\"ts\":5016483227792,\"time\":" #time ",\"age\":5000,\"brokers\":{},"                                         \
	"\"topics\":{\"orders\":{\"topic\":\"orders\",\"age\":5,\"partitions\":{"                                      \
	"\"0\":{\"partition\":0,\"broker\":1,\"desired\":true,\"fetch_state\":\"active\","                             \
	"\"next_offset\":" #app0 "0,\"app_offset\":" #app0 ",\"stored_offset\":" #app0                                 \
	",\"committed_offset\":" #committed0 ","                                                                       \
	"\"lo_offset\":0,\"hi_offset\":9999,\"consumer_lag\":1},"                                                      \
	"\"1\":{\"partition\":1,\"desired\":false,\"app_offset\":77,\"committed_offset\":70},"                         \
	"\"2\":{\"partition\":2,\"desired\":true,\"app_offset\":-1001,\"committed_offset\":-1001},"                    \
	"\"-1\":{\"partition\":-1,\"app_offset\":-1001}}}},"                                                           \
	"\"cgrp\":{\"state\":\"up\",\"join_state\":\"steady\",\"assignment_size\":2}}"

/* The reports read from docs, which must hold units documents, bad of them not usable, giving n reports. */
static void extract(const char *docs, lt_pos_reports *r, size_t units, size_t bad, size_t n)
{
	pos_reports_init(r);
	rdkstats_extract_positions(docs, strlen(docs), r);
	assert_int_equal(r->n_units, units);
	assert_int_equal(r->n_bad, bad);
	assert_int_equal(r->n, n);
}

static void one_consumer(void **state)
{
	(void)state;
	static const char doc[] = DOC("svc-a", 1700000000, 500, 480);
	lt_pos_reports r;
	extract(doc, &r, 1, 0, 1);
	assert_int_equal(r.n_matched, 2); /* 0 and 2: 1 is no longer desired, -1 is internal */
	assert_int_equal(r.n_no_value, 1);
	assert_string_equal(r.v[0].client_id, "svc-a");
	assert_string_equal(r.v[0].topic, "orders");
	assert_int_equal(r.v[0].partition, 0);
	assert_int_equal(r.v[0].kind, LT_POSK_POSITION);
	assert_int_equal(r.v[0].value, 500); /* app_offset, not next_offset (5000) */
	assert_int_equal(r.v[0].committed, 480);
	assert_int_equal(r.v[0].ts_ms, 1700000000000LL);
	pos_reports_free(&r);
}

static void appended_documents_newest_wins(void **state)
{
	(void)state;
	/* a file the application appends to, one document per line, two clients, the newest not last */
	static const char docs[] = DOC("svc-a", 1700000010, 600, 590) "\n" DOC("svc-b", 1700000005, 7, 7) "\r\n" DOC(
		"svc-a", 1700000000, 500, 480) "\n\n";
	lt_pos_reports r;
	extract(docs, &r, 3, 0, 2);
	const lt_pos_report *p = pos_reports_find(&r, "svc-a", "orders", 0);
	assert_non_null(p);
	assert_int_equal(p->value, 600);
	assert_int_equal(p->committed, 590);
	p = pos_reports_find(&r, "svc-b", "orders", 0);
	assert_non_null(p);
	assert_int_equal(p->value, 7);
	pos_reports_free(&r);
}

static void a_partial_last_document_keeps_the_others(void **state)
{
	(void)state;
	static const char docs[] = DOC("svc-a", 1700000000, 500, 480) "\n{\"client_id\":\"svc-a\",\"topi";
	lt_pos_reports r;
	extract(docs, &r, 2, 1, 1);
	assert_non_null(strstr(r.first_error, "document 2: not JSON (line 1, column "));
	pos_reports_free(&r);
}

static void what_is_not_a_consumer_statistics(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		size_t bad, unlabelled;
		const char *error;
	} cases[] = {
		{ "<html>503 Service Unavailable</html>", 1, 0, "document 1: not JSON" },
		{ "[1,2,3]", 1, 0, "document 1: not a JSON object" },
		{ "{\"hello\":\"world\"}", 1, 0, "document 1: no client_id or topics: not librdkafka statistics" },
		{ "{\"client_id\":\"p\",\"type\":\"producer\",\"topics\":{\"t\":{\"partitions\":{\"0\":"
		  "{\"partition\":0,\"app_offset\":5}}}}}",
		  0, 0, "" },
		{ "{\"client_id\":\"\",\"type\":\"consumer\",\"topics\":{}}", 0, 1, "" },
		{ "{\"client_id\":\"a\\u0000b\",\"topics\":{}}", 1, 0, "document 1: not JSON" },
		{ "", 0, 0, "" },
		{ "{\"client_id\":\"c\",\"topics\":{\"t\":{\"partitions\":{\"0\":{\"partition\":99999999999,"
		  "\"app_offset\":5},\"1\":{\"partition\":\"1\",\"app_offset\":5},\"2\":{\"partition\":2,"
		  "\"app_offset\":\"5\"},\"3\":[]}},\"u\":7,\"\":{\"partitions\":{}}}}",
		  0, 0, "" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		lt_pos_reports r;
		pos_reports_init(&r);
		rdkstats_extract_positions(cases[i].text, strlen(cases[i].text), &r);
		assert_int_equal(r.n, 0);
		assert_int_equal(r.n_bad, cases[i].bad);
		assert_int_equal(r.n_unlabelled, cases[i].unlabelled);
		assert_memory_equal(r.first_error, cases[i].error, strlen(cases[i].error));
		pos_reports_free(&r);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(one_consumer),
	cmocka_unit_test(appended_documents_newest_wins),
	cmocka_unit_test(a_partial_last_document_keeps_the_others),
	cmocka_unit_test(what_is_not_a_consumer_statistics),
};

LT_TEST_MAIN(NULL, NULL)
