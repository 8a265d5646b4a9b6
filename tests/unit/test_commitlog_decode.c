/* test_commitlog_decode.c — __consumer_offsets records decoded from hand-built bytes
 * (commitlog_fixtures.h): every key and value version, tombstones, unknown versions, truncation at
 * every length and malformed fields. Buffers are copied to exact-size heap blocks so that ASan
 * catches any read past the end. */
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

/* Decodes copies of key[0..klen) and value[0..vlen) (value NULL = tombstone). */
static int decode(const uint8_t *key, size_t klen, const uint8_t *value, size_t vlen, lt_commit_record *r)
{
	uint8_t *k = key ? malloc(klen ? klen : 1) : NULL;
	uint8_t *v = value ? malloc(vlen ? vlen : 1) : NULL;
	if (k)
		memcpy(k, key, klen);
	if (v)
		memcpy(v, value, vlen);
	err[0] = '\0';
	int rc = commit_record_decode(k, klen, v, vlen, r, err, sizeof err);
	free(k);
	free(v);
	return rc;
}

#define DECODE(k, v, r) decode((k), FX_LEN(k), (v), FX_LEN(v), (r))

static void assert_offset_key(const lt_commit_record *r, int16_t kv)
{
	assert_int_equal(r->key_version, kv);
	assert_string_equal(r->group, "g1");
	assert_string_equal(r->topic, "t");
	assert_int_equal(r->partition, 3);
}

static void offset_commit_v0(void **state)
{
	(void)state;
	lt_commit_record r;
	assert_int_equal(DECODE(fx_offset_key_v0, fx_offset_value_v0, &r), 0);
	assert_int_equal(r.type, LT_CR_OFFSET_COMMIT);
	assert_offset_key(&r, 0);
	assert_int_equal(r.value_version, 0);
	assert_int_equal(r.offset, 100);
	assert_int_equal(r.leader_epoch, -1);
	assert_string_equal(r.metadata, "m");
	assert_int_equal(r.metadata_len, 1);
	assert_int_equal(r.commit_ms, FX_COMMIT_MS);
	assert_int_equal(r.expire_ms, -1);
	commit_record_free(&r);
}

static void offset_commit_v1_has_expire(void **state)
{
	(void)state;
	lt_commit_record r;
	assert_int_equal(DECODE(fx_offset_key_v1, fx_offset_value_v1, &r), 0);
	assert_int_equal(r.type, LT_CR_OFFSET_COMMIT);
	assert_offset_key(&r, 1);
	assert_int_equal(r.value_version, 1);
	assert_int_equal(r.offset, 100);
	assert_string_equal(r.metadata, "");
	assert_int_equal(r.commit_ms, FX_COMMIT_MS);
	assert_int_equal(r.expire_ms, FX_EXPIRE_MS);
	commit_record_free(&r);
}

static void offset_commit_v2(void **state)
{
	(void)state;
	lt_commit_record r;
	assert_int_equal(DECODE(fx_offset_key_v1, fx_offset_value_v2, &r), 0);
	assert_int_equal(r.type, LT_CR_OFFSET_COMMIT);
	assert_int_equal(r.value_version, 2);
	assert_int_equal(r.offset, 1099511627776LL);
	assert_string_equal(r.metadata, "ab");
	assert_int_equal(r.commit_ms, FX_COMMIT_MS);
	assert_int_equal(r.expire_ms, -1);
	assert_int_equal(r.leader_epoch, -1);
	commit_record_free(&r);
}

static void offset_commit_v3_leader_epoch(void **state)
{
	(void)state;
	lt_commit_record r;
	assert_int_equal(DECODE(fx_offset_key_v1, fx_offset_value_v3, &r), 0);
	assert_int_equal(r.value_version, 3);
	assert_int_equal(r.offset, 100);
	assert_int_equal(r.leader_epoch, 7);
	assert_string_equal(r.metadata, "");
	assert_int_equal(r.commit_ms, FX_COMMIT_MS);
	assert_int_equal(r.expire_ms, -1);
	commit_record_free(&r);

	assert_int_equal(DECODE(fx_offset_key_v1, fx_offset_value_v3_noepoch, &r), 0);
	assert_int_equal(r.offset, 0);
	assert_int_equal(r.leader_epoch, -1);
	commit_record_free(&r);
}

