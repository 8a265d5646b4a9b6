/* config.c — see config.h. The accepted settings are the two tables below; doc/CONFIG.md documents
 * each (tests/unit/test_config checks that it names them all).
 *
 * Note: "config.h" here would be this module's header (same directory), not autoconf's; nothing in
 * this file needs autoconf's, so it is not included. */
#include "config/config.h"
#include "config/command_config.h"

#include <errno.h>
#include <libconfig.h>
#include <limits.h>
#include <locale.h>
#include <regex.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "util/regex.h"
#include "util/sanitize.h"
#include "util/errbuf.h"
#include "util/xalloc.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif

#define HIDDEN "[hidden]"

/* LeakSanitizer suppressions: leaks that are not lagtop's, each as narrow as it can be. libconfig 1.5
 * leaks a string token when a syntax error follows it (e.g. a quoted setting name), even after
 * config_destroy. Under AddressSanitizer that one-off leak would turn lagtop's "bad configuration" exit
 * status 2 into LeakSanitizer's; only leaks allocated inside libconfig are suppressed. The Kafka client
 * adds librdkafka's (client_lsan_suppressions in src/kafka/client.c, weak here: programs without the
 * client do not link it; every program with it links this file, since client.c asks config_is_secret_key).
 * (Without ASan this function is never called.) Weak, so that a test program that defines its own
 * suppressions links and wins. */
const char *client_lsan_suppressions(void) __attribute__((weak));
const char *__lsan_default_suppressions(void);
__attribute__((weak)) const char *__lsan_default_suppressions(void)
{
	static char all[512];
	snprintf(all, sizeof all, "leak:libconfig.so\n%s", client_lsan_suppressions ? client_lsan_suppressions() : "");
	return all;
}

/* A suppressed leak is not news: without this, LeakSanitizer lists the suppressions it used on stderr
 * at exit, which would add lines to lagtop's one-line errors and to --once's silent stderr. */
const char *__lsan_default_options(void);
__attribute__((weak)) const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}

/* ------------------------------------------------------------------ the settings tables */

enum kind {
	K_DURATION, /* seconds (int or float) or a string with units: "500ms", "2s", "1h30m", "3d" */
	K_COUNT,    /* a whole number */
	K_NAME,     /* a string of [A-Za-z0-9_.-] */
	K_STRING,   /* a non-empty string */
	K_BOOL,
	K_PROPS,    /* a list of "key=value" strings */
	K_REGEXES,  /* a list of extended regexes */
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

#define DAY_MS (24LL * 3600 * 1000)

static const struct setting_def general_settings[] = {
	{ "default_cluster", S_DEFAULT_CLUSTER, K_NAME, 0, 0 },
	{ "refresh_interval", S_REFRESH, K_DURATION, 100, 3600 * 1000 },
	{ "lag_threshold", S_LAG_THRESHOLD, K_COUNT, 0, INT64_MAX },
	{ "time_lag_threshold", S_TIME_LAG_THRESHOLD, K_DURATION, 0, 365 * DAY_MS },
	{ "theme", S_THEME, K_NAME, 0, 0 },
	{ "reset_confirm_threshold", S_RESET_CONFIRM, K_COUNT, 0, INT64_MAX },
	{ "expiry_horizon", S_EXPIRY_HORIZON, K_DURATION, 0, 365 * DAY_MS },
	{ "commit_stream", S_COMMIT_STREAM, K_BOOL, 0, 0 },
	{ "mouse", S_MOUSE, K_BOOL, 0, 0 },
};

static const struct setting_def cluster_settings[] = {
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
	{ "position_max_age", S_POSITION_MAX_AGE, K_DURATION, 1000, 365 * DAY_MS },
	{ "position_timeout", S_POSITION_TIMEOUT, K_DURATION, 100, 3600 * 1000 },
	{ "not_committing_after", S_NOT_COMMITTING_AFTER, K_DURATION, 1000, 365 * DAY_MS },
};

#define N_GENERAL (sizeof general_settings / sizeof general_settings[0])
#define N_CLUSTER (sizeof cluster_settings / sizeof cluster_settings[0])

const char *config_setting_path(size_t i)
{
	static char buf[64];
	if (i < N_GENERAL)
		snprintf(buf, sizeof buf, "general.%s", general_settings[i].name);
	else if (i < N_GENERAL + N_CLUSTER)
		snprintf(buf, sizeof buf, "cluster.%s", cluster_settings[i - N_GENERAL].name);
	else
		return NULL;
	return buf;
}

/* ------------------------------------------------------------------ secrets */

static bool contains_nocase(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return true;
	return false;
}

bool config_is_secret_key(const char *key)
{
	static const char *const words[] = { "password", "secret", "key", "token", "credential",
					     "sasl.oauthbearer.config" };
	if (!key)
		return false;
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (contains_nocase(key, words[i]))
			return true;
	return false;
}

const char *config_display_value(const char *key, const char *value)
{
	if (config_is_secret_key(key))
		return HIDDEN;
	return value ? value : "";
}

static void wipe_free(char *s)
{
	if (!s)
		return;
	explicit_bzero(s, strlen(s));
	free(s);
}

/* ------------------------------------------------------------------ small helpers */

static void push_str(char ***arr, size_t *n, char *s)
{
	*arr = xrealloc(*arr, (*n + 1) * sizeof **arr);
	(*arr)[(*n)++] = s;
}

static void free_strv(char **v, size_t n, bool wipe)
{
	for (size_t i = 0; i < n; i++) {
		if (wipe)
			wipe_free(v[i]);
		else
			free(v[i]);
	}
	free(v);
}

static bool is_name(const char *s)
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

static const char *suggest(const char *name, const struct setting_def *defs, size_t n)
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

/* ------------------------------------------------------------------ durations */

/* Non-negative decimal without the locale ("1", "0.25"); advances *p. */
static int parse_decimal(const char **p, double *out)
{
	const char *s = *p;
	double v = 0, scale = 1;
	bool digits = false;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (*s++ - '0');
		digits = true;
	}
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9') {
			scale /= 10;
			v += (*s++ - '0') * scale;
			digits = true;
		}
	}
	if (!digits)
		return -1;
	*p = s;
	*out = v;
	return 0;
}

