/* reset_dialog.h — the dashboard's reset dialog (R, U) as a state machine: keys in, actions out, text lines
 * to draw. No curses calls, no threads, no cluster: the loop (reset_ui.c) runs the actions on the worker
 * (reset_worker.h) and hands the answers back, and tests/unit/test_ui_reset drives it directly.
 *
 *   R:  TARGET --Enter (value valid)--> WORKING --preview--> PREVIEW --Yes (+ group name)--> WORKING --> RESULT
 *                                                     \--> REFUSED (guard: state, members) / ERROR
 *   U:  WORKING (the newest backup as a --from-file request) --> PREVIEW ... as above
 *   D:  WORKING (the guard and the offsets that would go, nothing written) --> PREVIEW (the group name is
 *       always typed) --> WORKING (guard again, backup, delete) --> RESULT; a group on the groups pane, the
 *       partition's committed offset on the partitions pane
 * Esc closes the dialog at every step, except while a commit runs (it cannot be taken back halfway).
 * The confirm button starts on No; a plan moving more than `threshold` messages (replayed + skipped; 0:
 * always) also needs the group name typed exactly.
 */
#ifndef LAGTOP_UI_RESET_DIALOG_H
#define LAGTOP_UI_RESET_DIALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kafka/delete_exec.h"
#include "kafka/reset_exec.h"
#include "reset/plan.h"

enum rd_step {
	RD_TARGET = 1, /* choose the target, type its value */
	RD_WORKING,    /* the worker gathers (preview) or commits */
	RD_PREVIEW,    /* the plan, the buttons, maybe the group name */
	RD_REFUSED,    /* the guard said no: state and members */
	RD_ERROR,      /* the cluster could not answer, or no plan */
	RD_RESULT,     /* what the commit did */
};

enum rd_action {
	RD_ACT_NONE = 0,
	RD_ACT_CLOSE,   /* the dialog is done: free it (a running preview is abandoned) */
	RD_ACT_PREVIEW, /* start the preview job: rd->rq (R) or rd->group's newest backup (U) */
	RD_ACT_COMMIT,  /* start the commit of rd->plan */
};

/* Keys, as the loop passes them (curses codes for the special ones; see reset_dialog.c). */
struct rd_target_def {
	lt_reset_target target;
	const char *label;   /* "to-offset N" */
	const char *example; /* value example, NULL: the target takes no value */
};
const struct rd_target_def *rd_target_at(size_t i); /* NULL past the end */

struct ui_reset {
	enum rd_step step;
	bool undo;
	char *group;
	char *scope_topic;  /* NULL: every topic the group has offsets on */
	int32_t scope_part; /* -1: the whole topic */
	/* marked partitions (rd_set_marked): --topic arguments "T:P,P,...", one per topic; they replace the
	 * scope above. n_marked: how many partitions they name. */
	char **marked;
	size_t n_marked_scopes, n_marked;
	int64_t threshold;

	size_t target; /* index in the target table */
	char value[128];
	char err[512]; /* one line shown under the input or the buttons */

	bool committing;     /* RD_WORKING for the commit (Esc is refused) */
	lt_reset_request rq; /* the validated request, valid while has_rq */
	bool has_rq;
	char *target_desc; /* "to-earliest", "shift-by -5", "undo <backup>" (audit log) */

	/* preview */
	lt_reset_plan *plan;
	char *msg; /* REFUSED/ERROR: the message (several lines) */
	bool yes;  /* the selected button */
	bool need_name;
	char name[256];

	/* result */
	lt_reset_result res;
	bool has_res;

	/* D: a delete (scope_topic NULL: the whole group); its preview (dry run) and then its result */
	bool del;
	lt_delete_result dres;
	bool has_dres;
	char *backup_dir; /* where the backup goes, shown in the preview */
	char *audit_path; /* the audit log a commit writes to, shown beside it (NULL: not known) */

	int top; /* scroll of the body */
};

/* A new dialog for group. scope_topic NULL: all topics; scope_part -1: the whole topic. For undo the
 * dialog starts in RD_WORKING and the caller starts the preview job at once. */
