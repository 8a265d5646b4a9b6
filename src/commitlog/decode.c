/* decode.c — __consumer_offsets keys and values, strictly by Kafka's schemas (see record.h).
 *
 * A bounds-checked cursor reads the buffer: every read first checks what is left, so a truncated or
 * lying record becomes an error, never an out-of-bounds read. Lengths are checked against the bytes
 * left before anything is allocated, so a hostile length cannot make us allocate gigabytes.
 */
#include "commitlog/record.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

typedef struct {
	const uint8_t *p;
	size_t len;
	size_t pos;
	const char *what; /* "key" or "value", for messages */
	char *err;
	size_t errlen;
	bool failed;
} cursor;

__attribute__((format(printf, 2, 3))) static void fail(cursor *c, const char *fmt, ...)
{
	if (c->failed)
		return;
	c->failed = true;
	char msg[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (c->err && c->errlen)
		snprintf(c->err, c->errlen, "%s: %s at byte %zu of %zu", c->what, msg, c->pos, c->len);
}

static bool need(cursor *c, size_t n, const char *field)
{
	if (c->failed)
		return false;
	if (c->len - c->pos < n) {
		fail(c, "truncated %s (need %zu bytes, %zu left)", field, n, c->len - c->pos);
		return false;
	}
	return true;
}

static uint64_t read_be(cursor *c, size_t n, const char *field)
{
	if (!need(c, n, field))
		return 0;
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++)
		v = v << 8 | c->p[c->pos + i];
	c->pos += n;
	return v;
}

static int16_t read_i16(cursor *c, const char *field)
{
	return (int16_t)(uint16_t)read_be(c, 2, field);
}

static int32_t read_i32(cursor *c, const char *field)
{
	return (int32_t)(uint32_t)read_be(c, 4, field);
}

static int64_t read_i64(cursor *c, const char *field)
{
	return (int64_t)read_be(c, 8, field);
}

enum { STR_PLAIN, STR_NULLABLE, STR_ID /* non-nullable, no NUL byte allowed */ };

/* Unsigned varint (at most 5 bytes for 32 bits): lengths, counts and tags of flexible versions. */
static uint32_t read_uvarint(cursor *c, const char *field)
{
	uint32_t v = 0;
	for (int i = 0; i < 5; i++) {
		if (!need(c, 1, field))
			return 0;
		uint8_t b = c->p[c->pos++];
		if (i == 4 && b > 0x0f) {
			fail(c, "invalid varint %s", field);
			return 0;
		}
		v |= (uint32_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80))
			return v;
	}
	return v; /* not reached: the fifth byte either ends the varint or fails */
}

/* n bytes of string (its length already read). */
static char *take_string(cursor *c, size_t n, const char *field, int kind, size_t *lenp)
{
	if (!need(c, n, field))
		return NULL;
	const char *s = (const char *)c->p + c->pos;
	if (kind == STR_ID && memchr(s, 0, (size_t)n)) {
		fail(c, "NUL byte in %s", field);
		return NULL;
	}
	c->pos += n;
	char *out = xmalloc(n + 1);
	memcpy(out, s, n);
	out[n] = '\0';
	if (lenp)
		*lenp = n;
	return out;
}

/* int16 length + bytes. Returns NULL for a null string (nullable only) or on failure. */
static char *read_string(cursor *c, const char *field, int kind, size_t *lenp)
{
	int16_t n = read_i16(c, field);
	if (c->failed)
		return NULL;
	if (n < 0) {
		if (n == -1 && kind == STR_NULLABLE)
			return NULL;
		fail(c, "invalid length %d of %s", n, field);
		return NULL;
	}
	return take_string(c, (size_t)n, field, kind, lenp);
}

/* Flexible versions' compact string: uvarint length + 1 (0 = null), then the bytes. */
static char *read_compact_string(cursor *c, const char *field, int kind, size_t *lenp)
{
	uint32_t n1 = read_uvarint(c, field);
	if (c->failed)
		return NULL;
	if (n1 == 0) {
		if (kind != STR_NULLABLE)
			fail(c, "null %s", field);
		return NULL;
	}
	return take_string(c, n1 - 1, field, kind, lenp);
}

