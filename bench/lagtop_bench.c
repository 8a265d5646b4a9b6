/* lagtop-bench — the measuring half of `make bench` (bench/run_bench.py drives it and prints the table).
 *
 *   lagtop-bench refresh -b BOOTSTRAP [-n REFRESHES] [--sim-pid PID --sim-log FILE]
 *       Refreshes through the collector (collector_refresh_once: the refresh plus model_enrich, as the
 *       dashboard does it), one cold refresh then REFRESHES warm ones, in this process, and prints
 *       key=value lines: wall and CPU time per refresh (median of the warm ones; CPU is the whole process,
 *       librdkafka's threads included), peak RSS, rows, and — given the simulator's pid and the file its
 *       stderr goes to — its request counters around the cold refresh and around the warm ones (the
 *       simulator prints them as one JSON line on SIGUSR1) and its CPU time per warm refresh.
 *
 *       With --record FILE, each warm refresh is also appended to a recording (src/record) and the
 *       writer's CPU is printed apart (record_cpu_ms, and its share of the refresh's CPU). With
 *       LT_BENCH_NO_RECORD_READS set, no record is read for the time lag (what those reads cost). Every
 *       refresh asks for the log starts, unless LT_BENCH_LOG_START_MAX_AGE_MS carries them as a dashboard
 *       does (src/kafka/log_starts.h; the refreshes here come back to back, so every warm one carries).
 *
 *   lagtop-bench draw [--rows N] [--lines L] [--frames F]
 *       One group of N partition rows (default 100,000) in a fixed snapshot, enriched twice by the model;
 *       times rows_build + rows_sort (the rebuild a new snapshot costs) and the per-frame work of the
 *       partitions pane: formatting every column of the L visible rows, without curses. run_bench.py
 *       uses it only when the dashboard's own offscreen benchmark (bench/bench_ui_draw) is not built.
 *
 * Timing belongs here, not in the tests: tests/bench/test_bench_smoke.sh only checks the output's shape.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "kafka/collector.h"
#include "model/columns.h"
#include "model/model.h"
#include "record/record.h"
#include "util/xalloc.h"

#define MAX_REFRESHES 1000
#define MAX_APIS      40

static double mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The calling thread's CPU: the writer's own (the process's would add librdkafka's threads, busy meanwhile). */
static double thread_cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double cpu_ms(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec * 1e3 + ru.ru_utime.tv_usec / 1e3 + ru.ru_stime.tv_sec * 1e3 +
	       ru.ru_stime.tv_usec / 1e3;
}

/* A line "Key: N kB" of /proc/self/status (VmHWM, VmRSS); -1 if /proc is not there. */
static long status_kb(const char *key)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;
	size_t n = strlen(key);
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, key, n) == 0 && line[n] == ':' && sscanf(line + n + 1, " %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/* Peak RSS since the last reset_peak_rss() (VmHWM; -1 if /proc is not there). */
static long hwm_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "VmHWM: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/* Resets VmHWM (Linux: "5" in clear_refs), so that the steady refreshes' peak can be told apart
 * from the cold one's. ru_maxrss is not reset: it stays the whole process's peak. */
static void reset_peak_rss(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");
	if (f) {
		fputs("5", f);
		fclose(f);
	}
}

static long peak_rss_kb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ------------------------------------------------------------------ the simulator's counters */

struct counts {
	size_t n;
	char name[MAX_APIS][32];
	double value[MAX_APIS];
};

/* CPU time (user + system) of another process, from /proc/PID/stat, in ms; -1 if unreadable. */
static double proc_cpu_ms(long pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *p = strrchr(buf, ')'); /* the command name may hold spaces */
	unsigned long ut = 0, st = 0;
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
		return -1;
	return (double)(ut + st) * 1000.0 / (double)sysconf(_SC_CLK_TCK);
}

static size_t file_lines(const char *path, char *last, size_t lastlen)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = 0;
	char line[4096];
	while (fgets(line, sizeof line, f)) {
		if (line[0] == '{') {
			n++;
			snprintf(last, lastlen, "%s", line);
		}
	}
	fclose(f);
	return n;
}

