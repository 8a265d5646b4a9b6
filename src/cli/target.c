/* target.c — the connection target from the options (see target.h). */
#include "config.h"

#include "cli/target.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static void push(char ***arr, size_t *n, const char *v)
{
	*arr = xrealloc(*arr, (*n + 1) * sizeof **arr);
	(*arr)[(*n)++] = xstrdup(v);
}

static void push_prop(struct lt_target *t, const char *key, size_t keylen, const char *value)
{
	t->prop_keys = xrealloc(t->prop_keys, (t->n_props + 1) * sizeof *t->prop_keys);
	t->prop_values = xrealloc(t->prop_values, (t->n_props + 1) * sizeof *t->prop_values);
	t->prop_keys[t->n_props] = xstrndup(key, keylen);
	t->prop_values[t->n_props] = xstrdup(value);
	t->n_props++;
}

int target_from_options(const struct lt_options *o, struct lt_target *t, bool need_bootstrap, char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	t->interval_ms = o->interval_ms > 0 ? o->interval_ms : 2000;
	t->read_only = o->read_only;

	if (o->cluster) {
		/* Named clusters live in the config file (config module, not merged yet). */
		snprintf(err, errlen, "unknown cluster '%s' (no config file defines it)", o->cluster);
		return -1;
	}
	if (o->bootstrap)
		t->bootstrap = xstrdup(o->bootstrap);
	for (size_t i = 0; i < o->n_props; i++) {
		const char *kv = o->props[i];
		const char *eq = strchr(kv, '=');
		if (!eq || eq == kv) {
			snprintf(err, errlen, "-X expects KEY=VALUE, got '%s'", kv);
			target_free(t);
			return -1;
		}
		push_prop(t, kv, (size_t)(eq - kv), eq + 1);
	}
	bool has_bootstrap = t->bootstrap != NULL;
	for (size_t i = 0; i < t->n_props; i++)
		has_bootstrap |= strcmp(t->prop_keys[i], "bootstrap.servers") == 0 ||
				 strcmp(t->prop_keys[i], "metadata.broker.list") == 0;
	if (!has_bootstrap && need_bootstrap) {
		snprintf(err, errlen, "no cluster given: use -b HOST:PORT[,...] or -c NAME");
		target_free(t);
		return -1;
	}
	for (size_t i = 0; i < o->n_groups; i++)
		push(&t->include, &t->n_include, o->groups[i]);
	t->cluster_name = xstrdup(t->bootstrap ? t->bootstrap : "kafka");
	return 0;
}

void target_free(struct lt_target *t)
{
	for (size_t i = 0; i < t->n_props; i++) {
		free(t->prop_keys[i]);
		free(t->prop_values[i]);
	}
	free(t->prop_keys);
	free(t->prop_values);
	for (size_t i = 0; i < t->n_include; i++)
		free(t->include[i]);
	free(t->include);
	for (size_t i = 0; i < t->n_exclude; i++)
		free(t->exclude[i]);
	free(t->exclude);
	free(t->bootstrap);
	free(t->cluster_name);
	memset(t, 0, sizeof *t);
}
