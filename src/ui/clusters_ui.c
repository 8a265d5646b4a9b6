/* clusters_ui.c — the cluster chooser (c) and the switch to the chosen cluster: a new source from
 * mode_tui (tui_clusters.open), the old one handed back to be freed off the UI thread, and everything
 * shown that belonged to the old cluster dropped. UI thread only. */
#include "config.h"

#include <curses.h>
#include <stdlib.h>

#include "ui/keys.h"
#include "ui/ui.h"

#define KEY_ESC 27

static void switch_cluster(struct ui *u, size_t i)
{
	struct tui_clusters *cl = u->clusters;
	char err[512];
	int interval = u->interval_ms;
	bool ro = u->read_only;
	ui_source *src = cl->open(cl->ctx, i, &interval, &ro, err, sizeof err);
	if (!src) {
		ui_set_message(u, "%s", err);
		return;
	}
	cl->retire(cl->ctx, u->src);
	cl->current = i;
	u->src = src;
	u->interval_ms = interval;
	u->read_only = ro; /* open() counts --read-only in */
	u->paused = false;
	/* everything shown belonged to the old cluster */
	if (u->next)
		snapshot_unref(u->next);
	u->next = NULL;
	free(u->open_group);
	u->open_group = NULL;
	free(u->open_topic);
	u->open_topic = NULL;
	ui_clear_marks_quiet(u);
	u->show_members = false;
	u->focus = ui_top_pane(u);
	u->groups.cursor = u->groups.top = 0;
	u->groups.has_sel = false;
	row_key_clear(&u->groups.sel);
	lt_snapshot *old = u->snap;
	u->snap = NULL;
	ui_rebuild_rows(u); /* empty: the rows pointed into the old snapshot */
	if (old)
		snapshot_unref(old);
	u->src->ops->set_interval(u->src, u->interval_ms);
	ui_set_message(u, "cluster %s", cl->names[i]);
	u->dirty |= UI_DIRTY_ROWS;
}

void ui_choose_cluster(struct ui *u)
{
	if (!u->clusters || u->clusters->n == 0) {
		ui_set_message(u, "no clusters to choose from: define them in the config file (see lagtop(1))");
		return;
	}
	u->popup = UI_POPUP_CLUSTERS;
	u->popup_top = u->clusters->current < u->clusters->n ? (int)u->clusters->current : 0;
	u->dirty |= UI_DIRTY_DRAW;
}

static void chooser_up(struct ui *u)
{
	if (u->popup_top > 0)
		u->popup_top--;
	u->dirty |= UI_DIRTY_DRAW;
}

static void chooser_down(struct ui *u)
{
	if (u->popup_top + 1 < (int)u->clusters->n)
		u->popup_top++;
	u->dirty |= UI_DIRTY_DRAW;
}

static void chooser_switch(struct ui *u)
{
	u->popup = UI_POPUP_NONE;
	if ((size_t)u->popup_top != u->clusters->current)
		switch_cluster(u, (size_t)u->popup_top);
	u->dirty |= UI_DIRTY_DRAW;
}

static void chooser_close(struct ui *u)
{
	u->popup = UI_POPUP_NONE;
	u->dirty |= UI_DIRTY_DRAW;
}

/* clang-format off */
static const struct ui_key chooser_keys[] = {
	{ { KEY_UP }, "Up", NULL, "the previous cluster", UI_PANE_ALL, 0, chooser_up },
	{ { 'k' }, "k", NULL, "the previous cluster", UI_PANE_ALL, 0, chooser_up },
	{ { KEY_DOWN }, "Down", NULL, "the next cluster", UI_PANE_ALL, 0, chooser_down },
	{ { 'j' }, "j", NULL, "the next cluster", UI_PANE_ALL, 0, chooser_down },
	{ { '\n', '\r', KEY_ENTER }, "Enter", NULL, "switch to the cluster under the cursor", UI_PANE_ALL, 0,
	  chooser_switch },
	{ { KEY_ESC }, "Esc", NULL, "close without switching", UI_PANE_ALL, 0, chooser_close },
	{ { 'q' }, "q", NULL, "close without switching", UI_PANE_ALL, 0, chooser_close },
	{ { 'c' }, "c", NULL, "close without switching", UI_PANE_ALL, 0, chooser_close },
};
/* clang-format on */

const struct ui_key_mode keys_clusters_mode = {
	.name = "Cluster chooser",
	.opened_by = "c",
	.other_help = "do nothing",
	.keys = chooser_keys,
	.n = sizeof chooser_keys / sizeof chooser_keys[0],
	.other = NULL,
};
