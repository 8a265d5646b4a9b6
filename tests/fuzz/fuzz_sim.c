/* fuzz_sim.c — libFuzzer harness for the simulated cluster's request decoding: the input is a byte
 * stream of length-prefixed Kafka request frames, run through broker 1's framing and dispatch path
 * (every API handler) by sim_feed(), without sockets. The cluster is the "fixture" scenario, built once;
 * requests may change it (commits, topics, records), as a real client's would. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static sim_cluster *sim;

static void cleanup(void)
{
	sim_free(sim);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!sim) {
		char err[256];
		struct sim_options o = { .brokers = 3, .scenario = "fixture" };
		sim = sim_new(&o, err, sizeof err);
		if (!sim) {
			fprintf(stderr, "fuzz_sim: %s\n", err);
			abort();
		}
		atexit(cleanup);
	}
	if (size > 1 << 20)
		return 0;
	(void)sim_feed(sim, 1, data, size);
	return 0;
}
