/* refresh_internal.h — what the files of one refresh share: the work set (a group's requests and
 * answers), kept result events, request tickets, the groups stage's state, and the functions each file
 * gives the others. Not for use outside refresh*.c.
 *
 * Who calls whom (never the other way): refresh.c (the driver) -> refresh_groups.c (the groups stage's
 * event loop) -> refresh_send.c (requests) -> refresh_build.c (groups into the snapshot) ->
 * refresh_steady.c (the commit stream) -> refresh_work.c (bookkeeping). */
#ifndef LAGTOP_KAFKA_REFRESH_INTERNAL_H
#define LAGTOP_KAFKA_REFRESH_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commitlog/stream.h"
#include "kafka/group_batch.h"
#include "kafka/refresh.h"
#include "model/group_view.h"
#include "model/snapshot.h"

struct group_work {
	char *name;
	bool listed;               /* ListGroups returned it (else: an extra group, or kept from the last refresh) */
	lt_group_state list_state; /* its state in ListGroups' answer, when listed */
	lt_group_type list_type;   /* and its type (ListGroups v5, librdkafka >= 2.10; else unknown) */
	int32_t coord;             /* coordinator broker id: last refresh's, then the describe's; -1 unknown */
	bool warm;                 /* coordinator known from last refresh: requests go straight to it */
	bool desc_sent, desc_done, off_sent, off_done, off_retried;
	int probes;                    /* brokers asked after NOT_COORDINATOR (see probe_next_broker) */
	const struct lt_ticket *probe; /* the describe ticket of the probe in flight, NULL if none */
	const rd_kafka_ConsumerGroupDescription_t *desc; /* points into a kept event */
	const struct rd_kafka_group_info *binfo;         /* or its description from the batch (group_batch.h) */
	bool batch_wait;                                 /* its describe is the batch's, which has not returned */
	bool desc_asked;                                 /* a describe of its own went out (warm_top_up) */
	const rd_kafka_group_result_t *off;              /* idem */
	struct kept_event *desc_ev, *off_ev;             /* the events they point into */
	bool built;                                      /* in the snapshot already: its events are released */
	bool unauthorized; /* GROUP_AUTHORIZATION_FAILED: no Describe on it (left out, counted once) */
	char *error;
	/* steady refresh (see steady_decide) */
	bool deferred;    /* waits for ListGroups to decide between the stream and a describe */
	bool swept;       /* this refresh's slice of the full sweep: described, fetched and verified */
	bool from_stream; /* built from the last snapshot and the stream's commits */
	int32_t gen;      /* the stream's generation for it before it was described, -2 unknown */
	/* committed offsets from the stream instead of OffsetFetch (stream_offsets) */
	bool off_parked; /* described; waits for the stream to catch up (--once) before either */
	bool off_stream; /* soff holds its committed offsets */
	struct stream_off *soff;
	size_t n_soff;
};

/* A live commit copied out of the stream (its topic is only valid under the stream's lock). */
struct stream_off {
	char *topic;
	int32_t partition, leader_epoch;
	int64_t offset;
};

/* Pointers, so that a group's work stays put while the set grows (requests hold it as opaque). */
struct work_set {
	struct group_work **w; /* sorted by name after work_sort() */
	size_t n, cap;
	bool list_done;           /* every broker's ListGroups answered (possibly with errors) */
	bool list_complete;       /* ... and every broker answered: a group it did not list does not exist */
	bool commit_epochs;       /* keep the commits' leader epochs (the refresh context's setting) */
	lt_commit_reader *verify; /* steady refresh: compare fetched offsets with the stream (verify_group) */
	int64_t taken_at_ms;      /* the refresh's start (wall clock) */
	struct lt_refresh_stats *stats;
	lt_group_batch *batch;   /* the batched describe (binfo points into it), NULL when not used */
	const lt_snapshot *prev; /* the last snapshot: a batch-described member's group.instance.id */
};

/* Kept result events: descriptions and offsets point into them until their groups are built. A
 * group is built into the snapshot as soon as both its answers are in, and an event is destroyed
 * when the last group using it is built: on bench L the events of all 5,000 groups together are
 * ~78 MB, which holding them to the end of the refresh added to the peak RSS. */
struct kept_event {
	rd_kafka_event_t *ev; /* NULL once destroyed */
	size_t users;         /* groups whose desc/off point into it and are not built yet */
};

struct event_keep {
	struct kept_event **ev;
	size_t n, cap;
};

/* Every admin request carries a ticket as its opaque. Results are matched to the current refresh's
 * work by group name, never by pointer, because a request may be answered after its refresh ended
 * (then the answer is dropped).
 *
 * Why requests through FindCoordinator ("cold") get an hour-long timeout: in librdkafka 2.0.2 an
 * admin request that times out while its coordinator lookup is still pending (the coordinator is
 * down) aborts the process on an assertion when the coordinator comes back
 * (rd_kafka_enq_once_del_source_return: eonce->refcnt > 0; librdkafka issue 4605). So a cold request
 * is never allowed to time out in practice: the refresh stops waiting for it at its own deadline,
 * the request stays in flight, and the group is not asked about the long way again until it answers.
 * Requests sent to a named broker do not look up coordinators and keep the refresh's timeout. */
enum ticket_kind { TICKET_LIST, TICKET_DESCRIBE, TICKET_OFFSETS };

struct lt_ticket {
	struct lt_ticket *prev, *next;
	enum ticket_kind kind;
	uint64_t seq;   /* the refresh that sent it */
	bool cold;      /* through FindCoordinator */
	int32_t broker; /* a list's broker */
	size_t n;       /* groups: a describe's batch, or the one group of an offsets request */
	char **names;
};

