/* log_offsets.h — log start and log end offsets for every partition of a snapshot's fresh groups.
 *
 * Earliest (log start) and latest (log end) for chunks of at most 250 partitions of one leader: 2
 * ListOffsets requests per chunk, never one per partition. With librdkafka >= 2.3.0 through the admin
 * rd_kafka_ListOffsets, every call in flight at once on one queue, errors per partition; otherwise (or
 * with LAGTOP_LOG_OFFSETS=offsets_for_times) through rd_kafka_offsets_for_times, blocking, leaders in
 * parallel threads. Chunks because both match answers by a linear scan (O(n^2) per call); per leader
 * because offsets_for_times drops every result when any leader fails, so one dead broker would blank
 * every log offset. Partitions whose topic is gone or whose leader is not among the live brokers in md
 * are not asked and get LT_PF_NO_LEADER; those whose live leader was asked but whose answer failed, had
 * a partition error or did not come in time get LT_PF_LOG_UNKNOWN (both paths); a request's failure is
 * added to s->error. Groups with an error (stale) are skipped. With `kept` (a dashboard's: log_starts.h), a
 * log start read recently is carried instead of asked, and a chunk whose log starts were all carried sends
 * only its latest call. LAGTOP_DEBUG names the path taken and how many log starts were carried.
 */
#ifndef LAGTOP_KAFKA_LOG_OFFSETS_H
#define LAGTOP_KAFKA_LOG_OFFSETS_H

#include <stdint.h>

#include <librdkafka/rdkafka.h>

#include "kafka/log_starts.h"
#include "model/snapshot.h"

void log_offsets_fill(rd_kafka_t *rk, lt_snapshot *s, const struct rd_kafka_metadata *md, int64_t deadline,
		      lt_log_starts *kept);

#endif
