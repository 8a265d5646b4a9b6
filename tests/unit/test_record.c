/* test_record.c — recording files (src/record): every field of every snapshot comes back from the file
 * exactly, read in order and out of order (seeks across keyframes); files cut at every byte read up to their
 * last complete record; a flipped byte is reported as a corrupt record; rotation keeps FILE.1..FILE.keep, and
 * another cluster's records start the next file. The
 * snapshots are made by the real model (model_enrich) over offsets that move every refresh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "../lib/lagtop_test.h"

#include "model/model.h"
#include "record/record.h"
#include "util/crc32c.h"
#include "../lib/cmocka_main.h"

static char dir[256]; /* the test's private folder: every file written lives here */

static void path_in(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", dir, name);
}

/* Snapshot i of a small cluster: 6 groups of 2 topics × 3 partitions, offsets that move each refresh, a group
 * that appears at 10 and one that goes at 30, members that change at 20, commit metadata, sources, brokers. */
static lt_snapshot *make(lt_history *h, int i)
{
	lt_snapshot *s = snapshot_new();
	s->seq = (uint64_t)i + 1;
	s->taken_at_ms = 1700000000000 + (int64_t)i * 10000 + (i % 3);
	s->duration_ms = 40 + i % 7;
	s->cluster = strdup("prod");
	s->brokers_up = 3;
	s->brokers_total = 3;
	s->commit_stream = LT_CSTREAM_LIVE;
	if (i % 17 == 5)
		s->error = strdup("broker 2 timed out");
	snapshot_add_broker(s, 1, "b1", 9092);
	snapshot_add_broker(s, 2, "b2", 9093);
	s->pos_sources = calloc(1, sizeof *s->pos_sources);
	s->n_pos_sources = 1;
	s->pos_sources[0].location = strdup("http://x/metrics");
	s->pos_sources[0].status = strdup(i % 4 ? "ok" : "timeout");
	s->pos_sources[0].ok = i % 4 != 0;
	s->pos_sources[0].n_reports = (size_t)(i % 5);
	s->pos_sources[0].n_used = (size_t)(i % 3);
	if (i % 5 == 2)
		s->commit_stream_reason = strdup("loading the history");
	for (int g = 0; g < 6; g++) {
		if ((g == 4 && i < 10) || (g == 5 && i >= 30))
			continue;
		char name[32];
		snprintf(name, sizeof name, "group-%d", g);
		lt_group *gr = snapshot_add_group(s, name);
		gr->state = g == 3 ? LT_GROUP_EMPTY : LT_GROUP_STABLE;
		gr->type = g == 1 ? LT_GTYPE_CONSUMER : LT_GTYPE_CLASSIC;
		gr->members_unreadable = g == 1 && i % 8 == 3;
		if (g == 2 && i % 11 == 4) {
			gr->error = strdup("coordinator not available");
			gr->stale_ms = 15000 + i;
		}
		if (g == 0) {
			group_add_commit_epoch(gr, "alpha", 0, 3 + i / 25);
			group_add_commit_epoch(gr, "beta", 2, 7);
		}
		gr->protocol_type = strdup("consumer");
		gr->protocol = strdup("range");
		gr->coordinator = g % 2 + 1;
		if (g != 3) {
			lt_member *m = group_add_member(gr, i < 20 ? "m-1" : "m-2", "client", "/10.0.0.1");
			if (g == 0)
				m->instance_id = strdup("static-1");
			member_add_assignment(m, "alpha", 0);
			member_add_assignment(m, "alpha", 1);
			member_add_assignment(m, "beta", 0);
		}
		for (int t = 0; t < 2; t++)
			for (int p = 0; p < 3; p++) {
				lt_partition *pp = group_add_partition(gr, t ? "beta" : "alpha", p);
				int64_t base = 1000 * (g + 1) + 100 * p;
				pp->log_start = 10 + i / 20;
				pp->log_end = base + (int64_t)i * (50 + 13 * p + t) + (i * 7919 % 23);
				pp->committed = g == 3 ? base : pp->log_end - (i * 31 + p * 17 + g) % 90;
				if (g == 2 && p == 2 && i > 40)
					pp->committed = 5; /* below the log start */
				if (p == 1 && i % 9 == 0)
					partition_ext_add(gr, pp)->commit_metadata = strdup("meta");
				pp->last_commit_ms = s->taken_at_ms - 500;
				pp->has_last_commit = true;
				pp->last_commit_age_ms = 500;
				pp->commits_per_min = 6.0 + (i % 3) * 0.25;
				if (p == 0) {
					pp->has_position = true;
					lt_partition_ext *px = partition_ext_add(gr, pp);
					px->position = pp->committed + 3;
					px->position_age_ms = 1200;
					px->position_source = i % 2;
				}
				if (p == 2 && g == 2 && i % 11 == 4)
					partition_ext_add(gr, pp)->stale_ms = 15000 + i;
			}
	}
	snapshot_finish(s);
	model_enrich(h, s);
	/* what the commit stream sets, beside the model's */
	for (size_t g = 0; g < s->n_groups; g++) {
		lt_group *gr = &s->groups[g];
		if (gr->state == LT_GROUP_EMPTY) {
			gr->has_expiry = true;
			gr->expires_at_ms = s->taken_at_ms + 600000 - i;
			gr->expires_in_ms = 600000 - i * 10000;
			gr->expiry_warn = i % 4 == 1;
			gr->n_expired = (size_t)(i / 30);
			gr->expired_ms = i >= 30 ? 1700000300000 : 0;
		}
		for (size_t k = 0; k < gr->n_partitions; k++) {
			gr->partitions[k].has_unmoved = k % 2 == 0;
			gr->partitions[k].unmoved_ms = (int64_t)(i * 1000 + (int)k);
			gr->partitions[k].repeating = (i + (int)k) % 7 == 0;
		}
	}
	return s;
}