int config_parse_duration(const char *s, int64_t *ms)
{
	static const struct {
		const char *unit;
		double ms;
	} units[] = { { "ms", 1 }, { "s", 1000 }, { "m", 60000 }, { "h", 3600000 }, { "d", 86400000 } };
	double total = 0;
	const char *p = s;
	double v;

	if (!s || !*s)
		return -1;
	if (parse_decimal(&p, &v) == 0 && *p == '\0') {
		total = v * 1000;
	} else {
		p = s;
		while (*p) {
			if (parse_decimal(&p, &v) != 0)
				return -1;
			size_t i;
			for (i = 0; i < sizeof units / sizeof units[0]; i++) {
				size_t ul = strlen(units[i].unit);
				if (strncmp(p, units[i].unit, ul) == 0 &&
				    !(ul == 1 && units[i].unit[0] == 'm' && p[1] == 's'))
					break;
			}
			if (i == sizeof units / sizeof units[0])
				return -1;
			total += v * units[i].ms;
			p += strlen(units[i].unit);
		}
	}
	if (!(total >= 0) || total > 1e15)
		return -1;
	*ms = (int64_t)(total + 0.5);
	return 0;
}

/* ------------------------------------------------------------------ search */

static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

int config_locate(const char *explicit_path, const char *sysconfdir, char **path_out, char *err, size_t errlen)
{
	*path_out = NULL;
	if (explicit_path) {
		if (!exists(explicit_path))
			return err_set(err, errlen, "%s: %s (given by --config)", explicit_path, strerror(errno));
		*path_out = xstrdup(explicit_path);
		return 0;
	}
	const char *env = getenv("LAGTOP_CONFIG");
	if (env && *env) {
		if (!exists(env))
			return err_set(err, errlen, "%s: %s (given by $LAGTOP_CONFIG)", env, strerror(errno));
		*path_out = xstrdup(env);
		return 0;
	}
	char *cand[3] = { NULL, NULL, NULL };
	const char *xdg = getenv("XDG_CONFIG_HOME");
	if (xdg && xdg[0] == '/') /* relative values are invalid by the XDG spec and ignored */
		cand[0] = xasprintf("%s/lagtop/lagtop.conf", xdg);
	const char *home = getenv("HOME");
	if (home && *home)
		cand[1] = xasprintf("%s/.config/lagtop/lagtop.conf", home);
	cand[2] = xasprintf("%s/lagtop/lagtop.conf", sysconfdir ? sysconfdir : SYSCONFDIR);
	for (size_t i = 0; i < 3; i++) {
		if (!*path_out && cand[i] && exists(cand[i]))
			*path_out = cand[i];
		else
			free(cand[i]);
	}
	return 0;
}

/* ------------------------------------------------------------------ loading */

struct loader {
	const char *path;
	struct lt_config *cfg;
	char *err;
	size_t errlen;
	int default_cluster_line;
	const char *default_cluster_file;
};

static const char *src_file(const struct loader *L, const config_setting_t *s)
{
	const char *f = config_setting_source_file(s);
	return f ? f : L->path;
}

