/* sim.h — the simulated Kafka cluster as a library: lagtop --demo and the C tests run it in-process.
 *
 * sim_new() builds the state (a scenario) and binds every broker's listener, so sim_bootstrap() is valid
 * right away; sim_start() runs the event loop in a background thread. Every control call below is
 * thread-safe (it takes the cluster mutex) and may be used before or after sim_start(). Control calls
 * return 0, or -1 with a one-line message in err.
 *
 * This is a test and demo double speaking the real Kafka wire protocol on 127.0.0.1 — not a Kafka.
 */
#ifndef LAGTOP_SIM_SIM_H
#define LAGTOP_SIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sim_options {
	int brokers;                    /* 1..64; 0 means 3 */
	int port;                       /* first port (brokers use port, port+1, ...); 0: ephemeral ports */
	const char *scenario;           /* NULL/"empty", "demo", "scale", "fixture" (see below) */
	int groups, partitions, topics; /* "scale" sizes (0: defaults 100, 8, 4) */
	uint64_t seed;                  /* scenario randomness; 0: fixed default */
	/* Broker settings for real producers and consumers; 0 keeps the default. */
	int auto_create_partitions;           /* num.partitions of auto-created topics (1); -1: no auto-creation */
	int group_min_session_timeout_ms;     /* group.min.session.timeout.ms (6000, as Kafka) */
	int group_initial_rebalance_delay_ms; /* group.initial.rebalance.delay.ms (0; Kafka's is 3000) */
	int offsets_retention_minutes;        /* offsets.retention.minutes, served and applied (10080) */
	/* Housekeeping (doc/SIM-VS-KAFKA.md); 0 keeps the default. */
	int64_t offsets_retention_check_interval_ms; /* how often offsets expire (600000) */
	int64_t log_retention_ms; /* log.retention.ms (7 days); -1: no limit (with log_retention_ms_set) */
	bool log_retention_ms_set;
	int64_t log_retention_bytes;             /* log.retention.bytes per partition (-1: none) */
	int64_t log_retention_check_interval_ms; /* retention and compaction (300000) */
	int64_t offsets_segment_bytes;           /* __consumer_offsets' active segment (256 KiB) */
	int64_t offsets_delete_retention_ms;     /* tombstones kept by compaction (1 day) */
	bool deny_offsets_topic; /* fault: Metadata answers TOPIC_AUTHORIZATION_FAILED for __consumer_offsets */
	/* Whose API version ranges the brokers serve (doc/SIM-VS-KAFKA.md): 4 (0 means 4) is Kafka 4.x, without
	 * the versions KIP-896 removed; 3 is Kafka 3.9, with them. Every client lagtop's tests use (librdkafka
	 * 2.0.2, kafka-python 2.0.2) works with both. kafka_minor only matters for 3: 0 or 9 is 3.9; 6 is Kafka
	 * 3.6, a broker before KIP-848: no ConsumerGroupDescribe at all, ListGroups up to v4. */
	int kafka_major;
	int kafka_minor;
	/* A Prometheus endpoint where the simulated consumers publish their positions (metrics.h). */
	bool metrics;
	int metrics_port; /* 0: a free port */
};

/* The "fixture" scenario, static and exactly known (tests with independent clients rely on it):
 *   fx-orders: 3 partitions x 1000 records, offset k at SIM_FIXTURE_BASE_TS + k*1000 ms; partition 0's log
 *              starts at 100.  fx-audit: 1 partition, empty.
 *   fx-stable: Stable, "consumer"/"range", members fx-c1-member (client fx-c1, host /10.9.0.1, fx-orders 0,1)
 *              and fx-c2-member (fx-c2, /10.9.0.2, fx-orders 2); committed 500, 600, 700.
 *   fx-empty:  Empty simple group; committed fx-orders/0 = 10 (metadata "m0"), fx-orders/2 = 20.
 *   fx-rebalancing: PreparingRebalance, one member fx-c3-member (client fx-c3); nothing committed.
 *   fx-kip848: a consumer-protocol (KIP-848) group, Stable, group epoch = assignment epoch = 1, assignor
 *              "uniform"; one member fx-c4-member (client fx-c4, host /10.9.0.4, rack "rack-a", member
 *              epoch 1, no instance id) subscribed to fx-orders and assigned fx-orders 1 (target the
 *              same); committed fx-orders/1 = 650. DescribeGroups shows it as Kafka 4.x does (Dead, no
 *              members, below v6); ListGroups lists it as consumer/Stable. */
#define SIM_FIXTURE_BASE_TS 1700000000000LL

typedef struct sim_cluster sim_cluster;

sim_cluster *sim_new(const struct sim_options *opt, char *err, size_t errlen);
int sim_start(sim_cluster *sim);
const char *sim_bootstrap(const sim_cluster *sim); /* "127.0.0.1:P1,127.0.0.1:P2,..." */
int sim_metrics_port_of(const sim_cluster *sim);   /* the metrics endpoint's port, 0 without one */
void sim_stop(sim_cluster *sim);                   /* stops the loop thread (listeners stay bound) */
/* Runs the broker's periodic jobs now, as if their timers fired at wall time now_ms: offset expiry, log
 * retention, compaction of __consumer_offsets (tests). */
