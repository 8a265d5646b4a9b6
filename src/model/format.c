/* format.c — numbers, durations and rates for humans, the same in every output.
 * Unknown values (negative counts and durations, negative or non-finite rates) print "-". */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <stdio.h>

#include "model/columns.h"
#include "util/xalloc.h"

static const char units[] = "KMGTPE";

/* v >= 1000: "1.2K" below ten units, "12K" / "123K" above; rounding may carry into the next unit
 * (999,999 → "1.0M", never "1000K"). Decimal units, like kafka tools and htop. */
static void format_units(double v, const char *suffix, char *buf, size_t len)
{
	double unit = 1000.0;
	for (size_t u = 0; u < sizeof units - 1; u++, unit *= 1000.0) {
		double x = v / unit;
		if (x >= 999.5 && u + 1 < sizeof units - 1)
			continue;
		double tenths = round(x * 10.0);
		if (tenths < 100.0) {
			snprintf(buf, len, "%.1f%c%s", tenths / 10.0, units[u], suffix);
			return;
		}
		double whole = round(x);
		if (whole >= 1000.0 && u + 1 < sizeof units - 1)
			continue;
		snprintf(buf, len, "%.0f%c%s", whole, units[u], suffix);
		return;
	}
}

void format_count(int64_t v, char *buf, size_t len)
{
	if (!buf || len == 0)
		return;
	if (v < 0)
		snprintf(buf, len, "-");
	else if (v < 1000)
		snprintf(buf, len, "%" PRId64, v);
	else
		format_units((double)v, "", buf, len);
}

void format_duration_ms(int64_t ms, char *buf, size_t len)
{
	if (!buf || len == 0)
		return;
	if (ms < 0) {
		snprintf(buf, len, "-");
		return;
	}
	int64_t s = ms / 1000;
	if (s < 60)
		snprintf(buf, len, "%" PRId64 "s", s);
	else if (s < 3600)
		snprintf(buf, len, "%" PRId64 "m%02" PRId64 "s", s / 60, s % 60);
	else if (s < 86400)
		snprintf(buf, len, "%" PRId64 "h%02" PRId64 "m", s / 3600, s % 3600 / 60);
	else
		snprintf(buf, len, "%" PRId64 "d%02" PRId64 "h", s / 86400, s % 86400 / 3600);
}

void format_rate(double per_s, char *buf, size_t len)
{
	if (!buf || len == 0)
		return;
	if (!isfinite(per_s) || per_s < 0)
		snprintf(buf, len, "-");
	else if (per_s == 0)
		snprintf(buf, len, "0/s");
	else if (per_s < 9.95)
		snprintf(buf, len, "%.1f/s", per_s);
	else if (per_s < 999.5)
		snprintf(buf, len, "%.0f/s", per_s);
	else
		format_units(per_s, "/s", buf, len);
}

/* Exact forms for the detail view and --once --exact. */
void format_duration_exact(int64_t ms, char *buf, size_t len)
{
	if (!buf || len == 0)
		return;
	if (ms < 0) {
		snprintf(buf, len, "-");
		return;
	}
	int64_t s = ms / 1000, d = s / 86400, hh = s % 86400 / 3600, mm = s % 3600 / 60, ss = s % 60;
	int64_t frac = ms % 1000;
	if (d)
		snprintf(buf, len, "%" PRId64 "d%02" PRId64 "h%02" PRId64 "m%02" PRId64 ".%03" PRId64 "s", d, hh, mm,
			 ss, frac);
	else if (hh)
		snprintf(buf, len, "%" PRId64 "h%02" PRId64 "m%02" PRId64 ".%03" PRId64 "s", hh, mm, ss, frac);
	else if (mm)
		snprintf(buf, len, "%" PRId64 "m%02" PRId64 ".%03" PRId64 "s", mm, ss, frac);
	else
		snprintf(buf, len, "%" PRId64 ".%03" PRId64 "s", ss, frac);
}

void format_rate_exact(double per_s, char *buf, size_t len)
{
	if (!buf || len == 0)
		return;
	if (!isfinite(per_s) || per_s < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f/s", per_s);
}

static int tp_cmp(const void *a, const void *b)
{
	const struct lt_topic_partition *x = a, *y = b;
	int c = strcmp(x->topic, y->topic);
	if (c)
		return c;
	return (x->partition > y->partition) - (x->partition < y->partition);
}

/* Appends to buf at *used; false once it no longer fits (buf then ends before the piece that did not). */
static bool append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (w < 0 || (size_t)w >= len - *used) {
		buf[*used] = '\0';
		return false;
	}
	*used += (size_t)w;
	return true;
}

void format_assignment(const struct lt_topic_partition *tp, size_t n, char *buf, size_t len)
{
	if (len == 0)
		return;
	buf[0] = '\0';
	if (n == 0) {
		snprintf(buf, len, "-");
		return;
	}
	struct lt_topic_partition *s = xmalloc(n * sizeof *s);
	memcpy(s, tp, n * sizeof *s);
	qsort(s, n, sizeof *s, tp_cmp);
	size_t used = 0;
	for (size_t i = 0; i < n;) {
		bool same_topic = i > 0 && strcmp(s[i].topic, s[i - 1].topic) == 0;
		size_t j = i; /* the run s[i..j]: consecutive partitions of one topic */
		while (j + 1 < n && strcmp(s[j + 1].topic, s[i].topic) == 0 && s[j + 1].partition <= s[j].partition + 1)
			j++;
		bool ok = same_topic ? append(buf, len, &used, ",")
				     : append(buf, len, &used, "%s%s:", i ? " " : "", s[i].topic);
		if (ok && s[j].partition != s[i].partition)
			ok = append(buf, len, &used, "%" PRId32 "-%" PRId32, s[i].partition, s[j].partition);
		else if (ok)
			ok = append(buf, len, &used, "%" PRId32, s[i].partition);
		if (!ok)
			break;
		i = j + 1;
	}
	free(s);
}
