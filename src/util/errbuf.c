/* errbuf.c — see errbuf.h. */
#include "util/errbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sanitize.h"
#include "util/xalloc.h"

int err_set(char *err, size_t errlen, const char *fmt, ...)
{
	if (!err || errlen == 0)
		return -1;
	/* Messages quote what was wrong, and that is often user or cluster input: escape control bytes
	 * here (a newline in a --to-datetime value, an ESC in a CSV line) so every error stays one line
	 * and cannot drive the terminal. Escaping is idempotent for text escaped before. */
	char raw[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof raw, fmt, ap);
	va_end(ap);
	sanitize_display(raw, err, errlen, true);
	return -1;
}

void err_append(char **list, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (*list && strstr(*list, buf))
		return;
	char *n = *list ? xasprintf("%s; %s", *list, buf) : xstrdup(buf);
	free(*list);
	*list = n;
}
