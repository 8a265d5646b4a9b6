/* bench_record.c — recordings of scenario M (1,000 groups × 32 partitions over 100 topics, 10 groups a
 * topic) at a 10 s interval, generated synthetically through the real model and the real writer:
 *   - every topic-partition has its own produce rate (10 % idle, the rest 1–400 msg/s) with ±5 % noise each
 *     refresh; every group commits behind the log end by a lag that wanders (so lag, rates, time lag and ETA
 *     move on most partitions every refresh);
 *   - every refresh, with probability 1/360 per group, a rebalance: new member ids and assignments.
 * Prints key=value lines: bytes per record, MB per day (8,640 records), the writer's CPU per record, the
 * model's CPU per refresh (a floor for the dashboard's own), and the time to reach random moments from a
 * freshly opened reader (max and median). Usage: bench_record [RECORDS (default 720)] [FILE|-] [KEYFRAME_EVERY]
 * [ZSTD_LEVEL].
 *
 * bench_record --read FILE measures an existing recording instead (make bench: the one lagtop-bench
 * refresh --record wrote of the sim's scenario M): decoding in order, and reaching moments — 40 at random
 * and the worst, the record before each keyframe (every record of an interval decoded). */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "model/model.h"
#include "record/record.h"

#define GROUPS      1000
#define PARTS       32
#define TOPICS      100
#define INTERVAL_MS 10000

static double cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static uint64_t rng = 88172645463325252ull;
static double urand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

static int64_t log_end[TOPICS][PARTS];
static double rate[TOPICS][PARTS];
static int64_t lag[GROUPS][PARTS];
static int generation[GROUPS];

static lt_snapshot *next_snapshot(lt_history *h, int i)
{
	lt_snapshot *s = snapshot_new();
	s->seq = (uint64_t)i + 1;
	s->taken_at_ms = 1767225600000 + (int64_t)i * INTERVAL_MS + (int64_t)(urand() * 30);
	s->duration_ms = 80 + (int64_t)(urand() * 40);
	s->cluster = strdup("bench-M");
	s->brokers_up = s->brokers_total = 3;
	for (int b = 0; b < 3; b++)
		snapshot_add_broker(s, b + 1, "127.0.0.1", 9092 + b);
	for (int t = 0; t < TOPICS; t++)
		for (int p = 0; p < PARTS; p++) {
			double r = rate[t][p] * (0.95 + 0.1 * urand());
			log_end[t][p] += (int64_t)(r * INTERVAL_MS / 1000.0);
		}
	for (int g = 0; g < GROUPS; g++) {
		char name[32], topic[32], mid[64];
		snprintf(name, sizeof name, "scale-group-%05d", g);
		snprintf(topic, sizeof topic, "scale-topic-%03d", g % TOPICS);
		if (urand() < 1.0 / 360)
			generation[g]++;
		lt_group *gr = snapshot_add_group(s, name);
		gr->state = LT_GROUP_STABLE;
		gr->type = LT_GTYPE_CLASSIC;
		gr->protocol_type = strdup("consumer");
		gr->protocol = strdup("range");
		gr->coordinator = g % 3 + 1;
		for (int m = 0; m < 4; m++) {
			snprintf(mid, sizeof mid, "consumer-%d-%d-%08x", m, generation[g], (unsigned)(g * 2654435761u));
			lt_member *mb = group_add_member(gr, mid, "scale-consumer", "/127.0.0.1");
			for (int p = m * 8; p < m * 8 + 8; p++)
				member_add_assignment(mb, topic, p);
		}
		for (int p = 0; p < PARTS; p++) {
			lt_partition *pp = group_add_partition(gr, topic, p);
			int64_t e = log_end[g % TOPICS][p];
			int64_t l = lag[g][p] + (int64_t)((urand() - 0.5) * rate[g % TOPICS][p] * 2);
			if (l < 0)
				l = 0;
			lag[g][p] = l;
			pp->log_start = 0;
			pp->log_end = e;
			pp->committed = e - l > 0 ? e - l : 0;
		}
	}
	snapshot_finish(s);
	model_enrich(h, s);
	return s;
}

