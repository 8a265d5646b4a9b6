/* test_log_starts.c — the log starts a dashboard carries between refreshes (src/kafka/log_starts.h): carried
 * while younger than the max age, asked again from it on, forgotten when a refresh no longer puts them, never
 * kept with a max age of 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kafka/log_starts.h"
#include "../lib/cmocka_main.h"

static void carried_until_the_max_age(void **state)
{
	(void)state;
	lt_log_starts *k = log_starts_new(10000);
	int64_t start = -1, at = -1;
	assert_false(log_starts_get(k, "orders", 0, 1000, &start, &at)); /* nothing read yet */
	/* a topic's partitions put together, from the caller's own (reused) buffer */
	char topic[16] = "orders";
	log_starts_put(k, topic, 0, 100, 1000);
	log_starts_put(k, topic, 1, 200, 1000);
	strcpy(topic, "audit");
	log_starts_put(k, topic, 0, 7, 4000);
	log_starts_put(k, "orders", 2, -1, 1000); /* unknown: not kept */
	log_starts_commit(k);
	assert_true(log_starts_get(k, "orders", 1, 10999, &start, &at));
	assert_int_equal(start, 200);
	assert_int_equal(at, 1000);
	assert_true(log_starts_get(k, "audit", 0, 5000, &start, &at));
	assert_int_equal(start, 7);
	assert_false(log_starts_get(k, "orders", 1, 11000, &start, &at)); /* 10 s old: asked again */
	assert_false(log_starts_get(k, "orders", 2, 1000, &start, &at));
	assert_false(log_starts_get(k, "orders", 0, 999, &start, &at)); /* a clock before the read: asked */
	assert_false(log_starts_get(k, "order", 0, 2000, &start, &at));

	/* the next refresh puts only orders/0, read again: the others are forgotten */
	log_starts_put(k, "orders", 0, 150, 11000);
	log_starts_commit(k);
	assert_true(log_starts_get(k, "orders", 0, 12000, &start, &at));
	assert_int_equal(start, 150);
	assert_false(log_starts_get(k, "orders", 1, 12000, &start, &at));
	assert_false(log_starts_get(k, "audit", 0, 12000, &start, &at));
	log_starts_free(k);
}

static void many_partitions_and_no_max_age(void **state)
{
	(void)state;
	lt_log_starts *k = log_starts_new(10000);
	char name[32];
	for (int t = 0; t < 50; t++) {
		snprintf(name, sizeof name, "topic-%02d", t);
		for (int p = 0; p < 64; p++)
			log_starts_put(k, name, p, (int64_t)t * 1000 + p, 0);
	}
	log_starts_commit(k);
	int64_t start, at;
	for (int t = 0; t < 50; t++) {
		snprintf(name, sizeof name, "topic-%02d", t);
		for (int p = 0; p < 64; p++) {
			assert_true(log_starts_get(k, name, p, 5000, &start, &at));
			assert_int_equal(start, (int64_t)t * 1000 + p);
		}
	}
	log_starts_free(k);

	lt_log_starts *never = log_starts_new(0);
	log_starts_put(never, "orders", 0, 100, 0);
	log_starts_commit(never);
	assert_false(log_starts_get(never, "orders", 0, 0, &start, &at));
	log_starts_free(never);
	assert_false(log_starts_get(NULL, "orders", 0, 0, &start, &at));
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(carried_until_the_max_age),
	cmocka_unit_test(many_partitions_and_no_max_age),
};

LT_TEST_MAIN(NULL, NULL)