static void same_str(const char *a, const char *b)
{
	assert_true((a == NULL) == (b == NULL));
	if (a)
		assert_string_equal(a, b);
}

/* Every field of b, read back from a file, equals a's, the snapshot written. */
static void expect_same(const lt_snapshot *a, const lt_snapshot *b)
{
	assert_int_equal(a->seq, b->seq);
	assert_int_equal(a->taken_at_ms, b->taken_at_ms);
	assert_int_equal(a->duration_ms, b->duration_ms);
	assert_int_equal(a->status_window, b->status_window);
	assert_string_equal(a->cluster, b->cluster);
	assert_true((a->error == NULL) == (b->error == NULL));
	if (a->error)
		assert_string_equal(a->error, b->error);
	assert_int_equal(a->brokers_up, b->brokers_up);
	assert_int_equal(a->n_brokers, b->n_brokers);
	for (size_t i = 0; i < a->n_brokers; i++) {
		assert_int_equal(a->brokers[i].id, b->brokers[i].id);
		assert_int_equal(a->brokers[i].port, b->brokers[i].port);
		assert_string_equal(a->brokers[i].host, b->brokers[i].host);
	}
	assert_int_equal(a->commit_stream, b->commit_stream);
	same_str(a->commit_stream_reason, b->commit_stream_reason);
	assert_int_equal(a->brokers_total, b->brokers_total);
	assert_int_equal(a->n_pos_sources, b->n_pos_sources);
	for (size_t i = 0; i < a->n_pos_sources; i++) {
		assert_string_equal(a->pos_sources[i].location, b->pos_sources[i].location);
		assert_string_equal(a->pos_sources[i].status, b->pos_sources[i].status);
		assert_int_equal(a->pos_sources[i].ok, b->pos_sources[i].ok);
		assert_int_equal(a->pos_sources[i].n_reports, b->pos_sources[i].n_reports);
		assert_int_equal(a->pos_sources[i].n_used, b->pos_sources[i].n_used);
	}
	assert_int_equal(a->n_groups, b->n_groups);
	for (size_t g = 0; g < a->n_groups; g++) {
		const lt_group *x = &a->groups[g], *y = &b->groups[g];
		assert_string_equal(x->group, y->group);
		assert_int_equal(x->state, y->state);
		assert_int_equal(x->coordinator, y->coordinator);
		assert_string_equal(x->protocol, y->protocol);
		same_str(x->protocol_type, y->protocol_type);
		same_str(x->error, y->error);
		assert_int_equal(x->type, y->type);
		assert_int_equal(x->members_unreadable, y->members_unreadable);
		assert_int_equal(x->stale_ms, y->stale_ms);
		assert_int_equal(x->n_commit_epochs, y->n_commit_epochs);
		for (size_t e = 0; e < x->n_commit_epochs; e++) {
			assert_string_equal(x->commit_epochs[e].topic, y->commit_epochs[e].topic);
			assert_int_equal(x->commit_epochs[e].partition, y->commit_epochs[e].partition);
			assert_int_equal(x->commit_epochs[e].epoch, y->commit_epochs[e].epoch);
		}
		assert_int_equal(x->n_members, y->n_members);
		for (size_t m = 0; m < x->n_members; m++) {
			assert_string_equal(x->members[m].member_id, y->members[m].member_id);
			same_str(x->members[m].client_id, y->members[m].client_id);
			same_str(x->members[m].host, y->members[m].host);
			same_str(x->members[m].instance_id, y->members[m].instance_id);
			assert_int_equal(x->members[m].n_assigned, y->members[m].n_assigned);
			for (size_t k = 0; k < x->members[m].n_assigned; k++) {
				assert_string_equal(x->members[m].assigned[k].topic, y->members[m].assigned[k].topic);
				assert_int_equal(x->members[m].assigned[k].partition,
						 y->members[m].assigned[k].partition);
			}
		}
		assert_int_equal(x->n_partitions, y->n_partitions);
		for (size_t k = 0; k < x->n_partitions; k++) {
			const lt_partition *p = &x->partitions[k], *q = &y->partitions[k];
			assert_string_equal(p->topic, q->topic);
			assert_int_equal(p->partition, q->partition);
			assert_int_equal(p->log_start, q->log_start);
			assert_int_equal(p->committed, q->committed);
			assert_int_equal(p->log_end, q->log_end);
			assert_int_equal(p->lag, q->lag);
			assert_int_equal(p->time_lag_ms, q->time_lag_ms);
			assert_memory_equal(&p->consume_rate, &q->consume_rate, sizeof(double));
			assert_memory_equal(&p->produce_rate, &q->produce_rate, sizeof(double));
			assert_memory_equal(&p->commits_per_min, &q->commits_per_min, sizeof(double));
			assert_int_equal(p->eta_ms, q->eta_ms);
			assert_int_equal(partition_stale_ms(x, p), partition_stale_ms(y, q));
			assert_int_equal(p->last_commit_ms, q->last_commit_ms);
			assert_int_equal(p->last_commit_age_ms, q->last_commit_age_ms);
			assert_int_equal(p->unmoved_ms, q->unmoved_ms);
			assert_int_equal(partition_position(x, p), partition_position(y, q));
			assert_int_equal(partition_position_age_ms(x, p), partition_position_age_ms(y, q));
			assert_int_equal(partition_position_source(x, p), partition_position_source(y, q));
			/* the decoder adds an ext only where the encoder's row had something in it */
			assert_int_equal(partition_ext(x, p) != NULL, partition_ext(y, q) != NULL);
			assert_int_equal(p->member, q->member);
			assert_int_equal(p->flags, q->flags);
			assert_int_equal(p->status, q->status);
			assert_int_equal(p->has_lag, q->has_lag);
			assert_int_equal(p->has_time_lag, q->has_time_lag);
			assert_int_equal(p->has_rates, q->has_rates);
			assert_int_equal(p->has_eta, q->has_eta);
			assert_int_equal(p->has_position, q->has_position);
			assert_int_equal(p->has_last_commit, q->has_last_commit);
			assert_int_equal(p->has_unmoved, q->has_unmoved);
			assert_int_equal(p->repeating, q->repeating);
			const char *pm = partition_commit_metadata(x, p), *qm = partition_commit_metadata(y, q);
			assert_true((pm == NULL) == (qm == NULL));
			if (pm)
				assert_string_equal(pm, qm);
		}
		assert_int_equal(x->total_lag, y->total_lag);
		assert_int_equal(x->max_lag, y->max_lag);
		assert_int_equal(x->max_time_lag_ms, y->max_time_lag_ms);
		assert_int_equal(x->has_max_time_lag, y->has_max_time_lag);
		assert_memory_equal(&x->consume_rate, &y->consume_rate, sizeof(double));
		assert_memory_equal(&x->commits_per_min, &y->commits_per_min, sizeof(double));
		assert_int_equal(x->status, y->status);
		assert_int_equal(x->status_complete, y->status_complete);
		assert_int_equal(x->n_topics, y->n_topics);
		assert_int_equal(x->n_trend, y->n_trend);
		assert_memory_equal(x->trend, y->trend, x->n_trend * sizeof x->trend[0]);
		assert_int_equal(x->last_commit_ms, y->last_commit_ms);
		assert_int_equal(x->last_commit_age_ms, y->last_commit_age_ms);
		assert_int_equal(x->has_last_commit, y->has_last_commit);
		assert_int_equal(x->time_lag_high, y->time_lag_high);
		assert_int_equal(x->has_expiry, y->has_expiry);
		assert_int_equal(x->expires_at_ms, y->expires_at_ms);
		assert_int_equal(x->expires_in_ms, y->expires_in_ms);
		assert_int_equal(x->expiry_warn, y->expiry_warn);
		assert_int_equal(x->n_expired, y->n_expired);
		assert_int_equal(x->expired_ms, y->expired_ms);
	}
}

