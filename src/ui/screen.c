/* screen.c — drawing: top bar, panes, key bar, popups, and the "too small" screen. Reads the
 * state, never changes it (apart from keeping scroll offsets in range). Only the rows on screen are
 * formatted, so the cost of a frame does not grow with the number of rows. */
#include "config.h"

#include <curses.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/group_view.h"
#include "ui/keys.h"
#include "ui/replay.h"
#include "ui/reset_dialog.h"
#include "ui/ui.h"
#include "util/sanitize.h"
#include "util/strv.h"
#include "util/xalloc.h"
#include "util/timeutil.h"
#include "util/wrap.h"

#define CELL_BYTES 1024

static bool utf8(const struct ui *u)
{
	return !u->ascii;
}

static void set_role(ui_role r)
{
	attrset((attr_t)theme_attr(r));
}

/* Writes untrusted (or any) text at y,x in exactly `cells` cells, escaped and cut with an ellipsis. */
static void put_cells(const struct ui *u, int y, int x, const char *text, int cells, bool right)
{
	char buf[CELL_BYTES];
	if (cells <= 0)
		return;
	if (cells > (int)(sizeof buf / 4) - 2)
		cells = (int)(sizeof buf / 4) - 2;
	fit_cells_padded(text, cells, utf8(u), right, buf, sizeof buf);
	mvaddstr(y, x, buf);
}

static void fill_line(int y, int x, int w)
{
	for (int i = 0; i < w; i++)
		mvaddch(y, x + i, ' ');
}

/* A sparkline of values (oldest first) in `cells` cells, the newest at the right. */
static void sparkline(const struct ui *u, const int64_t *v, size_t n, int cells, char *out, size_t outlen)
{
	size_t first = n > (size_t)cells ? n - (size_t)cells : 0;
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	out[0] = '\0';
	for (size_t i = first; i < n; i++) {
		if (v[i] < lo)
			lo = v[i];
		if (v[i] > hi)
			hi = v[i];
	}
	size_t len = 0;
	for (size_t i = first; i < n && len + 8 < outlen; i++) {
		int level = hi > lo ? (int)((double)(v[i] - lo) * 7.0 / (double)(hi - lo) + 0.5) : (hi > 0 ? 3 : 0);
		const char *g = u->glyphs->spark[level];
		size_t gl = strlen(g);
		memcpy(out + len, g, gl);
		len += gl;
	}
	out[len] = '\0';
}

/* ---- top bar ---- */

struct bar {
	const struct ui *u;
	int y, x, w;
};

/* One segment of the top bar, after a separator, cut with an ellipsis at the screen's edge. `key`, when
 * given, is the key that explains the segment, shown after it as " (e)" and kept when the text is cut:
 * at 80 columns the hint matters more than the end of the sentence. */
static void bar_seg(struct bar *b, ui_role role, const char *text, const char *key)
{
	int room = b->w - b->x;
	if (room <= 2)
		return;
	if (b->x > 0) {
		set_role(UI_ROLE_TOP_BAR);
		mvaddstr(b->y, b->x, " ");
		mvaddstr(b->y, b->x + 1, b->u->glyphs->vbar);
		mvaddstr(b->y, b->x + 2, " ");
		b->x += 3;
		room -= 3;
	}
	if (room <= 0)
		return;
	char hint[16] = "";
	if (key)
		snprintf(hint, sizeof hint, " (%s)", key);
	int hint_cells = (int)strlen(hint);
	int need = display_width(text, utf8(b->u)) + hint_cells;
	/* too narrow for a word and its hint: the text alone, cut */
	if (room < hint_cells + 4)
		hint_cells = 0;
	int cells = (need < room ? need : room) - hint_cells;
	set_role(role);
	put_cells(b->u, b->y, b->x, text, cells, false);
	b->x += cells;
	if (hint_cells > 0) {
		mvaddstr(b->y, b->x, hint);
		b->x += hint_cells;
	}
}

static bool refresh_late(const struct ui *u, int64_t wall, int64_t *late_by)
{
	if (u->paused || !u->snap)
		return false;
	int64_t done = u->snap->taken_at_ms + u->snap->duration_ms;
	int64_t age = wall - done;
	*late_by = age;
	/* a refresh is late when none finished for two intervals and a second */
	return age > 2 * (int64_t)u->interval_ms + 1000;
}

static void draw_top_bar(const struct ui *u, int64_t wall)
{
	const struct ui_geom *g = &u->geom;
	struct bar b = { u, g->top_y, 0, g->cols };
	char buf[256], t1[32], t2[32];
	const lt_snapshot *s = u->snap;

	set_role(UI_ROLE_TOP_BAR);
	fill_line(g->top_y, 0, g->cols);
	mvaddstr(g->top_y, 0, " ");
	b.x = 1;
	if (!s) {
		int64_t started = u->src->ops->refresh_started_ms(u->src);
		format_duration_ms(started ? wall - started : 0, t1, sizeof t1);
		snprintf(buf, sizeof buf, "lagtop: waiting for the first refresh (%s)", t1);
		bar_seg(&b, UI_ROLE_TOP_BAR, buf, NULL);
		b.x = b.w; /* nothing else yet */
		return;
	}
	/* cluster name on the left */
	char name[64];
	fit_cells(s->cluster ? s->cluster : "?", 24, utf8(u), name, sizeof name);
	set_role(UI_ROLE_TOP_BAR);
	attron(A_BOLD);
	mvaddstr(b.y, b.x, name);
	b.x += display_width(name, utf8(u));
	/* a recording: its time next to the name (80 columns show it), instead of the refresh's age, pace
	 * and lateness further on */
	char replay[96];
	bool replaying = replay_bar_text(u, replay, sizeof replay);
	if (replaying)
		bar_seg(&b, UI_ROLE_TOP_BAR_ALERT, replay, NULL);
	/* --record: REC while every refresh goes to the file; said loudly when the file stopped taking them */
	if (source_record_active(u->src))
		bar_seg(&b, source_record_error(u->src) ? UI_ROLE_TOP_BAR_ALERT : UI_ROLE_TOP_BAR,
			source_record_error(u->src) ? "REC STOPPED (see on exit)" : "REC", NULL);

	snprintf(buf, sizeof buf, "brokers %d/%d", s->brokers_up, s->brokers_total);
	bar_seg(&b, s->brokers_up < s->brokers_total ? UI_ROLE_TOP_BAR_ALERT : UI_ROLE_TOP_BAR, buf, NULL);
	snprintf(buf, sizeof buf, "%zu group%s", s->n_groups, s->n_groups == 1 ? "" : "s");
	bar_seg(&b, UI_ROLE_TOP_BAR, buf, NULL);
	/* a refresh that did not read every group says so beside the count, where 80 columns still show it
	 * (the error, which may be its cause, is longer and comes last): the rows are not the whole cluster */
	if (!snapshot_read_whole(s)) {
		size_t lists = s->n_unread;
		for (size_t i = 0; i < s->n_unread; i++)
			lists -= s->unread[i].group != NULL;
		if (s->groups_unread)
			snprintf(buf, sizeof buf, "%zu unread%s", s->groups_unread, lists ? ", lists missing" : "");
		else
			snprintf(buf, sizeof buf, "group lists missing");
		bar_seg(&b, UI_ROLE_TOP_BAR_ALERT, buf, "e");
	}
	/* a failed refresh before its age and pace: what went wrong matters more than "every 1s" */
	if (s->error) {
		char *one = xasprintf("error: %s", s->error);
		bar_seg(&b, UI_ROLE_TOP_BAR_ALERT, one, "e");
		free(one);
	}

	if (!replaying) {
		int64_t late_by = 0;
		bool late = refresh_late(u, wall, &late_by);
		int64_t age = wall - (s->taken_at_ms + s->duration_ms);
		format_duration_ms(age > 0 ? age : 0, t1, sizeof t1);
		format_duration_ms(s->duration_ms, t2, sizeof t2);
		if (s->duration_ms < 1000)
			snprintf(t2, sizeof t2, "%" PRId64 "ms", s->duration_ms);
		snprintf(buf, sizeof buf, "%s ago, took %s", t1, t2);
		bar_seg(&b, UI_ROLE_TOP_BAR, buf, NULL);
		if (late) {
			bar_seg(&b, UI_ROLE_TOP_BAR_ALERT,
				u->src->ops->busy(u->src) ? "LATE: refresh still running" : "LATE", NULL);
		}
		if (u->read_only)
			bar_seg(&b, UI_ROLE_TOP_BAR, "read-only", NULL);
		if (u->paused)
			bar_seg(&b, UI_ROLE_TOP_BAR_ALERT, "PAUSED", NULL);
		else {
			snprintf(buf, sizeof buf, "every %gs", u->interval_ms / 1000.0);
			bar_seg(&b, UI_ROLE_TOP_BAR, buf, NULL);
		}
	}
	/* after the error: the commit-stream columns are empty or partial (the reason is in the 'e' popup) */
	if (s->commit_stream == LT_CSTREAM_DENIED || s->commit_stream == LT_CSTREAM_FAILED)
		bar_seg(&b, UI_ROLE_TOP_BAR, "no commit times", "e");
	else if (s->commit_stream == LT_CSTREAM_LOADING)
		bar_seg(&b, UI_ROLE_TOP_BAR, "loading commit times", NULL);
}

