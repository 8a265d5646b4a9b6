/* record_peek.c — see record_peek.h. */
#include "kafka/record_peek.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <librdkafka/rdkafka.h>

#include "kafka/client.h"
#include "model/record_ts.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

struct lt_peeker {
	rd_kafka_t *rk;
};

static void quiet_log(const rd_kafka_t *rk, int level, const char *fac, const char *msg)
{
	(void)rk, (void)level, (void)fac, (void)msg;
}

static void quiet_error(rd_kafka_t *rk, int err, const char *reason, void *opaque)
{
	(void)rk, (void)err, (void)reason, (void)opaque;
}

lt_peeker *peeker_new(const struct lt_connection *cc, char *err, size_t errlen)
{
	/* What the peek relies on: read-only, exact offsets, small fetches (record_peek.h). A read wants one
	 * record and gets the batches after it too, every record a message to hand over: 16 KiB a partition
	 * (the Java producer's batch.size) is about one batch. Each partition stops once its record came
	 * (read_round); until then nothing may hold it back: the partitions of a read share one queue, and
	 * librdkafka 2.0.2 counts queued.min.messages on it, so one partition's batch in the queue stopped
	 * the others' fetches for a second (a read of six 900 KB batches timed out for four of them).
	 * The reader never waits for new records: a partition fetched again after its record came (before its
	 * stop took effect) reaches the log end when the record is near it, the broker holds such a fetch
	 * fetch.wait.max.ms, and the next round's fetch waits behind it (one Fetch in flight per broker). At
	 * 100 ms a second round cost ~125 ms on Kafka 4.4; at 10 ms, ~30. */
	static const char *const props[][2] = {
		{ "enable.auto.commit", "false" },      { "enable.auto.offset.store", "false" },
		{ "enable.partition.eof", "true" },     { "auto.offset.reset", "error" },
		{ "fetch.message.max.bytes", "16384" }, { "fetch.max.bytes", "1048576" },
		{ "queued.min.messages", "1000000" },   { "queued.max.messages.kbytes", "65536" },
		{ "fetch.wait.max.ms", "10" },
	};
	rd_kafka_conf_t *conf = client_conf_build(cc, err, errlen);
	if (!conf)
		return NULL;
	char why[512];
	for (size_t i = 0; i < sizeof props / sizeof props[0]; i++) {
		if (rd_kafka_conf_set(conf, props[i][0], props[i][1], why, sizeof why) != RD_KAFKA_CONF_OK) {
			snprintf(err, errlen, "record reader: %s=%s: %s", props[i][0], props[i][1], why);
			rd_kafka_conf_destroy(conf);
			return NULL;
		}
	}
	/* Should the queue still reach those limits, librdkafka 2.4+ postpones the next fetch by
	 * fetch.queue.backoff.ms (1 s; measured on the sim's M when the limit was 1 message: the records of two
	 * brokers of three came 1 s late). Older librdkafka has no such property: its refusal is ignored. */
	rd_kafka_conf_set(conf, "fetch.queue.backoff.ms", "10", why, sizeof why);
	/* never a group: a group.id from the user's properties would give the handle a coordinator for nothing */
	rd_kafka_conf_set(conf, "group.id", "", why, sizeof why);
	rd_kafka_conf_set_log_cb(conf, quiet_log);
	rd_kafka_conf_set_error_cb(conf, quiet_error);
	rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, why, sizeof why);
	if (!rk) {
		rd_kafka_conf_destroy(conf);
		snprintf(err, errlen, "record reader: %s", why);
		return NULL;
	}
	lt_peeker *pk = xcalloc(1, sizeof *pk);
	pk->rk = rk;
	return pk;
}

void peeker_free(lt_peeker *pk)
{
	if (!pk)
		return;
	rd_kafka_destroy(pk->rk);
	free(pk);
}

/* ---- one round: each partition at most once ---- */

