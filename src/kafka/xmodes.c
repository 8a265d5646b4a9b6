/* xmodes.c — -X list (every property librdkafka knows) and -X dump (the effective configuration). */
#include "config.h"

#include <stdio.h>

#include "cli/modes.h"
#include "cli/target.h"
#include "kafka/client.h"

int mode_x_list(const struct lt_options *o)
{
	(void)o;
	rd_kafka_conf_properties_show(stdout);
	return fflush(stdout) == 0 ? LT_EXIT_OK : LT_EXIT_CLUSTER;
}

int mode_x_dump(const struct lt_options *o)
{
	struct lt_target t;
	char err[512];
	if (target_from_options(o, &t, stderr, err, sizeof err) != 0) {
		fprintf(stderr, "lagtop: %s\n", err);
		return LT_EXIT_USAGE;
	}
	struct lt_client_conf cc = {
		.bootstrap = t.bootstrap,
		.n_props = t.n_props,
		.prop_keys = (const char *const *)t.prop_keys,
		.prop_values = (const char *const *)t.prop_values,
	};
	int rc = client_conf_dump(stdout, &cc, err, sizeof err);
	target_free(&t);
	if (rc != 0) {
		fprintf(stderr, "lagtop: %s\n", err);
		return LT_EXIT_USAGE;
	}
	return fflush(stdout) == 0 ? LT_EXIT_OK : LT_EXIT_CLUSTER;
}
