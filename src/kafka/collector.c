/* collector.c — the refresh loop: thread, controls, publishing (see collector.h).
 * One refresh's round trips live in refresh.c and the refresh_*.c files it drives; this file owns the lifecycle and the
 * locking. */
#include "config.h"

#include "kafka/collector.h"

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim */
#endif
#include <pthread.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "kafka/commit_snapshot.h"
#include "kafka/record_peek.h"
#include "kafka/refresh.h"
#include "util/regex.h"
#include "util/strv.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

struct lt_collector {
	struct lt_refresh_ctx rc;  /* the handle, filters, previous snapshot (refresh.h) */
	lt_history *history;       /* guarded by hist_mu */
	lt_commit_reader *reader;  /* NULL when the commit stream is off */
	lt_pos_sources *positions; /* NULL without position sources (src/position/sources.h) */
	bool trimmed;              /* the history load's leftovers were given back (give_back_memory) */
	lt_peeker *peeker;         /* reads the records at committed offsets the history cannot date */
	lt_peek_stats peek_stats;  /* what the last refresh read (guarded by refresh_mu) */

	pthread_t thread;
	bool started;
	pthread_mutex_t refresh_mu; /* one refresh at a time (thread or collector_refresh_once) */
	/* The history has its own lock: model_enrich takes 75-100 ms on 100,000 partitions, and under mu
	 * it blocked the UI's calls (refresh_now, set_interval, busy, ...) for that long. Order: never
	 * take mu while holding hist_mu. */
	pthread_mutex_t hist_mu;
	pthread_mutex_t mu; /* everything below */
	pthread_cond_t cv;
	bool stop, paused, refresh_now, busy;
	int interval_ms;
	int64_t started_ms;
	lt_snapshot *latest;
	int wake_fd;
};

static int regexes_compile(size_t n, const char *const *src, regex_t **out, char *err, size_t errlen)
{
	*out = xcalloc(n ? n : 1, sizeof **out);
	for (size_t i = 0; i < n; i++) {
		char why[200];
		if (regex_compile(&(*out)[i], src[i], REG_EXTENDED | REG_NOSUB, why, sizeof why) != 0) {
			snprintf(err, errlen, "bad group regex '%s': %s", src[i], why);
			for (size_t k = 0; k < i; k++)
				regfree(&(*out)[k]);
			free(*out);
			*out = NULL;
			return -1;
		}
	}
	return 0;
}

static void regexes_free(size_t n, regex_t *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < n; i++)
		regfree(&r[i]);
	free(r);
}

lt_collector *collector_new(const struct lt_collector_conf *conf, char *err, size_t errlen)
{
	lt_collector *c = xcalloc(1, sizeof *c);
	struct lt_refresh_ctx *rc = &c->rc;
	c->wake_fd = -1;

	rc->cluster_name = xstrdup(connection_name(conf->conn));
	rc->timeout_ms = conf->timeout_ms > 0 ? conf->timeout_ms : 10000;
	rc->n_include = conf->n_group_regex;
	rc->n_exclude = conf->n_group_exclude;
	if (regexes_compile(conf->n_group_regex, conf->group_regex, &rc->include, err, errlen) ||
	    regexes_compile(conf->n_group_exclude, conf->group_exclude, &rc->exclude, err, errlen))
		goto fail;
	rc->commit_epochs = conf->commit_epochs;
	if (conf->log_start_max_age_ms > 0)
		rc->log_starts = log_starts_new(conf->log_start_max_age_ms);
	rc->n_extra = conf->n_extra_groups;
	rc->extra = strv_dup(conf->n_extra_groups, conf->extra_groups);

	rc->client = client_new(conf->conn, err, errlen);
	if (!rc->client)
		goto fail;

	if (conf->commit_stream) {
		rd_kafka_conf_t *kc = client_conf_build(conf->conn, err, errlen);
		lt_commit_stream_conf sc = { .horizon_ms = conf->expiry_horizon_ms };
		c->reader = !kc              ? NULL
			    : conf->one_shot ? commit_reader_start_once(kc, conf->conn, &sc, err, errlen)
					     : commit_reader_start(kc, conf->conn, &sc, err, errlen);
		if (!c->reader)
			goto fail;
	}
	/* the steady refresh (refresh.h) reads the stream; LAGTOP_FULL_POLL=1 asks every group every time
	 * (the tests compare both ways on one cluster) */
	rc->reader = c->reader;
	const char *fp = getenv("LAGTOP_FULL_POLL");
	rc->full_poll = fp && fp[0] && strcmp(fp, "0") != 0;
	rc->one_shot = conf->one_shot;
	const char *gb = getenv("LAGTOP_GROUP_BATCH"); /* 0: every group described by itself (refresh.h) */
	rc->no_batch = gb && strcmp(gb, "0") == 0;

	c->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (c->wake_fd < 0) {
		snprintf(err, errlen, "cannot create the wake-up fd: %s", strerror(errno));
		goto fail;
	}
	lt_model_params mp = conf->model;
	if (mp.window == 0 || mp.ring_capacity == 0)
		model_params_default(&mp);
	c->history = history_new(&mp);
	/* the time lag from records where the history cannot date a committed offset (record_peek.h) */
	if (!conf->no_record_reads) {
		c->peeker = peeker_new(conf->conn, err, errlen);
		if (!c->peeker) {
			history_free(c->history);
			goto fail;
		}
		history_read_records(c->history);
	}
	c->positions = pos_sources_new(conf->positions);
	c->interval_ms = conf->interval_ms > 0 ? conf->interval_ms : 2000;

	pthread_mutex_init(&c->refresh_mu, NULL);
	pthread_mutex_init(&c->mu, NULL);
	pthread_mutex_init(&c->hist_mu, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&c->cv, &ca);
	pthread_condattr_destroy(&ca);
	return c;
fail:
	commit_reader_stop(c->reader);
	client_free(rc->client);
	regexes_free(rc->n_include, rc->include);
	regexes_free(rc->n_exclude, rc->exclude);
	strv_free(rc->n_extra, rc->extra);
	free(rc->cluster_name);
	log_starts_free(rc->log_starts);
	if (c->wake_fd >= 0)
		close(c->wake_fd);
	free(c);
	return NULL;
}

