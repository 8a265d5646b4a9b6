/* commitreader.c — the background reader of __consumer_offsets (see commitreader.h).
 *
 * One thread owns the consumer handle: it looks the topic up (retrying while brokers are away or
 * the topic does not exist yet: Kafka creates it on the first FindCoordinator), assigns every
 * partition from the beginning, asks for offsets.retention.minutes on the side, and feeds records
 * to the stream under a mutex. Everything it learns that the user should know goes into one line
 * (`why`), which the dashboard and --once show next to the commit columns.
 */
#include "kafka/commitreader.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/types.h> /* ssize_t */

#include "util/timeutil.h"
#include "util/xalloc.h"

#define POLL_MS 100
/* While loading, the queue is polled this often so that a partition whose history ends in records the
 * application never sees (transaction markers) is found loaded by its position within a few ms. */
#define LOADING_POLL_MS   5
#define POSITION_CHECK_MS 20
#define CONSUME_BATCH     256
/* The topic lookup is a blocking rd_kafka_metadata call, and stopping the reader waits for it (the
 * handle cannot be destroyed under it): so the first attempt waits LOOKUP_FIRST_MS, and each attempt
 * that times out doubles the next one up to LOOKUP_MAX_MS — a cluster that never answered costs a quick
 * stop (--once on an unreachable cluster exits within its --timeout plus about a second), a slow one
 * still gets long enough to answer. The connection and its handshake carry on between attempts. */
#define LOOKUP_FIRST_MS    500
#define LOOKUP_MAX_MS      5000
#define RETRY_MS           3000
#define ADMIN_TIMEOUT_MS   10000
#define RETENTION_RETRY_MS 60000 /* a failed DescribeConfigs is asked again this much later */

/* How a partition's history was found loaded (LAGTOP_DEBUG prints the counts once live). */
enum loaded_by { LOADED_EMPTY, LOADED_BY_RECORD, LOADED_BY_POSITION, LOADED_BY_EOF, LOADED_HOW };

struct lt_commit_reader {
	pthread_t thread;
	pthread_mutex_t mu;
	atomic_bool stop;
	rd_kafka_t *rk;
	lt_commit_stream *stream;

	/* under mu */
	lt_reader_state state;
	char why[256];
	bool topic_missing; /* the last lookup found no __consumer_offsets (nothing committed yet) */
	int64_t retention_ms;
	char retention_note[160];
	int32_t n_read;   /* partitions of read_to (set once the topic is found) */
	int64_t *read_to; /* per partition: every record below this offset is in the stream (commit_reader_reached) */

	pthread_cond_t changed; /* broadcast with mu held whenever state or retention change */
	uint64_t changes;       /* under mu: counts those changes */

	/* reader thread only */
	int32_t n_parts;
	bool *eof; /* per partition: its history is loaded */
	int32_t n_eof;
	int64_t *end;    /* per partition: its end when the reader started (ListOffsets latest, read_committed:
			  * the last stable offset), -1 when unknown; the history is loaded at this position */
	int64_t *begin;  /* per partition: its log start then, or RD_KAFKA_OFFSET_BEGINNING when unknown */
	bool *consuming; /* per partition: consume_start called (empty ones wait until the reader is live) */
	bool one_shot;   /* commit_reader_start_once: stopped once loaded, so empty partitions are never started */
	bool eof_only;   /* LAGTOP_COMMIT_END=eof: loaded at partition-EOF events only (the reference path) */
	int64_t position_checked_at; /* monotonic ms */
	int64_t started_ms;          /* monotonic ms, commit_reader_start */
	int loaded_by[LOADED_HOW];
	int32_t broker_id; /* whom to ask for the retention */
	int lookup_ms;     /* the next topic lookup's timeout (LOOKUP_FIRST_MS, doubling) */
	rd_kafka_topic_t *rkt;
	rd_kafka_queue_t *q; /* every partition's messages (set under mu: commit_reader_stop wakes it) */
	rd_kafka_queue_t *admin_q;
	bool admin_pending;
	int64_t retention_retry_at; /* monotonic ms; 0: no retry planned */
	bool transient;             /* `why` holds a transient fetch error, cleared by the next record */
};

static const char *const state_names[] = {
	[LT_READER_STARTING] = "starting", [LT_READER_LOADING] = "loading", [LT_READER_LIVE] = "live",
	[LT_READER_DENIED] = "denied",     [LT_READER_FAILED] = "failed",
};

