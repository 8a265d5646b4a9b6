/* config_file.c — the configuration in memory: defaults, lookup, copying and freeing (config_file.h). */
#include "config/config_file.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
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
	for (unsigned k = 0; k < LT_ROW_KINDS; k++)
		colset_default((lt_row_kind)k, &cfg->columns[k]);
}

void config_position_def_free(struct lt_position_def *p)
{
	free_strv(p->sources, p->n_sources);
	free(p->position_metric);
	free(p->lead_metric);
	free(p->lag_metric);
	free(p->client_id_label);
	free(p->topic_label);
	free(p->partition_label);
	memset(p, 0, sizeof *p);
}

void config_position_def_copy(struct lt_position_def *dst, const struct lt_position_def *src)
{
	*dst = *src; /* then deep copies of its strings */
	dst->sources = xcalloc(src->n_sources + 1, sizeof *dst->sources);
	for (size_t i = 0; i < src->n_sources; i++)
		dst->sources[i] = xstrdup(src->sources[i]);
	dst->position_metric = xstrdup(src->position_metric);
	dst->lead_metric = xstrdup(src->lead_metric);
	dst->lag_metric = xstrdup(src->lag_metric);
	dst->client_id_label = xstrdup(src->client_id_label);
	dst->topic_label = xstrdup(src->topic_label);
	dst->partition_label = xstrdup(src->partition_label);
}

static void cluster_def_free(struct lt_cluster_def *c)
{
	config_position_def_free(&c->positions);
	connection_free(&c->conn);
	free_strv(c->include, c->n_include);
	free_strv(c->exclude, c->n_exclude);
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
		if (strcmp(cfg->clusters[i].conn.name, name) == 0)
			return &cfg->clusters[i];
	return NULL;
}

char *config_known_clusters(const struct lt_config *cfg)
{
	if (cfg->n_clusters == 0)
		return xstrdup(cfg->path ? "no clusters are defined" : "no configuration file was found");
	size_t len = 8;
	for (size_t i = 0; i < cfg->n_clusters; i++)
		len += strlen(cfg->clusters[i].conn.name) + 2;
	char *s = xmalloc(len);
	strcpy(s, "known: ");
	for (size_t i = 0; i < cfg->n_clusters; i++) {
		if (i)
			strcat(s, ", ");
		strcat(s, cfg->clusters[i].conn.name);
	}
	return s;
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
