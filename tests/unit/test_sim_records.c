/* test_sim_records.c — CRC-32C vectors, varints, and record batch v2 decode/encode. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/crc32c.h"
#include "sim/records.h"
#include "../lib/cmocka_main.h"

/* RFC 3720 B.4 vectors plus the common check value. */
static void crc32c_known_vectors(void **state)
{
	(void)state;
	uint8_t buf[48];

	assert_int_equal(crc32c("123456789", 9), 0xE3069283u);
	assert_int_equal(crc32c("", 0), 0);
	memset(buf, 0, 32);
	assert_int_equal(crc32c(buf, 32), 0x8A9136AAu);
	memset(buf, 0xff, 32);
	assert_int_equal(crc32c(buf, 32), 0x62A8AB43u);
	for (int i = 0; i < 32; i++)
		buf[i] = (uint8_t)i;
	assert_int_equal(crc32c(buf, 32), 0x46DD794Eu);
	for (int i = 0; i < 32; i++)
		buf[i] = (uint8_t)(31 - i);
	assert_int_equal(crc32c(buf, 32), 0x113FDB5Cu);
	/* iSCSI SCSI Read (10) command PDU */
	static const uint8_t pdu[48] = { 0x01, 0xc0, 0, 0, 0, 0, 0,    0, 0,    0, 0, 0,    0, 0, 0, 0,
					 0x14, 0,    0, 0, 0, 0, 0x04, 0, 0,    0, 0, 0x14, 0, 0, 0, 0x18,
					 0x28, 0,    0, 0, 0, 0, 0,    0, 0x02, 0, 0, 0,    0, 0, 0, 0 };
	assert_int_equal(crc32c(pdu, sizeof pdu), 0xD9963A56u);
}

/* Incremental feeding, at every split point, equals the one-shot checksum (exercises the 8-byte path
 * from every alignment). */
static void crc32c_incremental(void **state)
{
	(void)state;
	uint8_t buf[100];
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (uint8_t)(i * 37 + 11);
	uint32_t whole = crc32c(buf, sizeof buf);
	for (size_t cut = 0; cut <= sizeof buf; cut++)
		assert_int_equal(crc32c_update(crc32c(buf, cut), buf + cut, sizeof buf - cut), whole);
}

static void varint_round_trip(void **state)
{
	(void)state;
	static const int64_t vals[] = { 0,   1,    -1,        63,        -64,       64,        -65,
					300, -300, INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN, 1700000000000LL };
	uint8_t b[VARINT_MAX_BYTES];
	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
		size_t n = varint_put_s64(b, vals[i]);
		assert_int_equal(n, varint_size_s64(vals[i]));
		const uint8_t *p = b;
		int64_t v;
		assert_int_equal(varint_get_s64(&p, b + n, &v), 0);
		assert_true(v == vals[i]);
		assert_ptr_equal(p, b + n);
		/* truncated by one byte: error */
		p = b;
		assert_int_equal(varint_get_s64(&p, b + n - 1, &v), -1);
	}
	/* zigzag: 0→0, -1→1, 1→2, -2→3; 250 → 500 = f4 03 */
	assert_int_equal(varint_put_s32(b, -1), 1);
	assert_int_equal(b[0], 1);
	assert_int_equal(varint_put_s32(b, 250), 2);
	assert_int_equal(b[0], 0xf4);
	assert_int_equal(b[1], 0x03);
	assert_int_equal(varint_put_s32(b, INT32_MIN), 5);
	const uint8_t *p = b;
	int32_t v32;
	assert_int_equal(varint_get_s32(&p, b + 5, &v32), 0);
	assert_int_equal(v32, INT32_MIN);
	/* a 32-bit varint longer than 5 bytes, or overflowing 32 bits, is rejected */
	static const uint8_t too_long[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x01 };
	p = too_long;
	assert_int_equal(varint_get_s32(&p, too_long + sizeof too_long, &v32), -1);
	static const uint8_t overflow[] = { 0xff, 0xff, 0xff, 0xff, 0x7f };
	p = overflow;
	assert_int_equal(varint_get_s32(&p, overflow + sizeof overflow, &v32), -1);
}

