/* test_commitlog_encode.c — the encoder writes exactly the hand-built bytes of commitlog_fixtures.h
 * (from records filled by hand and from decoded records), tombstones, refuses what a version cannot
 * carry; and the group → __consumer_offsets partition mapping matches Java's String.hashCode. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "commitlog/record.h"
#include "../lib/commitlog_fixtures.h"
#include "../lib/cmocka_main.h"

static char err[256];
/* mutable copies: the record fields are char *, string literals are const under -Wwrite-strings */
static char s_g1[] = "g1";
static char s_t[] = "t";
static char s_empty[] = "";
static char s_m[] = "m";
static char s_ab[] = "ab";
static char s_m1[] = "m-1";
static char s_i1[] = "i-1";
static char s_c[] = "c";
static char s_h[] = "/h";
static char s_range[] = "range";

static void assert_bytes(const lt_bytes *b, const uint8_t *want, size_t n)
{
	assert_int_equal(b->len, n);
	assert_memory_equal(b->data, want, n);
}

/* r encodes, not as a tombstone, to value (and to key, unless that is NULL). */
static void expect_encoding(const lt_commit_record *r, const uint8_t *key, size_t klen, const uint8_t *value,
			    size_t vlen)
{
	lt_bytes k = { 0 }, v = { 0 };
	int is_null = -1;
	assert_int_equal(commit_record_encode(r, &k, &v, &is_null, err, sizeof err), 0);
	assert_int_equal(is_null, 0);
	if (key)
		assert_bytes(&k, key, klen);
	assert_bytes(&v, value, vlen);
	bytes_free(&k);
	bytes_free(&v);
}
#define EXPECT_ENCODING(r, key, value)  expect_encoding(r, key, FX_LEN(key), value, FX_LEN(value))
#define EXPECT_VALUE_ENCODING(r, value) expect_encoding(r, NULL, 0, value, FX_LEN(value))

static lt_commit_record offset_rec(int16_t kv, int16_t vv)
{
	lt_commit_record r = {
		.type = LT_CR_OFFSET_COMMIT,
		.key_version = kv,
		.value_version = vv,
		.group = s_g1,
		.topic = s_t,
		.partition = 3,
		.offset = 100,
		.leader_epoch = 7,
		.metadata = s_empty,
		.commit_ms = FX_COMMIT_MS,
		.expire_ms = FX_EXPIRE_MS,
	};
	return r;
}

static void offset_commit_from_hand_filled_records(void **state)
{
	(void)state;
	lt_commit_record r = offset_rec(0, 0);
	r.metadata = s_m;
	EXPECT_ENCODING(&r, fx_offset_key_v0, fx_offset_value_v0);

	r = offset_rec(1, 1);
	EXPECT_ENCODING(&r, fx_offset_key_v1, fx_offset_value_v1);

	r = offset_rec(1, 2);
	r.offset = 1099511627776LL;
	r.metadata = s_ab;
	EXPECT_VALUE_ENCODING(&r, fx_offset_value_v2);

	r = offset_rec(1, 3);
	EXPECT_VALUE_ENCODING(&r, fx_offset_value_v3);
}

static void group_metadata_from_hand_filled_record(void **state)
{
	(void)state;
	uint8_t sub[] = { 0xaa, 0xbb };
	lt_commit_member m = {
		.member_id = s_m1,
		.group_instance_id = s_i1,
		.client_id = s_c,
		.client_host = s_h,
		.rebalance_timeout_ms = 300000,
		.session_timeout_ms = 10000,
		.subscription = sub,
		.subscription_len = 2,
	};
	struct fx_group g;
	lt_commit_record *r = fx_group_metadata(&g, "g1", "consumer", 5, FX_STATE_MS, &m, 1);
	r->protocol = s_range;
	r->leader = s_m1;
	EXPECT_ENCODING(r, fx_group_key, fx_group_value_v3);

	/* v0 drops groupInstanceId, rebalanceTimeout and currentStateTimestamp */
	r->value_version = 0;
	EXPECT_VALUE_ENCODING(r, fx_group_value_v0);

	/* the Empty group Kafka writes when the last member leaves */
	EXPECT_VALUE_ENCODING(fx_group_metadata(&g, "g1", "consumer", 6, FX_STATE_MS, NULL, 0),
			      fx_group_value_v3_empty);
}

