/* offsets_log.h — the records the simulated cluster writes to its __consumer_offsets topic.
 *
 * Kafka's group coordinator stores every accepted commit and every group state change as a record of
 * the internal, compacted __consumer_offsets topic, in the partition abs(hash(group)) % 50. These
 * helpers build exactly those records from the sim's own structures (cluster.h), with the versions a
 * current Kafka writes: offset commit key v1 + value v3, group metadata key v2 + value v3, and null
 * values (tombstones) for deleted offsets and groups. Appending them to the topic (and serving it
 * through Fetch) is the record store's job. Pure: no I/O, no clock.
 */
#ifndef LAGTOP_SIM_OFFSETS_LOG_H
#define LAGTOP_SIM_OFFSETS_LOG_H

#include <stdbool.h>
#include <stdint.h>

#include "commitlog/record.h"
#include "sim/cluster.h"

#define SIM_OFFSETS_TOPIC             "__consumer_offsets"
#define SIM_OFFSETS_PARTITIONS        50    /* offsets.topic.num.partitions, Kafka's default */
#define SIM_OFFSETS_RETENTION_MINUTES 10080 /* offsets.retention.minutes, Kafka's default (7 days) */

struct sim_offsets_record {
	int32_t partition; /* of __consumer_offsets */
	lt_bytes key;
	lt_bytes value;  /* empty when value_null */
	bool value_null; /* a tombstone */
};
void sim_offsets_record_free(struct sim_offsets_record *r);

/* The __consumer_offsets partition that holds group_id's records. */
int32_t sim_offsets_partition(const char *group_id);

/* An accepted commit of g's offset for topic/partition. Returns 0, or -1 with err (a field too long
 * for the format). */
int sim_offsets_commit_record(const struct sim_group *g, const char *topic, int32_t partition,
			      const struct sim_commit *c, struct sim_offsets_record *out, char *err, size_t errlen);
/* An offset deleted (OffsetDelete, DeleteGroups) or expired. */
int sim_offsets_commit_tombstone(const char *group_id, const char *topic, int32_t partition,
				 struct sim_offsets_record *out, char *err, size_t errlen);
/* g's metadata after a rebalance completed or its last member left; state_ms is when it entered the
 * current state (Kafka's currentStateTimestamp). */
int sim_offsets_group_record(const struct sim_group *g, int64_t state_ms, struct sim_offsets_record *out, char *err,
			     size_t errlen);
/* The group deleted. */
int sim_offsets_group_tombstone(const char *group_id, struct sim_offsets_record *out, char *err, size_t errlen);

/* ---- the journal: appending to the sim's own __consumer_offsets ----
 * Called by the sim where Kafka's coordinator writes (cluster mutex held). The topic is created with
 * SIM_OFFSETS_PARTITIONS partitions on first use (Kafka creates it on the first FindCoordinator);
 * each record becomes a one-record batch, timestamped like Kafka's (the commit time / the change
 * time). Readers blocked in Fetch see it at their next wake-up (at most their MaxWaitTime later).
 * The topic is not compacted: it keeps every record, as a Kafka log does until the cleaner runs.
 * Consumer-protocol (KIP-848) groups get their offset commit records and, of the records Kafka keeps for
 * the group itself (keys 3 to 8), their ConsumerGroupMetadata (3) and members (5) only
 * (doc/SIM-VS-KAFKA.md). */

/* Appends one record (a one-record batch timestamped ts) to group_id's partition, creating the topic. */
void sim_offsets_journal_append(struct sim_state *st, const char *group_id, struct sim_offsets_record *r, int64_t ts);
/* After sim_group_commit() accepted g's commit of topic/partition. */
void sim_offsets_log_commit(struct sim_state *st, const struct sim_group *g, const char *topic, size_t topic_len,
			    int32_t partition);
/* After an offset was deleted (OffsetDelete) or expired. */
void sim_offsets_log_commit_delete(struct sim_state *st, const char *group_id, const char *topic, size_t topic_len,
				   int32_t partition, int64_t now_ms);
/* After g's state or generation changed from (old_state, old_generation): a new state sets g->state_ms
 * (Kafka's currentStateTimestamp) to now_ms; writes the group metadata when the group became Stable (a
 * rebalance completed) or Empty (its last member left) in a new state or generation, as Kafka does;
 * otherwise nothing. */
void sim_offsets_log_group_change(struct sim_state *st, struct sim_group *g, enum sim_group_state old_state,
				  int32_t old_generation, int64_t now_ms);
/* A consumer-protocol group's own records, those lagtop's commit stream reads (Kafka writes more: partition
 * metadata, target and current assignments, keys 4, 6-8): member m's ConsumerGroupMemberMetadata (key 5)
 * after it joined, its tombstone after member_id left, and the group's ConsumerGroupMetadata (key 3) with
 * its epoch after either, as Kafka's coordinator writes them. */
void sim_offsets_log_consumer_member(struct sim_state *st, const struct sim_group *g, const struct sim_member *m,
				     int64_t now_ms);
void sim_offsets_log_consumer_member_left(struct sim_state *st, const struct sim_group *g, const char *member_id,
					  int64_t now_ms);
void sim_offsets_log_consumer_group(struct sim_state *st, const struct sim_group *g, int64_t now_ms);
/* The group deleted: its ConsumerGroupMetadata tombstone (a classic group's: sim_offsets_group_tombstone). */
void sim_offsets_log_consumer_group_delete(struct sim_state *st, const char *group_id, int64_t now_ms);
/* Before g is deleted (DeleteGroups): a tombstone for every committed offset, then for the group. */
void sim_offsets_log_group_delete(struct sim_state *st, const struct sim_group *g, int64_t now_ms);

#endif