struct started {
	rd_kafka_topic_t *rkt;
	size_t req; /* index into the requests */
	bool done;
};

static void fill_record(lt_peeked *r, const rd_kafka_message_t *m)
{
	r->status = LT_PEEK_OK;
	r->offset = m->offset;
	rd_kafka_timestamp_type_t tt;
	r->timestamp_ms = rd_kafka_message_timestamp(m, &tt);
	r->ts_type = tt == RD_KAFKA_TIMESTAMP_CREATE_TIME       ? LT_PEEK_TS_CREATE
		     : tt == RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME ? LT_PEEK_TS_LOG_APPEND
								: LT_PEEK_TS_NONE;
	if (r->ts_type == LT_PEEK_TS_NONE)
		r->timestamp_ms = -1;
	peek_bytes_set(&r->key, m->key, m->key_len, LT_PEEK_KEY_MAX);
	peek_bytes_set(&r->value, m->payload, m->len, LT_PEEK_VALUE_MAX);
	rd_kafka_headers_t *hdrs = NULL;
	if (rd_kafka_message_headers(m, &hdrs) != RD_KAFKA_RESP_ERR_NO_ERROR || !hdrs)
		return;
	const char *name;
	const void *val;
	size_t size;
	for (size_t i = 0; rd_kafka_header_get_all(hdrs, i, &name, &val, &size) == RD_KAFKA_RESP_ERR_NO_ERROR; i++)
		peek_add_header(r, name, val, size);
}

/* The log start now, for a record deleted by retention (-1 when the cluster does not say in time). Asked
 * for at most LOG_START_WAIT_MS, and never past the read's deadline: the caller's timeout bounds it all. */
#define LOG_START_WAIT_MS 2000
static int64_t log_start_now(rd_kafka_t *rk, const char *topic, int32_t partition, int64_t deadline)
{
	int64_t left = deadline - now_mono_ms();
	if (left <= 0)
		return -1;
	int64_t lo = -1, hi = -1;
	int wait_ms = left < LOG_START_WAIT_MS ? (int)left : LOG_START_WAIT_MS;
	if (rd_kafka_query_watermark_offsets(rk, topic, partition, &lo, &hi, wait_ms) != RD_KAFKA_RESP_ERR_NO_ERROR)
		return -1;
	return lo;
}

/* A message (or an error event) for the started partition s. */
static void take_message(lt_peeker *pk, const lt_peek_req *q, lt_peeked *r, const rd_kafka_message_t *m,
			 int64_t deadline)
{
	switch (m->err) {
	case RD_KAFKA_RESP_ERR_NO_ERROR: fill_record(r, m); return;
	case RD_KAFKA_RESP_ERR__PARTITION_EOF: r->status = LT_PEEK_AT_END; return;
	case RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET:
	case RD_KAFKA_RESP_ERR_OFFSET_OUT_OF_RANGE: {
		/* out of range: below the log start (deleted), or past the end (the log was truncated) */
		int64_t start = log_start_now(pk->rk, q->topic, q->partition, deadline);
		r->log_start = start;
		r->status = start >= 0 && q->offset >= start ? LT_PEEK_AT_END : LT_PEEK_DELETED;
		return;
	}
	case RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED: r->status = LT_PEEK_DENIED; return;
	default:
		r->status = LT_PEEK_ERROR;
		snprintf(r->error, sizeof r->error, "%s", rd_kafka_message_errstr(m));
		return;
	}
}

static struct started *find_started(struct started *st, size_t n, const lt_peek_req *req, const rd_kafka_message_t *m)
{
	const char *topic = rd_kafka_topic_name(m->rkt);
	for (size_t i = 0; i < n; i++)
		if (!st[i].done && req[st[i].req].partition == m->partition && strcmp(req[st[i].req].topic, topic) == 0)
			return &st[i];
	return NULL;
}

