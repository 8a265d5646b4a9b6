/* commit_snapshot.h — copies what the commit stream knows into a snapshot (read from __consumer_offsets).
 *
 * The collector calls this once per refresh, after building the snapshot and before model_enrich:
 * per partition the last commit, commits per minute, time since the offset moved and `repeating`;
 * per group the newest commit, the summed rate and the offset-expiry forecast; per snapshot the
 * reader's state and the one line that says why the columns are empty or partial.
 * Only src/kafka includes this header.
 */
#ifndef LAGTOP_KAFKA_COMMIT_SNAPSHOT_H
#define LAGTOP_KAFKA_COMMIT_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>

#include "kafka/commitreader.h"
#include "model/snapshot.h"

/* r NULL: the stream is off (disabled by configuration); the snapshot says so. The stream is
 * locked for the duration of the copy (one hash lookup per partition).
 * Offsets the broker expired (commitlog/stream.h) are marked LT_PF_EXPIRED: a partition the group no
 * longer has is added with its committed offset unknown (its log offsets from another group of the same
 * topic-partition, when one has them), and a group the broker deleted with them is added (state Dead, as
 * Kafka describes it) for the expiry horizon after the expiry, when wanted(group, arg) says so (wanted
 * NULL: every group).
 * Calling it again on the same snapshot adds nothing twice. */
void commit_snapshot_fill(lt_commit_reader *r, lt_snapshot *s, int64_t now_ms,
			  bool (*wanted)(const char *group, void *arg), void *arg);

/* Waits until the reader is live (history loaded), denied or failed, or until timeout_ms passed.
 * Returns the state it ended in. For --once, whose single refresh needs the history first. */
lt_reader_state commit_reader_wait_loaded(lt_commit_reader *r, int timeout_ms);

#endif
