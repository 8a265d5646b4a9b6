/* test_sim_housekeeping.c — the simulated broker's periodic work: Kafka's offset-expiry rule in
 * both of its cases and the tombstones it writes, log retention by time and by size (the log start moves by
 * whole units, the size stays bounded), and the compaction of __consumer_offsets (latest value per key,
 * tombstones dropped after the delete retention, reads skip the gaps, bounded size). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commitlog/record.h"
#include "sim/cluster.h"
#include "sim/offsets_expiry.h"
#include "sim/offsets_log.h"
#include "sim/record_store.h"
#include "sim/records.h"
#include "../lib/lagtop_test.h"
#include "../lib/cmocka_main.h"

#define SEC 1000LL
#define MIN (60 * SEC)
#define T0  1700000000000LL

static struct sim_state *st;

static int setup(void **state)
{
	(void)state;
	st = sim_state_new(1, 1);
	st->offsets_retention_minutes = 1;
	int16_t kerr;
	char err[128];
	return sim_topic_create(st, "a", 2, &kerr, err, sizeof err) &&
			       sim_topic_create(st, "b", 1, &kerr, err, sizeof err)
		       ? 0
		       : -1;
}

static int teardown(void **state)
{
	(void)state;
	sim_state_free(st);
	return 0;
}

static void commit(struct sim_group *g, const char *topic, int32_t p, int64_t off, int64_t ts)
{
	sim_group_commit(g, topic, strlen(topic), p, off, -1, "", 0, ts);
	sim_offsets_log_commit(st, g, topic, strlen(topic), p);
}

/* A classic "consumer" group with one member subscribed to `topic`, in state s. */
static struct sim_group *consumer_group(const char *id, const char *topic, enum sim_group_state s)
{
	struct sim_group *g = sim_group_get_or_create(st, id);
	const char *topics[] = { topic };
	test_group_add_range_member(g, "c", topics, 1);
	g->state = s;
	g->generation_id = 1;
	return g;
}

/* Every record of __consumer_offsets' partition p: keys and whether the value is null. */
struct rec {
	lt_commit_record r;
	int64_t offset, ts;
};

static size_t read_offsets_log(int32_t part, struct rec *out, size_t max)
{
	struct sim_topic *t = sim_topic_find(st, SIM_OFFSETS_TOPIC, strlen(SIM_OFFSETS_TOPIC));
	if (!t)
		return 0;
	struct sim_partition *p = &t->parts[part];
	struct rec_buf buf = { 0 };
	(void)sim_store_read(p, p->log_start, 1 << 30, true, &buf);
	size_t n = 0, off = 0;
	int64_t prev = -1;
	while (off < buf.len) {
		struct rec_batch b;
		char err[128];
		assert_int_equal(records_batch_decode(buf.data + off, buf.len - off, &b, err, sizeof err), 0);
		assert_true(b.base_offset > prev); /* gaps skipped, never repeated, nothing synthetic */
		prev = b.base_offset;
		struct rec_iter it;
		struct rec_record r;
		records_iter_init(&it, &b);
		while (records_iter_next(&it, &r) == 1 && n < max) {
			assert_int_equal(commit_record_decode(r.key, (size_t)r.key_len, r.value,
							      r.value ? (size_t)r.value_len : 0, &out[n].r, err,
							      sizeof err),
					 0);
			out[n].offset = b.base_offset + r.offset_delta;
			out[n].ts = r.timestamp;
			n++;
		}
		off += b.raw_len;
	}
	rec_buf_free(&buf);
	return n;
}

static void free_recs(struct rec *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		commit_record_free(&r[i].r);
}

