/* format.c — numbers, durations and rates for humans, the same in every output.
 * Unknown values (negative counts and durations, negative or non-finite rates) print "-". */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "model/columns.h"

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
