/* encode.c — writes __consumer_offsets records in Kafka's binary format (the inverse of decode.c).
 *
 * Used by the simulated cluster to fill its __consumer_offsets topic. Kafka itself writes offset keys
 * at version 1, group keys at version 2, offset values at version 3 (version 1 when the commit carries
 * an explicit expire timestamp) and group values at version 3; the caller picks the versions in the
 * record so that tests can produce every version.
 */
#include "commitlog/record.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void bytes_free(lt_bytes *b)
{
	free(b->data);
	memset(b, 0, sizeof *b);
}

static void put(lt_bytes *b, const void *p, size_t n)
{
	if (!n)
		return;
	b->data = xgrow(b->data, &b->cap, b->len + n, 1);
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

static void put_be(lt_bytes *b, uint64_t v, size_t n)
{
	uint8_t tmp[8];
	for (size_t i = 0; i < n; i++)
		tmp[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
	put(b, tmp, n);
}

static void put_i16(lt_bytes *b, int16_t v)
{
	put_be(b, (uint16_t)v, 2);
}

static void put_i32(lt_bytes *b, int32_t v)
{
	put_be(b, (uint32_t)v, 4);
}

static void put_i64(lt_bytes *b, int64_t v)
{
	put_be(b, (uint64_t)v, 8);
}

/* A NULL s writes a null string (-1); only nullable fields may pass NULL. */
static int put_string(lt_bytes *b, const char *s, size_t n, const char *field, char *err, size_t errlen)
{
	if (!s) {
		put_i16(b, -1);
		return 0;
	}
	if (n > INT16_MAX) {
		snprintf(err, errlen, "%s is %zu bytes, more than a string can hold (32767)", field, n);
		return -1;
	}
	put_i16(b, (int16_t)n);
	put(b, s, n);
	return 0;
}

static int put_str(lt_bytes *b, const char *s, const char *field, char *err, size_t errlen)
{
	return put_string(b, s, s ? strlen(s) : 0, field, err, errlen);
}

static void put_bytes(lt_bytes *b, const uint8_t *p, size_t n)
{
	put_i32(b, (int32_t)n);
	put(b, p, n);
}

static int encode_member(lt_bytes *b, int16_t v, const lt_commit_member *m, char *err, size_t errlen)
{
	if (put_str(b, m->member_id ? m->member_id : "", "memberId", err, errlen) < 0)
		return -1;
	if (v >= 3 && put_str(b, m->group_instance_id, "groupInstanceId", err, errlen) < 0)
		return -1;
	if (put_str(b, m->client_id ? m->client_id : "", "clientId", err, errlen) < 0 ||
	    put_str(b, m->client_host ? m->client_host : "", "clientHost", err, errlen) < 0)
		return -1;
	if (v >= 1)
		put_i32(b, m->rebalance_timeout_ms);
	put_i32(b, m->session_timeout_ms);
	put_bytes(b, m->subscription, m->subscription_len);
	put_bytes(b, m->assignment, m->assignment_len);
	return 0;
}

int commit_record_encode(const lt_commit_record *r, lt_bytes *key, lt_bytes *value, int *is_null, char *err,
			 size_t errlen)
{
	*is_null = 0;
	const char *group = r->group ? r->group : "";
	bool offset = r->type == LT_CR_OFFSET_COMMIT || r->type == LT_CR_OFFSET_DELETE;
	bool grp = r->type == LT_CR_GROUP_METADATA || r->type == LT_CR_GROUP_DELETE;
	if (!offset && !grp) {
		snprintf(err, errlen, "cannot encode a record of type %s", commit_record_type_name(r->type));
		return -1;
	}
	if (offset && r->key_version != 0 && r->key_version != 1) {
		snprintf(err, errlen, "offset commit key version %d is not 0 or 1", r->key_version);
		return -1;
	}
	if (grp && r->key_version != 2) {
		snprintf(err, errlen, "group metadata key version %d is not 2", r->key_version);
		return -1;
	}
	bool tomb = r->type == LT_CR_OFFSET_DELETE || r->type == LT_CR_GROUP_DELETE;
	int16_t v = r->value_version;
	if (!tomb && (v < 0 || v > 3)) {
		snprintf(err, errlen, "%s value version %d is not 0-3", commit_record_type_name(r->type), v);
		return -1;
	}

	/* Build into temporaries so that a failure leaves the caller's buffers untouched. */
	lt_bytes k = { 0 }, val = { 0 };
	put_i16(&k, r->key_version);
	if (put_str(&k, group, "group", err, errlen) < 0)
		goto fail;
	if (offset) {
		if (put_str(&k, r->topic ? r->topic : "", "topic", err, errlen) < 0)
			goto fail;
		put_i32(&k, r->partition);
	}
	if (tomb) {
		*is_null = 1;
	} else if (offset) {
		put_i16(&val, v);
		put_i64(&val, r->offset);
		if (v >= 3)
			put_i32(&val, r->leader_epoch);
		size_t mlen = r->metadata ? (r->metadata_len ? r->metadata_len : strlen(r->metadata)) : 0;
		if (put_string(&val, r->metadata ? r->metadata : "", mlen, "metadata", err, errlen) < 0)
			goto fail;
		put_i64(&val, r->commit_ms);
		if (v == 1)
			put_i64(&val, r->expire_ms);
	} else {
		put_i16(&val, v);
		if (put_str(&val, r->protocol_type ? r->protocol_type : "", "protocolType", err, errlen) < 0)
			goto fail;
		put_i32(&val, r->generation);
		if (put_str(&val, r->protocol, "protocol", err, errlen) < 0 ||
		    put_str(&val, r->leader, "leader", err, errlen) < 0)
			goto fail;
		if (v >= 2)
			put_i64(&val, r->state_ms);
		put_i32(&val, (int32_t)r->n_members);
		for (size_t i = 0; i < r->n_members; i++)
			if (encode_member(&val, v, &r->members[i], err, errlen) < 0)
				goto fail;
	}
	put(key, k.data, k.len);
	put(value, val.data, val.len);
	bytes_free(&k);
	bytes_free(&val);
	return 0;
fail:
	bytes_free(&k);
	bytes_free(&val);
	return -1;
}

/* ---- KIP-848 consumer groups' records: keys are not flexible (int16 strings), values are (compact
 * strings, unsigned varint lengths, tagged fields). */

static void put_uvarint(lt_bytes *b, uint32_t v)
{
	while (v >= 0x80) {
		uint8_t c = (uint8_t)(v | 0x80);
		put(b, &c, 1);
		v >>= 7;
	}
	uint8_t c = (uint8_t)v;
	put(b, &c, 1);
}

static void put_compact(lt_bytes *b, const char *s) /* NULL: null */
{
	if (!s) {
		put_uvarint(b, 0);
		return;
	}
	size_t n = strlen(s);
	put_uvarint(b, (uint32_t)n + 1);
	put(b, s, n);
}

int commit_consumer_group_encode(const char *group, const int32_t *epoch, lt_bytes *key, lt_bytes *value, char *err,
				 size_t errlen)
{
	lt_bytes k = { 0 };
	put_i16(&k, LT_CR_KEY_CONSUMER_GROUP);
	if (put_str(&k, group, "group", err, errlen) < 0) {
		bytes_free(&k);
		return -1;
	}
	put(key, k.data, k.len);
	bytes_free(&k);
	if (epoch) {
		put_i16(value, 0);
		put_i32(value, *epoch);
		put_uvarint(value, 0); /* no tagged fields */
	}
	return 0;
}

int commit_consumer_member_encode(const char *group, const char *member, const lt_consumer_member_value *v,
				  lt_bytes *key, lt_bytes *value, char *err, size_t errlen)
{
	lt_bytes k = { 0 };
	put_i16(&k, LT_CR_KEY_CONSUMER_MEMBER);
	if (put_str(&k, group, "group", err, errlen) < 0 || put_str(&k, member, "memberId", err, errlen) < 0) {
		bytes_free(&k);
		return -1;
	}
	put(key, k.data, k.len);
	bytes_free(&k);
	if (!v)
		return 0;
	put_i16(value, 0);
	put_compact(value, v->instance_id);
	put_compact(value, v->rack_id);
	put_compact(value, v->client_id);
	put_compact(value, v->client_host);
	put_uvarint(value, (uint32_t)v->n_topics + 1);
	for (size_t i = 0; i < v->n_topics; i++)
		put_compact(value, v->topics[i]);
	put_compact(value, v->regex);
	put_i32(value, v->rebalance_timeout_ms);
	put_compact(value, v->assignor);
	put_uvarint(value, 0); /* no tagged fields */
	return 0;
}