/* The tagged fields that end a flexible struct: a count, then per field its tag, size and bytes. None
 * is needed here (OffsetCommitValue v4's only one is topicId, tag 0), so all are skipped. */
static void skip_tagged_fields(cursor *c)
{
	uint32_t n = read_uvarint(c, "tagged fields count");
	for (uint32_t i = 0; i < n && !c->failed; i++) {
		(void)read_uvarint(c, "tag");
		uint32_t size = read_uvarint(c, "tagged field size");
		if (need(c, size, "tagged field"))
			c->pos += size;
	}
}

/* int32 length + bytes (non-nullable in these schemas). */
static uint8_t *read_bytes(cursor *c, const char *field, size_t *lenp)
{
	*lenp = 0;
	int32_t n = read_i32(c, field);
	if (c->failed)
		return NULL;
	if (n < 0) {
		fail(c, "invalid length %d of %s", n, field);
		return NULL;
	}
	if (!need(c, (size_t)n, field) || n == 0)
		return NULL;
	uint8_t *out = xmalloc((size_t)n);
	memcpy(out, c->p + c->pos, (size_t)n);
	c->pos += (size_t)n;
	*lenp = (size_t)n;
	return out;
}

static void check_end(cursor *c)
{
	if (!c->failed && c->pos != c->len)
		fail(c, "%zu trailing bytes", c->len - c->pos);
}

static void member_free(lt_commit_member *m)
{
	free(m->member_id);
	free(m->group_instance_id);
	free(m->client_id);
	free(m->client_host);
	free(m->subscription);
	free(m->assignment);
}

void commit_record_free(lt_commit_record *r)
{
	if (!r)
		return;
	free(r->group);
	free(r->topic);
	free(r->metadata);
	free(r->protocol_type);
	free(r->protocol);
	free(r->leader);
	for (size_t i = 0; i < r->n_members; i++)
		member_free(&r->members[i]);
	free(r->members);
	free(r->member_id);
	for (size_t i = 0; i < r->n_member_topics; i++)
		free(r->member_topics[i]);
	free(r->member_topics);
	memset(r, 0, sizeof *r);
}

/* v4 (flexible: Kafka 4.x writes it for every commit) = v3 with a compact metadata string and tagged
 * fields at the end. */
static void decode_offset_value(cursor *c, lt_commit_record *r)
{
	bool flexible = r->value_version >= 4;
	r->offset = read_i64(c, "offset");
	if (r->value_version >= 3)
		r->leader_epoch = read_i32(c, "leaderEpoch");
	if (flexible)
		r->metadata = read_compact_string(c, "metadata", STR_PLAIN, &r->metadata_len);
	else
		r->metadata = read_string(c, "metadata", STR_PLAIN, &r->metadata_len);
	r->commit_ms = read_i64(c, "commitTimestamp");
	if (r->value_version == 1)
		r->expire_ms = read_i64(c, "expireTimestamp");
	if (flexible)
		skip_tagged_fields(c);
}

static void decode_member(cursor *c, int16_t v, lt_commit_member *m)
{
	m->rebalance_timeout_ms = -1;
	m->member_id = read_string(c, "memberId", STR_ID, NULL);
	if (v >= 3)
		m->group_instance_id = read_string(c, "groupInstanceId", STR_NULLABLE, NULL);
	m->client_id = read_string(c, "clientId", STR_PLAIN, NULL);
	m->client_host = read_string(c, "clientHost", STR_PLAIN, NULL);
	if (v >= 1)
		m->rebalance_timeout_ms = read_i32(c, "rebalanceTimeout");
	m->session_timeout_ms = read_i32(c, "sessionTimeout");
	m->subscription = read_bytes(c, "subscription", &m->subscription_len);
	m->assignment = read_bytes(c, "assignment", &m->assignment_len);
}

