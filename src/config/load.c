/* load.c — reads one configuration file with libconfig and checks every setting against the schema
 * (schema.c), with errors that name the file and line (config_load_file, config_load: config_file.h). */
#include "config/config_file.h"

#include <errno.h>
#include <libconfig.h>
#include <limits.h>
#include <locale.h>
#include <regex.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/duration.h"
#include "config/schema.h"
#include "config/secrets.h"
#include "util/errbuf.h"
#include "util/file_trust.h"
#include "util/regex.h"
#include "util/sanitize.h"
#include "util/xalloc.h"

static void push_str(char ***arr, size_t *n, char *s)
{
	*arr = xrealloc(*arr, (*n + 1) * sizeof **arr);
	(*arr)[(*n)++] = s;
}

struct loader {
	const char *path;
	struct lt_config *cfg;
	char *err;
	size_t errlen;
	int default_cluster_line;
	const char *default_cluster_file;
	bool allow_exec; /* LT_CONFIG_ALLOW_EXEC: properties that run programs are taken */
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
	config_format_duration(d->min, lo, sizeof lo);
	config_format_duration(d->max, hi, sizeof hi);
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
	if (d->kind == K_NAME && !config_is_name(v)) {
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
		if (!config_is_name(key)) {
			at(L, e, "'%s' in %s: element %d has a bad property name (letters, digits, '.', '_', '-')",
			   d->name, where, i + 1);
			free(key);
			return -1;
		}
		if (config_runs_code(key, eq + 1) && !L->allow_exec) {
			at(L, e,
			   "'%s' in %s: property '%s' runs a program or loads code; lagtop takes it from a file only "
			   "with --allow-exec-config (or give it with -X)",
			   d->name, where, key);
			free(key);
			return -1;
		}
		if (connection_is_bootstrap_key(key, strlen(key))) {
			free(key);
			return at(L, e, "'%s' in %s: give bootstrap.servers as bootstrap_servers = \"host:port,...\"",
				  d->name, where);
		}
		if (connection_has(&c->conn, key, strlen(key))) {
			at(L, e, "'%s' in %s: property '%s' is given twice", d->name, where, key);
			free(key);
			return -1;
		}
		connection_set(&c->conn, key, strlen(key), eq + 1);
		free(key);
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

/* "unknown setting 'x' in <where>", with the nearest known name when one is close. */
static int unknown_setting(const struct loader *L, const config_setting_t *s, const struct setting_def *defs, size_t n,
			   const char *where)
{
	const char *name = config_setting_name(s);
	const char *hint = config_suggest_setting(name, defs, n);
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
		const struct setting_def *d = config_find_setting(config_general_settings, config_n_general, name);
		if (!d)
			return unknown_setting(L, s, config_general_settings, config_n_general, where);
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
		default: break;
		}
	}
	return 0;
}

static int load_cluster(struct loader *L, config_setting_t *g, struct lt_cluster_def *c)
{
	char where[160];
	snprintf(where, sizeof where, "cluster '%s'", c->conn.name);
	for (int i = 0; i < config_setting_length(g); i++) {
		config_setting_t *s = config_setting_get_elem(g, (unsigned)i);
		const char *name = config_setting_name(s);
		const struct setting_def *d = config_find_setting(config_cluster_settings, config_n_cluster, name);
		if (!d)
			return unknown_setting(L, s, config_cluster_settings, config_n_cluster, where);
		const char *str;
		switch (d->id) {
		case S_BOOTSTRAP:
			if (get_string(L, s, where, d, &str))
				return -1;
			c->conn.bootstrap = xstrdup(str);
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
						  "'%s' in %s: element %d is empty (a URL or a file)", d->name, where,
						  k + 1);
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
			char **dst = d->id == S_POSITION_METRIC   ? &c->positions.position_metric
				     : d->id == S_LEAD_METRIC     ? &c->positions.lead_metric
				     : d->id == S_LAG_METRIC      ? &c->positions.lag_metric
				     : d->id == S_CLIENT_ID_LABEL ? &c->positions.client_id_label
				     : d->id == S_TOPIC_LABEL     ? &c->positions.topic_label
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
		default: break;
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
		c->conn.name = xstrdup(config_setting_name(s));
		c->commit_stream = -1;
		c->line = config_setting_source_line(s);
		if (load_cluster(L, s, c))
			return -1;
	}
	return 0;
}

/* panes = { partitions = { columns = [ "topic", "partition", ... ]; }; ... }: each pane's columns, shown in
 * that order (the rest hidden). */
