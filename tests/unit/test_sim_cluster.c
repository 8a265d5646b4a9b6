/* test_sim_cluster.c — the simulated cluster's state: the hash table, timestamp runs, log start,
 * offset-for-time lookups, committed offsets and the consumer protocol encodings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/cluster.h"
#include "sim/strmap.h"
#include "../lib/lagtop_test.h"
#include "../lib/cmocka_main.h"

static void test_strmap_put_get_delete(void **state)
{
	(void)state;
	enum { N = 5000 };
	struct strmap m;
	strmap_init(&m);
	static char keys[N][16];
	for (int i = 0; i < N; i++) {
		snprintf(keys[i], sizeof(keys[i]), "k%d", i);
		assert_null(strmap_put(&m, keys[i], keys[i]));
	}
	assert_int_equal(m.count, N);
	/* Delete every third key in a scrambled order; backward-shift deletion must keep the rest reachable. */
	for (int j = 0; j < N; j++) {
		int i = (int)(((uint64_t)j * 7919) % N);
		if (i % 3 == 0)
			assert_ptr_equal(strmap_del(&m, keys[i], strlen(keys[i])), keys[i]);
	}
	size_t live = 0;
	for (int i = 0; i < N; i++) {
		void *v = strmap_get(&m, keys[i], strlen(keys[i]));
		if (i % 3 == 0) {
			assert_null(v);
		} else {
			assert_ptr_equal(v, keys[i]);
			live++;
		}
	}
	assert_int_equal(m.count, live);
	size_t it = 0, seen = 0;
	while (strmap_next(&m, &it))
		seen++;
	assert_int_equal(seen, live);
	assert_null(strmap_get(&m, "k1x", 3));
	assert_null(strmap_del(&m, "absent", 6));
	assert_ptr_equal(strmap_put(&m, keys[1], keys[2]), keys[1]); /* replace returns the old value */
	strmap_free(&m);
}

static void test_runs_merge_and_lookup(void **state)
{
	(void)state;
	struct sim_partition p = { 0 };
	/* A million records is one run. */
	assert_int_equal(sim_partition_append(&p, 1000000, 1000, 10), 0);
	assert_int_equal(p.nsegs, 1);
	/* Continuing the progression extends it; a jump starts a new run. */
	assert_int_equal(sim_partition_append(&p, 5, 1000 + 10 * 1000000, 10), 1000000);
	assert_int_equal(p.nsegs, 1);
	assert_int_equal(sim_partition_append(&p, 3, 50000000, 0), 1000005);
	assert_int_equal(p.nsegs, 2);
	/* Single records one after another become one run with their step. */
	for (int i = 0; i < 100; i++)
		sim_partition_append(&p, 1, 60000000 + i * 7, 0);
	assert_int_equal(p.nsegs, 3);
	assert_int_equal(p.log_end, 1000108);

	assert_int_equal(sim_partition_timestamp_at(&p, 0), 1000);
	assert_int_equal(sim_partition_timestamp_at(&p, 999999), 1000 + 10 * 999999LL);
	assert_int_equal(sim_partition_timestamp_at(&p, 1000006), 50000000);
	assert_int_equal(sim_partition_timestamp_at(&p, 1000108 - 1), 60000000 + 99 * 7);
	assert_int_equal(sim_partition_timestamp_at(&p, 1000108), -1);

	int64_t ts;
	assert_int_equal(sim_partition_offset_for_time(&p, 0, &ts), 0);
	assert_int_equal(ts, 1000);
	assert_int_equal(sim_partition_offset_for_time(&p, 1005, &ts), 1); /* between records: the next one */
	assert_int_equal(ts, 1010);
	assert_int_equal(sim_partition_offset_for_time(&p, 1010, &ts), 1); /* exactly a record's time */
	assert_int_equal(sim_partition_offset_for_time(&p, 20000000, &ts), 1000005);
	assert_int_equal(ts, 50000000);
	assert_int_equal(sim_partition_offset_for_time(&p, 60000000 + 99 * 7 + 1, &ts), -1);
	assert_int_equal(ts, -1);
	free(p.segs);
}