const char *reader_state_name(lt_reader_state st)
{
	return (unsigned)st < sizeof state_names / sizeof state_names[0] ? state_names[st] : "?";
}

__attribute__((format(printf, 3, 4))) static void set_state(lt_commit_reader *r, lt_reader_state st, const char *fmt,
							    ...)
{
	pthread_mutex_lock(&r->mu);
	r->state = st;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof r->why, fmt, ap);
	va_end(ap);
	r->changes++;
	pthread_cond_broadcast(&r->changed);
	pthread_mutex_unlock(&r->mu);
}

__attribute__((format(printf, 2, 3))) static void set_retention_note(lt_commit_reader *r, const char *fmt, ...)
{
	pthread_mutex_lock(&r->mu);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->retention_note, sizeof r->retention_note, fmt, ap);
	va_end(ap);
	r->changes++;
	pthread_cond_broadcast(&r->changed);
	pthread_mutex_unlock(&r->mu);
}

/* Sleeps up to ms, waking early when asked to stop. Returns false when stopping. */
static bool nap(lt_commit_reader *r, int ms)
{
	for (int slept = 0; slept < ms && !atomic_load(&r->stop); slept += POLL_MS) {
		struct timespec ts = { 0, POLL_MS * 1000000L };
		nanosleep(&ts, NULL);
	}
	return !atomic_load(&r->stop);
}

static bool is_denial(rd_kafka_resp_err_t e)
{
	return e == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED ||
	       e == RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED || e == RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED;
}

/* Finds the topic's partition count. Returns 1 when found, 0 to retry, -1 on a permanent failure
 * (state set). */
static int lookup_topic(lt_commit_reader *r)
{
	rd_kafka_topic_t *rkt = rd_kafka_topic_new(r->rk, LT_OFFSETS_TOPIC, NULL);
	const struct rd_kafka_metadata *md = NULL;
	rd_kafka_resp_err_t e = rd_kafka_metadata(r->rk, 0, rkt, &md, r->lookup_ms);
	rd_kafka_topic_destroy(rkt);
	if (e == RD_KAFKA_RESP_ERR__TIMED_OUT)
		r->lookup_ms = r->lookup_ms * 2 < LOOKUP_MAX_MS ? r->lookup_ms * 2 : LOOKUP_MAX_MS;
	if (e) {
		set_state(r, LT_READER_STARTING, "waiting for the brokers: %s", rd_kafka_err2str(e));
		return 0;
	}
	int rc = 0;
	if (md->topic_cnt < 1) {
		set_state(r, LT_READER_STARTING, "%s not in the metadata yet", LT_OFFSETS_TOPIC);
	} else if (is_denial(md->topics[0].err)) {
		set_state(r, LT_READER_DENIED, "not authorized to read %s (%s): commit times unavailable, polling only",
			  LT_OFFSETS_TOPIC, rd_kafka_err2str(md->topics[0].err));
		rc = -1;
	} else if (md->topics[0].err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART) {
		set_state(r, LT_READER_STARTING, "%s does not exist yet (no group has committed)", LT_OFFSETS_TOPIC);
		pthread_mutex_lock(&r->mu);
		r->topic_missing = true;
		pthread_mutex_unlock(&r->mu);
	} else if (md->topics[0].err || md->topics[0].partition_cnt <= 0) {
		set_state(r, LT_READER_STARTING, "%s not ready: %s", LT_OFFSETS_TOPIC,
			  rd_kafka_err2str(md->topics[0].err));
	} else {
		pthread_mutex_lock(&r->mu);
		r->topic_missing = false;
		pthread_mutex_unlock(&r->mu);
		r->n_parts = md->topics[0].partition_cnt;
		r->broker_id = md->broker_cnt > 0 ? md->brokers[0].id : -1;
		for (int i = 1; i < md->broker_cnt; i++)
			if (md->brokers[i].id < r->broker_id)
				r->broker_id = md->brokers[i].id;
		rc = 1;
	}
	rd_kafka_metadata_destroy(md);
	return rc;
}