static int at(const struct loader *L, const config_setting_t *s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int at(const struct loader *L, const config_setting_t *s, const char *fmt, ...)
{
	char msg[384];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return err_set(L->err, L->errlen, "%s:%u: %s", src_file(L, s), (unsigned)config_setting_source_line(s), msg);
}

static const char *type_name(int type)
{
	switch (type) {
	case CONFIG_TYPE_GROUP: return "a group";
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64: return "an integer";
	case CONFIG_TYPE_FLOAT: return "a decimal number";
	case CONFIG_TYPE_STRING: return "a string";
	case CONFIG_TYPE_BOOL: return "a boolean";
	case CONFIG_TYPE_ARRAY: return "an array";
	case CONFIG_TYPE_LIST: return "a list";
	default: return "something else";
	}
}

/* A duration bound as the user would write it: "0.1s", "0s", "1h", "365d". */
static void format_bound(int64_t ms, char *buf, size_t len)
{
	if (ms >= DAY_MS && ms % DAY_MS == 0)
		snprintf(buf, len, "%lldd", (long long)(ms / DAY_MS));
	else if (ms >= 3600000 && ms % 3600000 == 0)
		snprintf(buf, len, "%lldh", (long long)(ms / 3600000));
	else if (ms % 1000 == 0)
		snprintf(buf, len, "%llds", (long long)(ms / 1000));
	else
		snprintf(buf, len, "%lldms", (long long)ms);
}

static int get_duration(const struct loader *L, config_setting_t *s, const char *where, const struct setting_def *d,
			int64_t *out)
{
	int64_t ms;
	int t = config_setting_type(s);
	if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64) {
		long long v = config_setting_get_int64(s);
		if (v < 0 || v > d->max / 1000 + 1)
			goto range;
		ms = (int64_t)v * 1000;
	} else if (t == CONFIG_TYPE_FLOAT) {
		double v = config_setting_get_float(s);
		if (!(v >= 0) || v * 1000 > (double)d->max + 1)
			goto range;
		ms = (int64_t)(v * 1000 + 0.5);
	} else if (t == CONFIG_TYPE_STRING) {
		if (config_parse_duration(config_setting_get_string(s), &ms) != 0)
			return at(L, s,
			          "'%s' in %s must be seconds or a duration like \"500ms\", \"2s\", \"1h30m\", \"3d\"",
			          d->name, where);
	} else {
		return at(L, s, "'%s' in %s must be a number of seconds or a duration string, not %s", d->name, where,
			  type_name(t));
	}
	if (ms < d->min || ms > d->max)
		goto range;
	*out = ms;
	return 0;
range:;
	char lo[32], hi[32];
	format_bound(d->min, lo, sizeof lo);
	format_bound(d->max, hi, sizeof hi);
	return at(L, s, "'%s' in %s must be between %s and %s", d->name, where, lo, hi);
}

static int get_count(const struct loader *L, config_setting_t *s, const char *where, const struct setting_def *d,
		     int64_t *out)
{
	int t = config_setting_type(s);
	if (t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64)
		return at(L, s, "'%s' in %s must be a whole number, not %s", d->name, where, type_name(t));
	long long v = config_setting_get_int64(s);
	if (v < d->min || v > d->max)
		return at(L, s, "'%s' in %s must be at least %lld", d->name, where, (long long)d->min);
	*out = v;
	return 0;
}

static int get_string(const struct loader *L, config_setting_t *s, const char *where, const struct setting_def *d,
		      const char **out)
{
	int t = config_setting_type(s);
	if (t != CONFIG_TYPE_STRING)
		return at(L, s, "'%s' in %s must be a string, not %s", d->name, where, type_name(t));
	const char *v = config_setting_get_string(s);
	if (!*v)
		return at(L, s, "'%s' in %s must not be empty", d->name, where);
	if (d->kind == K_NAME && !is_name(v)) {
		char *safe = sanitize_dup(v, true);
		at(L, s, "'%s' in %s must be a name of letters, digits, '_', '-' or '.', got '%s'", d->name, where,
		   safe);
		free(safe);
		return -1;
	}
	*out = v;
	return 0;
}

/* Elements of an array or list, each a string. */
static int check_string_list(const struct loader *L, config_setting_t *s, const char *where,
			     const struct setting_def *d)
{
	int t = config_setting_type(s);
	if (t != CONFIG_TYPE_ARRAY && t != CONFIG_TYPE_LIST)
		return at(L, s, "'%s' in %s must be a list of strings like [ \"a\", \"b\" ], not %s", d->name, where,
			  type_name(t));
	for (int i = 0; i < config_setting_length(s); i++) {
		config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
		if (config_setting_type(e) != CONFIG_TYPE_STRING)
			return at(L, e, "'%s' in %s must hold only strings; element %d is %s", d->name, where, i + 1,
				  type_name(config_setting_type(e)));
	}
	return 0;
}

static int load_props(const struct loader *L, config_setting_t *s, const char *where, const struct setting_def *d,
		      struct lt_cluster_def *c)
{
	if (check_string_list(L, s, where, d))
		return -1;
	for (int i = 0; i < config_setting_length(s); i++) {
		config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
		const char *kv = config_setting_get_string(e);
		const char *eq = strchr(kv, '=');
		/* the entry itself is never quoted in errors: a malformed one may hold a password */
		if (!eq || eq == kv)
			return at(L, e, "'%s' in %s: element %d must be \"key=value\"", d->name, where, i + 1);
		char *key = xstrndup(kv, (size_t)(eq - kv));
		if (!is_name(key)) {
			at(L, e, "'%s' in %s: element %d has a bad property name (letters, digits, '.', '_', '-')",
			   d->name, where, i + 1);
			free(key);
			return -1;
		}
		if (strcmp(key, "bootstrap.servers") == 0) {
			free(key);
			return at(L, e, "'%s' in %s: give bootstrap.servers as bootstrap_servers = \"host:port,...\"",
				  d->name, where);
		}
		for (size_t j = 0; j < c->n_props; j++) {
			if (strcmp(c->prop_keys[j], key) == 0) {
				at(L, e, "'%s' in %s: property '%s' is given twice", d->name, where, key);
				free(key);
				return -1;
			}
		}
		size_t n = c->n_props;
		push_str(&c->prop_keys, &n, key);
		push_str(&c->prop_values, &c->n_props, xstrdup(eq + 1));
	}
	return 0;
}

