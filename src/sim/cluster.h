/* cluster.h — the simulated cluster's state: brokers, topics, partitions, groups, members, offsets.
 *
 * Pure data plus the operations on it; no I/O. Not thread-safe by itself: the server holds its mutex
 * around every request handler, timer and control call (sim.h), so code here never locks.
 *
 * Record timestamps are stored as runs (struct sim_segment), so a partition with millions of records
 * costs one entry per append call, not one per record.
 *
 * Ownership: every char* and byte array here is heap-allocated and owned by its struct.
 */
#ifndef LAGTOP_SIM_CLUSTER_H
#define LAGTOP_SIM_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/strmap.h"

/* Kafka error codes the sim answers with. */
enum {
	KERR_NONE = 0,
	KERR_OFFSET_OUT_OF_RANGE = 1,
	KERR_CORRUPT_MESSAGE = 2,
	KERR_UNKNOWN_TOPIC_OR_PARTITION = 3,
	KERR_NOT_LEADER_OR_FOLLOWER = 6,
	KERR_REQUEST_TIMED_OUT = 7,
	KERR_COORDINATOR_LOAD_IN_PROGRESS = 14,
	KERR_COORDINATOR_NOT_AVAILABLE = 15,
	KERR_NOT_COORDINATOR = 16,
	KERR_INVALID_TOPIC_EXCEPTION = 17,
	KERR_ILLEGAL_GENERATION = 22,
	KERR_INCONSISTENT_GROUP_PROTOCOL = 23,
	KERR_INVALID_GROUP_ID = 24,
	KERR_UNKNOWN_MEMBER_ID = 25,
	KERR_INVALID_SESSION_TIMEOUT = 26,
	KERR_REBALANCE_IN_PROGRESS = 27,
	KERR_TOPIC_AUTHORIZATION_FAILED = 29,
	KERR_GROUP_AUTHORIZATION_FAILED = 30,
	KERR_CLUSTER_AUTHORIZATION_FAILED = 31,
	KERR_UNSUPPORTED_VERSION = 35,
	KERR_TOPIC_ALREADY_EXISTS = 36,
	KERR_INVALID_PARTITIONS = 37,
	KERR_INVALID_REPLICATION_FACTOR = 38,
	KERR_INVALID_REQUEST = 42,
	KERR_NON_EMPTY_GROUP = 68,
	KERR_GROUP_ID_NOT_FOUND = 69,
	KERR_MEMBER_ID_REQUIRED = 79,
	KERR_GROUP_SUBSCRIBED_TO_TOPIC = 86,
};

/* ---- brokers ---- */

struct sim_node {
	int32_t node_id; /* 1..N */
	char host[64];   /* always "127.0.0.1" */
	int port;        /* the real listening port (known after bind) */
	bool up;         /* false while stopped through the control API */
};

/* ---- topics and partitions ---- */

/* A run of records: offsets first_offset .. first_offset+count-1 with timestamps first_ts + i*ts_step. */
struct sim_segment {
	int64_t first_offset;
	int64_t count;
	int64_t first_ts;
	int64_t ts_step; /* >= 0 */
};

struct sim_record_store; /* record_store.c: produced record batches; opaque here */

struct sim_partition {
	int32_t index;
	int32_t leader;           /* node id */
	int64_t log_start;        /* first offset still in the log */
	int64_t log_end;          /* high watermark: offset of the next record */
	struct sim_segment *segs; /* timestamps of [segs[0].first_offset, log_end), ascending offsets */
	size_t nsegs, segs_cap;
	struct sim_record_store *store; /* NULL until something is produced; freed by state->store_free */
};

struct sim_topic {
	char *name;
	uint8_t id[16];
	int32_t npartitions;
	struct sim_partition *parts;
	size_t seq;              /* creation order, for stable listings */
	int64_t retention_ms;    /* the topic's retention.ms; 0: the broker's log_retention_ms */
	int64_t retention_bytes; /* the topic's retention.bytes; 0: the broker's log_retention_bytes */
};

