/* config.h — the configuration file (libconfig): clusters, their librdkafka properties, and the
 * global settings; and the resolution of the cluster to connect to from the file and the command
 * line (-c, -b, -X, --read-only, -i, --theme).
 *
 * Search order (the first that exists is read; none at all is fine):
 *   --config FILE, $LAGTOP_CONFIG, $XDG_CONFIG_HOME/lagtop/lagtop.conf,
 *   ~/.config/lagtop/lagtop.conf, SYSCONFDIR/lagtop/lagtop.conf.
 * A file named by --config or $LAGTOP_CONFIG that is missing is an error.
 * The schema, defaults and ranges are in doc/CONFIG.md (and the table in config.c).
 *
 * Errors are one line without the "lagtop: " prefix (the caller adds it), and name the file and
 * line: "/home/a/.config/lagtop/lagtop.conf:12: unknown setting 'refersh' in 'general'".
 *
 * Secrets: a property whose name contains "password", "secret", "key", "token" or "credential"
 * (or sasl.oauthbearer.config) is a secret. Its value is never printed (config_display_value gives
 * "[hidden]") and is wiped with explicit_bzero before its memory is freed. A file holding a secret
 * that group or others may read gets a one-line warning naming the file and its mode.
 *
 * librdkafka is not included here: property names and values are checked by librdkafka when the
 * client is created (src/kafka), which names the bad key.
 */
#ifndef LAGTOP_CONFIG_CONFIG_H
#define LAGTOP_CONFIG_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/options.h"
#include "position/sources.h"

/* Defaults (doc/CONFIG.md). */
#define LT_DEFAULT_REFRESH_MS           2000
#define LT_DEFAULT_LAG_THRESHOLD        0
#define LT_DEFAULT_TIME_LAG_THRESHOLD_MS (5 * 60 * 1000)
#define LT_DEFAULT_THEME                "default"
#define LT_DEFAULT_RESET_CONFIRM        10000
#define LT_DEFAULT_EXPIRY_HORIZON_MS    (3LL * 24 * 3600 * 1000)

/* A cluster's consumer-position sources (issue 15; src/position/sources.h, doc/CONFIG.md). */
struct lt_position_def {
	size_t n_sources;       /* position_sources: URLs (Prometheus text or librdkafka statistics) or files */
	char **sources;
	char *position_metric;  /* NULL: none (the Java client has no position metric) */
	char *lead_metric;      /* NULL: the built-in records-lead names (prom.h) */
	char *lag_metric;       /* NULL: the built-in records-lag names */
	char *client_id_label, *topic_label, *partition_label; /* NULL: client_id, topic, partition */
	int64_t max_age_ms;     /* position_max_age; 0: the default (60 s) */
	int64_t timeout_ms;     /* position_timeout, per source; 0: the default (5 s, within the refresh timeout) */
	int64_t not_committing_ms; /* not_committing_after; 0: the default (2 min) */
};

/* One cluster as written in the file. */
struct lt_cluster_def {
	char *name;
	char *bootstrap;        /* bootstrap_servers, NULL when not given */
	size_t n_props;         /* properties, in file order */
	char **prop_keys;
	char **prop_values;
	size_t n_include;       /* include_groups: extended regexes (validated) */
	char **include;
	size_t n_exclude;       /* exclude_groups */
	char **exclude;
	bool read_only;
	int commit_stream;      /* -1: not set (general's applies), 0: false, 1: true */
	struct lt_position_def positions;
	int line;               /* where the cluster is defined (0 if unknown) */
};

struct lt_config {
	char *path;             /* the file read; NULL when no file was found (defaults only) */
	char *default_cluster;  /* NULL when not set */
	int refresh_ms;         /* refresh_interval */
	int64_t lag_threshold;  /* allowed lag, messages: status OK while lag <= this */
	int64_t time_lag_threshold_ms; /* time lag above this is flagged; 0 = never */
	char *theme;
	int64_t reset_confirm_threshold; /* a reset moving more messages than this asks for the group name */
	int64_t expiry_horizon_ms;       /* warn when an Empty group's offsets expire sooner; 0 = never */
	bool commit_stream;              /* read __consumer_offsets for commit times (default true) */
	bool mouse;                      /* the dashboard takes the mouse (default true; false: --no-mouse) */
	size_t n_clusters;
	struct lt_cluster_def *clusters;
	char *warning;          /* the permission warning given, NULL if none */
};

