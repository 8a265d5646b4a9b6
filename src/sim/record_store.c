/* record_store.c — produced batches per partition, and synthetic batches made on demand. */
#include "sim/record_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/offsets_log.h"
#include "util/xalloc.h"

struct stored_batch {
	int64_t base, last; /* offsets covered */
	int64_t max_ts;     /* the batch's maxTimestamp: retention by time deletes it when that is old */
	uint8_t *data;
	size_t len;
};

struct sim_record_store {
	struct stored_batch *b; /* ascending offsets, non-overlapping */
	size_t n, cap;
	size_t bytes;
	int64_t records;     /* offsets covered by stored batches */
	bool compacted;      /* a compacted topic: every offset is in a stored batch or was cleaned away, so
				gaps are skipped on read, never filled with synthetic records */
	int64_t active_base; /* compacted topics: first offset of the active segment, which is never cleaned */
	size_t active_bytes;
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
		s->records -= s->b[k].last - s->b[k].base + 1;
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
	s->b[s->n++] = (struct stored_batch){ base, base + b->n_records - 1, b->max_timestamp, copy, b->raw_len };
	s->bytes += b->raw_len;
	s->records += b->n_records;
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
		recs[i] = (struct rec_out){
			.timestamp = ts, .key = NULL, .key_len = -1, .value = vals[i], .value_len = len
		};
	}
	records_batch_encode(out, from, recs, n);
	free(vals);
	free(recs);
}

size_t sim_store_read(struct sim_partition *p, int64_t from, int32_t max_bytes, bool min_one, struct rec_buf *out)
{
	struct sim_record_store *s = p->store;
	size_t start = out->len, limit = max_bytes > 0 ? (size_t)max_bytes : 0;
	int64_t cur = from < p->log_start ? p->log_start : from;

	if (s)
		store_trim(s, p->log_start);
	while (cur < p->log_end) {
		bool whole = min_one && out->len == start; /* the first batch, granted whole */
		if (!whole && out->len - start >= limit)
			break;
		size_t i = store_seek(s, cur);
		if (s && i < s->n && s->b[i].base <= cur) {
			const struct stored_batch *sb = &s->b[i];
			size_t take = sb->len;
			if (!whole && out->len - start + take > limit)
				take = limit - (out->len - start); /* cut where the limit falls */
			out->data = xgrow(out->data, &out->cap, out->len + take, 1);
			memcpy(out->data + out->len, sb->data, take);
			out->len += take;
			if (take < sb->len)
				break;
			cur = sb->last + 1;
			continue;
		}
		if (s && s->compacted) { /* a gap the cleaner left: the next batch, as Kafka's reads skip it */
			if (i >= s->n)
				break;
			cur = s->b[i].base;
			continue;
		}
		/* a synthetic range: up to the next stored batch or the log end */
		int64_t end = s && i < s->n ? s->b[i].base : p->log_end;
		if (end > p->log_end)
			end = p->log_end;
		if (end - cur > SIM_STORE_SYNTH_BATCH)
			end = cur + SIM_STORE_SYNTH_BATCH;
		synth_batch(p, cur, end, out);
		if (!whole && out->len - start > limit) {
			out->len = start + limit; /* cut where the limit falls */
			break;
		}
		cur = end;
	}
	return out->len - start;
}

/* ---- retention (delete policy) ---- */

int64_t sim_partition_bytes(const struct sim_partition *p)
{
	const struct sim_record_store *s = p->store;
	int64_t stored_recs = s ? s->records : 0;
	int64_t synth = p->log_end - p->log_start - stored_recs;
	return (int64_t)sim_store_bytes(p) + (synth > 0 ? synth : 0) * SIM_SYNTH_RECORD_BYTES;
}

/* The oldest deletable unit of p's log: a stored batch, or a run of synthetic records (the records of one
 * append) up to the next stored batch. Fills its end offset, its newest timestamp and its size. */
static bool oldest_unit(struct sim_partition *p, int64_t *end, int64_t *max_ts, int64_t *bytes)
{
	struct sim_record_store *s = p->store;
	if (p->log_start >= p->log_end)
		return false;
	if (s)
		store_trim(s, p->log_start);
	if (s && s->n && s->b[0].base <= p->log_start) {
		*end = s->b[0].last + 1;
		*max_ts = s->b[0].max_ts;
		*bytes = (int64_t)s->b[0].len;
		return true;
	}
	if (!p->nsegs)
		return false;
	const struct sim_segment *seg = &p->segs[0];
	*end = seg->first_offset + seg->count;
	if (s && s->n && s->b[0].base < *end)
		*end = s->b[0].base;
	if (*end > p->log_end)
		*end = p->log_end;
	*max_ts = seg->first_ts + (*end - 1 - seg->first_offset) * seg->ts_step;
	*bytes = (*end - p->log_start) * SIM_SYNTH_RECORD_BYTES;
	return true;
}

int64_t sim_partition_retention(struct sim_partition *p, int64_t now_ms, int64_t retention_ms, int64_t retention_bytes)
{
	int64_t before = p->log_start, end, max_ts, bytes;
	/* Kafka's deleteRetentionMsBreachedSegments: a segment whose largest timestamp is older than the limit */
	while (retention_ms >= 0 && oldest_unit(p, &end, &max_ts, &bytes) && now_ms - max_ts > retention_ms)
		sim_partition_set_log_start(p, end);
	/* deleteRetentionSizeBreachedSegments: the oldest segments while the log stays at or above the limit */
	if (retention_bytes >= 0) {
		int64_t size = sim_partition_bytes(p);
		while (oldest_unit(p, &end, &max_ts, &bytes) && size - bytes >= retention_bytes) {
			sim_partition_set_log_start(p, end);
			size = sim_partition_bytes(p);
		}
	}
	if (p->store)
		store_trim(p->store, p->log_start);
	return p->log_start - before;
}