static void ask_retention(lt_commit_reader *r)
{
	if (r->broker_id < 0) {
		set_retention_note(r, "no broker to ask for offsets.retention.minutes");
		return;
	}
	char id[16], errstr[256];
	snprintf(id, sizeof id, "%d", r->broker_id);
	rd_kafka_ConfigResource_t *res = rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_BROKER, id);
	rd_kafka_AdminOptions_t *opt = rd_kafka_AdminOptions_new(r->rk, RD_KAFKA_ADMIN_OP_DESCRIBECONFIGS);
	rd_kafka_AdminOptions_set_request_timeout(opt, ADMIN_TIMEOUT_MS, errstr, sizeof errstr);
	if (!r->admin_q)
		r->admin_q = rd_kafka_queue_new(r->rk);
	rd_kafka_DescribeConfigs(r->rk, &res, 1, opt, r->admin_q);
	rd_kafka_AdminOptions_destroy(opt);
	rd_kafka_ConfigResource_destroy(res);
	r->admin_pending = true;
	set_retention_note(r, "asking broker %d for offsets.retention.minutes", r->broker_id);
}

static void take_retention(lt_commit_reader *r, const char *value)
{
	char *end;
	long long min = strtoll(value, &end, 10);
	if (*value == '\0' || *end != '\0' || min <= 0) {
		set_retention_note(r, "offsets.retention.minutes is \"%s\", not a positive number", value);
		return;
	}
	pthread_mutex_lock(&r->mu);
	r->retention_ms = (int64_t)min * 60000;
	r->retention_note[0] = '\0';
	commit_stream_set_retention(r->stream, r->retention_ms);
	r->changes++;
	pthread_cond_broadcast(&r->changed);
	pthread_mutex_unlock(&r->mu);
}

static void check_retention(lt_commit_reader *r)
{
	if (!r->admin_pending)
		return;
	rd_kafka_event_t *ev = rd_kafka_queue_poll(r->admin_q, 0);
	if (!ev)
		return;
	r->admin_pending = false;
	const rd_kafka_DescribeConfigs_result_t *res = rd_kafka_event_DescribeConfigs_result(ev);
	if (rd_kafka_event_error(ev) || !res) {
		set_retention_note(r, "cannot read offsets.retention.minutes: %s", rd_kafka_event_error_string(ev));
		goto out;
	}
	size_t n;
	const rd_kafka_ConfigResource_t **rs = rd_kafka_DescribeConfigs_result_resources(res, &n);
	if (n < 1 || rd_kafka_ConfigResource_error(rs[0])) {
		set_retention_note(r, "cannot read offsets.retention.minutes: %s",
				   n < 1 ? "empty answer" : rd_kafka_ConfigResource_error_string(rs[0]));
		goto out;
	}
	size_t ne;
	const rd_kafka_ConfigEntry_t **ents = rd_kafka_ConfigResource_configs(rs[0], &ne);
	for (size_t i = 0; i < ne; i++) {
		if (strcmp(rd_kafka_ConfigEntry_name(ents[i]), "offsets.retention.minutes") == 0) {
			const char *v = rd_kafka_ConfigEntry_value(ents[i]);
			take_retention(r, v ? v : "");
			goto out;
		}
	}
	set_retention_note(r, "broker %d did not report offsets.retention.minutes", r->broker_id);
out:
	rd_kafka_event_destroy(ev);
	if (commit_reader_retention(r, NULL, 0) < 0)
		r->retention_retry_at = now_mono_ms() + RETENTION_RETRY_MS;
}

/* Collects the DescribeConfigs answer, or asks again once a failed attempt is old enough. */
static void retention_tick(lt_commit_reader *r)
{
	check_retention(r);
	if (!r->admin_pending && r->retention_retry_at && now_mono_ms() >= r->retention_retry_at) {
		r->retention_retry_at = 0;
		ask_retention(r);
	}
}

static void start_partition(lt_commit_reader *r, int32_t p, int64_t offset);

/* Every record of the partition below offset is in the stream (commit_reader_reached reads it). */
static void read_to_advance(lt_commit_reader *r, int32_t partition, int64_t offset)
{
	pthread_mutex_lock(&r->mu);
	if (partition >= 0 && partition < r->n_read && offset > r->read_to[partition])
		r->read_to[partition] = offset;
	pthread_mutex_unlock(&r->mu);
}

/* A partition's history is loaded: the reader is live once every partition is, and then starts reading
 * the partitions that were empty at the start (from their end then: nothing is missed). */
