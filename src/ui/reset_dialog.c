/* reset_dialog.c — the reset dialog's states, keys and text (see reset_dialog.h). Curses is included
 * only for its key codes. */
#include "config.h"

#include "ui/reset_dialog.h"

#include <curses.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reset/render.h"
#include "util/xalloc.h"

#define KEY_ESC 27

static const struct rd_target_def targets[] = {
	{ LT_RESET_EARLIEST, "to-earliest      the log start of each partition", NULL },
	{ LT_RESET_LATEST, "to-latest        the log end (skip everything pending)", NULL },
	{ LT_RESET_CURRENT, "to-current       the committed offset (no move)", NULL },
	{ LT_RESET_OFFSET, "to-offset N      offset N (clamped to the log)", "1000" },
	{ LT_RESET_SHIFT, "shift-by N       N messages forward, -N back", "-100" },
	{ LT_RESET_DATETIME, "to-datetime T    the first record at or after T", "2026-11-29T10:00:00.000Z or -6h" },
	{ LT_RESET_DURATION, "by-duration D    the first record D ago", "PT6H" },
};
#define N_TARGETS (sizeof targets / sizeof targets[0])

const struct rd_target_def *rd_target_at(size_t i)
{
	return i < N_TARGETS ? &targets[i] : NULL;
}

struct ui_reset *rd_new(const char *group, const char *scope_topic, int32_t scope_part, bool undo,
			int64_t threshold)
{
	struct ui_reset *rd = xcalloc(1, sizeof *rd);
	rd->group = xstrdup(group);
	rd->scope_topic = scope_topic ? xstrdup(scope_topic) : NULL;
	rd->scope_part = scope_topic ? scope_part : -1;
	rd->undo = undo;
	rd->threshold = threshold;
	rd->step = undo ? RD_WORKING : RD_TARGET;
	return rd;
}

static void drop_answer(struct ui_reset *rd)
{
	reset_plan_free(rd->plan);
	rd->plan = NULL;
	free(rd->msg);
	rd->msg = NULL;
	if (rd->has_res)
		reset_result_free(&rd->res);
	rd->has_res = false;
}

void rd_free(struct ui_reset *rd)
{
	if (!rd)
		return;
	drop_answer(rd);
	if (rd->has_rq)
		reset_request_free(&rd->rq);
	free(rd->target_desc);
	free(rd->group);
	free(rd->scope_topic);
	free(rd);
}

static bool is_enter(int ch)
{
	return ch == '\n' || ch == '\r' || ch == KEY_ENTER;
}

static bool is_backspace(int ch)
{
	return ch == KEY_BACKSPACE || ch == 127 || ch == 8;
}

/* Appends a printable byte to a line buffer; Backspace removes one whole UTF-8 character, ^U all. */
static bool edit_line(char *buf, size_t size, int ch)
{
	size_t len = strlen(buf);
	if (is_backspace(ch)) {
		while (len > 0 && ((unsigned char)buf[len - 1] & 0xC0) == 0x80)
			len--;
		if (len > 0)
			len--;
		buf[len] = '\0';
		return true;
	}
	if (ch == 21) { /* ^U */
		buf[0] = '\0';
		return true;
	}
	if (ch >= 32 && ch < 256 && ch != 127) {
		if (len + 1 < size) {
			buf[len] = (char)ch;
			buf[len + 1] = '\0';
		}
		return true;
	}
	return false;
}

/* Enter on the target step: parse the value with the planner's own parsers, add the scope. */
static enum rd_action target_enter(struct ui_reset *rd, int64_t now_ms)
{
	const struct rd_target_def *t = &targets[rd->target];
	const char *arg = t->example ? rd->value : NULL;
	if (t->example && !rd->value[0]) {
		snprintf(rd->err, sizeof rd->err, "%s needs a value, e.g. %s", reset_target_name(t->target),
			 t->example);
		return RD_ACT_NONE;
	}
	lt_reset_request rq;
	if (reset_request_init(&rq, rd->group, t->target, arg, now_ms, rd->err, sizeof rd->err) != 0) {
		reset_request_free(&rq);
		return RD_ACT_NONE;
	}
	if (rd->scope_topic) {
		char *scope = rd->scope_part >= 0 ? xasprintf("%s:%d", rd->scope_topic, rd->scope_part)
						  : xstrdup(rd->scope_topic);
		int rc = reset_request_add_topic(&rq, scope, rd->err, sizeof rd->err);
		free(scope);
		if (rc != 0) {
			reset_request_free(&rq);
			return RD_ACT_NONE;
		}
	} else {
		rq.all_topics = true;
	}
	if (rd->has_rq)
		reset_request_free(&rd->rq);
	rd->rq = rq;
	rd->has_rq = true;
	free(rd->target_desc);
	rd->target_desc = arg ? xasprintf("%s %s", reset_target_name(t->target), arg)
			      : xstrdup(reset_target_name(t->target));
	rd->err[0] = '\0';
	rd->step = RD_WORKING;
	rd->committing = false;
	return RD_ACT_PREVIEW;
}

