/* wire.c — see wire.h. */
#include "sim/wire.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void wire_rd_init(struct wire_rd *rd, const void *p, size_t len)
{
	rd->p = p;
	rd->len = len;
	rd->off = 0;
	rd->err = false;
}

size_t wire_rd_left(const struct wire_rd *rd)
{
	return rd->err ? 0 : rd->len - rd->off;
}

/* Returns a pointer to n readable bytes and advances, or NULL (setting err). */
static const uint8_t *rd_take(struct wire_rd *rd, size_t n)
{
	if (rd->err || rd->len - rd->off < n) {
		rd->err = true;
		return NULL;
	}
	const uint8_t *p = rd->p + rd->off;
	rd->off += n;
	return p;
}

void wire_skip(struct wire_rd *rd, size_t n)
{
	(void)rd_take(rd, n);
}

int32_t wire_skip_topic_partitions(struct wire_rd *rd, size_t topic_min, size_t part_size, size_t *topics_at)
{
	int32_t ntopics = wire_array(rd, false, topic_min);
	*topics_at = rd->off;
	for (int32_t i = 0; i < ntopics && !rd->err; i++) {
		(void)wire_str(rd, false);
		int32_t np = wire_array(rd, false, part_size);
		wire_skip(rd, np > 0 ? (size_t)np * part_size : 0);
	}
	return ntopics;
}

int8_t wire_i8(struct wire_rd *rd)
{
	const uint8_t *p = rd_take(rd, 1);
	return p ? (int8_t)p[0] : 0;
}

int16_t wire_i16(struct wire_rd *rd)
{
	const uint8_t *p = rd_take(rd, 2);
	return p ? (int16_t)(((uint16_t)p[0] << 8) | p[1]) : 0;
}

int32_t wire_i32(struct wire_rd *rd)
{
	const uint8_t *p = rd_take(rd, 4);
	if (!p)
		return 0;
	return (int32_t)(((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3]);
}

int64_t wire_i64(struct wire_rd *rd)
{
	const uint8_t *p = rd_take(rd, 8);
	if (!p)
		return 0;
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return (int64_t)v;
}

bool wire_bool(struct wire_rd *rd)
{
	return wire_i8(rd) != 0;
}

static uint64_t rd_uvarint64(struct wire_rd *rd, int max_bytes)
{
	uint64_t v = 0;
	for (int i = 0; i < max_bytes; i++) {
		const uint8_t *p = rd_take(rd, 1);
		if (!p)
			return 0;
		v |= (uint64_t)(p[0] & 0x7f) << (7 * i);
		if (!(p[0] & 0x80))
			return v;
	}
	rd->err = true; /* too long */
	return 0;
}

uint32_t wire_uvarint(struct wire_rd *rd)
{
	uint64_t v = rd_uvarint64(rd, 5);
	if (v > UINT32_MAX) {
		rd->err = true;
		return 0;
	}
	return (uint32_t)v;
}

int32_t wire_varint(struct wire_rd *rd)
{
	uint32_t u = wire_uvarint(rd);
	return (int32_t)((u >> 1) ^ (~(u & 1) + 1));
}

int64_t wire_varlong(struct wire_rd *rd)
{
	uint64_t u = rd_uvarint64(rd, 10);
	return (int64_t)((u >> 1) ^ (~(u & 1) + 1));
}

static struct wire_str rd_run(struct wire_rd *rd, int64_t len)
{
	struct wire_str s = { .p = NULL, .len = -1 };
	if (rd->err || len < -1) {
		rd->err = true;
		return s;
	}
	if (len == -1)
		return s;
	const uint8_t *p = rd_take(rd, (size_t)len);
	if (p) {
		s.p = (const char *)p;
		s.len = (int32_t)len;
	}
	return s;
}

struct wire_str wire_str(struct wire_rd *rd, bool flex)
{
	int64_t len = flex ? (int64_t)wire_uvarint(rd) - 1 : wire_i16(rd);
	return rd_run(rd, len);
}

struct wire_str wire_bytes(struct wire_rd *rd, bool flex)
{
	int64_t len = flex ? (int64_t)wire_uvarint(rd) - 1 : wire_i32(rd);
	return rd_run(rd, len);
}

int32_t wire_array(struct wire_rd *rd, bool flex, size_t min_elem_size)
{
	int64_t n = flex ? (int64_t)wire_uvarint(rd) - 1 : wire_i32(rd);
	if (rd->err)
		return 0;
	if (n < -1) {
		rd->err = true;
		return 0;
	}
	if (n > 0 && (uint64_t)n * (min_elem_size ? min_elem_size : 1) > rd->len - rd->off) {
		rd->err = true;
		return 0;
	}
	return (int32_t)n;
}

void wire_tags_skip(struct wire_rd *rd, bool flex)
{
	if (!flex)
		return;
	uint32_t n = wire_uvarint(rd);
	for (uint32_t i = 0; i < n && !rd->err; i++) {
		(void)wire_uvarint(rd); /* tag */
		uint32_t size = wire_uvarint(rd);
		wire_skip(rd, size);
	}
}

char *wire_str_dup(struct wire_str s)
{
	return s.len < 0 ? NULL : xstrndup(s.p ? s.p : "", (size_t)s.len);
}

bool wire_str_eq(struct wire_str s, const char *c)
{
	if (s.len < 0 || !c)
		return s.len < 0 && !c;
	return strlen(c) == (size_t)s.len && memcmp(s.p, c, (size_t)s.len) == 0;
}

/* ---- writing ---- */

void wire_buf_init(struct wire_buf *b)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
}