#define N_SNAPS 70

static lt_snapshot *snaps[N_SNAPS];

static void make_all(void)
{
	if (snaps[0])
		return;
	lt_model_params mp;
	model_params_default(&mp);
	lt_history *h = history_new(&mp);
	for (int i = 0; i < N_SNAPS; i++)
		snaps[i] = make(h, i);
	history_free(h);
}

static void write_file(const char *path, int n, unsigned keyframe_every)
{
	char err[256];
	rec_writer_opts o = { .keyframe_every = keyframe_every };
	unlink(path);
	rec_writer *w = rec_writer_open(path, &o, err, sizeof err);
	assert_non_null(w);
	for (int i = 0; i < n; i++)
		assert_int_equal(rec_writer_append(w, snaps[i], err, sizeof err), 0);
	assert_int_equal(rec_writer_close(w, err, sizeof err), 0);
}

/* Record i of r reads back as snapshot want (a failed read fails the test naming the record). */
static void expect_record(rec_reader *r, size_t i, size_t want)
{
	char err[256];
	lt_snapshot *s = rec_reader_get(r, i, err, sizeof err);
	if (!s)
		fail_msg("record %zu: %s", i, err);
	expect_same(snaps[want], s);
	snapshot_unref(s);
}

static void round_trip_in_order_and_seeking(void **state)
{
	(void)state;
	make_all();
	char path[300], err[256];
	path_in(path, sizeof path, "rt.rec");
	write_file(path, N_SNAPS, 20);
	rec_reader *r = rec_reader_open(path, err, sizeof err);
	assert_non_null(r);
	assert_null(rec_reader_note(r)); /* closed properly: the trailer's index is used */
	assert_int_equal(rec_reader_count(r), N_SNAPS);
	assert_true(rec_reader_is_keyframe(r, 0));
	assert_true(rec_reader_is_keyframe(r, 20));
	assert_false(rec_reader_is_keyframe(r, 21));
	for (size_t i = 0; i < N_SNAPS; i++)
		expect_record(r, i, i);
	/* out of order: backwards, and jumps into every keyframe interval */
	const size_t order[] = { 69, 3, 45, 44, 20, 19, 21, 59, 40, 0, 61, 22 };
	for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
		expect_record(r, order[k], order[k]);
	assert_int_equal(rec_reader_find(r, snaps[33]->taken_at_ms), 33);
	assert_int_equal(rec_reader_find(r, snaps[33]->taken_at_ms + 5000), 33);
	assert_int_equal(rec_reader_find(r, 0), 0);
	/* the sparkline's lags of the last records read */
	int64_t lags[64];
	size_t n = rec_reader_partition_lags(r, "group-1", "alpha", 1, lags, 64);
	assert_int_equal(n, LT_REC_LAGS); /* 7 .. 22 */
	for (size_t j = 0; j < n; j++)
		assert_int_equal(lags[j], snaps[7 + j]->groups[1].partitions[1].lag);
	/* and the reader is still at 22: the next record in order continues from it */
	expect_record(r, 23, 23);
	rec_reader_close(r);
}

