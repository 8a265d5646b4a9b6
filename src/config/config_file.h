/* config_file.h — lagtop's configuration file (libconfig): the clusters, each with its connection
 * (connection.h), group filters and position sources, and the global settings. (Named so that it cannot be
 * taken for autoconf's config.h, which every .c file includes first.)
 *
 * Search order (the first that exists is read; none at all is fine):
 *   --config FILE, $LAGTOP_CONFIG, $XDG_CONFIG_HOME/lagtop/lagtop.conf,
 *   ~/.config/lagtop/lagtop.conf, SYSCONFDIR/lagtop/lagtop.conf.
 * A file named by --config or $LAGTOP_CONFIG that is missing is an error.
 * The schema, defaults and ranges are in doc/CONFIG.md (and the tables in schema.c).
 *
 * Errors are one line without the "lagtop: " prefix (the caller adds it), and name the file and
 * line: "/home/a/.config/lagtop/lagtop.conf:12: unknown setting 'refersh' in 'general'".
 *
 * Secret property values (secrets.h) are wiped before their memory is freed; a file holding a secret
 * that group or others may read gets a one-line warning naming the file and its mode.
 *
 * Trust (util/file_trust.h): the file, and every file it @includes, must be owned by the user or root and
 * not writable by group or others, else it is refused; so must be a regular file of at most 1 MiB
 * with no string value over 64 KiB (libconfig's lexer is quadratic over one). A
 * property that runs a program or loads code (config_runs_code, secrets.h) is refused unless the caller
 * passes LT_CONFIG_ALLOW_EXEC (--allow-exec-config).
 *
 * How the file combines with the command line (-c, -b, -X, --command-config, -g...) is the command
 * line's business: src/cli/target.h. This module knows nothing of the command line.
 *
 * librdkafka is not included here: property names and values are checked by librdkafka when the
 * client is created (src/kafka), which names the bad key.
 *
 * Files: schema.c (the accepted settings), load.c (reading a file), search_path.c (which file),
 * config_file.c (defaults, lookup, freeing), duration.c, secrets.c, connection.c.
 */
#ifndef LAGTOP_CONFIG_CONFIG_FILE_H
#define LAGTOP_CONFIG_CONFIG_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config/connection.h"
#include "model/columns.h"
#include "position/sources.h"

/* Defaults (doc/CONFIG.md). */
#define LT_DEFAULT_REFRESH_MS            2000
#define LT_DEFAULT_LAG_THRESHOLD         0
#define LT_DEFAULT_TIME_LAG_THRESHOLD_MS (5 * 60 * 1000)
#define LT_DEFAULT_THEME                 "default"
#define LT_DEFAULT_RESET_CONFIRM         10000
#define LT_DEFAULT_EXPIRY_HORIZON_MS     (3LL * 24 * 3600 * 1000)

/* A cluster's consumer-position sources (src/position/sources.h, doc/CONFIG.md). */
struct lt_position_def {
	size_t n_sources; /* position_sources: URLs (Prometheus text or librdkafka statistics) or files */
	char **sources;
	char *position_metric;                                 /* NULL: none (the Java client has no position metric) */
	char *lead_metric;                                     /* NULL: the built-in records-lead names (prom.h) */
	char *lag_metric;                                      /* NULL: the built-in records-lag names */
	char *client_id_label, *topic_label, *partition_label; /* NULL: client_id, topic, partition */
	int64_t max_age_ms;                                    /* position_max_age; 0: the default (60 s) */
	int64_t timeout_ms;        /* position_timeout, per source; 0: the default (5 s, within the refresh timeout) */
	int64_t not_committing_ms; /* not_committing_after; 0: the default (2 min) */
};

/* One cluster as written in the file. */
struct lt_cluster_def {
	struct lt_connection conn; /* name: the cluster's; bootstrap: bootstrap_servers (NULL when not given);
				    * properties in file order (never bootstrap.servers: the loader refuses it) */
	size_t n_include;          /* include_groups: extended regexes (validated) */
	char **include;
	size_t n_exclude; /* exclude_groups */
	char **exclude;
	bool read_only;
	int commit_stream; /* -1: not set (general's applies), 0: false, 1: true */
	struct lt_position_def positions;
	int line; /* where the cluster is defined (0 if unknown) */
};

