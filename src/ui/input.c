/* input.c — one key to the mode that takes it: the reset dialog, a popup, the cluster chooser, the filter
 * prompt, else the main key table (keys.c); and the popups' own table. UI thread only. */
#include "config.h"

#include <curses.h>

#include "ui/keys.h"
#include "ui/replay.h"
#include "ui/ui.h"

#define KEY_ESC 27

/* ---- the popups' keys (help, detail, error): scroll, close ---- */

static void popup_up(struct ui *u)
{
	if (u->popup_top > 0)
		u->popup_top--;
	u->dirty |= UI_DIRTY_DRAW;
}

static void popup_down(struct ui *u)
{
	u->popup_top++; /* the screen clamps it to the last page */
	u->dirty |= UI_DIRTY_DRAW;
}

static void popup_page_up(struct ui *u)
{
	u->popup_top = u->popup_top > 10 ? u->popup_top - 10 : 0;
	u->dirty |= UI_DIRTY_DRAW;
}

static void popup_page_down(struct ui *u)
{
	u->popup_top += 10;
	u->dirty |= UI_DIRTY_DRAW;
}

static void popup_home(struct ui *u)
{
	u->popup_top = 0;
	u->dirty |= UI_DIRTY_DRAW;
}

static void popup_close(struct ui *u)
{
	u->popup = UI_POPUP_NONE;
	u->popup_top = 0;
	u->dirty |= UI_DIRTY_DRAW;
}

/* clang-format off */
static const struct ui_key popup_keys[] = {
	{ { KEY_UP }, "Up", NULL, "scroll up", UI_PANE_ALL, 0, popup_up },
	{ { 'k' }, "k", NULL, "scroll up", UI_PANE_ALL, 0, popup_up },
	{ { KEY_DOWN }, "Down", NULL, "scroll down", UI_PANE_ALL, 0, popup_down },
	{ { 'j' }, "j", NULL, "scroll down", UI_PANE_ALL, 0, popup_down },
	{ { KEY_PPAGE }, "PgUp", NULL, "scroll a page up", UI_PANE_ALL, 0, popup_page_up },
	{ { 'b' }, "b", NULL, "scroll a page up", UI_PANE_ALL, 0, popup_page_up },
	{ { 2 }, "^B", NULL, "scroll a page up", UI_PANE_ALL, 0, popup_page_up },
	{ { KEY_NPAGE }, "PgDn", NULL, "scroll a page down", UI_PANE_ALL, 0, popup_page_down },
	{ { 'f' }, "f", NULL, "scroll a page down", UI_PANE_ALL, 0, popup_page_down },
	{ { 6 }, "^F", NULL, "scroll a page down", UI_PANE_ALL, 0, popup_page_down },
	{ { ' ' }, "Space", NULL, "scroll a page down, as in less", UI_PANE_ALL, 0, popup_page_down },
	{ { KEY_HOME }, "Home", NULL, "back to the top", UI_PANE_ALL, 0, popup_home },
	{ { 1 }, "^A", NULL, "back to the top", UI_PANE_ALL, 0, popup_home },
	{ { KEY_ESC }, "Esc", NULL, "close the popup", UI_PANE_ALL, 0, popup_close },
	{ { 'q' }, "q", NULL, "close the popup", UI_PANE_ALL, 0, popup_close },
	{ { '?' }, "?", NULL, "close the popup", UI_PANE_ALL, 0, popup_close },
	{ { '\n', '\r', KEY_ENTER }, "Enter", NULL, "close the popup", UI_PANE_ALL, 0, popup_close },
	{ { 'e' }, "e", NULL, "close the popup", UI_PANE_ALL, 0, popup_close },
};
/* clang-format on */

const struct ui_key_mode keys_popup_mode = {
	.name = "Popups",
	.opened_by = "this help, Enter on a partition, e, v",
	.other_help = "do nothing",
	.keys = popup_keys,
	.n = sizeof popup_keys / sizeof popup_keys[0],
	.other = NULL,
};

/* ---- which mode takes a key ---- */

/* The table of the mode that has the keys; NULL for the reset dialog (its keys depend on its step:
 * reset_dialog.c). */
static const struct ui_key_mode *mode_for(const struct ui *u)
{
	if (u->popup == UI_POPUP_RESET)
		return NULL;
	if (u->popup == UI_POPUP_CLUSTERS)
		return &keys_clusters_mode;
	if (u->popup == UI_POPUP_COLUMNS)
		return &keys_columns_mode;
	if (u->popup == UI_POPUP_SORT)
		return &keys_sort_mode;
	if (u->popup != UI_POPUP_NONE)
		return &keys_popup_mode;
	return u->filter_editing ? &keys_filter_mode : &keys_main_mode;
}

void ui_on_key(struct ui *u, int ch)
{
	/* Keys that arrive together (typed fast, pasted, sent by a script) are read in one batch: each must
	 * act on the rows the keys before it made. "/evil Enter m" must open evil's members, not those of
	 * the row that was selected before the filter applied — and the same for R on a reset. */
	if (u->dirty & UI_DIRTY_ROWS) {
		ui_rebuild_rows(u);
		u->dirty &= ~UI_DIRTY_ROWS;
		u->dirty |= UI_DIRTY_DRAW;
	}
	if (ch == KEY_RESIZE) {
		clearok(curscr, TRUE);
		u->dirty |= UI_DIRTY_DRAW;
		return;
	}
	if (ch == KEY_MOUSE) { /* read it whatever is open: the event is queued until getmouse */
		ui_mouse_key(u);
		return;
	}
	if (replay_on_key(u, ch)) /* --replay: its keys (and its time prompt) come first */
		return;
	const struct ui_key_mode *m = mode_for(u);
	if (m)
		keys_dispatch_mode(u, m, ch);
	else
		ui_reset_key(u, ch);
}
