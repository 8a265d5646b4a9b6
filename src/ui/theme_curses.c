/* theme_curses.c — turns a parsed theme into curses colour pairs and attributes. */
#include "config.h"

#include "ui/theme.h"

#include <curses.h>

static unsigned long role_attr[UI_ROLE__COUNT];

static attr_t to_curses(unsigned a)
{
	attr_t r = A_NORMAL;
	if (a & UI_A_BOLD)
		r |= A_BOLD;
	if (a & UI_A_DIM)
		r |= A_DIM;
	if (a & UI_A_REVERSE)
		r |= A_REVERSE;
	if (a & UI_A_UNDERLINE)
		r |= A_UNDERLINE;
	return r;
}

/* Colours the terminal lacks fall back to their basic eight (bright-red → red). */
static short fit(short c, bool have_default)
{
	if (c == UI_C_DEFAULT)
		return have_default ? -1 : c;
	if (c >= COLORS)
		c = (short)(c % 8);
	return c;
}

void theme_apply(const struct ui_theme *t, bool color)
{
	struct ui_theme mono;
	if (!color || t->mono || !has_colors()) {
		theme_builtin(&mono, true);
		for (int r = 0; r < UI_ROLE__COUNT; r++)
			role_attr[r] = to_curses(mono.style[r].attrs);
		return;
	}
	bool have_default = use_default_colors() == OK;
	for (int r = 0; r < UI_ROLE__COUNT; r++) {
		short fg = fit(t->style[r].fg, have_default), bg = fit(t->style[r].bg, have_default);
		if (!have_default) {
			if (fg == UI_C_DEFAULT)
				fg = COLOR_WHITE;
			if (bg == UI_C_DEFAULT)
				bg = COLOR_BLACK;
		}
		if (r + 1 < COLOR_PAIRS && init_pair((short)(r + 1), fg, bg) == OK)
			role_attr[r] = COLOR_PAIR(r + 1) | to_curses(t->style[r].attrs);
		else
			role_attr[r] = to_curses(t->style[r].attrs);
	}
}

unsigned long theme_attr(ui_role r)
{
	return r < UI_ROLE__COUNT ? role_attr[r] : 0;
}