static bool partition_taken(const struct started *st, size_t n, const lt_peek_req *req, const lt_peek_req *q)
{
	for (size_t i = 0; i < n; i++)
		if (req[st[i].req].partition == q->partition && strcmp(req[st[i].req].topic, q->topic) == 0)
			return true;
	return false;
}

/* Starts every pending request whose partition is free this round; reads until each answered or the deadline. */
static void read_round(lt_peeker *pk, const lt_peek_req *req, size_t n, lt_peeked *out, bool *pending, int64_t deadline)
{
	struct started *st = xcalloc(n, sizeof *st);
	size_t ns = 0, open = 0;
	rd_kafka_queue_t *q = rd_kafka_queue_new(pk->rk);
	for (size_t i = 0; i < n; i++) {
		if (!pending[i] || partition_taken(st, ns, req, &req[i]))
			continue;
		pending[i] = false;
		rd_kafka_topic_t *rkt = rd_kafka_topic_new(pk->rk, req[i].topic, NULL);
		if (!rkt || rd_kafka_consume_start_queue(rkt, req[i].partition, req[i].offset, q) < 0) {
			out[i].status = LT_PEEK_ERROR;
			snprintf(out[i].error, sizeof out[i].error, "%s", rd_kafka_err2str(rd_kafka_last_error()));
			if (rkt)
				rd_kafka_topic_destroy(rkt);
			continue;
		}
		st[ns++] = (struct started){ .rkt = rkt, .req = i };
		open++;
	}
	while (open > 0) {
		int64_t left = deadline - now_mono_ms();
		if (left <= 0)
			break;
		rd_kafka_message_t *m = rd_kafka_consume_queue(q, (int)(left < 100 ? left : 100));
		if (!m)
			continue;
		struct started *s = m->rkt ? find_started(st, ns, req, m) : NULL;
		if (s && (m->err || m->offset >= req[s->req].offset)) {
			take_message(pk, &req[s->req], &out[s->req], m, deadline);
			s->done = true;
			open--;
			/* stopped at once: left fetching, it would refill the queue and take the answers' room
			 * (fetch.max.bytes) from the partitions still waiting */
			rd_kafka_consume_stop(s->rkt, req[s->req].partition);
		}
		rd_kafka_message_destroy(m);
	}
	for (size_t i = 0; i < ns; i++) {
		if (st[i].done)
			continue;
		out[st[i].req].status = LT_PEEK_TIMEOUT;
		rd_kafka_consume_stop(st[i].rkt, req[st[i].req].partition);
	}
	rd_kafka_queue_destroy(q);
	for (size_t i = 0; i < ns; i++)
		rd_kafka_topic_destroy(st[i].rkt);
	free(st);
}

/* What the caller's offsets already say, without a fetch; false when the record must be read. */
static bool known_without_fetch(const lt_peek_req *q, lt_peeked *r)
{
	r->asked = q->offset;
	r->log_start = -1;
	if (q->offset < 0) {
		r->status = LT_PEEK_NO_OFFSET;
		return true;
	}
	if (q->log_start >= 0 && q->offset < q->log_start) {
		r->status = LT_PEEK_DELETED;
		r->log_start = q->log_start;
		return true;
	}
	if (q->log_end >= 0 && q->offset >= q->log_end) {
		r->status = LT_PEEK_AT_END;
		return true;
	}
	return false;
}