/* Every record from a fresh reader (decoding from its keyframe), and a snapshot someone holds is never
 * changed by the decoding of the records after it. */
static void every_record_from_a_fresh_reader(void **state)
{
	(void)state;
	make_all();
	char path[300], err[256];
	path_in(path, sizeof path, "fresh.rec");
	write_file(path, 40, 17);
	for (size_t target = 0; target < 40; target++) {
		rec_reader *r = rec_reader_open(path, err, sizeof err);
		assert_non_null(r);
		expect_record(r, target, target);
		rec_reader_close(r);
	}
	rec_reader *r = rec_reader_open(path, err, sizeof err);
	assert_non_null(r);
	lt_snapshot *held = rec_reader_get(r, 21, err, sizeof err);
	assert_non_null(held);
	expect_record(r, 38, 38);
	expect_same(snaps[21], held);
	snapshot_unref(held);
	rec_reader_close(r);
}

/* tests/unit/data/record-v1.rec and record-v2.rec: files the earlier builds wrote (version 1 by its writer,
 * version 2 by `lagtop --record` of the demo cluster). They are refused with one line naming the version. */
static void refuses_earlier_versions(void **state)
{
	(void)state;
	const char *srcdir = getenv("LT_SRCDIR");
	for (int v = 1; v <= 2; v++) {
		char path[600], err[512], want[64];
		snprintf(path, sizeof path, "%s/tests/unit/data/record-v%d.rec", srcdir ? srcdir : ".", v);
		assert_null(rec_reader_open(path, err, sizeof err));
		snprintf(want, sizeof want, "is a version %d recording; this lagtop reads version 3 only", v);
		if (!strstr(err, want) || strchr(err, '\n'))
			fail_msg("version %d: %s", v, err);
	}
}

