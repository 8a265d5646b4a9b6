/* target.h — which cluster to talk to and how, from the configuration file and the command line: the one
 * place they are combined, for every mode that connects (--once, --list/--describe, resets, deletes, -X dump,
 * the dashboard and its cluster switch `c`, --demo).
 *
 * The connection (target_connection), later wins:
 *   1. the file's cluster: -c, else default_cluster, else none (or the cluster switched to);
 *   2. --command-config (kafka-consumer-groups' properties file, mapped: config/command_config.h);
 *   3. -b;
 *   4. each -X KEY=VALUE, in order.
 * A property of the same name is replaced in place, a new one appended; bootstrap.servers from
 * --command-config or -X sets the bootstrap servers (connection_set).
 * After a cluster switch in the dashboard the chosen cluster keeps its own bootstrap_servers and its own
 * properties: -b and any bootstrap.servers from --command-config or -X do not carry over (they named the
 * first cluster), nor does a secret (config/secrets.h: a credential given for one cluster is never sent to
 * another), nor a key the chosen cluster sets itself (its file wins). Every other property from
 * --command-config and -X carries over, in the same order.
 *
 * The rest (target_resolve): the groups (-g exact ids and -G regexes replace the cluster's include_groups;
 * --all-groups is every group), --read-only, -i, --theme, --no-commit-stream, --position-source and the
 * file's thresholds. */
#ifndef LAGTOP_CLI_TARGET_H
#define LAGTOP_CLI_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/options.h"
#include "config/config_file.h"
#include "config/connection.h"

struct lt_target {
	struct lt_connection conn; /* name: the cluster's, NULL when no cluster of the file was chosen */
	size_t n_include; /* group regexes: -g ids (as ^id$, escaped) and -G, else the cluster's include_groups */
	char **include;
	size_t n_exact; /* the -g ids themselves: described even when ListGroups does not list them */
	char **exact;
	size_t n_exclude; /* the cluster's exclude_groups (none with --all-groups or --describe) */
	char **exclude;
	bool read_only;                /* --read-only or the cluster's read_only */
	bool cluster_read_only;        /* the cluster's read_only alone (to say why) */
	int interval_ms;               /* -i, else refresh_interval */
	char *theme;                   /* --theme, else the file's theme */
	int64_t allowed_lag;           /* lag_threshold */
	int64_t time_lag_threshold_ms; /* time_lag_threshold */
	int64_t reset_confirm_threshold;
	int64_t expiry_horizon_ms;
	bool commit_stream;               /* the cluster's commit_stream, else general's; off with --no-commit-stream */
	struct lt_position_def positions; /* the cluster's position sources, then --position-source */
};

/* Which cluster of the file: TARGET_CHOSEN for the one the options choose (-c, else default_cluster,
 * else none), or the index of a cluster switched to in the dashboard. */
#define TARGET_CHOSEN ((size_t)-1)

/* The connection to cluster `which` of cfg with the command line o applied, by the rules above.
 * Returns 0, or -1 with a one-line error in err: an unknown -c (listing the known ones), a malformed -X,
 * a --command-config error, no bootstrap servers. out is the caller's (connection_free). */
int target_connection(const struct lt_config *cfg, const struct lt_options *o, size_t which, struct lt_connection *out,
		      char *err, size_t errlen);

/* target_connection and the rest of the settings. t is the caller's (target_free), zeroed on error. */
int target_resolve(const struct lt_config *cfg, const struct lt_options *o, size_t which, struct lt_target *t,
		   char *err, size_t errlen);

/* config_load(--config) then target_resolve(TARGET_CHOSEN). Config warnings (a readable file holding a
 * password) go to `warn` when not NULL. When cfg_out is not NULL the loaded file is handed over (the
 * caller frees it), else it is freed here. */
int target_from_options(const struct lt_options *o, struct lt_target *t, FILE *warn, struct lt_config *cfg_out,
			char *err, size_t errlen);

/* The collector configuration for t: the connection, group filters (-g ids are described even when no
 * broker lists them), interval, the commit stream as configured, the model's defaults and thresholds.
 * conf points into t (t must outlive it); the caller adds what only its mode knows (positions, epochs). */
struct lt_collector_conf;
void target_collector_conf(const struct lt_target *t, int timeout_ms, struct lt_collector_conf *conf);
void target_free(struct lt_target *t);

#endif
