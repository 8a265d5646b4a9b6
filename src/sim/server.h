/* server.h — the event loop: listeners (one per broker), connections, framing, dispatch, timers.
 *
 * One thread runs the loop (epoll). Every piece of cluster state is guarded by srv->lock: the loop takes it
 * for each batch of events, handlers and timers run under it, and the control API (sim.c) takes it from
 * other threads. Requests on one connection are answered strictly in order, including deferred ones.
 */
#ifndef LAGTOP_SIM_SERVER_H
#define LAGTOP_SIM_SERVER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "sim/api.h"
#include "sim/cluster.h"
#include "sim/wire.h"

/* Per-broker fault injection, set through the control API (sim.h). Errors go only into answers
 * of the group coordinator APIs (FindCoordinator, ListGroups and the group/offset APIs), in the fields
 * Kafka uses for them (sim_req_check_coordinator). */
struct sim_fault {
	int32_t latency_ms;  /* every answer of this broker is held back this long ... */
	int16_t latency_api; /* ... or only the answers of this API key (-1: every API) */
	int16_t error_code;  /* inject this error (0: none) ... */
	int16_t error_api;   /* ... into answers of this API key (-1: any coordinator API) ... */
	int32_t error_count; /* ... the next this many times, then ... */
	double error_rate;   /* ... into this share of them (0..1) */
	double drop_rate;    /* share of answers cut in the middle, then the connection closed */
};

enum sim_ev_kind { SIM_EV_LISTENER = 1, SIM_EV_CONN, SIM_EV_WAKE };

struct sim_resp {
	struct sim_resp *next;
	struct sim_conn *conn;
	uint8_t *data; /* the whole frame, length prefix included */
	size_t len, off;
	bool ready;
	int16_t api_key;
	int32_t correlation_id;
	bool flex_header;
	uint64_t delay_timer; /* latency injection */
	size_t cut;           /* fault injection: send only this many bytes, then close (0: whole frame) */
	void (*cancel)(void *arg, struct sim_resp *resp);
	void *cancel_arg;
};

struct sim_conn {
	enum sim_ev_kind kind; /* SIM_EV_CONN: first member (see struct sim_broker) */
	int fd;
	uint64_t id;
	struct sim_broker *broker;
	struct sim_conn *prev, *next;
	struct wire_buf in;
	struct sim_resp *head, *tail;
	bool epollout;
	bool paused;      /* not reading: too many answers wait to be sent (a client that does not read) */
	size_t out_bytes; /* bytes of ready answers not yet sent */
	bool dead;
	bool detached; /* no socket (sim_server_feed): answers are built, then dropped */
	struct sim_conn *dead_next;
	char peer[48];
};

struct sim_broker {
	enum sim_ev_kind kind; /* SIM_EV_LISTENER: first member, so epoll data can point at either struct */
	struct sim_server *srv;
	int32_t node_id;
	int port;
	int listen_fd; /* -1 while stopped */
	bool want_up;  /* control API request, applied by the loop */
	struct sim_conn *conns;
	struct sim_fault fault;
};

struct sim_timer {
	uint64_t id;
	int64_t due;
	sim_timer_fn *fn;
	void *arg;
};

struct sim_server {
	pthread_mutex_t lock;
	pthread_cond_t changed; /* broadcast when the loop applied broker up/down changes */
	struct sim_state *st;
	int nbrokers;
	struct sim_broker *brokers;
	int epfd;
	int wakefd;
	enum sim_ev_kind wake_kind;
	pthread_t thread;
	bool running;
	bool stop;
	struct sim_timer *timers;
	size_t ntimers, timers_cap;
	uint64_t next_timer_id;
	uint64_t counts[KAPI_KEY_MAX];
	uint64_t count_unknown;
	uint64_t next_conn_id;
	struct sim_conn *dead;                    /* closed this pass, freed after the event batch */
	uint64_t fault_rng;                       /* fault injection's own randomness (scenarios keep theirs) */
	uint64_t injected_errors, injected_drops; /* how many faults were injected */
	char *commit_fail_topic;                  /* fault injection: OffsetCommit fails for this one partition ... */
	int32_t commit_fail_partition;
	int16_t commit_fail_code;      /* ... with this error (a commit that fails part-way) */
	char *list_offsets_fail_topic; /* fault injection: ListOffsets fails for this one partition ... */
	int32_t list_offsets_fail_partition;
	int16_t list_offsets_fail_code; /* ... with this error, on its live leader */
	char *bootstrap;
	struct sim_fetch_wait *fetch_waits; /* Fetches held for MaxWaitTime (api_fetch.c) */
};

/* Binds every listener (consecutive ports from base_port, or ephemeral when 0). */
struct sim_server *sim_server_new(struct sim_state *st, int base_port, char *err, size_t errlen);
int sim_server_start(struct sim_server *srv, char *err, size_t errlen); /* loop thread */
void sim_server_stop(struct sim_server *srv);                           /* joins it */
void sim_server_free(struct sim_server *srv);
/* Applies broker up/down requests: called by the loop, or directly when it is not running. Lock held. */
void sim_server_apply_brokers(struct sim_server *srv);
/* Runs a byte stream of length-prefixed request frames through the dispatch path of broker node_id, as if
 * it arrived on a connection, without a socket; answers are built and dropped. Returns the number of frames
 * handled, or -1 when the stream would have closed the connection. The loop must not be running (fuzzing). */
int sim_server_feed(struct sim_server *srv, int node_id, const uint8_t *data, size_t len);
/* Wakes the loop (from any thread). */
void sim_server_wake(struct sim_server *srv);

#endif
