/* stream.h — the commit stream: what __consumer_offsets says about each group and partition.
 *
 * Fed with decoded records in log order (commit_stream_feed / commit_stream_apply), it keeps per
 * (group, topic, partition): the last commit, a bucketed count of recent commits (commits per
 * minute), when the committed offset last moved, and per group the last group metadata (members,
 * generation, currentStateTimestamp). Queries take `now` in ms since the epoch: pure C, no clock,
 * no I/O. Commit times are the broker's (the record's commitTimestamp), so ages are exact up to the
 * skew between the broker's clock and the `now` the caller passes.
 *
 * Offset expiry follows Kafka (GroupMetadata.removeExpiredOffsets / the new coordinator's
 * OffsetExpirationCondition): an explicit expireTimestamp (value v1) wins; otherwise, when the
 * group's last metadata has no members (Empty), offsets expire `retention` after the time the group
 * became Empty (currentStateTimestamp), or after the commit when that is unknown (v0/v1 metadata);
 * a group with no metadata at all (only admin / simple-consumer commits) expires each offset
 * `retention` after its commit. A consumer group with members (Stable) keeps the offsets of the
 * topics its members subscribe to; those of other topics expire `retention` after their commit
 * (when every member's subscription could be read; otherwise no forecast). A group of the new
 * consumer protocol (KIP-848: ConsumerGroup.offsetExpirationCondition) expires each offset `retention`
 * after its own commit (not after its members left), except the offsets of the topics its members
 * subscribe to (their ConsumerGroupMemberMetadata records; a member subscribed by regex, whose topics
 * the coordinator resolves in records not decoded here, leaves the group without a forecast). The
 * broker checks every offsets.retention.check.interval.ms (10 min by default), so the real
 * deletion comes up to that much later than the forecast.
 *
 * Expired offsets: Kafka's tombstone for an offset carries no reason, so a tombstone is taken for the
 * offset's expiry when its record time (commit_stream_feed_at) is at or after the forecast expiry, and
 * for a delete (OffsetDelete, DeleteGroups) when it comes earlier. An expired partition is no longer a
 * live commit (commit_stream_stats says -1) but is remembered (commit_stream_expired, ..._each_expired),
 * with the group, even after Kafka deleted the group, until the partition is committed again: the group
 * then restarts from its consumers' auto.offset.reset, which the broker does not know. A lagtop that
 * starts after the compaction of __consumer_offsets removed the expired commit cannot tell.
 *
 * Not thread-safe: the reader (src/kafka/commitreader.h) guards it with a mutex; pointers in the
 * results (protocol_type) stay valid only while that lock is held, until the next record.
 */
#ifndef LAGTOP_COMMITLOG_STREAM_H
#define LAGTOP_COMMITLOG_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commitlog/record.h"

#define LT_COMMIT_WINDOW_DEFAULT_MS  (5 * 60 * 1000LL)        /* commits-per-minute window */
#define LT_COMMIT_HORIZON_DEFAULT_MS (3 * 24 * 3600 * 1000LL) /* expiry warning horizon: 3 days */

typedef struct lt_commit_stream_conf {
	int64_t window_ms;    /* rate window; <= 0: default */
	int64_t horizon_ms;   /* warn when offsets expire sooner than this; <= 0: default */
	int64_t retention_ms; /* offsets.retention.minutes * 60000; <= 0: unknown (no forecast) */
} lt_commit_stream_conf;

typedef struct lt_commit_stream lt_commit_stream;

/* Counters of everything fed in, for the status line and the tests. */
typedef struct lt_commit_counters {
	uint64_t records; /* fed, decodable or not */
	uint64_t offset_commits;
	uint64_t offset_tombstones;
	uint64_t group_metadata;
	uint64_t group_tombstones;
	uint64_t unknown_key;   /* key version 3+: other record types, skipped */
	uint64_t unknown_value; /* known key, value version not 0-3: skipped */
	uint64_t malformed;     /* decode errors: skipped */
} lt_commit_counters;

/* Per (group, topic, partition). */
typedef struct lt_commit_stats {
	int64_t offset;               /* last committed offset */
	int64_t last_commit_ms;       /* commitTimestamp of the last commit */
	int64_t last_commit_age_ms;   /* now - last_commit_ms (negative if the broker clock is ahead) */
	uint64_t commits;             /* commits seen since the reader started */
	double commits_per_min;       /* over the window (or over the time observed, if shorter; >= 1 min) */
	int64_t moved_ms;             /* commitTimestamp of the first commit of the current offset */
	int64_t unmoved_ms;           /* now - moved_ms: time since the committed offset last moved */
	bool moved_exact;             /* false: the offset never changed while observed, unmoved_ms is a lower bound */
	uint64_t same_offset_commits; /* commits that repeated the current offset since it last moved */
	bool repeating;               /* alive but not moving: committed within the window, >= 2 repeats,
					 offset unmoved for at least the window */
	bool has_expiry;              /* expiry forecast available (see the header comment) */
	int64_t expires_at_ms;
	int64_t expires_in_ms; /* may be negative: overdue, the broker will delete it on its next check */
	bool expiry_warn;      /* has_expiry and expires_in_ms < horizon */
} lt_commit_stats;