/* ---- panes ---- */

static ui_role status_role(lt_status st)
{
	switch (st) {
	case LT_STATUS_OK: return UI_ROLE_STATUS_OK;
	case LT_STATUS_WARN: return UI_ROLE_STATUS_WARN;
	case LT_STATUS_REWIND: return UI_ROLE_STATUS_REWIND;
	case LT_STATUS_STALL: return UI_ROLE_STATUS_STALL;
	case LT_STATUS_STOP:
	case LT_STATUS_ERR: return UI_ROLE_STATUS_STOP;
	default: return UI_ROLE_STATUS_UNKNOWN;
	}
}

static ui_role row_role(const lt_row *r)
{
	if (r->topic) /* topic rows, a topic's group rows: the worst partition's status on the topic */
		return status_role(r->topic->status);
	if (r->part) {
		if (r->part->flags & LT_PF_STALE)
			return UI_ROLE_STALE;
		return status_role(r->part->status);
	}
	if (r->group->stale_ms > 0 || r->group->unread)
		return UI_ROLE_STALE;
	return status_role(r->group->status);
}

/* The age of a row's data when it is older than the last refresh (its group or partition was not read
 * this time), growing with the clock (wall: the draw's, read once for every row) between refreshes; 0 for a
 * row read this time. */
static int64_t row_stale_age(const struct ui *u, const lt_row *r, int64_t wall)
{
	int64_t age = 0;
	if (r->topic)
		return 0; /* topic rows add up many groups: their partitions carry the marks */
	if (r->part)
		age = r->part->flags & LT_PF_STALE ? partition_stale_ms(r->group, r->part) : 0;
	else
		age = r->group->stale_ms;
	/* a recording's time is not the clock's: there the age is the recorded one */
	if (age <= 0 || !u->snap || source_is_replay(u->src))
		return age > 0 ? age : 0;
	int64_t since = wall - (u->snap->taken_at_ms + u->snap->duration_ms);
	return age + (since > 0 ? since : 0);
}

/* A stale row says so in words, with its age, where its state or status would be: dimming alone is lost
 * without colour, and "Stable" read a minute ago is not the group's state now. */
static void draw_stale_mark(const struct ui *u, int y, const struct ui_col_slot *slots, size_t n, const lt_row *r,
			    int64_t age)
{
	lt_col_id want = r->part ? LT_COL_P_STATUS : LT_COL_STATE;
	const struct ui_col_slot *sl = n ? &slots[n - 1] : NULL; /* else the last column on screen */
	for (size_t i = 0; i < n; i++)
		if (slots[i].col->id == want)
			sl = &slots[i];
	if (!sl)
		return;
	char d[32], mark[48];
	format_duration_ms(age, d, sizeof d);
	snprintf(mark, sizeof mark, "stale %s", d);
	if ((int)strlen(mark) > sl->width) /* the word first: the age is on the group's row and in Enter's detail */
		snprintf(mark, sizeof mark, sl->width >= 5 ? "stale" : "~%s", d);
	fill_line(y, sl->x, sl->width);
	put_cells(u, y, sl->x, mark, sl->width, false);
}

/* A list taller than its pane says which rows it shows (1-based): rows scrolled off the top are never
 * hidden without a word. Empty when every row fits. */
static void rows_shown(const struct ui *u, size_t top, size_t n, int rows_h, char *buf, size_t len)
{
	buf[0] = '\0';
	if (rows_h <= 0 || n <= (size_t)rows_h)
		return;
	size_t last = top + (size_t)rows_h < n ? top + (size_t)rows_h : n;
	snprintf(buf, len, " (rows %zu%s%zu of %zu)", top + 1, utf8(u) ? "\u2013" : "-", last, n);
}

static void draw_pane_title(const struct ui *u, int y, bool focused, const char *title, const struct ui_list *l,
			    size_t shown, size_t total, const char *range)
{
	char buf[128];
	set_role(focused ? UI_ROLE_PANE_TITLE : UI_ROLE_NORMAL);
	fill_line(y, 0, u->geom.cols);
	int x = 0;
	mvaddstr(y, x, focused ? ">" : " ");
	x = 1;
	int tw = u->geom.cols / 2;
	put_cells(u, y, x, title, tw, false);
	x += display_width(title, utf8(u)) < tw ? display_width(title, utf8(u)) : tw;
	if (l && l->filter)
		snprintf(buf, sizeof buf, "  %zu of %zu", shown, total);
	else
		snprintf(buf, sizeof buf, "  %zu", shown);
	mvaddstr(y, x, buf);
	x += (int)strlen(buf);
	int range_w = display_width(range, utf8(u));
	if (range[0] && x + range_w < u->geom.cols) {
		mvaddstr(y, x, range);
		x += range_w;
	}
	if (l && l->filter && x + 12 < u->geom.cols) {
		set_role(UI_ROLE_FILTER);
		mvaddstr(y, x, "  filter: ");
		x += 10;
		put_cells(u, y, x, filter_text(l->filter), u->geom.cols - x - 1, false);
	}
}

static void draw_header(const struct ui *u, int y, const struct ui_col_slot *slots, size_t n, const struct ui_list *l)
{
	set_role(UI_ROLE_HEADER);
	fill_line(y, 0, u->geom.cols);
	for (size_t i = 0; i < n; i++) {
		const lt_column *c = slots[i].col;
		bool sorted = l && c->id == l->sort_col;
		char t[64];
		snprintf(t, sizeof t, "%s%s", c->title,
			 sorted ? (l->sort_desc ? u->glyphs->sort_desc : u->glyphs->sort_asc) : "");
		set_role(sorted ? UI_ROLE_HEADER_SORT : UI_ROLE_HEADER);
		put_cells(u, y, slots[i].x, t, slots[i].width, c->align_right);
	}
}

