/* dashboard.c — mode_tui: the dashboard (src/ui) on a live cluster. The cluster and its settings come from
 * target_resolve (target.h), for the cluster the options choose and for every cluster switched to with `c`;
 * each is watched by a collector (src/kafka) that the dashboard reads through a source (ui/source.h). */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/modes.h"
#include "cli/target.h"
#include "kafka/collector.h"
#include "record/record.h"
#include "ui/source.h"
#include "ui/theme.h"
#include "ui/tui.h"
#include "util/sanitize.h"
#include "util/xalloc.h"

/* The clusters of the config file, and the collectors opened on them. A replaced collector is
 * freed on its own thread: its refresh may be waiting on a dead broker, and the UI must not. */
struct live {
	const struct lt_options *o;
	struct lt_config cfg;
	const char **names;
	lt_collector *cur;
	ui_source *cur_src;     /* the source over cur, handed to the UI */
	struct rec_writer *rec; /* --record FILE: every refresh shown goes there (source_record.c); NULL: none */
	struct lt_target t;     /* cur's cluster and settings (the reset dialog connects with its connection) */
	size_t n_retiring;
	pthread_t *retiring;
};

/* --record FILE: the writer, opened before anything connects (a bad path is a usage error at once). */
static int record_open(struct rec_writer **w, const struct lt_options *o, char *err, size_t errlen)
{
	rec_writer_opts wo;
	record_writer_opts(o, &wo);
	*w = rec_writer_open(o->record_path, &wo, err, errlen);
	return *w ? 0 : -1;
}

/* Closes the recording after the dashboard, saying on stderr why it stopped if it did; rc, or
 * LT_EXIT_CLUSTER when the recording failed. */
static int record_close(struct rec_writer *w, const ui_source *src, int rc)
{
	if (!w)
		return rc;
	char err[512];
	const char *stopped = source_record_error(src);
	if (stopped) {
		fprintf(stderr, "lagtop: the recording stopped: %s\n", stopped);
		rc = LT_EXIT_CLUSTER;
	}
	if (rec_writer_close(w, err, sizeof err) != 0) {
		fprintf(stderr, "lagtop: %s\n", err);
		rc = LT_EXIT_CLUSTER;
	}
	return rc;
}

static void *collector_free_thread(void *arg)
{
	collector_free(arg);
	return NULL;
}

/* How long quitting waits for the cluster connections to close, beyond the refresh timeout (a refresh
 * in progress ends at its own deadline first). */
#define SHUTDOWN_GRACE_MS 5000

/* Waits for a closing thread until the shutdown deadline; false when it is still running. librdkafka
 * 2.0.2's rd_kafka_destroy can block for as long as a coordinator lookup stays pending (a broker that
 * stays away): quitting must not turn into a process that lingers after its terminal is gone. */
static bool join_by(pthread_t t, const struct timespec *deadline)
{
	return pthread_timedjoin_np(t, NULL, deadline) == 0;
}

static void shutdown_deadline(struct timespec *ts, int timeout_ms)
{
	clock_gettime(CLOCK_REALTIME, ts);
	int64_t ns = ts->tv_nsec + (int64_t)(timeout_ms + SHUTDOWN_GRACE_MS) * 1000000;
	ts->tv_sec += (time_t)(ns / 1000000000);
	ts->tv_nsec = (long)(ns % 1000000000);
}

/* Connects to the cluster t describes (taken over: kept in l->t on success, freed otherwise). */
static lt_collector *live_connect(struct live *l, struct lt_target t, int *interval_ms, bool *read_only, char *err,
				  size_t errlen)
{
	struct lt_collector_conf conf;
	target_collector_conf(&t, l->o->timeout_ms, &conf);
	lt_pos_sources_conf positions; /* the collector copies what it keeps */
	config_position_sources(&t.positions, &positions);
	conf.positions = &positions;
	lt_collector *c = collector_new(&conf, err, errlen);
	if (c && collector_start(c, err, errlen) != 0) {
		collector_free(c);
		c = NULL;
	}
	*interval_ms = t.interval_ms;
	*read_only = t.read_only;
	if (c) {
		target_free(&l->t);
		l->t = t;
	} else {
		target_free(&t);
	}
	return c;
}

static int live_reset_conf(void *ctx, struct tui_reset_conf *out)
{
	struct live *l = ctx;
	if (!l->t.conn.bootstrap)
		return -1;
	*out = (struct tui_reset_conf){
		.conn = &l->t.conn,
		.timeout_ms = l->o->timeout_ms,
		.confirm_threshold = l->t.reset_confirm_threshold,
	};
	return 0;
}

