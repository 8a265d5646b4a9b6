/* prom.c — Prometheus text exposition format writer (see prom.h). */
#include "util/prom.h"

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/sanitize.h"
#include "util/xalloc.h"

struct family {
	const char *name;
	const char *help;
};

struct sample {
	size_t family; /* index into p->families */
	size_t seq;    /* insertion order: the first of two equal series wins */
	size_t n_labels;
	const char **names; /* the label names (string literals), copied array */
	char **values;      /* copied label values */
	char value[48];
};

struct lt_prom {
	struct family *families;
	size_t n_families, cap_families;
	struct sample *samples;
	size_t n_samples, cap_samples;
};

lt_prom *prom_new(void)
{
	return xcalloc(1, sizeof(lt_prom));
}

void prom_free(lt_prom *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_samples; i++) {
		for (size_t k = 0; k < p->samples[i].n_labels; k++)
			free(p->samples[i].values[k]);
		free(p->samples[i].values);
		free(p->samples[i].names);
	}
	free(p->samples);
	free(p->families);
	free(p);
}

static size_t family_index(const lt_prom *p, const char *name)
{
	for (size_t i = 0; i < p->n_families; i++)
		if (strcmp(p->families[i].name, name) == 0)
			return i;
	return SIZE_MAX;
}

void prom_gauge(lt_prom *p, const char *name, const char *help)
{
	if (family_index(p, name) != SIZE_MAX)
		return;
	p->families = xgrow(p->families, &p->cap_families, p->n_families + 1, sizeof *p->families);
	p->families[p->n_families++] = (struct family){ name, help };
}

static void add(lt_prom *p, const char *name, const char *const *names, const char *const *values, size_t n,
		const char *value)
{
	size_t f = family_index(p, name);
	if (f == SIZE_MAX) { /* a programming error: every metric is declared first */
		prom_gauge(p, name, "");
		f = p->n_families - 1;
	}
	p->samples = xgrow(p->samples, &p->cap_samples, p->n_samples + 1, sizeof *p->samples);
	struct sample *s = &p->samples[p->n_samples];
	s->family = f;
	s->seq = p->n_samples++;
	s->n_labels = n;
	s->names = n ? xcalloc(n, sizeof *s->names) : NULL;
	s->values = n ? xcalloc(n, sizeof *s->values) : NULL;
	for (size_t i = 0; i < n; i++) {
		s->names[i] = names[i];
		s->values[i] = xstrdup(values[i] ? values[i] : "");
	}
	snprintf(s->value, sizeof s->value, "%s", value);
}

void prom_int(lt_prom *p, const char *name, const char *const *names, const char *const *values, size_t n_labels,
	      int64_t v)
{
	char b[32];
	snprintf(b, sizeof b, "%lld", (long long)v);
	add(p, name, names, values, n_labels, b);
}

void prom_ms_as_seconds(lt_prom *p, const char *name, const char *const *names, const char *const *values,
			size_t n_labels, int64_t ms)
{
	/* exact decimal: no binary rounding of ms / 1000.0 */
	char b[48];
	uint64_t a = ms < 0 ? (uint64_t)0 - (uint64_t)ms : (uint64_t)ms;
	int n = snprintf(b, sizeof b, "%s%llu", ms < 0 ? "-" : "", (unsigned long long)(a / 1000));
	unsigned frac = (unsigned)(a % 1000);
	if (frac) {
		char f[8];
		snprintf(f, sizeof f, ".%03u", frac);
		for (size_t l = strlen(f); f[l - 1] == '0'; l--)
			f[l - 1] = '\0';
		snprintf(b + n, sizeof b - (size_t)n, "%s", f);
	}
	add(p, name, names, values, n_labels, b);
}

void prom_double(lt_prom *p, const char *name, const char *const *names, const char *const *values, size_t n_labels,
		 double v)
{
	if (!isfinite(v))
		return; /* unknown: omitted, never 0 */
	char b[48];
	snprintf(b, sizeof b, "%.15g", v);
	if (strtod(b, NULL) != v)
		snprintf(b, sizeof b, "%.17g", v);
	/* the format wants '.', whatever LC_NUMERIC says */
	const char *dp = localeconv()->decimal_point;
	if (dp && *dp && strcmp(dp, ".") != 0) {
		char *at = strstr(b, dp);
		if (at) {
			size_t dl = strlen(dp);
			*at = '.';
			memmove(at + 1, at + dl, strlen(at + dl) + 1);
		}
	}
	add(p, name, names, values, n_labels, b);
}

