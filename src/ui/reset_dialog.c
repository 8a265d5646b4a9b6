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
#include "util/sanitize.h"
#include "util/wrap.h"
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

struct ui_reset *rd_new(const char *group, const char *scope_topic, int32_t scope_part, bool undo, int64_t threshold)
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

struct ui_reset *rd_new_delete(const char *group, const char *scope_topic, int32_t scope_part, const char *backup_dir)
{
	struct ui_reset *rd = rd_new(group, scope_topic, scope_part, false, 0);
	rd->del = true;
	rd->step = RD_WORKING;
	rd->backup_dir = backup_dir ? xstrdup(backup_dir) : NULL;
	return rd;
}

void rd_set_marked(struct ui_reset *rd, const char *const *scopes, size_t n_scopes, size_t n_parts)
{
	for (size_t i = 0; i < rd->n_marked_scopes; i++)
		free(rd->marked[i]);
	free(rd->marked);
	rd->marked = xcalloc(n_scopes + 1, sizeof *rd->marked);
	for (size_t i = 0; i < n_scopes; i++)
		rd->marked[i] = xstrdup(scopes[i]);
	rd->n_marked_scopes = n_scopes;
	rd->n_marked = n_parts;
}

char **rd_delete_scopes(const struct ui_reset *rd, size_t *n)
{
	*n = 0;
	if (rd->n_marked_scopes) {
		char **v = xcalloc(rd->n_marked_scopes + 1, sizeof *v);
		for (size_t i = 0; i < rd->n_marked_scopes; i++)
			v[i] = xstrdup(rd->marked[i]);
		*n = rd->n_marked_scopes;
		return v;
	}
	if (!rd->scope_topic)
		return NULL;
	char **v = xcalloc(2, sizeof *v);
	v[0] = rd->scope_part >= 0 ? xasprintf("%s:%d", rd->scope_topic, rd->scope_part) : xstrdup(rd->scope_topic);
	*n = 1;
	return v;
}

static void drop_answer(struct ui_reset *rd)
{
	if (rd->has_dres)
		delete_result_free(&rd->dres);
	rd->has_dres = false;
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
	for (size_t i = 0; i < rd->n_marked_scopes; i++)
		free(rd->marked[i]);
	free(rd->marked);
	free(rd->backup_dir);
	free(rd->audit_path);
	free(rd);
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
	size_t n_scopes;
	char **scopes = rd_delete_scopes(rd, &n_scopes); /* the same scope a delete would have */
	for (size_t i = 0; i < n_scopes; i++) {
		int rc = reset_request_add_topic(&rq, scopes[i], rd->err, sizeof rd->err);
		if (rc != 0) {
			for (size_t j = 0; j < n_scopes; j++)
				free(scopes[j]);
			free(scopes);
			reset_request_free(&rq);
			return RD_ACT_NONE;
		}
	}
	for (size_t j = 0; j < n_scopes; j++)
		free(scopes[j]);
	free(scopes);
	if (!n_scopes) {
		rq.all_topics = true;
	}
	if (rd->has_rq)
		reset_request_free(&rd->rq);
	rd->rq = rq;
	rd->has_rq = true;
	free(rd->target_desc);
	rd->target_desc =
		arg ? xasprintf("%s %s", reset_target_name(t->target), arg) : xstrdup(reset_target_name(t->target));
	rd->err[0] = '\0';
	rd->step = RD_WORKING;
	rd->committing = false;
	return RD_ACT_PREVIEW;
}

static int64_t moved(const lt_reset_plan *p)
{
	return p->replayed + p->skipped;
}

/* ---- the keys: one table, one lookup (rd_key); typed text goes to the line the step edits ---- */

static enum rd_action choose_target(struct ui_reset *rd, size_t i)
{
	rd->target = i;
	rd->value[0] = rd->err[0] = '\0';
	return RD_ACT_NONE;
}

static enum rd_action target_prev(struct ui_reset *rd, int64_t now_ms)
{
	(void)now_ms;
	return choose_target(rd, rd->target > 0 ? rd->target - 1 : 0);
}

static enum rd_action target_next(struct ui_reset *rd, int64_t now_ms)
{
	(void)now_ms;
	return choose_target(rd, rd->target + 1 < N_TARGETS ? rd->target + 1 : rd->target);
}

