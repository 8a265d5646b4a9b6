/* records.h — Kafka record batches, magic v2 (the format of Produce v3+ and Fetch v4+).
 *
 * Layout of one batch (big-endian; the CRC-32C covers everything from attributes to the end):
 *   baseOffset int64 | batchLength int32 (bytes after this field) | partitionLeaderEpoch int32 |
 *   magic int8 (=2) | crc uint32 | attributes int16 | lastOffsetDelta int32 | baseTimestamp int64 |
 *   maxTimestamp int64 | producerId int64 | producerEpoch int16 | baseSequence int32 |
 *   recordCount int32 | records...
 * One record: length varint | attributes int8 | timestampDelta varlong | offsetDelta varint |
 *   keyLength varint (-1 = null) | key | valueLength varint | value | headerCount varint |
 *   headers (keyLength varint, key, valueLength varint, value)...
 * Varints are zigzag-encoded base-128, least significant group first (protobuf's sint32/sint64).
 *
 * Pure: no I/O, no clock. Decoding never reads outside [buf, buf+len); every failure is reported as the
 * Kafka error code a broker answers with, plus a one-line explanation.
 */
#ifndef LAGTOP_SIM_RECORDS_H
#define LAGTOP_SIM_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Kafka error codes that batch validation produces. */
#define REC_ERR_NONE                         0
#define REC_ERR_CORRUPT_MESSAGE              2
#define REC_ERR_UNSUPPORTED_COMPRESSION_TYPE 76
#define REC_ERR_INVALID_RECORD               87

#define REC_BATCH_HEADER_SIZE  61 /* bytes before the first record */
#define REC_BATCH_LOG_OVERHEAD 12 /* baseOffset + batchLength */
#define REC_MAGIC_V2           2

/* attributes bits */
#define REC_ATTR_COMPRESSION_MASK 0x07
#define REC_ATTR_LOG_APPEND_TIME  0x08
#define REC_ATTR_TRANSACTIONAL    0x10
#define REC_ATTR_CONTROL          0x20

/* ---- varints ---- */
#define VARINT_MAX_BYTES 10

/* Unsigned base-128; returns the number of bytes written (1..10). */
size_t varint_put_u64(uint8_t *dst, uint64_t v);
/* Zigzag signed forms (Kafka's ByteUtils.writeVarint / writeVarlong). */
size_t varint_put_s32(uint8_t *dst, int32_t v);
size_t varint_put_s64(uint8_t *dst, int64_t v);
size_t varint_size_s64(int64_t v);
/* Decoders advance *p; -1 when truncated or too long (more than 5 bytes for 32-bit, 10 for 64-bit). */
int varint_get_u64(const uint8_t **p, const uint8_t *end, uint64_t *v);
int varint_get_s32(const uint8_t **p, const uint8_t *end, int32_t *v);
int varint_get_s64(const uint8_t **p, const uint8_t *end, int64_t *v);

/* ---- decoding ---- */
struct rec_batch {
	int64_t base_offset;
	int32_t batch_length;
	int32_t leader_epoch;
	int8_t magic;
	uint32_t crc;
	int16_t attributes;
	int32_t last_offset_delta;
	int64_t base_timestamp;
	int64_t max_timestamp;
	int64_t producer_id;
	int16_t producer_epoch;
	int32_t base_sequence;
	int32_t n_records;
	const uint8_t *raw; /* the whole batch: REC_BATCH_LOG_OVERHEAD + batch_length bytes */
	size_t raw_len;
};

struct rec_record {
	int8_t attributes;
	int64_t timestamp; /* absolute: base_timestamp + timestampDelta */
	int32_t offset_delta;
	const uint8_t *key; /* NULL when key_len == -1 */
	int32_t key_len;
	const uint8_t *value;
	int32_t value_len;
	int32_t n_headers;
	const uint8_t *headers; /* raw header section, already validated */
	size_t headers_len;
};

/* Decodes and fully validates the batch at the start of buf (magic, CRC, no compression, every record
 * well formed, offset deltas 0..n-1, lastOffsetDelta = n-1). Trailing bytes after the batch are left
 * alone (b->raw_len says where the next one starts). Returns a REC_ERR_* code. */
int records_batch_decode(const uint8_t *buf, size_t len, struct rec_batch *b, char *err, size_t errlen);

/* Reads the fixed header fields only, without checking the CRC or the records: used to walk stored
 * batches that were validated on the way in. Returns 0, or -1 when buf is shorter than the header or
 * the declared length. */
int records_batch_peek(const uint8_t *buf, size_t len, struct rec_batch *b);

/* Record iterator over a batch that records_batch_decode() accepted. */
struct rec_iter {
	const uint8_t *p, *end;
	int64_t base_timestamp;
	int32_t left;
};
void records_iter_init(struct rec_iter *it, const struct rec_batch *b);
/* 1: *r filled; 0: no more records; -1: malformed (cannot happen after a successful decode). */
int records_iter_next(struct rec_iter *it, struct rec_record *r);

/* Overwrites the baseOffset of a stored batch (not covered by the CRC: brokers assign offsets). */
void records_batch_set_base_offset(uint8_t *batch, int64_t base_offset);

/* ---- encoding ---- */
struct rec_buf {
	uint8_t *data;
	size_t len, cap;
};
void rec_buf_free(struct rec_buf *b);

struct rec_out {
	int64_t timestamp;
	const void *key; /* NULL: null key */
	int32_t key_len;
	const void *value; /* NULL: null value */
	int32_t value_len;
};

/* Appends one valid uncompressed v2 batch of n >= 1 records with offsets base_offset.. to out:
 * CreateTime timestamps, no producer id (-1), CRC computed. */
void records_batch_encode(struct rec_buf *out, int64_t base_offset, const struct rec_out *recs, size_t n);

/* Size in bytes that records_batch_encode() will append. */
size_t records_batch_size(const struct rec_out *recs, size_t n);

#endif
