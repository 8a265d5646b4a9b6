/* secrets.h — which librdkafka properties are secrets, and how they are shown.
 *
 * A property whose name contains "password", "secret", "key", "token" or "credential" (or
 * sasl.oauthbearer.config) is a secret. Its value is never printed (config_display_value gives
 * "[hidden]"), is never carried from one cluster to another when the dashboard switches cluster, and
 * is wiped with explicit_bzero before its memory is freed.
 */
#ifndef LAGTOP_CONFIG_SECRETS_H
#define LAGTOP_CONFIG_SECRETS_H

#include <stdbool.h>

bool config_is_secret_key(const char *key);

/* value, or "[hidden]" when key is a secret (for -X dump, errors and debug output). */
const char *config_display_value(const char *key, const char *value);

#endif
