/* fuzz_record.c — the recording reader (src/record): arbitrary bytes as a record's decoded payload (the
 * codec: a keyframe, then the same bytes as a delta against it, and as deltas against a real keyframe), and
 * as a whole file (framing, zstd streams, index, checksums). Seeds: tests/fuzz/corpus/record (a keyframe, a
 * delta and a three-record file of small snapshots). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/snapshot.h"
#include "record/codec.h"
#include "record/record.h"

/* A keyframe of a small cluster (2 groups x 2 topics x 2 partitions), as the writer encodes it: what the
 * fuzzed bytes are decoded against as a delta (a delta's groups continue the previous record's). */
static unsigned char *base_key;
static size_t base_len;

static void make_base_key(void)
{
	lt_snapshot *s = snapshot_new();
	s->seq = 1;
	s->taken_at_ms = 1700000000000;
	s->cluster = strdup("fuzz");
	for (int g = 0; g < 2; g++) {
		char name[16];
		snprintf(name, sizeof name, "group-%d", g);
		lt_group *gr = snapshot_add_group(s, name);
		for (int t = 0; t < 2; t++)
			for (int p = 0; p < 2; p++) {
				lt_partition *pp = group_add_partition(gr, t ? "beta" : "alpha", p);
				pp->log_start = 0;
				pp->log_end = 1000 * (g + 1) + 100 * p + t;
				pp->committed = pp->log_end - 10 * p;
				pp->lag = pp->log_end - pp->committed;
				pp->has_lag = true;
			}
	}
	snapshot_finish(s);
	rec_codec *e = rec_codec_new();
	size_t cap = 0;
	rec_encode(e, s, true, &base_key, &base_len, &cap);
	rec_codec_free(e);
	snapshot_unref(s);
}

/* The bytes decoded n times in a row against the codec's state (each against the one before), until one
 * is refused. */
static void decode_repeatedly(rec_codec *c, const uint8_t *data, size_t size, int n)
{
	char err[256];
	for (int k = 0; k < n; k++) {
		lt_snapshot *d = rec_decode(c, data, size, false, err, sizeof err);
		if (!d)
			return;
		snapshot_unref(d);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!base_key)
		make_base_key();
	char err[256];
	/* as a keyframe, then the same bytes as a delta against it */
	rec_codec *c = rec_codec_new();
	lt_snapshot *s = rec_decode(c, data, size, true, err, sizeof err);
	if (s) {
		snapshot_unref(s);
		decode_repeatedly(c, data, size, 1);
	}
	rec_codec_free(c);
	/* as deltas against a real keyframe, twice (the second against the first) */
	c = rec_codec_new();
	lt_snapshot *k = rec_decode(c, base_key, base_len, true, err, sizeof err);
	if (!k)
		abort(); /* the writer's own keyframe must decode */
	snapshot_unref(k);
	decode_repeatedly(c, data, size, 2);
	rec_codec_free(c);

	char path[] = "/tmp/lagtop-fuzz-record-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		rec_reader *r = rec_reader_open(path, err, sizeof err);
		if (r) {
			for (size_t i = 0; i < rec_reader_count(r) && i < 8; i++) {
				lt_snapshot *x = rec_reader_get(r, i, err, sizeof err);
				if (x)
					snapshot_unref(x);
			}
			rec_reader_close(r);
		}
	}
	close(fd);
	unlink(path);
	return 0;
}
