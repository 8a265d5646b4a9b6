/* log_offsets.h — log start and log end offsets for every partition of a snapshot's fresh groups.
 *
 * rd_kafka_offsets_for_times with -2 (log start) then -1 (log end), one call pair per partition
 * leader, the leaders in parallel threads: 2 ListOffsets per leader, never one per partition. Not
 * one call for all partitions, because offsets_for_times drops every result when any leader fails,
 * so one dead broker would blank every log offset. Partitions whose topic is gone or whose leader is
 * not among the live brokers in md are not asked and get LT_PF_NO_LEADER; those whose live leader was
 * asked but whose answer failed, had a partition error or did not come in time get LT_PF_LOG_UNKNOWN
 * (both paths: offsets_for_times and the admin ListOffsets); a request's failure is added to s->error.
 * Groups with an error (stale) are skipped.
 */
#ifndef LAGTOP_KAFKA_LOG_OFFSETS_H
#define LAGTOP_KAFKA_LOG_OFFSETS_H

#include <stdint.h>

#include <librdkafka/rdkafka.h>

#include "model/snapshot.h"

void log_offsets_fill(rd_kafka_t *rk, lt_snapshot *s, const struct rd_kafka_metadata *md, int64_t deadline);

#endif