/* A batch written by hand from the spec (CRC computed independently), two records:
 * (ts 1700000000000, key null, value "abc") and (ts +250, key "k", value "hello"), base offset 5. */
static const uint8_t hand_batch[85] = {
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, /* baseOffset 5 */
	0x00, 0x00, 0x00, 0x49,                         /* batchLength 73 */
	0x00, 0x00, 0x00, 0x00,                         /* partitionLeaderEpoch */
	0x02,                                           /* magic */
	0xc7, 0x52, 0xd5, 0x81,                         /* crc */
	0x00, 0x00,                                     /* attributes */
	0x00, 0x00, 0x00, 0x01,                         /* lastOffsetDelta */
	0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, /* baseTimestamp */
	0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0xfa, /* maxTimestamp */
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, /* producerId */
	0xff, 0xff,                                     /* producerEpoch */
	0xff, 0xff, 0xff, 0xff,                         /* baseSequence */
	0x00, 0x00, 0x00, 0x02,                         /* record count */
	0x12, 0x00, 0x00, 0x00, 0x01, 0x06, 'a',  'b',
	'c',  0x00,                                     /* len 9, attr, ts+0, off 0, key null, "abc", 0 hdrs */
	0x1a, 0x00, 0xf4, 0x03, 0x02, 0x02, 'k',  0x0a, /* len 13, attr, ts+250, off 1, key "k", ... */
	'h',  'e',  'l',  'l',  'o',  0x00,             /* ... "hello", 0 headers */
};

static const struct rec_out hand_recs[2] = {
	{ .timestamp = 1700000000000LL, .key = NULL, .key_len = -1, .value = "abc", .value_len = 3 },
	{ .timestamp = 1700000000250LL, .key = "k", .key_len = 1, .value = "hello", .value_len = 5 },
};

static void decode_hand_batch(void **state)
{
	(void)state;
	struct rec_batch b;
	char err[128] = "";
	/* trailing bytes after the batch are not part of it */
	uint8_t buf[sizeof hand_batch + 7];
	memcpy(buf, hand_batch, sizeof hand_batch);
	memset(buf + sizeof hand_batch, 0xee, 7);

	assert_int_equal(records_batch_decode(buf, sizeof buf, &b, err, sizeof err), REC_ERR_NONE);
	assert_int_equal(b.base_offset, 5);
	assert_int_equal(b.raw_len, sizeof hand_batch);
	assert_int_equal(b.magic, 2);
	assert_int_equal(b.n_records, 2);
	assert_int_equal(b.last_offset_delta, 1);
	assert_true(b.base_timestamp == 1700000000000LL);
	assert_true(b.max_timestamp == 1700000000250LL);
	assert_true(b.producer_id == -1);
	assert_int_equal(b.producer_epoch, -1);
	assert_int_equal(b.base_sequence, -1);

	struct rec_iter it;
	struct rec_record r;
	records_iter_init(&it, &b);
	assert_int_equal(records_iter_next(&it, &r), 1);
	assert_true(r.timestamp == 1700000000000LL);
	assert_int_equal(r.offset_delta, 0);
	assert_null(r.key);
	assert_int_equal(r.key_len, -1);
	assert_int_equal(r.value_len, 3);
	assert_memory_equal(r.value, "abc", 3);
	assert_int_equal(records_iter_next(&it, &r), 1);
	assert_true(r.timestamp == 1700000000250LL);
	assert_int_equal(r.offset_delta, 1);
	assert_int_equal(r.key_len, 1);
	assert_memory_equal(r.key, "k", 1);
	assert_int_equal(r.value_len, 5);
	assert_memory_equal(r.value, "hello", 5);
	assert_int_equal(r.n_headers, 0);
	assert_int_equal(records_iter_next(&it, &r), 0);
}

static void encode_matches_hand_batch(void **state)
{
	(void)state;
	struct rec_buf out = { 0 };
	assert_int_equal(records_batch_size(hand_recs, 2), sizeof hand_batch);
	records_batch_encode(&out, 5, hand_recs, 2);
	assert_int_equal(out.len, sizeof hand_batch);
	assert_memory_equal(out.data, hand_batch, sizeof hand_batch);
	rec_buf_free(&out);
}