/* ---- groups ---- */

/* Kafka 4.x keeps two kinds of consumer groups side by side: "classic" ones (JoinGroup/SyncGroup, the
 * only kind before KIP-848) and "consumer" ones (KIP-848, GA in 4.0), each with its own states. */
enum sim_group_type {
	SIM_GROUP_CLASSIC,
	SIM_GROUP_CONSUMER,
};

enum sim_group_state {
	SIM_GROUP_EMPTY,                /* both types */
	SIM_GROUP_PREPARING_REBALANCE,  /* classic */
	SIM_GROUP_COMPLETING_REBALANCE, /* classic */
	SIM_GROUP_STABLE,               /* both types */
	SIM_GROUP_DEAD,                 /* both types */
	SIM_GROUP_ASSIGNING,            /* consumer: the group epoch is ahead of the assignment epoch */
	SIM_GROUP_RECONCILING,          /* consumer: some member has not reached the assignment epoch */
};

/* One protocol a member offered in JoinGroup (e.g. "range") with its metadata (the subscription). */
struct sim_protocol {
	char *name;
	uint8_t *metadata;
	int32_t metadata_len;
};

struct sim_member {
	char *member_id;
	char *group_instance_id; /* NULL unless static membership */
	char *client_id;
	char *client_host; /* "/127.0.0.1" like Kafka */
	int32_t session_timeout_ms;
	int32_t rebalance_timeout_ms;
	struct sim_protocol *protocols; /* in the member's order of preference */
	size_t nprotocols;
	uint8_t *assignment; /* from SyncGroup (or the control API) */
	int32_t assignment_len;
	bool synthetic;       /* made by the control API / a scenario: no connection, never expires */
	int64_t last_seen_ms; /* monotonic ms of the last join/heartbeat (membership.c) */
	void *priv;           /* membership.c's per-member state (pending join/sync, timers) */
	void (*priv_free)(void *priv);
	/* Members of consumer-protocol (KIP-848) groups only. Their subscription is subscribed_topics (no
	 * JoinGroup protocols); their assignment is kept in `assignment` above, ConsumerProtocolAssignment
	 * encoded like a classic member's, so both kinds share the topic and subscription checks. */
	int32_t member_epoch;
	char *rack_id;          /* NULL: none */
	char *subscribed_regex; /* NULL: subscribed by names */
	char **subscribed_topics;
	size_t nsubscribed_topics;
};

struct sim_commit {
	bool set;
	int64_t offset;
	int32_t leader_epoch; /* -1 when unknown */
	char *metadata;       /* may be NULL */
	int64_t commit_ts_ms; /* wall clock */
};

/* A group's committed offsets of one topic, indexed by partition. */
struct sim_group_topic {
	char *topic;
	struct sim_commit *parts;
	int32_t nparts; /* allocated length of parts */
};

struct sim_group {
	char *group_id;
	enum sim_group_type type;
	enum sim_group_state state;
	char *protocol_type; /* "" for simple (admin-created) groups, "consumer" for consumers (both types) */
	char *protocol_name; /* the chosen protocol, e.g. "range"; "" when none */
	int32_t generation_id;
	char *leader_id; /* member id of the leader, NULL when none */
	struct sim_member **members;
	size_t nmembers, members_cap;
	struct sim_group_topic *offsets;
	size_t noffsets, offsets_cap;
	void *priv; /* membership.c's per-group state (join barrier, timers) */
	void (*priv_free)(void *priv);
	int32_t coordinator; /* fault injection: a moved coordinator's node id; 0: the hash decides */
	/* Consumer-protocol groups only: every membership or subscription change bumps the group epoch; the
	 * target assignment carries the epoch it was computed at (consumer_group.h keeps them consistent). */
	int32_t group_epoch;
	int32_t assignment_epoch;
	/* Classic groups: wall-clock ms of the last state change (Kafka's currentStateTimestamp), kept by
	 * sim_offsets_log_group_change; -1 until the first. An Empty group's offsets expire counted from it. */
	int64_t state_ms;
};

