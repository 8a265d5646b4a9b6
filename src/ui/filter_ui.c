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

static void filter_keep(struct ui *u)
{
	u->filter_editing = false;
	u->filter_err[0] = '\0';
	u->dirty |= UI_DIRTY_DRAW;
}

static void filter_clear_and_close(struct ui *u)
{
	u->filter_editing = false;
	u->filter_buf[0] = '\0';
	ui_apply_filter_text(u);
}

static void filter_backspace(struct ui *u)
{
	size_t len = strlen(u->filter_buf);
	/* one whole UTF-8 character */
	while (len > 0 && ((unsigned char)u->filter_buf[len - 1] & 0xC0) == 0x80)
		len--;
	if (len > 0)
		len--;
	u->filter_buf[len] = '\0';
	ui_apply_filter_text(u);
}

static void filter_clear_text(struct ui *u)
{
	u->filter_buf[0] = '\0';
	ui_apply_filter_text(u);
}

/* Keys no entry takes: a typed byte goes into the text; anything else (arrows, PgUp, Tab, F-keys) acts as
 * in the pane. */
static void filter_other(struct ui *u, int ch)
{
	size_t len = strlen(u->filter_buf);
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

/* clang-format off */
static const struct ui_key filter_keys[] = {
	{ { '\n', '\r', KEY_ENTER }, "Enter", NULL, "keep the filter and close the prompt", UI_PANE_ALL, 0, filter_keep },
	{ { KEY_ESC }, "Esc", NULL, "clear the filter and close the prompt", UI_PANE_ALL, 0, filter_clear_and_close },
	{ { KEY_BACKSPACE, 127, 8 }, "Backspace", NULL, "delete the last character", UI_PANE_ALL, 0, filter_backspace },
	{ { 21 }, "^U", NULL, "clear the text", UI_PANE_ALL, 0, filter_clear_text },
};
/* clang-format on */

const struct ui_key_mode keys_filter_mode = {
	.name = "Filter prompt",
	.opened_by = "/, F3, F4",
	.other_help = "typed text filters; arrows, Tab, F-keys act as in the pane",
	.keys = filter_keys,
	.n = sizeof filter_keys / sizeof filter_keys[0],
	.other = filter_other,
};