struct ui_reset *rd_new(const char *group, const char *scope_topic, int32_t scope_part, bool undo, int64_t threshold);
void rd_free(struct ui_reset *rd);
/* Narrows a new R or D dialog to marked partitions: scopes are --topic arguments ("orders:1,3"), copied;
 * n_parts is how many partitions they name (the preview says "N marked partitions"). */
void rd_set_marked(struct ui_reset *rd, const char *const *scopes, size_t n_scopes, size_t n_parts);
/* The scope as --topic arguments for a delete (NULL-terminated, malloc'd; free each and the array):
 * the marks, or "T:P" / "T"; NULL for the whole group. */
char **rd_delete_scopes(const struct ui_reset *rd, size_t *n);

/* A delete dialog (D): the whole group (scope_topic NULL) or one partition's committed offset. It starts in
 * RD_WORKING and the caller starts the preview job at once. backup_dir: shown in the preview (may be NULL). */
struct ui_reset *rd_new_delete(const char *group, const char *scope_topic, int32_t scope_part, const char *backup_dir);
/* The delete jobs' answers (ownership of res moves to the dialog): the preview (a dry run: PREVIEW, REFUSED
 * with the guard's message, or ERROR) and the delete itself (RESULT). */
void rd_delete_preview_done(struct ui_reset *rd, lt_delete_result *res);
void rd_delete_done(struct ui_reset *rd, lt_delete_result *res);

/* One key. now_ms (wall clock) resolves relative datetimes and durations. */
enum rd_action rd_key(struct ui_reset *rd, int ch, int64_t now_ms);

/* The dialog's key table, in the shape of the dashboard's (keys.h): codes, name, help line, the steps the key
 * works in (RD_IN bits; one code may have entries for disjoint steps: Enter previews, commits or closes) and
 * the action. rd_key looks the key up for the current step; a key no entry takes is typed into the line the
 * step edits (the target's value, the group name). The help and the man page check walk it. */
#define RD_IN(step) (1u << (step))
struct rd_key_def {
	int codes[3];     /* curses key codes, 0-terminated */
	const char *name; /* as in the help and the man page: "Enter", "PgDn" */
	const char *help; /* one line; consecutive entries with the same text share a help line */
	unsigned steps;   /* RD_IN(RD_TARGET) | ... */
	enum rd_action (*action)(struct ui_reset *rd, int64_t now_ms);
};
const struct rd_key_def *rd_keys_at(size_t i); /* NULL past the end */
/* The table's heading in the help screen and in lagtop(1)'s KEYS section. */
#define RD_KEYS_HEADING "Reset and delete dialog"

/* The preview job's answer. The dialog takes ownership of plan, msg and desc (any may be NULL):
 * refused → REFUSED with msg; plan NULL → ERROR with msg; otherwise PREVIEW. */
void rd_preview_done(struct ui_reset *rd, bool refused, lt_reset_plan *plan, char *msg, char *desc);
/* The commit job's answer (ownership of res moves to the dialog). */
void rd_commit_done(struct ui_reset *rd, lt_reset_result *res);

/* What to draw: a title, the scrolling body and the fixed footer. Lines are malloc'd, untrusted text in
 * them is not yet escaped (the screen escapes every line). Prose (messages, the guard's refusal and its
 * members, warnings, paths) is word-wrapped so that its escaped form fits in `width` cells (<= 0: no
 * wrapping), measured as the screen measures (utf8: the terminal's mode); table rows and the buttons
 * are kept whole. hl: index of the highlighted line in the body (the selected target), -1 if none.
 * Free with rd_view_free. */
struct rd_view {
	int width;
	bool utf8;
	char *title;
	char **body;
	size_t n_body;
	int hl;
	char **foot;
	size_t n_foot;
	int foot_hl;          /* footer line with the buttons, -1 if none */
	int btn_col, btn_len; /* the selected button inside foot[foot_hl] (bytes) */
	int foot_err;         /* the footer lines from this one on are the error (rd->err, wrapped), -1 if none */
};
void rd_view_build(const struct ui_reset *rd, int width, bool utf8, struct rd_view *v);
void rd_view_free(struct rd_view *v);

#endif