/* ---- the whole cluster ---- */

struct sim_state {
	int nnodes;
	struct sim_node *nodes; /* nodes[i].node_id == i + 1 */
	char *cluster_id;
	struct strmap topics; /* name → struct sim_topic* */
	size_t topic_seq;
	struct strmap groups;                               /* id → struct sim_group* */
	uint64_t rng;                                       /* xorshift state, for scenarios */
	void (*store_free)(struct sim_record_store *store); /* set by record_store.c when it stores anything */
	/* Broker settings for real producers and consumers; 0 means Kafka's default where it has one. */
	bool no_auto_create_topics;               /* auto.create.topics.enable=false */
	int32_t auto_create_partitions;           /* num.partitions (0: 1) */
	int32_t group_min_session_timeout_ms;     /* 0: 6000 */
	int32_t group_max_session_timeout_ms;     /* 0: 1800000 */
	int32_t group_initial_rebalance_delay_ms; /* Kafka's default is 3000; the sim's is 0 (fast tests) */
	bool any_topic_names;              /* fault injection: a hostile broker's topics ignore Kafka's name rules */
	int32_t offsets_retention_minutes; /* served by DescribeConfigs and applied (offsets_expiry.h); 0: 7 days */
	int64_t offsets_retention_check_interval_ms; /* how often offsets expire (housekeeping.h); 0: 600000 */
	/* Log housekeeping (record_store.h): Kafka's broker settings; 0 means the default named. */
	int64_t log_retention_ms;                /* log.retention.ms: 0 → 7 days; < 0: no time limit */
	int64_t log_retention_bytes;             /* log.retention.bytes per partition: 0 → none (Kafka's -1) */
	int64_t log_retention_check_interval_ms; /* 0 → 300000 */
	int64_t offsets_segment_bytes;       /* __consumer_offsets' active segment size: 0 → 256 KiB (the sim's) */
	int64_t offsets_delete_retention_ms; /* log.cleaner.delete.retention.ms: 0 → 1 day */
	bool deny_offsets_topic;             /* fault injection: __consumer_offsets is TOPIC_AUTHORIZATION_FAILED */
	int kafka_major; /* whose API version ranges the brokers serve: 4 (Kafka 4.x) or 3 (Kafka 3.9) */
	int kafka_minor; /* with 3: 9 (3.9) or 6 (3.6: no ConsumerGroupDescribe, ListGroups <= v4) */
};

struct sim_state *sim_state_new(int nnodes, uint64_t seed);
void sim_state_free(struct sim_state *st);
uint64_t sim_state_rand(struct sim_state *st);
struct sim_node *sim_state_node(struct sim_state *st, int32_t node_id); /* NULL if unknown */

const char *sim_group_state_name(enum sim_group_state s);
int sim_group_state_parse(const char *name, enum sim_group_state *out);
/* Whether a group of type t can be in state s (Kafka's state sets differ by type). */
bool sim_group_state_valid(enum sim_group_type t, enum sim_group_state s);
/* "classic" / "consumer", as ListGroups v5 writes them. */
const char *sim_group_type_name(enum sim_group_type t);

/* Topics. Returns NULL and fills err on a bad name / count or an existing topic (*kerr gets the Kafka code). */
struct sim_topic *sim_topic_create(struct sim_state *st, const char *name, int32_t npartitions, int16_t *kerr,
				   char *err, size_t errlen);
struct sim_topic *sim_topic_find(const struct sim_state *st, const char *name, size_t len);
struct sim_partition *sim_partition_find(const struct sim_state *st, const char *topic, size_t len, int32_t p);
/* Topics in creation order (caller frees the array). */
struct sim_topic **sim_topics_sorted(const struct sim_state *st, size_t *n);