static int load_regexes(const struct loader *L, config_setting_t *s, const char *where, const struct setting_def *d,
			char ***arr, size_t *n)
{
	if (check_string_list(L, s, where, d))
		return -1;
	for (int i = 0; i < config_setting_length(s); i++) {
		config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
		const char *re = config_setting_get_string(e);
		regex_t rx;
		char why[128];
		if (regex_compile(&rx, re, REG_EXTENDED | REG_NOSUB, why, sizeof why) != 0) {
			char *safe = sanitize_dup(re, true);
			at(L, e, "bad regex '%s' in '%s' of %s: %s", safe, d->name, where, why);
			free(safe);
			return -1;
		}
		regfree(&rx);
		push_str(arr, n, xstrdup(re));
	}
	return 0;
}

static const struct setting_def *find_setting(const struct setting_def *defs, size_t n, const char *name)
{
	for (size_t k = 0; k < n; k++)
		if (strcmp(defs[k].name, name) == 0)
			return &defs[k];
	return NULL;
}

/* "unknown setting 'x' in <where>", with the nearest known name when one is close. */
static int unknown_setting(const struct loader *L, const config_setting_t *s, const struct setting_def *defs,
			   size_t n, const char *where)
{
	const char *name = config_setting_name(s);
	const char *hint = suggest(name, defs, n);
	if (hint)
		return at(L, s, "unknown setting '%s' in %s (did you mean '%s'?)", name, where, hint);
	return at(L, s, "unknown setting '%s' in %s", name, where);
}

static int load_general(struct loader *L, config_setting_t *g)
{
	struct lt_config *cfg = L->cfg;
	const char *where = "'general'";
	for (int i = 0; i < config_setting_length(g); i++) {
		config_setting_t *s = config_setting_get_elem(g, (unsigned)i);
		const char *name = config_setting_name(s);
		const struct setting_def *d = find_setting(general_settings, N_GENERAL, name);
		if (!d)
			return unknown_setting(L, s, general_settings, N_GENERAL, where);
		const char *str;
		int64_t v;
		switch (d->id) {
		case S_DEFAULT_CLUSTER:
			if (get_string(L, s, where, d, &str))
				return -1;
			free(cfg->default_cluster);
			cfg->default_cluster = xstrdup(str);
			L->default_cluster_line = config_setting_source_line(s);
			L->default_cluster_file = src_file(L, s);
			break;
		case S_THEME:
			if (get_string(L, s, where, d, &str))
				return -1;
			free(cfg->theme);
			cfg->theme = xstrdup(str);
			break;
		case S_REFRESH:
			if (get_duration(L, s, where, d, &v))
				return -1;
			cfg->refresh_ms = (int)v;
			break;
		case S_TIME_LAG_THRESHOLD:
			if (get_duration(L, s, where, d, &cfg->time_lag_threshold_ms))
				return -1;
			break;
		case S_EXPIRY_HORIZON:
			if (get_duration(L, s, where, d, &cfg->expiry_horizon_ms))
				return -1;
			break;
		case S_LAG_THRESHOLD:
			if (get_count(L, s, where, d, &cfg->lag_threshold))
				return -1;
			break;
		case S_RESET_CONFIRM:
			if (get_count(L, s, where, d, &cfg->reset_confirm_threshold))
				return -1;
			break;
		case S_COMMIT_STREAM:
			if (config_setting_type(s) != CONFIG_TYPE_BOOL)
				return at(L, s, "'%s' in %s must be true or false, not %s", d->name, where,
					  type_name(config_setting_type(s)));
			cfg->commit_stream = config_setting_get_bool(s);
			break;
		case S_MOUSE:
			if (config_setting_type(s) != CONFIG_TYPE_BOOL)
				return at(L, s, "'%s' in %s must be true or false, not %s", d->name, where,
					  type_name(config_setting_type(s)));
			cfg->mouse = config_setting_get_bool(s);
			break;
		default:
			break;
		}
	}
	return 0;
}

