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

#include <stddef.h>
#include <stdint.h>

#include "sim/cluster.h"
#include "sim/records.h"

/* Appends one batch that records_batch_decode() accepted: offsets are assigned from p->log_end, the
 * record timestamps (CreateTime) go into the partition's timestamp runs, the bytes are kept with the
 * broker-assigned base offset. Returns the batch's first offset. */
int64_t sim_store_append(struct sim_state *st, struct sim_partition *p, const struct rec_batch *b);

/* Appends to out whole batches covering offsets from `from` on, about max_bytes worth (at least one batch
 * when from < log_end, as Kafka does since KIP-74). The first batch may start before `from` (clients skip
 * what they did not ask for). Returns the number of bytes appended. */
size_t sim_store_read(struct sim_partition *p, int64_t from, int32_t max_bytes, struct rec_buf *out);

/* Bytes held by produced batches of a partition (for sizes and tests). */
size_t sim_store_bytes(const struct sim_partition *p);

/* Most records put in one synthetic batch. */
#define SIM_STORE_SYNTH_BATCH 500

#endif