/* Appends count records with timestamps first_ts, first_ts+step, ...; returns the first new offset. */
int64_t sim_partition_append(struct sim_partition *p, int64_t count, int64_t first_ts, int64_t ts_step);
/* Moves the log start forward (retention), clamped to log_end; never backwards. */
void sim_partition_set_log_start(struct sim_partition *p, int64_t offset);
/* First offset in [log_start, log_end) whose timestamp >= ts, with that timestamp; -1 when none. */
int64_t sim_partition_offset_for_time(const struct sim_partition *p, int64_t ts, int64_t *found_ts);
/* Timestamp of the record at offset (-1 when outside [log_start, log_end)). */
int64_t sim_partition_timestamp_at(const struct sim_partition *p, int64_t offset);

/* Groups. The coordinator of a group is fixed by hashing its id over the brokers (unless a test moved it). */
int32_t sim_coordinator_for(const struct sim_state *st, const char *group_id, size_t len);
struct sim_group *sim_group_find(const struct sim_state *st, const char *id, size_t len);
/* Creates an Empty simple classic group (protocol type "") when it does not exist. */
struct sim_group *sim_group_get_or_create(struct sim_state *st, const char *id);
void sim_group_delete(struct sim_state *st, struct sim_group *g);
/* Turns an Empty consumer-protocol group into a new Empty classic one, its committed offsets kept: what
 * Kafka does when a classic member joins such a group (GroupMetadataManager.maybeDeleteEmptyConsumerGroup). */
void sim_group_to_classic(struct sim_group *g);

struct sim_member *sim_member_new(const char *member_id, const char *client_id, const char *client_host);
void sim_member_free(struct sim_member *m);
void sim_member_add_protocol(struct sim_member *m, const char *name, const void *metadata, int32_t len);
void sim_member_set_assignment(struct sim_member *m, const void *bytes, int32_t len);
void sim_group_add_member(struct sim_group *g, struct sim_member *m); /* takes ownership */
struct sim_member *sim_group_find_member(const struct sim_group *g, const char *member_id, size_t len);
/* Removes and frees; returns 0, or -1 when not a member. */
int sim_group_remove_member(struct sim_group *g, const char *member_id);
/* The metadata a member offered for the group's chosen protocol (NULL when none). */
const struct sim_protocol *sim_member_protocol(const struct sim_member *m, const char *name);

/* Committed offsets. */
void sim_group_commit(struct sim_group *g, const char *topic, size_t topic_len, int32_t partition, int64_t offset,
		      int32_t leader_epoch, const char *metadata, size_t metadata_len, int64_t now_ms);
const struct sim_commit *sim_group_committed(const struct sim_group *g, const char *topic, size_t len, int32_t p);
/* Returns 0 when something was deleted, -1 when there was nothing. */
int sim_group_commit_delete(struct sim_group *g, const char *topic, size_t len, int32_t partition);
/* Number of committed partitions. */
size_t sim_group_commit_count(const struct sim_group *g);
/* Whether some member of an active "consumer" group subscribes topic (a classic member's from the chosen
 * protocol's ConsumerProtocolSubscription, its assignment counting too; a consumer-protocol member's from
 * its subscribed topic names). */
bool sim_group_subscribes(const struct sim_group *g, const char *topic, size_t len);

/* Consumer protocol encodings (ConsumerProtocolSubscription v0, ConsumerProtocolAssignment v0). */
struct sim_assignment {
	const char *topic;
	const int32_t *partitions;
	int npartitions;
};
uint8_t *sim_consumer_subscription_encode(const char *const *topics, int ntopics, int32_t *len);
uint8_t *sim_consumer_assignment_encode(const struct sim_assignment *a, int n, int32_t *len);
/* Calls fn for every topic in a subscription or assignment (returns -1 when malformed). */
int sim_consumer_topics_each(const uint8_t *bytes, int32_t len, bool assignment,
			     void (*fn)(const char *topic, size_t len, void *arg), void *arg);
/* Calls fn for every topic of an assignment with its partitions (in the encoding's order; returns -1
 * when malformed). */
typedef void sim_assignment_fn(const char *topic, size_t len, const int32_t *partitions, int n, void *arg);
int sim_consumer_assignment_each(const uint8_t *bytes, int32_t len, sim_assignment_fn *fn, void *arg);

#endif
