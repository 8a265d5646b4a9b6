/* test_assignment.c — ConsumerProtocolAssignment bytes (src/kafka/assignment.c) as DescribeGroups returns
 * them: the versions, no bytes, and hostile bytes (truncated at every length, counts and lengths that lie,
 * NUL in a topic). Buffers are copied to exact-size heap blocks so that ASan catches any read past the end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kafka/assignment.h"
#include "kafka/group_batch.h"
#include "../lib/cmocka_main.h"

struct seen {
	char text[512]; /* "topic:partition " per call */
	int calls;
};

static void collect(const char *topic, int32_t partition, void *arg)
{
	struct seen *s = arg;
	size_t used = strlen(s->text);
	snprintf(s->text + used, sizeof s->text - used, "%s:%d ", topic, (int)partition);
	s->calls++;
}

static int decode(const uint8_t *b, size_t len, struct seen *s, char *err, size_t errlen)
{
	uint8_t *copy = malloc(len ? len : 1);
	memcpy(copy, b, len);
	memset(s, 0, sizeof *s);
	err[0] = '\0';
	int rc = assignment_decode(copy, len, collect, s, err, errlen);
	free(copy);
	return rc;
}

/* v0: two topics, "orders" [0, 2] and "t" [7] */
static const uint8_t V0[] = { 0, 0,                                           /* version */
			      0, 0, 0,   2,                                   /* topics */
			      0, 6, 'o', 'r', 'd', 'e', 'r', 's', 0, 0, 0, 2, /* "orders", 2 partitions */
			      0, 0, 0,   0,   0,   0,   0,   2,               /* 0, 2 */
			      0, 1, 't', 0,   0,   0,   1,   0,   0, 0, 7 };  /* "t", [7] */

static void v0_gives_every_partition_in_order(void **state)
{
	(void)state;
	struct seen s;
	char err[128];
	assert_int_equal(decode(V0, sizeof V0, &s, err, sizeof err), 0);
	assert_string_equal(s.text, "orders:0 orders:2 t:7 ");
}

static void no_bytes_is_no_assignment(void **state)
{
	(void)state;
	struct seen s;
	char err[128];
	assert_int_equal(decode(V0, 0, &s, err, sizeof err), 0);
	assert_int_equal(s.calls, 0);
}

/* v1 adds user data; v3 (Kafka 3.x+) adds fields after it, which a reader of v0's fields leaves alone */
static void later_versions_read_their_v0_fields(void **state)
{
	(void)state;
	static const uint8_t v1[] = { 0, 1, 0, 0, 0,    1,   0, 1, 'a', 0, 0, 0, 1, 0, 0, 0, 3, /* "a" [3] */
				      0, 0, 0, 2, 0xde, 0xad };                                 /* user data */
	static const uint8_t v3[] = { 0, 3, 0, 0, 0, 1, 0,    1,    'a',  0,    0,
				      0, 1, 0, 0, 0, 3, 0xff, 0xff, 0xff, 0xff, /* null user data */
				      1, 2, 3, 4, 5 };                          /* whatever a newer version appends */
	static const uint8_t empty[] = { 0, 0, 0, 0, 0, 0 };                    /* v0, no topics */
	struct seen s;
	char err[128];
	assert_int_equal(decode(v1, sizeof v1, &s, err, sizeof err), 0);
	assert_string_equal(s.text, "a:3 ");
	assert_int_equal(decode(v3, sizeof v3, &s, err, sizeof err), 0);
	assert_string_equal(s.text, "a:3 ");
	assert_int_equal(decode(empty, sizeof empty, &s, err, sizeof err), 0);
	assert_int_equal(s.calls, 0);
}

/* every prefix of v0's bytes ends inside a field: refused whole, nothing handed out */
static void truncated_at_every_length_is_refused_whole(void **state)
{
	(void)state;
	for (size_t len = 1; len < sizeof V0; len++) {
		struct seen s;
		char err[128];
		assert_int_equal(decode(V0, len, &s, err, sizeof err), -1);
		assert_int_equal(s.calls, 0);
		assert_non_null(strstr(err, "malformed consumer assignment"));
		assert_null(strchr(err, '\n'));
	}
}

