/* errbuf.h — filling the caller's error buffer. Functions that can fail return 0/-1 (or an enum) and
 * write one line saying what was wrong into `char *err, size_t errlen` (STYLE.md); this is that write. */
#ifndef LAGTOP_UTIL_ERRBUF_H
#define LAGTOP_UTIL_ERRBUF_H

#include <stddef.h>

/* Formats into err (cut to errlen, always NUL-terminated when errlen > 0; control characters escaped,
 * so the message is one terminal-safe line) and returns -1, so that a
 * failure reads `return err_set(err, errlen, "...", ...);`. */
int err_set(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Appends "; what" to *list, a growing list of errors of one operation (NULL when empty); a message already
 * in the list is not added again (the same error from several brokers: once is enough). */
void err_append(char **list, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
