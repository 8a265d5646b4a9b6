/* columns_ui.c — each pane's columns: which the panes show (the configuration's panes.NAME.columns), the
 * column setup (F2 or S, as htop's: show, hide and order the focused pane's columns, saved to the
 * configuration file) and the sort chooser (F6 or ., as htop's: a list of the columns on screen). The screen
 * draws both from ui_list_popup_view. UI thread only. */
#include "config.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_file.h"
#include "ui/keys.h"
#include "ui/ui.h"
#include "util/strv.h"
#include "util/xalloc.h"

#define KEY_ESC 27

struct ui_colsetup {
	lt_row_kind kind;
	lt_colset set; /* the setup's copy, applied on Enter */
	size_t cursor;
	lt_col_id sort_ids[LT_COL__COUNT]; /* the sort chooser's columns: those on screen with a sort key */
	size_t n_sort;
};

size_t ui_pane_columns(const struct ui *u, const struct ui_list *l, const lt_column **out)
{
	const lt_colset *set = &u->colsets[l->kind];
	const lt_group *g = l->kind == LT_ROWS_PARTITIONS ? ui_open_group_ptr(u) : NULL;
	size_t k = 0;
	for (size_t i = 0; i < set->n; i++) {
		const lt_column *c = column_by_id(set->ids[i]);
		/* what no consumer of the group reports leaves its room to the columns that have values */
		if (set->shown[i] && (k == 0 || !column_absent_for(c, g)))
			out[k++] = c;
	}
	return k;
}

void ui_columns_init(struct ui *u, const lt_colset *sets)
{
	for (unsigned k = 0; k < LT_ROW_KINDS; k++) {
		if (sets && sets[k].kind == (lt_row_kind)k && sets[k].n > 0)
			u->colsets[k] = sets[k];
		else
			colset_default((lt_row_kind)k, &u->colsets[k]);
	}
}

void ui_columns_free(struct ui *u)
{
	free(u->colsetup);
	u->colsetup = NULL;
	free(u->config_made);
	u->config_made = NULL;
}

static struct ui_colsetup *setup_new(struct ui *u)
{
	free(u->colsetup);
	u->colsetup = xcalloc(1, sizeof *u->colsetup);
	return u->colsetup;
}

static void popup_done(struct ui *u)
{
	u->popup = UI_POPUP_NONE;
	free(u->colsetup);
	u->colsetup = NULL;
	u->dirty |= UI_DIRTY_DRAW;
}

/* ---- the column setup (F2, S) ---- */

void ui_columns_open(struct ui *u)
{
	struct ui_list *l = ui_focused_list(u);
	if (!l) {
		ui_set_message(u, "the members pane has no column setup");
		return;
	}
	struct ui_colsetup *cs = setup_new(u);
	cs->kind = l->kind;
	cs->set = u->colsets[l->kind];
	u->popup = UI_POPUP_COLUMNS;
	u->dirty |= UI_DIRTY_DRAW;
}

static void setup_up(struct ui *u)
{
	if (u->colsetup->cursor > 0)
		u->colsetup->cursor--;
	u->dirty |= UI_DIRTY_DRAW;
}

static void setup_down(struct ui *u)
{
	struct ui_colsetup *cs = u->colsetup;
	size_t n = u->popup == UI_POPUP_SORT ? cs->n_sort : cs->set.n;
	if (cs->cursor + 1 < n)
		cs->cursor++;
	u->dirty |= UI_DIRTY_DRAW;
}

static void setup_toggle(struct ui *u)
{
	struct ui_colsetup *cs = u->colsetup;
	if (cs->cursor == 0)
		ui_set_message(u, "%s always shows: rows are told apart by it", column_by_id(cs->set.ids[0])->title);
	colset_toggle(&cs->set, cs->cursor);
	u->dirty |= UI_DIRTY_DRAW;
}

static void setup_move_up(struct ui *u)
{
	u->colsetup->cursor = colset_move(&u->colsetup->set, u->colsetup->cursor, -1);
	u->dirty |= UI_DIRTY_DRAW;
}

static void setup_move_down(struct ui *u)
{
	u->colsetup->cursor = colset_move(&u->colsetup->set, u->colsetup->cursor, 1);
	u->dirty |= UI_DIRTY_DRAW;
}