#define COLD_TIMEOUT_MS (3600 * 1000)

struct stage2 {
	struct lt_refresh_ctx *rc;
	lt_snapshot *s;
	rd_kafka_t *rk;
	rd_kafka_queue_t *q;
	int64_t deadline;      /* for requests to named brokers */
	size_t pending;        /* this refresh's results still expected */
	size_t lists_pending;  /* brokers whose ListGroups has not answered */
	bool list_failed;      /* some broker's ListGroups failed: a group not listed may still exist */
	bool *list_answered;   /* per md->brokers[i] */
	struct warm_ent *warm; /* warm groups in sending order (send_warm) */
	size_t n_warm, next_warm;
	const struct rd_kafka_metadata *md; /* this refresh's brokers */
	bool steady;        /* the commit stream is caught up: quiet groups are not asked (steady_decide) */
	bool stream_wait;   /* --once, stream still loading: described groups park (stream_offsets) */
	bool stream_synced; /* --once, the parked groups found the stream caught up: later ones take it too */
	size_t n_parked;
	int64_t park_until; /* parked groups stop waiting for the stream to load then (parked_due) */
	size_t warm_cap;
	lt_group_batch *batch;  /* the batched describe (group_batch.h), NULL until started */
	bool batch_pending;     /* it is wanted and has not returned yet (counted in pending) */
	int64_t batch_deadline; /* when it gives up: half of the refresh's time from the stage's start */
};

struct lt_steady {
	struct gen_ent *gens;
	size_t n_gens;
	size_t sweep_pos; /* where the next sweep slice starts: an index into the last snapshot's groups */
	bool poll_next;   /* the last verification failed: the next refresh polls */
	char poll_why[200];
};

struct live_list {
	lt_commit_live *c;
	size_t n, cap;
	bool metadata;
};

/* refresh_work.c: the work set, kept events, tickets */
bool stopping(const bool *stop);
void soff_free(struct group_work *gw);
bool has_desc(const struct group_work *gw);
int cmp_work(const void *a, const void *b);
struct group_work *work_find(const struct work_set *ws, const char *name);
struct group_work *work_add(struct work_set *ws, const char *name, bool listed);
void work_sort(struct work_set *ws);
void work_free(struct work_set *ws);
struct kept_event *keep_event(struct event_keep *k, rd_kafka_event_t *ev);
void release_event(struct kept_event *ke, bool drop_user);
void keep_free(struct event_keep *k);
struct lt_ticket *ticket_new(struct lt_refresh_ctx *rc, enum ticket_kind kind, bool cold, struct group_work *const *g,
			     size_t n);
void ticket_free(struct lt_refresh_ctx *rc, struct lt_ticket *t);
bool cold_in_flight(const struct lt_refresh_ctx *rc, const char *name);
void set_error(struct group_work *gw, const char *what, const char *why);

/* refresh_steady.c: what the commit stream says (the steady refresh) */
int32_t stream_gen(const lt_commit_group_stats *gs);
bool steady_sync(struct lt_refresh_ctx *rc, int64_t deadline, const bool *stop);
void steady_read_gens(struct lt_refresh_ctx *rc, struct group_work **g, size_t n);
bool steady_quiet(const struct lt_steady *sd, const struct group_work *gw, const lt_group *pg,
		  const lt_commit_group_stats *gs);
void collect_live(const lt_commit_live *c, void *arg);
bool stream_offsets(struct lt_refresh_ctx *rc, struct group_work *gw);
bool stream_caught_up(struct lt_refresh_ctx *rc, int64_t deadline, const bool *stop);
void verify_group(const struct work_set *ws, const lt_group *g);
void steady_remember(struct lt_refresh_ctx *rc, const struct work_set *ws);

/* refresh_build.c: groups built into the snapshot */
lt_group_state state_from_rd(rd_kafka_consumer_group_state_t st);
lt_group *group_copy_stale(lt_snapshot *s, const lt_group *pg, int64_t prev_taken_at, int64_t now, const char *error);
lt_group_described described_of(const struct group_work *gw);
lt_group_view view_of_work(const struct work_set *ws, const lt_snapshot *prev, const struct group_work *gw);
bool batch_usable(const struct rd_kafka_group_info *gi, const lt_group *pg);
bool group_build(lt_snapshot *s, const struct work_set *ws, const lt_snapshot *prev, const struct group_work *gw);
bool build_from_stream(lt_snapshot *s, const struct work_set *ws, const struct group_work *gw, const lt_group *pg,
		       const lt_commit_stream *cs);
void build_if_complete(lt_snapshot *s, const struct work_set *ws, const lt_snapshot *prev, struct group_work *gw);
void build_batch(lt_snapshot *s, const struct lt_ticket *t, struct work_set *ws, const lt_snapshot *prev);

/* refresh_send.c: the describe and offsets requests, the warm window */
void options_timeout(rd_kafka_AdminOptions_t *opt, int64_t deadline, bool cold);
void describe_send(struct stage2 *st, struct group_work **g, size_t n, int32_t broker);
void offsets_send(struct stage2 *st, struct group_work *gw, int32_t broker);
void warm_top_up(struct stage2 *st);
void warm_append(struct stage2 *st, struct group_work **by, size_t nb, bool describe_only);
void send_warm(struct stage2 *st, struct work_set *ws);
void send_cold(struct stage2 *st, struct work_set *ws, bool list_complete);
bool stream_instead(struct stage2 *st, struct group_work *gw);

/* refresh_groups.c: the groups stage */
void groups_stage(struct lt_refresh_ctx *rc, lt_snapshot *s, const struct rd_kafka_metadata *md, int64_t deadline,
		  const bool *stop, struct work_set *ws, struct event_keep *keep, bool steady);

#endif