struct lt_config {
	char *path;                    /* the file read; NULL when no file was found (defaults only) */
	char *default_cluster;         /* NULL when not set */
	int refresh_ms;                /* refresh_interval */
	int64_t lag_threshold;         /* allowed lag, messages: status OK while lag <= this */
	int64_t time_lag_threshold_ms; /* time lag above this is flagged; 0 = never */
	char *theme;
	int64_t reset_confirm_threshold; /* a reset moving more messages than this asks for the group name */
	int64_t expiry_horizon_ms;       /* warn when an Empty group's offsets expire sooner; 0 = never */
	bool commit_stream;              /* read __consumer_offsets for commit times (default true) */
	bool mouse;                      /* the dashboard takes the mouse (default true; false: --no-mouse) */
	lt_colset columns[LT_ROW_KINDS]; /* panes.NAME.columns, by lt_row_kind (default: colset_default) */
	size_t n_clusters;
	struct lt_cluster_def *clusters;
	char *warning; /* the permission warning given, NULL if none */
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

/* Flags of config_load_file_flags and config_load. */
#define LT_CONFIG_ALLOW_EXEC 1u /* take properties that run programs or load code (config_runs_code) */

/* config_load_file with flags (config_load_file: none). */
int config_load_file_flags(struct lt_config *cfg, const char *path, unsigned flags, FILE *warn, char *err,
			   size_t errlen);

/* config_locate + config_load_file_flags (defaults only when no file exists). */
int config_load(struct lt_config *cfg, const char *explicit_path, unsigned flags, FILE *warn, char *err, size_t errlen);

/* Wipes secrets and frees everything; cfg is left zeroed. */
void config_free(struct lt_config *cfg);

/* The cluster named `name`, or NULL. */
const struct lt_cluster_def *config_find_cluster(const struct lt_config *cfg, const char *name);

/* For errors about a cluster name: "known: a, b" or why there is none (malloc'd). */
char *config_known_clusters(const struct lt_config *cfg);

/* The position sources' settings for the collector (pointers into p: keep p while out is used). */
void config_position_sources(const struct lt_position_def *p, lt_pos_sources_conf *out);
/* dst becomes a deep copy of src; config_position_def_free frees one. */
void config_position_def_copy(struct lt_position_def *dst, const struct lt_position_def *src);
void config_position_def_free(struct lt_position_def *p);

/* Saves the dashboard's column choices into the file at path: the root group `panes` (one `columns = [...]`
 * per pane that differs from the default) replaces the file's own, or is added at its end; everything else
 * in the file stays as written, comments included. Written to a temporary file beside it and renamed over
 * it, with its permissions. Refused with a one-line err, the file untouched, when it cannot be rewritten
 * safely: missing, a symbolic link, with @include, or when the result would read differently outside
 * `panes`. 0 or -1. */
int config_save_columns(const char *path, const lt_colset sets[LT_ROW_KINDS], char *err, size_t errlen);
/* The user's own configuration file, where one is made when none was read: $XDG_CONFIG_HOME/lagtop/lagtop.conf,
 * else ~/.config/lagtop/lagtop.conf (malloc'd); NULL without HOME. */
char *config_user_path(void);
/* Makes the file at path (mode 0600, its missing directories 0700) holding only the panes group; when the file
 * exists by then, config_save_columns on it. 0, or -1 with a one-line err. */
int config_save_columns_new(const char *path, const lt_colset sets[LT_ROW_KINDS], char *err, size_t errlen);
/* The text of path with sets spliced in (config_save_columns without the file): malloc'd, or NULL and err. */
char *config_splice_columns(const char *text, const lt_colset sets[LT_ROW_KINDS], char *err, size_t errlen);

/* The settings the file accepts, for doc checks: the i-th "section.name" ("general.theme",
 * "cluster.read_only"), NULL past the end. */
const char *config_setting_path(size_t i);

#endif