/* ---- compaction (__consumer_offsets) ---- */

void sim_store_append_compacted(struct sim_state *st, struct sim_partition *p, const struct rec_batch *b,
				int64_t segment_bytes)
{
	(void)sim_store_append(st, p, b);
	struct sim_record_store *s = p->store;
	s->compacted = true;
	s->active_bytes += b->raw_len;
	if ((int64_t)s->active_bytes >= segment_bytes) { /* roll: what was written so far may be cleaned */
		s->active_base = p->log_end;
		s->active_bytes = 0;
	}
}

struct keyed {
	size_t index; /* into the store's batches */
	int64_t offset;
	const uint8_t *key;
	int32_t key_len;
	bool tombstone;
	int64_t ts;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int32_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
	int c = n > 0 ? memcmp(x->key, y->key, (size_t)n) : 0;
	if (c)
		return c;
	if (x->key_len != y->key_len)
		return x->key_len < y->key_len ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* The partition's timestamp runs, made again from the batches left (one run per record, merged when they
 * continue each other). */
static void rebuild_runs(struct sim_partition *p)
{
	struct sim_record_store *s = p->store;
	p->nsegs = 0;
	for (size_t i = 0; i < s->n; i++) {
		struct rec_batch b;
		if (records_batch_peek(s->b[i].data, s->b[i].len, &b) != 0)
			continue;
		struct rec_iter it;
		struct rec_record r;
		records_iter_init(&it, &b);
		while (records_iter_next(&it, &r) == 1) {
			int64_t off = s->b[i].base + r.offset_delta;
			struct sim_segment *last = p->nsegs ? &p->segs[p->nsegs - 1] : NULL;
			if (last && last->first_offset + last->count == off &&
			    (last->count == 1 ? r.timestamp >= last->first_ts
					      : r.timestamp == last->first_ts + last->ts_step * last->count)) {
				if (last->count == 1)
					last->ts_step = r.timestamp - last->first_ts;
				last->count++;
				continue;
			}
			p->segs = xgrow(p->segs, &p->segs_cap, p->nsegs + 1, sizeof *p->segs);
			p->segs[p->nsegs++] = (struct sim_segment){ off, 1, r.timestamp, 0 };
		}
	}
}

size_t sim_store_compact(struct sim_partition *p, int64_t now_ms, int64_t delete_retention_ms)
{
	struct sim_record_store *s = p->store;
	if (!s || !s->compacted)
		return 0;
	store_trim(s, p->log_start);
	/* Only one-record batches below the active segment are cleaned (the journal writes nothing else). */
	struct keyed *k = xcalloc(s->n ? s->n : 1, sizeof *k);
	size_t nk = 0;
	for (size_t i = 0; i < s->n && s->b[i].last < s->active_base; i++) {
		struct rec_batch b;
		struct rec_iter it;
		struct rec_record r;
		if (s->b[i].base != s->b[i].last || records_batch_peek(s->b[i].data, s->b[i].len, &b) != 0)
			continue;
		records_iter_init(&it, &b);
		if (records_iter_next(&it, &r) != 1 || !r.key)
			continue;
		k[nk++] = (struct keyed){ i, s->b[i].base, r.key, r.key_len, r.value == NULL, r.timestamp };
	}
	qsort(k, nk, sizeof *k, cmp_keyed);
	bool *drop = xcalloc(s->n ? s->n : 1, sizeof *drop);
	size_t ndrop = 0;
	for (size_t i = 0; i < nk; i++) {
		bool superseded = i + 1 < nk && k[i].key_len == k[i + 1].key_len &&
				  memcmp(k[i].key, k[i + 1].key, (size_t)k[i].key_len) == 0; /* a later one */
		/* the latest value of a key stays; a tombstone only until delete.retention.ms after it */
		if (superseded || (k[i].tombstone && now_ms - k[i].ts > delete_retention_ms)) {
			drop[k[i].index] = true;
			ndrop++;
		}
	}
	size_t freed = 0;
	if (ndrop) {
		size_t w = 0;
		for (size_t i = 0; i < s->n; i++) {
			if (drop[i]) {
				freed += s->b[i].len;
				s->bytes -= s->b[i].len;
				s->records -= s->b[i].last - s->b[i].base + 1;
				free(s->b[i].data);
				continue;
			}
			s->b[w++] = s->b[i];
		}
		s->n = w;
		rebuild_runs(p);
	}
	free(drop);
	free(k);
	return freed;
}

void sim_logs_retention(struct sim_state *st, int64_t now_ms)
{
	int64_t def_ms = st->log_retention_ms ? st->log_retention_ms : SIM_LOG_RETENTION_MS;
	int64_t def_bytes = st->log_retention_bytes > 0 ? st->log_retention_bytes : -1;
	int64_t del_ms =
		st->offsets_delete_retention_ms > 0 ? st->offsets_delete_retention_ms : SIM_OFFSETS_DELETE_RETENTION_MS;
	size_t it = 0;
	struct sim_topic *t;
	while ((t = strmap_next(&st->topics, &it))) {
		bool offsets = strcmp(t->name, SIM_OFFSETS_TOPIC) == 0; /* cleanup.policy=compact */
		int64_t ms = t->retention_ms ? t->retention_ms : def_ms;
		int64_t bytes = t->retention_bytes ? t->retention_bytes : def_bytes;
		for (int32_t i = 0; i < t->npartitions; i++) {
			if (offsets)
				(void)sim_store_compact(&t->parts[i], now_ms, del_ms);
			else
				(void)sim_partition_retention(&t->parts[i], now_ms, ms, bytes);
		}
	}
}