static enum rd_action key_target(struct ui_reset *rd, int ch, int64_t now_ms)
{
	switch (ch) {
	case KEY_UP:
		if (rd->target > 0)
			rd->target--;
		rd->value[0] = rd->err[0] = '\0';
		return RD_ACT_NONE;
	case KEY_DOWN:
	case '\t':
		if (rd->target + 1 < N_TARGETS)
			rd->target++;
		rd->value[0] = rd->err[0] = '\0';
		return RD_ACT_NONE;
	case KEY_HOME:
		rd->target = 0;
		rd->value[0] = rd->err[0] = '\0';
		return RD_ACT_NONE;
	case KEY_END:
		rd->target = N_TARGETS - 1;
		rd->value[0] = rd->err[0] = '\0';
		return RD_ACT_NONE;
	default: break;
	}
	if (is_enter(ch))
		return target_enter(rd, now_ms);
	if (targets[rd->target].example && edit_line(rd->value, sizeof rd->value, ch))
		rd->err[0] = '\0';
	return RD_ACT_NONE;
}

static int64_t moved(const lt_reset_plan *p)
{
	return p->replayed + p->skipped;
}

static enum rd_action key_preview(struct ui_reset *rd, int ch)
{
	bool can_commit = rd->plan && rd->plan->n_rows > 0;
	switch (ch) {
	case KEY_LEFT:
	case KEY_RIGHT:
	case '\t':
		rd->yes = can_commit && !rd->yes;
		rd->err[0] = '\0';
		return RD_ACT_NONE;
	case KEY_UP:
		if (rd->top > 0)
			rd->top--;
		return RD_ACT_NONE;
	case KEY_DOWN: rd->top++; return RD_ACT_NONE;
	case KEY_PPAGE: rd->top = rd->top > 10 ? rd->top - 10 : 0; return RD_ACT_NONE;
	case KEY_NPAGE: rd->top += 10; return RD_ACT_NONE;
	default: break;
	}
	if (is_enter(ch)) {
		if (!rd->yes)
			return RD_ACT_CLOSE;
		if (rd->need_name && strcmp(rd->name, rd->group) != 0) {
			snprintf(rd->err, sizeof rd->err, "type the group name exactly to confirm (or Esc to cancel)");
			return RD_ACT_NONE;
		}
		rd->step = RD_WORKING;
		rd->committing = true;
		rd->err[0] = '\0';
		return RD_ACT_COMMIT;
	}
	if (rd->need_name && edit_line(rd->name, sizeof rd->name, ch))
		rd->err[0] = '\0';
	return RD_ACT_NONE;
}

enum rd_action rd_key(struct ui_reset *rd, int ch, int64_t now_ms)
{
	if (ch == KEY_ESC) {
		if (rd->step == RD_WORKING && rd->committing) {
			snprintf(rd->err, sizeof rd->err, "the commit is running and cannot be cancelled now");
			return RD_ACT_NONE;
		}
		return RD_ACT_CLOSE;
	}
	switch (rd->step) {
	case RD_TARGET: return key_target(rd, ch, now_ms);
	case RD_PREVIEW: return key_preview(rd, ch);
	case RD_WORKING: return RD_ACT_NONE;
	case RD_REFUSED:
	case RD_ERROR:
	case RD_RESULT:
		if (is_enter(ch) || ch == 'q')
			return RD_ACT_CLOSE;
		if (ch == KEY_UP && rd->top > 0)
			rd->top--;
		else if (ch == KEY_DOWN)
			rd->top++;
		return RD_ACT_NONE;
	}
	return RD_ACT_NONE;
}

void rd_preview_done(struct ui_reset *rd, bool refused, lt_reset_plan *plan, char *msg, char *desc)
{
	drop_answer(rd);
	if (desc) {
		free(rd->target_desc);
		rd->target_desc = desc;
	}
	rd->msg = msg;
	rd->top = 0;
	rd->yes = false;
	rd->name[0] = '\0';
	rd->err[0] = '\0';
	if (refused) {
		reset_plan_free(plan);
		rd->step = RD_REFUSED;
	} else if (!plan) {
		rd->step = RD_ERROR;
	} else {
		rd->plan = plan;
		rd->need_name = plan->n_rows > 0 && (rd->threshold == 0 || moved(plan) > rd->threshold);
		rd->step = RD_PREVIEW;
	}
}

