/* faults_fixture.c — the cluster of the dashboard's fault tests: the hostile names of
 * tests/lib/hostile.h on 3 brokers, plus "plain-group" (topic "plain2", 4 partitions, lag 50 each).
 * Prints `ready bootstrap=...` and `coordinator=N` (plain-group's); SIGUSR1 stops that broker, SIGUSR2
 * starts it again; SIGTERM/SIGINT end. */
#include "config.h"

#include <signal.h>
#include <stdio.h>

#include "../lib/hostile.h"
#include "../lib/lagtop_test.h"

int main(void)
{
	char err[256];
	struct sim_options o = { .brokers = 3, .port = 0, .scenario = "empty" };
	sim_cluster *sim = sim_new(&o, err, sizeof err);
	if (!sim || hostile_build(sim, err, sizeof err) != 0 || sim_create_topic(sim, "plain2", 4, err, sizeof err)) {
		fprintf(stderr, "faults_fixture: %s\n", err);
		return 1;
	}
	for (int p = 0; p < 4; p++) {
		if (sim_append(sim, "plain2", p, 100, 1700000000000LL, 1000, err, sizeof err) ||
		    sim_commit(sim, "plain-group", "plain2", p, 50, NULL, err, sizeof err)) {
			fprintf(stderr, "faults_fixture: %s\n", err);
			return 1;
		}
	}
	sigset_t set;
	test_block_fixture_signals(&set);
	signal(SIGPIPE, SIG_IGN);
	if (sim_start(sim) < 0)
		return 1;
	int coord = sim_coordinator(sim, "plain-group");
	printf("ready bootstrap=%s\ncoordinator=%d\n", sim_bootstrap(sim), coord);
	fflush(stdout);
	for (;;) {
		int sig = 0;
		if (sigwait(&set, &sig) != 0)
			continue;
		if (sig == SIGUSR1 || sig == SIGUSR2) {
			int rc = sig == SIGUSR1 ? sim_broker_stop(sim, coord, err, sizeof err)
						: sim_broker_start(sim, coord, err, sizeof err);
			if (rc)
				fprintf(stderr, "faults_fixture: %s\n", err);
			continue;
		}
		break;
	}
	sim_free(sim);
	return 0;
}
