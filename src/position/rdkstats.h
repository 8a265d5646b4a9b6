/* rdkstats.h — the consumer positions in librdkafka's statistics JSON (`statistics.interval.ms`;
 * librdkafka's STATISTICS.md).
 *
 * Per client (`client_id`, `type` "consumer", `time`: wall clock in seconds) and per topic and partition:
 * `app_offset` (the offset of the last message given to the application + 1: the position as the
 * application sees it; librdkafka's `next_offset`, the next offset to fetch, runs ahead of it by its
 * prefetch queue), `committed_offset`, `desired` (false once the partition is no longer assigned). Offsets
 * are -1001 (RD_KAFKA_OFFSET_INVALID) while unknown. Partition -1 is librdkafka's internal unassigned one.
 *
 * Applications write the statistics to a file (overwritten or appended, one document per callback) or serve
 * them: the input may hold several documents one after the other, of one client or many; per client, topic
 * and partition the newest (by `time`, then the last) wins. Parsed with jansson. Pure: no I/O, no clocks. */
#ifndef LAGTOP_POSITION_RDKSTATS_H
#define LAGTOP_POSITION_RDKSTATS_H

#include <stddef.h>

#include "position/report.h"

/* Reports of kind LT_POSK_POSITION with the committed offset; fills the counters of *out (n_units: the
 * documents read; a document that is not a consumer's statistics is bad; parsing stops at the first text
 * that is not JSON, keeping the documents before it — a file being appended ends in a partial one) and
 * finishes it (pos_reports_finish). */
void rdkstats_extract_positions(const char *text, size_t len, lt_pos_reports *out);

#endif