static bool group_wanted(const char *group, void *arg)
{
	return refresh_group_wanted(arg, group);
}

/* Says in the snapshot's commit-stream line why a refresh polled although the stream is live (a stream
 * that is behind, cut off, or disagreed with OffsetFetch), and with LAGTOP_REFRESH_STATS=1 prints what
 * the refresh asked on stderr (the tests compare the steady refresh with full polling). */
static void steady_note_add(const lt_collector *c, lt_snapshot *s)
{
	const struct lt_refresh_ctx *rc = &c->rc;
	if (rc->steady_note[0] && s->commit_stream == LT_CSTREAM_LIVE) {
		char *r = s->commit_stream_reason ? xasprintf("%s; %s", s->commit_stream_reason, rc->steady_note)
						  : xstrdup(rc->steady_note);
		free(s->commit_stream_reason);
		s->commit_stream_reason = r;
	}
}

static void steady_report(lt_collector *c, lt_snapshot *s)
{
	const struct lt_refresh_ctx *rc = &c->rc;
	steady_note_add(c, s);
	const char *env = getenv("LAGTOP_REFRESH_STATS");
	if (env && env[0] && strcmp(env, "0") != 0)
		fprintf(stderr,
			"lagtop: refresh %llu: %s, %zu groups from the stream, %zu described, %zu offsets fetched, "
			"%zu verified, %zu mismatches, %zu of the described by the batch, %zu fetched as the "
			"stream was late%s%s\n",
			(unsigned long long)s->seq, rc->stats.steady ? "steady" : "polled", rc->stats.from_stream,
			rc->stats.described + rc->stats.batched, rc->stats.fetched, rc->stats.verified,
			rc->stats.mismatches, rc->stats.batched, rc->stats.stream_late, rc->steady_note[0] ? ": " : "",
			rc->steady_note);
}

/* Gives the free memory in malloc's arenas back to the kernel. The history load (librdkafka's fetch
 * buffers of __consumer_offsets, allocated and freed by its threads) and a refresh that polls every
 * group (the answers in flight) leave tens of MB free in glibc's per-thread arenas, which it keeps;
 * steady refreshes then never need them. Done before and after the first refresh that finds the stream
 * live, and after a refresh that polled while it is live: 10-30 ms on L, where such a refresh costs
 * 600 ms; never in steady refreshes (measured: L peak RSS 280 -> 245 MB). */