/* The smallest member: memberId, clientId, clientHost (2 bytes each), sessionTimeout (4), two byte
 * arrays (4 each). A count larger than the bytes left could hold is malformed; checking it first
 * keeps a lying count from allocating a huge array. */
#define MIN_MEMBER_BYTES 18

static void decode_group_value(cursor *c, lt_commit_record *r)
{
	int16_t v = r->value_version;
	r->protocol_type = read_string(c, "protocolType", STR_PLAIN, NULL);
	r->generation = read_i32(c, "generation");
	r->protocol = read_string(c, "protocol", STR_NULLABLE, NULL);
	r->leader = read_string(c, "leader", STR_NULLABLE, NULL);
	if (v >= 2)
		r->state_ms = read_i64(c, "currentStateTimestamp");
	int32_t n = read_i32(c, "members count");
	if (c->failed)
		return;
	if (n < 0) {
		fail(c, "invalid members count %d", n);
		return;
	}
	if ((size_t)n > (c->len - c->pos) / MIN_MEMBER_BYTES) {
		fail(c, "truncated members (%d members cannot fit in %zu bytes)", n, c->len - c->pos);
		return;
	}
	r->members = xcalloc((size_t)n ? (size_t)n : 1, sizeof *r->members);
	for (int32_t i = 0; i < n && !c->failed; i++) {
		r->n_members++;
		decode_member(c, v, &r->members[i]);
	}
}

/* ConsumerGroupMemberMetadataValue v0 (flexible), up to its subscription: instanceId?, rackId?, clientId,
 * clientHost, subscribedTopicNames (compact array of compact strings), subscribedTopicRegex?. The fields
 * after it are not needed. A value that does not parse, or a regex (its topics are resolved by the
 * coordinator, in records not decoded here), leaves the subscription unknown. */
static void decode_member_subscription(const void *value, size_t value_len, lt_commit_record *r)
{
	char err[8];
	cursor c = { .p = value, .len = value_len, .pos = 2, .what = "value", .err = err, .errlen = sizeof err };
	static const char *const skipped[] = { "instanceId", "rackId", "clientId", "clientHost" };
	for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++)
		free(read_compact_string(&c, skipped[i], STR_NULLABLE, NULL));
	uint32_t n1 = read_uvarint(&c, "subscribedTopicNames count");
	/* each name takes at least its length byte: a count beyond the bytes left is a lie */
	if (c.failed || n1 == 0 || n1 - 1 > c.len - c.pos)
		return;
	char **t = xcalloc(n1, sizeof *t);
	size_t n = 0;
	while (n < n1 - 1 && !c.failed) {
		t[n] = read_compact_string(&c, "topic", STR_ID, NULL);
		if (!c.failed)
			n++;
	}
	size_t regex_len = 0;
	char *regex = c.failed ? NULL : read_compact_string(&c, "subscribedTopicRegex", STR_NULLABLE, &regex_len);
	free(regex);
	r->member_topics = t;
	r->n_member_topics = n;
	r->member_topics_known = !c.failed && regex_len == 0;
}

