/* log_starts.h — log start offsets kept between refreshes, so that a dashboard does not ask for them every time.
 *
 * A partition's log start moves only when its log's head is removed: retention (checked every 5 minutes by
 * default), compaction, DeleteRecords, or the topic deleted and made again. Asking for it with the log end at
 * every refresh cost a fifth of the steady refresh's CPU on bench M (54.9 → 44.7 ms carried) and 15 of its 33
 * ListOffsets. So a log start read less than max_age ago is carried into the next refresh; one older, or never
 * read, is asked again. A carried log start above the log end read now (the log was truncated or made again) is not
 * used. Pure data, no I/O: log_offsets.c asks and fills.
 */
#ifndef LAGTOP_KAFKA_LOG_STARTS_H
#define LAGTOP_KAFKA_LOG_STARTS_H

#include <stdbool.h>
#include <stdint.h>

/* How old a dashboard's log starts may be (doc/lagtop.1, LOG-START). */
#define LT_LOG_START_MAX_AGE_MS 10000

typedef struct lt_log_starts lt_log_starts;

/* max_age_ms <= 0: nothing is ever carried (every refresh asks). */
lt_log_starts *log_starts_new(int max_age_ms);
void log_starts_free(lt_log_starts *k);

/* The log start of topic/partition read less than max_age before now_ms, and when it was read. */
bool log_starts_get(const lt_log_starts *k, const char *topic, int32_t partition, int64_t now_ms, int64_t *start,
		    int64_t *read_at_ms);

/* The next refresh's set replaces the kept one: log_starts_put each partition read or carried this time, then
 * log_starts_commit. A partition not put is forgotten (its group or topic is gone). */
void log_starts_put(lt_log_starts *k, const char *topic, int32_t partition, int64_t start, int64_t read_at_ms);
void log_starts_commit(lt_log_starts *k);

#endif
