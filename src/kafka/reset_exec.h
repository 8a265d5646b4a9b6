/* reset_exec.h — the guarded reset executor: reads what the planner needs from the cluster, and commits
 * a plan with the guard re-checked, a backup written first, the result read back and an audit line.
 *
 * Every function blocks (bounded by the connection's timeout) and touches no global state, so the dashboard
 * can run them on a worker thread and the command line in main's thread. One lt_reset_conn must not be used
 * by two threads at once; separate connections are independent.
 *
 * Flow (the command line and the dashboard both call these, and nothing else):
 *   c = reset_conn_new(&conn, timeout_ms, err)            librdkafka handle
 *   reset_exec_preview(c, &rq, &pv)                      gather (state, members, commits, metadata, log
 *                                                        offsets, offsets for the request's time), guard
 *                                                        (refuse early), plan (pure, src/reset)
 *   reset_exec_commit(c, pv.plan, target_desc, &res)     lock, guard again, backup, audit intent, commit,
 *                                                        read back (settling an unanswered commit),
 *                                                        audit result
 *   reset_result_free(&res); reset_preview_free(&pv); reset_conn_free(c)
 */
#ifndef LAGTOP_KAFKA_RESET_EXEC_H
#define LAGTOP_KAFKA_RESET_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/connection.h"
#include "reset/plan.h"

typedef struct lt_reset_conn lt_reset_conn;

/* A handle on the cluster conn describes (its name goes into the audit log); every cluster request waits
 * at most timeout_ms (<= 0: 10 s). conn is needed only during the call. */
lt_reset_conn *reset_conn_new(const struct lt_connection *conn, int timeout_ms, char *err, size_t errlen);
void reset_conn_free(lt_reset_conn *c);

/* Fills `in` (initialised by the caller) for the request: the group's state and members (a failure to read
 * them is recorded in in->state_error, so the guard fails closed), its committed offsets, metadata of the
 * request's topics, log start/end of their partitions, and for --to-datetime/--by-duration the offsets for
 * rq->timestamp_ms. Returns -1 with err when the cluster cannot answer (exit 1). */
int reset_exec_gather(lt_reset_conn *c, const lt_reset_request *rq, lt_reset_input *in, char *err, size_t errlen);

/* What a preview came to: a plan, the guard's refusal, or an error. */
typedef enum {
	LT_PREVIEW_PLANNED = 0, /* plan is set: the guard lets it through */
	LT_PREVIEW_REFUSED,     /* the guard refused (message: kafka-consumer-groups' sentence and the members);
				   nothing was planned */
	LT_PREVIEW_NO_ANSWER,   /* the cluster did not answer what the planner needs (message) */
	LT_PREVIEW_NOT_PLANNED, /* the planner could not plan (message; cluster_fault: the cluster's answer is
				   why, e.g. a partition without a leader, rather than the request) */
} lt_preview_status;

typedef struct lt_reset_preview {
	lt_preview_status status;
	lt_reset_plan *plan;  /* PLANNED: owned by the preview until taken (set it NULL) */
	char *message;        /* otherwise: why, possibly several lines */
	bool cluster_fault;   /* the cluster, not the request, is why there is no plan: exit status 1, not 2 */
	lt_group_state state; /* the group's state as read (LT_GROUP_UNKNOWN if it could not be) */
} lt_reset_preview;

/* The preview of rq: gather, guard, plan, in that order. Always fills out; returns its status. */
lt_preview_status reset_exec_preview(lt_reset_conn *c, const lt_reset_request *rq, lt_reset_preview *out);
void reset_preview_free(lt_reset_preview *p);

/* Reads only the state, type and members of group into `in` (initialised by the caller): DescribeGroups,
 * plus ListGroups (one request per broker) when the describe answers Dead with nothing, combined by
 * group_view_combine (model/group_view.h) exactly as the collector does. */
void reset_exec_read_state(lt_reset_conn *c, const char *group, lt_reset_input *in);

typedef enum {
	LT_EXEC_EXECUTED = 0, /* committed, and every partition reads back as planned */
	LT_EXEC_REFUSED,      /* the guard (state re-read) or the broker (a member joined) refused */
	LT_EXEC_FAILED,       /* cluster or local I/O error (e.g. the backup could not be written) */
	LT_EXEC_MISMATCH,     /* committed, but some partition does not read back as planned (also: the commit's
				 answer did not arrive and the read-back shows it partly applied) */
	LT_EXEC_UNKNOWN,      /* the commit's answer did not arrive and the offsets could not be read back
				 either: whether it was applied is unknown (answer_missing) */
} lt_exec_status;

