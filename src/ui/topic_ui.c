/* topic_ui.c — the topic view in the dashboard (T): the top pane lists topics (the pure aggregation is
 * src/model/topic_view.c), Enter opens the groups reading one in the bottom pane, Enter on a group
 * opens its partitions there with the cursor on the topic's first one, and Esc goes back one step. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ui/ui.h"
#include "util/xalloc.h"

static void list_reset(struct ui_list *l)
{
	free(l->rows);
	l->rows = NULL;
	l->n_rows = 0;
	l->cursor = l->top = 0;
	row_key_clear(&l->sel);
	l->has_sel = false;
}

static void close_bottom(struct ui *u)
{
	free(u->open_group);
	u->open_group = NULL;
	free(u->open_topic);
	u->open_topic = NULL;
	u->show_members = false;
}

void ui_toggle_topic_view(struct ui *u)
{
	u->topic_view = !u->topic_view;
	close_bottom(u);
	u->focus = ui_top_pane(u);
	if (u->topic_view)
		ui_set_message(u, "topics: Enter shows the groups reading one, T goes back to the groups");
	else
		ui_set_message(u, "groups");
	u->hold_until = 0;
	u->dirty |= UI_DIRTY_ROWS;
}

void ui_open_topic(struct ui *u, const lt_topic_stats *t)
{
	free(u->open_topic);
	u->open_topic = xstrdup(t->topic);
	free(u->open_group);
	u->open_group = NULL;
	u->show_members = false;
	list_reset(&u->tgroups);
	if (u->tgroups.filter) {
		filter_free(u->tgroups.filter);
		u->tgroups.filter = NULL;
	}
	u->focus = UI_PANE_TOPIC_GROUPS;
	u->dirty |= UI_DIRTY_ROWS;
}

void ui_open_topic_group(struct ui *u)
{
	struct ui_list *l = &u->tgroups;
	if (l->cursor >= l->n_rows)
		return;
	const lt_row *r = &l->rows[l->cursor];
	const char *topic = r->topic->topic;
	int32_t first = r->topic->n_partitions ? r->topic->parts[0].partition : -1;
	u->show_members = false;
	ui_open_group(u, r->group);
	/* the group's partitions as in the groups view, the cursor on the topic's first one */
	row_key_clear(&u->parts.sel);
	u->parts.sel.group = xstrdup(u->open_group);
	u->parts.sel.topic = xstrdup(topic);
	u->parts.sel.partition = first;
	u->parts.has_sel = true;
}

bool ui_back_topic(struct ui *u)
{
	if (!u->topic_view)
		return false;
	if (u->open_group) {
		bool was_top = u->focus == UI_PANE_TOPICS;
		free(u->open_group);
		u->open_group = NULL;
		u->show_members = false;
		u->focus = u->open_topic && !was_top ? UI_PANE_TOPIC_GROUPS : UI_PANE_TOPICS;
	} else if (u->open_topic) {
		free(u->open_topic);
		u->open_topic = NULL;
		u->focus = UI_PANE_TOPICS;
	} else {
		return false;
	}
	u->dirty |= UI_DIRTY_ROWS;
	return true;
}

void ui_rebuild_topic_rows(struct ui *u)
{
	if (!u->topic_view) {
		/* the rows point into the view: both go */
		list_reset(&u->topics);
		list_reset(&u->tgroups);
		topic_view_free(u->tview);
		u->tview = NULL;
		u->tview_snap = NULL;
		return;
	}
	/* the rows are rebuilt whenever the snapshot changes, before the old one goes: the view is current
	 * exactly when it was built from this snapshot */
	lt_topic_view *old = NULL;
	if (!u->tview || u->tview_snap != u->snap) {
		old = u->tview; /* freed once no row points into it */
		u->tview = topic_view_build(u->snap);
		u->tview_snap = u->snap;
	}
	size_t n = 0;
	lt_row *rows = topic_view_rows(u->tview, NULL, u->topics.filter, &n);
	ui_list_adopt(u, &u->topics, rows, n);
	const lt_topic_stats *t = topic_view_find(u->tview, u->open_topic);
	n = 0;
	rows = t ? topic_view_rows(u->tview, t, u->tgroups.filter, &n) : NULL;
	ui_list_adopt(u, &u->tgroups, rows, n);
	topic_view_free(old);
}