static void test_log_start(void **state)
{
	(void)state;
	struct sim_partition p = { 0 };
	sim_partition_append(&p, 100, 0, 1000);
	sim_partition_append(&p, 100, 500000, 1000);
	sim_partition_set_log_start(&p, 150); /* drops run one, trims run two */
	assert_int_equal(p.log_start, 150);
	assert_int_equal(p.nsegs, 1);
	assert_int_equal(sim_partition_timestamp_at(&p, 149), -1);
	assert_int_equal(sim_partition_timestamp_at(&p, 150), 550000);
	int64_t ts;
	assert_int_equal(sim_partition_offset_for_time(&p, 0, &ts), 150); /* before the log start: first kept */
	sim_partition_set_log_start(&p, 10);                              /* never backwards */
	assert_int_equal(p.log_start, 150);
	sim_partition_set_log_start(&p, 1000); /* clamped to the log end */
	assert_int_equal(p.log_start, 200);
	assert_int_equal(sim_partition_offset_for_time(&p, 0, &ts), -1);
	/* Appending after everything was deleted starts a fresh run at the log end. */
	assert_int_equal(sim_partition_append(&p, 2, 900000, 1), 200);
	assert_int_equal(sim_partition_offset_for_time(&p, 0, &ts), 200);
	free(p.segs);
}

static void test_non_monotonic_timestamps(void **state)
{
	(void)state;
	struct sim_partition p = { 0 };
	sim_partition_append(&p, 1000, 1000, 1); /* offsets 0..999 at 1000..1999 */
	sim_partition_append(&p, 10, 500, 0);    /* offsets 1000..1009 at 500 (a producer's clock) */
	int64_t ts;
	assert_int_equal(sim_partition_offset_for_time(&p, 1500, &ts), 500);
	assert_int_equal(sim_partition_offset_for_time(&p, 400, &ts), 0);
	assert_int_equal(sim_partition_offset_for_time(&p, 2500, &ts), -1);
	free(p.segs);
}