/* tests/unit/data/record-v3.rec: the 70 snapshots above as an earlier build of this version wrote them
 * (keyframes every 10). The format is unchanged while they replay exactly, in order and out of it. */
static void replays_a_file_written_before(void **state)
{
	(void)state;
	make_all();
	const char *srcdir = getenv("LT_SRCDIR");
	char path[600], err[512];
	snprintf(path, sizeof path, "%s/tests/unit/data/record-v3.rec", srcdir ? srcdir : ".");
	rec_reader *r = rec_reader_open(path, err, sizeof err);
	if (!r)
		fail_msg("%s", err);
	assert_null(rec_reader_note(r));
	assert_int_equal(rec_reader_count(r), N_SNAPS);
	for (int k = 0; k < 2 * N_SNAPS; k++) {
		int i = k < N_SNAPS ? k : (k * 37) % N_SNAPS;
		lt_snapshot *s = rec_reader_get(r, (size_t)i, err, sizeof err);
		if (!s)
			fail_msg("%s", err);
		expect_same(snaps[i], s);
		snapshot_unref(s);
	}
	rec_reader_close(r);
}

/* A recording holds the cluster's names: only its owner reads it (whatever the umask). */
static void files_are_private(void **state)
{
	(void)state;
	make_all();
	char path[300];
	path_in(path, sizeof path, "private.rec");
	mode_t old = umask(0);
	write_file(path, 3, 0);
	umask(old);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
}

/* Offsets at the ends of int64: residuals wrap. */
static void extreme_offsets_round_trip(void **state)
{
	(void)state;
	const int64_t ends[] = { 0, 1, 3, INT64_MAX / 2, INT64_MAX - 7, INT64_MAX, 5, 5, INT64_MAX, 0, INT64_MAX - 1 };
	enum { N = 40 };
	lt_snapshot *x[N];
	lt_model_params mp;
	model_params_default(&mp);
	lt_history *h = history_new(&mp);
	for (int i = 0; i < N; i++) {
		lt_snapshot *s = snapshot_new();
		s->seq = (uint64_t)i + 1;
		s->taken_at_ms = 1700000000000 + (int64_t)i * 10000;
		lt_group *g = snapshot_add_group(s, "edge");
		for (int p = 0; p < 3; p++) {
			lt_partition *pp = group_add_partition(g, "t", p);
			pp->log_start = 0;
			pp->log_end = ends[(i + p) % (sizeof ends / sizeof ends[0])];
			pp->committed = p == 2 ? pp->log_end : pp->log_end / (2 + p);
		}
		snapshot_finish(s);
		model_enrich(h, s);
		x[i] = s;
	}
	history_free(h);
	char path[300], err[256];
	path_in(path, sizeof path, "edge.rec");
	unlink(path);
	rec_writer *w = rec_writer_open(path, NULL, err, sizeof err);
	assert_non_null(w);
	for (int i = 0; i < N; i++)
		assert_int_equal(rec_writer_append(w, x[i], err, sizeof err), 0);
	assert_int_equal(rec_writer_close(w, err, sizeof err), 0);
	rec_reader *r = rec_reader_open(path, err, sizeof err);
	assert_non_null(r);
	for (int i = 0; i < N; i++) {
		lt_snapshot *s = rec_reader_get(r, (size_t)i, err, sizeof err);
		if (!s)
			fail_msg("record %d: %s", i, err);
		for (int p = 0; p < 3; p++) {
			assert_int_equal(s->groups[0].partitions[p].log_end, x[i]->groups[0].partitions[p].log_end);
			assert_int_equal(s->groups[0].partitions[p].committed, x[i]->groups[0].partitions[p].committed);
			assert_int_equal(s->groups[0].partitions[p].lag, x[i]->groups[0].partitions[p].lag);
			assert_int_equal(s->groups[0].partitions[p].status, x[i]->groups[0].partitions[p].status);
		}
		snapshot_unref(s);
	}
	rec_reader_close(r);
	for (int i = 0; i < N; i++)
		snapshot_unref(x[i]);
}