static void mark_loaded(lt_commit_reader *r, int32_t partition, enum loaded_by how)
{
	if (partition < 0 || partition >= r->n_parts || r->eof[partition])
		return;
	r->eof[partition] = true;
	r->loaded_by[how]++;
	/* empty, or read up to its end by position (transaction markers): every record below that end is in
	 * the stream, which the steady refresh's commit_reader_reached needs to know without an EOF event */
	if ((how == LOADED_EMPTY || how == LOADED_BY_POSITION) && r->end[partition] >= 0)
		read_to_advance(r, partition, r->end[partition]);
	if (++r->n_eof < r->n_parts)
		return;
	set_state(r, LT_READER_LIVE, "%s", "");
	if (getenv("LAGTOP_DEBUG"))
		fprintf(stderr,
			"lagtop: commit stream: the history of %d partitions loaded in %lld ms: %d empty, %d at "
			"a record, %d by position (transaction markers), %d at partition EOF\n",
			r->n_parts, (long long)(now_mono_ms() - r->started_ms), r->loaded_by[LOADED_EMPTY],
			r->loaded_by[LOADED_BY_RECORD], r->loaded_by[LOADED_BY_POSITION], r->loaded_by[LOADED_BY_EOF]);
	for (int32_t p = 0; p < r->n_parts && !r->one_shot; p++)
		if (!r->consuming[p])
			start_partition(r, p, r->end[p] >= 0 ? r->end[p] : RD_KAFKA_OFFSET_END);
}

/* Where "loaded" is known. Each partition's end is read when the reader starts (ListOffsets latest with
 * read_committed: the last stable offset), and its history is loaded once the consumer's position — the
 * offset after the last record the application was given or librdkafka consumed for it, transaction
 * markers included — reaches that end. The partition-EOF event, which comes only after a fetch that the
 * broker holds for fetch.wait.max.ms (500 ms) when nothing is left, stays as the fallback: for a partition
 * whose end is unknown, and for the rare history whose last records are gone (a compacted tail: the
 * position stops below the end, the fetch position reaches it, EOF). Commits made after the start are
 * not waited for: they are what the live stream follows. */
static bool reached_end(lt_commit_reader *r, int32_t p, int64_t position)
{
	if (r->end[p] >= 0)
		return position >= r->end[p];
	/* end unknown: the end the last fetch answer reported (librdkafka caches the high watermark) */
	int64_t lo = -1, hi = -1;
	if (rd_kafka_get_watermark_offsets(r->rk, LT_OFFSETS_TOPIC, p, &lo, &hi) != RD_KAFKA_RESP_ERR_NO_ERROR)
		return false;
	return hi >= 0 && position >= hi;
}

/* Partitions whose last records are transaction markers (or aborted records) never show their last
 * offset to the application: their position says they are done. Asked for the partitions still loading. */
static void check_positions(lt_commit_reader *r)
{
	r->position_checked_at = now_mono_ms();
	rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(r->n_parts - r->n_eof);
	for (int32_t p = 0; p < r->n_parts; p++)
		if (!r->eof[p] && r->consuming[p] && r->end[p] >= 0)
			rd_kafka_topic_partition_list_add(l, LT_OFFSETS_TOPIC, p);
	if (l->cnt > 0 && rd_kafka_position(r->rk, l) == RD_KAFKA_RESP_ERR_NO_ERROR)
		for (int i = 0; i < l->cnt; i++)
			if (!l->elems[i].err && l->elems[i].offset >= 0 &&
			    reached_end(r, l->elems[i].partition, l->elems[i].offset))
				mark_loaded(r, l->elems[i].partition, LOADED_BY_POSITION);
	rd_kafka_topic_partition_list_destroy(l);
}

/* Each partition's log start and end when the reader starts: two ListOffsets per broker
 * (offsets_for_times with -2, then -1; read_committed makes -1 the last stable offset). Empty partitions
 * are loaded before any fetch; the others are read from their log start as an absolute offset, so every
 * partition is fetchable at once (a logical BEGINNING costs each partition its own offset lookup, and a
 * fetch sent while the others wait for theirs is held by the broker when it has nothing). A failure or a
 * slow answer (a short timeout: stopping waits for this call) only loses the shortcut: those partitions
 * start at BEGINNING and finish at their EOF event. */
