/* reset_ui.c — the reset dialog inside the dashboard loop: opens it on the selection, runs its actions on
 * the worker thread (reset_worker.h) and hands the answers back. The UI thread never talks to the
 * cluster here: it starts a job, keeps answering keys and drawing "working…", and picks the answer up when
 * the worker's pipe becomes readable in poll(). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_file.h"
#include "kafka/reset_store.h"
#include "ui/reset_dialog.h"
#include "ui/reset_worker.h"
#include "ui/ui.h"
#include "util/xalloc.h"
#include "util/timeutil.h"

static void dialog_close(struct ui *u)
{
	if (u->rw_job) {
		/* a preview still running: its answer is dropped when it arrives */
		u->rw_job->discard = true;
		u->rw_job = NULL;
	}
	rd_free(u->reset);
	u->reset = NULL;
	if (u->popup == UI_POPUP_RESET)
		u->popup = UI_POPUP_NONE;
	u->dirty |= UI_DIRTY_DRAW;
}

/* Starts the job the dialog asked for; on failure the dialog shows why. */
static void start_job(struct ui *u, enum rw_kind kind)
{
	struct ui_reset *rd = u->reset;
	struct tui_reset_conf rc;
	char err[512];
	if (!u->clusters || !u->clusters->reset_conf || u->clusters->reset_conf(u->clusters->ctx, &rc) != 0) {
		rd_preview_done(rd, false, NULL, xstrdup("resets are not available for this data source"), NULL);
		return;
	}
	if (!u->rw && !(u->rw = rw_new(err, sizeof err))) {
		rd_preview_done(rd, false, NULL, xstrdup(err), NULL);
		return;
	}
	struct rw_job *j = rw_job_new(kind, rc.conn, rc.timeout_ms);
	j->group = xstrdup(rd->group);
	if (rd->del) {
		j->del = true;
		j->del_scopes = rd_delete_scopes(rd, &j->n_del_scopes);
	} else if (kind == RW_PREVIEW) {
		j->undo = rd->undo;
		if (rd->has_rq) {
			j->rq = rd->rq; /* moves to the job */
			memset(&rd->rq, 0, sizeof rd->rq);
			rd->has_rq = false;
		}
	} else {
		j->plan = rd->plan;
		j->target_desc = rd->target_desc ? rd->target_desc : "-";
	}
	if (rw_start(u->rw, j, err, sizeof err) != 0) {
		rw_job_free(j);
		if (rd->del) {
			lt_delete_result dr;
			memset(&dr, 0, sizeof dr);
			delete_result_set_failed(&dr, xstrdup(err));
			if (kind == RW_PREVIEW)
				rd_delete_preview_done(rd, &dr);
			else
				rd_delete_done(rd, &dr);
		} else if (kind == RW_PREVIEW) {
			rd_preview_done(rd, false, NULL, xstrdup(err), NULL);
		} else {
			lt_reset_result res;
			memset(&res, 0, sizeof res);
			res.status = LT_EXEC_FAILED;
			res.message = xstrdup(err);
			rd_commit_done(rd, &res);
		}
		return;
	}
	u->rw_job = j;
}

static void run_action(struct ui *u, enum rd_action a)
{
	switch (a) {
	case RD_ACT_CLOSE: dialog_close(u); return;
	case RD_ACT_PREVIEW: start_job(u, RW_PREVIEW); break;
	case RD_ACT_COMMIT: start_job(u, RW_COMMIT); break;
	case RD_ACT_NONE: break;
	}
	u->dirty |= UI_DIRTY_DRAW;
}

/* The group a dialog acts on (the group under the cursor, or the open one), and with with_partition the
 * partition under the cursor in the partitions pane (topic NULL otherwise); in a topic's groups pane, the
 * group under the cursor on that topic (part -1). False, with a message, when nothing is selected. */
static bool dialog_target(struct ui *u, bool with_partition, const char **group, const char **topic, int32_t *part)
{
	*group = NULL;
	*topic = NULL;
	*part = -1;
	if (u->focus == UI_PANE_TOPICS) {
		ui_set_message(u, "select a group first: Enter shows the groups reading the topic");
		return false;
	}
	if (u->focus == UI_PANE_TOPIC_GROUPS) {
		if (u->tgroups.cursor < u->tgroups.n_rows) {
			const lt_row *r = &u->tgroups.rows[u->tgroups.cursor];
			*group = r->group->group;
			if (with_partition)
				*topic = r->topic->topic;
		}
	} else if (u->focus == UI_PANE_GROUPS) {
		if (u->groups.cursor < u->groups.n_rows)
			*group = u->groups.rows[u->groups.cursor].group->group;
	} else {
		*group = u->open_group;
		if (with_partition && u->focus == UI_PANE_PARTS && u->parts.cursor < u->parts.n_rows) {
			*topic = u->parts.rows[u->parts.cursor].part->topic;
			*part = u->parts.rows[u->parts.cursor].part->partition;
		}
	}
	if (!*group)
		ui_set_message(u, "no group selected");
	return *group != NULL;
}

