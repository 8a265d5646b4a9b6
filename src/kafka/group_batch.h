/* group_batch.h — every classic group of the cluster described in one DescribeGroups per coordinator.
 *
 * librdkafka's rd_kafka_list_groups(rk, NULL, ...) (every release, 2.0.2 included) sends each broker one
 * ListGroups and then one DescribeGroups naming all the groups that broker listed, which it coordinates:
 * 2 x B requests for the whole cluster, where rd_kafka_DescribeConsumerGroups costs one request per
 * group. The call blocks, so it runs on a thread of its own beside the refresh's other requests, and
 * wakes the refresh's queue when it returns (rd_kafka_queue_yield).
 *
 * What librdkafka answers (2.0.2 and 2.15 alike): it waits for the cluster's metadata, then asks every
 * broker that metadata named, connected or not (a request to a broker not yet connected waits for the
 * connection: no broker is skipped for not being up yet, only the bootstrap entries, which have no node
 * id). It returns when every broker has answered both requests, or at its timeout: then with
 * RD_KAFKA_RESP_ERR__PARTIAL and the groups of the brokers that had (RD_KAFKA_RESP_ERR__TIMED_OUT when
 * none had). Its error is one slot that each answer overwrites, so NO_ERROR does not mean every broker
 * answered (a failed broker's groups are just absent when another answered after it), and an error may
 * drop groups that were described. The answer is therefore used group by group, never as the cluster's
 * list (that is ListConsumerGroups', refresh_groups.c): a group it describes once is taken; every other group
 * (its broker slow, down or failed, or described by two brokers while its coordinator moved) is left to
 * the per-group path, so a slow broker costs its own groups a per-group describe, and the others wait
 * for the batch at most its timeout.
 *
 * What the batch cannot answer is left to the per-group path too (refresh_build.c, batch_usable): a group
 * with an error, a Dead one (a consumer-protocol group answers DescribeGroups below v6 as Dead with
 * nothing), another protocol type, a member whose assignment bytes are malformed, and a member that may
 * be static (DescribeGroups v0 has no group.instance.id: Kafka names a static member's id after its
 * group.instance.id and a dynamic one's after its client.id, so an id that is not "<client.id>-<uuid>"
 * is asked again).
 */
#ifndef LAGTOP_KAFKA_GROUP_BATCH_H
#define LAGTOP_KAFKA_GROUP_BATCH_H

#include <librdkafka/rdkafka.h>
#include <stdbool.h>

typedef struct lt_group_batch lt_group_batch;

/* Starts the call on its own thread; wake is yielded when it returns (NULL: none). */
lt_group_batch *group_batch_start(rd_kafka_t *rk, rd_kafka_queue_t *wake, int timeout_ms);

/* A returned batch whose answer is list, which the caller keeps (it is not freed with the batch): the same
 * reading of an answer as the call's, for answers a test cannot get from a cluster on demand. */
lt_group_batch *group_batch_over(const struct rd_kafka_group_list *list);

/* True once the call has returned (then group_batch_find may be called). */
bool group_batch_ready(const lt_group_batch *b);

/* The group's description, NULL when the batch did not describe it, or described it twice (call only when
 * ready). */
const struct rd_kafka_group_info *group_batch_find(const lt_group_batch *b, const char *group);

/* Waits for the call to return and frees everything (NULL is fine). Descriptions found are invalid after. */
void group_batch_free(lt_group_batch *b);

/* True when a member id is "<client.id>-<uuid>", as Kafka names a dynamic member (group_batch.h). */
bool group_batch_member_dynamic(const char *member_id, const char *client_id);

#endif
