/* strv.c — see strv.h. */
#include "util/strv.h"

#include <stdlib.h>

#include "util/xalloc.h"

char **strv_dup(size_t n, const char *const *v)
{
	char **out = xcalloc(n + 1, sizeof *out);
	for (size_t i = 0; i < n; i++)
		out[i] = xstrdup(v[i]);
	return out;
}

void strv_free(size_t n, char **v)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
