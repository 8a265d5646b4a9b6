/* housekeeping.h — the broker's periodic work in the simulated cluster, on the server's timers:
 * offset expiry every offsets.retention.check.interval.ms (offsets_expiry.h), log retention by time and
 * size every log.retention.check.interval.ms, and the compaction of __consumer_offsets
 * (record_store.h). Started by sim_new(); the timers run under the cluster mutex like any handler.
 */
#ifndef LAGTOP_SIM_HOUSEKEEPING_H
#define LAGTOP_SIM_HOUSEKEEPING_H

#include <stdint.h>

struct sim_server;

void sim_housekeeping_start(struct sim_server *srv);

/* One pass of each job at wall time now_ms, whatever the timers say (tests, and the timers themselves). */
void sim_housekeeping_expire_offsets(struct sim_server *srv, int64_t now_ms);
void sim_housekeeping_logs(struct sim_server *srv, int64_t now_ms);

#endif
