/* api.h — how a request reaches its handler: the API table and the handler interface.
 *
 * Adding an API: write `int sim_api_foo(struct sim_req *, struct wire_rd *, struct wire_buf *)` in its own
 * api_foo.c, declare it below, and fill its row in api_table.c. A row whose handler is NULL is neither
 * advertised in ApiVersions nor served (a request for it closes the connection, as Kafka does).
 *
 * A handler runs on the event-loop thread with the cluster mutex held. It reads the request body from rd
 * (the header is already parsed) and appends the response BODY to out: the server writes the length,
 * correlation id and header tagged fields. It returns:
 *   SIM_API_OK        — out holds the response;
 *   SIM_API_MALFORMED — the request could not be parsed: the server logs and closes the connection;
 *   SIM_API_NO_RESPONSE — the request gets no answer at all (Produce with acks=0, as in Kafka);
 *   SIM_API_CLOSE     — an answer-less request failed: close the connection so the client notices
 *                       (Kafka does this for a failed acks=0 Produce);
 *   SIM_API_DEFERRED  — the handler called sim_req_defer() and will answer later (JoinGroup's barrier,
 *                       Fetch's MaxWaitTime). Later responses on the same connection wait behind it, so
 *                       answers stay in request order.
 */
#ifndef LAGTOP_SIM_API_H
#define LAGTOP_SIM_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/cluster.h"
#include "sim/wire.h"

struct sim_server;
struct sim_broker;
struct sim_conn;
struct sim_resp;

enum { SIM_API_OK = 0, SIM_API_MALFORMED = -1, SIM_API_DEFERRED = 1, SIM_API_NO_RESPONSE = 2, SIM_API_CLOSE = 3 };

/* Kafka API keys the sim knows by name. */
enum {
	KAPI_PRODUCE = 0,
	KAPI_FETCH = 1,
	KAPI_LIST_OFFSETS = 2,
	KAPI_METADATA = 3,
	KAPI_OFFSET_COMMIT = 8,
	KAPI_OFFSET_FETCH = 9,
	KAPI_FIND_COORDINATOR = 10,
	KAPI_JOIN_GROUP = 11,
	KAPI_HEARTBEAT = 12,
	KAPI_LEAVE_GROUP = 13,
	KAPI_SYNC_GROUP = 14,
	KAPI_DESCRIBE_GROUPS = 15,
	KAPI_LIST_GROUPS = 16,
	KAPI_API_VERSIONS = 18,
	KAPI_CREATE_TOPICS = 19,
	KAPI_DELETE_RECORDS = 21,
	KAPI_DESCRIBE_CONFIGS = 32,
	KAPI_DELETE_GROUPS = 42,
	KAPI_OFFSET_DELETE = 47,
	KAPI_CONSUMER_GROUP_DESCRIBE = 69,
	KAPI_KEY_MAX = 80, /* counters are kept for keys 0..KAPI_KEY_MAX-1; others count as "unknown" */
};

struct sim_req {
	struct sim_server *srv;
	struct sim_state *st;
	struct sim_broker *broker; /* the broker the request arrived at */
	int32_t node_id;           /* its node id */
	struct sim_conn *conn;
	int16_t api_key;
	int16_t api_version;
	int32_t correlation_id;
	struct wire_str client_id; /* points into the request: copy it to keep it */
	const char *client_host;   /* "/127.0.0.1" */
	bool flex;                 /* this version uses the flexible (compact, tagged) encoding */
	int64_t now_ms;            /* wall clock, ms */
	int64_t mono_ms;           /* monotonic clock, ms (for timers) */
	struct sim_resp *deferred; /* set by sim_req_defer() */
	int16_t inject_err;        /* fault injection: answer with this error (sim_req_check_coordinator) */
};

typedef int sim_api_fn(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out);

struct sim_api {
	int16_t key;
	const char *name;
	int16_t min_version;   /* Kafka 4.x's oldest version (KIP-896), or the sim's oldest when that is newer */
	int16_t max_version;   /* the newest the sim implements */
	int16_t flexible_from; /* first flexible version; INT16_MAX when none */
	sim_api_fn *fn;        /* NULL: not implemented (not advertised) */
};