static void round_trip_every_fixture(void **state)
{
	(void)state;
	static const struct fx_pair fx[] = {
		FX_PAIRS_OFFSET_V0_V3,
		FX_PAIRS_GROUP,
		{ fx_offset_key_v0, FX_LEN(fx_offset_key_v0), NULL, 0 },
		{ fx_group_key, FX_LEN(fx_group_key), NULL, 0 },
	};
	for (size_t i = 0; i < sizeof fx / sizeof fx[0]; i++) {
		lt_commit_record r;
		assert_int_equal(commit_record_decode(fx[i].k, fx[i].klen, fx[i].v, fx[i].vlen, &r, err, sizeof err),
				 0);
		lt_bytes k = { 0 }, v = { 0 };
		int is_null;
		assert_int_equal(commit_record_encode(&r, &k, &v, &is_null, err, sizeof err), 0);
		assert_bytes(&k, fx[i].k, fx[i].klen);
		if (fx[i].v) {
			assert_int_equal(is_null, 0);
			assert_bytes(&v, fx[i].v, fx[i].vlen);
		} else {
			assert_int_equal(is_null, 1);
			assert_int_equal(v.len, 0);
		}
		bytes_free(&k);
		bytes_free(&v);
		commit_record_free(&r);
	}
}

static void tombstones_and_refusals(void **state)
{
	(void)state;
	lt_bytes k = { 0 }, v = { 0 };
	int is_null = 0;
	lt_commit_record r = { .type = LT_CR_GROUP_DELETE, .key_version = 2, .value_version = -1, .group = s_g1 };
	assert_int_equal(commit_record_encode(&r, &k, &v, &is_null, err, sizeof err), 0);
	assert_int_equal(is_null, 1);
	assert_bytes(&k, fx_group_key, FX_LEN(fx_group_key));
	assert_null(v.data);
	bytes_free(&k);

	lt_commit_record bad = offset_rec(2, 3); /* offset record with a group key version */
	assert_int_equal(commit_record_encode(&bad, &k, &v, &is_null, err, sizeof err), -1);
	assert_non_null(strstr(err, "key version 2 is not 0 or 1"));
	bad = offset_rec(1, 4);
	assert_int_equal(commit_record_encode(&bad, &k, &v, &is_null, err, sizeof err), -1);
	assert_non_null(strstr(err, "value version 4"));
	lt_commit_record unk = { .type = LT_CR_UNKNOWN_KEY, .key_version = 3 };
	assert_int_equal(commit_record_encode(&unk, &k, &v, &is_null, err, sizeof err), -1);

	char *longmeta = malloc(40000);
	memset(longmeta, 'x', 39999);
	longmeta[39999] = '\0';
	bad = offset_rec(1, 3);
	bad.metadata = longmeta;
	assert_int_equal(commit_record_encode(&bad, &k, &v, &is_null, err, sizeof err), -1);
	assert_non_null(strstr(err, "metadata is 39999 bytes"));
	assert_int_equal(k.len, 0); /* nothing written on failure */
	assert_int_equal(v.len, 0);
	free(longmeta);
}

static void group_partition_like_java(void **state)
{
	(void)state;
	/* Expected values: Java's String.hashCode (UTF-16 code units) and Kafka's
	 * Utils.abs(hash) % 50. */
	assert_int_equal(commit_group_hash(""), 0);
	assert_int_equal(commit_group_hash("a"), 97);
	assert_int_equal(commit_partition_for_group("a", 50), 47);
	assert_int_equal(commit_group_hash("my-group"), -1906497762);
	assert_int_equal(commit_partition_for_group("my-group", 50), 12);
	assert_int_equal(commit_group_hash("console-consumer-12345"), 158455506);
	assert_int_equal(commit_partition_for_group("console-consumer-12345", 50), 6);
	/* the famous string whose hashCode is Integer.MIN_VALUE: Utils.abs gives 0 */
	assert_int_equal(commit_group_hash("polygenelubricants"), INT32_MIN);
	assert_int_equal(commit_partition_for_group("polygenelubricants", 50), 0);
	/* non-ASCII: u-umlaut is one UTF-16 unit, an emoji is a surrogate pair */
	assert_int_equal(commit_group_hash("gr\xc3\xbc"
					   "ppe"),
			 -1233264812);
	assert_int_equal(commit_group_hash("g\xf0\x9f\x98\x80"), 1871882);
	assert_int_equal(commit_partition_for_group("g\xf0\x9f\x98\x80", 50), 32);
	/* malformed UTF-8 decodes to U+FFFD per maximal invalid subpart, as Java does */
	assert_int_equal(commit_group_hash("a\xe2\x82"), 68540);
	assert_int_equal(commit_group_hash("\xff\xfe"), 2097056);
	assert_int_equal(commit_partition_for_group("my-group", 1), 0);
}

