/* target.c — the configuration file and the command line combined, in one place (see target.h). */
#include "config.h"

#include "cli/target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/command_config.h"
#include "config/secrets.h"
#include "kafka/collector.h"
#include "kafka/log_starts.h"
#include "util/errbuf.h"
#include "util/regex.h"
#include "util/sanitize.h"
#include "util/strv.h"
#include "util/xalloc.h"

/* The file's cluster `which` stands for: *c NULL when none is chosen (-b alone). */
static int pick_cluster(const struct lt_config *cfg, const struct lt_options *o, size_t which,
			const struct lt_cluster_def **c, char *err, size_t errlen)
{
	*c = NULL;
	if (which != TARGET_CHOSEN) {
		if (which >= cfg->n_clusters)
			return err_set(err, errlen, "no cluster number %zu in the configuration", which + 1);
		*c = &cfg->clusters[which];
		return 0;
	}
	const char *want = o->cluster ? o->cluster : cfg->default_cluster;
	if (!want)
		return 0;
	*c = config_find_cluster(cfg, want);
	if (*c)
		return 0;
	char *safe = sanitize_dup(want, true);
	char *known = config_known_clusters(cfg);
	err_set(err, errlen, "unknown cluster '%s' (%s)", safe, known);
	free(safe);
	free(known);
	return -1;
}

/* Whether a property from the command line (--command-config or -X) applies: always to the cluster the
 * options chose; to a cluster switched to only when it neither names nor authenticates the first one and
 * the chosen cluster does not set it itself. */
static bool carries_over(const struct lt_cluster_def *c, bool switched, const char *key, size_t keylen)
{
	if (!switched)
		return true;
	if (connection_is_bootstrap_key(key, keylen) || connection_has(&c->conn, key, keylen))
		return false;
	char *k = xstrndup(key, keylen);
	bool secret = config_is_secret_key(k);
	free(k);
	return !secret;
}

int target_connection(const struct lt_config *cfg, const struct lt_options *o, size_t which, struct lt_connection *out,
		      char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	const struct lt_cluster_def *c;
	if (pick_cluster(cfg, o, which, &c, err, errlen) != 0)
		return -1;
	bool switched = which != TARGET_CHOSEN;
	if (c)
		connection_copy(out, &c->conn);
	if (o->command_config) {
		struct rdprops cp;
		/* its permission warning once, when the chosen cluster is resolved (before any screen is drawn) */
		if (command_config_load(o->command_config, &cp, switched ? NULL : stderr, err, errlen) != 0) {
			connection_free(out);
			return -1;
		}
		for (size_t i = 0; i < cp.n; i++)
			if (carries_over(c, switched, cp.keys[i], strlen(cp.keys[i])))
				connection_set(out, cp.keys[i], strlen(cp.keys[i]), cp.values[i]);
		rdprops_free(&cp);
	}
	if (o->bootstrap && !switched) {
		free(out->bootstrap);
		out->bootstrap = xstrdup(o->bootstrap);
	}
	for (size_t i = 0; i < o->n_props; i++) {
		const char *kv = o->props[i];
		const char *eq = strchr(kv, '=');
		if (!eq || eq == kv) {
			connection_free(out);
			return err_set(err, errlen, "-X expects KEY=VALUE (argument %zu)", i + 1);
		}
		if (carries_over(c, switched, kv, (size_t)(eq - kv)))
			connection_set(out, kv, (size_t)(eq - kv), eq + 1);
	}
	if (out->bootstrap && *out->bootstrap)
		return 0;
	if (c)
		err_set(err, errlen, "cluster '%s' has no bootstrap_servers (%s:%d)%s", c->conn.name,
			cfg->path ? cfg->path : "?", c->line, switched ? "" : "; give -b HOST:PORT");
	else
		err_set(err, errlen, "no bootstrap servers: give -b HOST:PORT[,...] or -c CLUSTER%s",
			cfg->path ? " (or set default_cluster in the configuration)" : " with a configuration file");
	connection_free(out);
	return -1;
}