static void give_back_memory(void)
{
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

static void hist_lock(void *arg)
{
	pthread_mutex_lock(&((lt_collector *)arg)->hist_mu);
}

static void hist_unlock(void *arg)
{
	pthread_mutex_unlock(&((lt_collector *)arg)->hist_mu);
}

/* The records read for the time lag get a quarter of the refresh's timeout, at most 2 s: the refresh's
 * numbers wait for them. */
static int record_read_timeout_ms(const lt_collector *c)
{
	int t = c->rc.timeout_ms / 4;
	return t < 2000 ? t : 2000;
}

void collector_peek_stats(lt_collector *c, size_t *asked, size_t *read, int64_t *ms)
{
	pthread_mutex_lock(&c->refresh_mu);
	*asked = c->peek_stats.asked;
	*read = c->peek_stats.read;
	*ms = c->peek_stats.ms;
	pthread_mutex_unlock(&c->refresh_mu);
}

/* Runs one refresh (under refresh_mu), enriches it with the history and remembers it as the base
 * for the next refresh's stale data. Returns the refresh's result code (refresh.h). */
static int collector_do_refresh(lt_collector *c, lt_snapshot **out, char *err, size_t errlen)
{
	pthread_mutex_lock(&c->refresh_mu);
	pthread_mutex_lock(&c->mu);
	c->busy = true;
	c->started_ms = now_wall_ms();
	c->rc.interval_ms = c->interval_ms;
	pthread_mutex_unlock(&c->mu);

	lt_snapshot *s = NULL;
	bool first_live = false;
	if (c->reader && !c->trimmed && commit_reader_state(c->reader, NULL, 0) == LT_READER_LIVE) {
		first_live = c->trimmed = true;
		give_back_memory();
	}
	/* the position sources are fetched while the cluster is asked, within the same deadline */
	pos_sources_start(c->positions, now_mono_ms() + c->rc.timeout_ms, &c->stop);
	int rc = refresh_run(&c->rc, &c->stop, &s, err, errlen);
	if (s) {
		commit_snapshot_fill(c->reader, s, now_wall_ms(), group_wanted, &c->rc);
		steady_report(c, s);
	}

	pthread_mutex_lock(&c->hist_mu);
	model_enrich(c->history, s);
	pthread_mutex_unlock(&c->hist_mu);
	peeker_time_lags(c->peeker, c->history, s, record_read_timeout_ms(c), hist_lock, hist_unlock, c,
			 &c->peek_stats);
	/* after model_enrich, which recomputes the derived flags */
	pos_sources_finish(c->positions, s);
	pthread_mutex_lock(&c->mu);
	c->busy = false;
	pthread_mutex_unlock(&c->mu);

	snapshot_unref(c->rc.prev);
	c->rc.prev = snapshot_ref(s);
	if (c->reader && (first_live || !c->rc.stats.steady) &&
	    commit_reader_state(c->reader, NULL, 0) == LT_READER_LIVE)
		give_back_memory();
	pthread_mutex_unlock(&c->refresh_mu);
	*out = s;
	return rc;
}

static void publish(lt_collector *c, lt_snapshot *s)
{
	pthread_mutex_lock(&c->mu);
	lt_snapshot *old = c->latest;
	c->latest = s;
	pthread_mutex_unlock(&c->mu);
	snapshot_unref(old);
	uint64_t one = 1;
	/* EAGAIN only if the counter would overflow: the fd is readable anyway. */
	if (write(c->wake_fd, &one, sizeof one) < 0) {
	}
}

int collector_refresh_once(lt_collector *c, lt_snapshot **out, char *err, size_t errlen)
{
	lt_snapshot *s = NULL;
	int rc = collector_do_refresh(c, &s, err, errlen);
	if (rc == LT_REFRESH_UNREACHABLE) {
		snapshot_unref(s);
		*out = NULL;
		return -1;
	}
	*out = s;
	return 0;
}

static struct timespec deadline_after(int64_t ms)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += (time_t)(ms / 1000);
	ts.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return ts;
}

