/* fuzz_config.c — libFuzzer harness for the config loader (libconfig + lagtop's strict validation) and
 * its duration parser. The input is written to a private temp file and loaded with config_load_file(),
 * exactly the path a user's file takes. Inputs with @include are skipped: they would read other files
 * (a long run could find "@include \"/dev/zero\""). The same bytes go through --command-config's Java
 * properties parser, its librdkafka mapping and the JAAS parser (src/config/jprops.h, command_config.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/lagtop_test.h"

#include "config/command_config.h"
#include "config/config_file.h"
#include "config/duration.h"
#include "config/jprops.h"

static void check_config(const char *path, const uint8_t *data, size_t size)
{
	struct lt_config cfg;
	memset(&cfg, 0, sizeof cfg); /* config_load_file starts from the defaults itself */
	char err[512] = "";
	if (config_load_file(&cfg, path, NULL, err, sizeof err) != 0) {
		/* one line naming the problem */
		if (!err[0] || strchr(err, '\n'))
			abort();
	}
	config_free(&cfg);

	/* The duration parser on the same bytes, as a C string. */
	char *s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	int64_t ms;
	if (config_parse_duration(s, &ms) == 0 && ms < 0)
		abort();
	/* --command-config: the Java properties parser and the librdkafka mapping, and a JAAS entry */
	struct jprops props;
	struct rdprops rd;
	err[0] = '\0';
	if (jprops_parse((const char *)data, size, &props, err, sizeof err) == 0) {
		if (command_config_map(&props, &rd, err, sizeof err) != 0 && (!err[0] || strchr(err, '\n')))
			abort();
		rdprops_free(&rd);
	} else if (!err[0] || strchr(err, '\n')) {
		abort();
	}
	jprops_free(&props);
	struct jaas_entry e;
	if (jaas_parse(s, &e, err, sizeof err) != 0 && (!err[0] || strchr(err, '\n')))
		abort();
	jaas_free(&e);
	free(s);
}

LT_FUZZ_LIBCONFIG_HARNESS("config", check_config)
