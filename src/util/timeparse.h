/* timeparse.h — the --to-datetime and --by-duration arguments, parsed strictly (pure: `now` is passed in).
 *
 * Datetime (kafka-consumer-groups' Utils.getDateTime): yyyy-MM-dd'T'HH:mm:ss.SSS, optionally followed by a
 * zone: Z, +08, +0800 or +08:00 (or -…); no zone means UTC. lagtop extras, never a different meaning:
 *   - seconds without milliseconds: 2026-11-29T10:00:00 (and with a zone);
 *   - relative: "-6h", "6h", "30m", "90s", "2d", "1w" — that long before now.
 * Duration (java.time.Duration.parse): [-+]PnDTnHnMn.nS, e.g. PT6H, P1DT2H, PT0.5S; case-insensitive,
 * each number may carry a sign, at least one part.
 * Timestamps before 1970-01-01T00:00:00Z are refused: ListOffsets reads -1 and -2 as "latest"/"earliest",
 * so a pre-epoch time would silently mean something else.
 */
#ifndef LAGTOP_UTIL_TIMEPARSE_H
#define LAGTOP_UTIL_TIMEPARSE_H

#include <stddef.h>
#include <stdint.h>

/* Parses a datetime (or relative form) into milliseconds since the epoch. 0 or -1 with err filled
 * (one line, quoting the input and showing an accepted example). */
int reset_parse_datetime(const char *s, int64_t now_ms, int64_t *out_ms, char *err, size_t errlen);

/* Parses an ISO-8601 duration. *out_sec and *out_nanos (0..999999999) as java.time.Duration keeps them. */
int reset_parse_duration(const char *s, int64_t *out_sec, int32_t *out_nanos, char *err, size_t errlen);

/* now − duration, as kafka-consumer-groups computes it (Instant.minus(d).toEpochMilli(): floor to ms).
 * Fills err if the result is out of range (before the epoch or overflow). */
int reset_duration_before(const char *s, int64_t now_ms, int64_t *out_ms, char *err, size_t errlen);

/* Formats ms since the epoch as 2026-11-29T10:00:00.000Z into buf (at least 32 bytes). */
void reset_format_time(int64_t ms, char *buf, size_t len);

#endif
