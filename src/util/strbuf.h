/* strbuf.h — a growing string for text built piece by piece (plan tables, CSV, audit lines, messages). */
#ifndef LAGTOP_UTIL_STRBUF_H
#define LAGTOP_UTIL_STRBUF_H

#include <stddef.h>

typedef struct lt_strbuf {
	char *s;
	size_t len, cap;
} lt_strbuf;

void sb_printf(lt_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Returns the string (never NULL; "" when nothing was written) and leaves the buffer empty. */
char *sb_take(lt_strbuf *b);

#endif