typedef struct lt_reset_part_result {
	char *topic;
	int32_t partition;
	int64_t planned;
	int64_t before; /* committed offset backed up before the commit, LT_OFFSET_NONE if none */
	int64_t after;  /* committed offset read back, LT_OFFSET_NONE if none / unread */
	char *error;    /* the broker's error for this partition, NULL if none */
	bool refused;   /* the error means "the group is not empty" (UNKNOWN_MEMBER_ID, ...) */
	bool matches;   /* after == planned */
} lt_reset_part_result;

typedef struct lt_reset_result {
	lt_exec_status status;
	char *message;       /* what happened, possibly several lines (guard text, error) */
	char *backup_path;   /* NULL if no backup was written */
	bool committed;      /* the commit was applied at least in part (from the broker's answer, or, when
				that did not arrive, from the offsets read back) */
	bool answer_missing; /* the commit (or an undo's delete) got no answer: its outcome was unknown and was
				settled by reading the offsets back (status UNKNOWN when that failed too) */
	bool readback_ok;    /* the offsets were read back (after is meaningful) */
	size_t n_parts;
	lt_reset_part_result *parts;
	char *audit_error; /* the audit line could not be written (reported, not fatal) */
} lt_reset_result;

/* Commits plan for plan->group: takes the group's lock (reset_conn_lock; refused when another process
 * holds it), re-reads the state (guard), reads the current committed offsets and writes them as a backup
 * (refuses to go on if that fails), appends the audit line "intent" (nothing is committed if it cannot be
 * written), commits with AlterConsumerGroupOffsets, reads the offsets back (with retries when the commit
 * got no answer: they settle its outcome), and appends the audit line with the result. target_desc
 * ("to-earliest", "to-datetime 2026-...") goes into the audit log. Always fills res; returns its status. */
lt_exec_status reset_exec_commit(lt_reset_conn *c, const lt_reset_plan *plan, const char *target_desc,
				 lt_reset_result *res);
void reset_result_free(lt_reset_result *res);

/* Appends one audit line (time, user, host, cluster, group, target, partitions, result, backup, and the
 * reason when reason is not NULL) for a reset decided outside reset_exec_commit (e.g. refused at the
 * preview under --execute). plan, backup_path and reason may be NULL. Returns NULL, or an allocated error
 * message if the line could not be written. */
char *reset_exec_audit(lt_reset_conn *c, const char *group, const lt_reset_plan *plan, const char *target_desc,
		       const char *result_word, const char *backup_path, const char *reason);

/* The lock of group on this connection's cluster (reset_lock_group, reset_store.h), held by c until
 * reset_conn_unlock or reset_conn_free. 0 (also when c holds it already), 1 when another process holds it
 * (err names its pid), -1 with err. reset_exec_commit and the deletes take it themselves when c does not
 * hold it; a caller takes it first to keep a preview and its commit together. */
int reset_conn_lock(lt_reset_conn *c, const char *group, char *err, size_t errlen);
void reset_conn_unlock(lt_reset_conn *c);

/* Which backup --undo applies: the one the group's newest change on this cluster wrote (its audit line
 * "intent" names it), so an undo never applies a backup older than the newest reset. */
typedef struct lt_undo_choice {
	char path[4096];     /* the backup to apply */
	char taken[40];      /* when it was taken ("" if its name has no stamp) */
	char *undone_target; /* the target of the change it undoes ("to-earliest", "undo <path>"), NULL if no
				change of the group is on record (then path is the newest backup) */
	char *undone_when;   /* when that change was made */
	bool undoes_undo;    /* the change it undoes was itself an undo: applying it re-applies what that undo
				reverted */
} lt_undo_choice;

/* Chooses the backup --undo applies for group on c's cluster (explicit: --backup FILE, applied as named).
 * 0; 1 when there is no backup (err says so); 2 when the newest change's backup is missing or it left none,
 * so only an older backup could be applied: refused unless named with --backup (err says so); -1 on error. */
int reset_exec_undo_choose(lt_reset_conn *c, const char *group, const char *explicit_path, lt_undo_choice *out,
			   char *err, size_t errlen);
void reset_undo_choice_free(lt_undo_choice *u);

/* Current wall clock in ms (the executor is the one place of the reset path allowed to read clocks). */
int64_t reset_now_ms(void);

#endif
