/* xalloc.h — allocation that never returns NULL.
 *
 * On out-of-memory the registered cleanup hook runs first (the UI registers one that restores the
 * terminal with endwin()), then a one-line message is printed and the process aborts. Everything
 * else in lagtop may therefore treat allocation as infallible.
 */
#ifndef LAGTOP_UTIL_XALLOC_H
#define LAGTOP_UTIL_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
/* Grows an array of `size`-byte elements to hold at least `need` of them; *cap is updated. */
void *xgrow(void *p, size_t *cap, size_t need, size_t size);
char *xstrdup(const char *s); /* NULL in, NULL out */
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Pages straight from the kernel (mmap), zeroed, returned to it by xpages_free: for big blocks that
 * live and die together (a snapshot's rows), which from malloc would stay in its arenas after the
 * free and fragment them. */
void *xpages(size_t n);
void xpages_free(void *p, size_t n);

/* The process's malloc policy, set once by main before any thread starts (glibc; elsewhere nothing):
 * blocks from 256 KB are mappings of their own, given back to the kernel when freed. glibc's default
 * raises that threshold each time such a block is freed (up to 32 MB), after which a refresh's big
 * short-lived arrays come from the arenas and stay there (measured; the figures are in git history). The operator's
 * MALLOC_MMAP_THRESHOLD_ or GLIBC_TUNABLES, when set, win. */
void xalloc_init_policy(void);

/* Called once before aborting on OOM (e.g. endwin). NULL clears it. */
void xalloc_set_fatal_hook(void (*hook)(void));

#endif