static void test_topics_and_groups(void **state)
{
	(void)state;
	char err[160];
	int16_t kerr;
	struct sim_state *st = sim_state_new(3, 1);
	struct sim_topic *t = sim_topic_create(st, "orders", 6, &kerr, err, sizeof(err));
	assert_non_null(t);
	assert_null(sim_topic_create(st, "orders", 6, &kerr, err, sizeof(err)));
	assert_int_equal(kerr, KERR_TOPIC_ALREADY_EXISTS);
	assert_null(sim_topic_create(st, "bad/name", 1, &kerr, err, sizeof(err)));
	assert_int_equal(kerr, KERR_INVALID_TOPIC_EXCEPTION);
	assert_null(sim_topic_create(st, "zero", 0, &kerr, err, sizeof(err)));
	assert_int_equal(kerr, KERR_INVALID_PARTITIONS);
	/* Leaders are spread over every broker. */
	int used[4] = { 0 };
	for (int p = 0; p < 6; p++)
		used[t->parts[p].leader]++;
	assert_int_equal(used[1], 2);
	assert_int_equal(used[2], 2);
	assert_int_equal(used[3], 2);
	assert_null(sim_partition_find(st, "orders", 6, 6));
	assert_non_null(sim_partition_find(st, "orders", 6, 5));

	int32_t c = sim_coordinator_for(st, "g1", 2);
	assert_true(c >= 1 && c <= 3);
	assert_int_equal(sim_coordinator_for(st, "g1", 2), c);

	struct sim_group *g = sim_group_get_or_create(st, "g1");
	assert_int_equal(g->state, SIM_GROUP_EMPTY);
	assert_string_equal(g->protocol_type, "");
	assert_ptr_equal(sim_group_get_or_create(st, "g1"), g);
	sim_group_commit(g, "orders", 6, 3, 42, -1, "md", 2, 1234);
	sim_group_commit(g, "orders", 6, 0, 7, -1, NULL, 0, 1234);
	sim_group_commit(g, "orders", 6, 3, 43, 5, "x", 1, 1235); /* overwrite */
	const struct sim_commit *cm = sim_group_committed(g, "orders", 6, 3);
	assert_non_null(cm);
	assert_int_equal(cm->offset, 43);
	assert_int_equal(cm->leader_epoch, 5);
	assert_string_equal(cm->metadata, "x");
	assert_int_equal(cm->commit_ts_ms, 1235);
	assert_null(sim_group_committed(g, "orders", 6, 1));
	assert_null(sim_group_committed(g, "orders", 6, 99));
	assert_int_equal(sim_group_commit_count(g), 2);
	assert_int_equal(sim_group_commit_delete(g, "orders", 6, 0), 0);
	assert_int_equal(sim_group_commit_delete(g, "orders", 6, 0), -1);
	assert_int_equal(sim_group_commit_count(g), 1);

	/* Subscriptions are read from the consumer protocol bytes. */
	static const char *const topics[] = { "orders", "payments" };
	struct sim_member *m = test_group_add_range_member(g, "client", topics, 2);
	g->state = SIM_GROUP_STABLE;
	assert_true(sim_group_subscribes(g, "payments", 8));
	assert_false(sim_group_subscribes(g, "audit", 5));
	assert_ptr_equal(sim_group_find_member(g, "m-1", 3), m);
	assert_int_equal(sim_group_remove_member(g, "m-1"), 0);
	assert_int_equal(sim_group_remove_member(g, "m-1"), -1);
	assert_false(sim_group_subscribes(g, "payments", 8));

	sim_group_delete(st, g);
	assert_null(sim_group_find(st, "g1", 2));
	sim_state_free(st);
}

static void count_topic(const char *topic, size_t len, void *arg)
{
	(void)topic;
	*(size_t *)arg += len;
}

static void test_consumer_protocol(void **state)
{
	(void)state;
	static const int32_t parts[] = { 0, 2, 4 };
	struct sim_assignment a[2] = { { "orders", parts, 3 }, { "payments", parts, 1 } };
	int32_t len;
	uint8_t *bytes = sim_consumer_assignment_encode(a, 2, &len);
	size_t total = 0;
	assert_int_equal(sim_consumer_topics_each(bytes, len, true, count_topic, &total), 0);
	assert_int_equal(total, strlen("orders") + strlen("payments"));
	/* Truncated bytes are reported, not overread. */
	total = 0;
	assert_int_equal(sim_consumer_topics_each(bytes, len - 9, true, count_topic, &total), -1);
	free(bytes);
	enum sim_group_state s;
	assert_int_equal(sim_group_state_parse("preparingrebalance", &s), 0);
	assert_int_equal(s, SIM_GROUP_PREPARING_REBALANCE);
	assert_string_equal(sim_group_state_name(SIM_GROUP_COMPLETING_REBALANCE), "CompletingRebalance");
	assert_int_equal(sim_group_state_parse("Bogus", &s), -1);
}

struct seen_assignment {
	char text[128];
};

static void note_assignment(const char *topic, size_t len, const int32_t *parts, int n, void *arg)
{
	struct seen_assignment *s = arg;
	size_t at = strlen(s->text);
	at += (size_t)snprintf(s->text + at, sizeof(s->text) - at, "%.*s:", (int)len, topic);
	for (int i = 0; i < n; i++)
		at += (size_t)snprintf(s->text + at, sizeof(s->text) - at, "%d,", parts[i]);
	snprintf(s->text + at, sizeof(s->text) - at, " ");
}

/* Consumer-protocol (KIP-848) groups: their own states, the assignment decoder ConsumerGroupDescribe uses,
 * subscriptions from names, and the way back to a classic group. */
