/* replay_keys.c — the replay's keys: step one refresh, jump a minute or an hour, go to a typed time,
 * play and pause, at 1x to 60x. None of them is a key of the main table (tests/unit/test_ui_keys
 * checks), so everything else works as on a live cluster. The keys that would write to a cluster
 * (R, U, D) are refused with one line: a recording has no cluster behind it. */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/record.h"
#include "ui/replay.h"
#include "ui/ui.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

#define KEY_ESC 27

static const int speeds[] = { 1, 2, 5, 10, 30, 60 };
#define N_SPEEDS (sizeof speeds / sizeof speeds[0])

struct ui_replay *replay_ui_new(ui_source *src)
{
	return source_is_replay(src) ? xcalloc(1, sizeof(struct ui_replay)) : NULL;
}

void replay_ui_free(struct ui_replay *r)
{
	free(r);
}

/* Shows record i now: the new snapshot replaces the shown one at once (no hold: the user asked). */
static void show(struct ui *u, size_t i)
{
	char err[512];
	if (source_replay_seek(u->src, i, err, sizeof err) != 0) {
		ui_set_message(u, "%s", err);
		return;
	}
	ui_take_snapshot(u);
	u->hold_until = 0;
	ui_adopt_next(u, now_mono_ms()); /* at once: the keys after this one act on the rows it shows */
	u->dirty |= UI_DIRTY_DRAW;
}

static void step(struct ui *u, long d)
{
	struct source_replay_state st;
	source_replay_state(u->src, &st);
	if ((d < 0 && st.index == 0) || (d > 0 && st.index + 1 >= st.count)) {
		ui_set_message(u, "%s of the recording", d < 0 ? "the start" : "the end");
		return;
	}
	show(u, (size_t)((long)st.index + d));
}

/* Jumps by ms from the record shown: to the last record at or before that time (the first one when
 * it is before the start), so a jump back always moves. */
static void jump(struct ui *u, int64_t ms)
{
	struct source_replay_state st;
	source_replay_state(u->src, &st);
	int64_t t = st.t_ms + ms;
	size_t i = source_replay_find(u->src, t);
	if (ms > 0 && t > st.last_ms)
		i = st.count - 1;
	if (i == st.index) {
		step(u, ms < 0 ? -1 : 1);
		return;
	}
	show(u, i);
}

static void act_back(struct ui *u)
{
	step(u, -1);
}
static void act_fwd(struct ui *u)
{
	step(u, 1);
}
static void act_min_back(struct ui *u)
{
	jump(u, -60000);
}
static void act_min_fwd(struct ui *u)
{
	jump(u, 60000);
}
static void act_hour_back(struct ui *u)
{
	jump(u, -3600000);
}
static void act_hour_fwd(struct ui *u)
{
	jump(u, 3600000);
}

static void act_goto(struct ui *u)
{
	u->replay->prompting = true;
	u->replay->buf[0] = '\0';
	u->dirty |= UI_DIRTY_DRAW;
}

static void act_play(struct ui *u)
{
	struct source_replay_state st;
	source_replay_state(u->src, &st);
	if (!st.playing && st.index + 1 >= st.count) {
		ui_set_message(u, "the end of the recording: nothing to play");
		return;
	}
	source_replay_play(u->src, !st.playing);
	ui_set_message(u, st.playing ? "replay paused" : "playing at %dx", st.speed);
}

/* The next speed, round: 60x goes back to 1x. */
static void act_speed(struct ui *u)
{
	struct source_replay_state st;
	source_replay_state(u->src, &st);
	size_t i = 0;
	while (i + 1 < N_SPEEDS && speeds[i] <= st.speed)
		i++;
	if (speeds[i] <= st.speed)
		i = 0;
	source_replay_set_speed(u->src, speeds[i]);
	ui_set_message(u, "replay speed %dx%s", speeds[i], st.playing ? "" : " (P plays)");
}

/* clang-format off */
/* The key bar shows the labelled ones first, in this order (the hours' keys only in the help). */
static const struct ui_key replay_table[] = {
	{ { '[' }, "[", "Prev", "replay: one refresh back", UI_PANE_ALL, 0, act_back },
	{ { ']' }, "]", "Next", "replay: one refresh forward", UI_PANE_ALL, 0, act_fwd },
	{ { '{' }, "{", "-1m", "replay: one minute back", UI_PANE_ALL, 0, act_min_back },
	{ { '}' }, "}", "+1m", "replay: one minute forward", UI_PANE_ALL, 0, act_min_fwd },
	{ { '(' }, "(", NULL, "replay: one hour back", UI_PANE_ALL, 0, act_hour_back },
	{ { ')' }, ")", NULL, "replay: one hour forward", UI_PANE_ALL, 0, act_hour_fwd },
	{ { 'g' }, "g", "GoTo", "replay: go to a time (2026-12-01T03:10:00, 03:10 UTC, -2h from the end)",
	  UI_PANE_ALL, 0, act_goto },
	{ { 'P' }, "P", "Play", "replay: play or pause (at the recorded pace times the speed)", UI_PANE_ALL, 0, act_play },
	{ { 'x' }, "x", "Speed", "replay: next play speed (1x 2x 5x 10x 30x 60x)", UI_PANE_ALL, 0, act_speed },
};
/* clang-format on */

