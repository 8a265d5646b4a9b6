/* refresh.h — one refresh: the batched admin round trips that turn a cluster into a snapshot
 * (refresh.c drives it; refresh_internal.h says which file does what).
 *
 * Order and cost (B brokers, G groups, L partition leaders; doc/ARCHITECTURE.md has the why):
 *   rd_kafka_metadata (all topics)                        1 Metadata: brokers, leaders
 *   ListConsumerGroups, one call per broker, in parallel  B ListGroups (a broker lists the groups it
 *     with the describes of the last refresh's groups       coordinates: their coordinator, no lookup)
 *   rd_kafka_list_groups on its own thread (group_batch.h) B ListGroups + B DescribeGroups for every group
 *     (not with -g, not in a steady refresh); what it cannot answer (a consumer-protocol group, a slow
 *     broker's groups, a possibly static member) is described by itself:
 *   DescribeConsumerGroups, batches per coordinator       G DescribeGroups (librdkafka >= 2.10 on Kafka 4.x:
 *                                                           G ConsumerGroupDescribe + the classic groups'
 *                                                           DescribeGroups fallback)
 *   ListConsumerGroupOffsets, one call per group          G OffsetFetch, all in flight on one queue
 *   log start and end, 250 partitions of a leader a call  2 x L ListOffsets (log_offsets.h), more past 250
 * Requests name their coordinator broker whenever it is known (the last refresh's, or the broker whose
 * ListGroups listed the group), so every refresh, the first included, is 1 + B + 2G + 2L requests
 * (librdkafka 2.0.2); a FindCoordinator is sent only for a group no broker listed (a -g name).
 * With the commit stream live (a steady refresh, "Steady refreshes" in doc/ARCHITECTURE.md) quiet groups
 * cost nothing: 1 + B + L ListOffsets of __consumer_offsets' ends + 2 x (changed groups + the sweep's
 * slice, G x interval / LT_SWEEP_MS) + 2L.
 */
#ifndef LAGTOP_KAFKA_REFRESH_H
#define LAGTOP_KAFKA_REFRESH_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>

#include "kafka/client.h"
#include "kafka/commitreader.h"
#include "kafka/log_starts.h"
#include "model/snapshot.h"

struct lt_refresh_ctx {
	lt_client *client;
	char *cluster_name;
	int timeout_ms;
	size_t n_include, n_exclude;
	regex_t *include, *exclude;
	size_t n_extra;
	char **extra;
	lt_snapshot *prev; /* the previous refresh's snapshot (stale data comes from here) */
	uint64_t seq;
	size_t n_known_brokers; /* broker ids ever seen in metadata: brokers_total */
	int32_t *known_brokers;
	rd_kafka_queue_t *q;       /* admin results; kept across refreshes, so late answers land here */
	struct lt_ticket *tickets; /* requests sent and not answered yet (refresh_work.c) */
	bool commit_epochs;        /* keep the commits' leader epochs (lt_group.commit_epochs) */
	lt_log_starts *log_starts; /* log starts carried between refreshes (log_starts.h); NULL: asked every time */

	/* The steady refresh (refresh_steady.c, "Steady refreshes" in doc/ARCHITECTURE.md): with the commit stream
	 * live and caught up, a quiet group is built from the last snapshot and the stream's commits, with
	 * no DescribeGroups or OffsetFetch; a slice of the groups per refresh is asked in full (the sweep,
	 * which also verifies the stream). */
	lt_commit_reader *reader; /* the commit stream, NULL when off */
	int interval_ms;          /* refresh interval: the sweep covers every group once per LT_SWEEP_MS */
	bool full_poll;           /* never steady (LAGTOP_FULL_POLL=1: the test hook comparing both ways) */
	bool one_shot;            /* --once: a described group's OffsetFetch waits for the stream (refresh_groups.c) */
	bool no_batch; /* describe group by group (LAGTOP_GROUP_BATCH=0: the test hook comparing both ways) */
	struct lt_steady *steady;   /* state kept across refreshes (refresh_steady.c) */
	char steady_note[200];      /* why the last refresh polled although the stream is live, "" if it did not */
	struct lt_refresh_stats {   /* what the last refresh did (LAGTOP_REFRESH_STATS=1 prints it) */
		bool steady;        /* committed offsets came from the stream */
		size_t from_stream; /* groups built from the last snapshot and the stream */
		size_t described;   /* groups described one by one (DescribeGroups) */
		size_t batched;     /* groups described by the batch (group_batch.h) */
		size_t fetched;     /* groups whose offsets were fetched (OffsetFetch) */
		size_t verified;    /* of those, compared with the stream */
		size_t mismatches;  /* partitions where OffsetFetch and the stream disagreed */
		size_t stream_late; /* --once: groups that waited for the stream, which was not caught up in
				       time, and were fetched instead */
	} stats;
};

/* The full sweep's period: with a live commit stream every group is still described and its offsets
 * fetched once per this many ms (a slice of the groups each refresh). */
#define LT_SWEEP_MS 60000

enum {
	LT_REFRESH_OK = 0,
	LT_REFRESH_PARTIAL,     /* some requests failed: see the snapshot's and groups' errors */
	LT_REFRESH_UNREACHABLE, /* no metadata within the timeout: the cluster cannot be reached */
};

/* Builds a snapshot (observed fields only; model_enrich is the caller's job). *out is always set.
 * *stop is polled so that a stopping collector does not wait for a whole timeout. */
int refresh_run(struct lt_refresh_ctx *rc, const bool *stop, lt_snapshot **out, char *err, size_t errlen);

/* Destroys the result queue and forgets unanswered requests. Call before destroying the client. */
void refresh_ctx_close(struct lt_refresh_ctx *rc);
/* Frees the steady refresh's state (after refresh_ctx_close). */
void refresh_ctx_free_steady(struct lt_refresh_ctx *rc);

/* True if group passes the include/exclude regexes. */
bool refresh_group_wanted(const struct lt_refresh_ctx *rc, const char *group);

#endif