void sim_housekeeping_run(sim_cluster *sim, int64_t now_ms);
void sim_free(sim_cluster *sim); /* stops, closes everything */
/* Names the scenarios (for --help and error messages). */
const char *sim_scenario_names(void);
bool sim_scenario_known(const char *name);

/* ---- topics and records ---- */
int sim_create_topic(sim_cluster *sim, const char *topic, int partitions, char *err, size_t errlen);
/* A hostile broker's topic: any non-empty name, escape sequences and invalid UTF-8 included. */
int sim_create_topic_any_name(sim_cluster *sim, const char *topic, int partitions, char *err, size_t errlen);
/* Appends count records with timestamps first_ts_ms, first_ts_ms + step_ms, ... (ms since the epoch). */
int sim_append(sim_cluster *sim, const char *topic, int partition, int64_t count, int64_t first_ts_ms, int64_t step_ms,
	       char *err, size_t errlen);
/* Retention: moves the log start offset forward (never back; clamped to the log end). */
int sim_set_log_start(sim_cluster *sim, const char *topic, int partition, int64_t offset, char *err, size_t errlen);
int sim_get_offsets(sim_cluster *sim, const char *topic, int partition, int64_t *log_start, int64_t *log_end, char *err,
		    size_t errlen);
/* The node id of a partition's leader (or -1). */
int sim_leader(sim_cluster *sim, const char *topic, int partition);

/* ---- groups ---- */
struct sim_member_assignment {
	const char *topic;
	const int32_t *partitions;
	int npartitions;
};

struct sim_member_spec {
	const char *member_id; /* NULL: generated */
	const char *client_id;
	const char *client_host;       /* NULL: "/127.0.0.1" */
	const char *group_instance_id; /* NULL: dynamic member */
	const char *const *topics;     /* subscription; NULL: the assigned topics */
	int ntopics;
	const struct sim_member_assignment *assignment;
	int nassignment;
	/* Consumer-protocol (KIP-848) members only (sim_add_consumer_member); classic members ignore them. */
	const char *rack_id;     /* NULL: none */
	const char *topic_regex; /* SubscribedTopicRegex; NULL: subscribed by names only */
};

/* Adds a synthetic consumer member (protocol type "consumer", protocol "range") to a classic group,
 * creating the group if needed; the group becomes Stable with a new generation. The member id actually
 * used goes to id_out. A consumer-protocol group is an error. */
int sim_add_member(sim_cluster *sim, const char *group, const struct sim_member_spec *spec, char *id_out,
		   size_t id_outlen, char *err, size_t errlen);
/* A synthetic consumer-protocol (KIP-848) member: creates the group as type "consumer" when unknown
 * (an existing classic group is an error), adds the member with the given assignment, bumps the group
 * epoch, sets the member epoch and assignment epoch to it, and the group becomes Stable.
 * (Stable means every member reached the assignment epoch, so the other members' epochs move with it.)
 * spec->member_id NULL generates an id the way KIP-848 clients do (22 characters of URL-safe base64);
 * spec->topics NULL subscribes to the assigned topics; rack_id and topic_regex are shown by
 * ConsumerGroupDescribe. Real KIP-848 clients cannot join: the sim has no ConsumerGroupHeartbeat. */
int sim_add_consumer_member(sim_cluster *sim, const char *group, const struct sim_member_spec *spec, char *id_out,
			    size_t id_outlen, char *err, size_t errlen);
/* Removes a member; the group becomes Empty (new generation, or group epoch for a consumer-protocol
 * group) when it was the last one. The remaining members of a consumer-protocol group reconcile at once:
 * it stays Stable at a new group epoch. */
int sim_remove_member(sim_cluster *sim, const char *group, const char *member_id, char *err, size_t errlen);
/* Commits an offset (creates the group, Empty, when unknown), whatever the group's state. */
int sim_commit(sim_cluster *sim, const char *group, const char *topic, int partition, int64_t offset,
	       const char *metadata, char *err, size_t errlen);
/* -1: no committed offset (or no group). */
int64_t sim_committed(sim_cluster *sim, const char *group, const char *topic, int partition);
/* States (case-insensitive) of a classic group: Empty, PreparingRebalance, CompletingRebalance, Stable, Dead;
 * of a consumer-protocol group: Empty, Assigning, Reconciling, Stable, Dead (the other type's states are
 * refused). Empty and Dead remove the members. For a consumer-protocol group the epochs follow the state
 * as Kafka derives it: Assigning bumps the group epoch past the assignment epoch, Reconciling bumps both
 * and leaves the members' epochs behind, Stable brings every member to the assignment epoch; the first
 * three need members. */
