/* offsets_expiry.h — Kafka's offset expiry (offsets.retention.minutes) in the simulated cluster.
 *
 * The rule is the group coordinator's (Kafka 3.9 GroupMetadata.removeExpiredOffsets, 4.x
 * ClassicGroup/ConsumerGroup.offsetExpirationCondition with OffsetMetadataManager.cleanupExpiredOffsets):
 * an offset expires when now - base >= retention, where base is
 *   - a simple group (classic, no protocol type: only admin / standalone commits): the commit time;
 *   - a classic group with a protocol type, Empty: when it became Empty (state_ms), or the commit time
 *     when that is unknown;
 *   - a classic "consumer" group, Stable, every member's subscription readable: the commit time, for the
 *     topics no member subscribes to (subscribed topics never expire);
 *   - a consumer-protocol (KIP-848) group: the commit time, for the topics no member subscribes to;
 * and nothing expires in any other case (a classic group rebalancing, another protocol type with members).
 * Each expired offset gets its tombstone in __consumer_offsets; a group left Empty with no offsets at
 * all is deleted (a group tombstone for a classic group, as Kafka writes it), as both coordinators do.
 * Pure state operations: the caller passes the time and holds the cluster mutex.
 */
#ifndef LAGTOP_SIM_OFFSETS_EXPIRY_H
#define LAGTOP_SIM_OFFSETS_EXPIRY_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/cluster.h"

#define SIM_OFFSETS_RETENTION_CHECK_INTERVAL_MS 600000 /* offsets.retention.check.interval.ms, Kafka's default */

/* offsets.retention.minutes in ms (the configured value, or Kafka's default). */
int64_t sim_offsets_retention_ms(const struct sim_state *st);
/* offsets.retention.check.interval.ms (the configured value, or Kafka's default). */
int64_t sim_offsets_retention_check_interval_ms(const struct sim_state *st);

/* When g's offset of topic (committed at commit_ms) expires under the rule above: true and *at set, or
 * false when it never expires in the group's present state. */
bool sim_offset_expiry_at(const struct sim_group *g, const char *topic, int64_t commit_ms, int64_t retention_ms,
			  int64_t *at);

/* One run of the coordinator's cleanup at now_ms: expires what is due, writes the tombstones, deletes the
 * groups left Empty without offsets. Returns the number of offsets expired; *groups_deleted (may be
 * NULL) gets the number of groups deleted. */
size_t sim_offsets_expire(struct sim_state *st, int64_t now_ms, size_t *groups_deleted);

#endif