static void test_group_types(void **state)
{
	(void)state;
	assert_true(sim_group_state_valid(SIM_GROUP_CONSUMER, SIM_GROUP_ASSIGNING));
	assert_true(sim_group_state_valid(SIM_GROUP_CONSUMER, SIM_GROUP_STABLE));
	assert_false(sim_group_state_valid(SIM_GROUP_CONSUMER, SIM_GROUP_PREPARING_REBALANCE));
	assert_false(sim_group_state_valid(SIM_GROUP_CLASSIC, SIM_GROUP_RECONCILING));
	assert_true(sim_group_state_valid(SIM_GROUP_CLASSIC, SIM_GROUP_COMPLETING_REBALANCE));
	enum sim_group_state s;
	assert_int_equal(sim_group_state_parse("RECONCILING", &s), 0);
	assert_int_equal(s, SIM_GROUP_RECONCILING);
	assert_string_equal(sim_group_state_name(SIM_GROUP_ASSIGNING), "Assigning");
	assert_string_equal(sim_group_type_name(SIM_GROUP_CONSUMER), "consumer");
	assert_string_equal(sim_group_type_name(SIM_GROUP_CLASSIC), "classic");

	static const int32_t parts[] = { 3, 1 };
	struct sim_assignment a[2] = { { "orders", parts, 2 }, { "audit", parts, 0 } };
	int32_t len;
	uint8_t *bytes = sim_consumer_assignment_encode(a, 2, &len);
	struct seen_assignment seen = { "" };
	assert_int_equal(sim_consumer_assignment_each(bytes, len, note_assignment, &seen), 0);
	assert_string_equal(seen.text, "orders:3,1, audit: ");
	seen.text[0] = '\0';
	assert_int_equal(sim_consumer_assignment_each(bytes, len - 5, note_assignment, &seen), -1);
	free(bytes);

	struct sim_state *st = sim_state_new(1, 1);
	assert_int_equal(st->kafka_major, 4);
	struct sim_group *g = sim_group_get_or_create(st, "cg");
	assert_int_equal(g->type, SIM_GROUP_CLASSIC); /* every group starts classic */
	g->type = SIM_GROUP_CONSUMER;
	g->state = SIM_GROUP_STABLE;
	struct sim_member *m = sim_member_new("m", "c", NULL);
	m->subscribed_topics = calloc(1, sizeof(char *));
	m->subscribed_topics[0] = strdup("orders");
	m->nsubscribed_topics = 1;
	bytes = sim_consumer_assignment_encode(&a[1], 1, &len);
	sim_member_set_assignment(m, bytes, len);
	free(bytes);
	sim_group_add_member(g, m);
	assert_true(sim_group_subscribes(g, "orders", 6));
	assert_false(sim_group_subscribes(g, "audit", 5)); /* assigned, not subscribed: Kafka looks at names */
	(void)sim_group_remove_member(g, "m");
	g->state = SIM_GROUP_EMPTY;
	g->group_epoch = g->assignment_epoch = 7;
	sim_group_commit(g, "orders", 6, 0, 5, -1, NULL, 0, 1);
	sim_group_to_classic(g);
	assert_int_equal(g->type, SIM_GROUP_CLASSIC);
	assert_int_equal(g->group_epoch, 0);
	assert_string_equal(g->protocol_type, "");
	assert_non_null(sim_group_committed(g, "orders", 6, 0)); /* offsets survive the change of type */
	sim_state_free(st);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_strmap_put_get_delete),
	cmocka_unit_test(test_runs_merge_and_lookup),
	cmocka_unit_test(test_log_start),
	cmocka_unit_test(test_non_monotonic_timestamps),
	cmocka_unit_test(test_topics_and_groups),
	cmocka_unit_test(test_consumer_protocol),
	cmocka_unit_test(test_group_types),
};

LT_TEST_MAIN(NULL, NULL)
