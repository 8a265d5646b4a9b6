/* sim_churn.c — bench/lagtop-sim-churn: the simulated cluster with the scale scenario and a steady churn,
 * for the soak benchmark (bench/soak.py, doc/PERFORMANCE.md). One process, so its RSS, CPU, fds and
 * threads are the simulated cluster's own.
 *
 *   lagtop-sim-churn [--groups G --partitions P --topics T --brokers B] [--seed S]
 *                    [--retention-ms MS] [--log-retention-check-interval-ms MS] [--offsets-segment-bytes N]
 *                    [--offsets-retention-check-interval-ms MS] [--restart-every S] [--restart-for S]
 *
 * Prints "ready bootstrap=..." and then, once a second until stdin closes or SIGTERM:
 *   - production: 10 records on each of 20 random partitions;
 *   - commits: 20 random groups commit one partition each, a little behind its log end;
 *   - membership: every 5 s a member joins one of the Empty groups (every fifth: scale-group-00000,
 *     -00005, ...; never -00010, which the soak driver resets) and the one that joined before leaves;
 *   - a broker restart: every --restart-every seconds (default 120) broker 2 stops for --restart-for
 *     (default 10) seconds.
 * On exit it prints what it did on stderr.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim/sim.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static long num(const char *flag, const char *v, long lo, long hi)
{
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno || *end || end == v || n < lo || n > hi) {
		fprintf(stderr, "lagtop-sim-churn: %s needs a number from %ld to %ld, got '%s'\n", flag, lo, hi, v);
		exit(2);
	}
	return n;
}

static uint64_t rng = 88172645463325252ULL;

static long rnd(long n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (long)(rng % (uint64_t)n);
}

static int64_t wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	struct sim_options o = { .brokers = 3, .scenario = "scale", .groups = 1000, .partitions = 32, .topics = 100 };
	long restart_every = 120, restart_for = 10;
	static const struct option opts[] = {
		{ "groups", required_argument, NULL, 'g' },
		{ "partitions", required_argument, NULL, 'p' },
		{ "topics", required_argument, NULL, 't' },
		{ "brokers", required_argument, NULL, 'b' },
		{ "seed", required_argument, NULL, 's' },
		{ "retention-ms", required_argument, NULL, 'r' },
		{ "log-retention-check-interval-ms", required_argument, NULL, 'c' },
		{ "offsets-segment-bytes", required_argument, NULL, 'o' },
		{ "offsets-retention-check-interval-ms", required_argument, NULL, 'e' },
		{ "restart-every", required_argument, NULL, 'R' },
		{ "restart-for", required_argument, NULL, 'F' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'g': o.groups = (int)num("--groups", optarg, 15, 1000000); break;
		case 'p': o.partitions = (int)num("--partitions", optarg, 1, 10000); break;
		case 't': o.topics = (int)num("--topics", optarg, 1, 100000); break;
		case 'b': o.brokers = (int)num("--brokers", optarg, 2, 64); break;
		case 's': o.seed = (uint64_t)num("--seed", optarg, 0, 1L << 40); break;
		case 'r': o.log_retention_ms = num("--retention-ms", optarg, 1, 1L << 40); break;
		case 'c':
			o.log_retention_check_interval_ms =
				num("--log-retention-check-interval-ms", optarg, 1, 1L << 40);
			break;
		case 'o': o.offsets_segment_bytes = num("--offsets-segment-bytes", optarg, 1, 1L << 40); break;
		case 'e':
			o.offsets_retention_check_interval_ms =
				num("--offsets-retention-check-interval-ms", optarg, 1, 1L << 40);
			break;
		case 'R': restart_every = num("--restart-every", optarg, 0, 1L << 30); break;
		case 'F': restart_for = num("--restart-for", optarg, 1, 1L << 30); break;
		default:
			fprintf(stderr,
				"usage: lagtop-sim-churn [--groups G] [--partitions P] [--topics T] [--brokers B] "
				"[--seed S] [--retention-ms MS] [--log-retention-check-interval-ms MS] "
				"[--offsets-segment-bytes N] [--offsets-retention-check-interval-ms MS] "
				"[--restart-every S] [--restart-for S]\n");
			return 2;
		}
	}
	char err[512];
	sim_cluster *sim = sim_new(&o, err, sizeof err);
	if (!sim || sim_start(sim) != 0) {
		fprintf(stderr, "lagtop-sim-churn: %s\n", sim ? "the loop did not start" : err);
		sim_free(sim);
		return 1;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	printf("ready bootstrap=%s\n", sim_bootstrap(sim));
	fflush(stdout);

	unsigned long produced = 0, commits = 0, joins = 0, leaves = 0, restarts = 0, failures = 0;
	char joined_group[64] = "", joined_id[128] = "";
	int empty_groups = o.groups / 5;
	for (long tick = 1; !stop; tick++) {
		struct pollfd pfd = { .fd = 0, .events = POLLIN };
		if (poll(&pfd, 1, 1000) > 0) {
			char buf[64];
			if (read(0, buf, sizeof buf) <= 0)
				break; /* stdin closed: the driver is done */
		}
		int64_t now = wall_ms();
		char topic[64], group[64];
		for (int i = 0; i < 20; i++) {
			snprintf(topic, sizeof topic, "scale-topic-%03ld", rnd(o.topics));
			if (sim_append(sim, topic, (int)rnd(o.partitions), 10, now - 1000, 100, err, sizeof err) == 0)
				produced += 10;
			else
				failures++;
		}
		for (int i = 0; i < 20; i++) {
			long g = rnd(o.groups);
			if (g == 10)
				continue; /* the driver's reset target */
			snprintf(group, sizeof group, "scale-group-%05ld", g);
			snprintf(topic, sizeof topic, "scale-topic-%03ld", g % o.topics);
			int p = (int)rnd(o.partitions);
			int64_t ls, le;
			if (sim_get_offsets(sim, topic, p, &ls, &le, err, sizeof err) == 0 &&
			    sim_commit(sim, group, topic, p, le - rnd(100), "", err, sizeof err) == 0)
				commits++;
			else
				failures++;
		}
		if (tick % 5 == 0) {
			if (joined_group[0]) {
				if (sim_remove_member(sim, joined_group, joined_id, err, sizeof err) == 0)
					leaves++;
				else
					failures++;
				joined_group[0] = '\0';
			}
			long g = 5 * rnd(empty_groups);
			if (g != 10) {
				snprintf(joined_group, sizeof joined_group, "scale-group-%05ld", g);
				snprintf(topic, sizeof topic, "scale-topic-%03ld", g % o.topics);
				const char *topics[1] = { topic };
				int32_t parts[1] = { 0 };
				struct sim_member_assignment a = { topic, parts, 1 };
				struct sim_member_spec spec = { .client_id = "soak-churn",
								.topics = topics,
								.ntopics = 1,
								.assignment = &a,
								.nassignment = 1 };
				if (sim_add_member(sim, joined_group, &spec, joined_id, sizeof joined_id, err,
						   sizeof err) == 0)
					joins++;
				else {
					failures++;
					joined_group[0] = '\0';
				}
			}
		}
		if (restart_every > 0 && tick % restart_every == 0) {
			if (sim_broker_stop(sim, 2, err, sizeof err) == 0)
				restarts++;
		}
		if (restart_every > 0 && tick % restart_every == restart_for % restart_every)
			(void)sim_broker_start(sim, 2, err, sizeof err);
	}
	fprintf(stderr,
		"lagtop-sim-churn: produced %lu records, %lu commits, %lu joins, %lu leaves, %lu broker "
		"restarts, %lu failed calls\n",
		produced, commits, joins, leaves, restarts, failures);
	sim_free(sim);
	return 0;
}
