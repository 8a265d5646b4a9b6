/* duration.h — durations as the configuration file writes them (pure). */
#ifndef LAGTOP_CONFIG_DURATION_H
#define LAGTOP_CONFIG_DURATION_H

#include <stddef.h>
#include <stdint.h>

#define LT_DAY_MS (24LL * 3600 * 1000)

/* Parses a duration: a number of seconds ("2", "0.5") or numbers with units ms, s, m, h, d
 * ("500ms", "1h30m", "3d"). Returns 0 with *ms, or -1. */
int config_parse_duration(const char *s, int64_t *ms);

/* ms as the user would write it, in the largest unit that divides it: "0.1s" is "100ms", "3d", "1h", "0s". */
void config_format_duration(int64_t ms, char *buf, size_t len);

#endif