static void read_bounds(lt_commit_reader *r)
{
	for (int32_t p = 0; p < r->n_parts; p++) {
		r->end[p] = -1;
		r->begin[p] = RD_KAFKA_OFFSET_BEGINNING;
	}
	if (r->eof_only)
		return;
	rd_kafka_topic_partition_list_t *l[2];
	static const int64_t which[2] = { RD_KAFKA_OFFSET_BEGINNING, RD_KAFKA_OFFSET_END };
	for (int w = 0; w < 2; w++) {
		l[w] = rd_kafka_topic_partition_list_new(r->n_parts);
		for (int32_t p = 0; p < r->n_parts; p++)
			rd_kafka_topic_partition_list_add(l[w], LT_OFFSETS_TOPIC, p)->offset = which[w];
	}
	if (rd_kafka_offsets_for_times(r->rk, l[0], LOOKUP_FIRST_MS) == RD_KAFKA_RESP_ERR_NO_ERROR &&
	    rd_kafka_offsets_for_times(r->rk, l[1], LOOKUP_FIRST_MS) == RD_KAFKA_RESP_ERR_NO_ERROR) {
		/* offsets_for_times keeps the list's order */
		for (int i = 0; i < l[0]->cnt && i < l[1]->cnt; i++) {
			const rd_kafka_topic_partition_t *a = &l[0]->elems[i], *b = &l[1]->elems[i];
			int32_t p = a->partition;
			if (a->err || b->err || a->offset < 0 || b->offset < 0 || p < 0 || p >= r->n_parts)
				continue;
			r->begin[p] = a->offset;
			r->end[p] = b->offset;
		}
	}
	rd_kafka_topic_partition_list_destroy(l[0]);
	rd_kafka_topic_partition_list_destroy(l[1]);
}

static void on_message(lt_commit_reader *r, rd_kafka_message_t *m, bool *denied)
{
	if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
		read_to_advance(r, m->partition, m->offset); /* an EOF's offset is the partition's end */
		mark_loaded(r, m->partition, LOADED_BY_EOF);
		return;
	}
	if (m->err) {
		if (is_denial(m->err)) {
			*denied = true;
			set_state(r, LT_READER_DENIED,
				  "not authorized to read %s (%s): commit times unavailable, polling only",
				  LT_OFFSETS_TOPIC, rd_kafka_err2str(m->err));
		} else {
			/* transient (broker down, leader moving): librdkafka retries by itself */
			pthread_mutex_lock(&r->mu);
			snprintf(r->why, sizeof r->why, "%s", rd_kafka_message_errstr(m));
			pthread_mutex_unlock(&r->mu);
			r->transient = true;
		}
		return;
	}
	char err[160];
	pthread_mutex_lock(&r->mu);
	if (r->transient) {
		r->transient = false;
		if (r->state == LT_READER_LIVE)
			r->why[0] = '\0';
		else
			snprintf(r->why, sizeof r->why, "reading the commit history of %d partitions", r->n_parts);
	}
	/* A malformed record is counted by the stream and skipped: one bad record must not hide the rest. The
	 * record's time tells an expiry's tombstone from a delete's (stream.h). A tombstone is m->payload NULL. */
	rd_kafka_timestamp_type_t tstype;
	int64_t ts = rd_kafka_message_timestamp(m, &tstype);
	(void)commit_stream_feed_at(r->stream, m->key, m->key_len, m->payload, m->payload ? m->len : 0,
				    tstype == RD_KAFKA_TIMESTAMP_NOT_AVAILABLE ? -1 : ts, err, sizeof err);
	if (m->partition >= 0 && m->partition < r->n_read && m->offset + 1 > r->read_to[m->partition])
		r->read_to[m->partition] = m->offset + 1;
	pthread_mutex_unlock(&r->mu);
	if (!r->eof_only && m->partition >= 0 && m->partition < r->n_parts && !r->eof[m->partition] &&
	    reached_end(r, m->partition, m->offset + 1))
		mark_loaded(r, m->partition, LOADED_BY_RECORD);
}

static void start_partition(lt_commit_reader *r, int32_t p, int64_t offset)
{
	if (rd_kafka_consume_start_queue(r->rkt, p, offset, r->q) < 0) {
		set_state(r, LT_READER_FAILED, "cannot read %s [%d]: %s", LT_OFFSETS_TOPIC, p,
			  rd_kafka_err2str(rd_kafka_last_error()));
		return;
	}
	r->consuming[p] = true;
}

static void stop_consuming(lt_commit_reader *r)
{
	for (int32_t p = 0; p < r->n_parts && r->consuming; p++) {
		if (r->consuming[p])
			rd_kafka_consume_stop(r->rkt, p);
		r->consuming[p] = false;
	}
}

