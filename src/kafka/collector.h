/* collector.h — the background refresh loop: one librdkafka admin handle, one snapshot per refresh.
 *
 * The collector thread owns the librdkafka handle. Each refresh does a few batched round trips
 * (ListConsumerGroups; DescribeConsumerGroups for many groups at once; ListConsumerGroupOffsets, one
 * group per call but all in flight on one queue; offsets_for_times with -2 and -1 for every
 * partition, one ListOffsets per leader), builds a snapshot, runs model_enrich() on it and publishes
 * it, then makes the wake fd readable. The UI thread never calls librdkafka: it poll()s the wake fd
 * and takes the newest snapshot with collector_latest().
 *
 * A group whose describe or offsets fail keeps its previous data, marked stale with its age and the
 * error (LT_PF_STALE, lt_group.stale_ms, lt_group.error).
 */
#ifndef LAGTOP_KAFKA_COLLECTOR_H
#define LAGTOP_KAFKA_COLLECTOR_H

#include <stdbool.h>
#include <stddef.h>

#include "config/connection.h"
#include "model/model.h"
#include "model/snapshot.h"
#include "position/sources.h"

struct lt_collector_conf {
	const struct lt_connection *conn; /* the cluster: its name (shown in the top bar), bootstrap servers and
					   * librdkafka properties; needed only by collector_new */
	size_t n_group_regex;             /* keep only groups matching any of these (none: all) */
	const char *const *group_regex;
	size_t n_group_exclude; /* then drop groups matching any of these */
	const char *const *group_exclude;
	size_t n_extra_groups; /* groups to describe even if ListGroups omits them */
	const char *const *extra_groups;
	int interval_ms; /* between refreshes */
	int timeout_ms;  /* per refresh; a refresh that takes longer is cut short */
	lt_model_params model;
	bool commit_stream;        /* read __consumer_offsets for commit times (commit_snapshot.h) */
	bool commit_epochs;        /* keep the commits' leader epochs (lt_commit_epoch; librdkafka >= 2.1) */
	int64_t expiry_horizon_ms; /* warn when offsets expire sooner; <= 0: the default (3 days) */
	bool one_shot;             /* --once: the commit stream only loads its history (commit_reader_start_once) */
	bool no_record_reads;      /* no time lag from records (record_peek.h): for modes that show no time lag */
	int log_start_max_age_ms;  /* log starts read less than this ago are not asked again (log_starts.h); 0: every
				    * refresh asks */
	const lt_pos_sources_conf
		*positions; /* consumers' position sources (metrics endpoints, statistics files); NULL or none: off */
};

typedef struct lt_collector lt_collector;

/* Creates the librdkafka handle (properties validated here: err names the bad key). No thread yet. */
lt_collector *collector_new(const struct lt_collector_conf *conf, char *err, size_t errlen);

/* Synchronous refresh in the caller's thread, for --once and resets (no background thread).
 * Returns 0 and a new snapshot (caller unrefs), or -1 with err when the cluster is unreachable. */
int collector_refresh_once(lt_collector *c, lt_snapshot **out, char *err, size_t errlen);

/* Starts the background thread; the first refresh begins at once. */
int collector_start(lt_collector *c, char *err, size_t errlen);

/* Readable when a new snapshot has been published; collector_ack() drains it. */
int collector_wake_fd(const lt_collector *c);
void collector_ack(lt_collector *c);

/* The newest published snapshot with a new reference (caller unrefs), NULL before the first. */
lt_snapshot *collector_latest(lt_collector *c);

/* Partition lag history for the detail popup (copied under the collector's lock). */
size_t collector_partition_lags(lt_collector *c, const char *group, const char *topic, int32_t partition, int64_t *out,
				size_t max);

/* Controls, safe from any thread; they take effect at the next loop pass. */
void collector_refresh_now(lt_collector *c);
void collector_set_interval(lt_collector *c, int interval_ms);
void collector_set_paused(lt_collector *c, bool paused);
bool collector_busy(lt_collector *c);                  /* a refresh is in progress */
int64_t collector_refresh_started_ms(lt_collector *c); /* wall clock start of the current/last refresh */

/* For --once, whose single refresh comes right after the reader started: waits (at most timeout_ms)
 * until the reader has loaded the history of __consumer_offsets and has the broker's
 * offsets.retention.minutes (or failed to get it), then copies the commit-stream fields into s again.
 * s must not be shared with another thread yet. Returns at once when the stream is off. */
void collector_complete_commit_stream(lt_collector *c, lt_snapshot *s, int timeout_ms);

/* What the last refresh read for the time lag (record_peek.h): records asked, read with a timestamp, ms. */
void collector_peek_stats(lt_collector *c, size_t *asked, size_t *read, int64_t *ms);

/* Stops and joins the thread (if started), destroys the handle. */
void collector_free(lt_collector *c);

#endif
