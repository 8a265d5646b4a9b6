/* commitlog_fixtures.h — __consumer_offsets records built by hand, byte by byte, from Kafka's
 * published schemas (apache/kafka group-coordinator OffsetCommitKey/Value, GroupMetadataKey/Value;
 * core/src/main/resources/common/message for the 0-1 / 2 key versions). Not produced by lagtop's
 * encoder: the decoder is tested against these, and the encoder is compared with them.
 *
 * All integers big-endian; string = int16 length + UTF-8; nullable string null = ff ff;
 * bytes = int32 length + bytes; array = int32 count + elements.
 *
 * After the bytes: fx_offset_commit and fx_group_metadata (decoded records to encode or feed a stream), and
 * for cmocka tests
 * fx_expect_offset_commit and fx_expect_member (every field of a decoded commit or member checked).
 *
 * Times used:  1700000000000 = 00 00 01 8b cf e5 68 00   (commit)
 *              1700086400000 = 00 00 01 8b d5 0b c4 00   (expire = commit + 1 day)
 *              1700000000500 = 00 00 01 8b cf e5 69 f4   (currentStateTimestamp)
 */
#ifndef LAGTOP_TESTS_COMMITLOG_FIXTURES_H
#define LAGTOP_TESTS_COMMITLOG_FIXTURES_H

#include <stddef.h>
#include <stdint.h>

/* The bytes are laid out field by field, each line commented. */
/* clang-format off */

#define FX_COMMIT_MS 1700000000000LL
#define FX_EXPIRE_MS 1700086400000LL
#define FX_STATE_MS 1700000000500LL

/* OffsetCommitKey v0: group "g1", topic "t", partition 3 */
static const uint8_t fx_offset_key_v0[] = {
	0x00, 0x00,                   /* key version 0 */
	0x00, 0x02, 'g', '1',         /* group "g1" */
	0x00, 0x01, 't',              /* topic "t" */
	0x00, 0x00, 0x00, 0x03,       /* partition 3 */
};

/* OffsetCommitKey v1 (what Kafka writes): group "g1", topic "t", partition 3 */
static const uint8_t fx_offset_key_v1[] = {
	0x00, 0x01,                   /* key version 1 */
	0x00, 0x02, 'g', '1',         /* group "g1" */
	0x00, 0x01, 't',              /* topic "t" */
	0x00, 0x00, 0x00, 0x03,       /* partition 3 */
};

/* OffsetCommitValue v0: offset 100, metadata "m", commitTimestamp */
static const uint8_t fx_offset_value_v0[] = {
	0x00, 0x00,                                     /* value version 0 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x64, /* offset 100 */
	0x00, 0x01, 'm',                                /* metadata "m" */
	0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, /* commitTimestamp */
};

/* OffsetCommitValue v1: offset 100, metadata "", commitTimestamp, expireTimestamp */
static const uint8_t fx_offset_value_v1[] = {
	0x00, 0x01,                                     /* value version 1 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x64, /* offset 100 */
	0x00, 0x00,                                     /* metadata "" */
	0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, /* commitTimestamp */
	0x00, 0x00, 0x01, 0x8b, 0xd5, 0x0b, 0xc4, 0x00, /* expireTimestamp */
};

/* OffsetCommitValue v2: offset 2^40, metadata "ab", commitTimestamp */
static const uint8_t fx_offset_value_v2[] = {
	0x00, 0x02,                                     /* value version 2 */
	0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, /* offset 1099511627776 */
	0x00, 0x02, 'a', 'b',                           /* metadata "ab" */
	0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, /* commitTimestamp */
};

/* OffsetCommitValue v3 (what Kafka writes): offset 100, leaderEpoch 7, metadata "", commitTimestamp */
static const uint8_t fx_offset_value_v3[] = {
	0x00, 0x03,                                     /* value version 3 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x64, /* offset 100 */
	0x00, 0x00, 0x00, 0x07,                         /* leaderEpoch 7 */
	0x00, 0x00,                                     /* metadata "" */
	0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, /* commitTimestamp */
};

/* OffsetCommitValue v3 with leaderEpoch -1 (unknown) */
static const uint8_t fx_offset_value_v3_noepoch[] = {
	0x00, 0x03,                                     /* value version 3 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* offset 0 */
	0xff, 0xff, 0xff, 0xff,                         /* leaderEpoch -1 */
	0x00, 0x00,                                     /* metadata "" */
	0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, /* commitTimestamp */
};

