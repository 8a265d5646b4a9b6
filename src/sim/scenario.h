/* scenario.h — canned cluster contents: "empty", "demo" (live traffic for a dashboard), "scale" (benchmarks). */
#ifndef LAGTOP_SIM_SCENARIO_H
#define LAGTOP_SIM_SCENARIO_H

#include "sim/server.h"
#include "sim/sim.h"

struct sim_scenario;

/* Fills the state; "demo" also arms a loop timer that produces and consumes every second. */
struct sim_scenario *sim_scenario_build(struct sim_server *srv, const struct sim_options *opt, char *err,
					size_t errlen);
void sim_scenario_free(struct sim_scenario *scn);
/* The position the scenario gave a group's member on a partition (the "demo" sets them; false elsewhere:
 * the metrics endpoint then takes the committed offset). Lock held. */
bool sim_scenario_position(const struct sim_scenario *scn, const char *group, const char *topic, int32_t p,
			   int64_t *offset);

#endif
