/* regex.h — regcomp() for regexes from users (-g, include/exclude_groups, the dashboard's filter).
 *
 * glibc's regcomp copies the pattern tree once per bounded repetition, so nested ones multiply:
 * "(((a{200}){200}){200})" takes 1.7 GB and seconds to compile, and a little more exhausts memory.
 * regex_compile() estimates that size first (atoms times the repetition bounds around them) and refuses
 * patterns above REGEX_MAX_COST with a clear reason instead of compiling them. Quantifiers in a row
 * ("b*++", undefined in POSIX) are refused too: glibc takes exponential time on them (69 s for
 * "b*++++++*+++++++"), which would freeze the dashboard's filter.
 */
#ifndef LAGTOP_UTIL_REGEX_H
#define LAGTOP_UTIL_REGEX_H

#include <regex.h>
#include <stddef.h>

#define REGEX_MAX_COST 20000

/* The estimated size of pattern's compiled tree (capped at REGEX_MAX_COST + 1). */
long regex_cost(const char *pattern);

/* regcomp(re, pattern, cflags), or -1 with why ("too complex: ..." or regerror's text); re needs
 * regfree() only after 0. */
int regex_compile(regex_t *re, const char *pattern, int cflags, char *why, size_t whylen);

/* The extended regular expression that matches exactly the text id (^...$, every special character escaped):
 * how an exact --group id joins the regex filters. A new string (caller frees). */
char *regex_for_exact(const char *id);

#endif