/* OffsetCommitValue v4 as Apache Kafka 4.4.0 wrote it (read back from __consumer_offsets): offset 3,
 * leaderEpoch -1, metadata "" (compact), commitTimestamp, tagged fields: topicId (tag 0, 16 bytes) */
#define FX_KAFKA44_COMMIT_MS 1796083209721LL
static const uint8_t fx_offset_value_v4_kafka44[] = {
	0x00, 0x04,                                     /* value version 4 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, /* offset 3 */
	0xff, 0xff, 0xff, 0xff,                         /* leaderEpoch -1 */
	0x01,                                           /* metadata "" (compact: length + 1) */
	0x00, 0x00, 0x01, 0xa2, 0x2e, 0xe6, 0xd5, 0xf9, /* commitTimestamp */
	0x01,                                           /* 1 tagged field */
	0x00, 0x10,                                     /* tag 0 (topicId), 16 bytes */
	0x5b, 0x5e, 0x8d, 0x31, 0xcc, 0x05, 0x4e, 0x16, 0xba, 0x2f, 0x55, 0x9b, 0xa0, 0xec, 0x2e, 0xb7,
};

/* OffsetCommitValue v4 built by hand: offset 100, leaderEpoch 7, metadata "m", commitTimestamp, two
 * tagged fields (topicId and an unknown tag 5 of 2 bytes: skipped) */
static const uint8_t fx_offset_value_v4_meta[] = {
	0x00, 0x04,                                     /* value version 4 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x64, /* offset 100 */
	0x00, 0x00, 0x00, 0x07,                         /* leaderEpoch 7 */
	0x02, 'm',                                      /* metadata "m" */
	0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, /* commitTimestamp */
	0x02,                                           /* 2 tagged fields */
	0x00, 0x10,                                     /* tag 0 (topicId), 16 bytes */
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10,
	0x05, 0x02, 0xaa, 0xbb,                         /* tag 5, 2 bytes */
};

/* GroupMetadataKey v2: group "g1" */
static const uint8_t fx_group_key[] = {
	0x00, 0x02,                   /* key version 2 */
	0x00, 0x02, 'g', '1',         /* group "g1" */
};

/* GroupMetadataValue v0: protocolType "consumer", generation 5, protocol "range", leader "m-1",
 * one member { memberId "m-1", clientId "c", clientHost "/h", sessionTimeout 10000,
 * subscription aa bb, assignment (empty) } */
static const uint8_t fx_group_value_v0[] = {
	0x00, 0x00,                                         /* value version 0 */
	0x00, 0x08, 'c', 'o', 'n', 's', 'u', 'm', 'e', 'r', /* protocolType "consumer" */
	0x00, 0x00, 0x00, 0x05,                             /* generation 5 */
	0x00, 0x05, 'r', 'a', 'n', 'g', 'e',                /* protocol "range" */
	0x00, 0x03, 'm', '-', '1',                          /* leader "m-1" */
	0x00, 0x00, 0x00, 0x01,                             /* members: 1 */
	0x00, 0x03, 'm', '-', '1',                          /*   memberId "m-1" */
	0x00, 0x01, 'c',                                    /*   clientId "c" */
	0x00, 0x02, '/', 'h',                               /*   clientHost "/h" */
	0x00, 0x00, 0x27, 0x10,                             /*   sessionTimeout 10000 */
	0x00, 0x00, 0x00, 0x02, 0xaa, 0xbb,                 /*   subscription (2 bytes) */
	0x00, 0x00, 0x00, 0x00,                             /*   assignment (0 bytes) */
};

/* GroupMetadataValue v1: as v0 plus member rebalanceTimeout 300000 */
static const uint8_t fx_group_value_v1[] = {
	0x00, 0x01,                                         /* value version 1 */
	0x00, 0x08, 'c', 'o', 'n', 's', 'u', 'm', 'e', 'r', /* protocolType "consumer" */
	0x00, 0x00, 0x00, 0x05,                             /* generation 5 */
	0x00, 0x05, 'r', 'a', 'n', 'g', 'e',                /* protocol "range" */
	0x00, 0x03, 'm', '-', '1',                          /* leader "m-1" */
	0x00, 0x00, 0x00, 0x01,                             /* members: 1 */
	0x00, 0x03, 'm', '-', '1',                          /*   memberId "m-1" */
	0x00, 0x01, 'c',                                    /*   clientId "c" */
	0x00, 0x02, '/', 'h',                               /*   clientHost "/h" */
	0x00, 0x04, 0x93, 0xe0,                             /*   rebalanceTimeout 300000 */
	0x00, 0x00, 0x27, 0x10,                             /*   sessionTimeout 10000 */
	0x00, 0x00, 0x00, 0x02, 0xaa, 0xbb,                 /*   subscription (2 bytes) */
	0x00, 0x00, 0x00, 0x00,                             /*   assignment (0 bytes) */
};

