/* target.h — which cluster to talk to and how: bootstrap, librdkafka properties and group filters,
 * from the command line (and, once the config module is merged, from the config file's cluster).
 * Shared by --once, -X dump and the other modes that connect. */
#ifndef LAGTOP_CLI_TARGET_H
#define LAGTOP_CLI_TARGET_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/options.h"

struct lt_target {
	char *cluster_name;      /* display name: -c NAME, else the bootstrap list */
	char *bootstrap;         /* may be NULL if a property sets bootstrap.servers */
	size_t n_props;          /* config properties first, then -X, in order */
	char **prop_keys;
	char **prop_values;
	size_t n_include;        /* group regexes: -g, else the config's include list */
	char **include;
	size_t n_exclude;
	char **exclude;
	bool read_only;
	int interval_ms;         /* -i, else the config's, else 2000 */
};

/* Returns 0, or -1 with a one-line usage error in err (unknown cluster, malformed -X, and no bootstrap
 * servers when need_bootstrap). */
int target_from_options(const struct lt_options *o, struct lt_target *t, bool need_bootstrap, char *err,
			size_t errlen);
void target_free(struct lt_target *t);

#endif
