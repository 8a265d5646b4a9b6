/* connection.h — how to reach one cluster: its bootstrap servers and its librdkafka properties, in the
 * order they are applied. The one type that carries them, from the configuration file's cluster
 * (lt_cluster_def) through the command line's merge (src/cli/target.h: target_resolve, the one place
 * that combines the file, --command-config, -b and -X) to what connects: the collector, the reset and
 * delete executors, the dashboard's reset worker. Owners embed it; those that only connect point to it.
 *
 * Values may be secrets (sasl.password...): connection_free wipes every value before freeing it.
 * Pure: libc only.
 */
#ifndef LAGTOP_CONFIG_CONNECTION_H
#define LAGTOP_CONFIG_CONNECTION_H

#include <stdbool.h>
#include <stddef.h>

struct lt_connection {
	char *name;      /* the cluster's name; NULL when only -b named it (connection_name says what to show) */
	char *bootstrap; /* "host:port,..."; NULL until something gives it */
	size_t n_props;  /* librdkafka properties, applied in order after lagtop's defaults */
	char **prop_keys;
	char **prop_values;
};

/* librdkafka's name for the bootstrap list: a property of this name is the connection's bootstrap. */
#define LT_BOOTSTRAP_PROPERTY "bootstrap.servers"

/* Sets the property key (keylen bytes, so "key=value" need not be split): bootstrap.servers sets the
 * bootstrap; another key already present has its value replaced in place (keeping its order); a new key
 * is appended. Every source of properties goes through here. */
void connection_set(struct lt_connection *c, const char *key, size_t keylen, const char *value);

/* True when key (keylen bytes) is one of c's properties. */
bool connection_has(const struct lt_connection *c, const char *key, size_t keylen);

/* True when key (keylen bytes) is bootstrap.servers. */
bool connection_is_bootstrap_key(const char *key, size_t keylen);

/* What to call the cluster: its name, else its bootstrap list, else "-". */
const char *connection_name(const struct lt_connection *c);

/* dst becomes a deep copy of src (dst's old contents are not freed). */
void connection_copy(struct lt_connection *dst, const struct lt_connection *src);

/* Wipes the values, frees everything, leaves c zeroed. */
void connection_free(struct lt_connection *c);

#endif
