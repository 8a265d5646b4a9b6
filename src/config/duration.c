/* duration.c — see duration.h. */
#include "config/duration.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Non-negative decimal without the locale ("1", "0.25"); advances *p. */
static int parse_decimal(const char **p, double *out)
{
	const char *s = *p;
	double v = 0, scale = 1;
	bool digits = false;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (*s++ - '0');
		digits = true;
	}
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9') {
			scale /= 10;
			v += (*s++ - '0') * scale;
			digits = true;
		}
	}
	if (!digits)
		return -1;
	*p = s;
	*out = v;
	return 0;
}

int config_parse_duration(const char *s, int64_t *ms)
{
	static const struct {
		const char *unit;
		double ms;
	} units[] = { { "ms", 1 }, { "s", 1000 }, { "m", 60000 }, { "h", 3600000 }, { "d", 86400000 } };
	double total = 0;
	const char *p = s;
	double v;

	if (!s || !*s)
		return -1;
	if (parse_decimal(&p, &v) == 0 && *p == '\0') {
		total = v * 1000;
	} else {
		p = s;
		while (*p) {
			if (parse_decimal(&p, &v) != 0)
				return -1;
			size_t i;
			for (i = 0; i < sizeof units / sizeof units[0]; i++) {
				size_t ul = strlen(units[i].unit);
				if (strncmp(p, units[i].unit, ul) == 0 &&
				    !(ul == 1 && units[i].unit[0] == 'm' && p[1] == 's'))
					break;
			}
			if (i == sizeof units / sizeof units[0])
				return -1;
			total += v * units[i].ms;
			p += strlen(units[i].unit);
		}
	}
	if (!(total >= 0) || total > 1e15)
		return -1;
	*ms = (int64_t)(total + 0.5);
	return 0;
}

void config_format_duration(int64_t ms, char *buf, size_t len)
{
	if (ms >= LT_DAY_MS && ms % LT_DAY_MS == 0)
		snprintf(buf, len, "%lldd", (long long)(ms / LT_DAY_MS));
	else if (ms >= 3600000 && ms % 3600000 == 0)
		snprintf(buf, len, "%lldh", (long long)(ms / 3600000));
	else if (ms % 1000 == 0)
		snprintf(buf, len, "%llds", (long long)(ms / 1000));
	else
		snprintf(buf, len, "%lldms", (long long)ms);
}