static void expiry_rule_both_cases(void **state)
{
	(void)state;
	int64_t at, R = MIN;
	/* a simple group (no protocol type): from each commit */
	struct sim_group *s = sim_group_get_or_create(st, "simple");
	commit(s, "a", 0, 5, T0);
	assert_true(sim_offset_expiry_at(s, "a", T0, R, &at));
	assert_int_equal(at, T0 + MIN);
	/* an Empty group with a protocol type: from when it became Empty, whatever the commit time */
	struct sim_group *e = consumer_group("empty", "a", SIM_GROUP_STABLE);
	sim_group_remove_member(e, "m-1");
	e->state = SIM_GROUP_EMPTY;
	e->state_ms = T0 + 30 * SEC;
	assert_true(sim_offset_expiry_at(e, "a", T0, R, &at));
	assert_int_equal(at, T0 + 30 * SEC + MIN);
	e->state_ms = -1; /* unknown (old metadata): from the commit */
	assert_true(sim_offset_expiry_at(e, "a", T0, R, &at));
	assert_int_equal(at, T0 + MIN);
	/* a Stable consumer group: the topics it subscribes to never, the others from the commit */
	struct sim_group *g = consumer_group("stable", "a", SIM_GROUP_STABLE);
	assert_false(sim_offset_expiry_at(g, "a", T0, R, &at));
	assert_true(sim_offset_expiry_at(g, "b", T0, R, &at));
	assert_int_equal(at, T0 + MIN);
	/* rebalancing: nothing expires */
	g->state = SIM_GROUP_PREPARING_REBALANCE;
	assert_false(sim_offset_expiry_at(g, "b", T0, R, &at));
	/* a classic group of another protocol type with members: nothing */
	struct sim_group *c = consumer_group("connect", "a", SIM_GROUP_STABLE);
	free(c->protocol_type);
	c->protocol_type = strdup("connect");
	assert_false(sim_offset_expiry_at(c, "b", T0, R, &at));
}

static void expire_writes_tombstones_and_deletes_the_group(void **state)
{
	(void)state;
	struct sim_group *s = sim_group_get_or_create(st, "simple");
	commit(s, "a", 0, 5, T0);
	commit(s, "a", 1, 6, T0 + 20 * SEC);
	struct sim_group *g = consumer_group("stable", "a", SIM_GROUP_STABLE);
	commit(g, "a", 0, 1, T0);
	commit(g, "b", 0, 1, T0);
	size_t deleted = 9;
	assert_int_equal(sim_offsets_expire(st, T0 + MIN - 1, &deleted), 0); /* not yet */
	assert_int_equal(deleted, 0);
	assert_int_equal(sim_offsets_expire(st, T0 + MIN, &deleted), 2); /* Kafka's >=: a/0 of simple, b/0 of stable */
	assert_int_equal(deleted, 0);
	assert_null(sim_group_committed(s, "a", 1, 0));
	assert_non_null(sim_group_committed(s, "a", 1, 1));
	assert_non_null(sim_group_committed(g, "a", 1, 0)); /* subscribed: kept */
	assert_null(sim_group_committed(g, "b", 1, 0));
	assert_int_equal(sim_offsets_expire(st, T0 + 20 * SEC + MIN, &deleted), 1);
	assert_int_equal(deleted, 1); /* the simple group, Empty without offsets: deleted */
	assert_null(sim_group_find(st, "simple", 6));
	assert_non_null(sim_group_find(st, "stable", 6));

	/* the log: two commits then two tombstones (timestamped when expired), then the group's tombstone */
	struct rec r[16];
	size_t n = read_offsets_log(sim_offsets_partition("simple"), r, 16);
	assert_int_equal(n, 5);
	assert_int_equal(r[2].r.type, LT_CR_OFFSET_DELETE);
	assert_string_equal(r[2].r.topic, "a");
	assert_int_equal(r[2].r.partition, 0);
	assert_int_equal(r[2].ts, T0 + MIN);
	assert_int_equal(r[3].r.type, LT_CR_OFFSET_DELETE);
	assert_int_equal(r[3].ts, T0 + 20 * SEC + MIN);
	assert_int_equal(r[4].r.type, LT_CR_GROUP_DELETE);
	free_recs(r, n);
}

/* A partition of synthetic runs: 10 appends of 100 records, one a second. */
static struct sim_partition *runs_partition(void)
{
	struct sim_partition *p = sim_partition_find(st, "a", 1, 0);
	for (int i = 0; i < 10; i++)
		sim_partition_append(p, 100, T0 + i * SEC, 1);
	return p;
}