/* A file of the first n snapshots (a keyframe every 17) at path: its bytes (*len of them, malloc'd) and
 * the number of records its reader finds. */
static unsigned char *written_bytes(const char *path, int n, size_t *len, size_t *records)
{
	char err[256];
	write_file(path, n, 17);
	unsigned char *b = (unsigned char *)test_read_file(path, len);
	rec_reader *full = rec_reader_open(path, err, sizeof err);
	assert_non_null(full);
	*records = rec_reader_count(full);
	rec_reader_close(full);
	return b;
}

/* Every cut point of a small file: it opens with the records that are whole (or says it holds none), and
 * each of them reads back exactly. */
static void truncated_at_every_byte(void **state)
{
	(void)state;
	make_all();
	char path[300], cut[300], err[256];
	path_in(path, sizeof path, "small.rec");
	path_in(cut, sizeof cut, "cut.rec");
	size_t n, total;
	unsigned char *b = written_bytes(path, 24, &n, &total);
	size_t last_count = 0;
	for (size_t len = 0; len < n; len++) {
		test_write_bytes(cut, b, len);
		rec_reader *r = rec_reader_open(cut, err, sizeof err);
		if (!r) {
			assert_int_equal(last_count, 0); /* only before the first record ends */
			assert_null(strchr(err, '\n'));
			continue;
		}
		size_t c = rec_reader_count(r);
		assert_true(c >= last_count && c <= total);
		assert_non_null(rec_reader_note(r));
		last_count = c;
		/* the last complete record (and so every one before it) reads back exactly */
		expect_record(r, c - 1, c - 1);
		rec_reader_close(r);
	}
	assert_int_equal(last_count, total);
	free(b);
}

/* One flipped byte in each record's stored bytes: that record (and the ones decoded through it) fail with
 * one line naming the record; the records before it still read. */
static void corrupted_bytes_are_reported(void **state)
{
	(void)state;
	make_all();
	char path[300], bad[300], err[256];
	path_in(path, sizeof path, "small2.rec");
	path_in(bad, sizeof bad, "bad.rec");
	size_t n, total;
	unsigned char *b = written_bytes(path, 24, &n, &total);
	/* offsets of the records: scan the frames (header 32 bytes, frame header 24 bytes) */
	long off = 32;
	for (size_t i = 0; i < total; i++) {
		long stored = b[off + 4] | b[off + 5] << 8 | b[off + 6] << 16 | (long)b[off + 7] << 24;
		long pos = off + 24 + stored / 2;
		b[pos] ^= 0x5a;
		test_write_bytes(bad, b, n);
		b[pos] ^= 0x5a;
		rec_reader *r = rec_reader_open(bad, err, sizeof err);
		assert_non_null(r);
		lt_snapshot *s = rec_reader_get(r, i, err, sizeof err);
		assert_null(s);
		assert_non_null(strstr(err, "corrupt"));
		assert_null(strchr(err, '\n'));
		if (i > 0)
			expect_record(r, i - 1, i - 1);
		rec_reader_close(r);
		off += 24 + stored;
	}
	/* a damaged file header, and a file that is not a recording */
	b[3] ^= 1;
	test_write_bytes(bad, b, n);
	assert_null(rec_reader_open(bad, err, sizeof err));
	assert_non_null(strstr(err, "not a lagtop recording"));
	b[3] ^= 1;
	b[12] ^= 1;
	test_write_bytes(bad, b, n);
	assert_null(rec_reader_open(bad, err, sizeof err));
	assert_non_null(strstr(err, "checksum"));
	free(b);
}

static void trailer_missing_is_rebuilt(void **state)
{
	(void)state;
	make_all();
	char path[300], err[256];
	path_in(path, sizeof path, "notrailer.rec");
	size_t n, total;
	unsigned char *b = written_bytes(path, 30, &n, &total);
	/* the trailer: footer (16) + index frame (24 + 4 + 30 * 17) */
	test_write_bytes(path, b, n - 16 - 24 - 4 - 30 * 17);
	rec_reader *r = rec_reader_open(path, err, sizeof err);
	assert_non_null(r);
	assert_int_equal(rec_reader_count(r), 30);
	assert_non_null(strstr(rec_reader_note(r), "rebuilt by scanning"));
	expect_record(r, 29, 29);
	rec_reader_close(r);
	free(b);
}

