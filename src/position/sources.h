/* sources.h — a cluster's position sources, from configuration to the snapshot's fields.
 *
 * Each refresh, the collector starts the fetch of every source (pos_sources_start: a thread of its own, so
 * the fetch runs while the refresh asks the cluster, and each source gets the refresh's timeout), then joins
 * it and applies the reports to the snapshot it built (pos_sources_finish: match.h, then the not-committing
 * flag, commitwatch.h). A source's format is told from its content: a JSON object is librdkafka statistics,
 * anything else Prometheus' text format. */
#ifndef LAGTOP_POSITION_SOURCES_H
#define LAGTOP_POSITION_SOURCES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"
#include "position/prom.h"

#define LT_POS_DEFAULT_MAX_AGE_MS (60 * 1000)
#define LT_POS_DEFAULT_MAX_BYTES  ((size_t)16 << 20)

typedef struct lt_pos_sources_conf {
	size_t n;
	const char *const *locations; /* URLs (http, https) or file paths */
	lt_prom_names names;          /* metric and label names; an empty lead or lag list, or a NULL label:
					 prom_names_builtin's */
	int64_t max_age_ms;           /* older reports are not used; <= 0: the default */
	int timeout_ms;               /* per source, within the refresh's deadline */
	size_t max_bytes;             /* 0: the default */
	int64_t not_committing_ms;    /* the not-committing window; <= 0: the default */
} lt_pos_sources_conf;

typedef struct lt_pos_sources lt_pos_sources;

/* NULL when conf has no locations (nothing to do). Copies everything it keeps. */
lt_pos_sources *pos_sources_new(const lt_pos_sources_conf *conf);
void pos_sources_free(lt_pos_sources *ps);
/* Starts fetching and parsing every source (deadline: CLOCK_MONOTONIC ms); stop is the collector's flag. */
void pos_sources_start(lt_pos_sources *ps, int64_t deadline_ms, const bool *stop);
/* Waits for the fetch (bounded by its deadline) and fills s's position fields and pos_sources, with ages
 * at the wall clock after the wait. Safe with ps NULL (does nothing). */
void pos_sources_finish(lt_pos_sources *ps, lt_snapshot *s);

#endif
