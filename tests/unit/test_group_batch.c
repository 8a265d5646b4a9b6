/* test_group_batch.c — how an answer of rd_kafka_list_groups is read (src/kafka/group_batch.c): each group
 * it describes once is found, whatever the order; a group two brokers described (its coordinator moved
 * between their answers) and a group it lacks (its broker slow or down: a partial answer) are not, so
 * that the per-group describe asks for them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "kafka/group_batch.h"
#include "../lib/cmocka_main.h"

/* An answer as librdkafka hands it: one entry per group each broker described, in answer order. */
static struct rd_kafka_group_info info(const char *group, int32_t broker)
{
	struct rd_kafka_group_info gi;
	memset(&gi, 0, sizeof gi);
	gi.group = (char *)group;
	gi.broker.id = broker;
	gi.state = (char *)"Empty";
	return gi;
}

static void groups_described_once_are_found(void **state)
{
	(void)state;
	struct rd_kafka_group_info g[] = { info("c", 3), info("a", 1), info("b", 2) };
	struct rd_kafka_group_list list = { .groups = g, .group_cnt = 3 };
	lt_group_batch *b = group_batch_over(&list);
	assert_true(group_batch_ready(b));
	assert_ptr_equal(group_batch_find(b, "a"), &g[1]);
	assert_ptr_equal(group_batch_find(b, "b"), &g[2]);
	assert_ptr_equal(group_batch_find(b, "c"), &g[0]);
	assert_null(group_batch_find(b, "d")); /* not in the answer: its broker did not answer in time */
	group_batch_free(b);
}

static void a_group_two_brokers_described_is_left_to_the_per_group_describe(void **state)
{
	(void)state;
	struct rd_kafka_group_info g[] = { info("moved", 1),  info("a", 1),      info("moved", 2), info("z", 2),
					   info("thrice", 1), info("thrice", 2), info("thrice", 3) };
	struct rd_kafka_group_list list = { .groups = g, .group_cnt = 7 };
	lt_group_batch *b = group_batch_over(&list);
	assert_null(group_batch_find(b, "moved"));
	assert_null(group_batch_find(b, "thrice"));
	assert_ptr_equal(group_batch_find(b, "a"), &g[1]);
	assert_ptr_equal(group_batch_find(b, "z"), &g[3]);
	group_batch_free(b);
}

static void an_empty_or_missing_answer_finds_nothing(void **state)
{
	(void)state;
	struct rd_kafka_group_info g[] = { info(NULL, 1) }; /* a name librdkafka could not read */
	struct rd_kafka_group_list list = { .groups = g, .group_cnt = 1 };
	lt_group_batch *b = group_batch_over(&list);
	assert_null(group_batch_find(b, "a"));
	group_batch_free(b);
	b = group_batch_over(NULL); /* the call failed: no list at all */
	assert_true(group_batch_ready(b));
	assert_null(group_batch_find(b, "a"));
	group_batch_free(b);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(groups_described_once_are_found),
	cmocka_unit_test(a_group_two_brokers_described_is_left_to_the_per_group_describe),
	cmocka_unit_test(an_empty_or_missing_answer_finds_nothing),
};

LT_TEST_MAIN(NULL, NULL)