/* GroupMetadataValue v2: as v1 plus currentStateTimestamp; two members */
static const uint8_t fx_group_value_v2[] = {
	0x00, 0x02,                                         /* value version 2 */
	0x00, 0x08, 'c', 'o', 'n', 's', 'u', 'm', 'e', 'r', /* protocolType "consumer" */
	0x00, 0x00, 0x00, 0x05,                             /* generation 5 */
	0x00, 0x05, 'r', 'a', 'n', 'g', 'e',                /* protocol "range" */
	0x00, 0x03, 'm', '-', '1',                          /* leader "m-1" */
	0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x69, 0xf4,     /* currentStateTimestamp */
	0x00, 0x00, 0x00, 0x02,                             /* members: 2 */
	0x00, 0x03, 'm', '-', '1',                          /*   memberId "m-1" */
	0x00, 0x01, 'c',                                    /*   clientId "c" */
	0x00, 0x02, '/', 'h',                               /*   clientHost "/h" */
	0x00, 0x04, 0x93, 0xe0,                             /*   rebalanceTimeout 300000 */
	0x00, 0x00, 0x27, 0x10,                             /*   sessionTimeout 10000 */
	0x00, 0x00, 0x00, 0x02, 0xaa, 0xbb,                 /*   subscription (2 bytes) */
	0x00, 0x00, 0x00, 0x01, 0xcc,                       /*   assignment (1 byte) */
	0x00, 0x03, 'm', '-', '2',                          /*   memberId "m-2" */
	0x00, 0x02, 'c', '2',                               /*   clientId "c2" */
	0x00, 0x02, '/', 'i',                               /*   clientHost "/i" */
	0x00, 0x00, 0xea, 0x60,                             /*   rebalanceTimeout 60000 */
	0x00, 0x00, 0xaf, 0xc8,                             /*   sessionTimeout 45000 */
	0x00, 0x00, 0x00, 0x00,                             /*   subscription (0 bytes) */
	0x00, 0x00, 0x00, 0x00,                             /*   assignment (0 bytes) */
};

/* GroupMetadataValue v3: as v2 with one static member (groupInstanceId "i-1") */
static const uint8_t fx_group_value_v3[] = {
	0x00, 0x03,                                         /* value version 3 */
	0x00, 0x08, 'c', 'o', 'n', 's', 'u', 'm', 'e', 'r', /* protocolType "consumer" */
	0x00, 0x00, 0x00, 0x05,                             /* generation 5 */
	0x00, 0x05, 'r', 'a', 'n', 'g', 'e',                /* protocol "range" */
	0x00, 0x03, 'm', '-', '1',                          /* leader "m-1" */
	0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x69, 0xf4,     /* currentStateTimestamp */
	0x00, 0x00, 0x00, 0x01,                             /* members: 1 */
	0x00, 0x03, 'm', '-', '1',                          /*   memberId "m-1" */
	0x00, 0x03, 'i', '-', '1',                          /*   groupInstanceId "i-1" */
	0x00, 0x01, 'c',                                    /*   clientId "c" */
	0x00, 0x02, '/', 'h',                               /*   clientHost "/h" */
	0x00, 0x04, 0x93, 0xe0,                             /*   rebalanceTimeout 300000 */
	0x00, 0x00, 0x27, 0x10,                             /*   sessionTimeout 10000 */
	0x00, 0x00, 0x00, 0x02, 0xaa, 0xbb,                 /*   subscription (2 bytes) */
	0x00, 0x00, 0x00, 0x00,                             /*   assignment (0 bytes) */
};

/* GroupMetadataValue v3 of an Empty group (what Kafka writes when the last member leaves):
 * protocolType "consumer", generation 6, protocol null, leader null, currentStateTimestamp, no members */
static const uint8_t fx_group_value_v3_empty[] = {
	0x00, 0x03,                                         /* value version 3 */
	0x00, 0x08, 'c', 'o', 'n', 's', 'u', 'm', 'e', 'r', /* protocolType "consumer" */
	0x00, 0x00, 0x00, 0x06,                             /* generation 6 */
	0xff, 0xff,                                         /* protocol null */
	0xff, 0xff,                                         /* leader null */
	0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x69, 0xf4,     /* currentStateTimestamp */
	0x00, 0x00, 0x00, 0x00,                             /* members: 0 */
};

