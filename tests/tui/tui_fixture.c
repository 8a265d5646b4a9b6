/* tui_fixture.c — a simulated cluster with a fixed picture for the terminal tests: known groups,
 * lags and members, and one group id holding an escape sequence. Prints `ready bootstrap=...` like
 * lagtop-sim; SIGUSR2 changes the lags (so a refresh re-sorts the rows); SIGUSR1 turns a 3 s delay of
 * every answer on or off (a slow cluster: the reset dialog's work must not block the UI); SIGTERM/SIGINT
 * stop it.
 *
 *   group                 members  partitions                    lag
 *   shipping              1        payments 0,1 (100 of 500)     800
 *   billing               2        orders 0-3 (900 of 1000)      400   (after SIGUSR2 the top: shipping -> 100)
 *   evil<ESC>[31mred      0        audit 0 (50 of 100)            50
 *   audit-log             1        audit 0 (99 of 100)             1
 *   analytics             0        orders 0-3 (1000 of 1000)       0
 * With TUI_FIXTURE_CROWD=1 in the environment, one more (test_reset_wrap.sh):
 *   crowd                 20       payments 0 (400 of 500)       100   (members crowd-consumer-00..19)
 */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/sim.h"

#include "../lib/lagtop_test.h"

#define CHECK(call)                                                                                                    \
	do {                                                                                                           \
		if ((call) != 0) {                                                                                     \
			fprintf(stderr, "tui_fixture: %s: %s\n", #call, err);                                          \
			return 1;                                                                                      \
		}                                                                                                      \
	} while (0)

static int add_member(sim_cluster *sim, const char *group, const char *client, const char *host, const char *topic,
		      const int32_t *parts, int n, char *err, size_t errlen)
{
	struct sim_member_assignment a = { topic, parts, n };
	struct sim_member_spec spec = { .client_id = client, .client_host = host, .assignment = &a, .nassignment = 1 };
	char id[256];
	return sim_add_member(sim, group, &spec, id, sizeof id, err, errlen);
}

int main(void)
{
	char err[512] = "";
	struct sim_options so = { .brokers = 1, .port = 0, .scenario = "empty" };
	sigset_t set;
	test_block_fixture_signals(&set); /* before the sim's thread, which inherits the mask */

	sim_cluster *sim = sim_new(&so, err, sizeof err);
	if (!sim) {
		fprintf(stderr, "tui_fixture: %s\n", err);
		return 1;
	}
	int64_t now = (int64_t)time(NULL) * 1000;
	CHECK(sim_create_topic(sim, "orders", 4, err, sizeof err));
	CHECK(sim_create_topic(sim, "payments", 2, err, sizeof err));
	CHECK(sim_create_topic(sim, "audit", 1, err, sizeof err));
	for (int p = 0; p < 4; p++)
		CHECK(sim_append(sim, "orders", p, 1000, now - 1000 * 1000, 1000, err, sizeof err));
	for (int p = 0; p < 2; p++)
		CHECK(sim_append(sim, "payments", p, 500, now - 500 * 1000, 1000, err, sizeof err));
	CHECK(sim_append(sim, "audit", 0, 100, now - 100 * 1000, 1000, err, sizeof err));

	const int32_t p01[] = { 0, 1 }, p23[] = { 2, 3 }, p0[] = { 0 };
	CHECK(add_member(sim, "billing", "billing-1", "/10.0.0.1", "orders", p01, 2, err, sizeof err));
	CHECK(add_member(sim, "billing", "billing-2", "/10.0.0.2", "orders", p23, 2, err, sizeof err));
	CHECK(add_member(sim, "shipping", "shipper", "/10.0.0.3", "payments", p01, 2, err, sizeof err));
	CHECK(add_member(sim, "audit-log", "auditor", "/10.0.0.4", "audit", p0, 1, err, sizeof err));
	for (int p = 0; p < 4; p++) {
		CHECK(sim_commit(sim, "billing", "orders", p, 900, NULL, err, sizeof err));
		CHECK(sim_commit(sim, "analytics", "orders", p, 1000, NULL, err, sizeof err));
	}
	for (int p = 0; p < 2; p++)
		CHECK(sim_commit(sim, "shipping", "payments", p, 100, NULL, err, sizeof err));
	CHECK(sim_commit(sim, "audit-log", "audit", 0, 99, NULL, err, sizeof err));
	CHECK(sim_commit(sim, "evil\x1b[31mred", "audit", 0, 50, NULL, err, sizeof err));
	if (getenv("TUI_FIXTURE_CROWD")) {
		/* a group whose refusal is longer than the reset dialog's box */
		for (int i = 0; i < 20; i++) {
			char client[32], host[32];
			snprintf(client, sizeof client, "crowd-consumer-%02d", i);
			snprintf(host, sizeof host, "/10.0.1.%d", i);
			CHECK(add_member(sim, "crowd", client, host, "payments", p0, 1, err, sizeof err));
		}
		CHECK(sim_commit(sim, "crowd", "payments", 0, 400, NULL, err, sizeof err));
	}

	if (sim_start(sim) != 0) {
		fprintf(stderr, "tui_fixture: cannot start the loop\n");
		sim_free(sim);
		return 1;
	}
	printf("ready bootstrap=%s\n", sim_bootstrap(sim));
	fflush(stdout);

	bool slow = false;
	for (;;) {
		int sig;
		if (sigwait(&set, &sig) != 0)
			break;
		if (sig == SIGUSR1) {
			slow = !slow;
			if (sim_broker_set_latency(sim, 1, slow ? 3000 : 0, err, sizeof err) != 0)
				fprintf(stderr, "tui_fixture: latency: %s\n", err);
			continue;
		}
		if (sig != SIGUSR2)
			break;
		for (int p = 0; p < 2; p++)
			sim_commit(sim, "shipping", "payments", p, 450, NULL, err, sizeof err);
	}
	sim_stop(sim);
	sim_free(sim);
	return 0;
}
