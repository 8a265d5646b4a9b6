/* at.c — the --at TIME of a replay, read against the recording's span (record.h). Pure. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "record/record.h"
#include "util/errbuf.h"
#include "util/timeparse.h"

#define DAY_MS 86400000LL

/* "HH:MM" or "HH:MM:SS" → ms into the day; false when s is not one. */
static bool clock_time(const char *s, int64_t *out)
{
	int h, m, sec = 0, n = 0;
	size_t len = strlen(s);
	if (len == 5   ? sscanf(s, "%2d:%2d%n", &h, &m, &n) != 2
	    : len == 8 ? sscanf(s, "%2d:%2d:%2d%n", &h, &m, &sec, &n) != 3
		       : true)
		return false;
	if ((size_t)n != len || s[0] < '0' || s[0] > '9' || h > 23 || m > 59 || sec > 59 || h < 0 || m < 0 || sec < 0)
		return false;
	*out = ((int64_t)h * 3600 + m * 60 + sec) * 1000;
	return true;
}

void rec_format_time(int64_t ms, char *buf, size_t len)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M:%SZ", &tm);
}

/* Typed times have whole seconds: the first and the last record's own seconds are inside. */
static bool inside(int64_t t, int64_t first_ms, int64_t last_ms)
{
	return t >= first_ms - first_ms % 1000 && t < last_ms - last_ms % 1000 + 1000;
}

/* The clock time in_day on the first day of the recording where that moment is inside it: the first moment
 * at or after the start with that time, when the recording lasts until then; false when no day has it (a
 * recording shorter than a day that does not reach that time). */
static bool clock_time_inside(int64_t in_day, int64_t first_ms, int64_t last_ms, int64_t *out)
{
	int64_t t = first_ms - first_ms % DAY_MS + in_day;
	if (t < first_ms - first_ms % 1000)
		t += DAY_MS;
	*out = t;
	return inside(t, first_ms, last_ms);
}

int rec_parse_at(const char *s, int64_t first_ms, int64_t last_ms, int64_t *out_ms, char *err, size_t errlen)
{
	int64_t t, in_day;
	char a[32], b[32], c[32];
	rec_format_time(first_ms, b, sizeof b);
	rec_format_time(last_ms, c, sizeof c);
	if (clock_time(s, &in_day)) {
		if (!clock_time_inside(in_day, first_ms, last_ms, &t))
			return err_set(err, errlen,
				       "--at %s (UTC) is outside the recording (%s to %s): no day of it has that time",
				       s, b, c);
	} else {
		char why[256];
		if (reset_parse_datetime(s, last_ms, &t, why, sizeof why) != 0)
			return err_set(err, errlen,
				       "--at expects 2026-12-01T03:10:00, 03:10[:00] (UTC) or -2h (before "
				       "the recording's end), got '%s'",
				       s);
	}
	if (!inside(t, first_ms, last_ms)) {
		rec_format_time(t, a, sizeof a);
		return err_set(err, errlen, "--at %s (%s) is outside the recording (%s to %s)", s, a, b, c);
	}
	*out_ms = t;
	return 0;
}