/* exact: an offset cell's exact text when the row's offsets fit exactly (layout_offsets_exact formatted it);
 * NULL: every offset is abbreviated */
static void draw_cell(const struct ui *u, int y, const struct ui_col_slot *sl, const lt_row *r, const char *exact)
{
	char buf[256];
	if (sl->col->series) {
		size_t nv = 0;
		const int64_t *v = sl->col->series(r, &nv);
		sparkline(u, v, nv, sl->width, buf, sizeof buf);
		int w = display_width(buf, utf8(u));
		fill_line(y, sl->x, sl->width - w);
		mvaddstr(y, sl->x + sl->width - w, buf); /* glyphs only: nothing untrusted */
		return;
	}
	/* offsets and counts are shown exactly when they fit: operators compare them with other tools */
	const char *text = buf;
	if (sl->col->offset) {
		if (exact)
			text = exact;
		else
			sl->col->format(r, buf, sizeof buf, false);
	} else if (sl->col->exact_when_fits) {
		sl->col->format(r, buf, sizeof buf, true);
		if ((int)strlen(buf) > sl->width)
			sl->col->format(r, buf, sizeof buf, false);
	} else {
		sl->col->format(r, buf, sizeof buf, false);
	}
	put_cells(u, y, sl->x, text, sl->width, sl->col->align_right);
}

static void clamp_scroll(size_t *top, size_t cursor, size_t n, int h)
{
	if (h <= 0)
		return;
	if (cursor < *top)
		*top = cursor;
	if (cursor >= *top + (size_t)h)
		*top = cursor - (size_t)h + 1;
	if (n > (size_t)h && *top > n - (size_t)h)
		*top = n - (size_t)h;
	if (n <= (size_t)h)
		*top = 0;
}

int screen_mark_gutter(const struct ui *u, const struct ui_list *l)
{
	return l == &u->parts && ui_open_marks(u) ? 2 : 0;
}

size_t screen_list_slots(const struct ui *u, const struct ui_list *l, struct ui_col_slot *out)
{
	const lt_column *cols[LT_COL__COUNT];
	size_t ncol = ui_pane_columns(u, l, cols);
	int gutter = screen_mark_gutter(u, l);
	size_t n = layout_columns_of(cols, ncol, u->geom.cols - gutter, l->name_want, out);
	for (size_t i = 0; i < n; i++)
		out[i].x += gutter;
	return n;
}

/* wall: the draw's clock (stale rows' ages) */
static void draw_list(struct ui *u, struct ui_list *l, int y, int h, bool focused, const char *title, size_t total,
		      int64_t wall)
{
	struct ui_col_slot slots[LT_COL__COUNT];
	size_t n = screen_list_slots(u, l, slots);
	int gutter = screen_mark_gutter(u, l);
	const lt_markset *marks = gutter ? ui_open_marks(u) : NULL;

	int rows_h = h - 2;
	char range[64] = "";
	if (rows_h > 0) {
		clamp_scroll(&l->top, l->cursor, l->n_rows, rows_h);
		rows_shown(u, l->top, l->n_rows, rows_h, range, sizeof range);
	}
	draw_pane_title(u, y, focused, title, l, l->n_rows, total, range);
	if (h < 2)
		return;
	draw_header(u, y + 1, slots, n, l);
	for (int i = 0; i < rows_h; i++) {
		size_t ri = l->top + (size_t)i;
		int ly = y + 2 + i;
		if (ri >= l->n_rows) {
			set_role(UI_ROLE_NORMAL);
			fill_line(ly, 0, u->geom.cols);
			continue;
		}
		const lt_row *r = &l->rows[ri];
		ui_role role = row_role(r);
		if (ri == l->cursor)
			role = focused ? UI_ROLE_CURSOR : UI_ROLE_CURSOR_UNFOCUSED;
		set_role(role);
		fill_line(ly, 0, u->geom.cols);
		/* a marked partition: '*' in the gutter, bold (no colour or UTF-8 needed to see it) */
		if (marks && markset_has(marks, r)) {
			attron(A_BOLD);
			mvaddstr(ly, 0, "*");
			set_role(role);
		}
		char exact[LT_COL__COUNT][LAYOUT_CELL_BYTES];
		bool offsets_exact = layout_offsets_exact(slots, n, r, exact);
		for (size_t c = 0; c < n; c++) {
			/* a value above its threshold (the column's warn: time lag, offsets about to expire):
			 * that cell in the warning colour */
			bool high = ri != l->cursor && slots[c].col->warn && slots[c].col->warn(r);
			if (high)
				set_role(UI_ROLE_STATUS_WARN);
			draw_cell(u, ly, &slots[c], r, offsets_exact ? exact[c] : NULL);
			if (high)
				set_role(role);
		}
		int64_t stale_age = row_stale_age(u, r, wall);
		if (stale_age > 0)
			draw_stale_mark(u, ly, slots, n, r, stale_age);
	}
	if (l->n_rows == 0 && rows_h > 0) {
		set_role(UI_ROLE_NORMAL);
		mvaddstr(y + 2, 2,
			 l->filter ? "(no rows match the filter; Esc clears it)"
				   : (u->snap ? "(nothing here)" : "(waiting for data)"));
	}
}

/* ---- members pane ---- */

size_t screen_members_count(const struct ui *u)
{
	const lt_group *g = ui_open_group_ptr(u);
	return g ? g->n_members : 0;
}

static const lt_column member_cols[] = {
	{ .title = "MEMBER-ID", .width = 20, .priority = 100 },
	{ .title = "CLIENT-ID", .width = 18, .priority = 80 },
	{ .title = "HOST", .width = 16, .priority = 60 },
	{ .title = "PARTITIONS", .width = 20, .priority = 90 },
};

/* The members pane's columns at this width; PARTITIONS, the last, reaches to the screen's edge (the room the
 * layout gives the first column goes to it instead), since a member's partitions wrap there. */
static size_t members_layout(const struct ui *u, struct ui_col_slot *slots)
{
	size_t n = layout_columns(member_cols, 4, u->geom.cols, 48, slots);
	if (n < 2 || slots[n - 1].col != &member_cols[3])
		return n;
	int spare = slots[0].width - member_cols[0].width;
	if (spare > 0) {
		slots[0].width -= spare;
		for (size_t c = 1; c < n; c++)
			slots[c].x -= spare;
	}
	slots[n - 1].width = u->geom.cols - slots[n - 1].x;
	return n;
}

/* A member's partitions as ranges (format_assignment: clickstream:0-5,8), whole: malloc'd. */
static char *member_assignment(const lt_member *m)
{
	size_t len = 2; /* "-" for none */
	for (size_t i = 0; i < m->n_assigned; i++)
		len += strlen(m->assigned[i].topic) + 14; /* " topic:" or ",", and a partition or a range's end */
	char *buf = xmalloc(len);
	format_assignment(m->assigned, m->n_assigned, buf, len);
	return buf;
}

void screen_members_forget(struct ui *u)
{
	strv_free(u->n_mem_assigned, u->mem_assigned);
	u->mem_assigned = NULL;
	u->n_mem_assigned = 0;
	u->mem_group = NULL;
	if (u->mem_snap)
		snapshot_unref(u->mem_snap);
	u->mem_snap = NULL;
}