static void expect_refused(const uint8_t *b, size_t len, const char *why)
{
	struct seen s;
	char err[128];
	assert_int_equal(decode(b, len, &s, err, sizeof err), -1);
	assert_int_equal(s.calls, 0);
	assert_non_null(strstr(err, why));
}

static void lying_counts_and_lengths_are_refused(void **state)
{
	(void)state;
	static const uint8_t huge_topics[] = { 0, 0, 0x7f, 0xff, 0xff, 0xff, 0, 1, 'a', 0, 0, 0, 0 };
	static const uint8_t negative_topics[] = { 0, 0, 0xff, 0xff, 0xff, 0xfe };
	static const uint8_t huge_parts[] = { 0, 0, 0, 0, 0, 1, 0, 1, 'a', 0x40, 0, 0, 0, 0, 0, 0, 1 };
	static const uint8_t negative_topic_len[] = { 0, 0, 0, 0, 0, 1, 0xff, 0xff, 0, 0, 0, 0 };
	static const uint8_t empty_topic[] = { 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0 };
	static const uint8_t nul_in_topic[] = { 0, 0, 0, 0, 0, 1, 0, 3, 'a', 0, 'b', 0, 0, 0, 1, 0, 0, 0, 1 };
	static const uint8_t negative_partition[] = { 0, 0, 0, 0, 0, 1, 0, 1, 'a', 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t negative_version[] = { 0xff, 0xff, 0, 0, 0, 0 };
	expect_refused(huge_topics, sizeof huge_topics, "topic count");
	expect_refused(negative_topics, sizeof negative_topics, "topic count");
	expect_refused(huge_parts, sizeof huge_parts, "partition count");
	expect_refused(negative_topic_len, sizeof negative_topic_len, "topic");
	expect_refused(empty_topic, sizeof empty_topic, "topic");
	expect_refused(nul_in_topic, sizeof nul_in_topic, "topic");
	expect_refused(negative_partition, sizeof negative_partition, "partition");
	expect_refused(negative_version, sizeof negative_version, "version");
}

/* a partition list that passes the count check but ends early is caught before any callback: the first
 * topic's partitions are never handed out when the second topic is cut */
static void a_bad_second_topic_hands_out_nothing(void **state)
{
	(void)state;
	uint8_t b[sizeof V0];
	memcpy(b, V0, sizeof V0);
	b[27] = 9; /* "t"'s length now runs past the end */
	expect_refused(b, sizeof b, "topic");
}

/* Kafka names a dynamic member "<client.id>-<uuid>"; anything else may be static (group_batch.h) */
static void dynamic_member_ids_are_told_apart(void **state)
{
	(void)state;
	assert_true(group_batch_member_dynamic("rdkafka-0f1e2d3c-4b5a-4c6d-8e9f-0a1b2c3d4e5f", "rdkafka"));
	assert_true(group_batch_member_dynamic("a-b-0f1e2d3c-4b5a-4c6d-8e9f-0a1b2c3d4e5f", "a-b"));
	assert_false(group_batch_member_dynamic("inst-1-0f1e2d3c-4b5a-4c6d-8e9f-0a1b2c3d4e5f", "rdkafka"));
	assert_false(group_batch_member_dynamic("fx-c1-member", "fx-c1"));
	assert_false(group_batch_member_dynamic("rdkafka-0F1E2D3C-4B5A-4C6D-8E9F-0A1B2C3D4E5F", "rdkafka"));
	assert_false(group_batch_member_dynamic("rdkafka-0f1e2d3c-4b5a-4c6d-8e9f-0a1b2c3d4e5", "rdkafka"));
	assert_false(group_batch_member_dynamic("rdkafka_0f1e2d3c-4b5a-4c6d-8e9f-0a1b2c3d4e5f", "rdkafka"));
	assert_false(group_batch_member_dynamic(NULL, "rdkafka"));
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(v0_gives_every_partition_in_order),
	cmocka_unit_test(no_bytes_is_no_assignment),
	cmocka_unit_test(later_versions_read_their_v0_fields),
	cmocka_unit_test(truncated_at_every_length_is_refused_whole),
	cmocka_unit_test(lying_counts_and_lengths_are_refused),
	cmocka_unit_test(a_bad_second_topic_hands_out_nothing),
	cmocka_unit_test(dynamic_member_ids_are_told_apart),
};

LT_TEST_MAIN(NULL, NULL)