/* {"ApiVersions":3,"Metadata":2,...,"total":N} -> names and values. */
static void counts_parse(const char *json, struct counts *c)
{
	c->n = 0;
	const char *p = json;
	while ((p = strchr(p, '"')) && c->n < MAX_APIS) {
		const char *e = strchr(p + 1, '"');
		if (!e || e[1] != ':')
			break;
		size_t len = (size_t)(e - p - 1);
		if (len >= sizeof c->name[0])
			len = sizeof c->name[0] - 1;
		memcpy(c->name[c->n], p + 1, len);
		c->name[c->n][len] = '\0';
		c->value[c->n] = strtod(e + 2, NULL);
		c->n++;
		p = e + 2;
	}
}

static double counts_get(const struct counts *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->name[i], name) == 0)
			return c->value[i];
	return 0;
}

/* Asks the simulator for its cumulative counters and waits (up to 5 s) for the new line. */
static int counts_take(long pid, const char *log, struct counts *c)
{
	char last[4096] = "";
	size_t before = file_lines(log, last, sizeof last);
	if (kill((pid_t)pid, SIGUSR1) != 0) {
		fprintf(stderr, "lagtop-bench: cannot signal the simulator (pid %ld): %s\n", pid, strerror(errno));
		return -1;
	}
	for (int i = 0; i < 500; i++) {
		if (file_lines(log, last, sizeof last) > before) {
			counts_parse(last, c);
			return 0;
		}
		usleep(10000);
	}
	fprintf(stderr, "lagtop-bench: no counters from the simulator in %s\n", log);
	return -1;
}

static void counts_print(const char *prefix, const struct counts *a, const struct counts *b, double div)
{
	for (size_t i = 0; i < b->n; i++)
		printf("%s%s=%.1f\n", prefix, b->name[i], (b->value[i] - counts_get(a, b->name[i])) / div);
}

/* ------------------------------------------------------------------ refresh */

static size_t snapshot_rows(const lt_snapshot *s)
{
	size_t n = 0;
	for (size_t g = 0; g < s->n_groups; g++)
		n += s->groups[g].n_partitions;
	return n;
}