static void *collector_main(void *arg)
{
	lt_collector *c = arg;
	pthread_mutex_lock(&c->mu);
	while (!c->stop) {
		if (c->paused && !c->refresh_now) {
			pthread_cond_wait(&c->cv, &c->mu);
			continue;
		}
		c->refresh_now = false;
		pthread_mutex_unlock(&c->mu);

		int64_t t0 = now_mono_ms();
		char err[512];
		lt_snapshot *s = NULL;
		collector_do_refresh(c, &s, err, sizeof err);
		/* A refresh that failed entirely is still published: it carries the error and the
		 * previous groups marked stale, which is what the dashboard shows. */
		publish(c, s);

		pthread_mutex_lock(&c->mu);
		/* The next refresh starts one interval after this one started (not ended), so a slow
		 * cluster does not stretch the period; at least 50 ms apart. */
		while (!c->stop && !c->refresh_now) {
			int64_t wait = t0 + c->interval_ms - now_mono_ms();
			if (wait < 50)
				wait = 50;
			if (c->paused) {
				pthread_cond_wait(&c->cv, &c->mu);
				continue;
			}
			if (now_mono_ms() - t0 >= c->interval_ms)
				break;
			struct timespec ts = deadline_after(wait);
			pthread_cond_timedwait(&c->cv, &c->mu, &ts);
		}
	}
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

int collector_start(lt_collector *c, char *err, size_t errlen)
{
	if (c->started)
		return 0;
	int rc = pthread_create(&c->thread, NULL, collector_main, c);
	if (rc != 0) {
		snprintf(err, errlen, "cannot start the collector thread: %s", strerror(rc));
		return -1;
	}
	c->started = true;
	return 0;
}

int collector_wake_fd(const lt_collector *c)
{
	return c->wake_fd;
}

void collector_ack(lt_collector *c)
{
	uint64_t v;
	if (read(c->wake_fd, &v, sizeof v) < 0) {
		/* EAGAIN: nothing pending */
	}
}

lt_snapshot *collector_latest(lt_collector *c)
{
	pthread_mutex_lock(&c->mu);
	lt_snapshot *s = snapshot_ref(c->latest);
	pthread_mutex_unlock(&c->mu);
	return s;
}

size_t collector_partition_lags(lt_collector *c, const char *group, const char *topic, int32_t partition, int64_t *out,
				size_t max)
{
	pthread_mutex_lock(&c->hist_mu);
	size_t n = history_partition_lags(c->history, group, topic, partition, out, max);
	pthread_mutex_unlock(&c->hist_mu);
	return n;
}

void collector_refresh_now(lt_collector *c)
{
	pthread_mutex_lock(&c->mu);
	c->refresh_now = true;
	pthread_cond_signal(&c->cv);
	pthread_mutex_unlock(&c->mu);
}

void collector_set_interval(lt_collector *c, int interval_ms)
{
	pthread_mutex_lock(&c->mu);
	c->interval_ms = interval_ms > 50 ? interval_ms : 50;
	pthread_cond_signal(&c->cv);
	pthread_mutex_unlock(&c->mu);
}

void collector_set_paused(lt_collector *c, bool paused)
{
	pthread_mutex_lock(&c->mu);
	c->paused = paused;
	pthread_cond_signal(&c->cv);
	pthread_mutex_unlock(&c->mu);
}

bool collector_busy(lt_collector *c)
{
	pthread_mutex_lock(&c->mu);
	bool b = c->busy;
	pthread_mutex_unlock(&c->mu);
	return b;
}

int64_t collector_refresh_started_ms(lt_collector *c)
{
	pthread_mutex_lock(&c->mu);
	int64_t t = c->started_ms;
	pthread_mutex_unlock(&c->mu);
	return t;
}

void collector_complete_commit_stream(lt_collector *c, lt_snapshot *s, int timeout_ms)
{
	/* Live is not enough: the expiry forecast also needs offsets.retention.minutes, and its answer can
	 * come after the history is read (a busy machine; a slow broker). wait_loaded returns at once when
	 * both are in. */
	if (!c->reader || (s->commit_stream != LT_CSTREAM_STARTING && s->commit_stream != LT_CSTREAM_LOADING &&
			   s->commit_stream != LT_CSTREAM_LIVE))
		return;
	commit_reader_wait_loaded(c->reader, timeout_ms);
	commit_snapshot_fill(c->reader, s, now_wall_ms(), group_wanted, &c->rc);
	steady_note_add(c, s); /* the fill wrote the line anew: say again why this refresh polled */
}

void collector_free(lt_collector *c)
{
	if (!c)
		return;
	if (c->started) {
		pthread_mutex_lock(&c->mu);
		__atomic_store_n(&c->stop, true, __ATOMIC_RELEASE);
		pthread_cond_signal(&c->cv);
		pthread_mutex_unlock(&c->mu);
		pthread_join(c->thread, NULL);
	}
	struct lt_refresh_ctx *rc = &c->rc;
	snapshot_unref(rc->prev);
	snapshot_unref(c->latest);
	history_free(c->history);
	peeker_free(c->peeker);
	pos_sources_free(c->positions);
	commit_reader_stop(c->reader);
	refresh_ctx_close(rc);
	refresh_ctx_free_steady(rc);
	client_free(rc->client);
	regexes_free(rc->n_include, rc->include);
	regexes_free(rc->n_exclude, rc->exclude);
	strv_free(rc->n_extra, rc->extra);
	free(rc->known_brokers);
	free(rc->cluster_name);
	log_starts_free(rc->log_starts);
	close(c->wake_fd);
	pthread_cond_destroy(&c->cv);
	pthread_mutex_destroy(&c->mu);
	pthread_mutex_destroy(&c->hist_mu);
	pthread_mutex_destroy(&c->refresh_mu);
	free(c);
}
