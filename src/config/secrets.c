/* secrets.c — see secrets.h. */
#include "config/secrets.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define HIDDEN "[hidden]"

/* LeakSanitizer suppressions: leaks that are not lagtop's, each as narrow as it can be. libconfig 1.5
 * leaks a string token when a syntax error follows it (e.g. a quoted setting name), even after
 * config_destroy. Under AddressSanitizer that one-off leak would turn lagtop's "bad configuration" exit
 * status 2 into LeakSanitizer's; only leaks allocated inside libconfig are suppressed. The Kafka client
 * adds librdkafka's (client_lsan_suppressions in src/kafka/client.c, weak here: programs without the
 * client do not link it). They live in this file because every program that reads a configuration file
 * or has the client links it (load.c and client.c both ask config_is_secret_key): in a file of their own,
 * which nothing refers to, the linker would leave them out of the library's programs.
 * (Without ASan this function is never called.) Weak, so that a test program that defines its own
 * suppressions links and wins. */
const char *client_lsan_suppressions(void) __attribute__((weak));
const char *__lsan_default_suppressions(void);
__attribute__((weak)) const char *__lsan_default_suppressions(void)
{
	static char all[512];
	snprintf(all, sizeof all, "leak:libconfig.so\n%s", client_lsan_suppressions ? client_lsan_suppressions() : "");
	return all;
}

/* A suppressed leak is not news: without this, LeakSanitizer lists the suppressions it used on stderr
 * at exit, which would add lines to lagtop's one-line errors and to --once's silent stderr. */
const char *__lsan_default_options(void);
__attribute__((weak)) const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}

static bool contains_nocase(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return true;
	return false;
}

bool config_is_secret_key(const char *key)
{
	static const char *const words[] = { "password", "secret", "key", "token", "credential",
					     "sasl.oauthbearer.config" };
	if (!key)
		return false;
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (contains_nocase(key, words[i]))
			return true;
	return false;
}

const char *config_display_value(const char *key, const char *value)
{
	if (config_is_secret_key(key))
		return HIDDEN;
	return value ? value : "";
}
