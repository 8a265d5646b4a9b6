/* command_config.h — kafka-consumer-groups' --command-config file (Java properties for the Admin client) as
 * librdkafka properties, through one table (command_config.c): a key is copied, renamed, interpreted
 * (sasl.jaas.config, the ssl.*store.* family, ssl.endpoint.identification.algorithm), or refused with a
 * one-line error that names it and says what to use instead. Nothing is silently dropped.
 *
 * Precedence (target_connection, src/cli/target.h): the configuration file's cluster, then --command-config,
 * then -b, then -X; a later source replaces a property of the same name.
 */
#ifndef LAGTOP_CONFIG_COMMAND_CONFIG_H
#define LAGTOP_CONFIG_COMMAND_CONFIG_H

#include <stddef.h>
#include <stdio.h>

#include "config/jprops.h"

/* The librdkafka properties, in the order they were produced. */
struct rdprops {
	size_t n;
	char **keys;
	char **values;
};

/* Maps parsed properties. Returns 0, or -1 with "KEY (line N): why; what to use instead" in err (never a
 * value). out is always safe to rdprops_free. */
int command_config_map(const struct jprops *in, struct rdprops *out, char *err, size_t errlen);

/* Reads the file at path (at most 1 MiB; owned by the user or root, not writable by group or others, a regular
 * file: util/file_trust.h), parses and maps it. Errors name the file. When it holds a secret its group or
 * others can read, the configuration file's warning (config_secret_warning) goes to warn (when not NULL). */
int command_config_load(const char *path, struct rdprops *out, FILE *warn, char *err, size_t errlen);

void rdprops_free(struct rdprops *p); /* wipes the values */

#endif