static int load_cluster(struct loader *L, config_setting_t *g, struct lt_cluster_def *c)
{
	char where[160];
	snprintf(where, sizeof where, "cluster '%s'", c->name);
	for (int i = 0; i < config_setting_length(g); i++) {
		config_setting_t *s = config_setting_get_elem(g, (unsigned)i);
		const char *name = config_setting_name(s);
		const struct setting_def *d = find_setting(cluster_settings, N_CLUSTER, name);
		if (!d)
			return unknown_setting(L, s, cluster_settings, N_CLUSTER, where);
		const char *str;
		switch (d->id) {
		case S_BOOTSTRAP:
			if (get_string(L, s, where, d, &str))
				return -1;
			c->bootstrap = xstrdup(str);
			break;
		case S_PROPERTIES:
			if (load_props(L, s, where, d, c))
				return -1;
			break;
		case S_INCLUDE:
			if (load_regexes(L, s, where, d, &c->include, &c->n_include))
				return -1;
			break;
		case S_EXCLUDE:
			if (load_regexes(L, s, where, d, &c->exclude, &c->n_exclude))
				return -1;
			break;
		case S_READ_ONLY:
			if (config_setting_type(s) != CONFIG_TYPE_BOOL)
				return at(L, s, "'%s' in %s must be true or false, not %s", d->name, where,
					  type_name(config_setting_type(s)));
			c->read_only = config_setting_get_bool(s);
			break;
		case S_COMMIT_STREAM:
			if (config_setting_type(s) != CONFIG_TYPE_BOOL)
				return at(L, s, "'%s' in %s must be true or false, not %s", d->name, where,
					  type_name(config_setting_type(s)));
			c->commit_stream = config_setting_get_bool(s) ? 1 : 0;
			break;
		case S_POSITION_SOURCES:
			if (check_string_list(L, s, where, d))
				return -1;
			for (int k = 0; k < config_setting_length(s); k++) {
				const char *loc = config_setting_get_string(config_setting_get_elem(s, (unsigned)k));
				if (!*loc)
					return at(L, config_setting_get_elem(s, (unsigned)k),
						  "'%s' in %s: element %d is empty (a URL or a file)", d->name, where, k + 1);
				push_str(&c->positions.sources, &c->positions.n_sources, xstrdup(loc));
			}
			break;
		case S_POSITION_METRIC:
		case S_LEAD_METRIC:
		case S_LAG_METRIC:
		case S_CLIENT_ID_LABEL:
		case S_TOPIC_LABEL:
		case S_PARTITION_LABEL: {
			if (get_string(L, s, where, d, &str))
				return -1;
			char **dst = d->id == S_POSITION_METRIC ? &c->positions.position_metric
				   : d->id == S_LEAD_METRIC    ? &c->positions.lead_metric
				   : d->id == S_LAG_METRIC     ? &c->positions.lag_metric
				   : d->id == S_CLIENT_ID_LABEL ? &c->positions.client_id_label
				   : d->id == S_TOPIC_LABEL    ? &c->positions.topic_label
							       : &c->positions.partition_label;
			free(*dst);
			*dst = xstrdup(str);
			break;
		}
		case S_POSITION_MAX_AGE:
			if (get_duration(L, s, where, d, &c->positions.max_age_ms))
				return -1;
			break;
		case S_POSITION_TIMEOUT:
			if (get_duration(L, s, where, d, &c->positions.timeout_ms))
				return -1;
			break;
		case S_NOT_COMMITTING_AFTER:
			if (get_duration(L, s, where, d, &c->positions.not_committing_ms))
				return -1;
			break;
		default:
			break;
		}
	}
	return 0;
}

static int load_clusters(struct loader *L, config_setting_t *g)
{
	struct lt_config *cfg = L->cfg;
	int n = config_setting_length(g);
	cfg->clusters = xcalloc((size_t)n + 1, sizeof *cfg->clusters);
	for (int i = 0; i < n; i++) {
		config_setting_t *s = config_setting_get_elem(g, (unsigned)i);
		if (config_setting_type(s) != CONFIG_TYPE_GROUP)
			return at(L, s,
			          "cluster '%s' in 'clusters' must be a group { bootstrap_servers = ...; }, not %s",
			          config_setting_name(s), type_name(config_setting_type(s)));
		struct lt_cluster_def *c = &cfg->clusters[cfg->n_clusters++];
		c->name = xstrdup(config_setting_name(s));
		c->commit_stream = -1;
		c->line = config_setting_source_line(s);
		if (load_cluster(L, s, c))
			return -1;
	}
	return 0;
}

static char *known_clusters(const struct lt_config *cfg)
{
	if (cfg->n_clusters == 0)
		return xstrdup(cfg->path ? "no clusters are defined" : "no configuration file was found");
	size_t len = 8;
	for (size_t i = 0; i < cfg->n_clusters; i++)
		len += strlen(cfg->clusters[i].name) + 2;
	char *s = xmalloc(len);
	strcpy(s, "known: ");
	for (size_t i = 0; i < cfg->n_clusters; i++) {
		if (i)
			strcat(s, ", ");
		strcat(s, cfg->clusters[i].name);
	}
	return s;
}

static int load_root(struct loader *L, config_t *cf)
{
	config_setting_t *root = config_root_setting(cf);
	for (int i = 0; i < config_setting_length(root); i++) {
		config_setting_t *s = config_setting_get_elem(root, (unsigned)i);
		const char *name = config_setting_name(s);
		bool general = strcmp(name, "general") == 0, clusters = strcmp(name, "clusters") == 0;
		if (!general && !clusters)
			return at(L, s, "unknown setting '%s' (the file has two groups: general and clusters)", name);
		if (config_setting_type(s) != CONFIG_TYPE_GROUP)
			return at(L, s, "'%s' must be a group { ... }, not %s", name,
			          type_name(config_setting_type(s)));
		if (general ? load_general(L, s) : load_clusters(L, s))
			return -1;
	}
	if (L->cfg->default_cluster && !config_find_cluster(L->cfg, L->cfg->default_cluster)) {
		char *known = known_clusters(L->cfg);
		err_set(L->err, L->errlen, "%s:%d: default_cluster '%s' is not defined in 'clusters' (%s)",
			L->default_cluster_file, L->default_cluster_line, L->cfg->default_cluster, known);
		free(known);
		return -1;
	}
	return 0;
}

