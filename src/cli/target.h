/* target.h — which cluster to talk to and how, for the modes that connect (--once, -X dump): the
 * config file's cluster (config_resolve: -c, default cluster, --command-config, -b, -X, --read-only, -i) plus
 * the group filters (-g exact ids and -G regexes, else the cluster's include_groups; --all-groups: every
 * group) and the model thresholds. */
#ifndef LAGTOP_CLI_TARGET_H
#define LAGTOP_CLI_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config/config.h"

#include "cli/options.h"

struct lt_target {
	char *cluster_name;      /* display name: the cluster's name, else the bootstrap list */
	char *bootstrap;
	size_t n_props;          /* the cluster's properties, then -X, in order */
	char **prop_keys;
	char **prop_values;
	size_t n_include;        /* group regexes: -g ids (as ^id$, escaped) and -G, else the cluster's include_groups */
	char **include;
	size_t n_exact;          /* the -g ids themselves: described even when ListGroups does not list them */
	char **exact;
	size_t n_exclude;        /* the cluster's exclude_groups (none with --all-groups) */
	char **exclude;
	bool read_only;
	int interval_ms;         /* -i, else refresh_interval */
	int64_t allowed_lag;     /* lag_threshold */
	bool commit_stream;      /* the cluster's commit_stream, else general's */
	int64_t expiry_horizon_ms;
	int64_t time_lag_threshold_ms; /* time_lag_threshold */
	struct lt_position_def positions; /* the cluster's position sources, then --position-source */
};

/* Returns 0, or -1 with a one-line error in err (config file errors name file and line; unknown
 * cluster; malformed -X; no bootstrap servers). Config warnings (a readable file holding a
 * password) go to `warn` when not NULL. */
int target_from_options(const struct lt_options *o, struct lt_target *t, FILE *warn, char *err, size_t errlen);

/* The collector configuration for t: cluster, properties, group filters (-g ids are described even when
 * no broker lists them), interval, the commit stream as configured, the model's defaults and thresholds.
 * conf points into t (t must outlive it); the caller adds what only its mode knows (positions, epochs). */
struct lt_collector_conf;
void target_collector_conf(const struct lt_target *t, int timeout_ms, struct lt_collector_conf *conf);
void target_free(struct lt_target *t);

#endif