/* Kafka 4.x writes the flexible v4 for every commit: without it the commit stream saw no commit there. */
static void offset_commit_v4_flexible(void **state)
{
	(void)state;
	lt_commit_record r;
	assert_int_equal(DECODE(fx_offset_key_v1, fx_offset_value_v4_kafka44, &r), 0);
	assert_int_equal(r.type, LT_CR_OFFSET_COMMIT);
	assert_offset_key(&r, 1);
	assert_int_equal(r.value_version, 4);
	assert_int_equal(r.offset, 3);
	assert_int_equal(r.leader_epoch, -1);
	assert_string_equal(r.metadata, "");
	assert_int_equal(r.metadata_len, 0);
	assert_int_equal(r.commit_ms, FX_KAFKA44_COMMIT_MS);
	assert_int_equal(r.expire_ms, -1);
	commit_record_free(&r);

	assert_int_equal(DECODE(fx_offset_key_v1, fx_offset_value_v4_meta, &r), 0);
	assert_int_equal(r.offset, 100);
	assert_int_equal(r.leader_epoch, 7);
	assert_string_equal(r.metadata, "m");
	assert_int_equal(r.metadata_len, 1);
	assert_int_equal(r.commit_ms, FX_COMMIT_MS);
	commit_record_free(&r);

	/* compact metadata: null (0) is not allowed; a length of 300 takes a two-byte varint */
	uint8_t v[FX_LEN(fx_offset_value_v4_meta)];
	memcpy(v, fx_offset_value_v4_meta, sizeof v);
	v[14] = 0x00;
	assert_int_equal(decode(fx_offset_key_v1, FX_LEN(fx_offset_key_v1), v, sizeof v, &r), -1);
	assert_non_null(strstr(err, "null metadata"));
	enum { META = 300 };
	uint8_t big[2 + 8 + 4 + 2 + META + 8 + 1];
	memset(big, 'x', sizeof big);
	memcpy(big, fx_offset_value_v4_meta, 14);
	big[14] = ((META + 1) & 0x7f) | 0x80; /* 301 = 0xad 0x02 */
	big[15] = (META + 1) >> 7;
	memcpy(big + 16 + META, fx_offset_value_v4_meta + 16, 8);
	big[sizeof big - 1] = 0x00; /* no tagged fields */
	assert_int_equal(decode(fx_offset_key_v1, FX_LEN(fx_offset_key_v1), big, sizeof big, &r), 0);
	assert_int_equal(r.metadata_len, META);
	assert_int_equal(r.commit_ms, FX_COMMIT_MS);
	commit_record_free(&r);
	/* a varint longer than 5 bytes, and a tagged field larger than what is left */
	memcpy(v, fx_offset_value_v4_meta, sizeof v);
	v[14] = 0xff;
	v[15] = 0xff;
	v[16] = 0xff;
	v[17] = 0xff;
	v[18] = 0xff;
	assert_int_equal(decode(fx_offset_key_v1, FX_LEN(fx_offset_key_v1), v, sizeof v, &r), -1);
	assert_non_null(strstr(err, "invalid varint metadata"));
	memcpy(v, fx_offset_value_v4_meta, sizeof v);
	v[sizeof v - 3] = 0x7f; /* tag 5's size */
	assert_int_equal(decode(fx_offset_key_v1, FX_LEN(fx_offset_key_v1), v, sizeof v, &r), -1);
	assert_non_null(strstr(err, "truncated tagged field"));
}

