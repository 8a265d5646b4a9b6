/* membership.h — the classic consumer-group membership state machine (JoinGroup, SyncGroup, Heartbeat,
 * LeaveGroup, session timeouts, and the member checks of OffsetCommit), as Apache Kafka's
 * GroupCoordinator runs it:
 *
 *   Empty --join--> PreparingRebalance --barrier complete--> CompletingRebalance --leader's SyncGroup--> Stable
 *     ^                   ^  |                                    |                                     |
 *     |                   |  +-- every member left / expired -----|--> Empty                            |
 *     |                   +---- join, leave, metadata change, session expiry (from both) ---------------+
 *
 * Pure logic: no I/O, no clock (every entry point takes now_ms), no knowledge of the wire format.
 * Requests that cannot be answered at once (JoinGroup parked at the join barrier, SyncGroup waiting for
 * the leader) carry an opaque `waiter`; the answer is delivered later through struct mb_ops, from
 * whichever call completes it (another member's request, mb_tick(), a leave). Every waiter handed in is
 * answered exactly once, or dropped by mb_cancel_waiter() — so a caller that keeps responses in request
 * order never waits forever. Callbacks must not call back into this module.
 *
 * Not modelled: static membership (group.instance.id is ignored), group.max.size, KIP-848 groups, the
 * pending-sync timeout of Kafka >= 3.2.
 */
#ifndef LAGTOP_SIM_MEMBERSHIP_H
#define LAGTOP_SIM_MEMBERSHIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Kafka error codes this module answers with. */
#define MB_ERR_NONE                        0
#define MB_ERR_COORDINATOR_NOT_AVAILABLE   15
#define MB_ERR_ILLEGAL_GENERATION          22
#define MB_ERR_INCONSISTENT_GROUP_PROTOCOL 23
#define MB_ERR_UNKNOWN_MEMBER_ID           25
#define MB_ERR_INVALID_SESSION_TIMEOUT     26
#define MB_ERR_REBALANCE_IN_PROGRESS       27
#define MB_ERR_MEMBER_ID_REQUIRED          79

/* Kafka's GroupCoordinator.NewMemberJoinTimeoutMs: a new member parked in JoinGroup is dropped after it. */
#define MB_NEW_MEMBER_JOIN_TIMEOUT_MS 300000

enum mb_state { MB_EMPTY, MB_PREPARING_REBALANCE, MB_COMPLETING_REBALANCE, MB_STABLE, MB_DEAD };

/* "Empty", "PreparingRebalance", "CompletingRebalance", "Stable", "Dead" (the names DescribeGroups uses). */
const char *mb_state_name(enum mb_state s);

struct mb_config {
	int32_t min_session_timeout_ms;     /* group.min.session.timeout.ms (Kafka: 6000) */
	int32_t max_session_timeout_ms;     /* group.max.session.timeout.ms (Kafka: 1800000) */
	int32_t initial_rebalance_delay_ms; /* group.initial.rebalance.delay.ms (Kafka: 3000) */
	bool require_member_id;             /* answer MEMBER_ID_REQUIRED to a first JoinGroup v4+ (Kafka: always) */
};

/* Kafka's defaults. */
void mb_config_default(struct mb_config *cfg);

struct mb_protocol {
	char *name;
	uint8_t *metadata;
	size_t metadata_len;
};

struct mb_member {
	char *member_id;
	char *client_id;
	char *client_host;
	int32_t session_timeout_ms;
	int32_t rebalance_timeout_ms;
	struct mb_protocol *protocols; /* in the member's order of preference */
	size_t n_protocols;
	uint8_t *assignment; /* from the leader's SyncGroup; NULL/0 when none */
	size_t assignment_len;
	int64_t last_heartbeat_ms;
	bool is_new;        /* joined, but no JoinGroup answered yet */
	bool awaiting_join; /* a JoinGroup of this member is parked at the barrier */
	bool awaiting_sync; /* a SyncGroup of this member waits for the leader */
	void *join_waiter;  /* NULL when the parked request's client went away */
	void *sync_waiter;
};

struct mb_pending {
	char *member_id;
	int64_t deadline_ms;
};

/* The answer to a JoinGroup. Pointers are valid only during the callback. */
struct mb_join_member {
	const char *member_id;
	const uint8_t *metadata; /* the member's metadata for the selected protocol */
	size_t metadata_len;
};
struct mb_join_result {
	int16_t error;
	int32_t generation_id;     /* -1 with an error */
	const char *protocol_name; /* "" with an error */
	const char *leader_id;     /* "" with an error */
	const char *member_id;
	const struct mb_join_member *members; /* only to the leader; NULL/0 otherwise */
	size_t n_members;
};

