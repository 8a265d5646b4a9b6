/* ui_state.c — the dashboard's state from start to end: init and free, the themes it starts with and
 * cycles through, the transient message, and the snapshots it takes from the source and adopts when
 * the user is not moving. UI thread only; the source's snapshots are immutable and reference counted. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/replay.h"
#include "ui/ui.h"
#include "util/sanitize.h"
#include "util/timeutil.h"

static void message_for(struct ui *u, int64_t ms, const char *fmt, va_list ap)
{
	vsnprintf(u->msg, sizeof u->msg, fmt, ap);
	u->msg_until = now_mono_ms() + ms;
	u->dirty |= UI_DIRTY_DRAW;
}

void ui_set_message(struct ui *u, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	message_for(u, UI_MESSAGE_MS, fmt, ap);
	va_end(ap);
}

void ui_set_message_for(struct ui *u, int64_t ms, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	message_for(u, ms, fmt, ap);
	va_end(ap);
}

void ui_next_theme(struct ui *u)
{
	char err[256] = "";
	for (size_t step = 1; step <= u->themes.n; step++) {
		size_t i = (u->theme_idx + step) % u->themes.n;
		struct ui_theme t;
		if (theme_list_load(&u->themes, i, &t, err, sizeof err) != 0)
			continue; /* a broken file is skipped, and said so below */
		u->theme_idx = i;
		u->theme = t;
		theme_apply(&u->theme, u->color);
		if (err[0])
			ui_set_message(u, "theme %s; skipped: %s", t.name, err);
		else
			ui_set_message(u, "theme %s%s", t.name, u->color ? "" : " (no colours on this terminal)");
		return;
	}
}

void ui_take_snapshot(struct ui *u)
{
	lt_snapshot *s = u->src->ops->latest(u->src);
	if (!s)
		return;
	if (s == u->snap || s == u->next) {
		snapshot_unref(s);
		return;
	}
	if (u->next)
		snapshot_unref(u->next);
	else
		u->next_since = now_mono_ms();
	u->next = s;
}

void ui_adopt_next(struct ui *u, int64_t now)
{
	if (!u->next || (now < u->hold_until && now < u->next_since + UI_HOLD_MAX_MS))
		return;
	/* the rows point into the old snapshot: rebuild them before it goes */
	lt_snapshot *old = u->snap;
	u->snap = u->next;
	u->next = NULL;
	screen_members_forget(u);
	ui_rebuild_rows(u);
	u->dirty &= ~UI_DIRTY_ROWS;
	u->dirty |= UI_DIRTY_DRAW;
	if (old)
		snapshot_unref(old);
}

void ui_state_free(struct ui *u)
{
	ui_reset_free(u);
	ui_columns_free(u);
	ui_peek_free(u);
	struct ui_list *lists[] = { &u->groups, &u->parts, &u->topics, &u->tgroups };
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
		free(lists[i]->rows);
		row_key_clear(&lists[i]->sel);
		if (lists[i]->filter)
			filter_free(lists[i]->filter);
	}
	row_key_clear(&u->detail);
	free(u->open_group);
	free(u->open_topic);
	topic_view_free(u->tview);
	ui_clear_marks_quiet(u);
	screen_members_forget(u);
	if (u->snap)
		snapshot_unref(u->snap);
	if (u->next)
		snapshot_unref(u->next);
	theme_list_free(&u->themes);
	replay_ui_free(u->replay);
}

int ui_themes_init(struct ui *u, const struct tui_settings *o, char *err, size_t errlen)
{
	char *dirs[5];
	size_t nd = theme_dirs(dirs, 5);
	theme_list_scan(&u->themes, (const char *const *)dirs, nd);
	for (size_t i = 0; i < nd; i++)
		free(dirs[i]);
	const char *want = o->theme ? o->theme : "default";
	int idx = theme_list_find(&u->themes, want);
	if (idx < 0) {
		char names[256] = "";
		for (size_t i = 0; i < u->themes.n; i++)
			snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
				 u->themes.e[i].name);
		char *safe = sanitize_dup(want, false);
		snprintf(err, errlen, "unknown theme '%s' (known: %s)", safe, names);
		free(safe);
		return -1;
	}
	if (theme_list_load(&u->themes, (size_t)idx, &u->theme, err, errlen) != 0) {
		if (o->theme)
			return -1;
		theme_builtin(&u->theme, false); /* a broken default.conf must not stop the dashboard */
	}
	u->theme_idx = (size_t)idx;
	return 0;
}

int tui_theme_check(const struct tui_settings *o, char *err, size_t errlen)
{
	struct ui u;
	memset(&u, 0, sizeof u);
	int rc = ui_themes_init(&u, o, err, errlen);
	theme_list_free(&u.themes);
	return rc;
}

void ui_state_init(struct ui *u, const struct tui_settings *o, ui_source *src, int interval_ms)
{
	memset(u, 0, sizeof *u);
	u->src = src;
	u->interval_ms = interval_ms;
	u->read_only = o->read_only;
	u->focus = UI_PANE_GROUPS;
	u->groups.kind = LT_ROWS_GROUPS;
	u->groups.sort_col = LT_COL_GROUP;
	u->parts.kind = LT_ROWS_PARTITIONS;
	u->parts.sort_col = LT_COL_TOPIC;
	u->topics.kind = LT_ROWS_TOPICS;
	u->topics.sort_col = LT_COL_T_TOPIC;
	u->tgroups.kind = LT_ROWS_TOPIC_GROUPS;
	u->tgroups.sort_col = LT_COL_TG_GROUP;
	u->mouse = !o->no_mouse;
	u->ascii = o->ascii || !locale_is_utf8();
	u->glyphs = glyphs_get(u->ascii);
	u->replay = replay_ui_new(src); /* NULL unless src is a recording */
	ui_columns_init(u, o->columns);
	u->config_path = o->config_path;
}
