/* plan.h — offset reset planning, pure C (no I/O, no clocks): kafka-consumer-groups' semantics
 * (its GroupOffsetsResetter: same numbers, same messages; see "Resets" in doc/ARCHITECTURE.md).
 *
 * Three plain structs:
 *   lt_reset_request — what the operator asked: group, target (+ argument), scope, CSV rows for --from-file.
 *   lt_reset_input   — what the cluster said: group state and members, and per partition whether it exists,
 *                      has a leader, its committed offset, log start/end and the offset-for-timestamp result.
 *                      Filled by src/kafka/reset_exec.c (or by tests, or by the UI from a snapshot).
 *   lt_reset_plan    — the answer: per partition previous/new offset, delta, notes; totals; warnings.
 *
 * Typical use:
 *   reset_request_init(&rq, group, target, arg, now_ms, err, len)   parse the target argument
 *   reset_request_add_topic(&rq, "t:0,1", err, len)  /  rq.all_topics = true / reset_request_load_csv(...)
 *   names = reset_request_topics(&rq, &in, &n)       topics whose metadata/offsets the executor must fetch
 *   ... the executor fills `in` (reset_input_part(), reset_input_topic()) ...
 *   plan = reset_plan_build(&rq, &in, err, len)      NULL + err on "do not exist", "no leader", "cannot shift"
 *   reset_guard(&in, msg, len)                        separately: may the plan be committed?
 */
#ifndef LAGTOP_RESET_PLAN_H
#define LAGTOP_RESET_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

typedef enum {
	LT_RESET_NONE = 0,
	LT_RESET_EARLIEST,
	LT_RESET_LATEST,
	LT_RESET_CURRENT,
	LT_RESET_OFFSET,   /* offset: N, clamped */
	LT_RESET_SHIFT,    /* offset: ±N from the committed offset, clamped */
	LT_RESET_DATETIME, /* timestamp_ms */
	LT_RESET_DURATION, /* timestamp_ms = now − duration */
	LT_RESET_FILE,     /* rows from the CSV */
} lt_reset_target;

typedef struct lt_reset_scope {
	char *topic;
	size_t n_parts; /* 0: every partition of the topic */
	int32_t *parts;
} lt_reset_scope;

typedef struct lt_reset_csv_row {
	char *group; /* NULL in the 3-column form */
	char *topic;
	int32_t partition;
	int64_t offset; /* LT_OFFSET_NONE: "no commit" (a backup's empty offset; --undo only) */
	size_t line;    /* 1-based line in the file, for messages */
} lt_reset_csv_row;

typedef struct lt_reset_request {
	char *group;
	lt_reset_target target;
	char *target_text;    /* the argument as given ("PT6H", "2026-...", "-5", file path), for messages/audit */
	int64_t offset;       /* OFFSET: N; SHIFT: ±N */
	int64_t timestamp_ms; /* DATETIME / DURATION, resolved */
	bool all_topics;
	size_t n_scopes;
	lt_reset_scope *scopes;
	size_t n_rows; /* FILE: this group's rows */
	lt_reset_csv_row *rows;
	bool from_backup; /* FILE read from a lagtop backup (--undo): an empty offset means "no commit",
			     restored by deleting the partition's committed offset */
} lt_reset_request;

/* Parses the target argument (offset, shift, datetime, duration; for FILE it only records the path — load
 * the content with reset_request_load_csv). 0 or -1 with a one-line err (usage error). */
int reset_request_init(lt_reset_request *rq, const char *group, lt_reset_target target, const char *arg, int64_t now_ms,
		       char *err, size_t errlen);
/* --topic T or --topic T:P,P,... (kafka-consumer-groups' parsing and messages). */
int reset_request_add_topic(lt_reset_request *rq, const char *arg, char *err, size_t errlen);
/* Parses the CSV text of --from-file and keeps this group's rows (see csv.h for the rules; with
 * rq->from_backup set first, an empty offset is accepted as "no commit"). */
int reset_request_load_csv(lt_reset_request *rq, const char *text, char *err, size_t errlen);
void reset_request_free(lt_reset_request *rq);

/* ---- what the cluster said ---- */