/* Each member's partitions text of g, the open group of the snapshot shown: made once per snapshot and group
 * (every draw and click would otherwise format them all again). The snapshot is held while they are, so a
 * group at the same address in a later snapshot is never taken for this one. NULL without a group. */
static char *const *members_text(struct ui *u, const lt_group *g)
{
	if (g && u->mem_snap == u->snap && u->mem_group == g)
		return u->mem_assigned;
	screen_members_forget(u);
	if (!g || !u->snap)
		return NULL;
	u->mem_snap = snapshot_ref(u->snap);
	u->mem_group = g;
	u->n_mem_assigned = g->n_members;
	u->mem_assigned = xcalloc(g->n_members ? g->n_members : 1, sizeof *u->mem_assigned);
	for (size_t i = 0; i < g->n_members; i++)
		u->mem_assigned[i] = member_assignment(&g->members[i]);
	return u->mem_assigned;
}

/* Where a member's partitions wrap: after a comma or at a blank (topic names and partitions are ASCII) */
#define MEMBER_BREAKS ","

/* Each member's height in lines: its partitions wrapped under PARTITIONS, at most max lines. */
static size_t *members_heights(struct ui *u, const lt_group *g, const struct ui_col_slot *slots, size_t n, size_t max)
{
	size_t nm = g ? g->n_members : 0;
	size_t *h = xcalloc(nm ? nm : 1, sizeof *h);
	bool wraps = n && slots[n - 1].col == &member_cols[3];
	char *const *text = wraps ? members_text(u, g) : NULL;
	for (size_t i = 0; i < nm; i++) {
		h[i] = text ? wrap_count(text[i], slots[n - 1].width, utf8(u), MEMBER_BREAKS) : 1;
		if (h[i] > max)
			h[i] = max;
	}
	return h;
}

/* The first member shown: the cursor's member wholly in view, and no blank below while members above it
 * would fit (the top stays in view when the list fits). */
static void members_scroll(struct ui *u, const size_t *h, size_t nm, size_t rows)
{
	if (nm == 0 || u->mem_top >= nm || u->mem_cursor < u->mem_top)
		u->mem_top = u->mem_cursor < nm ? u->mem_cursor : 0;
	size_t used = 0;
	for (size_t i = u->mem_top; i <= u->mem_cursor && i < nm; i++)
		used += h[i];
	while (u->mem_top < u->mem_cursor && used > rows)
		used -= h[u->mem_top++];
	size_t below = 0;
	for (size_t i = u->mem_top; i < nm; i++)
		below += h[i];
	while (u->mem_top > 0 && below + h[u->mem_top - 1] <= rows)
		below += h[--u->mem_top];
}

size_t screen_member_at(struct ui *u, int line)
{
	const lt_group *g = ui_open_group_ptr(u);
	size_t nm = g ? g->n_members : 0;
	struct ui_col_slot slots[4];
	size_t n = members_layout(u, slots);
	size_t *h = members_heights(u, g, slots, n, (size_t)(line > 0 ? line : 0) + 1);
	size_t i = u->mem_top;
	for (int y = 0; i < nm && y + (int)h[i] <= line; i++)
		y += (int)h[i];
	free(h);
	return i < nm ? i : SIZE_MAX;
}

/* One member's lines from y: its fields on the first, its partitions (assigned: its members_text) wrapped under
 * PARTITIONS (a member taller than the pane ends its last line in an ellipsis). */
static void draw_member(struct ui *u, int y, size_t lines, const lt_member *m, const char *assigned,
			const struct ui_col_slot *slots, size_t n)
{
	for (size_t c = 0; c < n; c++) {
		if (slots[c].col != &member_cols[3]) {
			const char *text = slots[c].col == &member_cols[0]   ? m->member_id
					   : slots[c].col == &member_cols[1] ? m->client_id
									     : m->host;
			put_cells(u, y, slots[c].x, text ? text : "-", slots[c].width, false);
			continue;
		}
		size_t len = strlen(assigned), off = 0;
		for (size_t l = 0; l < lines && off < len; l++) {
			size_t shown = len - off, take = shown;
			if (l + 1 < lines)
				take = wrap_line(assigned + off, len - off, slots[c].width, utf8(u), MEMBER_BREAKS,
						 &shown);
			char *part = xstrndup(assigned + off, shown);
			put_cells(u, y + (int)l, slots[c].x, part, slots[c].width, false);
			free(part);
			off += take;
		}
	}
}

static void draw_members(struct ui *u, int y, int h, bool focused)
{
	const lt_group *g = ui_open_group_ptr(u);
	char title[300];
	char *safe = sanitize_dup(u->open_group, utf8(u));
	/* the group's type here rather than in a column: librdkafka gives members no type of their own */
	const char *type = g ? group_type_name(g->type) : NULL;
	snprintf(title, sizeof title, "Members of %s%s%s%s", safe, g ? "" : " (gone)", type ? " (type " : "",
		 type ? type : "");
	if (type)
		strncat(title, ")", sizeof title - strlen(title) - 1);
	free(safe);
	size_t nm = g ? g->n_members : 0;
	draw_pane_title(u, y, focused, title, NULL, nm, nm, "");
	if (h < 2)
		return;
	struct ui_col_slot slots[4];
	size_t n = members_layout(u, slots);
	draw_header(u, y + 1, slots, n, NULL);
	int rows_h = h - 2;
	size_t *heights = members_heights(u, g, slots, n, rows_h > 0 ? (size_t)rows_h : 1);
	char *const *text = members_text(u, g);
	members_scroll(u, heights, nm, rows_h > 0 ? (size_t)rows_h : 0);
	size_t mi = u->mem_top;
	for (int i = 0; i < rows_h;) {
		size_t lines = mi < nm ? heights[mi] : 1;
		set_role(mi == u->mem_cursor && mi < nm ? (focused ? UI_ROLE_CURSOR : UI_ROLE_CURSOR_UNFOCUSED)
							: UI_ROLE_NORMAL);
		for (size_t l = 0; l < lines && i + (int)l < rows_h; l++)
			fill_line(y + 2 + i + (int)l, 0, u->geom.cols);
		if (mi < nm)
			draw_member(u, y + 2 + i, lines, &g->members[mi], text[mi], slots, n);
		i += (int)lines;
		mi++;
	}
	free(heights);
	if (nm == 0 && rows_h > 0) {
		set_role(UI_ROLE_NORMAL);
		if (g && !group_members_known(g))
			put_cells(u, y + 2, 2, "(" LT_MEMBERS_UNREADABLE_NOTE ")", u->geom.cols - 3, false);
		else
			mvaddstr(y + 2, 2, "(no members: the group is empty)");
	}
}

/* ---- key bar ---- */

/* Puts k in the bar after the slots so far; false when it does not fit the width (the bar is full). */
static bool key_bar_add(const struct ui *u, const struct ui_key *k, struct ui_bar_slot *out, size_t *n, int *x)
{
	int width = (int)strlen(k->name) + (int)strlen(k->bar);
	if (*x + width + 1 > u->geom.cols)
		return false;
	out[(*n)++] = (struct ui_bar_slot){ .key = k, .x = *x, .width = width };
	*x += width + 1; /* a blank between two keys */
	return true;
}

/* The keys the bar shows at this width, focus and mode, left to right with a blank between: in a replay its
 * own keys first, then the main table's that fit (not those that would write: a replay refuses them). */