static void assert_member1(const lt_commit_member *m, int v)
{
	assert_string_equal(m->member_id, "m-1");
	assert_string_equal(m->client_id, "c");
	assert_string_equal(m->client_host, "/h");
	assert_int_equal(m->rebalance_timeout_ms, v >= 1 ? 300000 : -1);
	assert_int_equal(m->session_timeout_ms, 10000);
	assert_int_equal(m->subscription_len, 2);
	assert_int_equal(m->subscription[0], 0xaa);
	assert_int_equal(m->subscription[1], 0xbb);
	if (v >= 3)
		assert_string_equal(m->group_instance_id, "i-1");
	else
		assert_null(m->group_instance_id);
}

static void assert_group_head(const lt_commit_record *r, int v)
{
	assert_int_equal(r->type, LT_CR_GROUP_METADATA);
	assert_int_equal(r->key_version, 2);
	assert_int_equal(r->value_version, v);
	assert_string_equal(r->group, "g1");
	assert_null(r->topic);
	assert_string_equal(r->protocol_type, "consumer");
	assert_int_equal(r->generation, 5);
	assert_string_equal(r->protocol, "range");
	assert_string_equal(r->leader, "m-1");
	assert_int_equal(r->state_ms, v >= 2 ? FX_STATE_MS : -1);
}

static void group_metadata_v0_v1(void **state)
{
	(void)state;
	lt_commit_record r;
	assert_int_equal(DECODE(fx_group_key, fx_group_value_v0, &r), 0);
	assert_group_head(&r, 0);
	assert_int_equal(r.n_members, 1);
	assert_member1(&r.members[0], 0);
	assert_int_equal(r.members[0].assignment_len, 0);
	commit_record_free(&r);

	assert_int_equal(DECODE(fx_group_key, fx_group_value_v1, &r), 0);
	assert_group_head(&r, 1);
	assert_int_equal(r.n_members, 1);
	assert_member1(&r.members[0], 1);
	commit_record_free(&r);
}

static void group_metadata_v2_two_members(void **state)
{
	(void)state;
	lt_commit_record r;
	assert_int_equal(DECODE(fx_group_key, fx_group_value_v2, &r), 0);
	assert_group_head(&r, 2);
	assert_int_equal(r.n_members, 2);
	assert_member1(&r.members[0], 2);
	assert_int_equal(r.members[0].assignment_len, 1);
	assert_int_equal(r.members[0].assignment[0], 0xcc);
	fx_expect_member(&r.members[1], &(struct fx_member_want){ .member_id = "m-2",
								  .client_id = "c2",
								  .client_host = "/i",
								  .rebalance_timeout_ms = 60000,
								  .session_timeout_ms = 45000 });
	commit_record_free(&r);
}

static void group_metadata_v3(void **state)
{
	(void)state;
	lt_commit_record r;
	assert_int_equal(DECODE(fx_group_key, fx_group_value_v3, &r), 0);
	assert_group_head(&r, 3);
	assert_int_equal(r.n_members, 1);
	assert_member1(&r.members[0], 3);
	commit_record_free(&r);

	assert_int_equal(DECODE(fx_group_key, fx_group_value_v3_empty, &r), 0);
	assert_int_equal(r.type, LT_CR_GROUP_METADATA);
	assert_string_equal(r.protocol_type, "consumer");
	assert_int_equal(r.generation, 6);
	assert_null(r.protocol);
	assert_null(r.leader);
	assert_int_equal(r.state_ms, FX_STATE_MS);
	assert_int_equal(r.n_members, 0);
	commit_record_free(&r);

	assert_int_equal(DECODE(fx_group_key, fx_group_value_v3_dynamic, &r), 0);
	assert_string_equal(r.protocol_type, "");
	assert_int_equal(r.generation, 1);
	assert_string_equal(r.protocol, "x");
	assert_int_equal(r.state_ms, -1);
	assert_int_equal(r.n_members, 1);
	fx_expect_member(&r.members[0], &(struct fx_member_want){ .member_id = "a",
								  .client_id = "",
								  .client_host = "",
								  .rebalance_timeout_ms = 1,
								  .session_timeout_ms = 2 });
	assert_null(r.members[0].subscription);
	commit_record_free(&r);
}

