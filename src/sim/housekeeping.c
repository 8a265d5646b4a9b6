/* housekeeping.c — the broker's periodic work (see housekeeping.h). */
#include "sim/housekeeping.h"

#include "sim/api.h"
#include "sim/offsets_expiry.h"
#include "sim/record_store.h"
#include "sim/server.h"
#include "util/timeutil.h"

static int64_t logs_interval(const struct sim_state *st)
{
	return st->log_retention_check_interval_ms > 0 ? st->log_retention_check_interval_ms
						       : SIM_LOG_RETENTION_CHECK_INTERVAL_MS;
}

void sim_housekeeping_expire_offsets(struct sim_server *srv, int64_t now_ms)
{
	(void)sim_offsets_expire(srv->st, now_ms, NULL);
}

void sim_housekeeping_logs(struct sim_server *srv, int64_t now_ms)
{
	sim_logs_retention(srv->st, now_ms);
}

static void expiry_timer(struct sim_server *srv, void *arg)
{
	(void)arg;
	sim_housekeeping_expire_offsets(srv, now_wall_ms());
	(void)sim_timer_add(srv, now_mono_ms() + sim_offsets_retention_check_interval_ms(srv->st), expiry_timer, NULL);
}

static void logs_timer(struct sim_server *srv, void *arg)
{
	(void)arg;
	sim_housekeeping_logs(srv, now_wall_ms());
	(void)sim_timer_add(srv, now_mono_ms() + logs_interval(srv->st), logs_timer, NULL);
}

void sim_housekeeping_start(struct sim_server *srv)
{
	/* Kafka schedules the first offset cleanup one interval after the coordinator loads, and the first
	 * retention check after log.initial.task.delay.ms (30 s); the sim starts both one interval in. */
	(void)sim_timer_add(srv, now_mono_ms() + sim_offsets_retention_check_interval_ms(srv->st), expiry_timer, NULL);
	(void)sim_timer_add(srv, now_mono_ms() + logs_interval(srv->st), logs_timer, NULL);
}