static int load_pane(struct loader *L, config_setting_t *p, lt_row_kind kind)
{
	char where[64];
	snprintf(where, sizeof where, "'panes.%s'", row_kind_name(kind));
	if (config_setting_type(p) != CONFIG_TYPE_GROUP)
		return at(L, p, "%s must be a group { columns = [ ... ]; }, not %s", where,
			  type_name(config_setting_type(p)));
	static const struct setting_def columns_def = { "columns", 0, K_PROPS, 0, 0 };
	for (int i = 0; i < config_setting_length(p); i++) {
		config_setting_t *s = config_setting_get_elem(p, (unsigned)i);
		if (strcmp(config_setting_name(s), "columns") != 0)
			return unknown_setting(L, s, &columns_def, 1, where);
		if (check_string_list(L, s, where, &columns_def))
			return -1;
		size_t n = (size_t)config_setting_length(s);
		const char **names = xcalloc(n + 1, sizeof *names);
		for (size_t j = 0; j < n; j++)
			names[j] = config_setting_get_string(config_setting_get_elem(s, (unsigned)j));
		char msg[300];
		int rc = colset_parse(kind, names, n, &L->cfg->columns[kind], msg, sizeof msg);
		free(names);
		if (rc)
			return at(L, s, "%s", msg);
	}
	return 0;
}

static int load_panes(struct loader *L, config_setting_t *g)
{
	for (int i = 0; i < config_setting_length(g); i++) {
		config_setting_t *p = config_setting_get_elem(g, (unsigned)i);
		lt_row_kind kind;
		if (!row_kind_by_name(config_setting_name(p), &kind))
			return at(L, p,
				  "unknown pane '%s' in 'panes' (known: groups, partitions, topics, topic_groups)",
				  config_setting_name(p));
		if (load_pane(L, p, kind))
			return -1;
	}
	return 0;
}