typedef struct lt_reset_member {
	char *member_id;
	char *client_id;
	char *host;
} lt_reset_member;

typedef struct lt_reset_part {
	char *topic;
	int32_t partition;
	bool exists; /* listed in the topic metadata */
	bool has_leader;
	bool log_failed;   /* has a leader, but reading its log offsets failed or timed out */
	int64_t committed; /* LT_OFFSET_NONE: no commit */
	int64_t log_start; /* LT_OFFSET_NONE: unknown */
	int64_t log_end;   /* LT_OFFSET_NONE: unknown */
	int64_t ts_offset; /* offset for timestamp_ms: LT_OFFSET_NONE = no record at or after it;
			      LT_RESET_TS_UNKNOWN = not looked up / failed */
} lt_reset_part;

#define LT_RESET_TS_UNKNOWN ((int64_t)-1000)

typedef struct lt_reset_topic {
	char *name;
	bool exists;
} lt_reset_topic;

typedef struct lt_reset_input {
	lt_group_state state;    /* LT_GROUP_UNKNOWN when it could not be read: see state_error */
	lt_group_type type;      /* from group_view_combine (model/group_view.h) */
	bool group_exists;       /* false: the group has never been seen (treated like Dead) */
	bool members_unreadable; /* a consumer-protocol group seen through the classic API: members[] says nothing */
	char *state_error;       /* why the state could not be read (NULL if it could) */
	size_t n_members;
	lt_reset_member *members;
	size_t n_topics; /* topics whose metadata was asked for */
	lt_reset_topic *topics;
	size_t n_parts;
	lt_reset_part *parts; /* any order; reset_plan_build sorts its output */
} lt_reset_input;

void reset_input_init(lt_reset_input *in);
void reset_input_free(lt_reset_input *in);
/* Finds or adds a partition (new ones: exists/has_leader false, every offset unknown / none). */
lt_reset_part *reset_input_part(lt_reset_input *in, const char *topic, int32_t partition);
const lt_reset_part *reset_input_find(const lt_reset_input *in, const char *topic, int32_t partition);
void reset_input_topic(lt_reset_input *in, const char *name, bool exists);
void reset_input_member(lt_reset_input *in, const char *member_id, const char *client_id, const char *host);
void reset_input_set_error(lt_reset_input *in, const char *why);
/* Copies one group of a snapshot (state, members, committed/log offsets; leader known when log_end is). */
void reset_input_from_group(lt_reset_input *in, const lt_group *g);

/* Topics the executor needs metadata and offsets for: the --topic names; for --all-topics the topics with
 * a committed offset in `in`; for --from-file the file's topics. Sorted, unique; free with reset_strv_free. */
char **reset_request_topics(const lt_reset_request *rq, const lt_reset_input *in, size_t *n);
void reset_strv_free(char **v, size_t n);
/* Whether partition p is in the request's scope and needs its log offsets (the executor looks them up
 * only for those: a dead leader elsewhere on the topic must not block the reset; a --undo row that
 * deletes a commit needs none). */
bool reset_request_wants(const lt_reset_request *rq, const lt_reset_part *p);

/* ---- the plan ---- */

enum {
	LT_RESET_NOTE_CLAMP_HIGH = 1u << 0,  /* requested > log end: set to log end */
	LT_RESET_NOTE_CLAMP_LOW = 1u << 1,   /* requested < log start: set to log start */
	LT_RESET_NOTE_NO_COMMIT = 1u << 2,   /* --to-current without a commit: log end */
	LT_RESET_NOTE_TS_FALLBACK = 1u << 3, /* nothing at or after the time: log end */
	LT_RESET_NOTE_DELETE = 1u << 4,      /* --undo of a partition that had no commit: its commit is deleted */
};

typedef struct lt_reset_row {
	char *topic;
	int32_t partition;
	int64_t previous;   /* committed before the reset, LT_OFFSET_NONE if none */
	int64_t requested;  /* before clamping */
	int64_t new_offset; /* LT_OFFSET_NONE: delete the committed offset (LT_RESET_NOTE_DELETE) */
	bool has_delta;     /* false when there was no previous commit */
	int64_t delta;      /* new − previous: negative = messages replayed, positive = skipped */
	unsigned notes;     /* LT_RESET_NOTE_* */
	char *note;         /* short text for the NOTE column, NULL if none */
} lt_reset_row;

