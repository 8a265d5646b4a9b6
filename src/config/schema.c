/* schema.c — the accepted settings (see schema.h). */
#include "config/schema.h"

#include <stdio.h>
#include <string.h>

#include "config/config_file.h"
#include "config/duration.h"

const struct setting_def config_general_settings[] = {
	{ "default_cluster", S_DEFAULT_CLUSTER, K_NAME, 0, 0 },
	{ "refresh_interval", S_REFRESH, K_DURATION, 100, 3600 * 1000 },
	{ "lag_threshold", S_LAG_THRESHOLD, K_COUNT, 0, INT64_MAX },
	{ "time_lag_threshold", S_TIME_LAG_THRESHOLD, K_DURATION, 0, 365 * LT_DAY_MS },
	{ "theme", S_THEME, K_NAME, 0, 0 },
	{ "reset_confirm_threshold", S_RESET_CONFIRM, K_COUNT, 0, INT64_MAX },
	{ "expiry_horizon", S_EXPIRY_HORIZON, K_DURATION, 0, 365 * LT_DAY_MS },
	{ "commit_stream", S_COMMIT_STREAM, K_BOOL, 0, 0 },
	{ "mouse", S_MOUSE, K_BOOL, 0, 0 },
};

const struct setting_def config_cluster_settings[] = {
	{ "bootstrap_servers", S_BOOTSTRAP, K_STRING, 0, 0 },
	{ "properties", S_PROPERTIES, K_PROPS, 0, 0 },
	{ "include_groups", S_INCLUDE, K_REGEXES, 0, 0 },
	{ "exclude_groups", S_EXCLUDE, K_REGEXES, 0, 0 },
	{ "read_only", S_READ_ONLY, K_BOOL, 0, 0 },
	{ "commit_stream", S_COMMIT_STREAM, K_BOOL, 0, 0 },
	{ "position_sources", S_POSITION_SOURCES, K_PROPS, 0, 0 }, /* a list of strings (checked apart) */
	{ "position_metric", S_POSITION_METRIC, K_STRING, 0, 0 },
	{ "lead_metric", S_LEAD_METRIC, K_STRING, 0, 0 },
	{ "lag_metric", S_LAG_METRIC, K_STRING, 0, 0 },
	{ "client_id_label", S_CLIENT_ID_LABEL, K_STRING, 0, 0 },
	{ "topic_label", S_TOPIC_LABEL, K_STRING, 0, 0 },
	{ "partition_label", S_PARTITION_LABEL, K_STRING, 0, 0 },
	{ "position_max_age", S_POSITION_MAX_AGE, K_DURATION, 1000, 365 * LT_DAY_MS },
	{ "position_timeout", S_POSITION_TIMEOUT, K_DURATION, 100, 3600 * 1000 },
	{ "not_committing_after", S_NOT_COMMITTING_AFTER, K_DURATION, 1000, 365 * LT_DAY_MS },
};

const size_t config_n_general = sizeof config_general_settings / sizeof config_general_settings[0];
const size_t config_n_cluster = sizeof config_cluster_settings / sizeof config_cluster_settings[0];

const char *config_setting_path(size_t i)
{
	static char buf[64];
	if (i < config_n_general)
		snprintf(buf, sizeof buf, "general.%s", config_general_settings[i].name);
	else if (i < config_n_general + config_n_cluster)
		snprintf(buf, sizeof buf, "cluster.%s", config_cluster_settings[i - config_n_general].name);
	else
		return NULL;
	return buf;
}

const struct setting_def *config_find_setting(const struct setting_def *defs, size_t n, const char *name)
{
	for (size_t k = 0; k < n; k++)
		if (strcmp(defs[k].name, name) == 0)
			return &defs[k];
	return NULL;
}

bool config_is_name(const char *s)
{
	if (!s || !*s)
		return false;
	for (const char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
		      *p == '-' || *p == '.'))
			return false;
	return *s != '.';
}

/* Levenshtein distance, for "did you mean" (names are short). */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 63 || lb > 63)
		return SIZE_MAX;
	size_t row[64];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char *config_suggest_setting(const char *name, const struct setting_def *defs, size_t n)
{
	const char *best = NULL;
	size_t best_d = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		size_t d = edit_distance(name, defs[i].name);
		if (d < best_d)
			best_d = d, best = defs[i].name;
	}
	size_t limit = strlen(name) / 3 > 2 ? strlen(name) / 3 : 2;
	return best_d <= limit ? best : NULL;
}
