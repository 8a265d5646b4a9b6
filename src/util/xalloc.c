/* xalloc.c — see xalloc.h. */
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#ifdef __GLIBC__ /* (defined by the headers above) */
#include <malloc.h> /* mallopt */
#endif

static void (*fatal_hook)(void);

void xalloc_set_fatal_hook(void (*hook)(void))
{
	fatal_hook = hook;
}

static void out_of_memory(size_t n)
{
	if (fatal_hook)
		fatal_hook();
	fprintf(stderr, "lagtop: out of memory (allocating %zu bytes)\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory(n);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		out_of_memory(count * size);
	return p;
}

void xalloc_init_policy(void)
{
#ifdef __GLIBC__
	if (!getenv("MALLOC_MMAP_THRESHOLD_") && !getenv("GLIBC_TUNABLES"))
		mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
}

void *xpages(size_t n)
{
	void *p = mmap(NULL, n ? n : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		out_of_memory(n);
	return p;
}

void xpages_free(void *p, size_t n)
{
	if (p)
		munmap(p, n ? n : 1);
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		out_of_memory(n);
	return q;
}

void *xgrow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	size_t ncap = *cap ? *cap : 8;
	while (ncap < need) {
		if (ncap > ((size_t)-1) / 2 / size)
			out_of_memory(need * size);
		ncap *= 2;
	}
	p = xrealloc(p, ncap * size);
	*cap = ncap;
	return p;
}

char *xstrdup(const char *s)
{
	if (!s)
		return NULL;
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		out_of_memory(0);
	char *s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}
