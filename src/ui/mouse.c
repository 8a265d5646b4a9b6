/* mouse.c — the mouse, as in htop: a click selects a row (and focuses its pane), the wheel moves the
 * cursor, a click on a column header sorts by that column (again: the other direction). M turns it on
 * and off at run time; --no-mouse and the config's mouse = false start with it off, so the terminal's own
 * selection copies text (with the mouse on, most terminals select with Shift-drag). A click on a key in the
 * key bar is that key, as htop's function-key bar.
 *
 * ui_mouse_event is the mapping from a screen cell to an action, over the geometry of the last draw and
 * the same column layout the screen used (screen_list_slots); ui_mouse_key reads the event from curses. */
#include "config.h"

#include <curses.h>

#include "ui/keys.h"
#include "ui/ui.h"

/* Rows the wheel moves the cursor per notch. */
#define WHEEL_ROWS 3

void ui_set_mouse(struct ui *u, bool on)
{
	u->mouse = on;
	if (!stdscr)
		return; /* no terminal (unit tests): only the state */
	mmask_t want = on ? (BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED) : 0;
	mousemask(want, NULL);
	mouseinterval(0); /* report presses at once: no wait to tell a click from a double click */
}

/* The list shown in a pane (NULL for the members pane). */
static struct ui_list *pane_list(struct ui *u, unsigned pane)
{
	switch (pane) {
	case UI_PANE_GROUPS: return &u->groups;
	case UI_PANE_PARTS: return &u->parts;
	case UI_PANE_TOPICS: return &u->topics;
	case UI_PANE_TOPIC_GROUPS: return &u->tgroups;
	default: return NULL;
	}
}

/* A click on a header: sort by that column; on the sorted one, the other direction. */
static void header_click(struct ui *u, struct ui_list *l, int x)
{
	struct ui_col_slot slots[LT_COL__COUNT];
	size_t n = screen_list_slots(u, l, slots);
	for (size_t i = 0; i < n; i++) {
		const lt_column *c = slots[i].col;
		/* the slot and the blank after it */
		if (x < slots[i].x || x > slots[i].x + slots[i].width || !c->key)
			continue;
		if (l->sort_col == c->id) {
			l->sort_desc = !l->sort_desc;
		} else {
			l->sort_col = c->id;
			l->sort_desc = c->default_desc;
		}
		ui_set_message(u, "sorted by %s%s", c->title, l->sort_desc ? ", descending" : "");
		u->hold_until = 0; /* an explicit sort applies at once */
		u->dirty |= UI_DIRTY_ROWS;
		return;
	}
}

/* A click on a key in the key bar: that key, as if typed (through ui_on_key, so a replay refuses R as it
 * does the key, and a key that asks first still asks). */
static void key_bar_click(struct ui *u, int x)
{
	struct ui_bar_slot slots[UI_KEY_BAR_MAX];
	size_t n = screen_key_bar_slots(u, slots, UI_KEY_BAR_MAX);
	for (size_t i = 0; i < n; i++)
		if (x >= slots[i].x && x < slots[i].x + slots[i].width) {
			ui_on_key(u, slots[i].key->codes[0]);
			return;
		}
}

void ui_mouse_event(struct ui *u, enum ui_mouse_kind kind, int y, int x)
{
	const struct ui_geom *g = &u->geom;
	if (!u->mouse || g->too_small || u->filter_editing)
		return;
	if (u->popup != UI_POPUP_NONE) {
		/* the wheel scrolls the help, detail and error popups; clicks do nothing there */
		if (u->popup != UI_POPUP_RESET && u->popup != UI_POPUP_CLUSTERS && kind != UI_MOUSE_PRESS) {
			u->popup_top += kind == UI_MOUSE_WHEEL_DOWN ? WHEEL_ROWS : -WHEEL_ROWS;
			if (u->popup_top < 0)
				u->popup_top = 0;
			u->dirty |= UI_DIRTY_DRAW;
		}
		return;
	}
	unsigned pane;
	int pane_y;
	if (y >= g->main_y && y < g->main_y + g->main_h) {
		pane = ui_top_pane(u);
		pane_y = g->main_y;
	} else if (g->bottom_h > 0 && y >= g->bottom_y && y < g->bottom_y + g->bottom_h && ui_bottom_pane(u)) {
		pane = ui_bottom_pane(u);
		pane_y = g->bottom_y;
	} else {
		if (y == g->keys_y && kind == UI_MOUSE_PRESS)
			key_bar_click(u, x);
		return; /* the top bar; the key bar's wheel */
	}
	if (u->focus != pane) {
		u->focus = pane;
		u->dirty |= UI_DIRTY_DRAW;
	}
	struct ui_list *l = pane_list(u, pane);
	if (kind != UI_MOUSE_PRESS) {
		ui_move(u, kind == UI_MOUSE_WHEEL_DOWN ? WHEEL_ROWS : -WHEEL_ROWS);
		return;
	}
	if (y == pane_y + 1 && l) {
		header_click(u, l, x);
		return;
	}
	if (y < pane_y + 2)
		return; /* the pane's title: focus only */
	size_t top = l ? l->top : u->mem_top, cursor = l ? l->cursor : u->mem_cursor;
	size_t n = l ? l->n_rows : screen_members_count(u);
	size_t row = l ? top + (size_t)(y - pane_y - 2) : screen_member_at(u, y - pane_y - 2);
	if (row < n)
		ui_move(u, (long)row - (long)cursor);
}

void ui_mouse_key(struct ui *u)
{
	MEVENT ev;
	if (getmouse(&ev) != OK)
		return;
	if (ev.bstate & BUTTON4_PRESSED)
		ui_mouse_event(u, UI_MOUSE_WHEEL_UP, ev.y, ev.x);
	else if (ev.bstate & BUTTON5_PRESSED)
		ui_mouse_event(u, UI_MOUSE_WHEEL_DOWN, ev.y, ev.x);
	else if (ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))
		ui_mouse_event(u, UI_MOUSE_PRESS, ev.y, ev.x);
}
