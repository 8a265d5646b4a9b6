/* fetch.h — getting the bytes of position sources: Prometheus endpoints and statistics URLs over HTTP
 * (libcurl), statistics files from the disk. Called in the collector thread, never in the UI's.
 *
 * All URLs of a refresh are fetched at once (one curl multi handle), each within its own timeout and all
 * before the refresh's deadline, so one slow or dead endpoint costs at most its timeout and never delays the
 * refresh past its deadline. A body above the size limit is refused while it arrives (not buffered whole).
 * The status of a source that failed is one line saying why: "unreachable: ...", "timeout after 2000 ms",
 * "HTTP 500", "too large: over 16777216 bytes", "not a regular file", "cannot read: ...". */
#ifndef LAGTOP_POSITION_FETCH_H
#define LAGTOP_POSITION_FETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct lt_pos_fetch {
	const char *location; /* in: "http://..." or "https://...", else a file path */
	char *body;           /* out: malloc'd, NUL-terminated after len bytes; NULL on failure */
	size_t len;
	int64_t mtime_ms; /* out: a file's modification time (wall clock ms), -1 for URLs */
	char status[200]; /* out: "" when the body is here, else why not (one line) */
} lt_pos_fetch;

bool pos_location_is_url(const char *location);

/* Fetches f[0..n): each URL within timeout_ms and none past deadline_ms (CLOCK_MONOTONIC, ms; 0: none);
 * bodies over max_bytes are refused. Returns early, with "stopped" as the status of what was in flight,
 * when *stop becomes true (read atomically; NULL: never). */
void pos_fetch_all(lt_pos_fetch *f, size_t n, int timeout_ms, int64_t deadline_ms, size_t max_bytes, const bool *stop);
void pos_fetch_clear(lt_pos_fetch *f); /* frees the body */

#endif