static int run_refresh(const char *bootstrap, int n, long sim_pid, const char *sim_log, bool commit_stream,
		       const char *record)
{
	char err[512];
	/* --record FILE: every warm refresh also appended to a recording, its CPU measured apart (what
	 * --record adds to a dashboard's refresh, on real refreshes of the cluster) */
	rec_writer *rec = NULL;
	if (record) {
		unlink(record);
		rec = rec_writer_open(record, NULL, err, sizeof err);
		if (!rec) {
			fprintf(stderr, "lagtop-bench: %s\n", err);
			return 1;
		}
	}
	struct lt_connection conn = { .name = (char *)"bench", .bootstrap = (char *)bootstrap };
	struct lt_collector_conf conf = { .conn = &conn,
					  .timeout_ms = 60000,
					  .commit_stream = commit_stream,
					  .no_record_reads = getenv("LT_BENCH_NO_RECORD_READS") != NULL };
	const char *max_age = getenv("LT_BENCH_LOG_START_MAX_AGE_MS");
	conf.log_start_max_age_ms = max_age ? atoi(max_age) : 0;
	model_params_default(&conf.model);
	lt_collector *c = collector_new(&conf, err, sizeof err);
	if (!c) {
		fprintf(stderr, "lagtop-bench: %s\n", err);
		return 1;
	}
	bool counting = sim_pid > 0 && sim_log;
	struct counts c0 = { 0 }, c1 = { 0 }, c2 = { 0 };
	if (counting && counts_take(sim_pid, sim_log, &c0) != 0)
		return 1;

	/* The cold refresh: connections, ApiVersions, every coordinator looked up for the first time. */
	lt_snapshot *s = NULL;
	double w0 = mono_ms(), u0 = cpu_ms();
	if (collector_refresh_once(c, &s, err, sizeof err) != 0) {
		fprintf(stderr, "lagtop-bench: refresh failed: %s\n", err);
		return 1;
	}
	printf("cold_wall_ms=%.1f\ncold_cpu_ms=%.1f\n", mono_ms() - w0, cpu_ms() - u0);
	size_t rec_asked = 0, rec_read = 0;
	int64_t rec_ms = 0;
	collector_peek_stats(c, &rec_asked, &rec_read, &rec_ms);
	printf("cold_records_asked=%zu\ncold_records_read=%zu\ncold_records_ms=%lld\n", rec_asked, rec_read,
	       (long long)rec_ms);
	printf("cold_rss_kb=%ld\n", peak_rss_kb());
	reset_peak_rss();
	printf("groups=%zu\nrows=%zu\n", s->n_groups, snapshot_rows(s));
	if (commit_stream) {
		/* --commit-stream: the reader of __consumer_offsets runs too; its history load is timed
		 * from here (it started with the collector, before the cold refresh) */
		w0 = mono_ms();
		collector_complete_commit_stream(c, s, 300000);
		printf("commit_stream=%s\ncommit_stream_wait_ms=%.1f\n", cstream_state_name(s->commit_stream),
		       mono_ms() - w0);
		if (getenv("LT_BENCH_MALLINFO")) {
			struct mallinfo2 mi = mallinfo2();
			fprintf(stderr,
				"after the history load: in use %zu MB, arena %zu MB, RSS %ld MB, peak %ld MB\n",
				mi.uordblks >> 20, mi.arena >> 20, status_kb("VmRSS") >> 10, status_kb("VmHWM") >> 10);
		}
		/* One refresh more before measuring: the first with the stream live describes again the groups
		 * whose generation the still-loading history did not hold yet (the steady refresh, refresh.c);
		 * the measured ones are the steady state a dashboard settles in. */
		lt_snapshot *warm = NULL;
		if (collector_refresh_once(c, &warm, err, sizeof err) != 0) {
			fprintf(stderr, "lagtop-bench: refresh failed: %s\n", err);
			return 1;
		}
		snapshot_unref(warm);
	}
	size_t groups = s->n_groups, rows = snapshot_rows(s);
	bool partial = s->error != NULL;
	snapshot_unref(s);
	if (counting && counts_take(sim_pid, sim_log, &c1) != 0)
		return 1;
	double sim0 = counting ? proc_cpu_ms(sim_pid) : -1;

	double wall[MAX_REFRESHES], cpu[MAX_REFRESHES], rec_cpu[MAX_REFRESHES], recs_ms[MAX_REFRESHES];
	size_t recs_asked = 0, recs_read = 0;
	for (int i = 0; i < n; i++) {
		w0 = mono_ms();
		u0 = cpu_ms();
		if (collector_refresh_once(c, &s, err, sizeof err) != 0) {
			fprintf(stderr, "lagtop-bench: refresh failed: %s\n", err);
			return 1;
		}
		wall[i] = mono_ms() - w0;
		cpu[i] = cpu_ms() - u0;
		/* the records read for the time lag (record_peek.h): at most LT_RECORD_TS_PER_REFRESH a refresh */
		collector_peek_stats(c, &rec_asked, &rec_read, &rec_ms);
		recs_asked += rec_asked;
		recs_read += rec_read;
		recs_ms[i] = (double)rec_ms;
		if (rec) {
			u0 = thread_cpu_ms();
			if (rec_writer_append(rec, s, err, sizeof err) != 0) {
				fprintf(stderr, "lagtop-bench: %s\n", err);
				return 1;
			}
			rec_cpu[i] = thread_cpu_ms() - u0;
		}
		if (getenv("LT_BENCH_MALLINFO")) {
			struct mallinfo2 mi = mallinfo2();
			fprintf(stderr,
				"after refresh %d: in use %zu MB, arena %zu MB, mmap %zu MB, RSS %ld MB, peak %ld MB\n",
				i, mi.uordblks >> 20, mi.arena >> 20, mi.hblkhd >> 20, status_kb("VmRSS") >> 10,
				status_kb("VmHWM") >> 10);
		}
		if (s->n_groups != groups || snapshot_rows(s) != rows || s->error)
			partial = true;
		snapshot_unref(s);
	}
	double sim1 = counting ? proc_cpu_ms(sim_pid) : -1;
	if (counting && counts_take(sim_pid, sim_log, &c2) != 0)
		return 1;
	printf("refreshes=%d\n", n);
	printf("wall_ms=%.1f\ncpu_ms=%.1f\n", median(wall, (size_t)n), median(cpu, (size_t)n));
	printf("rss_kb=%ld\n", peak_rss_kb());
	printf("steady_rss_kb=%ld\n", hwm_kb());
	printf("complete=%d\n", !partial);
	printf("records_asked=%.1f\nrecords_read=%.1f\nrecords_ms=%.1f\n", (double)recs_asked / n,
	       (double)recs_read / n, median(recs_ms, (size_t)n));
	if (rec) {
		double rc = median(rec_cpu, (size_t)n), cc = median(cpu, (size_t)n);
		printf("record_cpu_ms=%.1f\nrecord_share_pct=%.1f\nrecord_bytes_per_refresh=%.0f\n", rc,
		       cc > 0 ? 100.0 * rc / cc : 0.0, (double)rec_writer_size(rec) / n);
		rec_writer_close(rec, NULL, 0);
	}
	if (counting) {
		counts_print("cold_req_", &c0, &c1, 1);
		counts_print("req_", &c1, &c2, n);
		if (sim0 >= 0 && sim1 >= 0)
			printf("sim_cpu_ms=%.1f\n", (sim1 - sim0) / n);
	}
	collector_free(c);
	return partial ? 1 : 0;
}

