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
 * also on failure. sconf sets the stream's window and horizon (NULL: defaults); the retention comes
 * from the brokers. Returns NULL with err on a configuration error. */
lt_commit_reader *commit_reader_start(rd_kafka_conf_t *conf, const lt_commit_stream_conf *sconf, char *err,
                                      size_t errlen);
/* Stops the thread and frees everything. NULL is fine. */
void commit_reader_stop(lt_commit_reader *r);

/* The state, and in why a one-line explanation ("" when LIVE with nothing to say). */
lt_reader_state commit_reader_state(lt_commit_reader *r, char *why, size_t len);
const char *reader_state_name(lt_reader_state st);
/* True while STARTING because the topic does not exist (Kafka creates it on the first commit's
 * FindCoordinator): there is no history to wait for. */
bool commit_reader_topic_missing(lt_commit_reader *r);

/* The retention read from the brokers in ms, or -1 while unknown; note says why when unknown. */
int64_t commit_reader_retention(lt_commit_reader *r, char *note, size_t len);

/* For the steady refresh (refresh.c), which takes committed offsets from the stream only when it is
 * known to hold every commit made before the refresh began: the number of __consumer_offsets
 * partitions being read (0 before the topic is found), and whether every partition p < n has been
 * read up to end[p] (an offset from ListOffsets: the last stable offset under read_committed) and the
 * reader is live. */
int32_t commit_reader_partitions(lt_commit_reader *r);
bool commit_reader_reached(lt_commit_reader *r, const int64_t *end, int32_t n);

/* Locks the stream for reading (commit_stream_stats and friends) and returns it; unlock soon:
 * the reader thread waits meanwhile. */
const lt_commit_stream *commit_reader_lock(lt_commit_reader *r);
void commit_reader_unlock(lt_commit_reader *r);

#endif
