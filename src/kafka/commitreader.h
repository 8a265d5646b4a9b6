/* commitreader.h — reads Kafka's __consumer_offsets topic in the background into a commit stream.
 *
 * A librdkafka consumer without a group (the simple queue consumer: nothing is ever committed) reads every partition of
 * __consumer_offsets from the beginning, with isolation.level=read_committed so that aborted
 * transactional offset commits are never counted, and feeds each record to a commit stream
 * (src/commitlog/stream.h). It also asks one broker for offsets.retention.minutes (DescribeConfigs)
 * so that the stream can forecast offset expiry.
 *
 * It never stops lagtop: when the cluster denies it (no Describe/Read on the topic) or the topic is
 * missing, the state says so in one line and lagtop goes on polling committed offsets alone.
 * Only src/kafka includes this header.
 */
#ifndef LAGTOP_KAFKA_COMMITREADER_H
#define LAGTOP_KAFKA_COMMITREADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <librdkafka/rdkafka.h>

#include "commitlog/stream.h"
#include "config/connection.h"

#define LT_OFFSETS_TOPIC "__consumer_offsets"

typedef enum {
	LT_READER_STARTING = 0, /* looking up the topic (retrying while brokers are unreachable) */
	LT_READER_LOADING,      /* reading the history: not every partition has reached its end yet */
	LT_READER_LIVE,         /* caught up; following new records */
	LT_READER_DENIED,       /* not authorized: polling alone */
	LT_READER_FAILED,       /* topic missing or another permanent error: polling alone */
} lt_reader_state;

typedef struct lt_commit_reader lt_commit_reader;

/* Starts the reader thread. conf carries the cluster's connection properties (bootstrap, security;
 * e.g. from client_conf_build); the reader adds its consumer settings and takes ownership of conf,
 * also on failure. cc is the connection conf was built from (NULL: none): a tuning property the user set
 * there is kept (commit_reader_conf). sconf sets the stream's window and horizon (NULL: defaults); the
 * retention comes from the brokers. Returns NULL with err on a configuration error. */
lt_commit_reader *commit_reader_start(rd_kafka_conf_t *conf, const struct lt_connection *cc,
				      const lt_commit_stream_conf *sconf, char *err, size_t errlen);
/* The same for a reader that only loads the history and is then stopped (--once): an empty fetch is
 * answered after 10 ms instead of the broker's wait of 500 ms — a partition at its end in a fetch that
 * holds nothing else (librdkafka sends a broker's first fetch as soon as one partition is ready, before
 * the others join it) would otherwise hold the others back for that long —, and the partitions that were
 * empty are not started once it is live. A dashboard's reader keeps the default wait: while live, every
 * partition is at its end and a short wait is a busy loop. */
lt_commit_reader *commit_reader_start_once(rd_kafka_conf_t *conf, const struct lt_connection *cc,
					   const lt_commit_stream_conf *sconf, char *err, size_t errlen);

/* The reader's consumer settings on conf: what it relies on (no auto commit, partition EOF, earliest,
 * read_committed; for one_shot a 10 ms fetch wait) always, its prefetch limits unless cc sets them.
 * -1 with err when librdkafka refuses one. */
int commit_reader_conf(rd_kafka_conf_t *conf, const struct lt_connection *cc, bool one_shot, char *err, size_t errlen);

/* Stops the thread and frees everything. NULL is fine. */
void commit_reader_stop(lt_commit_reader *r);

/* A counter of changes to the state and the retention, and a wait (up to ms) until it differs from seen:
 * read the counter, then what you need, then wait with the counter read first — nothing is missed. */
uint64_t commit_reader_changes(lt_commit_reader *r);
void commit_reader_wait_change(lt_commit_reader *r, uint64_t seen, int ms);

/* The state, and in why a one-line explanation ("" when LIVE with nothing to say). */
lt_reader_state commit_reader_state(lt_commit_reader *r, char *why, size_t len);
const char *reader_state_name(lt_reader_state st);
/* True while STARTING because the topic does not exist (Kafka creates it on the first commit's
 * FindCoordinator): there is no history to wait for. */
bool commit_reader_topic_missing(lt_commit_reader *r);

/* The retention read from the brokers in ms, or -1 while unknown; note says why when unknown. */
int64_t commit_reader_retention(lt_commit_reader *r, char *note, size_t len);

/* For the steady refresh (refresh_steady.c), which takes committed offsets from the stream only when it is
 * known to hold every commit made before the refresh began: the number of __consumer_offsets
 * partitions being read (0 before the topic is found), and whether every partition p < n has been
 * read up to end[p] (an offset from ListOffsets: the last stable offset under read_committed) and the
 * reader is live. */
int32_t commit_reader_partitions(lt_commit_reader *r);
/* Where each of the n partitions ends now, asked through the reader's own handle (read_committed: the
 * last stable offset, which is as far as the reader can ever read; the collector's handle reads
 * uncommitted and would name offsets beyond an open transaction's). RD_KAFKA_RESP_ERR_NO_ERROR with
 * end[0..n) filled, or the error. Any thread; the reader must not be stopped concurrently. */
rd_kafka_resp_err_t commit_reader_ends(lt_commit_reader *r, int64_t *end, int32_t n, int timeout_ms);
/* The same through any handle rk: its isolation level decides which end (the collector's, read_uncommitted:
 * the high watermarks). */
rd_kafka_resp_err_t offsets_topic_ends(rd_kafka_t *rk, int64_t *end, int32_t n, int timeout_ms);
bool commit_reader_reached(lt_commit_reader *r, const int64_t *end, int32_t n);

/* Locks the stream for reading (commit_stream_stats and friends) and returns it; unlock soon:
 * the reader thread waits meanwhile. */
const lt_commit_stream *commit_reader_lock(lt_commit_reader *r);
void commit_reader_unlock(lt_commit_reader *r);

#endif