/* In the partitions pane, the open group's marks narrow the dialog to them (whatever the cursor is on). */
static void dialog_marks(struct ui *u, struct ui_reset *rd)
{
	const lt_markset *m = ui_open_marks(u);
	if (!m || u->focus != UI_PANE_PARTS)
		return;
	size_t n;
	char **scopes = markset_scopes(m, &n);
	rd_set_marked(rd, (const char *const *)scopes, n, m->n);
	for (size_t i = 0; i < n; i++)
		free(scopes[i]);
	free(scopes);
}

void ui_reset_open(struct ui *u, bool undo)
{
	if (u->read_only) { /* the key table hides R/U in read-only mode; this is the second lock */
		ui_set_message(u, "read-only: offset resets are disabled");
		return;
	}
	if (rw_busy(u->rw)) {
		ui_set_message(u, "the previous reset request is still running; try again in a moment");
		return;
	}
	/* in the partitions pane R resets the partition under the cursor (U always restores the backup) */
	const char *group, *topic;
	int32_t part;
	if (!dialog_target(u, !undo, &group, &topic, &part))
		return;
	int64_t threshold = LT_DEFAULT_RESET_CONFIRM;
	struct tui_reset_conf rc;
	if (u->clusters && u->clusters->reset_conf && u->clusters->reset_conf(u->clusters->ctx, &rc) == 0)
		threshold = rc.confirm_threshold;
	u->reset = rd_new(group, topic, part, undo, threshold);
	char dir[4096], err[512]; /* shown in the preview: where the backup and the audit line will go */
	if (reset_store_dir(dir, sizeof dir, 0, err, sizeof err) == 0) {
		u->reset->backup_dir = xasprintf("%s/backups/", dir);
		u->reset->audit_path = xasprintf("%s/audit.log", dir);
	}
	if (!undo)
		dialog_marks(u, u->reset);
	u->popup = UI_POPUP_RESET;
	u->popup_top = 0;
	u->dirty |= UI_DIRTY_DRAW;
	if (undo)
		run_action(u, RD_ACT_PREVIEW);
}

void ui_delete_open(struct ui *u)
{
	if (u->read_only) { /* the key table hides D in read-only mode; this is the second lock */
		ui_set_message(u, "read-only: deletes are disabled");
		return;
	}
	if (rw_busy(u->rw)) {
		ui_set_message(u, "the previous reset or delete request is still running; try again in a moment");
		return;
	}
	/* in the partitions pane D deletes the committed offset of the partition under the cursor */
	const char *group, *topic;
	int32_t part;
	if (!dialog_target(u, true, &group, &topic, &part))
		return;
	char dir[4096], err[512];
	bool have_dir = reset_store_dir(dir, sizeof dir, 0, err, sizeof err) == 0;
	if (have_dir)
		strncat(dir, "/backups/", sizeof dir - strlen(dir) - 1);
	u->reset = rd_new_delete(group, topic, part, have_dir ? dir : NULL);
	dialog_marks(u, u->reset);
	u->popup = UI_POPUP_RESET;
	u->popup_top = 0;
	u->dirty |= UI_DIRTY_DRAW;
	run_action(u, RD_ACT_PREVIEW);
}

void ui_reset_key(struct ui *u, int ch)
{
	if (!u->reset)
		return;
	run_action(u, rd_key(u->reset, ch, now_wall_ms()));
	u->dirty |= UI_DIRTY_DRAW;
}

int ui_reset_fd(const struct ui *u)
{
	return rw_busy(u->rw) ? rw_fd(u->rw) : -1;
}

void ui_reset_wake(struct ui *u)
{
	struct rw_job *j = rw_collect(u->rw);
	if (!j)
		return;
	if (j == u->rw_job && !j->discard && u->reset) {
		u->rw_job = NULL;
		if (j->del && j->kind == RW_PREVIEW) {
			rd_delete_preview_done(u->reset, &j->dres);
		} else if (j->del) {
			rd_delete_done(u->reset, &j->dres);
			u->src->ops->refresh_now(u->src); /* show the group or offset gone soon */
		} else if (j->kind == RW_PREVIEW) {
			rd_preview_done(u->reset, j->refused, j->plan_out, j->msg, j->desc_out);
			j->plan_out = NULL;
			j->msg = j->desc_out = NULL;
		} else {
			rd_commit_done(u->reset, &j->res);
			u->src->ops->refresh_now(u->src); /* show the new offsets soon */
		}
		u->dirty |= UI_DIRTY_DRAW;
	}
	rw_job_free(j);
}

void ui_reset_free(struct ui *u)
{
	rw_free(u->rw); /* joins a running job first: the commit borrows the dialog's plan */
	u->rw = NULL;
	u->rw_job = NULL;
	rd_free(u->reset);
	u->reset = NULL;
}
