/* record_peek.h — reading the record at an exact offset, read-only: "what is the group stuck on?" (--peek, the
 * dashboard's record popup) and the timestamps of records at committed offsets for the time lag
 * (model/record_ts.h).
 *
 * Its own consumer handle, librdkafka's simple consumer: no group.id (nothing can ever be committed, no group is
 * joined, no coordinator asked), auto commit and offset store off, each partition started at the exact offset
 * (auto.offset.reset=error: an offset below the log start is reported, never silently moved), fetches capped
 * (max.partition.fetch.bytes 16 KiB, fetch.max.bytes 1 MiB; a larger batch still comes, whole or after a retry
 * with a doubled size), each partition stopped once its record came, and every read bounded by its timeout.
 * What is kept of a record is capped by model/peek.h.
 */
#ifndef LAGTOP_KAFKA_RECORD_PEEK_H
#define LAGTOP_KAFKA_RECORD_PEEK_H

#include <stddef.h>
#include <stdint.h>

#include "config/connection.h"
#include "model/model.h"
#include "model/peek.h"

typedef struct lt_peeker lt_peeker;

typedef struct lt_peek_req {
	const char *topic;
	int32_t partition;
	int64_t offset;    /* < 0: nothing to read (LT_PEEK_NO_OFFSET) */
	int64_t log_start; /* what the caller knows (-1 unknown): below it is LT_PEEK_DELETED without a fetch */
	int64_t log_end;   /* (-1 unknown): at or past it is LT_PEEK_AT_END without a fetch */
} lt_peek_req;

/* The handle (connects lazily). NULL with err on a bad property. */
lt_peeker *peeker_new(const struct lt_connection *cc, char *err, size_t errlen);
void peeker_free(lt_peeker *pk);

/* Reads req[i]'s record into out[i] (zeroed first), all partitions at once, within timeout_ms in all. The
 * same partition asked twice (committed offset and position, two groups' committed offsets) is read in a
 * second round, and so on. */
void peeker_read(lt_peeker *pk, const lt_peek_req *req, size_t n, lt_peeked *out, int timeout_ms);

/* What one refresh read for the time lag (the bench's figure). */
typedef struct lt_peek_stats {
	size_t asked; /* records read this refresh (at most LT_RECORD_TS_PER_REFRESH) */
	size_t read;  /* of them, with a timestamp */
	int64_t ms;   /* time spent */
} lt_peek_stats;

/* The collector's step after model_enrich: reads at most LT_RECORD_TS_PER_REFRESH of the records the history
 * wants (model/record_ts.h), distinct partitions first, then other offsets of the same ones, within
 * timeout_ms, puts them into the history, and applies them to s (model_apply_record_ts). lock/unlock guard
 * the history (NULL: the caller holds it); the reads run unlocked. */
void peeker_time_lags(lt_peeker *pk, lt_history *h, lt_snapshot *s, int timeout_ms, void (*lock)(void *),
		      void (*unlock)(void *), void *lock_arg, lt_peek_stats *stats);

#endif
