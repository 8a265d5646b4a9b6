/* match.h — consumers' reports to the snapshot's partitions (pure: no I/O, no clocks).
 *
 * A report (client id, topic, partition) is used for the partition of a group whose owning member (the
 * snapshot's assignment, from DescribeGroups) has that client id. A report for a partition its client does
 * not own now (it was revoked, or another group's member shares the client id and does not own it), or
 * older than max_age_ms, is not used. Of several usable reports (several sources), the newest wins; of one
 * source, a position beats a lead, a lead beats a lag (report.h says why). Every partition's position fields
 * are set (has_position false when no report is used), and the snapshot's pos_sources say per source how it
 * went, in one line. */
#ifndef LAGTOP_POSITION_MATCH_H
#define LAGTOP_POSITION_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"
#include "position/report.h"

typedef struct lt_pos_input {
	const char *location;
	const lt_pos_reports *reports; /* finished; NULL when the source failed */
	const char *failure;           /* why it failed (reports NULL): "timeout after 2000 ms", ... */
	int64_t taken_ms;              /* wall clock the reports without a timestamp of their own were taken at:
					  the fetch, or a file's modification time */
} lt_pos_input;

/* max_age_ms <= 0: no age limit. now_ms: the end of the refresh (wall clock). */
void pos_match(lt_snapshot *s, const lt_pos_input *in, size_t n, int64_t now_ms, int64_t max_age_ms);

#endif
