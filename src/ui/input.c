/* input.c — one key to the mode that takes it: the reset dialog, a popup, the cluster chooser, the filter
 * prompt, else the main key table (keys.c). UI thread only. */
#include "config.h"

#include <curses.h>

#include "ui/keys.h"
#include "ui/ui.h"

#define KEY_ESC 27

static void popup_key(struct ui *u, int ch)
{
	if (u->popup == UI_POPUP_CLUSTERS) {
		ui_clusters_key(u, ch);
		return;
	}
	switch (ch) {
	case KEY_UP:
	case 'k':
		if (u->popup_top > 0)
			u->popup_top--;
		break;
	case KEY_DOWN:
	case 'j': u->popup_top++; break;
	case KEY_PPAGE: u->popup_top = u->popup_top > 10 ? u->popup_top - 10 : 0; break;
	case KEY_NPAGE:
	case ' ': u->popup_top += 10; break;
	case KEY_HOME: u->popup_top = 0; break;
	case KEY_ESC:
	case 'q':
	case '?':
	case '\n':
	case '\r':
	case KEY_ENTER:
	case 'e':
		u->popup = UI_POPUP_NONE;
		u->popup_top = 0;
		break;
	default: return;
	}
	u->dirty |= UI_DIRTY_DRAW;
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
	if (u->popup == UI_POPUP_RESET) {
		ui_reset_key(u, ch);
		return;
	}
	if (u->popup != UI_POPUP_NONE) {
		popup_key(u, ch);
		return;
	}
	if (u->filter_editing) {
		ui_filter_key(u, ch);
		return;
	}
	keys_dispatch(u, ch);
}