static void *reader_main(void *arg)
{
	lt_commit_reader *r = arg;
	int rc;
	while ((rc = lookup_topic(r)) == 0)
		if (!nap(r, RETRY_MS))
			return NULL;
	if (rc < 0)
		return NULL;

	r->eof = xcalloc((size_t)r->n_parts, sizeof *r->eof);
	pthread_mutex_lock(&r->mu);
	r->read_to = xcalloc((size_t)r->n_parts, sizeof *r->read_to);
	r->n_read = r->n_parts;
	pthread_mutex_unlock(&r->mu);
	r->end = xcalloc((size_t)r->n_parts, sizeof *r->end);
	r->begin = xcalloc((size_t)r->n_parts, sizeof *r->begin);
	r->consuming = xcalloc((size_t)r->n_parts, sizeof *r->consuming);
	set_state(r, LT_READER_LOADING, "reading the commit history of %d partitions", r->n_parts);
	read_bounds(r);
	r->rkt = rd_kafka_topic_new(r->rk, LT_OFFSETS_TOPIC, NULL);
	rd_kafka_queue_t *q = rd_kafka_queue_new(r->rk);
	pthread_mutex_lock(&r->mu); /* commit_reader_stop wakes it */
	r->q = q;
	pthread_mutex_unlock(&r->mu);
	for (int32_t p = 0; p < r->n_parts; p++)
		if (r->end[p] >= 0 && r->begin[p] >= r->end[p])
			mark_loaded(r, p, LOADED_EMPTY); /* empty: read from its end once the reader is live */
	for (int32_t p = 0; p < r->n_parts; p++) {
		if (r->eof[p])
			continue;
		start_partition(r, p, r->begin[p]);
		if (!r->consuming[p])
			return NULL; /* FAILED, state says why */
	}
	/* Asked after read_bounds: a broker answers a connection's requests in order, so the ends' ListOffsets
	 * (a short timeout) would wait behind a slow DescribeConfigs, and its timing out can cost the
	 * connection and with it that DescribeConfigs (seen with librdkafka 2.15.1). The answer still comes
	 * while the history loads. */
	ask_retention(r);

	bool denied = false;
	rd_kafka_message_t *batch[CONSUME_BATCH];
	while (!atomic_load(&r->stop) && !denied) {
		bool loading = r->n_eof < r->n_parts;
		/* what is queued, in batches without waiting (a batch call with a timeout waits for a full
		 * batch); when nothing is, one message with a wait */
		ssize_t n = rd_kafka_consume_batch_queue(r->q, 0, batch, CONSUME_BATCH);
		if (n <= 0 && !atomic_load(&r->stop)) {
			batch[0] = rd_kafka_consume_queue(r->q, loading ? LOADING_POLL_MS : POLL_MS);
			n = batch[0] ? 1 : 0;
		}
		for (ssize_t i = 0; i < n; i++) {
			if (!denied)
				on_message(r, batch[i], &denied);
			rd_kafka_message_destroy(batch[i]);
		}
		if (loading && !r->eof_only && (n == 0 || now_mono_ms() - r->position_checked_at >= POSITION_CHECK_MS))
			check_positions(r);
		rd_kafka_poll(r->rk, 0); /* serve librdkafka's own events (logs, errors) */
		retention_tick(r);
	}
	stop_consuming(r);
	/* denied: stay idle (the state says why) until stopped, still answering the retention question */
	while (!atomic_load(&r->stop)) {
		retention_tick(r);
		nap(r, POLL_MS);
	}
	return NULL;
}

static int conf_set(rd_kafka_conf_t *conf, const char *k, const char *v, char *err, size_t errlen)
{
	char errstr[256];
	if (rd_kafka_conf_set(conf, k, v, errstr, sizeof errstr) != RD_KAFKA_CONF_OK) {
		snprintf(err, errlen, "commit reader: %s=%s: %s", k, v, errstr);
		return -1;
	}
	return 0;
}

/* The terminal belongs to the dashboard or to --once's output: librdkafka's own log lines and
 * error events are dropped; what matters reaches the user through the state and `why`. */
static void quiet_log(const rd_kafka_t *rk, int level, const char *fac, const char *msg)
{
	(void)rk, (void)level, (void)fac, (void)msg;
}

static void quiet_error(rd_kafka_t *rk, int err, const char *reason, void *opaque)
{
	(void)rk, (void)err, (void)reason, (void)opaque;
}