static void retention_by_time_moves_by_whole_units(void **state)
{
	(void)state;
	struct sim_partition *p = runs_partition();
	/* the run appended at T0+3s ends at T0+3s+99ms: at T0+3.5s+10s it is older than 10 s, the next is not */
	int64_t now = T0 + 3500 + 10 * SEC;
	assert_int_equal(sim_partition_retention(p, now, 10 * SEC, -1), 400);
	assert_int_equal(p->log_start, 400);
	assert_int_equal(sim_partition_offset_for_time(p, 0, NULL), 400); /* ListOffsets earliest-by-time follows */
	assert_int_equal(sim_partition_retention(p, now, 10 * SEC, -1), 0);
	assert_int_equal(sim_partition_retention(p, T0 + 3600 * SEC, 10 * SEC, -1), 600);
	assert_int_equal(p->log_start, p->log_end); /* everything old: an empty log, its end kept */
	assert_int_equal(p->log_end, 1000);
	assert_int_equal(p->nsegs, 0);
}

static void retention_by_size_keeps_the_log_bounded(void **state)
{
	(void)state;
	struct sim_partition *p = runs_partition();
	assert_int_equal(sim_partition_bytes(p), 1000 * SIM_SYNTH_RECORD_BYTES);
	/* Kafka: delete the oldest units while the rest is at least retention.bytes */
	(void)sim_partition_retention(p, T0, -1, 450 * SIM_SYNTH_RECORD_BYTES);
	assert_int_equal(p->log_start, 500);
	assert_true(sim_partition_bytes(p) >= 450 * SIM_SYNTH_RECORD_BYTES);
	assert_true(sim_partition_bytes(p) < 550 * SIM_SYNTH_RECORD_BYTES);

	/* produced batches are units too: the start never falls inside one */
	struct sim_partition *q = sim_partition_find(st, "b", 1, 0);
	for (int i = 0; i < 200; i++) {
		struct rec_out r[3];
		char v[3][32];
		for (int k = 0; k < 3; k++) {
			snprintf(v[k], sizeof v[k], "value-%d-%d", i, k);
			r[k] = (struct rec_out){ T0 + i * SEC, NULL, -1, v[k], (int32_t)strlen(v[k]) };
		}
		struct rec_buf b = { 0 };
		struct rec_batch batch;
		char err[128];
		records_batch_encode(&b, 0, r, 3);
		assert_int_equal(records_batch_decode(b.data, b.len, &batch, err, sizeof err), 0);
		(void)sim_store_append(st, q, &batch);
		rec_buf_free(&b);
		(void)sim_partition_retention(q, T0 + i * SEC, -1, 2000);
		assert_true(sim_partition_bytes(q) < 2000 + 200); /* bounded: at most one batch above the limit */
		assert_int_equal(q->log_start % 3, 0);
	}
	assert_true(q->log_start > 0);
	assert_int_equal(q->log_end, 600);
	struct rec_buf out = { 0 };
	(void)sim_store_read(q, q->log_start, 1 << 20, true, &out);
	struct rec_batch first;
	assert_int_equal(records_batch_peek(out.data, out.len, &first), 0);
	assert_int_equal(first.base_offset, q->log_start);
	rec_buf_free(&out);
}

