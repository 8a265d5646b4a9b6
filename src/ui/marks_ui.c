/* marks_ui.c — marked partitions in the partitions pane (Space marks and moves down, as htop's tag; u
 * clears). The set (src/model/markset.c) holds identities, so marks survive refreshes and re-sorts; it
 * belongs to one group (marks_group) and R and D act on it while that group is open. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ui/ui.h"
#include "util/xalloc.h"

static bool marks_are_open_groups(const struct ui *u)
{
	return u->open_group && u->marks_group && strcmp(u->open_group, u->marks_group) == 0;
}

void ui_marks_follow(struct ui *u)
{
	if (marks_are_open_groups(u))
		return;
	markset_clear(&u->marks);
	free(u->marks_group);
	u->marks_group = u->open_group ? xstrdup(u->open_group) : NULL;
}

void ui_toggle_mark(struct ui *u)
{
	struct ui_list *l = &u->parts;
	if (u->focus != UI_PANE_PARTS || l->cursor >= l->n_rows)
		return;
	ui_marks_follow(u);
	markset_toggle(&u->marks, &l->rows[l->cursor]);
	if (l->cursor + 1 < l->n_rows)
		ui_move(u, 1);
	u->dirty |= UI_DIRTY_DRAW;
}

void ui_clear_marks_quiet(struct ui *u)
{
	markset_clear(&u->marks);
	free(u->marks_group);
	u->marks_group = NULL;
	u->dirty |= UI_DIRTY_DRAW;
}

void ui_clear_marks(struct ui *u)
{
	size_t n = marks_are_open_groups(u) ? u->marks.n : 0;
	ui_clear_marks_quiet(u);
	ui_marks_follow(u);
	if (n)
		ui_set_message(u, "%zu mark%s cleared", n, n == 1 ? "" : "s");
	else
		ui_set_message(u, "no marks to clear");
}

void ui_prune_marks(struct ui *u)
{
	const lt_group *g = ui_open_group_ptr(u);
	/* a group missing from one refresh keeps its marks; partitions gone from a group it still has lose them */
	if (g && marks_are_open_groups(u))
		markset_prune(&u->marks, g);
}

const lt_markset *ui_open_marks(const struct ui *u)
{
	return marks_are_open_groups(u) && u->marks.n ? &u->marks : NULL;
}