/* GroupMetadataValue v3, a member with a null groupInstanceId */
static const uint8_t fx_group_value_v3_dynamic[] = {
	0x00, 0x03,                                         /* value version 3 */
	0x00, 0x00,                                         /* protocolType "" */
	0x00, 0x00, 0x00, 0x01,                             /* generation 1 */
	0x00, 0x01, 'x',                                    /* protocol "x" */
	0x00, 0x01, 'a',                                    /* leader "a" */
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,     /* currentStateTimestamp -1 */
	0x00, 0x00, 0x00, 0x01,                             /* members: 1 */
	0x00, 0x01, 'a',                                    /*   memberId "a" */
	0xff, 0xff,                                         /*   groupInstanceId null */
	0x00, 0x00,                                         /*   clientId "" */
	0x00, 0x00,                                         /*   clientHost "" */
	0x00, 0x00, 0x00, 0x01,                             /*   rebalanceTimeout 1 */
	0x00, 0x00, 0x00, 0x02,                             /*   sessionTimeout 2 */
	0x00, 0x00, 0x00, 0x00,                             /*   subscription (0 bytes) */
	0x00, 0x00, 0x00, 0x00,                             /*   assignment (0 bytes) */
};

#define FX_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* The records as (key, value) pairs, for the tests that take each one the same way: tables of struct
 * fx_pair built from FX_PAIRS_OFFSET_V0_V3 (the offset commits of value versions 0-3) and FX_PAIRS_GROUP
 * (every group metadata value). */
struct fx_pair {
	const uint8_t *k;
	size_t klen;
	const uint8_t *v;
	size_t vlen;
};
#define FX_PAIR(k, v) { k, FX_LEN(k), v, FX_LEN(v) }
#define FX_PAIRS_OFFSET_V0_V3                                  \
	FX_PAIR(fx_offset_key_v0, fx_offset_value_v0),         \
	FX_PAIR(fx_offset_key_v1, fx_offset_value_v1),         \
	FX_PAIR(fx_offset_key_v1, fx_offset_value_v2),         \
	FX_PAIR(fx_offset_key_v1, fx_offset_value_v3),         \
	FX_PAIR(fx_offset_key_v1, fx_offset_value_v3_noepoch)
#define FX_PAIRS_GROUP                                         \
	FX_PAIR(fx_group_key, fx_group_value_v0),              \
	FX_PAIR(fx_group_key, fx_group_value_v1),              \
	FX_PAIR(fx_group_key, fx_group_value_v2),              \
	FX_PAIR(fx_group_key, fx_group_value_v3),              \
	FX_PAIR(fx_group_key, fx_group_value_v3_empty),        \
	FX_PAIR(fx_group_key, fx_group_value_v3_dynamic)

/* clang-format on */

#ifdef LAGTOP_COMMITLOG_STREAM_H
#include <stddef.h>
#include <string.h>

/* A stream's counters are exactly want, every one of them (this part is there when "commitlog/stream.h"
 * came first); the first that differs is named. */
static inline void fx_expect_counters(const lt_commit_counters *got, const lt_commit_counters *want)
{
	static const struct {
		const char *name;
		size_t at;
	} fields[] = {
		{ "records", offsetof(lt_commit_counters, records) },
		{ "offset_commits", offsetof(lt_commit_counters, offset_commits) },
		{ "offset_tombstones", offsetof(lt_commit_counters, offset_tombstones) },
		{ "group_metadata", offsetof(lt_commit_counters, group_metadata) },
		{ "group_tombstones", offsetof(lt_commit_counters, group_tombstones) },
		{ "unknown_key", offsetof(lt_commit_counters, unknown_key) },
		{ "unknown_value", offsetof(lt_commit_counters, unknown_value) },
		{ "malformed", offsetof(lt_commit_counters, malformed) },
	};
	_Static_assert(sizeof fields / sizeof fields[0] * sizeof(uint64_t) == sizeof(lt_commit_counters),
		       "every counter is compared");
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		uint64_t g, w;
		memcpy(&g, (const char *)got + fields[i].at, sizeof g);
		memcpy(&w, (const char *)want + fields[i].at, sizeof w);
		if (g != w)
			fail_msg("counter %s: %llu, want %llu", fields[i].name, (unsigned long long)g,
				 (unsigned long long)w);
	}
}
#endif

#ifdef LAGTOP_COMMITLOG_RECORD_H
#include <stdio.h>

/* A decoded OffsetCommit record as a broker writes it today (key v1, value v3, no leader epoch, empty
 * metadata, no expiry) and the strings it points to (this part is there when "commitlog/record.h" came
 * first): fx_offset_commit fills one in. */