/* A size limit that holds about 12 records: FILE, FILE.1, FILE.2 (keep 2); every file starts with a
 * keyframe and reads alone; the newest records are in FILE. An existing FILE is rotated, not overwritten. */
static void rotation_keeps_the_newest(void **state)
{
	(void)state;
	make_all();
	char path[300], p1[310], p2[310], p3[310], err[256];
	path_in(path, sizeof path, "rot.rec");
	snprintf(p1, sizeof p1, "%s.1", path);
	snprintf(p2, sizeof p2, "%s.2", path);
	snprintf(p3, sizeof p3, "%s.3", path);
	unlink(path), unlink(p1), unlink(p2), unlink(p3);
	/* size of 12 records */
	write_file(path, 12, 20);
	uint64_t limit = (uint64_t)test_file_size(path);
	unlink(path);
	rec_writer_opts o = { .max_size = limit, .keep = 2, .keyframe_every = 20 };
	rec_writer *w = rec_writer_open(path, &o, err, sizeof err);
	assert_non_null(w);
	for (int i = 0; i < N_SNAPS; i++) {
		assert_int_equal(rec_writer_append(w, snaps[i], err, sizeof err), 0);
		assert_true(rec_writer_size(w) <= limit);
	}
	assert_int_equal(rec_writer_close(w, err, sizeof err), 0);
	assert_true(test_file_size(p1) > 0 && test_file_size(p2) > 0);
	assert_int_equal(test_file_size(p3), -1);
	const char *files[] = { p2, p1, path };
	int64_t last_t = 0;
	size_t in_last = 0;
	for (int f = 0; f < 3; f++) {
		rec_reader *r = rec_reader_open(files[f], err, sizeof err);
		assert_non_null(r);
		assert_true(rec_reader_is_keyframe(r, 0));
		assert_true(rec_reader_time(r, 0) > last_t); /* older files hold older records */
		for (size_t i = 0; i < rec_reader_count(r); i++) {
			lt_snapshot *s = rec_reader_get(r, i, err, sizeof err);
			assert_non_null(s);
			int idx = (int)((s->taken_at_ms - 1700000000000) / 10000);
			expect_same(snaps[idx], s);
			last_t = s->taken_at_ms;
			snapshot_unref(s);
		}
		in_last = rec_reader_count(r);
		rec_reader_close(r);
	}
	assert_int_equal(last_t, snaps[N_SNAPS - 1]->taken_at_ms);
	assert_true(in_last > 0);
	/* opening again rotates the existing file away */
	long before = test_file_size(path);
	w = rec_writer_open(path, &o, err, sizeof err);
	assert_non_null(w);
	assert_int_equal(rec_writer_close(w, err, sizeof err), 0);
	assert_int_equal(test_file_size(p1), before);
}

/* A cluster switch (the dashboard's c) while recording: the new cluster's records start the next file (a
 * rotation, with its keyframe), so each file holds one cluster's records. */
static void another_cluster_starts_the_next_file(void **state)
{
	(void)state;
	make_all();
	char path[300], p1[310], p2[310], err[256];
	path_in(path, sizeof path, "switch.rec");
	snprintf(p1, sizeof p1, "%s.1", path);
	snprintf(p2, sizeof p2, "%s.2", path);
	unlink(path), unlink(p1), unlink(p2);
	rec_writer_opts o = { .keep = 3, .keyframe_every = 20 };
	rec_writer *w = rec_writer_open(path, &o, err, sizeof err);
	assert_non_null(w);
	char staging[] = "staging";
	for (int i = 0; i < 15; i++) {
		char *prod = snaps[i]->cluster;
		if (i >= 10)
			snaps[i]->cluster = staging;
		assert_int_equal(rec_writer_append(w, snaps[i], err, sizeof err), 0);
		snaps[i]->cluster = prod;
	}
	assert_int_equal(rec_writer_rotations(w), 1);
	assert_int_equal(rec_writer_records(w), 5);
	assert_int_equal(rec_writer_close(w, err, sizeof err), 0);
	assert_int_equal(test_file_size(p2), -1);
	const char *files[] = { p1, path };
	const char *cluster[] = { "prod", "staging" };
	size_t count[] = { 10, 5 };
	for (int f = 0; f < 2; f++) {
		rec_reader *r = rec_reader_open(files[f], err, sizeof err);
		assert_non_null(r);
		assert_int_equal(rec_reader_count(r), count[f]);
		assert_true(rec_reader_is_keyframe(r, 0));
		for (size_t i = 0; i < count[f]; i++) {
			lt_snapshot *got = rec_reader_get(r, i, err, sizeof err);
			assert_non_null(got);
			assert_string_equal(got->cluster, cluster[f]);
			assert_int_equal(got->taken_at_ms, snaps[(size_t)f * 10 + i]->taken_at_ms);
			if (f == 0)
				expect_same(snaps[i], got);
			snapshot_unref(got);
		}
		rec_reader_close(r);
	}
}