static size_t key_bar_layout(const struct ui *u, struct ui_bar_slot *out, size_t max)
{
	const struct ui_geom *g = &u->geom;
	size_t n = 0;
	int x = 0;
	for (size_t i = 0; u->replay && replay_keys_at(i) && n < max; i++)
		if (keys_in_bar(replay_keys_at(i), g->cols) && !key_bar_add(u, replay_keys_at(i), out, &n, &x))
			return n;
	for (size_t i = 0; keys_at(i) && n < max; i++) {
		const struct ui_key *k = keys_at(i);
		if (!keys_in_bar(k, g->cols) || !keys_enabled(k, u->read_only || u->replay) || !(k->panes & u->focus))
			continue;
		if (!key_bar_add(u, k, out, &n, &x))
			break;
	}
	return n;
}

static void draw_key_bar(const struct ui *u)
{
	const struct ui_geom *g = &u->geom;
	int y = g->keys_y, x = 0;
	set_role(UI_ROLE_NORMAL);
	fill_line(y, 0, g->cols);
	char prompt[128];
	if (replay_prompt(u, prompt, sizeof prompt)) {
		set_role(UI_ROLE_FILTER);
		put_cells(u, y, 0, prompt, g->cols - 1, false);
		x = display_width(prompt, utf8(u));
		set_role(UI_ROLE_CURSOR);
		if (x < g->cols)
			mvaddstr(y, x, " ");
		return;
	}
	if (u->filter_editing) {
		set_role(UI_ROLE_FILTER);
		mvaddstr(y, 0, "Filter: ");
		x = 8;
		int room = g->cols - x - 40;
		if (room < 10)
			room = 10;
		char buf[CELL_BYTES];
		int w = fit_cells(u->filter_buf, room, utf8(u), buf, sizeof buf);
		mvaddstr(y, x, buf);
		x += w;
		set_role(UI_ROLE_CURSOR);
		mvaddstr(y, x, " ");
		x += 2;
		set_role(u->filter_err[0] ? UI_ROLE_MESSAGE : UI_ROLE_NORMAL);
		put_cells(u, y, x, u->filter_err[0] ? u->filter_err : "Enter keep  Esc clear", g->cols - x, false);
		return;
	}
	if (u->msg[0]) {
		set_role(UI_ROLE_MESSAGE);
		put_cells(u, y, 1, u->msg, g->cols - 1, false);
		return;
	}
	struct ui_bar_slot slots[UI_KEY_BAR_MAX];
	size_t n = key_bar_layout(u, slots, UI_KEY_BAR_MAX);
	for (size_t i = 0; i < n; i++) {
		const struct ui_key *k = slots[i].key;
		x = slots[i].x;
		set_role(UI_ROLE_KEY_BAR_KEY);
		mvaddstr(y, x, k->name);
		x += (int)strlen(k->name);
		set_role(UI_ROLE_KEY_BAR_LABEL);
		mvaddstr(y, x, k->bar);
	}
}

size_t screen_key_bar_slots(const struct ui *u, struct ui_bar_slot *out, size_t max)
{
	char prompt[128];
	/* the bar shows a prompt, the filter line or a message instead of its keys (draw_key_bar's order) */
	if (u->geom.too_small || u->filter_editing || u->msg[0] || replay_prompt(u, prompt, sizeof prompt))
		return 0;
	return key_bar_layout(u, out, max);
}

/* ---- popups ---- */

struct popup {
	int y, x, h, w;
};

static void popup_frame(const struct ui *u, struct popup *p, int want_h, int want_w, const char *title)
{
	const struct ui_geom *g = &u->geom;
	p->h = want_h < g->lines - 2 ? want_h : g->lines - 2;
	p->w = want_w < g->cols - 2 ? want_w : g->cols - 2;
	p->y = (g->lines - p->h) / 2;
	p->x = (g->cols - p->w) / 2;
	set_role(UI_ROLE_POPUP);
	for (int i = 0; i < p->h; i++)
		fill_line(p->y + i, p->x, p->w);
	if (u->ascii) {
		for (int i = 1; i < p->w - 1; i++) {
			mvaddch(p->y, p->x + i, '-');
			mvaddch(p->y + p->h - 1, p->x + i, '-');
		}
		for (int i = 1; i < p->h - 1; i++) {
			mvaddch(p->y + i, p->x, '|');
			mvaddch(p->y + i, p->x + p->w - 1, '|');
		}
		mvaddch(p->y, p->x, '+');
		mvaddch(p->y, p->x + p->w - 1, '+');
		mvaddch(p->y + p->h - 1, p->x, '+');
		mvaddch(p->y + p->h - 1, p->x + p->w - 1, '+');
	} else {
		mvhline(p->y, p->x + 1, ACS_HLINE, p->w - 2);
		mvhline(p->y + p->h - 1, p->x + 1, ACS_HLINE, p->w - 2);
		mvvline(p->y + 1, p->x, ACS_VLINE, p->h - 2);
		mvvline(p->y + 1, p->x + p->w - 1, ACS_VLINE, p->h - 2);
		mvaddch(p->y, p->x, ACS_ULCORNER);
		mvaddch(p->y, p->x + p->w - 1, ACS_URCORNER);
		mvaddch(p->y + p->h - 1, p->x, ACS_LLCORNER);
		mvaddch(p->y + p->h - 1, p->x + p->w - 1, ACS_LRCORNER);
	}
	set_role(UI_ROLE_POPUP_TITLE);
	char t[128];
	snprintf(t, sizeof t, " %s ", title);
	put_cells(u, p->y, p->x + 2, t, display_width(t, utf8(u)) < p->w - 4 ? display_width(t, utf8(u)) : p->w - 4,
		  false);
	set_role(UI_ROLE_POPUP);
}

static void add_line(char ***lines, size_t *n, char *line)
{
	*lines = xrealloc(*lines, (*n + 1) * sizeof **lines);
	(*lines)[(*n)++] = line;
}

/* Lines of a scrolling popup: line i of n at inner row i - top. */
static void popup_lines(struct ui *u, const struct popup *p, char *const *lines, size_t n)
{
	int inner = p->h - 2;
	if (inner <= 0)
		return;
	if ((size_t)u->popup_top + (size_t)inner > n)
		u->popup_top = n > (size_t)inner ? (int)(n - (size_t)inner) : 0;
	for (int i = 0; i < inner && (size_t)(u->popup_top + i) < n; i++)
		put_cells(u, p->y + 1 + i, p->x + 2, lines[u->popup_top + i], p->w - 4, false);
	if (n > (size_t)inner) {
		char more[32];
		snprintf(more, sizeof more, " %d-%d of %zu ", u->popup_top + 1, u->popup_top + inner, n);
		mvaddstr(p->y + p->h - 1, p->x + p->w - 2 - (int)strlen(more), more);
	}
}

/* v: the record popup (peek_ui.c) */
static void draw_peek(struct ui *u)
{
	const char *title;
	size_t n = 0;
	char *const *lines = ui_peek_lines(u, &title, &n);
	struct popup p;
	popup_frame(u, &p, (int)n + 2, u->geom.cols - 4, title);
	popup_lines(u, &p, lines, n);
}

static void help_columns(char ***lines, size_t *n, const char *pane, lt_row_kind kind)
{
	size_t nc;
	const lt_column *c = columns_for(kind, &nc);
	add_line(lines, n, xstrdup(""));
	add_line(lines, n, xasprintf("%s columns:", pane));
	for (size_t i = 0; i < nc; i++)
		add_line(lines, n, xasprintf("%-12s %s", c[i].title, c[i].help ? c[i].help : ""));
}