/* libconfig frees its strings without wiping them: wipe every string value first. */
static void wipe_tree(config_setting_t *s)
{
	int t = config_setting_type(s);
	if (t == CONFIG_TYPE_STRING) {
		char *v = (char *)config_setting_get_string(s);
		if (v)
			explicit_bzero(v, strlen(v));
	} else if (t == CONFIG_TYPE_GROUP || t == CONFIG_TYPE_ARRAY || t == CONFIG_TYPE_LIST) {
		for (int i = 0; i < config_setting_length(s); i++)
			wipe_tree(config_setting_get_elem(s, (unsigned)i));
	}
}

static void check_permissions(const struct lt_config *cfg, const struct stat *st, FILE *warn, char **warning)
{
	const char *secret = NULL;
	for (size_t i = 0; i < cfg->n_clusters && !secret; i++)
		for (size_t j = 0; j < cfg->clusters[i].n_props && !secret; j++)
			if (config_is_secret_key(cfg->clusters[i].prop_keys[j]))
				secret = cfg->clusters[i].prop_keys[j];
	if (!secret || !(st->st_mode & (S_IRGRP | S_IROTH)))
		return;
	*warning = xasprintf("%s holds secrets (%s) but is readable by %s (mode %04o); run: chmod 600 %s", cfg->path,
			     secret, (st->st_mode & S_IROTH) ? "others" : "its group", (unsigned)(st->st_mode & 07777),
			     cfg->path);
	if (warn)
		fprintf(warn, "lagtop: warning: %s\n", *warning);
}

void config_init_defaults(struct lt_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->refresh_ms = LT_DEFAULT_REFRESH_MS;
	cfg->lag_threshold = LT_DEFAULT_LAG_THRESHOLD;
	cfg->time_lag_threshold_ms = LT_DEFAULT_TIME_LAG_THRESHOLD_MS;
	cfg->theme = xstrdup(LT_DEFAULT_THEME);
	cfg->reset_confirm_threshold = LT_DEFAULT_RESET_CONFIRM;
	cfg->expiry_horizon_ms = LT_DEFAULT_EXPIRY_HORIZON_MS;
	cfg->commit_stream = true;
	cfg->mouse = true;
}

int config_load_file(struct lt_config *cfg, const char *path, FILE *warn, char *err, size_t errlen)
{
	struct stat st;
	config_init_defaults(cfg);
	cfg->path = xstrdup(path);

	FILE *fp = fopen(path, "r");
	if (!fp) {
		err_set(err, errlen, "%s: %s", path, strerror(errno));
		config_free(cfg);
		return -1;
	}
	if (fstat(fileno(fp), &st) != 0 || !S_ISREG(st.st_mode)) {
		err_set(err, errlen, "%s: not a regular file", path);
		fclose(fp);
		config_free(cfg);
		return -1;
	}

	config_t cf;
	config_init(&cf);
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		config_set_include_dir(&cf, *dir ? dir : "/");
	}
	/* libconfig reads floats with strtod: parse under the C locale whatever LC_NUMERIC is */
	locale_t c_loc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	locale_t old_loc = c_loc ? uselocale(c_loc) : (locale_t)0;
	int ok = config_read(&cf, fp);
	if (c_loc) {
		uselocale(old_loc);
		freelocale(c_loc);
	}
	fclose(fp);
	free(dir);

	int rc = 0;
	if (!ok) {
		const char *f = config_error_file(&cf);
		if (config_error_type(&cf) == CONFIG_ERR_FILE_IO)
			err_set(err, errlen, "%s: cannot read: %s", f ? f : path, config_error_text(&cf));
		else
			err_set(err, errlen, "%s:%d: %s", f ? f : path, config_error_line(&cf), config_error_text(&cf));
		rc = -1;
	} else {
		struct loader L = { .path = path, .cfg = cfg, .err = err, .errlen = errlen };
		rc = load_root(&L, &cf);
	}
	wipe_tree(config_root_setting(&cf));
	config_destroy(&cf);
	if (rc != 0) {
		config_free(cfg);
		return -1;
	}
	check_permissions(cfg, &st, warn, &cfg->warning);
	return 0;
}

int config_load(struct lt_config *cfg, const char *explicit_path, FILE *warn, char *err, size_t errlen)
{
	char *path = NULL;
	config_init_defaults(cfg);
	if (config_locate(explicit_path, NULL, &path, err, errlen) != 0) {
		config_free(cfg);
		return -1;
	}
	if (!path)
		return 0;
	config_free(cfg);
	int rc = config_load_file(cfg, path, warn, err, errlen);
	free(path);
	return rc;
}