typedef struct lt_reset_plan {
	char *group;
	lt_reset_target target;
	int64_t timestamp_ms; /* to-datetime, by-duration: the absolute time the target resolved to; else -1 */
	size_t n_rows;
	lt_reset_row *rows; /* sorted by (topic, partition) */
	int64_t replayed;   /* sum of −delta over negative deltas */
	int64_t skipped;    /* sum of delta over positive deltas */
	size_t n_changed;   /* rows whose new offset differs from the previous commit (or had none) */
	size_t n_deletes;   /* rows that delete a committed offset (new_offset LT_OFFSET_NONE) */
	size_t n_warnings;
	char **warnings; /* kafka-consumer-groups' clamp/fallback messages, in row order */
} lt_reset_plan;

/* Builds the plan, or NULL with err (one line: missing partitions, no leader, no commit to shift, unknown
 * log offsets, "No reset plan for group g found."). Does not look at the group state: see reset_guard. */
lt_reset_plan *reset_plan_build(const lt_reset_request *rq, const lt_reset_input *in, char *err, size_t errlen);
/* As reset_plan_build; on failure *cluster_fault tells an error in the cluster's answer (a partition with no
 * leader, a log or timestamp offset the cluster did not give: exit status 1) from one in the request (a
 * topic or partition that does not exist, a shift without a commit, an empty file plan: exit status 2). */
lt_reset_plan *reset_plan_build_ex(const lt_reset_request *rq, const lt_reset_input *in, bool *cluster_fault, char *err,
				   size_t errlen);
void reset_plan_free(lt_reset_plan *p);
const lt_reset_row *reset_plan_find(const lt_reset_plan *p, const char *topic, int32_t partition);

/* ---- the guard ---- */

typedef enum {
	LT_GUARD_PROCEED = 0,
	LT_GUARD_REFUSE_ACTIVE,     /* state is Stable / rebalancing: members listed in msg */
	LT_GUARD_REFUSE_UNKNOWN,    /* state could not be read: fail closed */
	LT_GUARD_REFUSE_UNREADABLE, /* members cannot be read (consumer-protocol group) and the state is not Empty */
} lt_guard;

/* Empty, Dead or a group that does not exist: proceed. Otherwise refuse with kafka-consumer-groups' message
 * "Assignments can only be reset if the group 'g' is inactive, but the current state is Stable." followed
 * by one line per active member ("  member <client id> on <host>"). msg may hold several lines.
 * A group whose members cannot be read proceeds only when its state is known to be Empty: its members
 * cannot be listed, and Unknown may hide Assigning or Reconciling (librdkafka 2.0.2 cannot name them). */
lt_guard reset_guard(const char *group, const lt_reset_input *in, char *msg, size_t msglen);

/* The same decision for another action (--delete, --delete-offsets, the dashboard's D): the same verdict,
 * the refusal worded for what was refused ("Group 'g' can only be deleted if it is inactive, ..."). */
typedef enum {
	LT_GUARD_FOR_RESET = 0,
	LT_GUARD_FOR_DELETE,
	LT_GUARD_FOR_DELETE_OFFSETS,
} lt_guard_action;
lt_guard reset_guard_for(lt_guard_action act, const char *group, const lt_reset_input *in, char *msg, size_t msglen);

const char *reset_target_name(lt_reset_target t); /* "to-earliest", "shift-by", ... */

/* ---- settling an unanswered change by reading back ---- */

/* What the offsets read back after a commit or delete that got no answer say it did. Of the n_asked partitions
 * the change was to move, n_as_planned now read as planned and n_as_before still read as before; n_other
 * partitions read neither (someone else moved them). One rule for resets, undos and deletes. */
typedef enum {
	LT_SETTLED_APPLIED = 0,
	LT_SETTLED_NOT_APPLIED,
	LT_SETTLED_PARTLY,
} lt_settled;
lt_settled reset_settle(size_t n_asked, size_t n_as_planned, size_t n_as_before, size_t n_other);
const char *reset_settled_word(lt_settled s); /* the audit log's result: "applied", "not-applied", ... */

#endif
