/* secrets.c — see secrets.h. */
#include "config/secrets.h"

#include <string.h>
#include <strings.h>

#define HIDDEN "[hidden]"

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
	static const char *const words[] = { "password", "secret",     "key",
					     "token",    "credential", "sasl.oauthbearer.config" };
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