/* ------------------------------------------------------------------ draw */

static lt_snapshot *big_snapshot(size_t rows, int64_t t, int64_t step)
{
	lt_snapshot *s = snapshot_new();
	s->taken_at_ms = t;
	s->cluster = xstrdup("bench");
	lt_group *g = snapshot_add_group(s, "bench-group");
	g->state = LT_GROUP_STABLE;
	g->protocol_type = xstrdup("consumer");
	g->protocol = xstrdup("range");
	(void)group_add_member(g, "consumer-1-0123456789abcdef", "consumer-1", "/10.0.0.1");
	const size_t per_topic = 1000;
	char topic[32];
	for (size_t i = 0; i < rows; i++) {
		snprintf(topic, sizeof topic, "topic-%05zu", i / per_topic);
		lt_partition *p = group_add_partition(g, topic, (int32_t)(i % per_topic));
		p->log_start = 1000;
		p->log_end = 1000000 + (int64_t)(i * 7919 % 100000) + step * 100;
		p->committed = p->log_end - (int64_t)(i * 104729 % 5000) - step * 10;
	}
	snapshot_finish(s);
	return s;
}

static int run_draw(size_t rows, int lines, int frames)
{
	lt_model_params mp;
	model_params_default(&mp);
	lt_history *h = history_new(&mp);
	int64_t t = 1700000000000;
	lt_snapshot *s = NULL;
	for (int i = 0; i < 3; i++) {
		snapshot_unref(s);
		s = big_snapshot(rows, t + i * 2000, i);
		model_enrich(h, s);
	}
	const lt_group *g = &s->groups[0];

	double rebuild[16];
	int n_rebuild = 5;
	lt_row *r = NULL;
	size_t n = 0;
	for (int i = 0; i < n_rebuild; i++) {
		free(r);
		double w0 = mono_ms();
		r = rows_build(s, LT_ROWS_PARTITIONS, g, NULL, &n);
		rows_sort(r, n, LT_COL_P_LAG, true);
		rebuild[i] = mono_ms() - w0;
	}
	size_t ncols = 0;
	const lt_column *cols = columns_for(LT_ROWS_PARTITIONS, &ncols);
	double *fr = xcalloc((size_t)frames, sizeof *fr);
	char cell[128];
	size_t sink = 0;
	for (int f = 0; f < frames; f++) {
		size_t top = (size_t)f * (size_t)lines % (n > (size_t)lines ? n - (size_t)lines : 1);
		double w0 = mono_ms();
		for (size_t k = top; k < top + (size_t)lines && k < n; k++)
			for (size_t c = 0; c < ncols; c++) {
				cols[c].format(&r[k], cell, sizeof cell, false);
				sink += strlen(cell);
			}
		fr[f] = mono_ms() - w0;
	}
	printf("draw_rows=%zu\ndraw_lines=%d\ndraw_columns=%zu\n", n, lines, ncols);
	printf("draw_rebuild_ms=%.2f\n", median(rebuild, (size_t)n_rebuild));
	printf("draw_frame_ms=%.3f\n", median(fr, (size_t)frames));
	printf("draw_curses=0\n");
	printf("draw_rss_kb=%ld\n", peak_rss_kb());
	free(fr);
	free(r);
	snapshot_unref(s);
	history_free(h);
	return sink > 0 ? 0 : 1;
}