static void decode_of_encode(void **state)
{
	(void)state;
	enum { N = 300 };
	struct rec_out recs[N];
	char vals[N][16];
	/* timestamps going backwards too: deltas may be negative, max is not the last */
	for (int i = 0; i < N; i++) {
		snprintf(vals[i], sizeof vals[i], "v%d", i);
		recs[i] = (struct rec_out){ .timestamp = 1000000 + (i % 7) * 1000 - i,
					    .key = i % 3 ? vals[i] : NULL,
					    .key_len = i % 3 ? (int32_t)strlen(vals[i]) : -1,
					    .value = i % 5 ? vals[i] : NULL,
					    .value_len = i % 5 ? (int32_t)strlen(vals[i]) : -1 };
	}
	struct rec_buf out = { 0 };
	records_batch_encode(&out, 1000, recs, N);
	records_batch_encode(&out, 1000 + N, recs, 1); /* a second batch right after */

	struct rec_batch b;
	char err[128];
	assert_int_equal(records_batch_decode(out.data, out.len, &b, err, sizeof err), REC_ERR_NONE);
	assert_int_equal(b.base_offset, 1000);
	assert_int_equal(b.n_records, N);
	int64_t max = 0;
	for (int i = 0; i < N; i++)
		if (recs[i].timestamp > max)
			max = recs[i].timestamp;
	assert_true(b.max_timestamp == max);
	struct rec_iter it;
	struct rec_record r;
	records_iter_init(&it, &b);
	for (int i = 0; i < N; i++) {
		assert_int_equal(records_iter_next(&it, &r), 1);
		assert_true(r.timestamp == recs[i].timestamp);
		assert_int_equal(r.offset_delta, i);
		assert_int_equal(r.key_len, recs[i].key_len);
		assert_int_equal(r.value_len, recs[i].value_len);
		if (recs[i].key)
			assert_memory_equal(r.key, recs[i].key, (size_t)r.key_len);
		else
			assert_null(r.key);
		if (recs[i].value)
			assert_memory_equal(r.value, recs[i].value, (size_t)r.value_len);
	}
	assert_int_equal(records_iter_next(&it, &r), 0);

	struct rec_batch b2;
	assert_int_equal(records_batch_decode(out.data + b.raw_len, out.len - b.raw_len, &b2, err, sizeof err), 0);
	assert_int_equal(b2.base_offset, 1000 + N);
	assert_int_equal(b2.n_records, 1);

	/* the broker rewrites baseOffset without touching the CRC */
	records_batch_set_base_offset(out.data, 77);
	assert_int_equal(records_batch_decode(out.data, out.len, &b, err, sizeof err), REC_ERR_NONE);
	assert_int_equal(b.base_offset, 77);
	rec_buf_free(&out);
}

static int16_t decode_copy(const uint8_t *src, size_t len, char *err, size_t errlen)
{
	/* decode from a heap copy of exactly len bytes so ASan sees any over-read */
	uint8_t *copy = malloc(len ? len : 1);
	memcpy(copy, src, len);
	struct rec_batch b;
	int rc = records_batch_decode(copy, len, &b, err, errlen);
	free(copy);
	return (int16_t)rc;
}

static void rejects_bad_batches(void **state)
{
	(void)state;
	uint8_t buf[sizeof hand_batch];
	char err[128];

	/* every truncation is CORRUPT_MESSAGE, and never reads out of bounds */
	for (size_t n = 0; n < sizeof hand_batch; n++) {
		int16_t rc = decode_copy(hand_batch, n, err, sizeof err);
		assert_true(rc == REC_ERR_CORRUPT_MESSAGE || rc == REC_ERR_INVALID_RECORD);
	}
	/* a flipped bit in a record: CRC mismatch */
	memcpy(buf, hand_batch, sizeof buf);
	buf[70] ^= 0x01;
	assert_int_equal(decode_copy(buf, sizeof buf, err, sizeof err), REC_ERR_CORRUPT_MESSAGE);
	assert_non_null(strstr(err, "CRC"));
	/* magic 1 */
	memcpy(buf, hand_batch, sizeof buf);
	buf[16] = 1;
	assert_int_equal(decode_copy(buf, sizeof buf, err, sizeof err), REC_ERR_INVALID_RECORD);
	assert_non_null(strstr(err, "magic"));
}