int commit_reader_conf(rd_kafka_conf_t *conf, const struct lt_connection *cc, bool one_shot, char *err, size_t errlen)
{
	/* No group.id: librdkafka's simple (queue) consumer reads partitions without a group, so nothing
	 * is ever committed and no coordinator is needed (2.0.2's rd_kafka_assign() requires a group.id).
	 * read_committed: aborted
	 * transactional offset commits never happened. A partition's history is loaded when a message
	 * reaches the end its fetch reported, or at its partition-EOF event (at_known_end). */
	static const char *const props[][2] = {
		{ "enable.auto.commit", "false" },       { "enable.auto.offset.store", "false" },
		{ "enable.partition.eof", "true" },      { "auto.offset.reset", "earliest" },
		{ "isolation.level", "read_committed" },
	};
	/* The simple consumer's prefetch limit applies per partition (50 of them): librdkafka's default (64 MB
	 * each) lets the history pile up in memory faster than it is applied. Measured on the sim's 5,000
	 * groups x 64 partitions (330,000 records): defaults 158 MB peak RSS, load 1.7 s; 2 MB + 512 KB fetches
	 * 64 MB, 3.6 s; 1 MB + 256 KB and fewer queued messages 47 MB but 22 s (each pause of a partition's
	 * fetch costs a backoff). Tuning, not meaning: the user's own value (-X, the configuration's
	 * properties, --command-config) wins, where the properties above are what the reader relies on. */
	static const char *const tuning[][2] = {
		{ "queued.max.messages.kbytes", "2048" },
		{ "fetch.message.max.bytes", "524288" },
	};
	for (size_t i = 0; i < sizeof tuning / sizeof tuning[0]; i++)
		if (!(cc && connection_has(cc, tuning[i][0], strlen(tuning[i][0]))) &&
		    conf_set(conf, tuning[i][0], tuning[i][1], err, errlen) < 0)
			return -1;
	if (one_shot && conf_set(conf, "fetch.wait.max.ms", "10", err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < sizeof props / sizeof props[0]; i++)
		if (conf_set(conf, props[i][0], props[i][1], err, errlen) < 0)
			return -1;
	return 0;
}

static lt_commit_reader *start(rd_kafka_conf_t *conf, const struct lt_connection *cc,
			       const lt_commit_stream_conf *sconf, bool one_shot, char *err, size_t errlen)
{
	rd_kafka_conf_set_log_cb(conf, quiet_log);
	rd_kafka_conf_set_error_cb(conf, quiet_error);
	if (commit_reader_conf(conf, cc, one_shot, err, errlen) != 0) {
		rd_kafka_conf_destroy(conf);
		return NULL;
	}
	char errstr[512];
	rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, errstr, sizeof errstr);
	if (!rk) {
		rd_kafka_conf_destroy(conf);
		snprintf(err, errlen, "commit reader: %s", errstr);
		return NULL;
	}

	lt_commit_reader *r = xcalloc(1, sizeof *r);
	r->rk = rk;
	r->stream = commit_stream_new(sconf);
	r->retention_ms = -1;
	r->lookup_ms = LOOKUP_FIRST_MS;
	r->one_shot = one_shot;
	r->started_ms = now_mono_ms();
	r->broker_id = -1;
	snprintf(r->why, sizeof r->why, "looking up %s", LT_OFFSETS_TOPIC);
	snprintf(r->retention_note, sizeof r->retention_note, "not asked yet");
	const char *end_rule = getenv("LAGTOP_COMMIT_END");
	r->eof_only = end_rule && strcmp(end_rule, "eof") == 0;
	atomic_init(&r->stop, false);
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->changed, NULL);
	if (pthread_create(&r->thread, NULL, reader_main, r) != 0) {
		snprintf(err, errlen, "commit reader: cannot start a thread");
		pthread_cond_destroy(&r->changed);
		pthread_mutex_destroy(&r->mu);
		commit_stream_free(r->stream);
		rd_kafka_destroy(rk);
		free(r);
		return NULL;
	}
	return r;
}

lt_commit_reader *commit_reader_start(rd_kafka_conf_t *conf, const struct lt_connection *cc,
				      const lt_commit_stream_conf *sconf, char *err, size_t errlen)
{
	return start(conf, cc, sconf, false, err, errlen);
}

lt_commit_reader *commit_reader_start_once(rd_kafka_conf_t *conf, const struct lt_connection *cc,
					   const lt_commit_stream_conf *sconf, char *err, size_t errlen)
{
	return start(conf, cc, sconf, true, err, errlen);
}