/* ------------------------------------------------------------------ main */

static void usage(FILE *f)
{
	fputs("Usage: lagtop-bench refresh -b BOOTSTRAP [-n REFRESHES] [--sim-pid PID --sim-log FILE] "
	      "[--commit-stream]\n"
	      "                            [--record FILE]\n"
	      "       lagtop-bench draw [--rows N] [--lines L] [--frames F]\n",
	      f);
}

static long num_arg(const char *flag, const char *v, long lo, long hi)
{
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno || *end || end == v || n < lo || n > hi) {
		fprintf(stderr, "lagtop-bench: %s needs a number from %ld to %ld, got '%s'\n", flag, lo, hi, v);
		exit(2);
	}
	return n;
}

int main(int argc, char **argv)
{
	xalloc_init_policy(); /* as lagtop's main: the bench measures what lagtop does */
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *mode = argv[1];
	static const struct option opts[] = {
		{ "bootstrap", required_argument, NULL, 'b' }, { "refreshes", required_argument, NULL, 'n' },
		{ "sim-pid", required_argument, NULL, 'p' },   { "sim-log", required_argument, NULL, 'l' },
		{ "rows", required_argument, NULL, 'r' },      { "lines", required_argument, NULL, 'L' },
		{ "frames", required_argument, NULL, 'f' },    { "commit-stream", no_argument, NULL, 'c' },
		{ "record", required_argument, NULL, 'R' },    { NULL, 0, NULL, 0 },
	};
	const char *bootstrap = NULL, *sim_log = NULL, *record = NULL;
	long n = 5, sim_pid = 0, rows = 100000, lines = 50, frames = 200;
	int o;
	bool commit_stream = false;
	optind = 2;
	while ((o = getopt_long(argc, argv, "b:n:", opts, NULL)) != -1) {
		switch (o) {
		case 'b': bootstrap = optarg; break;
		case 'n': n = num_arg("-n", optarg, 1, MAX_REFRESHES); break;
		case 'p': sim_pid = num_arg("--sim-pid", optarg, 1, 1L << 30); break;
		case 'l': sim_log = optarg; break;
		case 'r': rows = num_arg("--rows", optarg, 1, 10000000); break;
		case 'L': lines = num_arg("--lines", optarg, 1, 1000); break;
		case 'f': frames = num_arg("--frames", optarg, 1, 100000); break;
		case 'c': commit_stream = true; break;
		case 'R': record = optarg; break;
		default: usage(stderr); return 2;
		}
	}
	if (strcmp(mode, "refresh") == 0) {
		if (!bootstrap) {
			fprintf(stderr, "lagtop-bench: refresh needs -b BOOTSTRAP\n");
			return 2;
		}
		return run_refresh(bootstrap, (int)n, sim_pid, sim_log, commit_stream, record);
	}
	if (strcmp(mode, "draw") == 0)
		return run_draw((size_t)rows, (int)lines, (int)frames);
	fprintf(stderr, "lagtop-bench: unknown mode '%s' (refresh, draw)\n", mode);
	return 2;
}
