/* xalloc.c — see xalloc.h. */
#include "config.h"

#include "util/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#ifdef __GLIBC__    /* (defined by the headers above) */
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

/* ---- LeakSanitizer: leaks that are not lagtop's, each suppressed as narrowly as it can be ----
 * Here because every program links this file (a file of its own, which nothing refers to, would be left
 * out of the library's programs by the linker) and because util depends on nothing: the libraries are
 * named as strings, not included. Without ASan these functions are never called. Weak, so that a test
 * program that defines its own suppressions links and wins.
 *
 * libconfig 1.5 leaks a string token when a syntax error follows it (e.g. a quoted setting name), even
 * after config_destroy: under AddressSanitizer that one-off leak would turn lagtop's "bad configuration"
 * exit status 2 into LeakSanitizer's; only leaks allocated inside libconfig are suppressed.
 *
 * librdkafka >= 2.10 (seen in 2.15.1) leaks a reference to the handle's op queue (rk_ops) each time
 * DescribeConsumerGroups, sent to a named broker (rd_kafka_AdminOptions_set_broker, as the collector does
 * for warm groups), meets a broker without ConsumerGroupDescribe (Kafka 3.6 and older; lagtop-sim
 * --kafka-version 3.6): rd_kafka_admin_worker passes RD_KAFKA_REPLYQ(rk->rk_ops, 0) to
 * rd_kafka_ConsumerGroupDescribeRequest, which returns __UNSUPPORTED_FEATURE without destroying that
 * reply queue as most request builders do on error. rk_ops' refcount then never reaches zero and the
 * 192-byte rd_kafka_q_t that rd_kafka_new made outlives rd_kafka_destroy: one per handle. The unwinder
 * stops inside librdkafka (built without frame pointers), so the narrowest name left is the queue
 * constructor, rd_kafka_q_new0; a queue lagtop forgets is still reported, through its rd_kafka_queue_t
 * (rd_kafka_queue_new0). librdkafka 2.0.2 has no ConsumerGroupDescribe: nothing to suppress there. */
const char *__lsan_default_suppressions(void);
__attribute__((weak)) const char *__lsan_default_suppressions(void)
{
#ifdef HAVE_RD_KAFKA_CONSUMERGROUPDESCRIPTION_TYPE
	return "leak:libconfig.so\nleak:rd_kafka_q_new0\n";
#else
	return "leak:libconfig.so\n";
#endif
}

/* A suppressed leak is not news: without this, LeakSanitizer lists the suppressions it used on stderr
 * at exit, which would add lines to lagtop's one-line errors and to --once's silent stderr. */
const char *__lsan_default_options(void);
__attribute__((weak)) const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}
