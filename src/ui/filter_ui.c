/* filter_ui.c — the filter prompt (/): its text becomes the focused pane's filter as it is typed.
 * UI thread only. */
#include "config.h"

#include <curses.h>
#include <string.h>

#include "ui/keys.h"
#include "ui/ui.h"

#define KEY_ESC 27

void ui_apply_filter_text(struct ui *u)
{
	struct ui_list *l = ui_focused_list(u);
	if (!l)
		return;
	u->filter_err[0] = '\0';
	lt_filter *f = NULL;
	if (u->filter_buf[0]) {
		f = filter_new(u->filter_buf, u->filter_err, sizeof u->filter_err);
		if (!f) {
			/* keep the last good filter while the regex is being typed */
			u->dirty |= UI_DIRTY_DRAW;
			return;
		}
	}
	if (l->filter)
		filter_free(l->filter);
	l->filter = f;
	u->hold_until = 0;
	u->dirty |= UI_DIRTY_ROWS;
}

void ui_filter_key(struct ui *u, int ch)
{
	size_t len = strlen(u->filter_buf);
	switch (ch) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		u->filter_editing = false;
		u->filter_err[0] = '\0';
		u->dirty |= UI_DIRTY_DRAW;
		return;
	case KEY_ESC:
		u->filter_editing = false;
		u->filter_buf[0] = '\0';
		ui_apply_filter_text(u);
		return;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		/* one whole UTF-8 character */
		while (len > 0 && ((unsigned char)u->filter_buf[len - 1] & 0xC0) == 0x80)
			len--;
		if (len > 0)
			len--;
		u->filter_buf[len] = '\0';
		ui_apply_filter_text(u);
		return;
	case 21: /* ^U */
		u->filter_buf[0] = '\0';
		ui_apply_filter_text(u);
		return;
	default: break;
	}
	if (ch >= 32 && ch < 256 && ch != 127) {
		if (len + 1 < sizeof u->filter_buf) {
			u->filter_buf[len] = (char)ch;
			u->filter_buf[len + 1] = '\0';
			ui_apply_filter_text(u);
		}
		return;
	}
	keys_dispatch(u, ch); /* arrows and the like still move */
}
