/* record_store.h — what a partition's log holds beyond offsets and timestamps: the record batches real
 * producers sent, and synthetic records served as batches generated on the fly.
 *
 * A partition's offsets [log_start, log_end) are covered by two kinds of ranges: offsets appended through
 * Produce keep their batch bytes here (struct sim_record_store, hung on sim_partition.store), and offsets
 * appended through the control API / scenarios exist only as timestamp runs (cluster.h's segments) —
 * Fetch encodes those as valid v2 batches when asked, so a million synthetic records cost no memory.
 */
#ifndef LAGTOP_SIM_RECORD_STORE_H
#define LAGTOP_SIM_RECORD_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/cluster.h"
#include "sim/records.h"

/* Appends one batch that records_batch_decode() accepted: offsets are assigned from p->log_end, the
 * record timestamps (CreateTime) go into the partition's timestamp runs, the bytes are kept with the
 * broker-assigned base offset. Returns the batch's first offset. */
int64_t sim_store_append(struct sim_state *st, struct sim_partition *p, const struct rec_batch *b);

/* Appends to out the batches covering offsets from `from` on, at most max_bytes, the last one cut where the
 * limit falls (Kafka slices its log at the limit; clients drop a cut batch). With min_one the first batch
 * comes whole even over the limit (KIP-74: Kafka grants it to the first partition of an answer that has
 * records, no other). The first batch may start before `from` (clients skip what they did not ask for).
 * Returns the number of bytes appended. */
size_t sim_store_read(struct sim_partition *p, int64_t from, int32_t max_bytes, bool min_one, struct rec_buf *out);

/* Bytes held by produced batches of a partition (for sizes and tests). */
size_t sim_store_bytes(const struct sim_partition *p);

/* Most records put in one synthetic batch. */
#define SIM_STORE_SYNTH_BATCH 500

/* ---- retention and compaction (run by housekeeping.h) ----
 * Delete-policy topics keep records by time and size as Kafka's retention.ms / retention.bytes do, with a
 * stored batch or a run of synthetic records (one append) in the place of Kafka's segment: the log start
 * moves by whole units, never into one. __consumer_offsets is compacted instead: below its active
 * segment (rolled every offsets segment bytes) only the latest record of each key stays, and a tombstone
 * only until delete.retention.ms after it was written; its log start does not move, reads skip the gaps. */
#define SIM_LOG_RETENTION_MS                604800000LL /* log.retention.ms, Kafka's default (7 days) */
#define SIM_LOG_RETENTION_CHECK_INTERVAL_MS 300000      /* log.retention.check.interval.ms, Kafka's default */
#define SIM_OFFSETS_SEGMENT_BYTES           (256 << 10) /* the sim's; Kafka's offsets.segment.bytes is 100 MiB */
#define SIM_OFFSETS_DELETE_RETENTION_MS     86400000LL  /* log.cleaner.delete.retention.ms, Kafka's default */
#define SIM_SYNTH_RECORD_BYTES              20          /* what a synthetic record counts for retention.bytes */

/* Bytes a partition's log counts for retention.bytes: stored batches, plus synthetic records at
 * SIM_SYNTH_RECORD_BYTES each. */
int64_t sim_partition_bytes(const struct sim_partition *p);
/* Moves p's log start past the units older than retention_ms (by their newest record) and past the oldest
 * units while the log stays at or above retention_bytes (< 0: no limit). Returns how many offsets went. */
int64_t sim_partition_retention(struct sim_partition *p, int64_t now_ms, int64_t retention_ms, int64_t retention_bytes);
/* Appends a batch to a compacted topic's partition; rolls the active segment past segment_bytes. */
void sim_store_append_compacted(struct sim_state *st, struct sim_partition *p, const struct rec_batch *b,
				int64_t segment_bytes);
/* Cleans p below its active segment (see above); returns the bytes freed. */
size_t sim_store_compact(struct sim_partition *p, int64_t now_ms, int64_t delete_retention_ms);
/* Every topic: retention for delete-policy topics, compaction for __consumer_offsets. */
void sim_logs_retention(struct sim_state *st, int64_t now_ms);

#endif