/* One mode's keys, from its table: the main one without a heading, the others under theirs. */
static void help_mode_keys(char ***lines, size_t *n, const struct ui_key_mode *m, bool read_only)
{
	if (m->opened_by) {
		add_line(lines, n, xstrdup(""));
		add_line(lines, n, xasprintf("%s (%s):", m->name, m->opened_by));
	}
	char **keys = keys_mode_help_lines(m, read_only, 12);
	for (size_t i = 0; keys[i]; i++)
		add_line(lines, n, xstrdup(keys[i]));
	keys_help_free(keys);
	if (m->other_help)
		add_line(lines, n, xasprintf("%-12s %s", "other keys", m->other_help));
}

/* The reset and delete dialog's keys, from its table (reset_dialog.c). */
static void help_reset_keys(char ***lines, size_t *n)
{
	size_t nk = 0;
	while (rd_keys_at(nk))
		nk++;
	const char **names = xcalloc(nk + 1, sizeof *names), **helps = xcalloc(nk + 1, sizeof *helps);
	for (size_t i = 0; i < nk; i++) {
		names[i] = rd_keys_at(i)->name;
		helps[i] = rd_keys_at(i)->help;
	}
	add_line(lines, n, xstrdup(""));
	add_line(lines, n, xstrdup(RD_KEYS_HEADING " (R, U, D):"));
	char **keys = keys_help_join(nk, names, helps, 12);
	for (size_t i = 0; keys[i]; i++)
		add_line(lines, n, xstrdup(keys[i]));
	keys_help_free(keys);
	add_line(lines, n, xasprintf("%-12s %s", "other keys", "typed text: the target's value, or the group name"));
	free(names);
	free(helps);
}

static void draw_help(struct ui *u)
{
	char **lines = NULL;
	size_t k = 0;
	/* a replay's own keys first: the ones that matter there, on the first page at 80x24 */
	char **rkeys = u->replay ? replay_help_lines(12) : NULL;
	for (size_t i = 0; rkeys && rkeys[i]; i++)
		add_line(&lines, &k, xstrdup(rkeys[i]));
	keys_help_free(rkeys);
	help_mode_keys(&lines, &k, keys_mode_at(0), u->read_only);
	add_line(&lines, &k, xstrdup(""));
	add_line(&lines, &k,
		 xasprintf("Mouse: %s (M toggles; --no-mouse or mouse = false start without it)",
			   u->mouse ? "on: click selects, wheel scrolls, a header sorts; Shift-drag selects text"
				    : "off: the terminal's own selection copies text"));
	add_line(&lines, &k, xstrdup(""));
	add_line(&lines, &k, xstrdup("FILTER (/): a case-insensitive substring, or an extended regex when it has a"));
	add_line(&lines, &k, xstrdup("regex character. Groups pane: the group id or any topic the group reads;"));
	add_line(&lines, &k, xstrdup("partitions: the group id or the topic; topics pane (T): the topic or any"));
	add_line(&lines, &k, xstrdup("group reading it; a topic's groups: the group id."));
	/* the keys of the modes that take them while open: the filter prompt, the cluster chooser, the popups */
	for (size_t i = 1; keys_mode_at(i); i++)
		help_mode_keys(&lines, &k, keys_mode_at(i), u->read_only);
	if (!u->read_only) /* the dialog only opens on R, U and D */
		help_reset_keys(&lines, &k);
	help_columns(&lines, &k, "Groups pane", LT_ROWS_GROUPS);
	help_columns(&lines, &k, "Partitions pane", LT_ROWS_PARTITIONS);
	help_columns(&lines, &k, "Topics pane (T)", LT_ROWS_TOPICS);
	help_columns(&lines, &k, "A topic's groups pane", LT_ROWS_TOPIC_GROUPS);
	struct popup p;
	popup_frame(u, &p, (int)k + 2, 78, "lagtop help (Esc closes, arrows scroll)");
	popup_lines(u, &p, lines, k);
	for (size_t i = 0; i < k; i++)
		free(lines[i]);
	free(lines);
}

static const lt_partition *find_partition(const lt_group *g, const lt_row_key *key)
{
	if (!g || !key->topic)
		return NULL;
	for (size_t i = 0; i < g->n_partitions; i++)
		if (g->partitions[i].partition == key->partition && strcmp(g->partitions[i].topic, key->topic) == 0)
			return &g->partitions[i];
	return NULL;
}

static void draw_detail(struct ui *u)
{
	const lt_group *g = u->snap && u->detail.group ? snapshot_find_group(u->snap, u->detail.group) : NULL;
	const lt_partition *p = find_partition(g, &u->detail);
	char **lines = NULL;
	size_t n = 0;
	char *sg = sanitize_dup(u->detail.group, utf8(u)), *st = sanitize_dup(u->detail.topic, utf8(u));
	char title[256];
	snprintf(title, sizeof title, "%s [%" PRId32 "]", st, u->detail.partition);

	add_line(&lines, &n, xasprintf("group      %s", sg));
	if (g && !group_members_known(g))
		add_line(&lines, &n, xstrdup("owner      ? (KIP-848 group: members unreadable, see 'e')"));
	if (!p) {
		add_line(&lines, &n, xstrdup("(this partition is no longer in the group's data)"));
	} else {
		lt_row r = { g, p, NULL };
		size_t nc;
		const lt_column *cols = columns_for(LT_ROWS_PARTITIONS, &nc);
		for (size_t i = 0; i < nc; i++) {
			if (cols[i].id == LT_COL_TOPIC || cols[i].id == LT_COL_PARTITION)
				continue;
			char v[256];
			cols[i].format(&r, v, sizeof v, true);
			char *sv = sanitize_dup(v, utf8(u));
			add_line(&lines, &n, xasprintf("%-10s %s", cols[i].title, sv));
			free(sv);
		}
		char flags[256] = "";
		static const struct {
			unsigned bit;
			const char *text;
		} fl[] = {
			{ LT_PF_OUT_OF_RANGE, "out-of-range (committed < log start)" },
			{ LT_PF_AHEAD_OF_END, "ahead-of-end (committed > log end)" },
			{ LT_PF_STALE, "stale" },
			{ LT_PF_NO_LEADER, "no-leader" },
			{ LT_PF_LOG_UNKNOWN, "log-offsets-unknown (the leader's ListOffsets failed or timed out)" },
			{ LT_PF_UNASSIGNED, "unassigned" },
			{ LT_PF_IDLE, "idle" },
			{ LT_PF_TIME_LAG_HIGH, "time-lag-high (above time_lag_threshold)" },
			{ LT_PF_NOT_COMMITTING, "not-committing (position moves, committed offset does not)" },
			{ LT_PF_EXPIRED, "expired (offsets.retention.minutes)" },
		};
		for (size_t i = 0; i < sizeof fl / sizeof fl[0]; i++)
			if (p->flags & fl[i].bit)
				snprintf(flags + strlen(flags), sizeof flags - strlen(flags), "%s%s",
					 flags[0] ? ", " : "", fl[i].text);
		add_line(&lines, &n, xasprintf("flags      %s", flags[0] ? flags : "none"));
		if (p->flags & LT_PF_EXPIRED) {
			add_line(&lines, &n,
				 xstrdup("           the broker deleted the committed offset: on restart the"));
			add_line(&lines, &n,
				 xstrdup("           consumers start from their auto.offset.reset, which the"));
			add_line(&lines, &n, xstrdup("           broker does not know"));
		}
		if (p->flags & LT_PF_STALE) {
			char d[32];
			format_duration_ms(partition_stale_ms(g, p), d, sizeof d);
			add_line(&lines, &n, xasprintf("stale for  %s", d));
		}
		int32_t psrc = partition_position_source(g, p);
		if (p->has_position && psrc >= 0 && (size_t)psrc < u->snap->n_pos_sources) {
			char d[32];
			format_duration_ms(partition_position_age_ms(g, p), d, sizeof d);
			char *sl = sanitize_dup(u->snap->pos_sources[psrc].location, utf8(u));
			add_line(&lines, &n, xasprintf("position   from %s, %s old", sl, d));
			free(sl);
		}
		const char *md = partition_commit_metadata(g, p);
		if (md && md[0]) {
			char *sm = sanitize_dup(md, utf8(u));
			add_line(&lines, &n, xasprintf("metadata   %s", sm));
			free(sm);
		}
		int64_t hist[64];
		size_t nh = u->src->ops->partition_lags(u->src, u->detail.group, u->detail.topic, u->detail.partition,
							hist, 64);
		if (nh) {
			char spark[64 * 4 + 8], lo[32], hi[32];
			sparkline(u, hist, nh, 50, spark, sizeof spark);
			int64_t mn = hist[0], mx = hist[0];
			for (size_t i = 1; i < nh; i++) {
				mn = hist[i] < mn ? hist[i] : mn;
				mx = hist[i] > mx ? hist[i] : mx;
			}
			format_count(mn, lo, sizeof lo);
			format_count(mx, hi, sizeof hi);
			add_line(&lines, &n, xstrdup(""));
			add_line(&lines, &n, xasprintf("lag history (%zu samples, min %s, max %s):", nh, lo, hi));
			add_line(&lines, &n, xasprintf("  %s", spark));
		} else {
			add_line(&lines, &n, xstrdup("lag history: none yet"));
		}
	}
	struct popup pp;
	popup_frame(u, &pp, (int)n + 2, 70, title);
	/* lines were sanitized piecewise above; the sparkline holds only glyphs */
	popup_lines(u, &pp, lines, n);
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
	free(sg);
	free(st);
}

