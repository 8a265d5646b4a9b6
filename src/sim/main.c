/* lagtop-sim — the simulated Kafka cluster as a program, for tests, benchmarks and trying lagtop out.
 *
 * Prints exactly one line "ready bootstrap=..." on stdout once every broker listens; runs until
 * SIGTERM/SIGINT; prints the request counts per API as one JSON line on stderr at exit and on SIGUSR1.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/sim.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: lagtop-sim [--brokers N] [--port P] [--scenario NAME] [--groups N] [--partitions P]\n"
		"                  [--topics T] [--seed S] [--auto-create-partitions N]\n"
		"                  [--group-min-session-timeout MS] [--group-initial-rebalance-delay MS]\n"
		"                  [--fault-broker N] [--latency-ms MS] [--latency-api KEY] [--error-rate P]\n"
		"                  [--error-code NAME] [--error-api KEY] [--drop-rate P] [--offsets-retention-minutes "
		"N]\n"
		"                  [--offsets-retention-check-interval-ms MS] [--retention-ms MS] [--retention-bytes "
		"N]\n"
		"                  [--log-retention-check-interval-ms MS] [--offsets-segment-bytes N]\n"
		"                  [--offsets-delete-retention-ms MS] [--deny-offsets-topic] [--kafka-version "
		"4|3.9|3.6]\n"
		"                  [--metrics-port P]\n"
		"A simulated Kafka cluster on 127.0.0.1, for lagtop's demo, tests and benchmarks (not a Kafka).\n"
		"  --brokers N      brokers, listening on consecutive ports (default 3)\n"
		"  --port P         first port; 0 picks free ports (default 0)\n"
		"  --scenario NAME  %s (default empty)\n"
		"  --groups N, --partitions P, --topics T   sizes of the scale scenario\n"
		"  --seed S         randomness of the scenarios\n"
		"  --metrics-port P  serve the simulated consumers' positions on http://127.0.0.1:P/metrics\n"
		"                   (Prometheus text, JMX exporter names; 0: a free port; printed as 'metrics "
		"url=...')\n"
		"  --auto-create-partitions N   partitions of topics created on first use (default 1; 0: never "
		"create)\n"
		"  --group-min-session-timeout MS, --group-initial-rebalance-delay MS\n"
		"                   group coordinator settings (defaults 6000 as Kafka, and 0)\n"
		"  --offsets-retention-minutes N   offsets.retention.minutes: committed offsets expire by Kafka's "
		"rule\n"
		"                   (default 10080)\n"
		"  --offsets-retention-check-interval-ms MS   how often they expire (default 600000, as Kafka)\n"
		"  --retention-ms MS   log.retention.ms of the topics (default 604800000, the demo's topics 45 min;\n"
		"                   -1: no time limit)\n"
		"  --retention-bytes N   log.retention.bytes per partition (default -1: no size limit)\n"
		"  --log-retention-check-interval-ms MS   how often retention and compaction run (default 300000)\n"
		"  --offsets-segment-bytes N   __consumer_offsets' active segment, never compacted (default 262144)\n"
		"  --offsets-delete-retention-ms MS   how long compaction keeps tombstones (default 86400000)\n"
		"  --kafka-version V  serve the API versions of Kafka 4.x (4, the default) or 3.9 (3.9: the old\n"
		"                   versions Kafka 4.0 removed, KIP-896); 3.6: a broker before KIP-848 (3.9's\n"
		"                   versions without ConsumerGroupDescribe, ListGroups up to v4)\n"
		"Fault injection (on every broker, or only on --fault-broker N):\n"
		"  --latency-ms MS  hold back every answer this long\n"
		"  --latency-api KEY  only the answers of this API key (e.g. 32 for DescribeConfigs)\n"
		"  --error-rate P   answer this share (0..1) of the group coordinator requests with --error-code\n"
		"  --error-code NAME  %s\n"
		"                   (default COORDINATOR_NOT_AVAILABLE)\n"
		"  --error-api KEY  only into answers of this API key (e.g. 15 for DescribeGroups)\n"
		"  --drop-rate P    cut this share (0..1) of answers in the middle and close the connection\n"
		"  --deny-offsets-topic  answer Metadata for __consumer_offsets with TOPIC_AUTHORIZATION_FAILED\n"
		"  (SIGSTOP freezes the whole cluster; SIGCONT thaws it.)\n"
		"Prints 'ready bootstrap=HOST:PORT,...' when listening;\n"
		"SIGUSR1 (and exit) prints the request counts per API as JSON on stderr.\n",
		sim_scenario_names(), sim_error_code_names());
}

static int parse_rate(const char *flag, const char *v, double *out)
{
	char *end;
	errno = 0;
	double d = v ? strtod(v, &end) : 0;
	if (!v || errno || *end || end == v || !(d >= 0 && d <= 1)) {
		fprintf(stderr, "lagtop-sim: %s needs a share from 0 to 1, got '%s'\n", flag, v ? v : "");
		return -1;
	}
	*out = d;
	return 0;
}

static int parse_int(const char *flag, const char *v, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long n = v ? strtol(v, &end, 10) : 0;
	if (!v || errno || *end || end == v || n < lo || n > hi) {
		fprintf(stderr, "lagtop-sim: %s needs a number from %ld to %ld, got '%s'\n", flag, lo, hi, v ? v : "");
		return -1;
	}
	*out = n;
	return 0;
}

int main(int argc, char **argv)
{
	struct sim_options o = { .brokers = 3, .port = 0, .scenario = "empty" };
	long fault_broker = 0, latency_ms = 0, latency_api = -1, error_api = -1;
	double error_rate = 0, drop_rate = 0;
	int16_t error_code = 15; /* COORDINATOR_NOT_AVAILABLE */
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		long n;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(a, "--scenario") == 0) {
			if (!v) {
				fprintf(stderr, "lagtop-sim: --scenario needs a name (%s)\n", sim_scenario_names());
				return 2;
			}
			if (!sim_scenario_known(v)) {
				fprintf(stderr, "lagtop-sim: unknown scenario '%s' (%s)\n", v, sim_scenario_names());
				return 2;
			}
			o.scenario = v;
		} else if (strcmp(a, "--brokers") == 0) {
			if (parse_int(a, v, 1, 64, &n) < 0)
				return 2;
			o.brokers = (int)n;
		} else if (strcmp(a, "--port") == 0) {
			if (parse_int(a, v, 0, 65535, &n) < 0)
				return 2;
			o.port = (int)n;
		} else if (strcmp(a, "--groups") == 0) {
			if (parse_int(a, v, 1, 1000000, &n) < 0)
				return 2;
			o.groups = (int)n;
		} else if (strcmp(a, "--partitions") == 0) {
			if (parse_int(a, v, 1, 10000, &n) < 0)
				return 2;
			o.partitions = (int)n;
		} else if (strcmp(a, "--topics") == 0) {
			if (parse_int(a, v, 1, 100000, &n) < 0)
				return 2;
			o.topics = (int)n;
		} else if (strcmp(a, "--seed") == 0) {
			if (parse_int(a, v, 0, LONG_MAX, &n) < 0)
				return 2;
			o.seed = (uint64_t)n;
		} else if (strcmp(a, "--auto-create-partitions") == 0) {
			if (parse_int(a, v, 0, 10000, &n) < 0)
				return 2;
			o.auto_create_partitions = n ? (int)n : -1;
		} else if (strcmp(a, "--group-min-session-timeout") == 0) {
			if (parse_int(a, v, 1, 1800000, &n) < 0)
				return 2;
			o.group_min_session_timeout_ms = (int)n;
		} else if (strcmp(a, "--group-initial-rebalance-delay") == 0) {
			if (parse_int(a, v, 0, 300000, &n) < 0)
				return 2;
			o.group_initial_rebalance_delay_ms = (int)n;
		} else if (strcmp(a, "--offsets-retention-minutes") == 0) {
			if (parse_int(a, v, 1, 1000000000, &n) < 0)
				return 2;
			o.offsets_retention_minutes = (int)n;
		} else if (strcmp(a, "--offsets-retention-check-interval-ms") == 0) {
			if (parse_int(a, v, 1, LONG_MAX, &n) < 0)
				return 2;
			o.offsets_retention_check_interval_ms = n;
		} else if (strcmp(a, "--retention-ms") == 0) {
			if (parse_int(a, v, -1, LONG_MAX, &n) < 0)
				return 2;
			o.log_retention_ms = n;
			o.log_retention_ms_set = true;
		} else if (strcmp(a, "--retention-bytes") == 0) {
			if (parse_int(a, v, -1, LONG_MAX, &n) < 0)
				return 2;
			o.log_retention_bytes = n;
		} else if (strcmp(a, "--log-retention-check-interval-ms") == 0) {
			if (parse_int(a, v, 1, LONG_MAX, &n) < 0)
				return 2;
			o.log_retention_check_interval_ms = n;
		} else if (strcmp(a, "--offsets-segment-bytes") == 0) {
			if (parse_int(a, v, 1, LONG_MAX, &n) < 0)
				return 2;
			o.offsets_segment_bytes = n;
		} else if (strcmp(a, "--offsets-delete-retention-ms") == 0) {
			if (parse_int(a, v, 0, LONG_MAX, &n) < 0)
				return 2;
			o.offsets_delete_retention_ms = n;
		} else if (strcmp(a, "--kafka-version") == 0) {
			if (v && (strcmp(v, "4") == 0 || strncmp(v, "4.", 2) == 0)) {
				o.kafka_major = 4;
			} else if (v && strcmp(v, "3.9") == 0) {
				o.kafka_major = 3;
				o.kafka_minor = 9;
			} else if (v && strcmp(v, "3.6") == 0) {
				o.kafka_major = 3;
				o.kafka_minor = 6;
			} else {
				fprintf(stderr, "lagtop-sim: --kafka-version needs 4 (4.x), 3.9 or 3.6, got '%s'\n",
					v ? v : "");
				return 2;
			}
		} else if (strcmp(a, "--metrics-port") == 0) {
			long port;
			if (parse_int(a, v, 0, 65535, &port) < 0)
				return 2;
			o.metrics = true;
			o.metrics_port = (int)port;
		} else if (strcmp(a, "--deny-offsets-topic") == 0) {
			o.deny_offsets_topic = true;
			i--; /* takes no value */
		} else if (strcmp(a, "--fault-broker") == 0) {
			if (parse_int(a, v, 0, 64, &fault_broker) < 0)
				return 2;
		} else if (strcmp(a, "--latency-ms") == 0) {
			if (parse_int(a, v, 0, 3600000, &latency_ms) < 0)
				return 2;
		} else if (strcmp(a, "--latency-api") == 0) {
			if (parse_int(a, v, 0, 32767, &latency_api) < 0)
				return 2;
		} else if (strcmp(a, "--error-api") == 0) {
			if (parse_int(a, v, 0, 32767, &error_api) < 0)
				return 2;
		} else if (strcmp(a, "--error-rate") == 0) {
			if (parse_rate(a, v, &error_rate) < 0)
				return 2;
		} else if (strcmp(a, "--drop-rate") == 0) {
			if (parse_rate(a, v, &drop_rate) < 0)
				return 2;
		} else if (strcmp(a, "--error-code") == 0) {
			if (!v || sim_error_code_parse(v, &error_code) < 0) {
				fprintf(stderr, "lagtop-sim: --error-code needs one of %s, got '%s'\n",
					sim_error_code_names(), v ? v : "");
				return 2;
			}
		} else {
			fprintf(stderr, "lagtop-sim: unknown option '%s' (try --help)\n", a);
			return 2;
		}
		i++;
	}

	/* The loop thread inherits this mask, so signals are only ever taken by sigwait() below. */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);

	char err[256];
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	sim_cluster *sim = sim_new(&o, err, sizeof(err));
	if (!sim) {
		fprintf(stderr, "lagtop-sim: %s\n", err);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if ((latency_ms && (sim_fault_latency(sim, (int)fault_broker, (int)latency_ms, err, sizeof(err)) < 0 ||
			    sim_fault_latency_api(sim, (int)fault_broker, (int)latency_api, err, sizeof(err)) < 0)) ||
	    (error_rate > 0 && sim_fault_errors(sim, (int)fault_broker, error_code, (int)error_api, error_rate, 0, err,
						sizeof(err)) < 0) ||
	    (drop_rate > 0 && sim_fault_drop_rate(sim, (int)fault_broker, drop_rate, err, sizeof(err)) < 0)) {
		fprintf(stderr, "lagtop-sim: %s\n", err);
		sim_free(sim);
		return 2;
	}
	if (sim_start(sim) < 0) {
		sim_free(sim);
		return 1;
	}
	size_t nt, np, ng, nc;
	sim_sizes(sim, &nt, &np, &ng, &nc);
	fprintf(stderr,
		"lagtop-sim: scenario %s: %zu topics, %zu partitions, %zu groups, %zu committed offsets, built in %.3f "
		"s\n",
		o.scenario, nt, np, ng, nc, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	if (o.metrics)
		printf("metrics url=http://127.0.0.1:%d/metrics\n", sim_metrics_port_of(sim));
	printf("ready bootstrap=%s\n", sim_bootstrap(sim));
	fflush(stdout);

	for (;;) {
		int sig = 0;
		if (sigwait(&set, &sig) != 0)
			continue;
		if (sig == SIGUSR1) {
			char *j = sim_counts_json(sim, false);
			fprintf(stderr, "%s\n", j);
			free(j);
			continue;
		}
		break;
	}
	char *j = sim_counts_json(sim, false);
	sim_free(sim);
	fprintf(stderr, "%s\n", j);
	free(j);
	return 0;
}