void config_position_def_free(struct lt_position_def *p)
{
	free_strv(p->sources, p->n_sources, false);
	free(p->position_metric);
	free(p->lead_metric);
	free(p->lag_metric);
	free(p->client_id_label);
	free(p->topic_label);
	free(p->partition_label);
	memset(p, 0, sizeof *p);
}

static void cluster_def_free(struct lt_cluster_def *c)
{
	config_position_def_free(&c->positions);
	free(c->name);
	free(c->bootstrap);
	free_strv(c->prop_keys, c->n_props, false);
	free_strv(c->prop_values, c->n_props, true);
	free_strv(c->include, c->n_include, false);
	free_strv(c->exclude, c->n_exclude, false);
}

void config_free(struct lt_config *cfg)
{
	for (size_t i = 0; i < cfg->n_clusters; i++)
		cluster_def_free(&cfg->clusters[i]);
	free(cfg->clusters);
	free(cfg->path);
	free(cfg->default_cluster);
	free(cfg->theme);
	free(cfg->warning);
	memset(cfg, 0, sizeof *cfg);
}

const struct lt_cluster_def *config_find_cluster(const struct lt_config *cfg, const char *name)
{
	for (size_t i = 0; name && i < cfg->n_clusters; i++)
		if (strcmp(cfg->clusters[i].name, name) == 0)
			return &cfg->clusters[i];
	return NULL;
}

/* ------------------------------------------------------------------ selection */

static void set_prop(struct lt_cluster_conf *out, const char *key, size_t keylen, const char *value)
{
	for (size_t i = 0; i < out->n_props; i++) {
		if (strlen(out->prop_keys[i]) == keylen && strncmp(out->prop_keys[i], key, keylen) == 0) {
			wipe_free(out->prop_values[i]);
			out->prop_values[i] = xstrdup(value);
			return;
		}
	}
	size_t n = out->n_props;
	push_str(&out->prop_keys, &n, xstrndup(key, keylen));
	push_str(&out->prop_values, &out->n_props, xstrdup(value));
}

static char **dup_strv(char *const *v, size_t n)
{
	char **d = xcalloc(n + 1, sizeof *d);
	for (size_t i = 0; i < n; i++)
		d[i] = xstrdup(v[i]);
	return d;
}

int config_select(const struct lt_config *cfg, const struct lt_options *opts, struct lt_cluster_conf *out, char *err,
		  size_t errlen)
{
	memset(out, 0, sizeof *out);
	const char *want = opts->cluster ? opts->cluster : cfg->default_cluster;
	const struct lt_cluster_def *c = NULL;
	if (want) {
		c = config_find_cluster(cfg, want);
		if (!c) {
			char *safe = sanitize_dup(want, true);
			char *known = known_clusters(cfg);
			err_set(err, errlen, "unknown cluster '%s' (%s)", safe, known);
			free(safe);
			free(known);
			return -1;
		}
		out->name = xstrdup(c->name);
		out->bootstrap = xstrdup(c->bootstrap);
		out->n_props = c->n_props;
		out->prop_keys = dup_strv(c->prop_keys, c->n_props);
		out->prop_values = dup_strv(c->prop_values, c->n_props);
		out->n_include = c->n_include;
		out->include = dup_strv(c->include, c->n_include);
		out->n_exclude = c->n_exclude;
		out->exclude = dup_strv(c->exclude, c->n_exclude);
		out->cluster_read_only = c->read_only;
		out->positions = c->positions; /* then deep copies of its strings */
		out->positions.sources = dup_strv(c->positions.sources, c->positions.n_sources);
		out->positions.position_metric = xstrdup(c->positions.position_metric);
		out->positions.lead_metric = xstrdup(c->positions.lead_metric);
		out->positions.lag_metric = xstrdup(c->positions.lag_metric);
		out->positions.client_id_label = xstrdup(c->positions.client_id_label);
		out->positions.topic_label = xstrdup(c->positions.topic_label);
		out->positions.partition_label = xstrdup(c->positions.partition_label);
	}
	for (size_t i = 0; i < opts->n_position_sources; i++)
		push_str(&out->positions.sources, &out->positions.n_sources, xstrdup(opts->position_sources[i]));
	/* the cluster's own setting wins over general's */
	out->commit_stream = c && c->commit_stream >= 0 ? c->commit_stream == 1 : cfg->commit_stream;
	if (opts->no_commit_stream)
		out->commit_stream = false;
	/* --command-config after the file's cluster and before -b and -X (command_config.h) */
	if (opts->command_config) {
		struct rdprops cp;
		if (command_config_load(opts->command_config, &cp, err, errlen) != 0) {
			cluster_conf_free(out);
			return -1;
		}
		for (size_t i = 0; i < cp.n; i++) {
			if (strcmp(cp.keys[i], "bootstrap.servers") == 0) {
				free(out->bootstrap);
				out->bootstrap = xstrdup(cp.values[i]);
			} else {
				set_prop(out, cp.keys[i], strlen(cp.keys[i]), cp.values[i]);
			}
		}
		rdprops_free(&cp);
	}
	if (opts->bootstrap) {
		free(out->bootstrap);
		out->bootstrap = xstrdup(opts->bootstrap);
	}
	for (size_t i = 0; i < opts->n_props; i++) {
		const char *kv = opts->props[i];
		const char *eq = strchr(kv, '=');
		if (!eq || eq == kv) {
			cluster_conf_free(out);
			return err_set(err, errlen, "-X expects KEY=VALUE (argument %zu)", i + 1);
		}
		if ((size_t)(eq - kv) == strlen("bootstrap.servers") && strncmp(kv, "bootstrap.servers", 17) == 0) {
			free(out->bootstrap);
			out->bootstrap = xstrdup(eq + 1);
		} else {
			set_prop(out, kv, (size_t)(eq - kv), eq + 1);
		}
	}
	if (!out->bootstrap || !*out->bootstrap) {
		if (c)
			err_set(err, errlen, "cluster '%s' has no bootstrap_servers (%s:%d); give -b HOST:PORT", c->name,
				cfg->path ? cfg->path : "?", c->line);
		else
			err_set(err, errlen, "no bootstrap servers: give -b HOST:PORT[,...] or -c CLUSTER%s",
				cfg->path ? " (or set default_cluster in the configuration)"
			               : " with a configuration file");
		cluster_conf_free(out);
		return -1;
	}
	out->read_only = opts->read_only || out->cluster_read_only;
	out->refresh_ms = opts->interval_ms >= 0 ? opts->interval_ms : cfg->refresh_ms;
	out->theme = opts->theme ? opts->theme : cfg->theme ? cfg->theme : LT_DEFAULT_THEME;
	out->lag_threshold = cfg->lag_threshold;
	out->time_lag_threshold_ms = cfg->time_lag_threshold_ms;
	out->reset_confirm_threshold = cfg->reset_confirm_threshold;
	out->expiry_horizon_ms = cfg->expiry_horizon_ms;
	return 0;
}

