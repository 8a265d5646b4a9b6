/* topic_view.h — one snapshot's groups regrouped by topic: for every topic its partitions, produce
 * rate and the groups reading it with their lag on it; for every (topic, group) that group's lag,
 * time lag, rate and status on that topic. Pure C over an immutable snapshot (no I/O, no clock).
 *
 * The snapshot only holds partitions some group has offsets or assignments on, so a topic's
 * PARTITIONS and PRODUCE-RATE count the partitions the groups know, not the topic's metadata.
 *
 * Ownership: the view points into the snapshot (topic names, groups, partitions): free the view
 * before the snapshot's last reference goes. Rows of the topic panes (columns.h: LT_ROWS_TOPICS,
 * LT_ROWS_TOPIC_GROUPS) point into the view.
 */
#ifndef LAGTOP_MODEL_TOPIC_VIEW_H
#define LAGTOP_MODEL_TOPIC_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/columns.h"
#include "model/snapshot.h"

/* A topic (group NULL: every group reading it), or one group's share of it. */
typedef struct lt_topic_stats {
	const char *topic;     /* interned in the snapshot */
	const lt_group *group; /* NULL for the whole topic */
	/* the whole topic: its groups' entries, by group id; a group's entry: NULL */
	const struct lt_topic_stats *entries;
	size_t n_groups; /* groups with offsets or assignments on the topic (1 for a group's entry) */
	/* a group's entry: its partitions of the topic (a run of group->partitions); the whole topic: NULL */
	const lt_partition *parts;
	size_t n_partitions; /* the whole topic: distinct partition numbers over its groups */
	int64_t total_lag;   /* sum of the partitions' lags (every group's, for the whole topic) */
	int64_t max_lag;     /* a group's entry: its largest partition lag; the whole topic: the largest
				lag one group has on it (max of the entries' total_lag) */
	int64_t max_time_lag_ms;
	double produce_rate; /* log-end advance, msgs/s, each partition counted once */
	double consume_rate; /* committed-offset advance, msgs/s, summed over the groups */
	lt_status status;    /* worst partition's (REWIND, STALL, STOP as such, not ERR); PENDING when a
				partition is pending and none is worse than OK, as for groups */
	bool has_lag;
	bool has_max_time_lag;
	bool max_time_lag_estimated; /* a partition with that time lag has LT_PF_TIME_LAG_ESTIMATED (shown "~") */
	bool has_rates;              /* produce_rate and consume_rate are known */
	bool time_lag_high;          /* some partition has LT_PF_TIME_LAG_HIGH */
} lt_topic_stats;

typedef struct lt_topic_view {
	size_t n_topics;
	lt_topic_stats *topics; /* sorted by topic name */
	size_t n_entries;
	lt_topic_stats *entries; /* (topic, group), sorted by topic name then group id */
} lt_topic_view;

/* The view of s (s may be NULL: an empty view). Never NULL; free with topic_view_free. */
lt_topic_view *topic_view_build(const lt_snapshot *s);
void topic_view_free(lt_topic_view *v);
/* The whole-topic entry of a topic, NULL when no group reads it. */
const lt_topic_stats *topic_view_find(const lt_topic_view *v, const char *topic);

/* The rows of the topics pane (topic NULL: every topic) or of one topic's groups pane, keeping those the
 * filter matches (f may be NULL): a topic row matches on its name or on a group reading it, a group row
 * on the group id. Returns a malloc'd array; *n is set. */
lt_row *topic_view_rows(const lt_topic_view *v, const lt_topic_stats *topic, const lt_filter *f, size_t *n);

#endif
