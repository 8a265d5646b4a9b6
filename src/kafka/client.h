/* client.h — one admin-capable librdkafka handle built from a connection (config/connection.h: bootstrap
 * servers + ordered properties).
 *
 * Only src/kafka includes this header (it exposes rd_kafka_t). The handle is a consumer-type handle
 * with a group id that never subscribes (so never joins): librdkafka 2.0.2 dereferences the handle's
 * consumer group when an OffsetFetch meets NOT_COORDINATOR, which crashes a producer handle (see
 * client.c). Its cost: one more connection (its own group coordinator) when the process starts.
 *
 * librdkafka's own log output is captured (never written to the terminal, which the dashboard owns)
 * and its error events are sorted into fatal ones (the handle is unusable) and transient ones
 * (e.g. __ALL_BROKERS_DOWN: the cluster may come back). Secret property values (config_is_secret_key:
 * names containing password, secret, key, token...) are masked as [hidden] in every message kept
 * or printed.
 */
#ifndef LAGTOP_KAFKA_CLIENT_H
#define LAGTOP_KAFKA_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <librdkafka/rdkafka.h>

#include "config/connection.h"
#include "model/snapshot.h"

typedef struct lt_client lt_client;

/* Builds the rd_kafka_conf_t for cc (lagtop's defaults, then bootstrap, then the properties in order).
 * On a bad property returns NULL and err names the key (librdkafka's reason, secrets masked). */
rd_kafka_conf_t *client_conf_build(const struct lt_connection *cc, char *err, size_t errlen);

/* Creates the handle. Does not connect yet (librdkafka connects lazily). */
lt_client *client_new(const struct lt_connection *cc, char *err, size_t errlen);
void client_free(lt_client *cl);
rd_kafka_t *client_rk(const lt_client *cl);

/* Serves queued error callbacks (call now and then from the owning thread). */
void client_poll(lt_client *cl);

/* The newest error librdkafka reported that names a cause (secrets masked); "N/N brokers are down"
 * only when no error named one; "" if none. Returns true if it was fatal. */
bool client_last_error(lt_client *cl, char *buf, size_t len);

/* True when the newest error is an authentication or TLS failure (wrong credentials, an untrusted or
 * mismatched certificate, a missing client certificate): retrying within this refresh will not help. */
bool client_security_failed(lt_client *cl);

/* True for property names whose values must never be shown (config_is_secret_key's rule). */
bool client_prop_is_secret(const char *key);

/* A group's type as librdkafka >= 2.10 reads it (configure: HAVE_RD_KAFKA_CONSUMERGROUPDESCRIPTION_TYPE,
 * HAVE_RD_KAFKA_CONSUMERGROUPLISTING_TYPE); LT_GTYPE_UNKNOWN with an older one. The description's
 * type is CONSUMER only when ConsumerGroupDescribe answered; librdkafka calls every DescribeGroups
 * answer "classic", even for a group that does not exist, so that one is returned as UNKNOWN
 * (group_view.h decides). The listing's is ListGroups v5's GroupType, as the broker said it. */
lt_group_type client_description_type(const rd_kafka_ConsumerGroupDescription_t *d);
lt_group_type client_listing_type(const rd_kafka_ConsumerGroupListing_t *l);

/* An error's text that names its code: librdkafka >= 2.10 words a ConsumerGroupDescribe group error as
 * "ConsumerGroupDescribe: <the broker's message>", and brokers send no message for most codes, which
 * left "ConsumerGroupDescribe: " alone. The code's name is added when the text lacks it. Returns buf. */
const char *client_error_text(const rd_kafka_error_t *e, char *buf, size_t len);

/* Writes every property librdkafka knows, with its meaning (-X list). */
void client_properties_show(FILE *out);

/* The version of the librdkafka loaded at run time ("2.0.2"). */
const char *client_librdkafka_version(void);

/* Writes "key = value" for every effective property of cc (defaults included), secrets masked. */
int client_conf_dump(FILE *out, const struct lt_connection *cc, char *err, size_t errlen);

#endif