struct mb_ops {
	void (*join_reply)(void *waiter, const struct mb_join_result *r, void *arg);
	void (*sync_reply)(void *waiter, int16_t error, const uint8_t *assignment, size_t len, void *arg);
	void *arg;
};

struct mb_group {
	char *group_id;
	enum mb_state state;
	int32_t generation_id;
	char *protocol_type;        /* set by the first member; NULL for a group that never had one */
	char *protocol_name;        /* the selected protocol; NULL unless CompletingRebalance/Stable */
	char *leader_id;            /* NULL when there are no members */
	struct mb_member **members; /* in join order */
	size_t n_members, cap_members;
	struct mb_pending *pending; /* member ids handed out with MEMBER_ID_REQUIRED */
	size_t n_pending, cap_pending;

	/* The join barrier (Kafka's DelayedJoin / InitialDelayedJoin) while PreparingRebalance. */
	int64_t join_deadline_ms;
	bool initial_join; /* the barrier is an InitialDelayedJoin: it only completes on expiry */
	int32_t initial_remaining_ms;
	bool new_member_added;

	const struct mb_config *cfg;
	const struct mb_ops *ops;
	uint64_t id_seed;
};

/* A JoinGroup request. */
struct mb_protocol_in {
	const char *name;
	const uint8_t *metadata;
	size_t metadata_len;
};
struct mb_join_req {
	const char *member_id; /* "" for a new member */
	const char *client_id;
	const char *client_host;
	int32_t session_timeout_ms;
	int32_t rebalance_timeout_ms; /* JoinGroup v0 has none: pass the session timeout */
	const char *protocol_type;
	const struct mb_protocol_in *protocols;
	size_t n_protocols;
	bool member_id_required; /* the request version allows MEMBER_ID_REQUIRED (v4+) */
};

/* A leader's SyncGroup assignment for one member. */
struct mb_assignment_in {
	const char *member_id;
	const uint8_t *assignment;
	size_t len;
};

/* cfg and ops must outlive the group. seed makes generated member ids differ between runs/groups. */
struct mb_group *mb_group_new(const char *group_id, const struct mb_config *cfg, const struct mb_ops *ops,
			      uint64_t seed);
/* Frees the group without answering parked requests: call mb_group_kill() first if there may be any. */
void mb_group_free(struct mb_group *g);
/* The group is going away (deleted, coordinator stopped): answer every parked request with
 * COORDINATOR_NOT_AVAILABLE and move to Dead. */
void mb_group_kill(struct mb_group *g);

/* INVALID_SESSION_TIMEOUT or NONE — checked before a group is created for a JoinGroup. */
int16_t mb_check_session_timeout(const struct mb_config *cfg, int32_t session_timeout_ms);

/* JoinGroup: the answer comes through ops->join_reply(waiter, ...), now or later. */
void mb_join(struct mb_group *g, const struct mb_join_req *req, void *waiter, int64_t now_ms);
/* SyncGroup: the answer comes through ops->sync_reply(waiter, ...), now or later. */
void mb_sync(struct mb_group *g, const char *member_id, int32_t generation_id, const struct mb_assignment_in *a,
	     size_t n, void *waiter, int64_t now_ms);
/* Heartbeat: NONE, REBALANCE_IN_PROGRESS, UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION, COORDINATOR_NOT_AVAILABLE. */
int16_t mb_heartbeat(struct mb_group *g, const char *member_id, int32_t generation_id, int64_t now_ms);
/* LeaveGroup for one member: NONE or UNKNOWN_MEMBER_ID (COORDINATOR_NOT_AVAILABLE when Dead). */
int16_t mb_leave(struct mb_group *g, const char *member_id, int64_t now_ms);
/* OffsetCommit against an existing group (Kafka's validateOffsetCommit + state check): NONE when the commit
 * may be stored. generation -1 with member "" is an admin/simple commit: accepted only when Empty. */
int16_t mb_commit_check(struct mb_group *g, const char *member_id, int32_t generation_id, int64_t now_ms);

/* Fires what is due at now_ms: the join barrier, session expiry, pending member expiry. */
void mb_tick(struct mb_group *g, int64_t now_ms);
/* The earliest time mb_tick() has something to do; INT64_MAX when nothing is scheduled. */
int64_t mb_next_deadline(const struct mb_group *g);
/* The client behind waiter is gone: never answer it (the member itself stays until it times out). */
void mb_cancel_waiter(struct mb_group *g, void *waiter);

struct mb_member *mb_find_member(const struct mb_group *g, const char *member_id);

#endif
