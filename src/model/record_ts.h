/* record_ts.h — the timestamps of the records at committed offsets, read from the cluster (src/kafka/record_peek.c)
 * and kept for the time lag (enrich.c): a record's timestamp never changes, so each distinct (topic, partition,
 * offset) is read once.
 *
 * The model asks (record_ts_want) where its log-end history cannot bracket the committed offset (the offset lies
 * before the history, the log end never moved over it, or the history has one point); the collector reads at
 * most a bounded number of the wanted records per refresh (record_ts_wanted), puts what it read
 * (record_ts_put), and model_apply_record_ts turns those partitions' estimated time lags into exact ones. The
 * rest stay estimated until a later refresh reads them. Pure: no I/O; one owner thread (the history's lock).
 */
#ifndef LAGTOP_MODEL_RECORD_TS_H
#define LAGTOP_MODEL_RECORD_TS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct lt_record_ts lt_record_ts;

/* What to read: the entry's own copy of the topic, valid until the next record_ts_tick. */
typedef struct lt_record_ts_key {
	const char *topic;
	int32_t partition;
	int64_t offset;
} lt_record_ts_key;

/* Entries held at most (wants beyond it wait until unused entries are forgotten). */
#define LT_RECORD_TS_MAX 65536
/* Records read per refresh at most (the collector's bound). */
#define LT_RECORD_TS_PER_REFRESH 32
/* Refreshes before a failed read (timeout, denied, deleted) is tried again. */
#define LT_RECORD_TS_RETRY 15

lt_record_ts *record_ts_new(size_t max_entries);
void record_ts_free(lt_record_ts *c);
/* A refresh begins: entries not looked up or wanted over the last refreshes are forgotten when the cache is
 * full, and failed ones whose wait is over are wanted again. */
void record_ts_tick(lt_record_ts *c);
/* The record's timestamp (ms), when read; keeps the entry alive. */
bool record_ts_get(lt_record_ts *c, const char *topic, int32_t partition, int64_t offset, int64_t *ts_ms);
/* Asks for the record to be read (nothing when already read, wanted or waiting after a failure). */
void record_ts_want(lt_record_ts *c, const char *topic, int32_t partition, int64_t offset);
/* Up to max wanted records, oldest want first. */
size_t record_ts_wanted(const lt_record_ts *c, lt_record_ts_key *out, size_t max);
/* The read's result: ok with the timestamp, or a failure (tried again after LT_RECORD_TS_RETRY refreshes). */
void record_ts_put(lt_record_ts *c, const char *topic, int32_t partition, int64_t offset, bool ok, int64_t ts_ms);

#endif