#define N_REPLAY_KEYS (sizeof replay_table / sizeof replay_table[0])

const struct ui_key *replay_keys_at(size_t i)
{
	return i < N_REPLAY_KEYS ? &replay_table[i] : NULL;
}

char **replay_help_lines(int name_width)
{
	char **lines = xcalloc(N_REPLAY_KEYS + 1, sizeof *lines);
	for (size_t i = 0; i < N_REPLAY_KEYS; i++)
		lines[i] = xasprintf("%-*s %s", name_width, replay_table[i].name, replay_table[i].help);
	return lines;
}

static void prompt_key(struct ui *u, int ch)
{
	struct ui_replay *r = u->replay;
	size_t n = strlen(r->buf);
	u->dirty |= UI_DIRTY_DRAW;
	if (ch == KEY_ESC) {
		r->prompting = false;
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		r->prompting = false;
		if (!r->buf[0])
			return;
		struct source_replay_state st;
		source_replay_state(u->src, &st);
		char err[256];
		int64_t t;
		if (rec_parse_at(r->buf, st.first_ms, st.last_ms, &t, err, sizeof err) != 0) {
			/* the same words as --at, for the same rules */
			ui_set_message(u, "%s", strncmp(err, "--at ", 5) == 0 ? err + 5 : err);
			return;
		}
		show(u, source_replay_find(u->src, t));
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (n)
			r->buf[n - 1] = '\0';
	} else if (ch >= 0x20 && ch < 0x7f && n + 1 < sizeof r->buf) {
		r->buf[n] = (char)ch;
		r->buf[n + 1] = '\0';
	}
}

bool replay_on_key(struct ui *u, int ch)
{
	if (!u->replay)
		return false;
	if (u->replay->prompting) {
		prompt_key(u, ch);
		return true;
	}
	if (u->popup != UI_POPUP_NONE || u->filter_editing)
		return false;
	for (size_t i = 0; i < N_REPLAY_KEYS; i++)
		if (replay_table[i].codes[0] == ch) {
			replay_table[i].action(u);
			return true;
		}
	for (size_t i = 0; keys_at(i); i++) {
		const struct ui_key *k = keys_at(i);
		if (!(k->flags & UI_KEY_WRITES))
			continue;
		for (int j = 0; j < 3 && k->codes[j]; j++)
			if (k->codes[j] == ch) {
				ui_set_message(u, "replay: %s is off (a recording has no cluster to change)", k->name);
				return true;
			}
	}
	return false;
}

bool replay_bar_text(const struct ui *u, char *buf, size_t len)
{
	if (!u->replay)
		return false;
	struct source_replay_state st;
	source_replay_state(u->src, &st);
	char t[32];
	rec_format_time(st.t_ms, t, sizeof t);
	if (st.playing)
		snprintf(buf, len, "REPLAY %s %zu/%zu PLAY %dx", t, st.index + 1, st.count, st.speed);
	else
		snprintf(buf, len, "REPLAY %s %zu/%zu", t, st.index + 1, st.count);
	return true;
}

/* The prompt names the recording's span (the last time without its date when both fall on one day), so the
 * time to type is in sight; the forms it takes are in the help and the man page. */
const char *replay_prompt(const struct ui *u, char *buf, size_t len)
{
	if (!u->replay || !u->replay->prompting)
		return NULL;
	struct source_replay_state st;
	source_replay_state(u->src, &st);
	char first[32], last[32];
	rec_format_time(st.first_ms, first, sizeof first);
	rec_format_time(st.last_ms, last, sizeof last);
	const char *date_end = strchr(first, ' ');
	size_t date_len = date_end ? (size_t)(date_end - first) + 1 : 0;
	const char *last_shown = date_len && strncmp(first, last, date_len) == 0 ? last + date_len : last;
	snprintf(buf, len, "Go to (%s to %s): %s", first, last_shown, u->replay->buf);
	return buf;
}