static void tombstones(void **state)
{
	(void)state;
	lt_commit_record r;
	assert_int_equal(decode(fx_offset_key_v0, FX_LEN(fx_offset_key_v0), NULL, 0, &r), 0);
	assert_int_equal(r.type, LT_CR_OFFSET_DELETE);
	assert_offset_key(&r, 0);
	assert_int_equal(r.value_version, -1);
	commit_record_free(&r);

	assert_int_equal(decode(fx_offset_key_v1, FX_LEN(fx_offset_key_v1), NULL, 0, &r), 0);
	assert_int_equal(r.type, LT_CR_OFFSET_DELETE);
	assert_offset_key(&r, 1);
	commit_record_free(&r);

	assert_int_equal(decode(fx_group_key, FX_LEN(fx_group_key), NULL, 0, &r), 0);
	assert_int_equal(r.type, LT_CR_GROUP_DELETE);
	assert_string_equal(r.group, "g1");
	assert_int_equal(r.value_version, -1);
	commit_record_free(&r);
}

static void unknown_key_versions_skipped(void **state)
{
	(void)state;
	/* Key version 3 is ConsumerGroupMetadataKey (KIP-848): group "g1". Skipped, but its group id is
	 * read so that the stream knows the group runs the new protocol. Its value (flexible) is not read
	 * beyond the version. */
	static const uint8_t k3[] = { 0x00, 0x03, 0x00, 0x02, 'g', '1' };
	static const uint8_t k3_bad[] = { 0x00, 0x03, 0x00, 0x05, 'g', '1' }; /* group length lies */
	static const uint8_t v[] = { 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00 };
	static const uint8_t kmax[] = { 0x7f, 0xff };
	static const uint8_t kneg[] = { 0xff, 0xff, 0x01 };
	lt_commit_record r;
	assert_int_equal(DECODE(k3, v, &r), 0);
	assert_int_equal(r.type, LT_CR_UNKNOWN_KEY);
	assert_int_equal(r.key_version, 3);
	assert_string_equal(r.group, "g1");
	assert_int_equal(r.value_version, 0);
	assert_null(r.topic);
	commit_record_free(&r);
	assert_int_equal(decode(k3, FX_LEN(k3), NULL, 0, &r), 0);
	assert_int_equal(r.type, LT_CR_UNKNOWN_KEY);
	assert_string_equal(r.group, "g1");
	assert_int_equal(r.value_version, -1);
	commit_record_free(&r);
	assert_int_equal(DECODE(k3_bad, v, &r), 0); /* still just skipped, anonymous */
	assert_int_equal(r.type, LT_CR_UNKNOWN_KEY);
	assert_null(r.group);
	commit_record_free(&r);
	assert_int_equal(DECODE(kmax, v, &r), 0);
	assert_int_equal(r.type, LT_CR_UNKNOWN_KEY);
	assert_int_equal(r.key_version, 32767);
	commit_record_free(&r);
	assert_int_equal(DECODE(kneg, v, &r), 0);
	assert_int_equal(r.type, LT_CR_UNKNOWN_KEY);
	assert_int_equal(r.key_version, -1);
	commit_record_free(&r);
}

