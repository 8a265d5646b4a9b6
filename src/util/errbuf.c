/* errbuf.c — see errbuf.h. */
#include "util/errbuf.h"

#include <stdarg.h>
#include <stdio.h>

int err_set(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}
