/* refresh.h — one refresh: the batched admin round trips that turn a cluster into a snapshot.
 *
 * Order and cost per refresh (B brokers, G groups described, L partition leaders):
 *   Metadata (all topics)                          1 request: brokers and partition leaders
 *   ListConsumerGroups                             B ListGroups (one per broker)
 *   DescribeConsumerGroups (one group per call)    G DescribeGroups + G FindCoordinator
 *   ListConsumerGroupOffsets (one call per group)  G OffsetFetch (coordinator from the describe's lookup)
 *   offsets_for_times −2 and −1, per leader        2 × L ListOffsets (L <= B; a pair per 250 partitions)
 * librdkafka 2.0.2 caches only ~11 coordinators, so groups are described a few at a time and each
 * group's offsets are asked for as soon as its description is in, while its coordinator is still
 * cached: one FindCoordinator per group, not two (DESCRIBE_WINDOW in refresh.c; bench/ measures it).
 */
#ifndef LAGTOP_KAFKA_REFRESH_H
#define LAGTOP_KAFKA_REFRESH_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>

#include "kafka/client.h"
#include "model/snapshot.h"

struct lt_refresh_ctx {
	lt_client *client;
	char *cluster_name;
	int timeout_ms;
	size_t n_include, n_exclude;
	regex_t *include, *exclude;
	size_t n_extra;
	char **extra;
	lt_snapshot *prev;         /* the previous refresh's snapshot (stale data comes from here) */
	uint64_t seq;
	size_t n_known_brokers;    /* broker ids ever seen in metadata: brokers_total */
	int32_t *known_brokers;
};

enum {
	LT_REFRESH_OK = 0,
	LT_REFRESH_PARTIAL,        /* some requests failed: see the snapshot's and groups' errors */
	LT_REFRESH_UNREACHABLE,    /* no metadata within the timeout: the cluster cannot be reached */
};

/* Builds a snapshot (observed fields only; model_enrich is the caller's job). *out is always set.
 * *stop is polled so that a stopping collector does not wait for a whole timeout. */
int refresh_run(struct lt_refresh_ctx *rc, const bool *stop, lt_snapshot **out, char *err, size_t errlen);

/* True if group passes the include/exclude regexes. */
bool refresh_group_wanted(const struct lt_refresh_ctx *rc, const char *group);

#endif