static void unknown_value_versions_skipped(void **state)
{
	(void)state;
	/* OffsetCommitValue v5 and GroupMetadataValue v4 are not handled: skipped with the key known. */
	static const uint8_t v5[] = {
		0x00, 0x05,                                     /* value version 5 */
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x64, /* offset 100 */
		0xff, 0xff, 0xff, 0xff,                         /* leaderEpoch -1 */
		0x01,                                           /* metadata "" (compact string) */
		0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, /* commitTimestamp */
		0x00,                                           /* no tagged fields */
	};
	static const uint8_t vneg[] = { 0xff, 0xfe, 0x00 };
	static const uint8_t vbig[] = { 0x01, 0x00 };
	lt_commit_record r;
	assert_int_equal(DECODE(fx_offset_key_v1, v5, &r), 0);
	assert_int_equal(r.type, LT_CR_UNKNOWN_VALUE);
	assert_int_equal(r.value_version, 5);
	assert_offset_key(&r, 1);
	assert_int_equal(r.offset, -1); /* not guessed at */
	commit_record_free(&r);
	assert_int_equal(DECODE(fx_group_key, fx_offset_value_v4_kafka44, &r), 0);
	assert_int_equal(r.value_version, 4);
	assert_int_equal(r.type, LT_CR_UNKNOWN_VALUE);
	assert_string_equal(r.group, "g1");
	assert_null(r.protocol_type);
	commit_record_free(&r);
	assert_int_equal(DECODE(fx_offset_key_v0, vneg, &r), 0);
	assert_int_equal(r.type, LT_CR_UNKNOWN_VALUE);
	assert_int_equal(r.value_version, -2);
	commit_record_free(&r);
	assert_int_equal(DECODE(fx_group_key, vbig, &r), 0);
	assert_int_equal(r.type, LT_CR_UNKNOWN_VALUE);
	assert_int_equal(r.value_version, 256);
	commit_record_free(&r);
}

static const struct fx_pair pairs[] = {
	FX_PAIRS_OFFSET_V0_V3,
	FX_PAIR(fx_offset_key_v1, fx_offset_value_v4_kafka44),
	FX_PAIR(fx_offset_key_v1, fx_offset_value_v4_meta),
	FX_PAIRS_GROUP,
};

static void truncated_at_every_length(void **state)
{
	(void)state;
	size_t checked = 0;
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		const struct fx_pair *p = &pairs[i];
		lt_commit_record r;
		assert_int_equal(decode(p->k, p->klen, p->v, p->vlen, &r), 0);
		commit_record_free(&r);
		for (size_t n = 0; n < p->klen; n++) {
			int rc = decode(p->k, n, p->v, p->vlen, &r);
			if (rc != -1)
				fail_msg("pair %zu: key cut at %zu of %zu decoded", i, n, p->klen);
			assert_non_null(strstr(err, "key: truncated"));
			/* a truncated key is also an error for a tombstone */
			assert_int_equal(decode(p->k, n, NULL, 0, &r), -1);
			checked += 2;
		}
		for (size_t n = 0; n < p->vlen; n++) {
			int rc = decode(p->k, p->klen, p->v, n, &r);
			if (rc != -1)
				fail_msg("pair %zu: value cut at %zu of %zu decoded", i, n, p->vlen);
			assert_non_null(strstr(err, "value: truncated"));
			checked++;
		}
	}
	assert_true(checked > 500);
}

/* Random corruption of every fixture (fixed seed): each decode either succeeds or fails cleanly; ASan
 * turns any read outside the exact-size copies into a failure. A successful decode of a commit must
 * still carry a key, and decoded member counts must match the array. */
static void random_corruption_never_reads_outside(void **state)
{
	(void)state;
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	size_t ok = 0, bad = 0;
	for (int iter = 0; iter < 20000; iter++) {
		const struct fx_pair *p = &pairs[(size_t)iter % (sizeof pairs / sizeof pairs[0])];
		uint8_t k[64], v[256];
		memcpy(k, p->k, p->klen);
		memcpy(v, p->v, p->vlen);
		int flips = 1 + (int)(iter % 4);
		for (int f = 0; f < flips; f++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			size_t at = (size_t)(x >> 8) % (p->klen + p->vlen);
			uint8_t val = (uint8_t)x;
			if (at < p->klen)
				k[at] = val;
			else
				v[at - p->klen] = val;
		}
		lt_commit_record r;
		if (decode(k, p->klen, v, p->vlen, &r) == 0) {
			if (r.type == LT_CR_OFFSET_COMMIT || r.type == LT_CR_GROUP_METADATA)
				assert_non_null(r.group);
			if (r.n_members)
				assert_non_null(r.members);
			commit_record_free(&r);
			ok++;
		} else {
			assert_true(err[0] != '\0');
			bad++;
		}
	}
	assert_true(ok > 0 && bad > 0);
}

