/* test_sim_record_store.c — a partition log made of produced batches and synthetic runs: offsets and
 * timestamps on append, reads from any offset with byte limits, retention. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cluster.h"
#include "sim/record_store.h"
#include "sim/records.h"
#include "../lib/cmocka_main.h"

static struct sim_state *st;
static struct sim_partition *p;

static int setup(void **state)
{
	(void)state;
	int16_t kerr;
	char err[128];
	st = sim_state_new(1, 1);
	struct sim_topic *t = sim_topic_create(st, "t", 1, &kerr, err, sizeof err);
	p = t ? &t->parts[0] : NULL;
	return p ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	sim_state_free(st);
	return 0;
}

/* Produces n records with timestamps ts0, ts0+1, ... as one batch; returns its first offset. */
static int64_t produce(int n, int64_t ts0)
{
	struct rec_out r[64];
	char v[64][16];
	for (int i = 0; i < n; i++) {
		snprintf(v[i], sizeof v[i], "p%d", i);
		r[i] = (struct rec_out){ ts0 + i, NULL, -1, v[i], (int32_t)strlen(v[i]) };
	}
	struct rec_buf b = { 0 };
	struct rec_batch batch;
	char err[128];
	records_batch_encode(&b, 0, r, (size_t)n);
	assert_int_equal(records_batch_decode(b.data, b.len, &batch, err, sizeof err), 0);
	int64_t base = sim_store_append(st, p, &batch);
	rec_buf_free(&b);
	return base;
}

/* The length of the batch at out's byte off as its header says (base offset, then the length of the rest),
 * which may run past the blob's end: a batch cut by a fetch's limit. */
static size_t batch_len(const struct rec_buf *out, size_t off)
{
	if (out->len - off < 12)
		return SIZE_MAX;
	const uint8_t *b = (const uint8_t *)out->data + off + 8;
	return 12 + ((size_t)b[0] << 24 | (size_t)b[1] << 16 | (size_t)b[2] << 8 | b[3]);
}

/* Walks a records blob: every batch valid, offsets contiguous from `from_at_most`, a cut batch at the end
 * skipped as clients do; returns the offset after the last whole record (-1: none) and checks each
 * record's timestamp with the partition's own view. */
static int64_t walk(const struct rec_buf *out, int64_t first_wanted, int *nbatches)
{
	size_t off = 0;
	int64_t next = -1;
	char err[128];
	*nbatches = 0;
	while (off < out->len && batch_len(out, off) <= out->len - off) {
		struct rec_batch b;
		assert_int_equal(records_batch_decode(out->data + off, out->len - off, &b, err, sizeof err), 0);
		if (next < 0)
			assert_true(b.base_offset <= first_wanted);
		else
			assert_true(b.base_offset == next);
		struct rec_iter it;
		struct rec_record r;
		records_iter_init(&it, &b);
		while (records_iter_next(&it, &r) == 1) {
			int64_t o = b.base_offset + r.offset_delta;
			assert_true(r.timestamp == sim_partition_timestamp_at(p, o));
		}
		next = b.base_offset + b.n_records;
		off += b.raw_len;
		(*nbatches)++;
	}
	return next;
}

static void mixed_log(void **state)
{
	(void)state;
	int nb;
	struct rec_buf out = { 0 };

	sim_partition_append(p, 1200, 5000, 10);     /* synthetic 0..1199 */
	assert_int_equal(produce(20, 900000), 1200); /* produced 1200..1219 */
	assert_int_equal(p->log_end, 1220);
	assert_true(sim_partition_timestamp_at(p, 1205) == 900005);
	assert_true(sim_store_bytes(p) > 0);
	sim_partition_append(p, 30, 100, 0); /* synthetic again 1220..1249 (timestamps going back) */
	assert_int_equal(produce(5, 1), 1250);

	/* everything from 0: synthetic batches of at most 500, the produced ones as they came */
	sim_store_read(p, 0, 1 << 30, true, &out);
	assert_int_equal(walk(&out, 0, &nb), 1255);
	assert_int_equal(nb, 3 + 1 + 1 + 1);
	/* from inside a produced batch: that whole batch first */
	out.len = 0;
	sim_store_read(p, 1210, 1 << 30, true, &out);
	assert_int_equal(walk(&out, 1210, &nb), 1255);
	assert_int_equal(nb, 3);
	/* at the log end: nothing */
	out.len = 0;
	assert_int_equal(sim_store_read(p, 1255, 1 << 30, true, &out), 0);
	/* a tiny limit still returns one whole batch, never more, to the first partition of an answer */
	out.len = 0;
	sim_store_read(p, 0, 1, true, &out);
	assert_int_equal(walk(&out, 0, &nb), 500);
	assert_int_equal(nb, 1);
	out.len = 0;
	sim_store_read(p, 1200, 1, true, &out);
	assert_int_equal(walk(&out, 1200, &nb), 1220);
	/* any other partition of the answer gets the limit, the last batch cut where it falls (as Kafka
	 * slices its log): 1 byte is a cut batch; the first synthetic batch and 10 bytes more, a whole batch
	 * and a cut one */
	out.len = 0;
	assert_int_equal(sim_store_read(p, 0, 1, false, &out), 1);
	assert_int_equal(walk(&out, 0, &nb), -1);
	assert_int_equal(nb, 0);
	out.len = 0;
	sim_store_read(p, 0, 1 << 30, true, &out);
	size_t first = batch_len(&out, 0);
	out.len = 0;
	assert_int_equal(sim_store_read(p, 0, (int32_t)first + 10, false, &out), first + 10);
	assert_int_equal(walk(&out, 0, &nb), 500);
	assert_int_equal(nb, 1);
	out.len = 0;
	sim_store_read(p, 1200, 1 << 30, true, &out);
	first = batch_len(&out, 0);
	out.len = 0;
	assert_int_equal(sim_store_read(p, 1200, (int32_t)first - 1, false, &out), first - 1);
	assert_int_equal(walk(&out, 1200, &nb), -1); /* the produced batch, cut */
	/* retention: produced batches below the log start go away */
	size_t before = sim_store_bytes(p);
	sim_partition_set_log_start(p, 1230);
	out.len = 0;
	sim_store_read(p, 1230, 1 << 30, true, &out);
	assert_int_equal(walk(&out, 1230, &nb), 1255);
	assert_true(sim_store_bytes(p) < before);
	rec_buf_free(&out);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(mixed_log),
};

LT_TEST_MAIN(setup, teardown)
