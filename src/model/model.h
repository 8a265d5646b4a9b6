/* model.h — the lag model: history rings and the derived values of a snapshot.
 *
 * The collector calls model_enrich() once per refresh, on the snapshot it has just built and
 * before publishing it. The model records the observed offsets in its rings (per group/topic/
 * partition: time, committed, log end; per topic/partition: time, log end) and fills every
 * "derived" field of the snapshot: lag, flags, rates, ETA, time lag, status, group aggregates,
 * trend. Pure C: no I/O, no clocks — time comes from the snapshot (taken_at_ms).
 *
 * Semantics: doc/RESET-SEMANTICS.md (status: Burrow's rules with the idle fix; time lag:
 * kafka-lag-exporter's interpolation); the lag rules are at lag_compute (lag.c).
 */
#ifndef LAGTOP_MODEL_MODEL_H
#define LAGTOP_MODEL_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

typedef struct lt_model_params {
	int64_t allowed_lag;           /* status OK while lag <= this (default 0: Burrow's default) */
	int64_t time_lag_threshold_ms; /* LT_PF_TIME_LAG_HIGH above this; 0 = never (default) */
	size_t window;                 /* samples in the status/rate window (default 10) */
	size_t ring_capacity;          /* log-end samples kept per partition (default 16, >= window, <= 256);
					  committed series keep window + 2 */
	size_t forget_after;           /* drop series not seen for this many refreshes (default 30) */
} lt_model_params;

void model_params_default(lt_model_params *p);

/* enrich.c — whether the group's largest time lag is an estimate: some partition with that time lag has
 * LT_PF_TIME_LAG_ESTIMATED (false when the group has none). */
bool group_max_time_lag_estimated(const lt_group *g);

/* lag.c — a group's sums and maxima over its partitions: total and largest lag, largest time lag, consume
 * rate; model_enrich's group aggregates, and the recordings' prediction of them (src/record/codec.c). */
typedef struct lt_group_totals {
	int64_t total_lag, max_lag; /* over the partitions with a lag; the total saturates */
	int64_t max_time_lag_ms;    /* over the partitions with a time lag; 0 when none has one */
	double consume_rate;        /* summed over the partitions with rates */
	bool any_lag, any_time_lag;
} lt_group_totals;

/* Adds one partition to t (which starts zeroed); group_totals adds n of them. */
void group_totals_add(lt_group_totals *t, const lt_partition *p);
lt_group_totals group_totals(const lt_partition *p, size_t n);

/* timelag.c — kafka-lag-exporter's time lag of committed offset c at time now over the log-end
 * points (t[i], e[i]), oldest first; false when they do not give one. Pure; also the recordings'
 * prediction of a partition's time lag (src/record/codec.c). */
bool timelag_compute(const int64_t *t, const int64_t *e, size_t n, int64_t committed, int64_t now, int64_t *out_ms);

/* status.c — a partition's status by the model's rule (status_compute_commits) over samples alone: (t[i],
 * c[i], e[i]) oldest first, the last one now's (at most the newest 256 are read), as the history would
 * hold them when every refresh was recorded. *idle: the log end did not move over the window. Also the
 * recordings' prediction of a partition's status (src/record/codec.c). */
lt_status status_from_samples(const int64_t *t, const int64_t *c, const int64_t *e, size_t n, size_t window,
			      int64_t allowed_lag, int64_t now, bool owned, bool has_lag, int64_t lag,
			      int64_t last_commit_ms, bool out_of_range, bool *idle);

/* status.c — "not committing", the one rule for the dashboard, --once, CSV, JSON and Prometheus: a consumer
 * whose position moves while its committed offset does not. The watch (src/position/commitwatch.c) keeps,
 * per partition, the position and time since which the committed offset has stood (since_ms, pos_then);
 * commit_seen: that time is a change of the committed offset lagtop saw, not merely when it started
 * watching. pos_now < 0: no position. The verdict is unknown until a whole window has been watched, unless
 * a commit was seen within it; window_ms <= 0 is LT_NOT_COMMITTING_DEFAULT_MS (not_committing_after). */
#define LT_NOT_COMMITTING_DEFAULT_MS (2 * 60 * 1000)
typedef enum { LT_NC_UNKNOWN, LT_NC_NO, LT_NC_YES } lt_not_committing;
lt_not_committing not_committing_rule(int64_t window_ms, int64_t since_ms, bool commit_seen, int64_t pos_then,
				      int64_t pos_now, int64_t committed, int64_t now);
/* The verdict the watch left on a partition (LT_PF_COMMITTING_KNOWN, LT_PF_NOT_COMMITTING), and a group's:
 * yes when any partition says yes, no when some partition says no and none yes, unknown when none has a
 * verdict. */
lt_not_committing partition_not_committing(const lt_partition *p);
lt_not_committing group_not_committing(const lt_group *g);

/* rates.c — ETA to catch up: lag / (consume − produce) when consuming faster than producing; false when
 * there is none. Also the recordings' prediction of a partition's ETA and has_eta (src/record/codec.c). */
bool eta_compute(int64_t lag, double consume, double produce, int64_t *eta_ms);

typedef struct lt_history lt_history;
struct lt_record_ts;

/* enrich.c — after the collector put the records it read into the history's record_ts (record_ts.h): every
 * partition of s whose time lag was estimated (or unknown) and whose record at the committed offset is now
 * known gets the exact time lag (now minus the record's timestamp, LT_PF_TIME_LAG_ESTIMATED cleared); the
 * groups' largest time lags follow. */
void model_apply_record_ts(lt_history *h, lt_snapshot *s);
/* From now on the history keeps record timestamps (record_ts.h) and model_enrich wants the records it needs;
 * without this call (the demo's recordings, the bench's model) every such time lag stays estimated. */
void history_read_records(lt_history *h);
/* The history's record timestamps, NULL before history_read_records. */
struct lt_record_ts *history_record_ts(lt_history *h);

lt_history *history_new(const lt_model_params *p);
void history_free(lt_history *h);

/* Not thread-safe: the caller serialises model_enrich and history_partition_lags on one history.
 *
 * Record s's observed offsets (at s->taken_at_ms) and fill all derived fields of s. Partitions
 * flagged LT_PF_STALE are not recorded (their numbers are last round's) but are still derived. */
void model_enrich(lt_history *h, lt_snapshot *s);

/* Lag history of one partition, oldest first, for the detail popup's sparkline (up to window + 2
 * values). Returns the number of values written (at most max); unknown lags are skipped. */
size_t history_partition_lags(const lt_history *h, const char *group, const char *topic, int32_t partition,
			      int64_t *out, size_t max);

#endif
