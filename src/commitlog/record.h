/* record.h — the records of Kafka's __consumer_offsets topic, decoded and encoded.
 *
 * Every key and value starts with a big-endian int16 version, followed by the fields of the schema of
 * that version (apache/kafka, group-coordinator: OffsetCommitKey, OffsetCommitValue, GroupMetadataKey,
 * GroupMetadataValue). Non-flexible versions: strings are int16 length + bytes (-1 = null where
 * nullable), bytes are int32 length + bytes, arrays are int32 count + elements, all integers
 * big-endian. Flexible versions (value version 4 of both schemas): strings are an unsigned varint of
 * length + 1 (0 = null), and each struct ends with tagged fields (count, then tag, size, bytes).
 *
 *   key version 0, 1  offset commit key   group, topic, partition (the two versions are identical)
 *   key version 2     group metadata key  group
 *   key version 3+    other coordinator records (KIP-848 groups, share groups, ...): skipped, counted;
 *                     of ConsumerGroupMetadataKey (3: group) only the group id is read, to tell that
 *                     the group runs the new consumer protocol; of ConsumerGroupMemberMetadataKey (5:
 *                     group, member id) the key and, of its value v0 (flexible: instanceId?, rackId?,
 *                     clientId, clientHost, subscribedTopicNames, subscribedTopicRegex?, ...), the
 *                     subscribed names and whether a regex is set: Kafka's expiry rule for such groups
 *                     keeps the offsets of the topics their members subscribe to
 *
 *   offset commit value  v0: offset, metadata, commitTimestamp
 *                        v1: offset, metadata, commitTimestamp, expireTimestamp
 *                        v2: offset, metadata, commitTimestamp
 *                        v3: offset, leaderEpoch, metadata, commitTimestamp
 *                        v4: as v3, flexible; tagged topicId (tag 0, skipped). Kafka 4.x writes v4 for
 *                            every commit (seen on 4.4), so without it the commit stream saw nothing there
 *   group metadata value v0: protocolType, generation, protocol?, leader?, members
 *                        v1: + member.rebalanceTimeout;  v2: + currentStateTimestamp;
 *                        v3: + member.groupInstanceId?   (? = nullable)
 *   null value (tombstone): offsets deleted or expired / group deleted
 *
 * Any other value version (e.g. a group metadata v4, flexible, not written by Kafka 4.4) is reported as
 * LT_CR_UNKNOWN_VALUE with the key decoded, never guessed at. Pure C: no I/O.
 */
#ifndef LAGTOP_COMMITLOG_RECORD_H
#define LAGTOP_COMMITLOG_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LT_CR_KEY_CONSUMER_GROUP  3 /* ConsumerGroupMetadataKey: a KIP-848 consumer group exists */
#define LT_CR_KEY_CONSUMER_MEMBER 5 /* ConsumerGroupMemberMetadataKey: a KIP-848 group's member */

typedef enum {
	LT_CR_OFFSET_COMMIT = 0, /* key v0/v1 with a value */
	LT_CR_OFFSET_DELETE,     /* key v0/v1, null value: offset deleted or expired */
	LT_CR_GROUP_METADATA,    /* key v2 with a value */
	LT_CR_GROUP_DELETE,      /* key v2, null value: group deleted */
	LT_CR_UNKNOWN_KEY,       /* key version not 0-2: skipped (only key_version is set, and for
				    ConsumerGroupMetadataKey the group, for ConsumerGroupMemberMetadataKey
				    the group and member, value_version -1 on a tombstone) */
	LT_CR_UNKNOWN_VALUE,     /* known key, value version not handled: skipped (key fields are set) */
} lt_commit_record_type;

typedef struct lt_commit_member {
	char *member_id;
	char *group_instance_id; /* v3+, NULL when null or absent */
	char *client_id;
	char *client_host;
	int32_t rebalance_timeout_ms; /* v1+, -1 in v0 */
	int32_t session_timeout_ms;
	uint8_t *subscription; /* raw ConsumerProtocol bytes, may be NULL when len 0 */
	size_t subscription_len;
	uint8_t *assignment;
	size_t assignment_len;
} lt_commit_member;