/* Re-computes the CRC after an edit so that the check under test is the one that fires. */
static void fix_crc(uint8_t *b, size_t len)
{
	uint32_t c = crc32c(b + 21, len - 21);
	b[17] = (uint8_t)(c >> 24);
	b[18] = (uint8_t)(c >> 16);
	b[19] = (uint8_t)(c >> 8);
	b[20] = (uint8_t)c;
}

static void rejects_semantic_errors(void **state)
{
	(void)state;
	/* one byte of hand_batch changed, the CRC made right again: the error the decoder must give */
	static const struct {
		const char *what;
		size_t at;
		uint8_t value;
		bool any_error; /* the code is not pinned, only that it is one */
		int16_t want;
	} edits[] = {
		{ "gzip compression bit", 22, 0x01, false, REC_ERR_UNSUPPORTED_COMPRESSION_TYPE },
		{ "zstd", 22, 0x04, false, REC_ERR_UNSUPPORTED_COMPRESSION_TYPE },
		{ "record count says 3", 60, 3, true, REC_ERR_NONE },
		{ "lastOffsetDelta says 5", 26, 5, false, REC_ERR_INVALID_RECORD },
		/* lastOffsetDelta stays consistent with the count */
		{ "second record's offset delta 2", 75, 0x04, false, REC_ERR_INVALID_RECORD },
		{ "record 0 claims 8 bytes instead of 9", 61, 0x10, false, REC_ERR_CORRUPT_MESSAGE },
	};
	uint8_t buf[sizeof hand_batch];
	char err[128];
	for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
		memcpy(buf, hand_batch, sizeof buf);
		buf[edits[i].at] = edits[i].value;
		fix_crc(buf, sizeof buf);
		int16_t rc = decode_copy(buf, sizeof buf, err, sizeof err);
		if (edits[i].any_error ? rc == REC_ERR_NONE : rc != edits[i].want)
			fail_msg("%s: decoded with %d, want %s%d", edits[i].what, rc, edits[i].any_error ? "not " : "",
				 edits[i].want);
	}
}

/* Random corruption of a valid batch (with the CRC fixed up, so the parser proper is exercised): decode
 * either accepts or names an error, and never reads outside the buffer (ASan watches). */
static void survives_mutations(void **state)
{
	(void)state;
	uint64_t x = 0x9E3779B97F4A7C15ull;
	char err[128];
	int accepted = 0;
	for (int round = 0; round < 20000; round++) {
		uint8_t buf[sizeof hand_batch];
		memcpy(buf, hand_batch, sizeof buf);
		int flips = 1 + (int)(x % 4);
		for (int k = 0; k < flips; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			size_t at = 21 + (size_t)(x % (sizeof buf - 21)); /* attributes onwards: what the CRC covers */
			buf[at] = (uint8_t)(x >> 32);
		}
		fix_crc(buf, sizeof buf);
		size_t len = sizeof buf - (size_t)((x >> 40) % 3); /* sometimes truncated too */
		int16_t rc = decode_copy(buf, len, err, sizeof err);
		assert_true(rc == REC_ERR_NONE || rc == REC_ERR_CORRUPT_MESSAGE || rc == REC_ERR_INVALID_RECORD ||
			    rc == REC_ERR_UNSUPPORTED_COMPRESSION_TYPE);
		accepted += rc == REC_ERR_NONE;
	}
	print_message("# %d of 20000 mutated batches were still valid\n", accepted);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(crc32c_known_vectors),      cmocka_unit_test(crc32c_incremental),
	cmocka_unit_test(varint_round_trip),         cmocka_unit_test(decode_hand_batch),
	cmocka_unit_test(encode_matches_hand_batch), cmocka_unit_test(decode_of_encode),
	cmocka_unit_test(rejects_bad_batches),       cmocka_unit_test(rejects_semantic_errors),
	cmocka_unit_test(survives_mutations),
};

LT_TEST_MAIN(NULL, NULL)