int target_resolve(const struct lt_config *cfg, const struct lt_options *o, size_t which, struct lt_target *t,
		   char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	const struct lt_cluster_def *c;
	if (pick_cluster(cfg, o, which, &c, err, errlen) != 0 ||
	    target_connection(cfg, o, which, &t->conn, err, errlen) != 0)
		return -1;
	bool switched = which != TARGET_CHOSEN;

	/* -g and -G replace the cluster's include list: the user asked for exactly these groups. An exact id
	 * (kafka-consumer-groups' --group) is matched as the regex ^id$ with every special character escaped. */
	if (o->n_groups || o->n_group_regex) {
		t->n_include = o->n_groups + o->n_group_regex;
		t->include = xcalloc(t->n_include + 1, sizeof *t->include);
		for (size_t i = 0; i < o->n_groups; i++)
			t->include[i] = regex_for_exact(o->groups[i]);
		for (size_t i = 0; i < o->n_group_regex; i++)
			t->include[o->n_groups + i] = xstrdup(o->group_regex[i]);
		t->n_exact = o->n_groups;
		t->exact = strv_dup(o->n_groups, o->groups);
	} else if (c && !o->all_groups) {
		t->n_include = c->n_include;
		t->include = strv_dup(c->n_include, (const char *const *)c->include);
	}
	/* --all-groups is every group; --describe's ids were asked for by name: no exclude list hides them */
	if (c && !o->all_groups && o->mode != LT_MODE_DESCRIBE) {
		t->n_exclude = c->n_exclude;
		t->exclude = strv_dup(c->n_exclude, (const char *const *)c->exclude);
	}

	if (c)
		config_position_def_copy(&t->positions, &c->positions);
	if (!switched) /* --position-source's consumers read the first cluster, not one switched to */
		for (size_t i = 0; i < o->n_position_sources; i++) {
			struct lt_position_def *p = &t->positions;
			p->sources = xrealloc(p->sources, (p->n_sources + 2) * sizeof *p->sources);
			p->sources[p->n_sources++] = xstrdup(o->position_sources[i]);
			p->sources[p->n_sources] = NULL;
		}
	/* the cluster's own commit_stream wins over general's */
	t->commit_stream = c && c->commit_stream >= 0 ? c->commit_stream == 1 : cfg->commit_stream;
	if (o->no_commit_stream)
		t->commit_stream = false;
	t->cluster_read_only = c && c->read_only;
	t->read_only = o->read_only || t->cluster_read_only;
	t->interval_ms = o->interval_ms >= 0 ? o->interval_ms : cfg->refresh_ms;
	t->theme = xstrdup(o->theme ? o->theme : cfg->theme ? cfg->theme : LT_DEFAULT_THEME);
	t->allowed_lag = cfg->lag_threshold;
	t->time_lag_threshold_ms = cfg->time_lag_threshold_ms;
	t->reset_confirm_threshold = cfg->reset_confirm_threshold;
	t->expiry_horizon_ms = cfg->expiry_horizon_ms;
	return 0;
}

int target_from_options(const struct lt_options *o, struct lt_target *t, FILE *warn, struct lt_config *cfg_out,
			char *err, size_t errlen)
{
	struct lt_config cfg;
	memset(t, 0, sizeof *t);
	if (config_load(&cfg, o->config_path, o->allow_exec_config ? LT_CONFIG_ALLOW_EXEC : 0, warn, err, errlen) != 0)
		return -1;
	int rc = target_resolve(&cfg, o, TARGET_CHOSEN, t, err, errlen);
	if (rc == 0 && cfg_out)
		*cfg_out = cfg;
	else
		config_free(&cfg);
	return rc;
}

void target_free(struct lt_target *t)
{
	connection_free(&t->conn);
	strv_free(t->n_include, t->include);
	strv_free(t->n_exact, t->exact);
	strv_free(t->n_exclude, t->exclude);
	free(t->theme);
	config_position_def_free(&t->positions);
	memset(t, 0, sizeof *t);
}

void target_collector_conf(const struct lt_target *t, int timeout_ms, struct lt_collector_conf *conf)
{
	*conf = (struct lt_collector_conf){
		.conn = &t->conn,
		.n_group_regex = t->n_include,
		.group_regex = (const char *const *)t->include,
		.n_group_exclude = t->n_exclude,
		.group_exclude = (const char *const *)t->exclude,
		.n_extra_groups = t->n_exact,
		.extra_groups = (const char *const *)t->exact,
		.interval_ms = t->interval_ms,
		.timeout_ms = timeout_ms,
		.commit_stream = t->commit_stream,
		.expiry_horizon_ms = t->expiry_horizon_ms,
		.log_start_max_age_ms = LT_LOG_START_MAX_AGE_MS,
	};
	model_params_default(&conf->model);
	conf->model.allowed_lag = t->allowed_lag;
	conf->model.time_lag_threshold_ms = t->time_lag_threshold_ms;
}