struct fx_commit {
	char group[64], topic[64], meta[1];
	lt_commit_record r;
};

static inline const lt_commit_record *fx_offset_commit(struct fx_commit *c, const char *group, const char *topic,
						       int32_t partition, int64_t offset, int64_t commit_ms)
{
	snprintf(c->group, sizeof c->group, "%s", group);
	snprintf(c->topic, sizeof c->topic, "%s", topic);
	c->meta[0] = '\0';
	c->r = (lt_commit_record){
		.type = LT_CR_OFFSET_COMMIT,
		.key_version = 1,
		.value_version = 3,
		.group = c->group,
		.topic = c->topic,
		.partition = partition,
		.offset = offset,
		.leader_epoch = -1,
		.metadata = c->meta,
		.commit_ms = commit_ms,
		.expire_ms = -1,
	};
	return &c->r;
}

/* A decoded GroupMetadata record as a broker writes it today (key v2, value v3): group of protocol_type in
 * generation, its state as of state_ms, the n members given; no protocol, no leader (the caller sets what
 * else it needs). fx_group_metadata fills one in, with copies of the strings. */
struct fx_group {
	char group[64], protocol_type[64];
	lt_commit_record r;
};

static inline lt_commit_record *fx_group_metadata(struct fx_group *c, const char *group, const char *protocol_type,
						  int32_t generation, int64_t state_ms, lt_commit_member *members,
						  size_t n)
{
	snprintf(c->group, sizeof c->group, "%s", group);
	snprintf(c->protocol_type, sizeof c->protocol_type, "%s", protocol_type);
	c->r = (lt_commit_record){
		.type = LT_CR_GROUP_METADATA,
		.key_version = 2,
		.value_version = 3,
		.group = c->group,
		.protocol_type = c->protocol_type,
		.generation = generation,
		.state_ms = state_ms,
		.n_members = n,
		.members = members,
	};
	return &c->r;
}

#ifdef CMOCKA_H_
/* A string field of a decoded record equals want (NULL: absent or null). */
static inline void fx_expect_str(const char *got, const char *want)
{
	if (want)
		assert_string_equal(got, want);
	else
		assert_null(got);
}

/* What a decoded offset commit must hold. */
struct fx_offset_want {
	int16_t key_version, value_version;
	const char *group, *topic;
	int32_t partition;
	int64_t offset;
	int32_t leader_epoch;
	const char *metadata;
	int64_t commit_ms, expire_ms;
};

/* got is an offset commit holding every field of want (this part is there when <cmocka.h> came first too). */
static inline void fx_expect_offset_commit(const lt_commit_record *got, const struct fx_offset_want *want)
{
	assert_int_equal(got->type, LT_CR_OFFSET_COMMIT);
	assert_int_equal(got->key_version, want->key_version);
	assert_int_equal(got->value_version, want->value_version);
	fx_expect_str(got->group, want->group);
	fx_expect_str(got->topic, want->topic);
	assert_int_equal(got->partition, want->partition);
	assert_int_equal(got->offset, want->offset);
	assert_int_equal(got->leader_epoch, want->leader_epoch);
	fx_expect_str(got->metadata, want->metadata);
	assert_int_equal(got->commit_ms, want->commit_ms);
	assert_int_equal(got->expire_ms, want->expire_ms);
}

/* What a decoded group member must hold. */
struct fx_member_want {
	const char *member_id, *group_instance_id, *client_id, *client_host;
	int32_t rebalance_timeout_ms, session_timeout_ms;
	const uint8_t *subscription;
	size_t subscription_len;
	const uint8_t *assignment;
	size_t assignment_len;
};

/* A decoded group member holds every field of want, its subscription and assignment byte for byte. */
static inline void fx_expect_member(const lt_commit_member *got, const struct fx_member_want *want)
{
	fx_expect_str(got->member_id, want->member_id);
	fx_expect_str(got->group_instance_id, want->group_instance_id);
	fx_expect_str(got->client_id, want->client_id);
	fx_expect_str(got->client_host, want->client_host);
	assert_int_equal(got->rebalance_timeout_ms, want->rebalance_timeout_ms);
	assert_int_equal(got->session_timeout_ms, want->session_timeout_ms);
	assert_int_equal(got->subscription_len, want->subscription_len);
	if (want->subscription_len)
		assert_memory_equal(got->subscription, want->subscription, want->subscription_len);
	assert_int_equal(got->assignment_len, want->assignment_len);
	if (want->assignment_len)
		assert_memory_equal(got->assignment, want->assignment, want->assignment_len);
}
#endif
#endif

#endif
