/* wire.h — the Kafka wire codec: big-endian integers, (compact) strings and arrays, varints,
 * tagged fields, request headers v0–v2 and response framing.
 *
 * Reading is sticky-error: once a read runs past the end (or finds a negative length where none is
 * allowed), rd->err is set and every later read returns 0 / an empty value. A handler therefore reads a
 * whole request and checks rd->err once. Array counts are sanity-checked against the bytes left, so a
 * hostile count can never make the caller allocate gigabytes.
 *
 * Writing appends to a growable buffer; counts that are only known later are patched in place.
 */
#ifndef LAGTOP_SIM_WIRE_H
#define LAGTOP_SIM_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct wire_rd {
	const uint8_t *p;
	size_t len;
	size_t off;
	bool err;
};

/* A string or byte run inside the request buffer (not NUL-terminated); len -1 means null. */
struct wire_str {
	const char *p;
	int32_t len;
};

void wire_rd_init(struct wire_rd *rd, const void *p, size_t len);
size_t wire_rd_left(const struct wire_rd *rd);
int8_t wire_i8(struct wire_rd *rd);
int16_t wire_i16(struct wire_rd *rd);
int32_t wire_i32(struct wire_rd *rd);
int64_t wire_i64(struct wire_rd *rd);
bool wire_bool(struct wire_rd *rd);
uint32_t wire_uvarint(struct wire_rd *rd);
int32_t wire_varint(struct wire_rd *rd);  /* zigzag */
int64_t wire_varlong(struct wire_rd *rd); /* zigzag */
void wire_skip(struct wire_rd *rd, size_t n);
/* STRING/NULLABLE_STRING (int16 length) or, when flex, COMPACT_STRING (uvarint length+1). */
struct wire_str wire_str(struct wire_rd *rd, bool flex);
/* BYTES (int32 length) or COMPACT_BYTES. */
struct wire_str wire_bytes(struct wire_rd *rd, bool flex);
/* ARRAY count (int32) or COMPACT_ARRAY (uvarint count+1). -1 = null. Every element needs at least
 * min_elem_size bytes: a count that cannot fit in what is left sets err. */
int32_t wire_array(struct wire_rd *rd, bool flex, size_t min_elem_size);
/* Skips a non-flexible [topic name, [partition entry]] array whose partition entries have a fixed size (the
 * request layout of ListOffsets, DeleteRecords and OffsetDelete), checking counts as wire_array does with
 * topic_min for a topic and part_size for a partition. Returns the topic count (-1 = null) and, in *topics_at,
 * where the first topic starts: a handler reads the topics again from there once the whole request is known
 * to be well formed. */
int32_t wire_skip_topic_partitions(struct wire_rd *rd, size_t topic_min, size_t part_size, size_t *topics_at);
/* Skips a tagged-field section (only when flex). */
void wire_tags_skip(struct wire_rd *rd, bool flex);
/* Copies into a fresh NUL-terminated string (NULL for null). */
char *wire_str_dup(struct wire_str s);
bool wire_str_eq(struct wire_str s, const char *c);

struct wire_buf {
	uint8_t *data;
	size_t len;
	size_t cap;
};

void wire_buf_init(struct wire_buf *b);
void wire_buf_free(struct wire_buf *b);
void wire_buf_reset(struct wire_buf *b);
void wire_put_raw(struct wire_buf *b, const void *p, size_t n);
void wire_put_i8(struct wire_buf *b, int8_t v);
void wire_put_i16(struct wire_buf *b, int16_t v);
void wire_put_i32(struct wire_buf *b, int32_t v);
void wire_put_i64(struct wire_buf *b, int64_t v);
void wire_put_bool(struct wire_buf *b, bool v);
void wire_put_uvarint(struct wire_buf *b, uint32_t v);
void wire_put_varint(struct wire_buf *b, int32_t v);
void wire_put_varlong(struct wire_buf *b, int64_t v);
/* A C string (NULL → null string). */
void wire_put_str(struct wire_buf *b, const char *s, bool flex);
void wire_put_strn(struct wire_buf *b, const char *s, int32_t len, bool flex);  /* len -1 → null */
void wire_put_bytes(struct wire_buf *b, const void *p, int32_t len, bool flex); /* len -1 → null */
void wire_put_array(struct wire_buf *b, int32_t n, bool flex);                  /* n -1 → null */
/* An empty tagged-field section (only when flex). */
void wire_put_tags(struct wire_buf *b, bool flex);
/* For array counts known only after the elements were written: remember the slot, then patch it
 * (a flexible count is a varint, so patching inserts it, moving the elements). */
size_t wire_put_array_slot(struct wire_buf *b, bool flex);
void wire_patch_array(struct wire_buf *b, size_t slot, int32_t n, bool flex);
void wire_patch_i32(struct wire_buf *b, size_t pos, int32_t v);

/* Request header (v1 has client_id; v2 adds tagged fields). The body follows at rd->off. */
struct wire_req_header {
	int16_t api_key;
	int16_t api_version;
	int32_t correlation_id;
	struct wire_str client_id;
};

/* Parses api key, version and correlation id, then client_id (header v1+) and tags (v2). */
int wire_req_header_parse(struct wire_rd *rd, struct wire_req_header *h, int header_version);

#endif
