/* records.c — record batch v2 decode/validate/encode (see records.h for the layout). */
#include "sim/records.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/crc32c.h"
#include "util/xalloc.h"

/* Field offsets inside a batch. */
#define OFF_BASE_OFFSET       0
#define OFF_LENGTH            8
#define OFF_LEADER_EPOCH      12
#define OFF_MAGIC             16
#define OFF_CRC               17
#define OFF_ATTRIBUTES        21
#define OFF_LAST_OFFSET_DELTA 23
#define OFF_BASE_TIMESTAMP    27
#define OFF_MAX_TIMESTAMP     35
#define OFF_PRODUCER_ID       43
#define OFF_PRODUCER_EPOCH    51
#define OFF_BASE_SEQUENCE     53
#define OFF_RECORD_COUNT      57

/* ---- big-endian helpers ---- */
static uint64_t get_be(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static void put_be(uint8_t *p, uint64_t v, int n)
{
	for (int i = n - 1; i >= 0; i--) {
		p[i] = (uint8_t)v;
		v >>= 8;
	}
}

/* ---- varints ---- */
size_t varint_put_u64(uint8_t *dst, uint64_t v)
{
	size_t n = 0;
	while (v >= 0x80) {
		dst[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	dst[n++] = (uint8_t)v;
	return n;
}

size_t varint_put_s64(uint8_t *dst, int64_t v)
{
	return varint_put_u64(dst, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

size_t varint_put_s32(uint8_t *dst, int32_t v)
{
	return varint_put_u64(dst, (uint32_t)(((uint32_t)v << 1) ^ (uint32_t)(v >> 31)));
}

size_t varint_size_s64(int64_t v)
{
	uint64_t u = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
	size_t n = 1;
	while (u >= 0x80) {
		u >>= 7;
		n++;
	}
	return n;
}

static int varint_get_bounded(const uint8_t **p, const uint8_t *end, uint64_t *v, int max_bytes)
{
	uint64_t r = 0;
	const uint8_t *q = *p;
	for (int i = 0; i < max_bytes; i++) {
		if (q >= end)
			return -1;
		uint8_t b = *q++;
		r |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			*p = q;
			*v = r;
			return 0;
		}
	}
	return -1; /* too long */
}

int varint_get_u64(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	return varint_get_bounded(p, end, v, 10);
}

int varint_get_s64(const uint8_t **p, const uint8_t *end, int64_t *v)
{
	uint64_t u;
	if (varint_get_bounded(p, end, &u, 10) < 0)
		return -1;
	*v = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
	return 0;
}

int varint_get_s32(const uint8_t **p, const uint8_t *end, int32_t *v)
{
	uint64_t u;
	const uint8_t *save = *p;
	if (varint_get_bounded(p, end, &u, 5) < 0)
		return -1;
	if (u > UINT32_MAX) { /* 5th byte carried more than 4 bits */
		*p = save;
		return -1;
	}
	uint32_t w = (uint32_t)u;
	*v = (int32_t)((w >> 1) ^ (uint32_t) - (int32_t)(w & 1));
	return 0;
}

/* ---- decoding ---- */
static int fail(int code, char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int fail(int code, char *err, size_t errlen, const char *fmt, ...)
{
	if (err && errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}

int records_batch_peek(const uint8_t *buf, size_t len, struct rec_batch *b)
{
	if (len < REC_BATCH_HEADER_SIZE)
		return -1;
	memset(b, 0, sizeof *b);
	b->base_offset = (int64_t)get_be(buf + OFF_BASE_OFFSET, 8);
	b->batch_length = (int32_t)get_be(buf + OFF_LENGTH, 4);
	b->leader_epoch = (int32_t)get_be(buf + OFF_LEADER_EPOCH, 4);
	b->magic = (int8_t)buf[OFF_MAGIC];
	b->crc = (uint32_t)get_be(buf + OFF_CRC, 4);
	b->attributes = (int16_t)get_be(buf + OFF_ATTRIBUTES, 2);
	b->last_offset_delta = (int32_t)get_be(buf + OFF_LAST_OFFSET_DELTA, 4);
	b->base_timestamp = (int64_t)get_be(buf + OFF_BASE_TIMESTAMP, 8);
	b->max_timestamp = (int64_t)get_be(buf + OFF_MAX_TIMESTAMP, 8);
	b->producer_id = (int64_t)get_be(buf + OFF_PRODUCER_ID, 8);
	b->producer_epoch = (int16_t)get_be(buf + OFF_PRODUCER_EPOCH, 2);
	b->base_sequence = (int32_t)get_be(buf + OFF_BASE_SEQUENCE, 4);
	b->n_records = (int32_t)get_be(buf + OFF_RECORD_COUNT, 4);
	b->raw = buf;
	if (b->batch_length < REC_BATCH_HEADER_SIZE - REC_BATCH_LOG_OVERHEAD ||
	    (size_t)b->batch_length > len - REC_BATCH_LOG_OVERHEAD)
		return -1;
	b->raw_len = REC_BATCH_LOG_OVERHEAD + (size_t)b->batch_length;
	return 0;
}

/* Reads a varint-length-prefixed byte string; len -1 is null. */
static int get_bytes(const uint8_t **p, const uint8_t *end, const uint8_t **data, int32_t *len)
{
	if (varint_get_s32(p, end, len) < 0 || *len < -1)
		return -1;
	if (*len == -1) {
		*data = NULL;
		return 0;
	}
	if ((size_t)(end - *p) < (size_t)*len)
		return -1;
	*data = *p;
	*p += *len;
	return 0;
}

static int record_parse(const uint8_t **pp, const uint8_t *end, int64_t base_ts, struct rec_record *r)
{
	const uint8_t *p = *pp;
	int32_t rec_len;
	int64_t ts_delta;

	if (varint_get_s32(&p, end, &rec_len) < 0 || rec_len < 1 || (size_t)(end - p) < (size_t)rec_len)
		return -1;
	const uint8_t *rend = p + rec_len;
	r->attributes = (int8_t)*p++;
	if (varint_get_s64(&p, rend, &ts_delta) < 0 || varint_get_s32(&p, rend, &r->offset_delta) < 0 ||
	    get_bytes(&p, rend, &r->key, &r->key_len) < 0 || get_bytes(&p, rend, &r->value, &r->value_len) < 0 ||
	    varint_get_s32(&p, rend, &r->n_headers) < 0 || r->n_headers < 0)
		return -1;
	r->timestamp = base_ts + ts_delta;
	r->headers = p;
	for (int32_t h = 0; h < r->n_headers; h++) {
		const uint8_t *d;
		int32_t l;
		/* Header keys are never null; values may be. */
		if (get_bytes(&p, rend, &d, &l) < 0 || l < 0 || get_bytes(&p, rend, &d, &l) < 0)
			return -1;
	}
	r->headers_len = (size_t)(p - r->headers);
	if (p != rend) /* the declared length must match what the fields took */
		return -1;
	*pp = rend;
	return 0;
}

int records_batch_decode(const uint8_t *buf, size_t len, struct rec_batch *b, char *err, size_t errlen)
{
	if (len < REC_BATCH_LOG_OVERHEAD + 5)
		return fail(REC_ERR_CORRUPT_MESSAGE, err, errlen, "record batch truncated: %zu bytes", len);
	/* Magic first: an old message set (v0/v1) is a different layout altogether. */
	if (buf[OFF_MAGIC] != REC_MAGIC_V2)
		return fail(REC_ERR_INVALID_RECORD, err, errlen, "record batch magic %d, only magic 2 is supported",
			    (int8_t)buf[OFF_MAGIC]);
	if (records_batch_peek(buf, len, b) < 0)
		return fail(REC_ERR_CORRUPT_MESSAGE, err, errlen, "record batch truncated: length field %d, %zu bytes",
			    (int32_t)get_be(buf + OFF_LENGTH, 4), len);
	uint32_t crc = crc32c(buf + OFF_ATTRIBUTES, b->raw_len - OFF_ATTRIBUTES);
	if (crc != b->crc)
		return fail(REC_ERR_CORRUPT_MESSAGE, err, errlen,
			    "record batch CRC mismatch: stored 0x%08x, computed 0x%08x", b->crc, crc);
	if (b->attributes & REC_ATTR_COMPRESSION_MASK)
		return fail(REC_ERR_UNSUPPORTED_COMPRESSION_TYPE, err, errlen,
			    "compressed record batch (codec %d): only uncompressed batches are supported",
			    b->attributes & REC_ATTR_COMPRESSION_MASK);
	if (b->n_records <= 0)
		return fail(REC_ERR_INVALID_RECORD, err, errlen, "record batch with %d records", b->n_records);
	if (b->last_offset_delta != b->n_records - 1)
		return fail(REC_ERR_INVALID_RECORD, err, errlen,
			    "record batch lastOffsetDelta %d does not match its %d records", b->last_offset_delta,
			    b->n_records);

	struct rec_iter it;
	struct rec_record r;
	int32_t i = 0;
	records_iter_init(&it, b);
	for (;;) {
		int rc = records_iter_next(&it, &r);
		if (rc == 0)
			break;
		if (rc < 0)
			return fail(REC_ERR_CORRUPT_MESSAGE, err, errlen, "record %d of the batch is malformed", i);
		if (r.offset_delta != i)
			return fail(REC_ERR_INVALID_RECORD, err, errlen, "record %d has offset delta %d", i,
				    r.offset_delta);
		i++;
	}
	if (it.p != it.end)
		return fail(REC_ERR_CORRUPT_MESSAGE, err, errlen, "%td bytes after the last record of the batch",
			    it.end - it.p);
	return REC_ERR_NONE;
}

void records_iter_init(struct rec_iter *it, const struct rec_batch *b)
{
	it->p = b->raw + REC_BATCH_HEADER_SIZE;
	it->end = b->raw + b->raw_len;
	it->base_timestamp = b->base_timestamp;
	it->left = b->n_records;
}

int records_iter_next(struct rec_iter *it, struct rec_record *r)
{
	if (it->left <= 0)
		return 0;
	if (record_parse(&it->p, it->end, it->base_timestamp, r) < 0) {
		it->left = 0;
		return -1;
	}
	it->left--;
	return 1;
}

void records_batch_set_base_offset(uint8_t *batch, int64_t base_offset)
{
	put_be(batch + OFF_BASE_OFFSET, (uint64_t)base_offset, 8);
}

/* ---- encoding ---- */
void rec_buf_free(struct rec_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

static size_t bytes_size(const void *d, int32_t len)
{
	return d ? varint_size_s64(len) + (size_t)len : 1;
}

static size_t record_body_size(const struct rec_out *r, int64_t base_ts, int32_t offset_delta)
{
	return 1 + varint_size_s64(r->timestamp - base_ts) + varint_size_s64(offset_delta) +
	       bytes_size(r->key, r->key_len) + bytes_size(r->value, r->value_len) + 1 /* 0 headers */;
}

size_t records_batch_size(const struct rec_out *recs, size_t n)
{
	size_t total = REC_BATCH_HEADER_SIZE;
	for (size_t i = 0; i < n; i++) {
		size_t body = record_body_size(&recs[i], recs[0].timestamp, (int32_t)i);
		total += varint_size_s64((int64_t)body) + body;
	}
	return total;
}

static uint8_t *put_bytes(uint8_t *p, const void *d, int32_t len)
{
	if (!d)
		return p + varint_put_s32(p, -1);
	p += varint_put_s32(p, len);
	memcpy(p, d, (size_t)len);
	return p + len;
}

void records_batch_encode(struct rec_buf *out, int64_t base_offset, const struct rec_out *recs, size_t n)
{
	size_t size = records_batch_size(recs, n);
	out->data = xgrow(out->data, &out->cap, out->len + size, 1);
	uint8_t *start = out->data + out->len;
	int64_t base_ts = recs[0].timestamp, max_ts = recs[0].timestamp;

	for (size_t i = 1; i < n; i++)
		if (recs[i].timestamp > max_ts)
			max_ts = recs[i].timestamp;
	put_be(start + OFF_BASE_OFFSET, (uint64_t)base_offset, 8);
	put_be(start + OFF_LENGTH, size - REC_BATCH_LOG_OVERHEAD, 4);
	put_be(start + OFF_LEADER_EPOCH, 0, 4);
	start[OFF_MAGIC] = REC_MAGIC_V2;
	put_be(start + OFF_ATTRIBUTES, 0, 2); /* no compression, CreateTime */
	put_be(start + OFF_LAST_OFFSET_DELTA, n - 1, 4);
	put_be(start + OFF_BASE_TIMESTAMP, (uint64_t)base_ts, 8);
	put_be(start + OFF_MAX_TIMESTAMP, (uint64_t)max_ts, 8);
	put_be(start + OFF_PRODUCER_ID, (uint64_t)-1, 8);
	put_be(start + OFF_PRODUCER_EPOCH, (uint16_t)-1, 2);
	put_be(start + OFF_BASE_SEQUENCE, (uint32_t)-1, 4);
	put_be(start + OFF_RECORD_COUNT, n, 4);

	uint8_t *p = start + REC_BATCH_HEADER_SIZE;
	for (size_t i = 0; i < n; i++) {
		const struct rec_out *r = &recs[i];
		size_t body = record_body_size(r, base_ts, (int32_t)i);
		p += varint_put_s64(p, (int64_t)body);
		*p++ = 0; /* record attributes: unused */
		p += varint_put_s64(p, r->timestamp - base_ts);
		p += varint_put_s32(p, (int32_t)i);
		p = put_bytes(p, r->key, r->key_len);
		p = put_bytes(p, r->value, r->value_len);
		*p++ = 0; /* no headers */
	}
	put_be(start + OFF_CRC, crc32c(start + OFF_ATTRIBUTES, size - OFF_ATTRIBUTES), 4);
	out->len += size;
}
