/* secrets.c — see secrets.h. */
#include "config/secrets.h"

#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "util/xalloc.h"

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

/* The characters a principal or keytab path may hold without the shell reading anything into them. */
static bool shell_plain(const char *v)
{
	for (const char *p = v ? v : ""; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@._/+-:=,", *p))
			return false;
	return true;
}

bool config_runs_code(const char *key, const char *value)
{
	static const char *const runs[] = { "sasl.kerberos.kinit.cmd", "plugin.library.paths", "ssl.engine.location",
					    "ssl.providers" };
	static const char *const in_kinit_cmd[] = { "sasl.kerberos.principal", "sasl.kerberos.keytab" };
	if (!key)
		return false;
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++)
		if (strcmp(key, runs[i]) == 0)
			return true;
	for (size_t i = 0; i < sizeof in_kinit_cmd / sizeof in_kinit_cmd[0]; i++)
		if (strcmp(key, in_kinit_cmd[i]) == 0 && !shell_plain(value))
			return true;
	return false;
}

char *config_secret_warning(const char *path, const char *secret, unsigned mode)
{
	if (!secret || !(mode & (S_IRGRP | S_IROTH)))
		return NULL;
	return xasprintf("%s holds secrets (%s) but is readable by %s (mode %04o); run: chmod 600 %s", path, secret,
			 (mode & S_IROTH) ? "others" : "its group", mode & 07777, path);
}
