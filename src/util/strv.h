/* strv.h — a counted array of owned strings (group lists copied out of options and configuration). */
#ifndef LAGTOP_UTIL_STRV_H
#define LAGTOP_UTIL_STRV_H

#include <stddef.h>

/* A copy of v[0..n): every string duplicated, the array NULL-terminated (so n may be 0). */
char **strv_dup(size_t n, const char *const *v);
/* Frees what strv_dup returned; NULL is nothing to free. */
void strv_free(size_t n, char **v);

#endif
