/* delete_exec.h — guarded deletes: a whole group (DeleteGroups) or some of its committed offsets
 * (OffsetDelete), with the reset's guard, backup and audit log around them.
 *
 * Per group, in this order (the command line and the dashboard do the same):
 *   1. the group's state and members (reset_exec_read_state) and the reset guard's verdict
 *      (reset_guard_for): Empty, Dead or unknown proceed; anything else, or a state that cannot be read,
 *      is refused — nothing is backed up or deleted;
 *   2. the committed offsets about to go are read and written as a backup in the reset store, the same file
 *      a reset writes, so `--undo GROUP` puts them back; no backup, no delete (a group with no commits on
 *      the partitions has nothing to back up, and none is written);
 *   3. the audit line "intent" (nothing is deleted when it cannot be written);
 *   4. the delete; the broker's answer per group and per partition, or, when none arrives, the committed
 *      offsets read back (outcome unknown until they settle it);
 *   5. the audit line with the result (target "delete-group" or "delete-offsets T:P,..."), whatever happened.
 * Steps 1 to 5 run under the group's lock (reset_conn_lock): another lagtop holding it is a refusal.
 * Every function blocks (bounded by the connection's timeout); one connection per thread (reset_exec.h).
 */
#ifndef LAGTOP_KAFKA_DELETE_EXEC_H
#define LAGTOP_KAFKA_DELETE_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kafka/reset_exec.h"
#include "reset/plan.h"

typedef enum {
	LT_DEL_DELETED = 0, /* deleted: the group, or every partition asked */
	LT_DEL_PREVIEW,     /* dry run: the guard lets it through; nothing was backed up or deleted */
	LT_DEL_REFUSED,     /* the guard refused, or the broker did (NON_EMPTY_GROUP, GROUP_SUBSCRIBED_TO_TOPIC) */
	LT_DEL_FAILED,      /* the broker answered another error (some partitions may be deleted: see parts),
			       the cluster did not answer, or the backup could not be written (nothing deleted) */
	LT_DEL_UNKNOWN,     /* the delete got no answer and the offsets could not be read back: outcome unknown */
} lt_delete_status;

typedef struct lt_delete_part {
	char *topic;
	int32_t partition; /* -1: the topic could not be described (kafka-consumer-groups' "Not Provided") */
	int64_t committed; /* the offset backed up, LT_OFFSET_NONE if the partition had no commit */
	int kerr;          /* Kafka's error code for this partition, 0 when deleted */
} lt_delete_part;

typedef struct lt_delete_result {
	lt_delete_status status;
	int group_kerr;     /* Kafka's group-level error code, 0 if none (a guard refusal sets NON_EMPTY_GROUP,
			       what the broker would answer); -1 when there is no broker answer (see message) */
	char *message;      /* why it was refused or failed, possibly several lines; NULL when all went well */
	char *backup_path;  /* the backup written before deleting, NULL if none */
	size_t n_backed_up; /* committed offsets in that backup */
	size_t n_parts;     /* delete-offsets: the partitions asked; a group: its committed partitions (once read);
			       sorted as kafka-consumer-groups sorts them */
	lt_delete_part *parts;
	char *audit_error; /* the audit line could not be written (reported, not fatal) */
} lt_delete_result;

/* Deletes group (DeleteGroups) after the guard and the backup of all its committed offsets. */
lt_delete_status delete_exec_group(lt_reset_conn *c, const char *group, bool dry_run, lt_delete_result *res);

/* Deletes rq->group's committed offsets on rq's scopes (--topic T or T:P,...; a topic without partitions
 * means all of its partitions, from the metadata) after the guard and a backup. */
lt_delete_status delete_exec_offsets(lt_reset_conn *c, const lt_reset_request *rq, bool dry_run, lt_delete_result *res);

void delete_result_free(lt_delete_result *res);
/* Marks res (zeroed, or partly filled) failed with no broker answer behind it (group_kerr -1): the
 * connection, a request or the backup failed. Takes message. */
void delete_result_set_failed(lt_delete_result *res, char *message);

/* Kafka error codes the delete paths name (librdkafka's codes are Kafka's). */
enum {
	LT_KERR_UNKNOWN_TOPIC_OR_PARTITION = 3,
	LT_KERR_INVALID_GROUP_ID = 24,
	LT_KERR_TOPIC_AUTHORIZATION_FAILED = 29,
	LT_KERR_GROUP_AUTHORIZATION_FAILED = 30,
	LT_KERR_NON_EMPTY_GROUP = 68,
	LT_KERR_GROUP_ID_NOT_FOUND = 69,
	LT_KERR_GROUP_SUBSCRIBED_TO_TOPIC = 86,
};

/* librdkafka's text for a Kafka error code (for messages). */
const char *delete_kerr_text(int kerr);
/* Its name ("COORDINATOR_NOT_AVAILABLE"), as Java's Errors enum spells it. */
const char *delete_kerr_name(int kerr);

#endif