static void setup_defaults(struct ui *u)
{
	colset_default(u->colsetup->kind, &u->colsetup->set);
	u->dirty |= UI_DIRTY_DRAW;
}

/* A list sorted by a column just hidden sorts by its name again: rows are never ordered by values not on
 * screen. */
static void unsort_hidden(struct ui *u, lt_row_kind kind)
{
	struct ui_list *lists[] = { &u->groups, &u->parts, &u->topics, &u->tgroups };
	const lt_colset *set = &u->colsets[kind];
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
		if (lists[i]->kind != kind)
			continue;
		for (size_t j = 0; j < set->n; j++)
			if (set->ids[j] == lists[i]->sort_col && !set->shown[j]) {
				lists[i]->sort_col = set->ids[0];
				lists[i]->sort_desc = false;
			}
	}
}

/* Enter: the pane shows the new columns, and the configuration file keeps them; when the file cannot be
 * rewritten safely the choice stays for this session, and the message says why. */
static void setup_apply(struct ui *u)
{
	struct ui_colsetup *cs = u->colsetup;
	const char *pane = row_kind_name(cs->kind);
	bool changed = !colset_equal(&u->colsets[cs->kind], &cs->set);
	u->colsets[cs->kind] = cs->set;
	unsort_hidden(u, cs->kind);
	popup_done(u);
	u->dirty |= UI_DIRTY_ROWS;
	if (!changed) {
		ui_set_message(u, "columns of %s unchanged", pane);
		return;
	}
	char err[512];
	int rc;
	if (u->config_path) {
		rc = config_save_columns(u->config_path, u->colsets, err, sizeof err);
	} else { /* no file was read: the user's own is made, as htop makes its htoprc */
		char *path = config_user_path();
		rc = config_save_columns_new(path, u->colsets, err, sizeof err);
		if (rc == 0)
			u->config_path = u->config_made = path;
		else
			free(path);
	}
	if (rc == 0)
		ui_set_message_for(u, 2 * UI_MESSAGE_MS, "columns of %s saved to %s", pane, u->config_path);
	else
		ui_set_message_for(u, 4 * UI_MESSAGE_MS, "columns kept for this session: %s", err);
}

/* clang-format off */
static const struct ui_key setup_keys[] = {
	{ { KEY_UP }, "Up", NULL, "the previous column", UI_PANE_ALL, 0, setup_up },
	{ { 'k' }, "k", NULL, "the previous column", UI_PANE_ALL, 0, setup_up },
	{ { KEY_DOWN }, "Down", NULL, "the next column", UI_PANE_ALL, 0, setup_down },
	{ { 'j' }, "j", NULL, "the next column", UI_PANE_ALL, 0, setup_down },
	{ { ' ' }, "Space", NULL, "show or hide the column", UI_PANE_ALL, 0, setup_toggle },
	{ { KEY_F(7) }, "F7", NULL, "move the column up (left on screen)", UI_PANE_ALL, 0, setup_move_up },
	{ { '[' }, "[", NULL, "move the column up (left on screen)", UI_PANE_ALL, 0, setup_move_up },
	{ { KEY_F(8) }, "F8", NULL, "move the column down (right on screen)", UI_PANE_ALL, 0, setup_move_down },
	{ { ']' }, "]", NULL, "move the column down (right on screen)", UI_PANE_ALL, 0, setup_move_down },
	{ { 'd' }, "d", NULL, "back to the default columns", UI_PANE_ALL, 0, setup_defaults },
	{ { '\n', '\r', KEY_ENTER }, "Enter", NULL, "apply, and save to the configuration file", UI_PANE_ALL, 0,
	  setup_apply },
	{ { KEY_F(10) }, "F10", NULL, "apply, and save to the configuration file", UI_PANE_ALL, 0, setup_apply },
	{ { KEY_ESC }, "Esc", NULL, "close without changing anything", UI_PANE_ALL, 0, popup_done },
	{ { 'q' }, "q", NULL, "close without changing anything", UI_PANE_ALL, 0, popup_done },
};
/* clang-format on */