/* Per group: the last metadata and aggregates over its partitions. */
typedef struct lt_commit_group_stats {
	bool has_metadata; /* a group metadata record is live (not deleted) */
	bool deleted;      /* the last group record was a tombstone */
	bool new_protocol; /* a KIP-848 consumer group (its members' subscriptions decoded, not its state) */
	bool empty;        /* has_metadata and no members */
	int32_t generation;
	size_t n_members;
	int64_t state_ms;          /* currentStateTimestamp, -1 if unknown */
	const char *protocol_type; /* valid until the next record is applied; "" when none */
	size_t n_partitions;       /* partitions with a live commit */
	int64_t last_commit_ms;    /* latest over partitions, -1 if none */
	int64_t last_commit_age_ms;
	double commits_per_min; /* sum over partitions */
	size_t n_expired;       /* partitions whose offsets expired (not in n_partitions) */
	int64_t expired_ms;     /* the latest of their tombstones' times, -1 when none */
	bool has_expiry;        /* earliest forecast over partitions */
	int64_t expires_at_ms;
	int64_t expires_in_ms;
	bool expiry_warn;
} lt_commit_group_stats;

lt_commit_stream *commit_stream_new(const lt_commit_stream_conf *conf); /* NULL: defaults */
void commit_stream_free(lt_commit_stream *s);
void commit_stream_set_retention(lt_commit_stream *s, int64_t retention_ms);
void commit_stream_set_horizon(lt_commit_stream *s, int64_t horizon_ms);
int64_t commit_stream_horizon(const lt_commit_stream *s);

/* Decodes and applies one record (value NULL = tombstone). Returns 0 when applied or skipped as an
 * unknown version (counted), -1 when malformed (counted, err says why, the stream is unchanged). */
int commit_stream_feed(lt_commit_stream *s, const void *key, size_t key_len, const void *value, size_t value_len,
		       char *err, size_t errlen);
/* The same with the record's timestamp (ms since the epoch; -1 unknown), which tells an expiry from a
 * delete (see above). */
int commit_stream_feed_at(lt_commit_stream *s, const void *key, size_t key_len, const void *value, size_t value_len,
			  int64_t record_ms, char *err, size_t errlen);
/* Applies an already decoded record. */
void commit_stream_apply(lt_commit_stream *s, const lt_commit_record *r);
void commit_stream_apply_at(lt_commit_stream *s, const lt_commit_record *r, int64_t record_ms);

const lt_commit_counters *commit_stream_counters(const lt_commit_stream *s);

/* 0 and *out filled when the stream has a live commit for the partition, -1 otherwise. */
int commit_stream_stats(const lt_commit_stream *s, const char *group, const char *topic, int32_t partition,
			int64_t now_ms, lt_commit_stats *out);
/* 0 and *out filled when the stream knows the group (metadata or commits), -1 otherwise. */
int commit_stream_group_stats(const lt_commit_stream *s, const char *group, int64_t now_ms, lt_commit_group_stats *out);
/* The same without the walk over the group's partitions: only the group's own fields (has_metadata to
 * n_partitions) are filled, the per-partition sums and forecasts are left unknown (last_commit_ms,
 * last_commit_age_ms and expired_ms -1, commits_per_min 0, n_expired 0, no expiry). For a caller that
 * reads only those, once per group and refresh (the steady refresh's generations). */
int commit_stream_group_info(const lt_commit_stream *s, const char *group, lt_commit_group_stats *out);

/* A group of the stream, to look it up once for many of its partitions (the snapshot's rows): NULL when
 * the stream does not know it. Valid while the stream is not fed (under the reader's lock). */
typedef struct lt_commit_group lt_commit_group;
const lt_commit_group *commit_stream_group(const lt_commit_stream *s, const char *group);
/* commit_stream_stats of a partition of g (NULL: -1). */
int commit_stream_group_part_stats(const lt_commit_stream *s, const lt_commit_group *g, const char *topic,
				   int32_t partition, int64_t now_ms, lt_commit_stats *out);

size_t commit_stream_n_groups(const lt_commit_stream *s);

/* A live commit (what OffsetFetch would return for the partition), for the steady refresh
 * (src/kafka/refresh_steady.c), which takes committed offsets from the stream instead of asking. */
typedef struct lt_commit_live {
	const char *topic; /* valid during the call */
	int32_t partition;
	int32_t leader_epoch; /* -1 unknown (commit value below v3) */
	int64_t offset;
	int64_t last_commit_ms;
	bool has_metadata; /* the commit carried metadata, which the stream does not keep */
} lt_commit_live;
typedef void lt_commit_live_fn(const lt_commit_live *c, void *arg);
/* Calls fn for each live commit of the group (expired ones left out), in no particular order.
 * Returns -1 when the stream does not know the group, else 0. */
int commit_stream_each_commit(const lt_commit_stream *s, const char *group, lt_commit_live_fn *fn, void *arg);

/* An offset that expired (see the header comment). */
typedef struct lt_commit_expired {
	const char *topic; /* valid during the call / until the next record */
	int32_t partition;
	int64_t offset;         /* the offset that expired */
	int64_t last_commit_ms; /* its last commit */
	int64_t expires_at_ms;  /* the forecast */
	int64_t expired_ms;     /* the tombstone's record time: when the broker deleted it */
} lt_commit_expired;
typedef void lt_commit_expired_fn(const char *group, const lt_commit_expired *e, void *arg);

/* 0 and *out filled when the partition's offset expired, -1 otherwise. */
int commit_stream_expired(const lt_commit_stream *s, const char *group, const char *topic, int32_t partition,
			  lt_commit_expired *out);
/* Calls fn for every expired offset (groups and partitions in no particular order). */
void commit_stream_each_expired(const lt_commit_stream *s, lt_commit_expired_fn *fn, void *arg);

#endif