static ui_source *live_open(void *ctx, size_t i, int *interval_ms, bool *read_only, char *err, size_t errlen)
{
	struct live *l = ctx;
	struct lt_target t;
	/* the file's cluster with its own bootstrap servers (target.h says what carries over) */
	if (target_resolve(&l->cfg, l->o, i, &t, err, errlen) != 0)
		return NULL;
	lt_collector *c = live_connect(l, t, interval_ms, read_only, err, errlen);
	if (!c)
		return NULL;
	pthread_t th;
	if (pthread_create(&th, NULL, collector_free_thread, l->cur) == 0) {
		l->retiring = xrealloc(l->retiring, (l->n_retiring + 1) * sizeof *l->retiring);
		l->retiring[l->n_retiring++] = th;
	} else {
		collector_free(l->cur);
	}
	l->cur = c;
	l->cur_src = source_record_new(source_collector_new(c), l->rec);
	return l->cur_src;
}

static void live_retire(void *ctx, ui_source *old)
{
	(void)ctx;
	source_free(old); /* the wrapper; its collector is being freed by live_open's thread */
}

int mode_tui(const struct lt_options *o)
{
	char err[1024];
	struct live l;
	memset(&l, 0, sizeof l);
	l.o = o;
	struct lt_target t;
	if (target_from_options(o, &t, stderr, &l.cfg, err, sizeof err) != 0) {
		fprintf(stderr, "lagtop: %s\n", err);
		return LT_EXIT_USAGE;
	}
	struct tui_settings ts = {
		.theme = t.theme, .no_color = o->no_color, .ascii = o->ascii, .no_mouse = o->no_mouse || !l.cfg.mouse
	};
	ts.columns = l.cfg.columns;
	ts.config_path = l.cfg.path;
	if (tui_theme_check(&ts, err, sizeof err) != 0) {
		char *safe = sanitize_dup(err, locale_is_utf8());
		fprintf(stderr, "lagtop: %s\n", safe);
		free(safe);
		target_free(&t);
		config_free(&l.cfg);
		return LT_EXIT_USAGE;
	}
	/* before connecting: without a terminal the answer is immediate, not after the connection closes */
	if (tui_terminal_check(err, sizeof err) != 0) {
		fprintf(stderr, "lagtop: %s\n", err);
		target_free(&t);
		config_free(&l.cfg);
		return LT_EXIT_USAGE;
	}
	if (o->record_path && record_open(&l.rec, o, err, sizeof err) != 0) {
		fprintf(stderr, "lagtop: %s\n", err);
		target_free(&t);
		config_free(&l.cfg);
		return LT_EXIT_USAGE;
	}
	int interval_ms;
	char *theme = xstrdup(t.theme); /* t is taken over by live_connect */
	ts.theme = theme;
	l.cur = live_connect(&l, t, &interval_ms, &ts.read_only, err, sizeof err);
	if (!l.cur) {
		fprintf(stderr, "lagtop: %s\n", err);
		record_close(l.rec, NULL, 0);
		free(theme);
		config_free(&l.cfg);
		return LT_EXIT_USAGE;
	}

	struct tui_clusters clusters = {
		.open = live_open, .retire = live_retire, .reset_conf = live_reset_conf, .ctx = &l
	};
	l.names = xcalloc(l.cfg.n_clusters + 1, sizeof *l.names);
	for (size_t i = 0; i < l.cfg.n_clusters; i++)
		l.names[i] = l.cfg.clusters[i].conn.name;
	clusters.n = l.cfg.n_clusters;
	clusters.names = l.names;
	clusters.current = l.cfg.n_clusters;
	/* the cluster shown is the file's one unless -b or a bootstrap.servers property pointed it elsewhere */
	const struct lt_connection *first = &l.t.conn;
	for (size_t i = 0; first->name && i < l.cfg.n_clusters; i++) {
		const struct lt_connection *def = &l.cfg.clusters[i].conn;
		if (strcmp(def->name, first->name) == 0 && def->bootstrap &&
		    strcmp(def->bootstrap, first->bootstrap) == 0)
			clusters.current = i;
	}

	l.cur_src = source_record_new(source_collector_new(l.cur), l.rec);
	int rc = tui_run(&ts, l.cur_src, interval_ms, &clusters);
	rc = record_close(l.rec, l.cur_src, rc);
	source_free(l.cur_src);
	free(theme);
	/* The terminal is restored by now; close the connections, but not forever (see join_by). */
	struct timespec deadline;
	shutdown_deadline(&deadline, o->timeout_ms);
	pthread_t closing;
	bool closed = true;
	if (pthread_create(&closing, NULL, collector_free_thread, l.cur) == 0)
		closed = join_by(closing, &deadline);
	else
		collector_free(l.cur);
	for (size_t i = 0; i < l.n_retiring; i++)
		closed = join_by(l.retiring[i], &deadline) && closed;
	if (!closed) {
		fprintf(stderr,
			"lagtop: the cluster connection did not close within %d s (a broker is unreachable); "
			"exiting without waiting\n",
			(o->timeout_ms + SHUTDOWN_GRACE_MS) / 1000);
		fflush(NULL);
		_exit(rc);
	}
	free(l.retiring);
	free(l.names);
	target_free(&l.t);
	config_free(&l.cfg);
	return rc;
}