static int load_root(struct loader *L, config_t *cf)
{
	config_setting_t *root = config_root_setting(cf);
	for (int i = 0; i < config_setting_length(root); i++) {
		config_setting_t *s = config_setting_get_elem(root, (unsigned)i);
		const char *name = config_setting_name(s);
		bool general = strcmp(name, "general") == 0, clusters = strcmp(name, "clusters") == 0;
		bool panes = strcmp(name, "panes") == 0;
		if (!general && !clusters && !panes)
			return at(L, s, "unknown setting '%s' (the file has three groups: general, clusters and panes)",
				  name);
		if (config_setting_type(s) != CONFIG_TYPE_GROUP)
			return at(L, s, "'%s' must be a group { ... }, not %s", name,
				  type_name(config_setting_type(s)));
		if (general ? load_general(L, s) : panes ? load_panes(L, s) : load_clusters(L, s))
			return -1;
	}
	if (L->cfg->default_cluster && !config_find_cluster(L->cfg, L->cfg->default_cluster)) {
		char *known = config_known_clusters(L->cfg);
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
		for (size_t j = 0; j < cfg->clusters[i].conn.n_props && !secret; j++)
			if (config_is_secret_key(cfg->clusters[i].conn.prop_keys[j]))
				secret = cfg->clusters[i].conn.prop_keys[j];
	*warning = config_secret_warning(cfg->path, secret, (unsigned)st->st_mode);
	if (*warning && warn)
		fprintf(warn, "lagtop: warning: %s\n", *warning);
}

/* Files pulled in with @include are read by libconfig itself (1.5 has no hook to open them): each one a
 * setting came from is held to the same owner and mode rule, before any of its settings is used. */
static int check_included(const config_setting_t *s, const char *path, char *err, size_t errlen)
{
	const char *name = config_setting_source_file(s);
	if (name && strcmp(name, path) != 0) {
		/* libconfig names an included file as written: relative to the including file's directory */
		const char *slash = strrchr(path, '/');
		char *f = name[0] == '/' || !slash ? xstrdup(name)
						   : xasprintf("%.*s/%s", (int)(slash - path), path, name);
		struct stat st;
		int rc = stat(f, &st) != 0 ? err_set(err, errlen, "%s: %s", f, strerror(errno))
					   : ft_check_owner_mode(f, &st, err, errlen);
		free(f);
		if (rc != 0)
			return -1;
	}
	int t = config_setting_type(s);
	if (t == CONFIG_TYPE_GROUP || t == CONFIG_TYPE_ARRAY || t == CONFIG_TYPE_LIST)
		for (int i = 0; i < config_setting_length(s); i++)
			if (check_included(config_setting_get_elem(s, (unsigned)i), path, err, errlen) != 0)
				return -1;
	return 0;
}

/* A configuration file is a page of settings: one over CONFIG_MAX_BYTES, or a string value (adjacent string
 * literals are one value) over CONFIG_MAX_STRING, is refused before libconfig reads it, whose lexer takes
 * quadratic time over a long string (1 MB: 3 s; 3 MB: 6 s; 10 MB: minutes). */
#define CONFIG_MAX_BYTES  (1u << 20)
#define CONFIG_MAX_STRING (64u << 10)

/* Skips a comment starting at text[i] ('#', "//" or a C comment), counting lines; returns the index after
 * it, or i when no comment starts there. */
static size_t skip_comment(const char *text, size_t len, size_t i, int *line)
{
	if (text[i] == '#' || (text[i] == '/' && i + 1 < len && text[i + 1] == '/')) {
		while (i < len && text[i] != '\n')
			i++;
		return i;
	}
	if (text[i] == '/' && i + 1 < len && text[i + 1] == '*') {
		for (i += 2; i < len && !(text[i] == '*' && i + 1 < len && text[i + 1] == '/'); i++)
			*line += text[i] == '\n';
		return i + 2 < len ? i + 2 : len;
	}
	return i;
}

/* The line where a string value longer than max starts, or 0 when none is. */
static int long_string_line(const char *text, size_t len, size_t max)
{
	int line = 1, start = 0;
	size_t run = 0; /* characters of the string value so far (over adjacent literals) */
	bool in_str = false;
	for (size_t i = 0; i < len; i++) {
		char c = text[i];
		if (in_str) {
			if (c == '"') {
				in_str = false;
				continue;
			}
			if (c == '\\' && i + 1 < len)
				c = text[++i];
			line += c == '\n';
			if (++run > max)
				return start;
		} else if (c == '"') {
			in_str = true;
			if (run == 0)
				start = line;
		} else if (c == '\n') {
			line++;
		} else if (c != ' ' && c != '\t' && c != '\r' && c != '\f') {
			size_t after = skip_comment(text, len, i, &line);
			if (after == i)
				run = 0; /* any other token ends the value */
			else
				i = after - 1;
		}
	}
	return 0;
}

/* Reads the file for libconfig: owned by the user or root and not writable by others (it can name
 * programs librdkafka runs), a regular file (a FIFO would block), of bounded size and string lengths.
 * Returns the text (wipe and free it), or NULL with err. */
static char *read_trusted(const char *path, struct stat *st, char *err, size_t errlen)
{
	int fd = ft_open_read(path, FT_OWNED, NULL, st, err, errlen);
	if (fd < 0)
		return NULL;
	if ((uint64_t)st->st_size > CONFIG_MAX_BYTES) {
		close(fd);
		err_set(err, errlen, "refusing %s: %lld bytes, over the 1 MiB a configuration file may have", path,
			(long long)st->st_size);
		return NULL;
	}
	size_t len = 0;
	char *text = ft_read_all(fd, path, CONFIG_MAX_BYTES, &len, err, errlen);
	close(fd);
	if (!text)
		return NULL;
	int line = strlen(text) == len ? long_string_line(text, len, CONFIG_MAX_STRING) : -1;
	if (line != 0) {
		if (line < 0)
			err_set(err, errlen, "%s: holds a NUL byte: not a configuration file", path);
		else
			err_set(err, errlen, "%s:%d: a string over 64 KiB: not a lagtop setting", path, line);
		explicit_bzero(text, len);
		free(text);
		return NULL;
	}
	return text;
}

int config_load_file_flags(struct lt_config *cfg, const char *path, unsigned flags, FILE *warn, char *err,
			   size_t errlen)
{
	struct stat st;
	config_init_defaults(cfg);
	cfg->path = xstrdup(path);

	char *text = read_trusted(path, &st, err, errlen);
	if (!text) {
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
	int ok = config_read_string(&cf, text);
	if (c_loc) {
		uselocale(old_loc);
		freelocale(c_loc);
	}
	explicit_bzero(text, strlen(text));
	free(text);
	free(dir);

	int rc = 0;
	if (!ok) {
		const char *f = config_error_file(&cf);
		if (config_error_type(&cf) == CONFIG_ERR_FILE_IO)
			err_set(err, errlen, "%s: cannot read: %s", f ? f : path, config_error_text(&cf));
		else
			err_set(err, errlen, "%s:%d: %s", f ? f : path, config_error_line(&cf), config_error_text(&cf));
		rc = -1;
	} else if (check_included(config_root_setting(&cf), path, err, errlen) != 0) {
		rc = -1;
	} else {
		struct loader L = { .path = path,
				    .cfg = cfg,
				    .err = err,
				    .errlen = errlen,
				    .allow_exec = flags & LT_CONFIG_ALLOW_EXEC };
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

int config_load_file(struct lt_config *cfg, const char *path, FILE *warn, char *err, size_t errlen)
{
	return config_load_file_flags(cfg, path, 0, warn, err, errlen);
}

int config_load(struct lt_config *cfg, const char *explicit_path, unsigned flags, FILE *warn, char *err, size_t errlen)
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
	int rc = config_load_file_flags(cfg, path, flags, warn, err, errlen);
	free(path);
	return rc;
}
