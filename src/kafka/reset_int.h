/* reset_int.h — the reset executor's connection and helpers, shared with the delete executor
 * (delete_exec.c) so both read states, committed offsets and the audit log the same way. Private to
 * src/kafka: nothing outside it includes this header. */
#ifndef LAGTOP_KAFKA_RESET_INT_H
#define LAGTOP_KAFKA_RESET_INT_H

#include <librdkafka/rdkafka.h>

#include "kafka/client.h"
#include "kafka/reset_exec.h"

struct lt_reset_conn {
	lt_client *cl;
	rd_kafka_t *rk; /* owned by cl */
	int timeout_ms;
	char *cluster;
	int lock_fd;      /* the group lock c holds (reset_conn_lock), -1 if none */
	char *lock_group; /* its group */
};

/* Takes the group's lock for one operation unless c holds it already: 0 (*taken says whether this call took
 * it, to be given back with reset_lock_release), or non-zero with err (1: held by another process). */
int reset_lock_for(lt_reset_conn *c, const char *group, bool *taken, char *err, size_t errlen);
void reset_lock_release(lt_reset_conn *c, bool taken);

/* Reads the committed offsets of parts, retrying (a few times, each bounded by the connection's timeout)
 * when no answer comes: after a commit whose answer did not arrive, this read settles its outcome. */
int reset_read_committed_retry(lt_reset_conn *c, const char *group, const rd_kafka_topic_partition_list_t *parts,
			       void (*cb)(void *, const char *, int32_t, int64_t), void *arg, void (*reset_cb)(void *),
			       char *err, size_t errlen);

/* Admin options with the hour-long request timeout (see COLD_TIMEOUT_MS in reset_exec.c): the caller
 * stops waiting at its own deadline (reset_wait_result). */
rd_kafka_AdminOptions_t *reset_admin_options(lt_reset_conn *c, rd_kafka_admin_op_t op);

/* Waits for the admin result of `type` on q, at most the connection's timeout. NULL with err on timeout
 * or a request-level error. */
rd_kafka_event_t *reset_wait_result(lt_reset_conn *c, rd_kafka_queue_t *q, rd_kafka_event_type_t type, const char *what,
				    char *err, size_t errlen);
/* The same, but an event carrying an error is returned too, its code in *event_err (err says it): librdkafka
 * 2.0.2 reports a group-level OffsetDelete error (GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP) that way. */
rd_kafka_event_t *reset_wait_result_err(lt_reset_conn *c, rd_kafka_queue_t *q, rd_kafka_event_type_t type,
					const char *what, rd_kafka_resp_err_t *event_err, char *err, size_t errlen);

/* The group's committed offsets (every partition when parts is NULL); cb is called for each committed one. */
/* A reset_read_committed callback: the offset into the lt_reset_input's part (arg is the input). */
void reset_committed_into_input(void *arg, const char *topic, int32_t partition, int64_t offset);
int reset_read_committed(lt_reset_conn *c, const char *group, const rd_kafka_topic_partition_list_t *parts,
			 void (*cb)(void *, const char *, int32_t, int64_t), void *arg, char *err, size_t errlen);

/* The backup step of a reset and of a delete: reads group's committed offsets on parts (every partition
 * when NULL) into cur (rows the caller put in cur beforehand and the broker has no commit for stay rows
 * without a commit) and, when cur holds any row, writes them to the reset store (path; "" when nothing was
 * written). On failure err says "..., nothing was <verb>" (no backup, no change) and the result tells which
 * step failed: -1 reading (cur is not to be used), -2 writing (cur holds what was read). */
int reset_backup_committed(lt_reset_conn *c, const char *group, const rd_kafka_topic_partition_list_t *parts,
			   lt_reset_input *cur, const char *verb, char *path, size_t pathlen, char *err, size_t errlen);

/* DeleteConsumerGroupOffsets (OffsetDelete) of parts, sent and waited for: the result event, or NULL with
 * err. An event carrying an error comes back too, its code in *event_err (librdkafka 2.0.2 reports a
 * group-level error such as GROUP_ID_NOT_FOUND or NON_EMPTY_GROUP that way). */
rd_kafka_event_t *reset_offset_delete(lt_reset_conn *c, const char *group, const rd_kafka_topic_partition_list_t *parts,
				      const char *what, rd_kafka_resp_err_t *event_err, char *err, size_t errlen);

/* One audit line; counts is pre-formatted ("partitions=3 replayed=0 skipped=0"); reason (NULL: none) says why
 * a result is what it is. NULL or an allocated error. */
char *reset_audit_line(lt_reset_conn *c, const char *group, const char *counts, const char *target_desc,
		       const char *result_word, const char *backup_path, const char *reason);

#endif