void peeker_read(lt_peeker *pk, const lt_peek_req *req, size_t n, lt_peeked *out, int timeout_ms)
{
	int64_t deadline = now_mono_ms() + (timeout_ms > 0 ? timeout_ms : 10000);
	bool *pending = xcalloc(n ? n : 1, sizeof *pending);
	size_t left = 0;
	for (size_t i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof out[i]);
		pending[i] = !known_without_fetch(&req[i], &out[i]);
		left += pending[i];
	}
	/* One Metadata request for every topic first: started one by one, each new topic waited for its own
	 * lookup (measured on the sim's M: 32 partitions of 32 topics did not all answer within 2 s) */
	if (left > 0) {
		const struct rd_kafka_metadata *md = NULL;
		int64_t wait = deadline - now_mono_ms();
		if (wait > 0 && rd_kafka_metadata(pk->rk, 1, NULL, &md, (int)wait) == RD_KAFKA_RESP_ERR_NO_ERROR)
			rd_kafka_metadata_destroy(md);
	}
	while (left > 0 && now_mono_ms() < deadline) {
		read_round(pk, req, n, out, pending, deadline);
		left = 0;
		for (size_t i = 0; i < n; i++)
			left += pending[i];
	}
	for (size_t i = 0; i < n; i++)
		if (pending[i])
			out[i].status = LT_PEEK_TIMEOUT;
	free(pending);
}

/* The records a refresh reads: distinct partitions first, all read in one round; then a partition's other
 * offsets (groups sharing a topic commit at different offsets), each costing another round (a start, a fetch
 * and a stop) within the same budget. A dashboard on a large cluster fills its reads with distinct
 * partitions; `--once` on a small one, which has no next refresh, reads every group's. Topics are copied: the
 * keys live in the history, which may change unlocked. */
static bool partition_picked(const lt_peek_req *req, size_t n, const lt_record_ts_key *k)
{
	for (size_t j = 0; j < n; j++)
		if (req[j].partition == k->partition && strcmp(req[j].topic, k->topic) == 0)
			return true;
	return false;
}

static size_t pick_reads(const lt_record_ts_key *keys, size_t nk, lt_peek_req *req, size_t max)
{
	size_t n = 0;
	bool *taken = xcalloc(nk ? nk : 1, sizeof *taken);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < nk && n < max; i++) {
			if (taken[i] || (pass == 0 && partition_picked(req, n, &keys[i])))
				continue;
			taken[i] = true;
			req[n++] = (lt_peek_req){ xstrdup(keys[i].topic), keys[i].partition, keys[i].offset, -1, -1 };
		}
	}
	free(taken);
	return n;
}

void peeker_time_lags(lt_peeker *pk, lt_history *h, lt_snapshot *s, int timeout_ms, void (*lock)(void *),
		      void (*unlock)(void *), void *lock_arg, lt_peek_stats *stats)
{
	int64_t t0 = now_mono_ms();
	memset(stats, 0, sizeof *stats);
	if (!pk || !h || !s || !history_record_ts(h))
		return;
	lt_record_ts_key keys[4 * LT_RECORD_TS_PER_REFRESH];
	lt_peek_req req[LT_RECORD_TS_PER_REFRESH];
	if (lock)
		lock(lock_arg);
	size_t nk = record_ts_wanted(history_record_ts(h), keys, sizeof keys / sizeof keys[0]);
	size_t n = pick_reads(keys, nk, req, LT_RECORD_TS_PER_REFRESH);
	if (unlock)
		unlock(lock_arg);
	if (n == 0)
		return;
	lt_peeked *out = xcalloc(n, sizeof *out);
	peeker_read(pk, req, n, out, timeout_ms);
	if (lock)
		lock(lock_arg);
	for (size_t i = 0; i < n; i++) {
		bool ok = out[i].status == LT_PEEK_OK && out[i].ts_type != LT_PEEK_TS_NONE;
		record_ts_put(history_record_ts(h), req[i].topic, req[i].partition, req[i].offset, ok,
			      out[i].timestamp_ms);
		stats->read += ok;
	}
	if (stats->read) /* else nothing new is known: model_enrich applied what was */
		model_apply_record_ts(h, s);
	if (unlock)
		unlock(lock_arg);
	for (size_t i = 0; i < n; i++) {
		peek_clear(&out[i]);
		free((char *)req[i].topic);
	}
	free(out);
	stats->asked = n;
	stats->ms = now_mono_ms() - t0;
}
