/* test_peek.c — the record at an offset as terminal-safe lines (src/model/peek.c: every byte of a hostile key,
 * header and value through the one sanitising rule, the value cut at its cap with its size, a line for each
 * reason there is no record), the record-timestamp cache (src/model/record_ts.c: each offset wanted once, read
 * once, a failure retried later, unused entries forgotten when full) and the time lag it makes exact
 * (model_enrich wants the record, model_apply_record_ts turns the estimate into now minus its timestamp). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/peek.h"
#include "model/record_ts.h"
#include "../lib/cmocka_main.h"

struct lines {
	char text[64][512];
	size_t n;
};

static void collect(void *arg, const char *line)
{
	struct lines *l = arg;
	if (l->n < 64)
		snprintf(l->text[l->n++], sizeof l->text[0], "%s", line);
}

/* No raw control byte, DEL, C1 control, bidi control or invalid UTF-8 in s. */
static void assert_terminal_safe(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		assert_false(*p < 0x20 || *p == 0x7f);
		if (p[0] == 0xc2)
			assert_false(p[1] >= 0x80 && p[1] < 0xa0); /* C1 */
		if (p[0] == 0xe2 && p[1] == 0x80)
			assert_false(p[2] >= 0xaa && p[2] <= 0xae); /* U+202A..E */
		assert_false(*p == 0xff || *p == 0xfe);
	}
}

static const char *find_line(const struct lines *l, const char *prefix)
{
	for (size_t i = 0; i < l->n; i++)
		if (strncmp(l->text[i], prefix, strlen(prefix)) == 0)
			return l->text[i];
	return NULL;
}

static void hostile_record_is_safe_and_capped(void **state)
{
	(void)state;
	lt_peeked r = { 0 };
	r.status = LT_PEEK_OK;
	r.asked = r.offset = 42;
	r.timestamp_ms = 1700000000123;
	r.ts_type = LT_PEEK_TS_CREATE;
	static const char key[] = "k\x1b[31mred\xe2\x80\xaervs\xff\x00z";
	peek_bytes_set(&r.key, key, sizeof key - 1, LT_PEEK_KEY_MAX);
	peek_add_header(&r, "h\x1b]0;title\x07", "v\xc2\x9b\x0a", 4);
	char value[1000];
	memset(value, 'v', sizeof value);
	value[0] = '\x1b';
	peek_bytes_set(&r.value, value, sizeof value, LT_PEEK_VALUE_MAX);

	for (int utf8 = 0; utf8 <= 1; utf8++) {
		struct lines l = { 0 };
		peek_format(&r, utf8, collect, &l);
		for (size_t i = 0; i < l.n; i++)
			assert_terminal_safe(l.text[i]);
		const char *k = find_line(&l, "key");
		assert_non_null(k);
		assert_non_null(strstr(k, "k\\x1b[31mred\\u202ervs\\xff\\x00z"));
		const char *h = find_line(&l, "header");
		assert_non_null(h);
		assert_non_null(strstr(h, "h\\x1b]0;title\\x07: v\\u009b\\x0a"));
		const char *v = find_line(&l, "value");
		assert_non_null(v);
		assert_non_null(strstr(v, "\\x1bvvv"));
		assert_non_null(strstr(v, "(1000 bytes)")); /* cut at the cap, the whole size said */
		assert_true(strlen(v) < 300);
		assert_non_null(strstr(find_line(&l, "timestamp"), "2023-11-14T22:13:20.123Z (CreateTime)"));
		assert_non_null(strstr(find_line(&l, "size"), "key 18, value 1000, 1 header"));
	}
	peek_clear(&r);
}

static void null_key_and_no_timestamp(void **state)
{
	(void)state;
	lt_peeked r = { 0 };
	r.status = LT_PEEK_OK;
	r.asked = 7;
	r.offset = 9; /* compacted away */
	peek_bytes_set(&r.key, NULL, 0, LT_PEEK_KEY_MAX);
	peek_bytes_set(&r.value, "", 0, LT_PEEK_VALUE_MAX);
	struct lines l = { 0 };
	peek_format(&r, true, collect, &l);
	assert_non_null(strstr(find_line(&l, "key"), "null"));
	assert_non_null(strstr(find_line(&l, "offset"), "9 (asked 7"));
	assert_string_equal(find_line(&l, "timestamp"), "timestamp none");
	peek_clear(&r);
}

static void one_line_per_reason(void **state)
{
	(void)state;
	char buf[256];
	lt_peeked r = { .status = LT_PEEK_DELETED, .asked = 3, .log_start = 120 };
	assert_string_equal(peek_status_line(&r, buf, sizeof buf),
			    "offset 3 was deleted by retention: the log now starts at 120");
	r = (lt_peeked){ .status = LT_PEEK_AT_END, .asked = 50 };
	assert_string_equal(peek_status_line(&r, buf, sizeof buf), "offset 50 is the log end: nothing to read yet");
	r = (lt_peeked){ .status = LT_PEEK_DENIED };
	assert_non_null(strstr(peek_status_line(&r, buf, sizeof buf), "TOPIC_AUTHORIZATION_FAILED"));
	r = (lt_peeked){ .status = LT_PEEK_TIMEOUT };
	assert_string_equal(peek_status_line(&r, buf, sizeof buf), "no record within the timeout");
	r = (lt_peeked){ .status = LT_PEEK_ERROR };
	snprintf(r.error, sizeof r.error, "bad\x1b[2Jthing");
	assert_string_equal(peek_status_line(&r, buf, sizeof buf), "cannot read: bad\\x1b[2Jthing");
	struct lines l = { 0 };
	peek_format(&r, true, collect, &l);
	assert_int_equal(l.n, 1);
}