extern const struct sim_api sim_api_table[];
extern const size_t sim_api_table_len;

/* What a broker of Kafka kafka_major.kafka_minor (struct sim_state) does with an API: serves versions
 * min..max, and lists advertised_min..max in ApiVersions (Kafka 4.x lists Produce from v0 although it
 * serves v3+, for old librdkafka, KAFKA-18659). Returns false when the API is not served at all. */
struct sim_api_range {
	int16_t min, max, advertised_min;
};
bool sim_api_served(const struct sim_api *a, int kafka_major, int kafka_minor, struct sim_api_range *r);
/* The row for key, or NULL. */
const struct sim_api *sim_api_find(int16_t key);
/* A name for any key ("Unknown42" style names are not needed: unknown keys return NULL). */
const char *sim_api_name(int16_t key);

/* Deferred answers. sim_req_defer() reserves this request's place in the connection's answer queue; the
 * owner later calls sim_resp_complete() with the body (exactly once), or, if the connection closes first,
 * the server calls cancel(arg, resp) and the owner must forget resp. Loop thread, mutex held. */
struct sim_resp *sim_req_defer(struct sim_req *req, void (*cancel)(void *arg, struct sim_resp *resp), void *arg);
void sim_resp_complete(struct sim_server *srv, struct sim_resp *resp, const struct wire_buf *body);

/* Timers on the loop's monotonic clock; fn runs on the loop thread with the mutex held. 0 is never an id. */
typedef void sim_timer_fn(struct sim_server *srv, void *arg);
uint64_t sim_timer_add(struct sim_server *srv, int64_t due_mono_ms, sim_timer_fn *fn, void *arg);
void sim_timer_cancel(struct sim_server *srv, uint64_t id);

/* Handlers (one file each, api_*.c). */
sim_api_fn sim_api_api_versions;
sim_api_fn sim_api_metadata;
sim_api_fn sim_api_find_coordinator;
sim_api_fn sim_api_list_groups;
sim_api_fn sim_api_describe_groups;
sim_api_fn sim_api_consumer_group_describe;
sim_api_fn sim_api_offset_fetch;
sim_api_fn sim_api_offset_commit;
sim_api_fn sim_api_list_offsets;
sim_api_fn sim_api_delete_groups;
sim_api_fn sim_api_offset_delete;
sim_api_fn sim_api_create_topics;
sim_api_fn sim_api_delete_records;
sim_api_fn sim_api_describe_configs;
/* Real producers and consumer groups (api_produce.c, api_fetch.c, api_group_membership.c). */
sim_api_fn sim_api_produce;
sim_api_fn sim_api_fetch;
sim_api_fn sim_api_join_group;
sim_api_fn sim_api_sync_group;
sim_api_fn sim_api_heartbeat;
sim_api_fn sim_api_leave_group;
/* Answers held-back Fetches that now have data (after an append). */
void sim_fetch_wake(struct sim_server *srv);
/* OffsetCommit against a group real consumers joined (it has a coordinator state machine): Kafka's
 * member/generation checks. Returns -1 when g is not such a group (the caller decides), else 0 with *err. */
int sim_group_commit_check(struct sim_req *req, struct sim_group *g, struct wire_str member_id, int32_t generation,
			   int16_t *err);
/* Kafka's auto.create.topics.enable: creates an unknown topic named in a Metadata request (NULL when
 * auto-creation is off, or the name is invalid). */
struct sim_topic *sim_topic_auto_create(struct sim_state *st, struct wire_str name);

/* Shared checks for handlers. */
/* The injected error for committing topic/partition (sim_fault_commit_partition), or 0. */
int16_t sim_req_commit_fault(const struct sim_req *req, const char *topic, size_t len, int32_t partition);
/* The injected error for ListOffsets of topic/partition (sim_fault_list_offsets_partition), or 0. */
int16_t sim_req_list_offsets_fault(const struct sim_req *req, const char *topic, size_t len, int32_t partition);
/* NOT_COORDINATOR unless this broker coordinates group (and it is up); an injected fault's error first. */
int16_t sim_req_check_coordinator(const struct sim_req *req, const char *group, size_t len);

#endif