void commit_reader_stop(lt_commit_reader *r)
{
	if (!r)
		return;
	atomic_store(&r->stop, true);
	/* the thread may be waiting for a message (up to POLL_MS): --once stops it right after printing */
	pthread_mutex_lock(&r->mu);
	if (r->q)
		rd_kafka_queue_yield(r->q);
	pthread_mutex_unlock(&r->mu);
	pthread_join(r->thread, NULL);
	stop_consuming(r);
	if (r->q)
		rd_kafka_queue_destroy(r->q);
	if (r->rkt)
		rd_kafka_topic_destroy(r->rkt);
	if (r->admin_q)
		rd_kafka_queue_destroy(r->admin_q);
	rd_kafka_destroy(r->rk);
	pthread_cond_destroy(&r->changed);
	pthread_mutex_destroy(&r->mu);
	commit_stream_free(r->stream);
	free(r->eof);
	free(r->read_to);
	free(r->end);
	free(r->begin);
	free(r->consuming);
	free(r);
}

lt_reader_state commit_reader_state(lt_commit_reader *r, char *why, size_t len)
{
	pthread_mutex_lock(&r->mu);
	lt_reader_state st = r->state;
	if (why && len)
		snprintf(why, len, "%s", r->why);
	pthread_mutex_unlock(&r->mu);
	return st;
}

uint64_t commit_reader_changes(lt_commit_reader *r)
{
	pthread_mutex_lock(&r->mu);
	uint64_t n = r->changes;
	pthread_mutex_unlock(&r->mu);
	return n;
}

void commit_reader_wait_change(lt_commit_reader *r, uint64_t seen, int ms)
{
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&r->mu);
	while (r->changes == seen && pthread_cond_timedwait(&r->changed, &r->mu, &until) == 0) {
	}
	pthread_mutex_unlock(&r->mu);
}

bool commit_reader_topic_missing(lt_commit_reader *r)
{
	pthread_mutex_lock(&r->mu);
	bool m = r->topic_missing;
	pthread_mutex_unlock(&r->mu);
	return m;
}

int64_t commit_reader_retention(lt_commit_reader *r, char *note, size_t len)
{
	pthread_mutex_lock(&r->mu);
	int64_t v = r->retention_ms;
	if (note && len)
		snprintf(note, len, "%s", r->retention_note);
	pthread_mutex_unlock(&r->mu);
	return v;
}

const lt_commit_stream *commit_reader_lock(lt_commit_reader *r)
{
	pthread_mutex_lock(&r->mu);
	return r->stream;
}

void commit_reader_unlock(lt_commit_reader *r)
{
	pthread_mutex_unlock(&r->mu);
}

int32_t commit_reader_partitions(lt_commit_reader *r)
{
	pthread_mutex_lock(&r->mu);
	int32_t n = r->n_read;
	pthread_mutex_unlock(&r->mu);
	return n;
}

rd_kafka_resp_err_t offsets_topic_ends(rd_kafka_t *rk, int64_t *end, int32_t n, int timeout_ms)
{
	rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(n);
	for (int32_t p = 0; p < n; p++)
		rd_kafka_topic_partition_list_add(l, LT_OFFSETS_TOPIC, p)->offset = RD_KAFKA_OFFSET_END;
	rd_kafka_resp_err_t e = rd_kafka_offsets_for_times(rk, l, timeout_ms > 0 ? timeout_ms : 1);
	for (int i = 0; e == RD_KAFKA_RESP_ERR_NO_ERROR && i < l->cnt; i++) {
		const rd_kafka_topic_partition_t *tp = &l->elems[i];
		if (tp->err)
			e = tp->err;
		else if (tp->partition >= 0 && tp->partition < n)
			end[tp->partition] = tp->offset;
	}
	rd_kafka_topic_partition_list_destroy(l);
	return e;
}

rd_kafka_resp_err_t commit_reader_ends(lt_commit_reader *r, int64_t *end, int32_t n, int timeout_ms)
{
	return offsets_topic_ends(r->rk, end, n, timeout_ms);
}

bool commit_reader_reached(lt_commit_reader *r, const int64_t *end, int32_t n)
{
	pthread_mutex_lock(&r->mu);
	bool ok = r->state == LT_READER_LIVE && n == r->n_read;
	for (int32_t p = 0; ok && p < n; p++)
		ok = end[p] <= r->read_to[p];
	pthread_mutex_unlock(&r->mu);
	return ok;
}