static void cache_reads_each_offset_once(void **state)
{
	(void)state;
	lt_record_ts *c = record_ts_new(8);
	lt_record_ts_key k[8];
	record_ts_tick(c);
	record_ts_want(c, "t", 0, 5);
	record_ts_want(c, "t", 0, 5); /* a second group on the same offset */
	record_ts_want(c, "t", 1, 5);
	assert_int_equal(record_ts_wanted(c, k, 8), 2);
	assert_string_equal(k[0].topic, "t");
	assert_int_equal(k[0].offset, 5);
	assert_int_equal(record_ts_wanted(c, k, 1), 1); /* bounded by the caller */
	int64_t ts = 0;
	assert_false(record_ts_get(c, "t", 0, 5, &ts));
	record_ts_put(c, "t", 0, 5, true, 1000);
	record_ts_put(c, "t", 1, 5, false, -1);
	assert_true(record_ts_get(c, "t", 0, 5, &ts));
	assert_int_equal(ts, 1000);
	assert_int_equal(record_ts_wanted(c, k, 8), 0); /* read, or waiting after a failure */
	for (int i = 0; i < LT_RECORD_TS_RETRY - 1; i++) {
		record_ts_tick(c);
		record_ts_want(c, "t", 1, 5);
		assert_int_equal(record_ts_wanted(c, k, 8), 0);
	}
	record_ts_tick(c);
	assert_int_equal(record_ts_wanted(c, k, 8), 1); /* the failed one tried again */
	record_ts_free(c);
}

static void cache_forgets_unused_when_full(void **state)
{
	(void)state;
	lt_record_ts *c = record_ts_new(4);
	lt_record_ts_key k[8];
	record_ts_tick(c);
	for (int64_t o = 0; o < 6; o++)
		record_ts_want(c, "t", 0, o);
	assert_int_equal(record_ts_wanted(c, k, 8), 4); /* full at 4 */
	record_ts_tick(c);
	record_ts_tick(c);
	record_ts_want(c, "t", 0, 3); /* still looked at */
	record_ts_tick(c);            /* full: the unused are forgotten */
	record_ts_want(c, "t", 0, 9);
	assert_int_equal(record_ts_wanted(c, k, 8), 2);
	assert_int_equal(k[0].offset, 3);
	assert_int_equal(k[1].offset, 9);
	record_ts_free(c);
}

static lt_snapshot *one_partition(int64_t now, int64_t committed, int64_t log_end)
{
	lt_snapshot *s = snapshot_new();
	s->taken_at_ms = now;
	lt_group *g = snapshot_add_group(s, "g");
	lt_partition *p = group_add_partition(g, "orders", 0);
	p->log_start = 0;
	p->committed = committed;
	p->log_end = log_end;
	snapshot_finish(s);
	return s;
}

static void time_lag_from_the_record_is_exact(void **state)
{
	(void)state;
	lt_history *h = history_new(NULL);
	history_read_records(h);
	lt_record_ts_key k[4];
	/* two refreshes, the log end moving, the committed offset before both: extrapolated, an estimate */
	lt_snapshot *s = one_partition(100000, 10, 500);
	model_enrich(h, s);
	lt_partition *p = &s->groups[0].partitions[0];
	assert_false(p->has_time_lag); /* one point: no estimate yet */
	assert_int_equal(record_ts_wanted(history_record_ts(h), k, 4), 1);
	snapshot_unref(s);
	s = one_partition(102000, 10, 700);
	model_enrich(h, s);
	p = &s->groups[0].partitions[0];
	assert_true(p->has_time_lag);
	assert_true(p->flags & LT_PF_TIME_LAG_ESTIMATED);
	assert_int_equal(record_ts_wanted(history_record_ts(h), k, 4), 1); /* still the one offset */
	assert_int_equal(k[0].offset, 10);
	record_ts_put(history_record_ts(h), k[0].topic, k[0].partition, k[0].offset, true, 40000);
	model_apply_record_ts(h, s);
	assert_true(p->has_time_lag);
	assert_false(p->flags & LT_PF_TIME_LAG_ESTIMATED);
	assert_int_equal(p->time_lag_ms, 102000 - 40000);
	assert_int_equal(s->groups[0].max_time_lag_ms, 62000);
	assert_false(group_max_time_lag_estimated(&s->groups[0]));
	snapshot_unref(s);
	/* the next refresh: exact from the cache at once, growing with the clock */
	s = one_partition(104000, 10, 900);
	model_enrich(h, s);
	p = &s->groups[0].partitions[0];
	assert_false(p->flags & LT_PF_TIME_LAG_ESTIMATED);
	assert_int_equal(p->time_lag_ms, 64000);
	snapshot_unref(s);
	/* interpolated within the history: stays an estimate, nothing wanted */
	s = one_partition(106000, 800, 1000);
	model_enrich(h, s);
	p = &s->groups[0].partitions[0];
	assert_true(p->flags & LT_PF_TIME_LAG_ESTIMATED);
	assert_int_equal(record_ts_wanted(history_record_ts(h), k, 4), 0);
	snapshot_unref(s);
	history_free(h);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(hostile_record_is_safe_and_capped),
	cmocka_unit_test(null_key_and_no_timestamp),
	cmocka_unit_test(one_line_per_reason),
	cmocka_unit_test(cache_reads_each_offset_once),
	cmocka_unit_test(cache_forgets_unused_when_full),
	cmocka_unit_test(time_lag_from_the_record_is_exact),
};

LT_TEST_MAIN(NULL, NULL)