static enum rd_action target_first(struct ui_reset *rd, int64_t now_ms)
{
	(void)now_ms;
	return choose_target(rd, 0);
}

static enum rd_action target_last(struct ui_reset *rd, int64_t now_ms)
{
	(void)now_ms;
	return choose_target(rd, N_TARGETS - 1);
}

static enum rd_action toggle_yes(struct ui_reset *rd, int64_t now_ms)
{
	(void)now_ms;
	bool can_commit =
		rd->del ? rd->has_dres && rd->dres.status == LT_DEL_PREVIEW : rd->plan && rd->plan->n_rows > 0;
	rd->yes = can_commit && !rd->yes;
	rd->err[0] = '\0';
	return RD_ACT_NONE;
}

static enum rd_action confirm(struct ui_reset *rd, int64_t now_ms)
{
	(void)now_ms;
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

/* The body may be longer than the box (a preview of many partitions, a refusal naming many members): it
 * scrolls; the screen clamps top to the last page. */
static enum rd_action scroll_up(struct ui_reset *rd, int64_t now_ms)
{
	(void)now_ms;
	if (rd->top > 0)
		rd->top--;
	return RD_ACT_NONE;
}

static enum rd_action scroll_down(struct ui_reset *rd, int64_t now_ms)
{
	(void)now_ms;
	rd->top++;
	return RD_ACT_NONE;
}

static enum rd_action scroll_page_up(struct ui_reset *rd, int64_t now_ms)
{
	(void)now_ms;
	rd->top = rd->top > 10 ? rd->top - 10 : 0;
	return RD_ACT_NONE;
}

static enum rd_action scroll_page_down(struct ui_reset *rd, int64_t now_ms)
{
	(void)now_ms;
	rd->top += 10;
	return RD_ACT_NONE;
}

static enum rd_action scroll_home(struct ui_reset *rd, int64_t now_ms)
{
	(void)now_ms;
	rd->top = 0;
	return RD_ACT_NONE;
}

static enum rd_action close_dialog(struct ui_reset *rd, int64_t now_ms)
{
	(void)now_ms;
	if (rd->step == RD_WORKING && rd->committing) {
		snprintf(rd->err, sizeof rd->err, "the commit is running and cannot be cancelled now");
		return RD_ACT_NONE;
	}
	return RD_ACT_CLOSE;
}

/* A key no entry takes: the target's value, or the group name the confirmation asks for. */
static enum rd_action typed(struct ui_reset *rd, int ch)
{
	if (rd->step == RD_TARGET && targets[rd->target].example && edit_line(rd->value, sizeof rd->value, ch))
		rd->err[0] = '\0';
	else if (rd->step == RD_PREVIEW && rd->need_name && edit_line(rd->name, sizeof rd->name, ch))
		rd->err[0] = '\0';
	return RD_ACT_NONE;
}

#define IN_TARGET  RD_IN(RD_TARGET)
#define IN_PREVIEW RD_IN(RD_PREVIEW)
#define IN_DONE    (RD_IN(RD_REFUSED) | RD_IN(RD_ERROR) | RD_IN(RD_RESULT))
#define IN_ALL     (IN_TARGET | RD_IN(RD_WORKING) | IN_PREVIEW | IN_DONE)
#define ENTER      '\n', '\r', KEY_ENTER
/* clang-format off */
static const struct rd_key_def rd_keys[] = {
	{ { KEY_ESC }, "Esc", "cancel and close (at every step before the commit)", IN_ALL, close_dialog },
	{ { KEY_UP }, "Up", "the previous target", IN_TARGET, target_prev },
	{ { KEY_DOWN }, "Down", "the next target", IN_TARGET, target_next },
	{ { '\t' }, "Tab", "the next target", IN_TARGET, target_next },
	{ { KEY_HOME }, "Home", "the first target", IN_TARGET, target_first },
	{ { KEY_END }, "End", "the last target", IN_TARGET, target_last },
	{ { ENTER }, "Enter", "check the value and preview the target", IN_TARGET, target_enter },
	{ { KEY_LEFT }, "Left", "in the preview: switch between No and Yes", IN_PREVIEW, toggle_yes },
	{ { KEY_RIGHT }, "Right", "in the preview: switch between No and Yes", IN_PREVIEW, toggle_yes },
	{ { '\t' }, "Tab", "in the preview: switch between No and Yes", IN_PREVIEW, toggle_yes },
	{ { ENTER }, "Enter", "in the preview: Yes commits, No closes", IN_PREVIEW, confirm },
	{ { KEY_UP }, "Up", "scroll the preview or the result up", IN_PREVIEW | IN_DONE, scroll_up },
	{ { KEY_DOWN }, "Down", "scroll the preview or the result down", IN_PREVIEW | IN_DONE, scroll_down },
	{ { KEY_PPAGE }, "PgUp", "scroll a page up", IN_PREVIEW | IN_DONE, scroll_page_up },
	{ { KEY_NPAGE }, "PgDn", "scroll a page down", IN_PREVIEW | IN_DONE, scroll_page_down },
	{ { KEY_HOME }, "Home", "back to the top of the result", IN_DONE, scroll_home },
	{ { ENTER }, "Enter", "close the result (or the refusal, the error)", IN_DONE, close_dialog },
	{ { 'q' }, "q", "close the result (or the refusal, the error)", IN_DONE, close_dialog },
};
/* clang-format on */
#undef ENTER
#undef IN_TARGET
#undef IN_PREVIEW
#undef IN_DONE
#undef IN_ALL
#define N_RD_KEYS (sizeof rd_keys / sizeof rd_keys[0])

const struct rd_key_def *rd_keys_at(size_t i)
{
	return i < N_RD_KEYS ? &rd_keys[i] : NULL;
}

enum rd_action rd_key(struct ui_reset *rd, int ch, int64_t now_ms)
{
	for (size_t i = 0; i < N_RD_KEYS; i++) {
		const struct rd_key_def *k = &rd_keys[i];
		if (!(k->steps & RD_IN(rd->step)))
			continue;
		for (int j = 0; j < 3 && k->codes[j]; j++)
			if (k->codes[j] == ch)
				return k->action(rd, now_ms);
	}
	return typed(rd, ch);
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

void rd_delete_preview_done(struct ui_reset *rd, lt_delete_result *res)
{
	drop_answer(rd);
	rd->dres = *res;
	rd->has_dres = true;
	memset(res, 0, sizeof *res);
	rd->top = 0;
	rd->yes = false;
	rd->name[0] = '\0';
	rd->err[0] = '\0';
	rd->committing = false;
	if (rd->dres.status == LT_DEL_REFUSED) {
		rd->msg = xstrdup(rd->dres.message ? rd->dres.message : "refused");
		rd->step = RD_REFUSED;
	} else if (rd->dres.status != LT_DEL_PREVIEW) {
		rd->msg = xstrdup(rd->dres.message ? rd->dres.message : "failed");
		rd->step = RD_ERROR;
	} else {
		rd->need_name = true; /* a delete always asks for the group name */
		rd->step = RD_PREVIEW;
	}
}

void rd_delete_done(struct ui_reset *rd, lt_delete_result *res)
{
	drop_answer(rd);
	rd->dres = *res;
	rd->has_dres = true;
	memset(res, 0, sizeof *res);
	rd->committing = false;
	rd->top = 0;
	rd->step = RD_RESULT;
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

/* Appends a line as it is (table rows, the buttons: their columns must stay put). */
static void push_raw(char ***v, size_t *n, char *line)
{
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = line;
}

/* Appends a line of prose, word-wrapped (util/wrap.h) to v->width cells of its safe form (as the screen will show
 * it): breaks at blanks, a word longer than the width is split between characters, continuation lines are
 * indented two more than the line's own indent. Takes ownership of line. */
static void push_text(struct rd_view *v, char ***lines, size_t *n, char *line)
{
	if (v->width <= 0 || display_width(line, v->utf8) <= v->width) {
		push_raw(lines, n, line);
		return;
	}
	size_t indent = strspn(line, " ");
	int cont = (int)indent + 2 < v->width / 2 ? (int)indent + 2 : 0;
	size_t len = strlen(line), off = 0;
	for (bool first = true; off < len; first = false) {
		int pad = first ? 0 : cont;
		size_t shown, take = wrap_line(line + off, len - off, v->width - pad, v->utf8, NULL, &shown);
		push_raw(lines, n, xasprintf("%*s%.*s", pad, "", (int)shown, line + off));
		off += take;
	}
	free(line);
}

/* Every line of a multi-line message, each wrapped. */
static void push_lines(struct rd_view *v, char ***lines, size_t *n, const char *text, const char *prefix)
{
	const char *p = text ? text : "";
	do {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		push_text(v, lines, n, xasprintf("%s%.*s", prefix, (int)len, p));
		p += len + (nl != NULL);
	} while (*p);
}

/* Prose into the body / the footer. */
static void body(struct rd_view *v, char *line)
{
	push_text(v, &v->body, &v->n_body, line);
}

static void foot(struct rd_view *v, char *line)
{
	push_text(v, &v->foot, &v->n_foot, line);
}

/* "orders:1,3 audit:0" */
static char *marked_list(const struct ui_reset *rd)
{
	size_t len = 1;
	for (size_t i = 0; i < rd->n_marked_scopes; i++)
		len += strlen(rd->marked[i]) + 1;
	char *s = xcalloc(len, 1);
	for (size_t i = 0; i < rd->n_marked_scopes; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, rd->marked[i]);
	}
	return s;
}

static char *scope_text(const struct ui_reset *rd)
{
	if (rd->undo)
		return xstrdup("the partitions in the backup");
	if (rd->n_marked_scopes) {
		char *list = marked_list(rd);
		char *s = xasprintf("%zu marked partition%s (%s)", rd->n_marked, rd->n_marked == 1 ? "" : "s", list);
		free(list);
		return s;
	}
	if (!rd->scope_topic)
		return xstrdup("all topics with committed offsets");
	if (rd->scope_part >= 0)
		return xasprintf("partition %s:%d", rd->scope_topic, rd->scope_part);
	return xasprintf("topic %s", rd->scope_topic);
}

/* The scope, short, for the title: "all topics", "3 marked partitions", "topic t", "t:2". */
static char *scope_title(const struct ui_reset *rd)
{
	if (rd->n_marked_scopes)
		return xasprintf("%zu marked partition%s", rd->n_marked, rd->n_marked == 1 ? "" : "s");
	if (!rd->scope_topic)
		return xstrdup("all topics");
	if (rd->scope_part >= 0)
		return xasprintf("%s:%d", rd->scope_topic, rd->scope_part);
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
	body(v, xasprintf("Scope: %s", scope));
	free(scope);
	body(v, xstrdup("Move the committed offsets to:"));
	for (size_t i = 0; i < N_TARGETS; i++) {
		if (i == rd->target)
			v->hl = (int)v->n_body;
		body(v, xasprintf("%s %s", i == rd->target ? ">" : " ", targets[i].label));
	}
	const struct rd_target_def *t = &targets[rd->target];
	if (t->example) {
		foot(v, xasprintf("Value: %s_", rd->value));
		foot(v, xasprintf("  e.g. %s", t->example));
	}
	foot(v, xstrdup("Up/Down choose, Enter previews, Esc cancels"));
}

/* The target as typed and, for a time given relative to now, the absolute time it resolved to. */
static char *target_text(const struct ui_reset *rd)
{
	return reset_plan_target_text(rd->undo ? NULL : rd->plan, rd->target_desc);
}

/* One partition's move: "skip 40", "replay 12", ... */
static void delta_text(const lt_reset_row *r, char *buf, size_t len)
{
	if (r->new_offset < 0)
		snprintf(buf, len, "delete commit");
	else if (!r->has_delta)
		snprintf(buf, len, "(no commit)");
	else if (r->delta < 0)
		snprintf(buf, len, "replay %" PRId64, -r->delta);
	else if (r->delta > 0)
		snprintf(buf, len, "skip %" PRId64, r->delta);
	else
		snprintf(buf, len, "unchanged");
}

struct row_widths {
	int name, prev, nw;
};

/* The plan's rows: the wide table when it fits the box; else "topic:partition old -> new count" with
 * columns sized to the values, and when even that is too wide, the name on one line and the move below,
 * so that old -> new and the count are never cut. Notes go on a line of their own. */
/* A row's previous and new offsets and its delta, as every form of the preview shows them. */
static void row_cells(const lt_reset_row *r, char prev[24], char nw[24], char delta[40])
{
	fmt_offset(r->previous, prev, 24);
	fmt_offset(r->new_offset, nw, 24);
	delta_text(r, delta, 40);
}

static void preview_rows(const lt_reset_plan *p, struct rd_view *v)
{
	static const char wide_fmt[] = "%-24s %9d %14s -> %-14s %-16s %s";
	int wide = 24 + 1 + 9 + 1 + 14 + 4 + 14 + 1 + 16;
	for (size_t i = 0; i < p->n_rows; i++)
		if (display_width(p->rows[i].topic, v->utf8) > 24)
			wide = 1 << 20; /* a longer topic would shift its row's columns */
	if (v->width <= 0 || wide <= v->width) {
		push_raw(&v->body, &v->n_body,
			 xasprintf("%-24s %9s %14s    %-14s %-16s %s", "TOPIC", "PARTITION", "PREVIOUS", "NEW", "DELTA",
				   "NOTE"));
		for (size_t i = 0; i < p->n_rows; i++) {
			const lt_reset_row *r = &p->rows[i];
			char prev[24], nw[24], delta[40];
			row_cells(r, prev, nw, delta);
			push_raw(&v->body, &v->n_body,
				 xasprintf(wide_fmt, r->topic, r->partition, prev, nw, delta, r->note ? r->note : ""));
		}
		return;
	}
	struct row_widths w = { (int)strlen("PARTITION"), (int)strlen("PREVIOUS"), (int)strlen("NEW") };
	int delta_w = (int)strlen("DELTA");
	for (size_t i = 0; i < p->n_rows; i++) {
		const lt_reset_row *r = &p->rows[i];
		char name[32], prev[24], nw[24], delta[40];
		snprintf(name, sizeof name, ":%d", r->partition);
		int nm = display_width(r->topic, v->utf8) + (int)strlen(name);
		row_cells(r, prev, nw, delta);
		w.name = nm > w.name ? nm : w.name;
		w.prev = (int)strlen(prev) > w.prev ? (int)strlen(prev) : w.prev;
		w.nw = (int)strlen(nw) > w.nw ? (int)strlen(nw) : w.nw;
		delta_w = (int)strlen(delta) > delta_w ? (int)strlen(delta) : delta_w;
	}
	int move_w = w.prev + 4 + w.nw + 1 + delta_w;
	bool one_line = w.name + 1 + move_w <= v->width;
	int indent = one_line ? w.name + 1 : 2;
	if (one_line)
		push_raw(&v->body, &v->n_body,
			 xasprintf("%-*s %*s    %-*s %s", w.name, "PARTITION", w.prev, "PREVIOUS", w.nw, "NEW",
				   "DELTA"));
	else { /* the name above, the move below */
		push_raw(&v->body, &v->n_body, xstrdup("PARTITION"));
		push_raw(&v->body, &v->n_body,
			 xasprintf("%*s%*s    %-*s %s", indent, "", w.prev, "PREVIOUS", w.nw, "NEW", "DELTA"));
	}
	for (size_t i = 0; i < p->n_rows; i++) {
		const lt_reset_row *r = &p->rows[i];
		char prev[24], nw[24], delta[40];
		row_cells(r, prev, nw, delta);
		char *name = xasprintf("%s:%d", r->topic, r->partition);
		int pad = one_line ? w.name - display_width(name, v->utf8) : 0;
		char *move = xasprintf("%*s -> %-*s %s", w.prev, prev, w.nw, nw, delta);
		if (one_line) {
			push_raw(&v->body, &v->n_body, xasprintf("%s%*s %s", name, pad > 0 ? pad : 0, "", move));
		} else {
			push_text(v, &v->body, &v->n_body, xstrdup(name)); /* a name wider than the box wraps */
			push_text(v, &v->body, &v->n_body, xasprintf("%*s%s", indent, "", move));
		}
		if (r->note)
			push_text(v, &v->body, &v->n_body, xasprintf("%*snote: %s", indent, "", r->note));
		free(name);
		free(move);
	}
}

static void view_preview(const struct ui_reset *rd, struct rd_view *v)
{
	const lt_reset_plan *p = rd->plan;
	char *scope = scope_text(rd);
	body(v, xasprintf("Scope:  %s", scope));
	free(scope);
	if (rd->undo && rd->msg) /* which backup, from when, and the change it undoes */
		push_lines(v, &v->body, &v->n_body, rd->msg, "");
	preview_rows(p, v);
	for (size_t i = 0; i < p->n_warnings; i++)
		push_lines(v, &v->body, &v->n_body, p->warnings[i], "warning: ");

	if (p->n_rows == 0) {
		foot(v, xstrdup("Nothing to reset: the scope holds no partition."));
		foot(v, xstrdup("Enter or Esc closes"));
		return;
	}
	/* in the footer, which never scrolls away: what the commit means and where its traces go */
	char *target = target_text(rd);
	foot(v, xasprintf("Target: %s", target));
	free(target);
	foot(v, reset_plan_totals(p));
	if (rd->backup_dir)
		foot(v, xasprintf("Backup to %s", rd->backup_dir));
	if (rd->audit_path)
		foot(v, xasprintf("Audit log %s", rd->audit_path));
	if (rd->need_name) {
		foot(v,
		     xasprintf("This moves %" PRId64 " messages (confirm threshold %" PRId64 "): type the group name",
			       moved(p), rd->threshold));
		foot(v, xasprintf("Group name: %s_", rd->name));
	}
	v->foot_hl = (int)v->n_foot;
	/* the selected button is marked with > < as well as highlighted (monochrome terminals, tests) */
	const char *no = rd->yes ? " [ No ] " : ">[ No ]<", *yes = rd->yes ? ">[ Yes, reset ]<" : " [ Yes, reset ] ";
	push_raw(&v->foot, &v->n_foot, xasprintf("Commit these offsets?  %s  %s", no, yes)); /* btn_col */
	v->btn_col = (int)strlen("Commit these offsets?  ") + (rd->yes ? (int)strlen(no) + 2 : 0);
	v->btn_len = (int)strlen(rd->yes ? yes : no);
	foot(v, xstrdup("Left/Right choose, Enter confirms, Up/Down scroll, Esc cancels"));
}

/* The committed offsets a delete removes (preview) or removed (result: with each partition's outcome). */
static void delete_table(const struct ui_reset *rd, struct rd_view *v, bool result)
{
	const lt_delete_result *d = &rd->dres;
	push_raw(&v->body, &v->n_body,
		 xasprintf("%-24s %9s %14s  %s", "TOPIC", "PARTITION", "COMMITTED", result ? "RESULT" : ""));
	for (size_t i = 0; i < d->n_parts; i++) {
		const lt_delete_part *p = &d->parts[i];
		char off[24], part[16];
		fmt_offset(p->committed, off, sizeof off);
		snprintf(part, sizeof part, p->partition >= 0 ? "%d" : "-", p->partition);
		const char *what = !result                                             ? ""
				   : p->kerr                                           ? delete_kerr_text(p->kerr)
				   : d->status == LT_DEL_DELETED || d->group_kerr == 0 ? "deleted"
										       : "";
		push_raw(&v->body, &v->n_body, xasprintf("%-24s %9s %14s  %s", p->topic, part, off, what));
	}
}

static void view_delete_preview(const struct ui_reset *rd, struct rd_view *v)
{
	const lt_delete_result *d = &rd->dres;
	if (rd->n_marked_scopes || (rd->scope_topic && rd->scope_part < 0)) {
		char *scope = scope_text(rd);
		body(v, xasprintf("Delete the committed offsets of %s (group %s).", scope, rd->group));
		free(scope);
	} else if (rd->scope_topic)
		body(v, xasprintf("Delete the committed offset of %s:%d (group %s).", rd->scope_topic, rd->scope_part,
				  rd->group));
	else
		body(v, xasprintf("Delete group %s and its %zu committed offset%s.", rd->group, d->n_backed_up,
				  d->n_backed_up == 1 ? "" : "s"));
	body(v, xstrdup("Guard: the group has no active members (read again just before deleting)."));
	delete_table(rd, v, false);
	if (d->n_backed_up)
		body(v, xasprintf("Backup first, to %s (U, or lagtop --undo %s --execute, restores it).",
				  rd->backup_dir ? rd->backup_dir : "the backup directory", rd->group));
	else
		body(v, xstrdup("No committed offset to back up."));
	foot(v, xasprintf("Type the group name to confirm: %s_", rd->name));
	v->foot_hl = (int)v->n_foot;
	const char *no = rd->yes ? " [ No ] " : ">[ No ]<", *yes = rd->yes ? ">[ Yes, delete ]<" : " [ Yes, delete ] ";
	push_raw(&v->foot, &v->n_foot, xasprintf("Delete?  %s  %s", no, yes));
	v->btn_col = (int)strlen("Delete?  ") + (rd->yes ? (int)strlen(no) + 2 : 0);
	v->btn_len = (int)strlen(rd->yes ? yes : no);
	foot(v, xstrdup("Left/Right choose, Enter confirms, Up/Down scroll, Esc cancels"));
}

static void view_delete_result(const struct ui_reset *rd, struct rd_view *v)
{
	const lt_delete_result *d = &rd->dres;
	static const char *const words[] = {
		[LT_DEL_DELETED] = "DELETED",
		[LT_DEL_PREVIEW] = "NOTHING DELETED (preview)",
		[LT_DEL_REFUSED] = "REFUSED: nothing was deleted",
		[LT_DEL_FAILED] = "FAILED",
		[LT_DEL_UNKNOWN] = "OUTCOME UNKNOWN: no answer, and the offsets could not be read back",
	};
	body(v, xasprintf("Result: %s", words[d->status]));
	if (d->n_parts)
		delete_table(rd, v, true);
	if (d->backup_path)
		body(v, xasprintf("Backup of the deleted offsets: %s (U restores it)", d->backup_path));
	if (d->message && d->message[0])
		push_lines(v, &v->body, &v->n_body, d->message, "");
	if (d->audit_error && !(d->message && strstr(d->message, d->audit_error)))
		body(v, xasprintf("warning: the audit log was not written: %s", d->audit_error));
	foot(v, xstrdup("Enter or Esc closes, Up/Down scroll"));
}

/* The result's headline: a commit whose answer did not arrive says so, and what the read-back settled. */
static const char *result_headline(const lt_reset_result *res)
{
	static const char *const answered[] = {
		[LT_EXEC_EXECUTED] = "EXECUTED: every partition reads back as planned",
		[LT_EXEC_REFUSED] = "REFUSED: nothing was changed",
		[LT_EXEC_FAILED] = "FAILED",
		[LT_EXEC_MISMATCH] = "COMMITTED, but some partitions do not read back as planned",
		[LT_EXEC_UNKNOWN] = "OUTCOME UNKNOWN: no answer, and the offsets could not be read back",
	};
	static const char *const settled[] = {
		[LT_EXEC_EXECUTED] = "APPLIED (outcome unknown, settled by reading back)",
		[LT_EXEC_REFUSED] = "REFUSED: nothing was changed",
		[LT_EXEC_FAILED] = "NOT APPLIED (outcome unknown, settled by reading back)",
		[LT_EXEC_MISMATCH] = "PARTLY APPLIED (outcome unknown, settled by reading back)",
		[LT_EXEC_UNKNOWN] = "OUTCOME UNKNOWN: no answer, and the offsets could not be read back",
	};
	return res->answer_missing ? settled[res->status] : answered[res->status];
}

static void view_result(const struct ui_reset *rd, struct rd_view *v)
{
	const lt_reset_result *res = &rd->res;
	body(v, xasprintf("Result: %s", result_headline(res)));
	if (res->n_parts && res->backup_path && res->status != LT_EXEC_REFUSED) {
		push_raw(&v->body, &v->n_body,
			 xasprintf("%-24s %9s %14s %14s  %s", "TOPIC", "PARTITION", "PLANNED", "NOW", "RESULT"));
		for (size_t i = 0; i < res->n_parts; i++) {
			const lt_reset_part_result *r = &res->parts[i];
			char now[24], planned[24];
			fmt_offset(r->after, now, sizeof now);
			fmt_offset(r->planned, planned, sizeof planned); /* "-": the commit was to be deleted */
			push_raw(&v->body, &v->n_body,
				 xasprintf("%-24s %9d %14s %14s  %s", r->topic, r->partition, planned, now,
					   r->error                ? r->error
					   : !res->readback_ok     ? "unknown"
					   : r->matches            ? "ok"
					   : r->after == r->before ? "unchanged"
								   : "differs"));
		}
	}
	if (res->status == LT_EXEC_REFUSED)
		for (size_t i = 0; i < res->n_parts; i++)
			if (res->parts[i].error)
				body(v, xasprintf("%s-%d: refused: %s", res->parts[i].topic, res->parts[i].partition,
						  res->parts[i].error));
	if (res->backup_path)
		body(v, xasprintf("Backup of the previous offsets: %s", res->backup_path));
	if (res->backup_path && rd->audit_path) /* a commit was attempted: its intent and result lines are there */
		body(v, xasprintf("Audit log: %s", rd->audit_path));
	if (res->message && res->message[0])
		push_lines(v, &v->body, &v->n_body, res->message, "");
	if (res->audit_error && !(res->message && strstr(res->message, res->audit_error)))
		body(v, xasprintf("warning: the audit log was not written: %s", res->audit_error));
	foot(v, xstrdup("Enter or Esc closes, Up/Down scroll"));
}

void rd_view_build(const struct ui_reset *rd, int width, bool utf8, struct rd_view *v)
{
	memset(v, 0, sizeof *v);
	v->hl = -1;
	v->foot_hl = -1;
	v->foot_err = -1;
	v->width = width;
	v->utf8 = utf8;
	const char *what = rd->del ? "Delete" : rd->undo ? "Undo the last reset of" : "Reset offsets of";
	if (rd->del && rd->n_marked_scopes)
		v->title = xasprintf("Delete the offsets of %zu marked partition%s in group %s", rd->n_marked,
				     rd->n_marked == 1 ? "" : "s", rd->group);
	else if (rd->del && rd->scope_topic && rd->scope_part < 0)
		v->title = xasprintf("Delete the offsets of topic %s in group %s", rd->scope_topic, rd->group);
	else if (rd->del && rd->scope_topic)
		v->title =
			xasprintf("Delete the offset of %s:%d in group %s", rd->scope_topic, rd->scope_part, rd->group);
	else if (rd->undo)
		v->title = xasprintf("%s group %s", what, rd->group);
	else { /* what R acts on (the focused pane decides it) is said before anything else */
		char *scope = scope_title(rd);
		v->title = xasprintf("%s group %s: %s", what, rd->group, scope);
		free(scope);
	}
	switch (rd->step) {
	case RD_TARGET: view_target(rd, v); break;
	case RD_WORKING:
		if (rd->committing && rd->del)
			body(v, xstrdup("Deleting: checking the group again, writing the backup, deleting..."));
		else if (rd->del)
			body(v, xstrdup("Working... reading the group and its committed offsets from the cluster"));
		else if (rd->committing)
			body(v, xstrdup("Committing: checking the group again, writing the backup, committing, "
					"reading back..."));
		else
			body(v, xstrdup("Working... reading the group, its offsets and the logs from the cluster"));
		foot(v, xstrdup(rd->committing ? "please wait" : "Esc cancels"));
		break;
	case RD_PREVIEW:
		if (rd->del)
			view_delete_preview(rd, v);
		else
			view_preview(rd, v);
		break;
	case RD_REFUSED:
		body(v, xstrdup(rd->del ? "REFUSED: nothing was deleted." : "REFUSED: nothing was changed."));
		push_lines(v, &v->body, &v->n_body, rd->msg, "");
		foot(v, xstrdup("Enter or Esc closes, Up/Down scroll"));
		break;
	case RD_ERROR:
		body(v, xstrdup(rd->del ? "No delete: nothing was changed." : "No reset: nothing was changed."));
		push_lines(v, &v->body, &v->n_body, rd->msg, "");
		foot(v, xstrdup("Enter or Esc closes, Up/Down scroll"));
		break;
	case RD_RESULT:
		if (rd->del)
			view_delete_result(rd, v);
		else
			view_result(rd, v);
		break;
	}
	if (rd->err[0]) {
		v->foot_err = (int)v->n_foot;
		foot(v, xstrdup(rd->err));
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