typedef struct lt_commit_record {
	lt_commit_record_type type;
	int16_t key_version;
	int16_t value_version; /* -1 for tombstones */

	/* key */
	char *group;
	char *topic;       /* offset keys only */
	int32_t partition; /* offset keys only */

	/* offset commit value */
	int64_t offset;
	int32_t leader_epoch; /* v3+, -1 otherwise */
	char *metadata;       /* never NULL in a decoded commit */
	size_t metadata_len;  /* metadata may contain NUL bytes; this is its real length */
	int64_t commit_ms;
	int64_t expire_ms; /* v1, -1 otherwise */

	/* group metadata value */
	char *protocol_type;
	int32_t generation;
	char *protocol;   /* nullable */
	char *leader;     /* nullable */
	int64_t state_ms; /* currentStateTimestamp, v2+, -1 otherwise */
	size_t n_members;
	lt_commit_member *members;

	/* ConsumerGroupMemberMetadata (key v5, type LT_CR_UNKNOWN_KEY): a KIP-848 group's member */
	char *member_id;
	bool member_topics_known; /* the value (v0) was read and subscribes by names only, no regex */
	char **member_topics;     /* its SubscribedTopicNames when known */
	size_t n_member_topics;
} lt_commit_record;

/* Decodes one record. value == NULL means a null value (tombstone); an empty but non-NULL value is
 * truncated. Returns 0 when the record was understood, including LT_CR_UNKNOWN_KEY/VALUE (skip it);
 * -1 on malformed input (truncated, negative length of a non-nullable field, NUL in an identifier,
 * trailing bytes) with a one-line reason in err. Never reads outside [key, key+key_len) and
 * [value, value+value_len). On success the caller frees with commit_record_free; on error *r holds
 * nothing to free. */
int commit_record_decode(const void *key, size_t key_len, const void *value, size_t value_len, lt_commit_record *r,
			 char *err, size_t errlen);
void commit_record_free(lt_commit_record *r);

const char *commit_record_type_name(lt_commit_record_type t);

/* The topics of a member's subscription (ConsumerProtocolSubscription v0-v3, non-flexible: int16
 * version, then topics as an array of strings; the later fields are not needed and not read). Used
 * for Kafka's expiry rule of Stable consumer groups. Returns 0 with a fresh array of n strings
 * (free each and the array), or -1 when the bytes are not such a subscription. */
int commit_subscription_topics(const uint8_t *p, size_t len, char ***topics, size_t *n);

/* A growable byte buffer for the encoder. */
typedef struct lt_bytes {
	uint8_t *data;
	size_t len;
	size_t cap;
} lt_bytes;
void bytes_free(lt_bytes *b);

/* Encodes r (the inverse of commit_record_decode) using r->type, r->key_version and r->value_version:
 * LT_CR_OFFSET_COMMIT (key v0/v1, value v0-v3), LT_CR_OFFSET_DELETE, LT_CR_GROUP_METADATA (key v2,
 * value v0-v3), LT_CR_GROUP_DELETE. The key is appended to *key; the value to *value, or for a
 * tombstone *value is left untouched and *is_null set. Returns -1 (with err) for anything else or
 * a field the version cannot carry (a string longer than 32767 bytes). */
int commit_record_encode(const lt_commit_record *r, lt_bytes *key, lt_bytes *value, int *is_null, char *err,
			 size_t errlen);

/* What a KIP-848 consumer group's member writes about itself: ConsumerGroupMemberMetadataValue v0 (a
 * flexible version: compact strings, tagged fields). A NULL string is written as null. */
typedef struct lt_consumer_member_value {
	const char *instance_id;
	const char *rack_id;
	const char *client_id;
	const char *client_host;
	const char *const *topics; /* SubscribedTopicNames */
	size_t n_topics;
	const char *regex; /* SubscribedTopicRegex */
	int32_t rebalance_timeout_ms;
	const char *assignor; /* ServerAssignor */
} lt_consumer_member_value;

/* A KIP-848 group's own records, as Kafka 4.x writes them (lagtop-sim writes them; commit_record_decode
 * reads them back as LT_CR_UNKNOWN_KEY with the group, the member and its subscribed names):
 * ConsumerGroupMetadataKey (3) with, unless epoch is NULL (a tombstone), its value v0 (the group epoch);
 * ConsumerGroupMemberMetadataKey (5) with, unless v is NULL, its value v0. The key is appended to *key, the
 * value to *value. Returns -1 (with err, both buffers untouched) for an id longer than a key string holds. */
int commit_consumer_group_encode(const char *group, const int32_t *epoch, lt_bytes *key, lt_bytes *value, char *err,
				 size_t errlen);
int commit_consumer_member_encode(const char *group, const char *member, const lt_consumer_member_value *v,
				  lt_bytes *key, lt_bytes *value, char *err, size_t errlen);

/* The __consumer_offsets partition of a group, as Kafka computes it:
 * Utils.abs(groupId.hashCode()) % partitions, with Java's String.hashCode over the UTF-16 code
 * units of the id (malformed UTF-8 counts one U+FFFD per maximal invalid subpart, as Java decodes
 * it) and Utils.abs mapping Integer.MIN_VALUE to 0. partitions must be > 0. */
int32_t commit_group_hash(const char *group);
int32_t commit_partition_for_group(const char *group, int32_t partitions);

#endif