/* True when the cluster's own properties set `key` (keylen bytes). */
static bool cluster_sets(const struct lt_cluster_def *c, const char *key, size_t keylen)
{
	for (size_t i = 0; i < c->n_props; i++)
		if (strlen(c->prop_keys[i]) == keylen && strncmp(c->prop_keys[i], key, keylen) == 0)
			return true;
	return false;
}

int config_select_switch(const struct lt_config *cfg, const struct lt_options *opts, size_t i,
			 struct lt_cluster_conf *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	if (i >= cfg->n_clusters)
		return err_set(err, errlen, "no cluster number %zu in the configuration", i + 1);
	const struct lt_cluster_def *c = &cfg->clusters[i];
	struct lt_options eff = *opts;
	eff.cluster = c->name;
	eff.bootstrap = NULL; /* -b named the first cluster, not this one */
	eff.n_position_sources = 0; /* nor do --position-source's consumers belong to this one */
	const char **props = xcalloc(opts->n_props + 1, sizeof *props);
	size_t n = 0;
	for (size_t k = 0; k < opts->n_props; k++) {
		const char *kv = opts->props[k];
		const char *eq = strchr(kv, '=');
		if (!eq || eq == kv) {
			props[n++] = kv; /* config_select words the error */
			continue;
		}
		size_t kl = (size_t)(eq - kv);
		char *key = xstrndup(kv, kl);
		bool keep = strcmp(key, "bootstrap.servers") != 0 && !config_is_secret_key(key) &&
			    !cluster_sets(c, kv, kl);
		free(key);
		if (keep)
			props[n++] = kv;
	}
	eff.props = props;
	eff.n_props = n;
	int rc = config_select(cfg, &eff, out, err, errlen);
	free(props);
	return rc;
}

int config_resolve(const struct lt_options *opts, FILE *warn, struct lt_config *cfg, struct lt_cluster_conf *out,
		   char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	if (config_load(cfg, opts->config_path, warn, err, errlen) != 0)
		return -1;
	if (config_select(cfg, opts, out, err, errlen) != 0) {
		config_free(cfg);
		return -1;
	}
	return 0;
}

void cluster_conf_free(struct lt_cluster_conf *c)
{
	free(c->name);
	free(c->bootstrap);
	free_strv(c->prop_keys, c->n_props, false);
	free_strv(c->prop_values, c->n_props, true);
	free_strv(c->include, c->n_include, false);
	free_strv(c->exclude, c->n_exclude, false);
	config_position_def_free(&c->positions);
	memset(c, 0, sizeof *c);
}

void config_position_sources(const struct lt_position_def *p, lt_pos_sources_conf *out)
{
	memset(out, 0, sizeof *out);
	out->n = p->n_sources;
	out->locations = (const char *const *)p->sources;
	/* a metric named in the file replaces the built-in names of its kind (empty lists: built in) */
	out->names.position[0] = p->position_metric;
	out->names.lead[0] = p->lead_metric;
	out->names.lag[0] = p->lag_metric;
	out->names.client_label = p->client_id_label;
	out->names.topic_label = p->topic_label;
	out->names.partition_label = p->partition_label;
	out->max_age_ms = p->max_age_ms;
	out->timeout_ms = (int)p->timeout_ms;
	out->not_committing_ms = p->not_committing_ms;
}