static void sizes_parse(void **state)
{
	(void)state;
	uint64_t v;
	assert_true(rec_parse_size("100M", &v));
	assert_int_equal(v, 100ull << 20);
	assert_true(rec_parse_size("2G", &v));
	assert_int_equal(v, 2ull << 30);
	assert_true(rec_parse_size("512kB", &v));
	assert_int_equal(v, 512ull << 10);
	assert_true(rec_parse_size("4096", &v));
	assert_int_equal(v, 4096);
	assert_false(rec_parse_size("0", &v));
	assert_false(rec_parse_size("-5M", &v));
	assert_false(rec_parse_size("10X", &v));
	assert_false(rec_parse_size("", &v));
}

/* A zstd bomb: one keyframe whose 2 KB of zstd unpack to 64 MB while its frame header says 100 bytes. The
 * reader compares the zstd frame's own content size with the stated length before allocating anything, and
 * refuses it in one line. */
static void decompression_is_bounded(void **state)
{
	(void)state;
	size_t big = 64u << 20;
	unsigned char *zeros = calloc(1, big);
	size_t cap = ZSTD_compressBound(big);
	unsigned char *z = malloc(cap);
	assert_non_null(zeros);
	assert_non_null(z);
	size_t zn = ZSTD_compress(z, cap, zeros, big, 3);
	assert_false(ZSTD_isError(zn));
	free(zeros);
	unsigned char h[32] = "LAGTOPRC", f[24] = { 'K' };
	test_put_le(h + 8, 3, 2);
	test_put_le(h + 10, 32, 2);
	test_put_le(h + 12, 20, 4);
	test_put_le(h + 28, crc32c(h, 28), 4);
	test_put_le(f + 4, zn, 4);
	test_put_le(f + 8, 1700000000000, 8);
	test_put_le(f + 16, 100, 4);
	test_put_le(f + 20, crc32c_update(crc32c_update(0, f, 20), z, zn), 4);
	char path[300], err[256];
	path_in(path, sizeof path, "bomb.rec");
	unsigned char *file = malloc(56 + zn);
	assert_non_null(file);
	memcpy(file, h, 32);
	memcpy(file + 32, f, 24);
	memcpy(file + 56, z, zn);
	test_write_bytes(path, file, 56 + zn);
	free(file);
	free(z);
	rec_reader *r = rec_reader_open(path, err, sizeof err);
	assert_non_null(r);
	assert_null(rec_reader_get(r, 0, err, sizeof err));
	if (!strstr(err, "record 1 at byte 32 does not decompress (its zstd frame does not state the record's length)"))
		fail_msg("%s", err);
	rec_reader_close(r);
}

static int setup(void **state)
{
	(void)state;
	return test_dir_make(dir, sizeof dir, "test-record");
}

static int teardown(void **state)
{
	(void)state;
	for (int i = 0; i < N_SNAPS; i++)
		snapshot_unref(snaps[i]);
	return test_dir_remove(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(round_trip_in_order_and_seeking),
	cmocka_unit_test(truncated_at_every_byte),
	cmocka_unit_test(corrupted_bytes_are_reported),
	cmocka_unit_test(trailer_missing_is_rebuilt),
	cmocka_unit_test(rotation_keeps_the_newest),
	cmocka_unit_test(another_cluster_starts_the_next_file),
	cmocka_unit_test(sizes_parse),
	cmocka_unit_test(every_record_from_a_fresh_reader),
	cmocka_unit_test(refuses_earlier_versions),
	cmocka_unit_test(replays_a_file_written_before),
	cmocka_unit_test(files_are_private),
	cmocka_unit_test(decompression_is_bounded),
	cmocka_unit_test(extreme_offsets_round_trip),
};

LT_TEST_MAIN(setup, teardown)