/* A KIP-848 group's own records (keys 3 and 5), encoded as Kafka 4.x writes them, read back by the decoder:
 * the group and member ids, and the subscribed names that Kafka's expiry rule keeps (unknown with a regex). */
static void consumer_group_records_round_trip(void **state)
{
	(void)state;
	lt_commit_record r;
	lt_bytes k = { 0 }, v = { 0 };
	const char *topics[] = { "orders", "payments" };
	lt_consumer_member_value mv = { .client_id = "c-1",
					.client_host = "/127.0.0.1",
					.topics = topics,
					.n_topics = 2,
					.rebalance_timeout_ms = 300000,
					.assignor = "uniform" };
	assert_int_equal(commit_consumer_member_encode("g", "m-1", &mv, &k, &v, err, sizeof err), 0);
	/* key: version 5, then two int16 strings */
	assert_bytes(&k, (const uint8_t *)"\x00\x05\x00\x01g\x00\x03m-1", 10);
	assert_int_equal(commit_record_decode(k.data, k.len, v.data, v.len, &r, err, sizeof err), 0);
	assert_int_equal(r.type, LT_CR_UNKNOWN_KEY);
	assert_int_equal(r.key_version, LT_CR_KEY_CONSUMER_MEMBER);
	assert_string_equal(r.group, "g");
	assert_string_equal(r.member_id, "m-1");
	assert_true(r.member_topics_known);
	assert_int_equal(r.n_member_topics, 2);
	assert_string_equal(r.member_topics[0], "orders");
	assert_string_equal(r.member_topics[1], "payments");
	commit_record_free(&r);
	bytes_free(&k);
	bytes_free(&v);

	/* subscribed by a regex: which topics it keeps is not known from the record */
	mv.regex = "ord.*";
	assert_int_equal(commit_consumer_member_encode("g", "m-1", &mv, &k, &v, err, sizeof err), 0);
	assert_int_equal(commit_record_decode(k.data, k.len, v.data, v.len, &r, err, sizeof err), 0);
	assert_false(r.member_topics_known);
	commit_record_free(&r);
	bytes_free(&k);
	bytes_free(&v);

	/* the member's tombstone, the group's record and its tombstone */
	assert_int_equal(commit_consumer_member_encode("g", "m-1", NULL, &k, &v, err, sizeof err), 0);
	assert_int_equal(v.len, 0);
	assert_int_equal(commit_record_decode(k.data, k.len, NULL, 0, &r, err, sizeof err), 0);
	assert_string_equal(r.member_id, "m-1");
	assert_int_equal(r.value_version, -1);
	commit_record_free(&r);
	bytes_free(&k);
	int32_t epoch = 7;
	assert_int_equal(commit_consumer_group_encode("g", &epoch, &k, &v, err, sizeof err), 0);
	assert_bytes(&v, (const uint8_t *)"\x00\x00\x00\x00\x00\x07\x00", 7);
	assert_int_equal(commit_record_decode(k.data, k.len, v.data, v.len, &r, err, sizeof err), 0);
	assert_int_equal(r.key_version, LT_CR_KEY_CONSUMER_GROUP);
	assert_string_equal(r.group, "g");
	commit_record_free(&r);
	bytes_free(&k);
	bytes_free(&v);
	assert_int_equal(commit_consumer_group_encode("g", NULL, &k, &v, err, sizeof err), 0);
	assert_int_equal(v.len, 0);
	bytes_free(&k);

	/* an id no int16 string holds: refused, the buffers untouched */
	char *long_id = malloc(40000);
	memset(long_id, 'x', 39999);
	long_id[39999] = '\0';
	assert_int_equal(commit_consumer_group_encode(long_id, &epoch, &k, &v, err, sizeof err), -1);
	assert_int_equal(k.len + v.len, 0);
	free(long_id);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(offset_commit_from_hand_filled_records),
	cmocka_unit_test(group_metadata_from_hand_filled_record),
	cmocka_unit_test(round_trip_every_fixture),
	cmocka_unit_test(tombstones_and_refusals),
	cmocka_unit_test(group_partition_like_java),
	cmocka_unit_test(consumer_group_records_round_trip),
};

LT_TEST_MAIN(NULL, NULL)