void wire_buf_free(struct wire_buf *b)
{
	free(b->data);
	wire_buf_init(b);
}

void wire_buf_reset(struct wire_buf *b)
{
	b->len = 0;
}

static uint8_t *buf_room(struct wire_buf *b, size_t n)
{
	if (b->cap - b->len < n)
		b->data = xgrow(b->data, &b->cap, b->len + n, 1);
	uint8_t *p = b->data + b->len;
	b->len += n;
	return p;
}

void wire_put_raw(struct wire_buf *b, const void *p, size_t n)
{
	if (n)
		memcpy(buf_room(b, n), p, n);
}

void wire_put_i8(struct wire_buf *b, int8_t v)
{
	*buf_room(b, 1) = (uint8_t)v;
}

void wire_put_i16(struct wire_buf *b, int16_t v)
{
	uint8_t *p = buf_room(b, 2);
	p[0] = (uint8_t)((uint16_t)v >> 8);
	p[1] = (uint8_t)v;
}

static void be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

void wire_put_i32(struct wire_buf *b, int32_t v)
{
	be32(buf_room(b, 4), (uint32_t)v);
}

void wire_put_i64(struct wire_buf *b, int64_t v)
{
	uint8_t *p = buf_room(b, 8);
	for (int i = 7; i >= 0; i--) {
		p[i] = (uint8_t)v;
		v = (int64_t)((uint64_t)v >> 8);
	}
}

void wire_put_bool(struct wire_buf *b, bool v)
{
	wire_put_i8(b, v ? 1 : 0);
}

static size_t uvarint_encode(uint8_t out[10], uint64_t v)
{
	size_t n = 0;
	while (v >= 0x80) {
		out[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	out[n++] = (uint8_t)v;
	return n;
}

void wire_put_uvarint(struct wire_buf *b, uint32_t v)
{
	uint8_t tmp[10];
	wire_put_raw(b, tmp, uvarint_encode(tmp, v));
}

void wire_put_varint(struct wire_buf *b, int32_t v)
{
	wire_put_uvarint(b, ((uint32_t)v << 1) ^ (uint32_t)(v >> 31));
}

void wire_put_varlong(struct wire_buf *b, int64_t v)
{
	uint8_t tmp[10];
	wire_put_raw(b, tmp, uvarint_encode(tmp, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63)));
}

void wire_put_strn(struct wire_buf *b, const char *s, int32_t len, bool flex)
{
	if (!s)
		len = -1;
	if (flex)
		wire_put_uvarint(b, (uint32_t)(len + 1));
	else
		wire_put_i16(b, (int16_t)len);
	if (len > 0)
		wire_put_raw(b, s, (size_t)len);
}

void wire_put_str(struct wire_buf *b, const char *s, bool flex)
{
	wire_put_strn(b, s, s ? (int32_t)strlen(s) : -1, flex);
}

void wire_put_bytes(struct wire_buf *b, const void *p, int32_t len, bool flex)
{
	if (!p && len > 0)
		len = -1;
	if (flex)
		wire_put_uvarint(b, (uint32_t)(len + 1));
	else
		wire_put_i32(b, len);
	if (len > 0)
		wire_put_raw(b, p, (size_t)len);
}

void wire_put_array(struct wire_buf *b, int32_t n, bool flex)
{
	if (flex)
		wire_put_uvarint(b, (uint32_t)(n + 1));
	else
		wire_put_i32(b, n);
}

void wire_put_tags(struct wire_buf *b, bool flex)
{
	if (flex)
		wire_put_uvarint(b, 0);
}

size_t wire_put_array_slot(struct wire_buf *b, bool flex)
{
	size_t pos = b->len;
	if (!flex)
		wire_put_i32(b, 0);
	return pos;
}

void wire_patch_array(struct wire_buf *b, size_t slot, int32_t n, bool flex)
{
	if (!flex) {
		wire_patch_i32(b, slot, n);
		return;
	}
	uint8_t tmp[10];
	size_t k = uvarint_encode(tmp, (uint32_t)(n + 1));
	(void)buf_room(b, k);
	memmove(b->data + slot + k, b->data + slot, b->len - k - slot);
	memcpy(b->data + slot, tmp, k);
}

void wire_patch_i32(struct wire_buf *b, size_t pos, int32_t v)
{
	be32(b->data + pos, (uint32_t)v);
}

int wire_req_header_parse(struct wire_rd *rd, struct wire_req_header *h, int header_version)
{
	h->api_key = wire_i16(rd);
	h->api_version = wire_i16(rd);
	h->correlation_id = wire_i32(rd);
	h->client_id.p = NULL;
	h->client_id.len = -1;
	if (header_version >= 1)
		h->client_id = wire_str(rd, false); /* always int16-length, even in header v2 */
	if (header_version >= 2)
		wire_tags_skip(rd, true);
	return rd->err ? -1 : 0;
}
