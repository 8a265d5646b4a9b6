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
#include <stddef.h>

bool config_is_secret_key(const char *key);

/* Whether a librdkafka property runs a program or loads code into lagtop: sasl.kerberos.kinit.cmd (a shell
 * command), plugin.library.paths, ssl.engine.location and ssl.providers (shared objects), and
 * sasl.kerberos.principal or sasl.kerberos.keytab when value holds a character that means something to
 * the shell (librdkafka puts both into the default kinit command line). A configuration file may set one
 * only when the user allows it (--allow-exec-config); -X on the command line always may. */
bool config_runs_code(const char *key, const char *value);

/* The warning for a file holding the secret property `secret` that its group or others can read (mode),
 * or NULL when it is private: "PATH holds secrets (KEY) but is readable by others (mode 0644); run:
 * chmod 600 PATH" (malloc'd). The configuration file and --command-config give the same line. */
char *config_secret_warning(const char *path, const char *secret, unsigned mode);

/* value, or "[hidden]" when key is a secret (for -X dump, errors and debug output). */
const char *config_display_value(const char *key, const char *value);

#endif