static void compaction_keeps_the_latest_value_per_key(void **state)
{
	(void)state;
	st->offsets_segment_bytes = 4096;
	st->offsets_delete_retention_ms = 10 * MIN;
	struct sim_group *g = sim_group_get_or_create(st, "busy");
	int32_t part = sim_offsets_partition("busy");
	/* 3 partitions committed 2,000 times each: without compaction 6,000 records */
	for (int i = 0; i < 2000; i++)
		for (int32_t k = 0; k < 2; k++)
			commit(g, "a", k, i, T0 + i * SEC);
	for (int i = 0; i < 2000; i++)
		commit(g, "b", 0, 10 * i, T0 + i * SEC);
	struct sim_topic *t = sim_topic_find(st, SIM_OFFSETS_TOPIC, strlen(SIM_OFFSETS_TOPIC));
	struct sim_partition *p = &t->parts[part];
	size_t before = sim_store_bytes(p);
	int64_t end = p->log_end;
	assert_true(sim_store_compact(p, T0 + 2000 * SEC, st->offsets_delete_retention_ms) > 0);
	assert_true(sim_store_bytes(p) < before / 10);
	assert_true(sim_store_bytes(p) <= 4096 + 3 * 200); /* the active segment and one record per key */
	assert_int_equal(p->log_end, end);
	assert_int_equal(p->log_start, 0);

	struct rec r[200];
	size_t n = read_offsets_log(part, r, 200);
	int64_t last_a0 = -1, last_b0 = -1;
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(r[i].r.type, LT_CR_OFFSET_COMMIT);
		if (strcmp(r[i].r.topic, "a") == 0 && r[i].r.partition == 0)
			last_a0 = r[i].r.offset;
		if (strcmp(r[i].r.topic, "b") == 0)
			last_b0 = r[i].r.offset;
	}
	assert_int_equal(last_a0, 1999); /* the latest value of each key */
	assert_int_equal(last_b0, 19990);
	assert_int_equal(sim_partition_timestamp_at(p, r[n - 1].offset), r[n - 1].ts); /* times follow */
	free_recs(r, n);

	/* tombstones: kept while younger than delete.retention.ms, then dropped with what they deleted */
	sim_offsets_log_commit_delete(st, "busy", "b", 1, 0, T0 + 2000 * SEC);
	for (int i = 0; i < 200; i++) /* fill a segment so the tombstone leaves the active one */
		commit(g, "a", 0, 2000 + i, T0 + 2001 * SEC);
	(void)sim_store_compact(p, T0 + 2001 * SEC, st->offsets_delete_retention_ms);
	n = read_offsets_log(part, r, 200);
	size_t tomb = 0, b_commits = 0;
	for (size_t i = 0; i < n; i++) {
		tomb += r[i].r.type == LT_CR_OFFSET_DELETE;
		b_commits += r[i].r.type == LT_CR_OFFSET_COMMIT && strcmp(r[i].r.topic, "b") == 0;
	}
	assert_int_equal(tomb, 1);
	assert_int_equal(b_commits, 0); /* the tombstone superseded the commit */
	free_recs(r, n);
	(void)sim_store_compact(p, T0 + 2000 * SEC + 10 * MIN + 1, st->offsets_delete_retention_ms);
	n = read_offsets_log(part, r, 200);
	tomb = 0;
	for (size_t i = 0; i < n; i++)
		tomb += r[i].r.type == LT_CR_OFFSET_DELETE;
	assert_int_equal(tomb, 0);
	free_recs(r, n);
}

static void compaction_bounds_the_offsets_topic(void **state)
{
	(void)state;
	st->offsets_segment_bytes = 8192;
	struct sim_group *g = sim_group_get_or_create(st, "loop");
	struct sim_topic *t = NULL;
	size_t peak = 0;
	/* a day of one commit a second on 2 partitions, housekeeping every 5 minutes */
	for (int64_t s = 0; s < 86400; s++) {
		commit(g, "a", 0, s, T0 + s * SEC);
		commit(g, "a", 1, s, T0 + s * SEC);
		if (s % 300 == 299)
			sim_logs_retention(st, T0 + s * SEC);
		if (!t)
			t = sim_topic_find(st, SIM_OFFSETS_TOPIC, strlen(SIM_OFFSETS_TOPIC));
		size_t b = sim_store_bytes(&t->parts[sim_offsets_partition("loop")]);
		peak = b > peak ? b : peak;
	}
	/* 300 s x 2 commits stay uncleaned between two runs at most, about 100 bytes each */
	assert_true(peak < 8192 + 2 * 300 * 120);
	assert_true(t->parts[sim_offsets_partition("loop")].nsegs < 2 * 300 + 100);
}

static const struct CMUnitTest tests[] = {
	LT_FIXTURE_TEST(expiry_rule_both_cases),
	LT_FIXTURE_TEST(expire_writes_tombstones_and_deletes_the_group),
	LT_FIXTURE_TEST(retention_by_time_moves_by_whole_units),
	LT_FIXTURE_TEST(retention_by_size_keeps_the_log_bounded),
	LT_FIXTURE_TEST(compaction_keeps_the_latest_value_per_key),
	LT_FIXTURE_TEST(compaction_bounds_the_offsets_topic),
};

LT_TEST_MAIN(NULL, NULL)
