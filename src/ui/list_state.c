/* list_state.c — the panes' lists: rows built from the snapshot, sorted and filtered, the cursor that
 * follows its row's identity across rebuilds, which pane has the focus, and moving through the rows.
 * UI thread only; no curses calls (test_ui_state drives it without a terminal). */
#include "config.h"

#include <stdlib.h>

#include "ui/ui.h"
#include "util/sanitize.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

static lt_row_kind list_kind_for(const struct ui *u, const struct ui_list *l)
{
	(void)u;
	return l->kind;
}

const lt_group *ui_open_group_ptr(const struct ui *u)
{
	if (!u->open_group || !u->snap)
		return NULL;
	return snapshot_find_group(u->snap, u->open_group);
}

/* Cells a name takes on screen. Plain ASCII (nearly every name) is its length, which is cheap over
 * 100,000 rows; anything else goes through the sanitizer's measure (escapes are wider). */
static int name_cells(const char *name, bool utf8)
{
	const unsigned char *p = (const unsigned char *)name;
	for (; *p; p++)
		if (*p < 0x20 || *p >= 0x7f)
			return display_width(name, utf8);
	return (int)(p - (const unsigned char *)name);
}

/* The name a row is known by (the first column): group, topic, or a topic's group. */
static const char *row_name(const lt_row *r)
{
	if (r->topic)
		return r->group ? r->group->group : r->topic->topic;
	return r->part ? r->part->topic : r->group->group;
}

void ui_list_adopt(struct ui *u, struct ui_list *l, lt_row *rows, size_t n)
{
	if (n)
		rows_sort(rows, n, l->sort_col, l->sort_desc);

	size_t cursor = l->cursor;
	if (l->has_sel) {
		for (size_t i = 0; i < n; i++)
			if (row_key_equal(&l->sel, &rows[i])) {
				cursor = i;
				break;
			}
	}
	if (cursor >= n)
		cursor = n ? n - 1 : 0;
	/* keep the cursor on the same screen line when its row moved */
	if (cursor != l->cursor) {
		size_t line = l->cursor >= l->top ? l->cursor - l->top : 0;
		l->top = cursor >= line ? cursor - line : 0;
	}
	l->cursor = cursor;
	free(l->rows);
	l->rows = rows;
	l->n_rows = n;
	row_key_clear(&l->sel);
	l->has_sel = n > 0;
	if (n)
		row_key_set(&l->sel, &rows[cursor]);

	int want = 0;
	for (size_t i = 0; i < n; i++) {
		int w = name_cells(row_name(&rows[i]), !u->ascii);
		if (w > want)
			want = w;
	}
	l->name_want = want;
}

static void list_rebuild(struct ui *u, struct ui_list *l, const lt_group *group)
{
	lt_row *rows = NULL;
	size_t n = 0;
	if (u->snap && (l->kind == LT_ROWS_GROUPS || group))
		rows = rows_build(u->snap, list_kind_for(u, l), group, l->filter, &n);
	ui_list_adopt(u, l, rows, n);
}

void ui_rebuild_rows(struct ui *u)
{
	list_rebuild(u, &u->groups, NULL);
	list_rebuild(u, &u->parts, ui_open_group_ptr(u));
	ui_prune_marks(u);
	ui_rebuild_topic_rows(u);
	if (u->open_group) {
		size_t nm = screen_members_count(u);
		if (u->mem_cursor >= nm)
			u->mem_cursor = nm ? nm - 1 : 0;
	}
}

struct ui_list *ui_focused_list(struct ui *u)
{
	switch (u->focus) {
	case UI_PANE_GROUPS: return &u->groups;
	case UI_PANE_PARTS: return &u->parts;
	case UI_PANE_TOPICS: return &u->topics;
	case UI_PANE_TOPIC_GROUPS: return &u->tgroups;
	default: return NULL;
	}
}

unsigned ui_top_pane(const struct ui *u)
{
	return u->topic_view ? UI_PANE_TOPICS : UI_PANE_GROUPS;
}

unsigned ui_bottom_pane(const struct ui *u)
{
	if (u->open_group)
		return u->show_members ? UI_PANE_MEMBERS : UI_PANE_PARTS;
	return u->topic_view && u->open_topic ? UI_PANE_TOPIC_GROUPS : 0;
}

int ui_page_rows(const struct ui *u)
{
	int h = u->focus == ui_top_pane(u) ? u->geom.main_h : u->geom.bottom_h;
	return h > 2 ? h - 2 : 1; /* title and header lines */
}

static void cursor_moved(struct ui *u, struct ui_list *l)
{
	row_key_clear(&l->sel);
	l->has_sel = l->n_rows > 0;
	if (l->n_rows)
		row_key_set(&l->sel, &l->rows[l->cursor]);
	/* hold re-sorting and new data while the user moves through the rows */
	u->hold_until = now_mono_ms() + UI_HOLD_MS;
	u->dirty |= UI_DIRTY_DRAW;
}

void ui_move(struct ui *u, long delta)
{
	struct ui_list *l = ui_focused_list(u);
	size_t *cursor, n;
	if (l) {
		cursor = &l->cursor;
		n = l->n_rows;
	} else {
		cursor = &u->mem_cursor;
		n = screen_members_count(u);
	}
	if (n == 0)
		return;
	long c = (long)*cursor + delta;
	if (c < 0)
		c = 0;
	if (c >= (long)n)
		c = (long)n - 1;
	*cursor = (size_t)c;
	if (l)
		cursor_moved(u, l);
	else
		u->dirty |= UI_DIRTY_DRAW;
}

void ui_move_to(struct ui *u, bool end)
{
	struct ui_list *l = ui_focused_list(u);
	size_t n = l ? l->n_rows : screen_members_count(u);
	ui_move(u, end ? (long)n : -(long)n);
}

void ui_open_group(struct ui *u, const lt_group *g)
{
	free(u->open_group);
	u->open_group = xstrdup(g->group);
	ui_marks_follow(u);
	u->parts.cursor = u->parts.top = 0;
	row_key_clear(&u->parts.sel);
	u->parts.has_sel = false;
	if (u->parts.filter) {
		filter_free(u->parts.filter);
		u->parts.filter = NULL;
	}
	u->mem_cursor = u->mem_top = 0;
	u->focus = u->show_members ? UI_PANE_MEMBERS : UI_PANE_PARTS;
	u->dirty |= UI_DIRTY_ROWS;
}