/* The resolved settings for one run: the chosen cluster merged with the command line. */
struct lt_cluster_conf {
	char *name;             /* cluster name, NULL when only -b was given */
	char *bootstrap;        /* never NULL after a successful config_select */
	size_t n_props;         /* librdkafka properties, to apply in order */
	char **prop_keys;
	char **prop_values;
	size_t n_include;       /* the cluster's include_groups / exclude_groups (-g is not merged) */
	char **include;
	size_t n_exclude;
	char **exclude;
	bool read_only;         /* --read-only or the cluster's read_only */
	bool cluster_read_only; /* the cluster's read_only alone (to say why) */
	/* global settings with command-line overrides applied */
	int refresh_ms;         /* -i, else refresh_interval */
	const char *theme;      /* --theme, else theme (points into options or config) */
	int64_t lag_threshold;
	int64_t time_lag_threshold_ms;
	int64_t reset_confirm_threshold;
	int64_t expiry_horizon_ms;
	bool commit_stream;     /* the cluster's commit_stream, else general's */
	struct lt_position_def positions; /* the cluster's, then --position-source appended */
};

/* Sets every field to its default (no file, no clusters). */
void config_init_defaults(struct lt_config *cfg);

/* Finds the file by the search order above. explicit_path is --config (or NULL); sysconfdir NULL
 * means SYSCONFDIR. Returns 0 with *path_out malloc'd, or NULL when no file exists; -1 with err
 * when --config or $LAGTOP_CONFIG names a missing file. */
int config_locate(const char *explicit_path, const char *sysconfdir, char **path_out, char *err, size_t errlen);

/* Reads and validates one file into cfg (which starts from the defaults). A permission warning
 * goes to `warn` (when not NULL) as one line "lagtop: warning: ..." and into cfg->warning.
 * Returns 0, or -1 with err; cfg is then empty but safe to config_free. */
int config_load_file(struct lt_config *cfg, const char *path, FILE *warn, char *err, size_t errlen);

/* config_locate + config_load_file (defaults only when no file exists). */
int config_load(struct lt_config *cfg, const char *explicit_path, FILE *warn, char *err, size_t errlen);

/* Wipes secrets and frees everything; cfg is left zeroed. */
void config_free(struct lt_config *cfg);

/* The cluster named `name`, or NULL. */
const struct lt_cluster_def *config_find_cluster(const struct lt_config *cfg, const char *name);

/* Merges, in order: the cluster chosen by -c (else default_cluster, else none), -b (bootstrap),
 * -X key=value (replacing a property of the same name, else appended; -X bootstrap.servers=...
 * sets the bootstrap), then --read-only, -i and --theme. Errors: an unknown -c name (listing the
 * known ones), no bootstrap servers anywhere. out is owned by the caller: cluster_conf_free. */
int config_select(const struct lt_config *cfg, const struct lt_options *opts, struct lt_cluster_conf *out, char *err,
		  size_t errlen);

/* The settings of cluster i of the file, chosen in the dashboard (`c`) after the run started with
 * opts: the cluster's own bootstrap_servers and properties; -b and -X bootstrap.servers are not
 * carried over (they named the first cluster), nor -X secrets (a credential given for one cluster is
 * never sent to another), nor -X keys the cluster sets itself (its file wins). Every other -X, and
 * -g, --read-only, -i, --theme, --no-commit-stream, carry over as in config_select. */
int config_select_switch(const struct lt_config *cfg, const struct lt_options *opts, size_t i,
			 struct lt_cluster_conf *out, char *err, size_t errlen);

/* Convenience for modes: config_load(opts->config_path) then config_select. On success cfg and
 * out are both filled (out->theme may point into cfg: free cfg after out is done). */
int config_resolve(const struct lt_options *opts, FILE *warn, struct lt_config *cfg, struct lt_cluster_conf *out,
		   char *err, size_t errlen);

void cluster_conf_free(struct lt_cluster_conf *c);

/* The position sources' settings for the collector (pointers into p: keep p while out is used). */
void config_position_sources(const struct lt_position_def *p, lt_pos_sources_conf *out);
void config_position_def_free(struct lt_position_def *p);

/* Secrets. */
bool config_is_secret_key(const char *key);
/* value, or "[hidden]" when key is a secret (for -X dump, errors and debug output). */
const char *config_display_value(const char *key, const char *value);

/* Parses a duration: a number of seconds ("2", "0.5") or numbers with units ms, s, m, h, d
 * ("500ms", "1h30m", "3d"). Returns 0 with *ms, or -1. */
int config_parse_duration(const char *s, int64_t *ms);

/* The settings the file accepts, for doc checks: the i-th "section.name" ("general.theme",
 * "cluster.read_only"), NULL past the end. */
const char *config_setting_path(size_t i);

#endif
