/* metrics.h — the sim's Prometheus endpoint: its simulated consumers publish their positions.
 *
 * `GET /metrics` (or `/`) on 127.0.0.1 answers, in Prometheus' text format and the JMX exporter's names for
 * the Java client's fetch-manager metrics, per member client id, topic and partition of every group's
 * assignment: kafka_consumer_fetch_manager_metrics_records_lead (position − log start) and
 * kafka_consumer_fetch_manager_metrics_records_lag (log end − position). The position is the scenario's
 * (sim_scenario_position), else the group's committed offset; NaN (as the Java client reports before its
 * first fetch) when neither is known. One thread, one connection at a time, HTTP/1.1 with Connection: close. */
#ifndef LAGTOP_SIM_METRICS_H
#define LAGTOP_SIM_METRICS_H

#include <stddef.h>

#include "sim/scenario.h"
#include "sim/server.h"

struct sim_metrics;

/* Listens on 127.0.0.1:port (0: a free port) and serves in a thread of its own. */
struct sim_metrics *sim_metrics_start(struct sim_server *srv, struct sim_scenario *scn, int port, char *err,
				      size_t errlen);
int sim_metrics_port(const struct sim_metrics *m);
void sim_metrics_stop(struct sim_metrics *m); /* joins the thread, closes the socket */
/* The page (malloc'd, NUL-terminated), srv->lock held. */
char *sim_metrics_page(struct sim_state *st, const struct sim_scenario *scn, size_t *len);

#endif
