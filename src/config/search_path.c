/* search_path.c — which configuration file is read (config_locate, config_file.h). */
#include "config/config_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/errbuf.h"
#include "util/xalloc.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif

static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* The user's own files in the order they are looked for: $XDG_CONFIG_HOME's (an absolute one: relative values
 * are invalid by the XDG spec and ignored), then ~/.config's; NULL where the variable does not give one. The
 * one place that spells them, for config_locate and config_user_path alike. */
static void user_candidates(char *out[2])
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	out[0] = xdg && xdg[0] == '/' ? xasprintf("%s/lagtop/lagtop.conf", xdg) : NULL;
	out[1] = home && *home ? xasprintf("%s/.config/lagtop/lagtop.conf", home) : NULL;
}

char *config_user_path(void)
{
	char *cand[2];
	user_candidates(cand);
	if (cand[0]) {
		free(cand[1]);
		return cand[0];
	}
	return cand[1];
}

int config_locate(const char *explicit_path, const char *sysconfdir, char **path_out, char *err, size_t errlen)
{
	*path_out = NULL;
	if (explicit_path) {
		if (!exists(explicit_path))
			return err_set(err, errlen, "%s: %s (given by --config)", explicit_path, strerror(errno));
		*path_out = xstrdup(explicit_path);
		return 0;
	}
	const char *env = getenv("LAGTOP_CONFIG");
	if (env && *env) {
		if (!exists(env))
			return err_set(err, errlen, "%s: %s (given by $LAGTOP_CONFIG)", env, strerror(errno));
		*path_out = xstrdup(env);
		return 0;
	}
	char *cand[3];
	user_candidates(cand);
	cand[2] = xasprintf("%s/lagtop/lagtop.conf", sysconfdir ? sysconfdir : SYSCONFDIR);
	for (size_t i = 0; i < 3; i++) {
		if (!*path_out && cand[i] && exists(cand[i]))
			*path_out = cand[i];
		else
			free(cand[i]);
	}
	return 0;
}