/* ------------------------------------------------------------------ escaping */

struct buf {
	char *s;
	size_t n, cap;
};

static void put(struct buf *b, const char *s, size_t n)
{
	b->s = xgrow(b->s, &b->cap, b->n + n + 1, 1);
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

/* The format's escapes, on the terminal-safe form of s (sanitize.h): a name's controls, bidi characters and
 * bytes that are not UTF-8 become \xNN or \uXXXX text, as on the dashboard, so neither a scrape nor a
 * terminal showing the text ever gets them raw; that text's backslashes are then the format's \\. */
static char *escape(const char *s, bool quote)
{
	struct buf b = { 0 };
	put(&b, "", 0);
	char *safe = sanitize_dup(s, true);
	for (const char *p = safe; *p; p++) {
		if (*p == '\\')
			put(&b, "\\\\", 2);
		else if (*p == '"' && quote)
			put(&b, "\\\"", 2);
		else
			put(&b, p, 1);
	}
	free(safe);
	return b.s;
}

char *prom_escape_label_value(const char *s)
{
	return escape(s, true);
}

char *prom_escape_help(const char *s)
{
	return escape(s, false);
}

/* ------------------------------------------------------------------ writing */

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Label values in order; digit-only values (partitions) by number, so 2 comes before 10. */
static int cmp_values(const struct sample *a, const struct sample *b)
{
	size_t n = a->n_labels < b->n_labels ? a->n_labels : b->n_labels;
	for (size_t i = 0; i < n; i++) {
		const char *x = a->values[i], *y = b->values[i];
		int c = strcmp(a->names[i], b->names[i]);
		if (c)
			return c;
		if (all_digits(x) && all_digits(y)) {
			/* by number: leading zeros do not count, then the longer number is the larger */
			size_t lx = strspn(x, "0"), ly = strspn(y, "0");
			const char *nx = x + (lx == strlen(x) ? lx - 1 : lx), *ny = y + (ly == strlen(y) ? ly - 1 : ly);
			if (strlen(nx) != strlen(ny))
				return strlen(nx) < strlen(ny) ? -1 : 1;
			c = strcmp(nx, ny);
			if (c)
				return c;
		}
		c = strcmp(x, y); /* "02" and "2" are two series */
		if (c)
			return c;
	}
	return a->n_labels < b->n_labels ? -1 : a->n_labels > b->n_labels;
}

static const lt_prom *sort_ctx; /* qsort has no context argument; prom_write is not reentrant */

static int cmp_samples(const void *pa, const void *pb)
{
	const struct sample *a = pa, *b = pb;
	int c = strcmp(sort_ctx->families[a->family].name, sort_ctx->families[b->family].name);
	if (!c)
		c = cmp_values(a, b);
	if (!c)
		c = a->seq < b->seq ? -1 : a->seq > b->seq;
	return c;
}

int prom_write(lt_prom *p, FILE *out)
{
	sort_ctx = p;
	if (p->n_samples > 1)
		qsort(p->samples, p->n_samples, sizeof *p->samples, cmp_samples);
	sort_ctx = NULL;
	int rc = 0;
	for (size_t i = 0; i < p->n_samples; i++) {
		const struct sample *s = &p->samples[i];
		const struct sample *prev = i ? &p->samples[i - 1] : NULL;
		bool same_family = prev && prev->family == s->family;
		if (same_family && cmp_values(prev, s) == 0)
			continue; /* the same series again (a topic's offsets seen through two groups): the first wins
				   */
		if (!same_family) {
			const struct family *f = &p->families[s->family];
			char *help = prom_escape_help(f->help);
			if (fprintf(out, "# HELP %s %s\n# TYPE %s gauge\n", f->name, help, f->name) < 0)
				rc = -1;
			free(help);
		}
		if (fputs(p->families[s->family].name, out) == EOF)
			rc = -1;
		for (size_t k = 0; k < s->n_labels; k++) {
			char *v = prom_escape_label_value(s->values[k]);
			if (fprintf(out, "%s%s=\"%s\"", k ? "," : "{", s->names[k], v) < 0)
				rc = -1;
			free(v);
		}
		if (fprintf(out, "%s %s\n", s->n_labels ? "}" : "", s->value) < 0)
			rc = -1;
	}
	return rc;
}
