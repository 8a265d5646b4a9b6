/* timeparse.c — strict datetime and ISO-8601 duration parsing for offset resets (see timeparse.h). */
#include "util/timeparse.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "util/errbuf.h"

#define DT_EXAMPLE                                                                                                     \
	"expected yyyy-MM-ddTHH:mm:ss.SSS with an optional zone (Z, +08, +0800, +08:00), "                             \
	"e.g. 2026-11-29T10:00:00.000 or 2026-11-29T10:00:00.000+08:00, or a relative time like -6h"
#define DUR_EXAMPLE "expected an ISO-8601 duration PnDTnHnMnS, e.g. PT6H, P1DT2H or PT0.5S"

/* Largest magnitudes we accept, so that every intermediate product fits in int64 milliseconds. */
#define MAX_YEAR         9999
#define MAX_DURATION_SEC ((int64_t)100000 * 366 * 86400) /* 100,000 years: far beyond any log */

/* Reads exactly n decimal digits at *p; advances. */
static bool digits(const char **p, int n, int *out)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)(*p)[i]))
			return false;
		v = v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	*out = v;
	return true;
}

static bool is_leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int days_in_month(int y, int m)
{
	static const int dm[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	return m == 2 && is_leap(y) ? 29 : dm[m - 1];
}

/* Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	z += 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

void reset_format_time(int64_t ms, char *buf, size_t len)
{
	int64_t days = ms / 86400000, rem = ms % 86400000;
	if (rem < 0) {
		rem += 86400000;
		days--;
	}
	int64_t y;
	int m, d;
	civil_from_days(days, &y, &m, &d);
	snprintf(buf, len, "%04lld-%02d-%02dT%02d:%02d:%02d.%03dZ", (long long)y, m, d, (int)(rem / 3600000),
		 (int)(rem / 60000 % 60), (int)(rem / 1000 % 60), (int)(rem % 1000));
}

/* The relative extra: [-]N(s|m|h|d|w), meaning that long before now. */
static int parse_relative(const char *s, int64_t now_ms, int64_t *out_ms, char *err, size_t errlen)
{
	const char *p = s + (*s == '-');
	int64_t n = 0;
	const char *start = p;
	while (isdigit((unsigned char)*p)) {
		if (n > MAX_DURATION_SEC)
			return err_set(err, errlen, "invalid datetime '%s': the relative time is too large", s);
		n = n * 10 + (*p++ - '0');
	}
	if (p == start || p[0] == '\0' || p[1] != '\0')
		return err_set(err, errlen, "invalid datetime '%s': %s", s, DT_EXAMPLE);
	int64_t unit;
	switch (*p) {
	case 's': unit = 1; break;
	case 'm': unit = 60; break;
	case 'h': unit = 3600; break;
	case 'd': unit = 86400; break;
	case 'w': unit = 7 * 86400; break;
	default: return err_set(err, errlen, "invalid datetime '%s': unknown unit '%c' (use s, m, h, d or w)", s, *p);
	}
	if (n > MAX_DURATION_SEC / unit)
		return err_set(err, errlen, "invalid datetime '%s': the relative time is too large", s);
	int64_t t = now_ms - n * unit * 1000;
	if (t < 0)
		return err_set(err, errlen, "invalid datetime '%s': that is before 1970-01-01T00:00:00.000Z", s);
	*out_ms = t;
	return 0;
}

int reset_parse_datetime(const char *s, int64_t now_ms, int64_t *out_ms, char *err, size_t errlen)
{
	if (!s || !*s)
		return err_set(err, errlen, "invalid datetime '': empty; %s", DT_EXAMPLE);
	if (!strchr(s, 'T')) {
		size_t i = s[0] == '-';
		while (isdigit((unsigned char)s[i]))
			i++;
		if (i > (size_t)(s[0] == '-') && isalpha((unsigned char)s[i]) && s[i + 1] == '\0')
			return parse_relative(s, now_ms, out_ms, err, errlen);
		return err_set(err, errlen,
			       "invalid datetime '%s': it does not contain a 'T' between date and time; %s", s,
			       DT_EXAMPLE);
	}

	const char *p = s;
	int y, mo, d, h, mi, sec, ms = 0;
	if (!digits(&p, 4, &y) || *p++ != '-' || !digits(&p, 2, &mo) || *p++ != '-' || !digits(&p, 2, &d))
		return err_set(err, errlen, "invalid datetime '%s': the date must be yyyy-MM-dd; %s", s, DT_EXAMPLE);
	if (*p++ != 'T')
		return err_set(err, errlen, "invalid datetime '%s': 'T' must separate the date and the time; %s", s,
			       DT_EXAMPLE);
	if (!digits(&p, 2, &h) || *p++ != ':' || !digits(&p, 2, &mi) || *p++ != ':' || !digits(&p, 2, &sec))
		return err_set(err, errlen, "invalid datetime '%s': the time must be HH:mm:ss.SSS; %s", s, DT_EXAMPLE);
	if (*p == '.') {
		p++;
		if (!digits(&p, 3, &ms) || isdigit((unsigned char)*p))
			return err_set(err, errlen, "invalid datetime '%s': milliseconds must be exactly 3 digits; %s",
				       s, DT_EXAMPLE);
	}
	if (mo < 1 || mo > 12)
		return err_set(err, errlen, "invalid datetime '%s': month %02d does not exist", s, mo);
	if (d < 1 || d > days_in_month(y, mo))
		return err_set(err, errlen, "invalid datetime '%s': %04d-%02d has no day %02d", s, y, mo, d);
	if (h > 23 || mi > 59 || sec > 59)
		return err_set(err, errlen, "invalid datetime '%s': %02d:%02d:%02d is not a time of day", s, h, mi,
			       sec);

	int64_t off_min = 0;
	if (*p == 'Z') {
		p++;
	} else if (*p == '+' || *p == '-') {
		int sign = *p++ == '-' ? -1 : 1, zh, zm = 0;
		if (!digits(&p, 2, &zh))
			return err_set(err, errlen, "invalid datetime '%s': the zone must be Z, +08, +0800 or +08:00",
				       s);
		if (*p == ':') {
			p++;
			if (!digits(&p, 2, &zm))
				return err_set(err, errlen,
					       "invalid datetime '%s': the zone must be Z, +08, +0800 or +08:00", s);
		} else if (isdigit((unsigned char)*p)) {
			if (!digits(&p, 2, &zm))
				return err_set(err, errlen,
					       "invalid datetime '%s': the zone must be Z, +08, +0800 or +08:00", s);
		}
		if (zh > 18 || zm > 59 || (zh == 18 && zm))
			return err_set(err, errlen, "invalid datetime '%s': zone offset out of range (at most ±18:00)",
				       s);
		off_min = sign * (zh * 60 + zm);
	}
	if (*p)
		return err_set(err, errlen, "invalid datetime '%s': unexpected '%s' at the end; %s", s, p, DT_EXAMPLE);

	int64_t t = days_from_civil(y, mo, d) * 86400000 + (int64_t)h * 3600000 + (int64_t)mi * 60000 +
		    (int64_t)sec * 1000 + ms - off_min * 60000;
	if (t < 0)
		return err_set(err, errlen, "invalid datetime '%s': that is before 1970-01-01T00:00:00.000Z", s);
	*out_ms = t;
	return 0;
}

/* One signed whole number of a duration part; returns false on no digits or overflow. */
static bool dur_number(const char **p, int64_t *out, bool *neg)
{
	*neg = false;
	if (**p == '+' || **p == '-')
		*neg = *(*p)++ == '-';
	const char *start = *p;
	int64_t v = 0;
	while (isdigit((unsigned char)**p)) {
		if (v > MAX_DURATION_SEC)
			return false;
		v = v * 10 + (*(*p)++ - '0');
	}
	if (*p == start)
		return false;
	*out = *neg ? -v : v;
	return true;
}

int reset_parse_duration(const char *s, int64_t *out_sec, int32_t *out_nanos, char *err, size_t errlen)
{
	const char *p = s;
	bool neg_all = false;
	if (!s || !*s)
		return err_set(err, errlen, "invalid duration '': empty; %s", DUR_EXAMPLE);
	if (*p == '+' || *p == '-')
		neg_all = *p++ == '-';
	if (toupper((unsigned char)*p) != 'P')
		return err_set(err, errlen, "invalid duration '%s': it must start with P; %s", s, DUR_EXAMPLE);
	p++;

	/* Parts in their fixed order; each at most once. Units: D, then after T: H, M, S. */
	int64_t sec = 0, nanos = 0;
	int parts = 0;
	bool in_time = false;
	static const char order[] = "DHMS";
	int last = -1;
	while (*p) {
		if (toupper((unsigned char)*p) == 'T') {
			if (in_time)
				return err_set(err, errlen, "invalid duration '%s': T given twice; %s", s, DUR_EXAMPLE);
			in_time = true;
			p++;
			if (!*p)
				return err_set(err, errlen, "invalid duration '%s': nothing after T; %s", s,
					       DUR_EXAMPLE);
			continue;
		}
		int64_t v;
		bool neg;
		if (!dur_number(&p, &v, &neg))
			return err_set(err, errlen, "invalid duration '%s': expected a number at '%s'; %s", s, p,
				       DUR_EXAMPLE);
		int64_t frac = 0;
		bool has_frac = false;
		if (*p == '.' || *p == ',') {
			p++;
			int nd = 0;
			while (isdigit((unsigned char)*p)) {
				if (++nd > 9)
					return err_set(err, errlen, "invalid duration '%s': at most 9 decimals", s);
				frac = frac * 10 + (*p++ - '0');
			}
			for (int i = nd; i < 9; i++)
				frac *= 10;
			has_frac = true;
		}
		char u = (char)toupper((unsigned char)*p);
		const char *at = strchr(order, u);
		if (!u || !at)
			return err_set(err, errlen,
				       "invalid duration '%s': unknown or missing unit at '%s' (use D, H, M, S); %s", s,
				       p, DUR_EXAMPLE);
		int idx = (int)(at - order);
		if ((idx == 0) == in_time)
			return err_set(err, errlen, "invalid duration '%s': %s; %s", s,
				       idx == 0 ? "days must come before T"
						: "hours, minutes and seconds must come after T",
				       DUR_EXAMPLE);
		if (idx <= last)
			return err_set(err, errlen, "invalid duration '%s': parts out of order or repeated; %s", s,
				       DUR_EXAMPLE);
		if (has_frac && u != 'S')
			return err_set(err, errlen, "invalid duration '%s': only seconds may have a fraction", s);
		last = idx;
		p++;
		parts++;
		static const int64_t mult[] = { 86400, 3600, 60, 1 };
		if (v > MAX_DURATION_SEC / mult[idx] || v < -MAX_DURATION_SEC / mult[idx])
			return err_set(err, errlen, "invalid duration '%s': too large", s);
		sec += v * mult[idx];
		if (has_frac)
			nanos += neg ? -frac : frac;
		if (sec > MAX_DURATION_SEC || sec < -MAX_DURATION_SEC)
			return err_set(err, errlen, "invalid duration '%s': too large", s);
	}
	if (parts == 0)
		return err_set(err, errlen, "invalid duration '%s': no days, hours, minutes or seconds; %s", s,
			       DUR_EXAMPLE);
	if (neg_all) {
		sec = -sec;
		nanos = -nanos;
	}
	/* Normalise as java.time.Duration does: nanos in [0, 1e9). */
	while (nanos < 0) {
		nanos += 1000000000;
		sec--;
	}
	while (nanos >= 1000000000) {
		nanos -= 1000000000;
		sec++;
	}
	*out_sec = sec;
	*out_nanos = (int32_t)nanos;
	return 0;
}

int reset_duration_before(const char *s, int64_t now_ms, int64_t *out_ms, char *err, size_t errlen)
{
	int64_t sec;
	int32_t nanos;
	if (reset_parse_duration(s, &sec, &nanos, err, errlen))
		return -1;
	/* floor(now − (sec + nanos/1e9)) in ms = now − sec*1000 − ceil(nanos/1e6) */
	int64_t t = now_ms - sec * 1000 - (nanos + 999999) / 1000000;
	if (t < 0)
		return err_set(err, errlen, "invalid duration '%s': now minus it is before 1970-01-01T00:00:00.000Z",
			       s);
	*out_ms = t;
	return 0;
}