int sim_set_group_state(sim_cluster *sim, const char *group, const char *state, char *err, size_t errlen);
/* Writes the state name ("" when the group does not exist); returns the member count or -1. */
int sim_group_info(sim_cluster *sim, const char *group, char *state, size_t statelen);
/* "classic" or "consumer" (a KIP-848 group), as ListGroups v5 names them; NULL when the group does not
 * exist. Groups made by sim_commit, sim_add_member and real JoinGroups are classic. */
const char *sim_group_type(sim_cluster *sim, const char *group);
/* Coordinator node id of a group. */
int sim_coordinator(sim_cluster *sim, const char *group);
/* Counts (for scale reports). */
void sim_sizes(sim_cluster *sim, size_t *topics, size_t *partitions, size_t *groups, size_t *commits);

/* ---- brokers and faults ---- */
int sim_broker_count(const sim_cluster *sim);
int sim_broker_port(const sim_cluster *sim, int node_id);
/* Closes the broker's listener and connections / reopens it on the same port. node_id is 1..N. */
int sim_broker_stop(sim_cluster *sim, int node_id, char *err, size_t errlen);
int sim_broker_start(sim_cluster *sim, int node_id, char *err, size_t errlen);
/* Holds back every answer of a broker by latency_ms (0: off). */
int sim_broker_set_latency(sim_cluster *sim, int node_id, int latency_ms, char *err, size_t errlen);

/* ---- fault injection (errors, latency, dropped connections; tests/faults) ----
 * node_id 0 means every broker. Errors are injected only into the answers of the group coordinator APIs
 * (FindCoordinator, ListGroups, DescribeGroups, ConsumerGroupDescribe, OffsetFetch, OffsetCommit,
 * DeleteGroups, OffsetDelete, Join/Sync/Heartbeat/LeaveGroup), in the error field(s) Kafka uses for that API and
 * version. A frozen sim is SIGSTOP on lagtop-sim (or sim_stop() in-process: the listeners stay bound, nothing answers).
 */
/* The same as sim_broker_set_latency, for one broker or all. */
int sim_fault_latency(sim_cluster *sim, int node_id, int latency_ms, char *err, size_t errlen);
/* Holds back only the answers of api_key (-1, the default: every API) when latency is on. */
int sim_fault_latency_api(sim_cluster *sim, int node_id, int api_key, char *err, size_t errlen);
/* Answers the next count requests (api_key, or -1 for any of the APIs above), then a share rate (0..1) of
 * them, with error_code (0 turns it off). */
int sim_fault_errors(sim_cluster *sim, int node_id, int16_t error_code, int api_key, double rate, int count, char *err,
		     size_t errlen);
/* Sends only the first half of a share rate (0..1) of answers, then closes the connection. */
int sim_fault_drop_rate(sim_cluster *sim, int node_id, double rate, char *err, size_t errlen);
/* OffsetCommit fails for topic/partition with error_code (a commit that fails part-way: the other
 * partitions of the same request succeed); topic NULL turns it off. */
int sim_fault_commit_partition(sim_cluster *sim, const char *topic, int partition, int16_t error_code, char *err,
			       size_t errlen);
/* ListOffsets fails for topic/partition with error_code, answered by its live leader (the partition keeps
 * its leader in Metadata); topic NULL turns it off. */
int sim_fault_list_offsets_partition(sim_cluster *sim, const char *topic, int partition, int16_t error_code, char *err,
				     size_t errlen);
/* Turns every fault off (latency included). */
void sim_fault_clear(sim_cluster *sim);
/* Faults injected so far: error answers, dropped connections. */
void sim_fault_counts(sim_cluster *sim, uint64_t *errors, uint64_t *drops);
/* Moves an existing group's coordinator to node_id (0: back to the hashed one). */
int sim_group_move_coordinator(sim_cluster *sim, const char *group, int node_id, char *err, size_t errlen);
/* The retriable errors by Kafka name (case-insensitive): COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR,
 * COORDINATOR_LOAD_IN_PROGRESS, REQUEST_TIMED_OUT. */
int sim_error_code_parse(const char *name, int16_t *code);
const char *sim_error_code_names(void);

/* Fuzzing: runs a byte stream of length-prefixed request frames through broker node_id's dispatch path
 * as if it came from a connection, without a socket (answers are built, then dropped). Returns the
 * frames handled, or -1 when the stream would have closed the connection. Only before sim_start(). */
int sim_feed(sim_cluster *sim, int node_id, const uint8_t *data, size_t len);

/* ---- request counters ---- */
/* Requests received per API key since the last reset (keys >= SIM_COUNT_KEYS are summed in [SIM_COUNT_KEYS]). */
#define SIM_COUNT_KEYS 80
void sim_counts(sim_cluster *sim, uint64_t counts[SIM_COUNT_KEYS + 1], bool reset);
/* The counts as one-line JSON {"ApiVersions":3,"Metadata":2,...,"total":N} (caller frees). */
char *sim_counts_json(sim_cluster *sim, bool reset);

#endif
