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

#endif