static void malformed_fields_rejected(void **state)
{
	(void)state;
	lt_commit_record r;
	/* trailing bytes after a complete key / value */
	static const uint8_t key_trailing[] = { 0x00, 0x02, 0x00, 0x01, 'g', 0x00 };
	assert_int_equal(decode(key_trailing, sizeof key_trailing, NULL, 0, &r), -1);
	assert_non_null(strstr(err, "1 trailing bytes"));
	uint8_t val[FX_LEN(fx_offset_value_v3) + 1];
	memcpy(val, fx_offset_value_v3, sizeof fx_offset_value_v3);
	val[sizeof val - 1] = 0;
	assert_int_equal(decode(fx_offset_key_v1, FX_LEN(fx_offset_key_v1), val, sizeof val, &r), -1);
	assert_non_null(strstr(err, "value: 1 trailing bytes"));

	/* null group (-1) in a non-nullable string; -2 anywhere */
	static const uint8_t null_group[] = { 0x00, 0x02, 0xff, 0xff };
	assert_int_equal(decode(null_group, sizeof null_group, NULL, 0, &r), -1);
	assert_non_null(strstr(err, "invalid length -1 of group"));
	static const uint8_t neg_topic[] = { 0x00, 0x01, 0x00, 0x01, 'g', 0xff, 0xfe, 0, 0, 0, 0 };
	assert_int_equal(decode(neg_topic, sizeof neg_topic, NULL, 0, &r), -1);
	assert_non_null(strstr(err, "invalid length -2 of topic"));

	/* NUL inside an identifier would silently shorten it */
	static const uint8_t nul_group[] = { 0x00, 0x02, 0x00, 0x02, 'g', 0x00 };
	assert_int_equal(decode(nul_group, sizeof nul_group, NULL, 0, &r), -1);
	assert_non_null(strstr(err, "NUL byte in group"));

	/* NUL inside metadata is kept with its real length */
	static const uint8_t meta_nul[] = {
		0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0x05, 0x00, 0x03, 'a', 0x00, 'b', 0, 0, 0, 0, 0, 0, 0, 0x09,
	};
	assert_int_equal(decode(fx_offset_key_v0, FX_LEN(fx_offset_key_v0), meta_nul, sizeof meta_nul, &r), 0);
	assert_int_equal(r.metadata_len, 3);
	assert_memory_equal(r.metadata, "a\0b", 3);
	assert_int_equal(r.commit_ms, 9);
	commit_record_free(&r);

	/* a members count that cannot fit in what is left: rejected before allocating */
	uint8_t huge[FX_LEN(fx_group_value_v3_empty)];
	memcpy(huge, fx_group_value_v3_empty, sizeof huge);
	huge[sizeof huge - 4] = 0x7f; /* members: 0x7f000000 */
	assert_int_equal(decode(fx_group_key, FX_LEN(fx_group_key), huge, sizeof huge, &r), -1);
	assert_non_null(strstr(err, "truncated members"));
	huge[sizeof huge - 4] = 0xff; /* members: negative */
	assert_int_equal(decode(fx_group_key, FX_LEN(fx_group_key), huge, sizeof huge, &r), -1);
	assert_non_null(strstr(err, "invalid members count"));

	/* negative bytes length of the subscription */
	uint8_t negsub[FX_LEN(fx_group_value_v0)];
	memcpy(negsub, fx_group_value_v0, sizeof negsub);
	size_t at = sizeof negsub - 4 - 6; /* subscription length field */
	assert_int_equal(negsub[at + 3], 0x02);
	negsub[at] = 0xff;
	assert_int_equal(decode(fx_group_key, FX_LEN(fx_group_key), negsub, sizeof negsub, &r), -1);
	assert_non_null(strstr(err, "of subscription"));

	/* no key at all; an empty (not null) value is a truncated value, not a tombstone */
	assert_int_equal(decode(NULL, 0, NULL, 0, &r), -1);
	assert_non_null(strstr(err, "null key"));
	assert_int_equal(decode(fx_group_key, FX_LEN(fx_group_key), fx_group_value_v0, 0, &r), -1);
	assert_non_null(strstr(err, "value: truncated value version"));
}