/* One cause of the groups' errors: the text, how many groups, the first few names. */
struct error_cause {
	char *text;
	size_t count;
	char names[96];
};

#define CAUSE_NAMES 3 /* names listed per cause; the rest counted */

static void cause_add(struct error_cause **v, size_t *n, char *text, const char *group)
{
	struct error_cause *c = NULL;
	for (size_t i = 0; i < *n && !c; i++)
		if (!strcmp((*v)[i].text, text))
			c = &(*v)[i];
	if (c)
		free(text);
	else {
		*v = xrealloc(*v, (*n + 1) * sizeof **v);
		c = &(*v)[(*n)++];
		*c = (struct error_cause){ .text = text };
	}
	if (c->count++ < CAUSE_NAMES) {
		size_t len = strlen(c->names);
		snprintf(c->names + len, sizeof c->names - len, "%s%s", len ? ", " : "", group);
	}
}

/* The groups' errors, one line per cause (a dead cluster is one cause, not a line per group): the count,
 * the cause and the first few groups, in the order first seen. */
static void error_causes(const lt_snapshot *s, char ***lines, size_t *n)
{
	struct error_cause *v = NULL;
	size_t nc = 0;
	for (size_t i = 0; s && i < s->n_unread; i++) /* what was not read and has no row */
		if (s->unread[i].group)
			cause_add(&v, &nc, xasprintf("not read: %s", s->unread[i].reason), s->unread[i].group);
	for (size_t i = 0; s && i < s->n_groups; i++)
		if (s->groups[i].error)
			cause_add(&v, &nc, xstrdup(s->groups[i].error), s->groups[i].group);
	for (size_t i = 0; i < nc; i++) {
		char more[32] = "";
		if (v[i].count > CAUSE_NAMES)
			snprintf(more, sizeof more, ", +%zu more", v[i].count - CAUSE_NAMES);
		add_line(lines, n,
			 xasprintf("%zu group%s: %s [%s%s]", v[i].count, v[i].count == 1 ? "" : "s", v[i].text,
				   v[i].names, more));
		free(v[i].text);
	}
	free(v);
}

static void draw_error(struct ui *u)
{
	char **lines = NULL;
	size_t n = 0;
	const lt_snapshot *s = u->snap;
	if (s && s->error)
		add_line(&lines, &n, xasprintf("refresh: %s", s->error));
	for (size_t i = 0; s && i < s->n_unread; i++) /* a broker's group list: its groups have no row */
		if (!s->unread[i].group)
			add_line(&lines, &n,
				 xasprintf("group list of broker %d: not read: %s: its groups are missing",
					   (int)s->unread[i].broker, s->unread[i].reason));
	error_causes(s, &lines, &n);
	/* not an error, but what this librdkafka cannot see: said where errors are explained */
	char *unreadable = group_view_unreadable_line(s);
	if (unreadable)
		add_line(&lines, &n, unreadable);
	if (s && s->commit_stream_reason)
		add_line(&lines, &n,
			 xasprintf("commit stream (%s): %s", cstream_state_name(s->commit_stream),
				   s->commit_stream_reason));
	if (n == 0)
		add_line(&lines, &n, xstrdup("no errors in the last refresh"));
	/* long messages wrap into several lines, at blanks: group names stay whole */
	int w = u->geom.cols - 8 > 20 ? u->geom.cols - 8 : 20;
	char **wrapped = NULL;
	size_t nw = 0;
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(lines[i]), off = 0, shown;
		do {
			size_t take = wrap_line(lines[i] + off, len - off, w, utf8(u), NULL, &shown);
			add_line(&wrapped, &nw, xstrndup(lines[i] + off, shown));
			off += take;
		} while (off < len);
		free(lines[i]);
	}
	free(lines);
	struct popup p;
	popup_frame(u, &p, (int)nw + 2, u->geom.cols - 4, "collection errors");
	popup_lines(u, &p, wrapped, nw);
	for (size_t i = 0; i < nw; i++)
		free(wrapped[i]);
	free(wrapped);
}

static void draw_clusters(struct ui *u)
{
	const struct tui_clusters *cl = u->clusters;
	struct popup p;
	int w = 30;
	for (size_t i = 0; i < cl->n; i++) {
		int dw = display_width(cl->names[i], utf8(u)) + 8;
		w = dw > w ? dw : w;
	}
	popup_frame(u, &p, (int)cl->n + 2, w, "cluster (Enter picks, Esc closes)");
	int inner = p.h - 2;
	int top = u->popup_top >= inner ? u->popup_top - inner + 1 : 0;
	for (int i = 0; i < inner && (size_t)(top + i) < cl->n; i++) {
		size_t ci = (size_t)(top + i);
		char line[300];
		char *safe = sanitize_dup(cl->names[ci], utf8(u));
		snprintf(line, sizeof line, "%s %s", ci == cl->current ? "*" : " ", safe);
		free(safe);
		set_role((int)ci == u->popup_top ? UI_ROLE_CURSOR : UI_ROLE_POPUP);
		put_cells(u, p.y + 1 + i, p.x + 1, line, p.w - 2, false);
	}
	set_role(UI_ROLE_POPUP);
}

/* The column setup and the sort chooser (columns_ui.c): a list with a cursor; the lines hold only column
 * titles and help, but go through put_cells like every line. */