const struct ui_key_mode keys_columns_mode = {
	.name = "Column setup",
	.opened_by = "F2, S",
	.other_help = "do nothing",
	.keys = setup_keys,
	.n = sizeof setup_keys / sizeof setup_keys[0],
	.other = NULL,
};

/* ---- the sort chooser (F6, .) ---- */

void ui_sort_open(struct ui *u)
{
	struct ui_list *l = ui_focused_list(u);
	if (!l)
		return;
	struct ui_col_slot shown[LT_COL__COUNT];
	size_t n = screen_list_slots(u, l, shown);
	struct ui_colsetup *cs = setup_new(u);
	cs->kind = l->kind;
	for (size_t i = 0; i < n; i++) {
		if (!shown[i].col->key)
			continue;
		if (shown[i].col->id == l->sort_col)
			cs->cursor = cs->n_sort;
		cs->sort_ids[cs->n_sort++] = shown[i].col->id;
	}
	u->popup = UI_POPUP_SORT;
	u->dirty |= UI_DIRTY_DRAW;
}

static void sort_pick(struct ui *u)
{
	struct ui_colsetup *cs = u->colsetup;
	struct ui_list *l = ui_focused_list(u);
	if (l && l->kind == cs->kind && cs->cursor < cs->n_sort) {
		const lt_column *c = column_by_id(cs->sort_ids[cs->cursor]);
		l->sort_col = c->id;
		l->sort_desc = c->default_desc;
		ui_set_message(u, "sorted by %s%s", c->title, l->sort_desc ? ", descending" : "");
		u->hold_until = 0; /* an explicit sort applies at once */
		u->dirty |= UI_DIRTY_ROWS;
	}
	popup_done(u);
}

/* clang-format off */
static const struct ui_key sort_keys[] = {
	{ { KEY_UP }, "Up", NULL, "the previous column", UI_PANE_ALL, 0, setup_up },
	{ { 'k' }, "k", NULL, "the previous column", UI_PANE_ALL, 0, setup_up },
	{ { KEY_DOWN }, "Down", NULL, "the next column", UI_PANE_ALL, 0, setup_down },
	{ { 'j' }, "j", NULL, "the next column", UI_PANE_ALL, 0, setup_down },
	{ { '\n', '\r', KEY_ENTER }, "Enter", NULL, "sort by the column under the cursor", UI_PANE_ALL, 0, sort_pick },
	{ { KEY_ESC }, "Esc", NULL, "close without changing the sort", UI_PANE_ALL, 0, popup_done },
	{ { 'q' }, "q", NULL, "close without changing the sort", UI_PANE_ALL, 0, popup_done },
};
/* clang-format on */

const struct ui_key_mode keys_sort_mode = {
	.name = "Sort chooser",
	.opened_by = "F6, .",
	.other_help = "do nothing",
	.keys = sort_keys,
	.n = sizeof sort_keys / sizeof sort_keys[0],
	.other = NULL,
};

/* ---- what the screen draws ---- */

void ui_list_popup_view(const struct ui *u, struct ui_list_popup *v)
{
	const struct ui_colsetup *cs = u->colsetup;
	memset(v, 0, sizeof v[0]);
	if (!cs)
		return;
	const char *pane = row_kind_name(cs->kind);
	bool sort = u->popup == UI_POPUP_SORT;
	v->title = sort ? xasprintf("sort %s by (Enter picks, Esc closes)", pane)
			: xasprintf("columns of %s: Space shows/hides, [ ] move", pane);
	size_t n = sort ? cs->n_sort : cs->set.n;
	v->lines = xcalloc(n + 1, sizeof *v->lines);
	for (size_t i = 0; i < n; i++) {
		const lt_column *c = column_by_id(sort ? cs->sort_ids[i] : cs->set.ids[i]);
		if (sort)
			v->lines[i] = xasprintf("%-13s %s", c->title, c->help ? c->help : "");
		else
			v->lines[i] = xasprintf("[%c] %-13s %s", cs->set.shown[i] ? 'x' : ' ', c->title,
						c->help ? c->help : "");
	}
	v->n = n;
	v->cursor = cs->cursor;
}

void ui_list_popup_free(struct ui_list_popup *v)
{
	strv_free(v->n, v->lines);
	free(v->title);
	memset(v, 0, sizeof v[0]);
}