static void subscription_topics(void **state)
{
	(void)state;
	/* ConsumerProtocolSubscription v0: topics ["a", "bc"], userData null */
	static const uint8_t v0[] = {
		0x00, 0x00,             /* version 0 */
		0x00, 0x00, 0x00, 0x02, /* topics: 2 */
		0x00, 0x01, 'a',        /*   "a" */
		0x00, 0x02, 'b',  'c',  /*   "bc" */
		0xff, 0xff, 0xff, 0xff, /* userData null */
	};
	/* v1: topics ["t"], userData (0 bytes), ownedPartitions [{"t", [0]}] */
	static const uint8_t v1[] = {
		0x00, 0x01,             /* version 1 */
		0x00, 0x00, 0x00, 0x01, /* topics: 1 */
		0x00, 0x01, 't',        /*   "t" */
		0x00, 0x00, 0x00, 0x00, /* userData (0 bytes) */
		0x00, 0x00, 0x00, 0x01, /* ownedPartitions: 1 */
		0x00, 0x01, 't',        /*   topic "t" */
		0x00, 0x00, 0x00, 0x01, /*   partitions: 1 */
		0x00, 0x00, 0x00, 0x00, /*     0 */
	};
	char **t;
	size_t n;
	uint8_t *copy = malloc(sizeof v0);
	memcpy(copy, v0, sizeof v0);
	assert_int_equal(commit_subscription_topics(copy, sizeof v0, &t, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(t[0], "a");
	assert_string_equal(t[1], "bc");
	for (size_t i = 0; i < n; i++)
		free(t[i]);
	free(t);
	/* cut anywhere inside the topics: not a subscription */
	for (size_t len = 0; len < 13; len++)
		assert_int_equal(commit_subscription_topics(copy, len, &t, &n), -1);
	free(copy);
	assert_int_equal(commit_subscription_topics(v1, sizeof v1, &t, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(t[0], "t");
	free(t[0]);
	free(t);
	static const uint8_t negver[] = { 0xff, 0xff, 0, 0, 0, 0 };
	static const uint8_t liar[] = { 0, 0, 0x10, 0, 0, 0, 0, 1, 'a' };
	assert_int_equal(commit_subscription_topics(negver, sizeof negver, &t, &n), -1);
	assert_int_equal(commit_subscription_topics(liar, sizeof liar, &t, &n), -1);
	assert_int_equal(commit_subscription_topics(NULL, 0, &t, &n), -1);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(offset_commit_v0),
	cmocka_unit_test(offset_commit_v1_has_expire),
	cmocka_unit_test(offset_commit_v2),
	cmocka_unit_test(offset_commit_v3_leader_epoch),
	cmocka_unit_test(offset_commit_v4_flexible),
	cmocka_unit_test(group_metadata_v0_v1),
	cmocka_unit_test(group_metadata_v2_two_members),
	cmocka_unit_test(group_metadata_v3),
	cmocka_unit_test(tombstones),
	cmocka_unit_test(unknown_key_versions_skipped),
	cmocka_unit_test(unknown_value_versions_skipped),
	cmocka_unit_test(truncated_at_every_length),
	cmocka_unit_test(malformed_fields_rejected),
	cmocka_unit_test(random_corruption_never_reads_outside),
	cmocka_unit_test(subscription_topics),
};

LT_TEST_MAIN(NULL, NULL)