static void draw_list_popup(struct ui *u)
{
	struct ui_list_popup v;
	ui_list_popup_view(u, &v);
	struct popup p;
	int w = display_width(v.title, utf8(u)) + 4;
	popup_frame(u, &p, (int)v.n + 2, w > 60 ? w : 60, v.title);
	int inner = p.h - 2;
	int top = (int)v.cursor >= inner ? (int)v.cursor - inner + 1 : 0;
	for (int i = 0; i < inner && (size_t)(top + i) < v.n; i++) {
		set_role((size_t)(top + i) == v.cursor ? UI_ROLE_CURSOR : UI_ROLE_POPUP);
		put_cells(u, p.y + 1 + i, p.x + 1, v.lines[top + i], p.w - 2, false);
	}
	set_role(UI_ROLE_POPUP);
	ui_list_popup_free(&v);
}

/* The reset dialog: title, a scrolling body (the targets, the plan, the result) and a fixed footer (input
 * line, totals, buttons, the last error). Every line goes through put_cells, which escapes it: group, topic
 * and client names and the cluster's messages are untrusted. */
static void draw_reset(struct ui *u)
{
	struct rd_view v;
	/* the widest box the screen allows, less the frame and margins: prose wraps to it */
	rd_view_build(u->reset, u->geom.cols - 2 - 4, utf8(u), &v);
	int w = 20;
	for (size_t i = 0; i < v.n_body; i++) {
		int dw = display_width(v.body[i], utf8(u)) + 4;
		w = dw > w ? dw : w;
	}
	for (size_t i = 0; i < v.n_foot; i++) {
		int dw = display_width(v.foot[i], utf8(u)) + 4;
		w = dw > w ? dw : w;
	}
	int tw = display_width(v.title, utf8(u)) + 8;
	w = tw > w ? tw : w;
	int foot = (int)v.n_foot + 1; /* a rule between body and footer */
	struct popup p;
	char *title = sanitize_dup(v.title, utf8(u));
	popup_frame(u, &p, (int)v.n_body + foot + 2, w, title);
	free(title);
	int body_h = p.h - 2 - foot;
	if (body_h < 1)
		body_h = 1;
	struct ui_reset *rd = u->reset;
	if (rd->top + body_h > (int)v.n_body)
		rd->top = (int)v.n_body > body_h ? (int)v.n_body - body_h : 0;
	for (int i = 0; i < body_h && (size_t)(rd->top + i) < v.n_body; i++) {
		int li = rd->top + i;
		set_role(li == v.hl ? UI_ROLE_CURSOR : UI_ROLE_POPUP);
		put_cells(u, p.y + 1 + i, p.x + 2, v.body[li], p.w - 4, false);
	}
	set_role(UI_ROLE_POPUP);
	if ((int)v.n_body > body_h) {
		char more[64]; /* two ints and a size_t in full: gcc -O2 -Wformat-truncation counts them */
		snprintf(more, sizeof more, " %d-%d of %zu ", rd->top + 1, rd->top + body_h, v.n_body);
		mvaddstr(p.y + 1 + body_h, p.x + p.w - 2 - (int)strlen(more), more);
	}
	int fy = p.y + 1 + body_h + 1;
	for (size_t i = 0; i < v.n_foot && fy + (int)i < p.y + p.h - 1; i++) {
		bool err = v.foot_err >= 0 && (int)i >= v.foot_err;
		set_role(err ? UI_ROLE_MESSAGE : UI_ROLE_POPUP);
		put_cells(u, fy + (int)i, p.x + 2, v.foot[i], p.w - 4, false);
		if ((int)i == v.foot_hl && v.btn_col + v.btn_len <= p.w - 4) {
			set_role(UI_ROLE_CURSOR);
			mvaddnstr(fy + (int)i, p.x + 2 + v.btn_col, v.foot[i] + v.btn_col, v.btn_len);
		}
	}
	set_role(UI_ROLE_POPUP);
	rd_view_free(&v);
}

/* ---- the frame ---- */

static void draw_too_small(const struct ui *u)
{
	char msg[96];
	set_role(UI_ROLE_NORMAL);
	snprintf(msg, sizeof msg, "terminal too small: %dx%d, need %dx%d", u->geom.cols, u->geom.lines, UI_MIN_COLS,
		 UI_MIN_LINES);
	int y = u->geom.lines / 2, x = 0;
	int len = (int)strlen(msg);
	if (len < u->geom.cols)
		x = (u->geom.cols - len) / 2;
	mvaddnstr(y > 0 ? y - 1 : 0, x, msg, u->geom.cols);
	if (u->geom.lines > 2)
		mvaddnstr(y + 1 < u->geom.lines ? y + 1 : y, 0, "q quits", u->geom.cols);
}

void screen_draw(struct ui *u)
{
	layout_screen(LINES, COLS, ui_bottom_pane(u) != 0, &u->geom);
	bkgdset((chtype)theme_attr(UI_ROLE_NORMAL) | ' ');
	erase();
	if (u->geom.too_small) {
		draw_too_small(u);
		refresh();
		return;
	}
	int64_t wall = now_wall_ms(); /* one clock for the whole frame: the top bar's ages and every stale row's */
	draw_top_bar(u, wall);
	unsigned top = ui_top_pane(u);
	if (u->topic_view)
		draw_list(u, &u->topics, u->geom.main_y, u->geom.main_h, u->focus == top, "Topics",
			  u->tview ? u->tview->n_topics : 0, wall);
	else
		draw_list(u, &u->groups, u->geom.main_y, u->geom.main_h, u->focus == top, "Groups",
			  u->snap ? u->snap->n_groups : 0, wall);
	if (u->open_group) {
		if (u->show_members) {
			draw_members(u, u->geom.bottom_y, u->geom.bottom_h, u->focus != top);
		} else {
			const lt_group *g = ui_open_group_ptr(u);
			const lt_markset *marks = ui_open_marks(u);
			char *safe = sanitize_dup(u->open_group, utf8(u));
			char marked[48] = "";
			if (marks)
				snprintf(marked, sizeof marked, " (%zu marked)", marks->n);
			char *t = xasprintf("Partitions of %s%s%s", safe, g ? "" : " (gone)", marked);
			draw_list(u, &u->parts, u->geom.bottom_y, u->geom.bottom_h, u->focus != top, t,
				  g ? g->n_partitions : 0, wall);
			free(t);
			free(safe);
		}
	} else if (u->topic_view && u->open_topic) {
		const lt_topic_stats *ts = topic_view_find(u->tview, u->open_topic);
		char *safe = sanitize_dup(u->open_topic, utf8(u));
		char *t = xasprintf("Groups reading %s%s", safe, ts ? "" : " (gone)");
		draw_list(u, &u->tgroups, u->geom.bottom_y, u->geom.bottom_h, u->focus != top, t, ts ? ts->n_groups : 0,
			  wall);
		free(t);
		free(safe);
	}
	draw_key_bar(u);
	switch (u->popup) {
	case UI_POPUP_HELP: draw_help(u); break;
	case UI_POPUP_DETAIL: draw_detail(u); break;
	case UI_POPUP_ERROR: draw_error(u); break;
	case UI_POPUP_CLUSTERS: draw_clusters(u); break;
	case UI_POPUP_RESET: draw_reset(u); break;
	case UI_POPUP_COLUMNS:
	case UI_POPUP_SORT: draw_list_popup(u); break;
	case UI_POPUP_PEEK: draw_peek(u); break;
	default: break;
	}
	refresh();
}