void rd_commit_done(struct ui_reset *rd, lt_reset_result *res)
{
	if (rd->has_res)
		reset_result_free(&rd->res);
	rd->res = *res;
	rd->has_res = true;
	memset(res, 0, sizeof *res);
	rd->committing = false;
	rd->top = 0;
	rd->step = RD_RESULT;
}

/* ---- text ---- */

static void push(char ***v, size_t *n, char *line)
{
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = line;
}

/* Every line of a multi-line message. */
static void push_lines(char ***v, size_t *n, const char *text, const char *prefix)
{
	const char *p = text ? text : "";
	do {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		push(v, n, xasprintf("%s%.*s", prefix, (int)len, p));
		p += len + (nl != NULL);
	} while (*p);
}

static char *scope_text(const struct ui_reset *rd)
{
	if (rd->undo)
		return xstrdup("the partitions in the backup");
	if (!rd->scope_topic)
		return xstrdup("all topics with committed offsets");
	if (rd->scope_part >= 0)
		return xasprintf("partition %s:%d", rd->scope_topic, rd->scope_part);
	return xasprintf("topic %s", rd->scope_topic);
}

static void fmt_offset(int64_t o, char *buf, size_t len)
{
	if (o < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%" PRId64, o);
}

static void view_target(const struct ui_reset *rd, struct rd_view *v)
{
	char *scope = scope_text(rd);
	push(&v->body, &v->n_body, xasprintf("Scope: %s", scope));
	free(scope);
	push(&v->body, &v->n_body, xstrdup("Move the committed offsets to:"));
	for (size_t i = 0; i < N_TARGETS; i++) {
		if (i == rd->target)
			v->hl = (int)v->n_body;
		push(&v->body, &v->n_body, xasprintf("%s %s", i == rd->target ? ">" : " ", targets[i].label));
	}
	const struct rd_target_def *t = &targets[rd->target];
	if (t->example) {
		push(&v->foot, &v->n_foot, xasprintf("Value: %s_", rd->value));
		push(&v->foot, &v->n_foot, xasprintf("  e.g. %s", t->example));
	}
	push(&v->foot, &v->n_foot, xstrdup("Up/Down choose, Enter previews, Esc cancels"));
}

static void view_preview(const struct ui_reset *rd, struct rd_view *v)
{
	const lt_reset_plan *p = rd->plan;
	char *scope = scope_text(rd);
	push(&v->body, &v->n_body, xasprintf("Target: %s", rd->target_desc ? rd->target_desc : "-"));
	push(&v->body, &v->n_body, xasprintf("Scope:  %s", scope));
	free(scope);
	push(&v->body, &v->n_body, xasprintf("%-24s %9s %14s    %-14s %-16s %s", "TOPIC", "PARTITION", "PREVIOUS",
					      "NEW", "DELTA", "NOTE"));
	for (size_t i = 0; i < p->n_rows; i++) {
		const lt_reset_row *r = &p->rows[i];
		char prev[24], nw[24], delta[40];
		fmt_offset(r->previous, prev, sizeof prev);
		fmt_offset(r->new_offset, nw, sizeof nw);
		if (!r->has_delta)
			snprintf(delta, sizeof delta, "(no commit)");
		else if (r->delta < 0)
			snprintf(delta, sizeof delta, "replay %" PRId64, -r->delta);
		else if (r->delta > 0)
			snprintf(delta, sizeof delta, "skip %" PRId64, r->delta);
		else
			snprintf(delta, sizeof delta, "unchanged");
		push(&v->body, &v->n_body, xasprintf("%-24s %9d %14s -> %-14s %-16s %s", r->topic, r->partition, prev,
						      nw, delta, r->note ? r->note : ""));
	}
	for (size_t i = 0; i < p->n_warnings; i++)
		push_lines(&v->body, &v->n_body, p->warnings[i], "warning: ");

	if (p->n_rows == 0) {
		push(&v->foot, &v->n_foot, xstrdup("Nothing to reset: the scope holds no partition."));
		push(&v->foot, &v->n_foot, xstrdup("Enter or Esc closes"));
		return;
	}
	push(&v->foot, &v->n_foot, reset_plan_totals(p));
	if (rd->need_name) {
		push(&v->foot, &v->n_foot,
		     xasprintf("This moves %" PRId64 " messages (confirm threshold %" PRId64 "): type the group name",
			       moved(p), rd->threshold));
		push(&v->foot, &v->n_foot, xasprintf("Group name: %s_", rd->name));
	}
	v->foot_hl = (int)v->n_foot;
	/* the selected button is marked with > < as well as highlighted (monochrome terminals, tests) */
	const char *no = rd->yes ? " [ No ] " : ">[ No ]<", *yes = rd->yes ? ">[ Yes, reset ]<" : " [ Yes, reset ] ";
	push(&v->foot, &v->n_foot, xasprintf("Commit these offsets?  %s  %s", no, yes));
	v->btn_col = (int)strlen("Commit these offsets?  ") + (rd->yes ? (int)strlen(no) + 2 : 0);
	v->btn_len = (int)strlen(rd->yes ? yes : no);
	push(&v->foot, &v->n_foot, xstrdup("Left/Right choose, Enter confirms, Up/Down scroll, Esc cancels"));
}

static void view_result(const struct ui_reset *rd, struct rd_view *v)
{
	const lt_reset_result *res = &rd->res;
	static const char *const words[] = {
		[LT_EXEC_EXECUTED] = "EXECUTED: every partition reads back as planned",
		[LT_EXEC_REFUSED] = "REFUSED: nothing was changed",
		[LT_EXEC_FAILED] = "FAILED",
		[LT_EXEC_MISMATCH] = "COMMITTED, but some partitions do not read back as planned",
	};
	push(&v->body, &v->n_body, xasprintf("Result: %s", words[res->status]));
	if (res->n_parts && res->backup_path && res->status != LT_EXEC_REFUSED) {
		push(&v->body, &v->n_body,
		     xasprintf("%-24s %9s %14s %14s  %s", "TOPIC", "PARTITION", "PLANNED", "NOW", "RESULT"));
		for (size_t i = 0; i < res->n_parts; i++) {
			const lt_reset_part_result *r = &res->parts[i];
			char now[24];
			fmt_offset(r->after, now, sizeof now);
			push(&v->body, &v->n_body,
			     xasprintf("%-24s %9d %14" PRId64 " %14s  %s", r->topic, r->partition, r->planned, now,
				       r->error ? r->error : r->matches ? "ok" : "differs"));
		}
	}
	if (res->status == LT_EXEC_REFUSED)
		for (size_t i = 0; i < res->n_parts; i++)
			if (res->parts[i].error)
				push(&v->body, &v->n_body,
				     xasprintf("%s-%d: refused: %s", res->parts[i].topic, res->parts[i].partition,
					       res->parts[i].error));
	if (res->backup_path)
		push(&v->body, &v->n_body, xasprintf("Backup of the previous offsets: %s", res->backup_path));
	if (res->message && res->message[0])
		push_lines(&v->body, &v->n_body, res->message, "");
	if (res->audit_error)
		push(&v->body, &v->n_body, xasprintf("warning: the audit log was not written: %s", res->audit_error));
	push(&v->foot, &v->n_foot, xstrdup("Enter or Esc closes"));
}

void rd_view_build(const struct ui_reset *rd, struct rd_view *v)
{
	memset(v, 0, sizeof *v);
	v->hl = -1;
	v->foot_hl = -1;
	const char *what = rd->undo ? "Undo the last reset of" : "Reset offsets of";
	v->title = xasprintf("%s group %s", what, rd->group);
	switch (rd->step) {
	case RD_TARGET: view_target(rd, v); break;
	case RD_WORKING:
		if (rd->committing)
			push(&v->body, &v->n_body,
			     xstrdup("Committing: checking the group again, writing the backup, committing, "
				     "reading back..."));
		else
			push(&v->body, &v->n_body,
			     xstrdup("Working... reading the group, its offsets and the logs from the cluster"));
		push(&v->foot, &v->n_foot, xstrdup(rd->committing ? "please wait" : "Esc cancels"));
		break;
	case RD_PREVIEW: view_preview(rd, v); break;
	case RD_REFUSED:
		push(&v->body, &v->n_body, xstrdup("REFUSED: nothing was changed."));
		push_lines(&v->body, &v->n_body, rd->msg, "");
		push(&v->foot, &v->n_foot, xstrdup("Enter or Esc closes"));
		break;
	case RD_ERROR:
		push(&v->body, &v->n_body, xstrdup("No reset: nothing was changed."));
		push_lines(&v->body, &v->n_body, rd->msg, "");
		push(&v->foot, &v->n_foot, xstrdup("Enter or Esc closes"));
		break;
	case RD_RESULT: view_result(rd, v); break;
	}
	if (rd->err[0]) {
		push(&v->foot, &v->n_foot, xstrdup(rd->err));
		v->foot_err = true;
	}
}

void rd_view_free(struct rd_view *v)
{
	for (size_t i = 0; i < v->n_body; i++)
		free(v->body[i]);
	for (size_t i = 0; i < v->n_foot; i++)
		free(v->foot[i]);
	free(v->body);
	free(v->foot);
	free(v->title);
	memset(v, 0, sizeof *v);
}
