/* schema.h — the settings the configuration file accepts: one table per section (schema.c), their kinds
 * and ranges. Internal to src/config (load.c reads a file against it); doc/CONFIG.md documents each
 * setting and tests/unit/test_config checks that it names them all. */
#ifndef LAGTOP_CONFIG_SCHEMA_H
#define LAGTOP_CONFIG_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum kind {
	K_DURATION, /* seconds (int or float) or a string with units: "500ms", "2s", "1h30m", "3d" */
	K_COUNT,    /* a whole number */
	K_NAME,     /* a string of [A-Za-z0-9_.-] */
	K_STRING,   /* a non-empty string */
	K_BOOL,
	K_PROPS,   /* a list of "key=value" strings */
	K_REGEXES, /* a list of extended regexes */
};

enum setting_id {
	S_DEFAULT_CLUSTER,
	S_REFRESH,
	S_LAG_THRESHOLD,
	S_TIME_LAG_THRESHOLD,
	S_THEME,
	S_RESET_CONFIRM,
	S_EXPIRY_HORIZON,
	S_COMMIT_STREAM,
	S_BOOTSTRAP,
	S_PROPERTIES,
	S_INCLUDE,
	S_EXCLUDE,
	S_READ_ONLY,
	S_POSITION_SOURCES,
	S_POSITION_METRIC,
	S_LEAD_METRIC,
	S_LAG_METRIC,
	S_CLIENT_ID_LABEL,
	S_TOPIC_LABEL,
	S_PARTITION_LABEL,
	S_POSITION_MAX_AGE,
	S_POSITION_TIMEOUT,
	S_NOT_COMMITTING_AFTER,
	S_MOUSE,
};

struct setting_def {
	const char *name;
	enum setting_id id;
	enum kind kind;
	int64_t min, max; /* durations in ms; counts as is */
};

extern const struct setting_def config_general_settings[];
extern const size_t config_n_general;
extern const struct setting_def config_cluster_settings[];
extern const size_t config_n_cluster;

/* The setting called name in defs, or NULL. */
const struct setting_def *config_find_setting(const struct setting_def *defs, size_t n, const char *name);

/* The known name closest to an unknown one, for "did you mean", or NULL when none is close. */
const char *config_suggest_setting(const char *name, const struct setting_def *defs, size_t n);

/* A K_NAME value (cluster names, themes, property names): letters, digits, '_', '-', '.', not starting
 * with '.'. */
bool config_is_name(const char *s);

#endif
