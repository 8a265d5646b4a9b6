/* record_store.c — produced batches per partition, and synthetic batches made on demand. */
#include "sim/record_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

struct stored_batch {
	int64_t base, last; /* offsets covered */
	uint8_t *data;
	size_t len;
};

struct sim_record_store {
	struct stored_batch *b; /* ascending offsets, non-overlapping */
	size_t n, cap;
	size_t bytes;
};

static void store_free(struct sim_record_store *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->b[i].data);
	free(s->b);
	free(s);
}

/* Forgets batches wholly below the log start (retention moved it). */
static void store_trim(struct sim_record_store *s, int64_t log_start)
{
	size_t k = 0;
	while (k < s->n && s->b[k].last < log_start) {
		s->bytes -= s->b[k].len;
		free(s->b[k].data);
		k++;
	}
	if (k) {
		memmove(s->b, s->b + k, (s->n - k) * sizeof s->b[0]);
		s->n -= k;
	}
}

int64_t sim_store_append(struct sim_state *st, struct sim_partition *p, const struct rec_batch *b)
{
	if (!p->store) {
		p->store = xcalloc(1, sizeof *p->store);
		st->store_free = store_free;
	}
	struct sim_record_store *s = p->store;
	store_trim(s, p->log_start);

	int64_t base = p->log_end;
	struct rec_iter it;
	struct rec_record r;
	records_iter_init(&it, b);
	while (records_iter_next(&it, &r) == 1) /* one run per record; cluster.c merges arithmetic runs */
		sim_partition_append(p, 1, r.timestamp, 0);

	uint8_t *copy = xmalloc(b->raw_len);
	memcpy(copy, b->raw, b->raw_len);
	records_batch_set_base_offset(copy, base);
	/* partitionLeaderEpoch: what the leader stamps on append (not covered by the CRC) */
	memset(copy + 12, 0, 4);
	s->b = xgrow(s->b, &s->cap, s->n + 1, sizeof s->b[0]);
	s->b[s->n++] = (struct stored_batch){base, base + b->n_records - 1, copy, b->raw_len};
	s->bytes += b->raw_len;
	return base;
}

size_t sim_store_bytes(const struct sim_partition *p)
{
	return p->store ? p->store->bytes : 0;
}

/* Index of the first stored batch whose last offset >= off (n when none). */
static size_t store_seek(const struct sim_record_store *s, int64_t off)
{
	size_t lo = 0, hi = s ? s->n : 0;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (s->b[mid].last < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Synthetic records [from, to) as one batch: null key, a short value naming the offset. */
static void synth_batch(const struct sim_partition *p, int64_t from, int64_t to, struct rec_buf *out)
{
	size_t n = (size_t)(to - from);
	struct rec_out *recs = xcalloc(n, sizeof *recs);
	char(*vals)[24] = xmalloc(n * sizeof *vals);
	for (size_t i = 0; i < n; i++) {
		int64_t off = from + (int64_t)i;
		int64_t ts = sim_partition_timestamp_at(p, off);
		int len = snprintf(vals[i], sizeof vals[i], "sim-%lld", (long long)off);
		recs[i] =
		    (struct rec_out){.timestamp = ts, .key = NULL, .key_len = -1, .value = vals[i], .value_len = len};
	}
	records_batch_encode(out, from, recs, n);
	free(vals);
	free(recs);
}

size_t sim_store_read(struct sim_partition *p, int64_t from, int32_t max_bytes, struct rec_buf *out)
{
	struct sim_record_store *s = p->store;
	size_t start = out->len;
	int64_t cur = from < p->log_start ? p->log_start : from;

	if (s)
		store_trim(s, p->log_start);
	while (cur < p->log_end && (out->len == start || out->len - start < (size_t)(max_bytes > 0 ? max_bytes : 0))) {
		size_t i = store_seek(s, cur);
		if (s && i < s->n && s->b[i].base <= cur) {
			const struct stored_batch *sb = &s->b[i];
			if (out->len > start && out->len - start + sb->len > (size_t)max_bytes)
				break; /* only the first batch may exceed the limit */
			out->data = xgrow(out->data, &out->cap, out->len + sb->len, 1);
			memcpy(out->data + out->len, sb->data, sb->len);
			out->len += sb->len;
			cur = sb->last + 1;
			continue;
		}
		/* a synthetic range: up to the next stored batch or the log end */
		int64_t end = s && i < s->n ? s->b[i].base : p->log_end;
		if (end > p->log_end)
			end = p->log_end;
		if (end - cur > SIM_STORE_SYNTH_BATCH)
			end = cur + SIM_STORE_SYNTH_BATCH;
		size_t before = out->len;
		synth_batch(p, cur, end, out);
		if (before > start && out->len - start > (size_t)max_bytes) {
			out->len = before; /* over the limit: not this one */
			break;
		}
		cur = end;
	}
	return out->len - start;
}