/* One fresh reader reaching record i: wall and CPU ms; -1 when it cannot. */
static int reach(const char *path, size_t i, double *wall, double *cpu)
{
	char err[256];
	rec_reader *r = rec_reader_open(path, err, sizeof err);
	if (!r) {
		fprintf(stderr, "bench_record: %s\n", err);
		return -1;
	}
	double t0 = wall_ms(), u0 = cpu_ms();
	lt_snapshot *s = rec_reader_get(r, i, err, sizeof err);
	*wall = wall_ms() - t0;
	*cpu = cpu_ms() - u0;
	rec_reader_close(r);
	if (!s) {
		fprintf(stderr, "bench_record: %s\n", err);
		return -1;
	}
	snapshot_unref(s);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Decoding in order (a replay playing), and reaching moments from a fresh reader each time (nothing decoded
 * yet). The CPU time too: on a shared machine the wall time measures the neighbours as well. */
static int read_measures(const char *path)
{
	char err[256];
	rec_reader *r = rec_reader_open(path, err, sizeof err);
	if (!r) {
		fprintf(stderr, "bench_record: %s\n", err);
		return 1;
	}
	size_t nr = rec_reader_count(r);
	double u0 = cpu_ms();
	for (size_t i = 0; i < nr; i++) {
		lt_snapshot *s = rec_reader_get(r, i, err, sizeof err);
		if (!s) {
			fprintf(stderr, "bench_record: %s\n", err);
			return 1;
		}
		snapshot_unref(s);
	}
	printf("read_records=%zu\n", nr);
	printf("decode_cpu_ms_per_record=%.2f\n", (cpu_ms() - u0) / (double)nr);
	/* the worst moments: the record before each keyframe (and the last), every record of an interval */
	size_t worst_at[64], n_worst = 0;
	for (size_t i = 1; i <= nr && n_worst < 64; i++)
		if (i == nr || rec_reader_is_keyframe(r, i))
			worst_at[n_worst++] = i - 1;
	rec_reader_close(r);
	double times[40], cpus[40], worst = 0, worst_cpu = 0;
	int k = 0;
	for (; k < 40; k++)
		if (reach(path, (size_t)(urand() * (double)nr), &times[k], &cpus[k]) != 0)
			return 1;
	for (size_t w = 0; w < n_worst; w++) {
		double t, c;
		if (reach(path, worst_at[w], &t, &c) != 0)
			return 1;
		worst = t > worst ? t : worst;
		worst_cpu = c > worst_cpu ? c : worst_cpu;
	}
	for (int i = 0; i < k; i++) {
		worst = times[i] > worst ? times[i] : worst;
		worst_cpu = cpus[i] > worst_cpu ? cpus[i] : worst_cpu;
	}
	qsort(times, (size_t)k, sizeof times[0], cmp_double);
	qsort(cpus, (size_t)k, sizeof cpus[0], cmp_double);
	printf("seek_ms_median=%.1f\n", times[k / 2]);
	printf("seek_ms_max=%.1f\n", worst);
	printf("seek_cpu_ms_median=%.1f\n", cpus[k / 2]);
	printf("seek_cpu_ms_max=%.1f\n", worst_cpu);
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 720;
	char path[256];
	bool keep_file = argc > 2 && strcmp(argv[2], "-") != 0;
	snprintf(path, sizeof path, "%s", keep_file ? argv[2] : "/tmp/lagtop-bench-record.rec");
	if (argc == 3 && strcmp(argv[1], "--read") == 0)
		return read_measures(argv[2]);
	rec_writer_opts o = { .keyframe_every = argc > 3 ? (unsigned)atoi(argv[3]) : 0,
			      .level = argc > 4 ? atoi(argv[4]) : 0 };
	for (int t = 0; t < TOPICS; t++)
		for (int p = 0; p < PARTS; p++) {
			rate[t][p] = urand() < 0.1 ? 0 : 1 + 399 * urand() * urand();
			log_end[t][p] = (int64_t)(urand() * 1e9);
		}
	lt_model_params mp;
	model_params_default(&mp);
	lt_history *h = history_new(&mp);
	char err[256];
	unlink(path);
	rec_writer *w = rec_writer_open(path, &o, err, sizeof err);
	if (!w) {
		fprintf(stderr, "bench_record: %s\n", err);
		return 1;
	}
	double model_cpu = 0, write_cpu = 0;
	for (int i = 0; i < n; i++) {
		double c0 = cpu_ms();
		lt_snapshot *s = next_snapshot(h, i);
		double c1 = cpu_ms();
		if (rec_writer_append(w, s, err, sizeof err) != 0) {
			fprintf(stderr, "bench_record: %s\n", err);
			return 1;
		}
		double c2 = cpu_ms();
		model_cpu += c1 - c0;
		write_cpu += c2 - c1;
		snapshot_unref(s);
	}
	uint64_t size = rec_writer_size(w);
	if (rec_writer_close(w, err, sizeof err) != 0) {
		fprintf(stderr, "bench_record: %s\n", err);
		return 1;
	}
	history_free(h);
	struct stat st;
	stat(path, &st);
	printf("records=%d\n", n);
	printf("partitions=%d\n", GROUPS * PARTS);
	printf("file_bytes=%lld\n", (long long)st.st_size);
	printf("bytes_per_record=%.0f\n", (double)size / n);
	printf("mb_per_day=%.1f\n", (double)size / n * 8640 / 1e6);
	printf("write_cpu_ms_per_record=%.2f\n", write_cpu / n);
	printf("build_and_model_cpu_ms_per_refresh=%.2f\n", model_cpu / n);

	if (read_measures(path) != 0)
		return 1;
	if (!keep_file)
		unlink(path);
	return 0;
}
