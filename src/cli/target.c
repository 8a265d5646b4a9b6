/* target.c — the connection target from the config file and the options (see target.h). */
#include "config.h"

#include "cli/target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "kafka/collector.h"
#include "util/regex.h"
#include "util/xalloc.h"

static char **strv_dup(size_t n, char *const *v)
{
	char **out = xcalloc(n + 1, sizeof *out);
	for (size_t i = 0; i < n; i++)
		out[i] = xstrdup(v[i]);
	return out;
}

static void strv_free(size_t n, char **v, bool wipe)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++) {
		if (wipe && v[i])
			explicit_bzero(v[i], strlen(v[i]));
		free(v[i]);
	}
	free(v);
}

int target_from_options(const struct lt_options *o, struct lt_target *t, FILE *warn, char *err, size_t errlen)
{
	struct lt_config cfg;
	struct lt_cluster_conf cc;
	memset(t, 0, sizeof *t);
	if (config_resolve(o, warn, &cfg, &cc, err, errlen) != 0)
		return -1;

	t->cluster_name = xstrdup(cc.name ? cc.name : cc.bootstrap);
	t->bootstrap = xstrdup(cc.bootstrap);
	t->n_props = cc.n_props;
	t->prop_keys = strv_dup(cc.n_props, cc.prop_keys);
	t->prop_values = strv_dup(cc.n_props, cc.prop_values);
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
		t->exact = strv_dup(o->n_groups, (char *const *)o->groups);
	} else if (!o->all_groups) {
		t->n_include = cc.n_include;
		t->include = strv_dup(cc.n_include, cc.include);
	}
	/* --all-groups is every group; --describe's ids were asked for by name: no exclude list hides them */
	if (!o->all_groups && o->mode != LT_MODE_DESCRIBE) {
		t->n_exclude = cc.n_exclude;
		t->exclude = strv_dup(cc.n_exclude, cc.exclude);
	}
	t->read_only = cc.read_only;
	t->interval_ms = cc.refresh_ms;
	t->allowed_lag = cc.lag_threshold;
	t->commit_stream = cc.commit_stream;
	t->expiry_horizon_ms = cc.expiry_horizon_ms;
	t->time_lag_threshold_ms = cc.time_lag_threshold_ms;
	t->positions = cc.positions; /* taken over */
	memset(&cc.positions, 0, sizeof cc.positions);
	cluster_conf_free(&cc);
	config_free(&cfg);
	return 0;
}

void target_free(struct lt_target *t)
{
	strv_free(t->n_props, t->prop_keys, false);
	strv_free(t->n_props, t->prop_values, true);
	strv_free(t->n_include, t->include, false);
	strv_free(t->n_exact, t->exact, false);
	strv_free(t->n_exclude, t->exclude, false);
	free(t->bootstrap);
	free(t->cluster_name);
	config_position_def_free(&t->positions);
	memset(t, 0, sizeof *t);
}

void target_collector_conf(const struct lt_target *t, int timeout_ms, struct lt_collector_conf *conf)
{
	*conf = (struct lt_collector_conf){
		.cluster_name = t->cluster_name,
		.bootstrap = t->bootstrap,
		.n_props = t->n_props,
		.prop_keys = (const char *const *)t->prop_keys,
		.prop_values = (const char *const *)t->prop_values,
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
	};
	model_params_default(&conf->model);
	conf->model.allowed_lag = t->allowed_lag;
	conf->model.time_lag_threshold_ms = t->time_lag_threshold_ms;
}