int commit_record_decode(const void *key, size_t key_len, const void *value, size_t value_len, lt_commit_record *r,
			 char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	r->value_version = -1;
	r->partition = -1;
	r->offset = -1;
	r->leader_epoch = -1;
	r->commit_ms = -1;
	r->expire_ms = -1;
	r->generation = -1;
	r->state_ms = -1;

	if (!key) {
		snprintf(err, errlen, "key: null key");
		return -1;
	}
	cursor k = { .p = key, .len = key_len, .what = "key", .err = err, .errlen = errlen };
	r->key_version = read_i16(&k, "key version");
	if (k.failed)
		return -1;
	bool offset_key = r->key_version == 0 || r->key_version == 1;
	if (offset_key) {
		r->group = read_string(&k, "group", STR_ID, NULL);
		r->topic = read_string(&k, "topic", STR_ID, NULL);
		r->partition = read_i32(&k, "partition");
	} else if (r->key_version == 2) {
		r->group = read_string(&k, "group", STR_ID, NULL);
	} else {
		r->type = LT_CR_UNKNOWN_KEY;
		/* ConsumerGroupMetadataKey: only its group id is read (the value stays unread), so that the
		 * stream knows this group runs the new protocol; a malformed one just stays anonymous. */
		if (r->key_version == LT_CR_KEY_CONSUMER_GROUP || r->key_version == LT_CR_KEY_CONSUMER_MEMBER) {
			r->group = read_string(&k, "group", STR_ID, NULL);
			if (r->key_version == LT_CR_KEY_CONSUMER_MEMBER)
				r->member_id = read_string(&k, "memberId", STR_ID, NULL);
			check_end(&k);
			if (k.failed) {
				free(r->group);
				free(r->member_id);
				r->group = r->member_id = NULL;
				if (err && errlen)
					err[0] = '\0';
			}
			if (value && value_len >= 2)
				r->value_version =
					(int16_t)(((const uint8_t *)value)[0] << 8 | ((const uint8_t *)value)[1]);
			if (r->member_id && r->value_version == 0)
				decode_member_subscription(value, value_len, r);
		}
		return 0;
	}
	check_end(&k);
	if (k.failed)
		goto bad;

	if (!value) {
		r->type = offset_key ? LT_CR_OFFSET_DELETE : LT_CR_GROUP_DELETE;
		return 0;
	}
	cursor c = { .p = value, .len = value_len, .what = "value", .err = err, .errlen = errlen };
	int16_t vv = read_i16(&c, "value version");
	if (c.failed)
		goto bad;
	r->value_version = vv;
	if (vv < 0 || vv > (offset_key ? 4 : 3)) {
		r->type = LT_CR_UNKNOWN_VALUE;
		return 0;
	}
	if (offset_key) {
		r->type = LT_CR_OFFSET_COMMIT;
		decode_offset_value(&c, r);
	} else {
		r->type = LT_CR_GROUP_METADATA;
		decode_group_value(&c, r);
	}
	check_end(&c);
	if (c.failed)
		goto bad;
	return 0;
bad:
	commit_record_free(r);
	return -1;
}

int commit_subscription_topics(const uint8_t *p, size_t len, char ***topics, size_t *n)
{
	char err[8];
	cursor c = { .p = p, .len = len, .what = "subscription", .err = err, .errlen = sizeof err };
	*topics = NULL;
	*n = 0;
	if (!p)
		return -1;
	int16_t v = read_i16(&c, "version");
	int32_t cnt = read_i32(&c, "topics count");
	/* each topic takes at least its 2-byte length: a count beyond that is a lie */
	if (c.failed || v < 0 || cnt < 0 || (size_t)cnt > (c.len - c.pos) / 2)
		return -1;
	char **t = xcalloc((size_t)cnt ? (size_t)cnt : 1, sizeof *t);
	for (int32_t i = 0; i < cnt; i++) {
		t[i] = read_string(&c, "topic", STR_ID, NULL);
		if (c.failed) {
			for (int32_t k = 0; k < i; k++)
				free(t[k]);
			free(t);
			return -1;
		}
	}
	*topics = t;
	*n = (size_t)cnt;
	return 0;
}

const char *commit_record_type_name(lt_commit_record_type t)
{
	static const char *const names[] = {
		[LT_CR_OFFSET_COMMIT] = "offset commit",   [LT_CR_OFFSET_DELETE] = "offset tombstone",
		[LT_CR_GROUP_METADATA] = "group metadata", [LT_CR_GROUP_DELETE] = "group tombstone",
		[LT_CR_UNKNOWN_KEY] = "unknown key",       [LT_CR_UNKNOWN_VALUE] = "unknown value",
	};
	if ((unsigned)t < sizeof names / sizeof names[0])
		return names[t];
	return "?";
}
