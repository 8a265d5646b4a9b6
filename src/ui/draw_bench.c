/* draw_bench.c — the offscreen draw benchmark (bench/bench_ui_draw): the dashboard's state on a fixed
 * source drawn into a curses screen on /dev/null, timed. Not used by lagtop itself. */
#include "config.h"

#include "ui/tui.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ui/ui.h"
#include "util/timeutil.h"

static double ms_between(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) * 1e3 + (double)(b->tv_nsec - a->tv_nsec) / 1e6;
}

static const lt_group *biggest_group(const lt_snapshot *s)
{
	const lt_group *big = NULL;
	for (size_t i = 0; i < s->n_groups; i++)
		if (!big || s->groups[i].n_partitions > big->n_partitions)
			big = &s->groups[i];
	return big;
}

/* Times building the rows: the groups' (or, in the topic view, the view and its topics') on adoption, or
 * the biggest group's partitions when it is opened. */
static void bench_rows(struct ui *u, enum tui_bench_pane pane, struct tui_bench *r)
{
	struct timespec a, b;
	bool open_biggest = pane == TUI_BENCH_PARTITIONS;
	if (pane == TUI_BENCH_TOPICS)
		ui_toggle_topic_view(u); /* the T key: a new snapshot then rebuilds the view */
	ui_take_snapshot(u);
	clock_gettime(CLOCK_MONOTONIC, &a);
	ui_adopt_next(u, now_mono_ms()); /* adopting rebuilds the rows */
	clock_gettime(CLOCK_MONOTONIC, &b);
	r->rebuild_ms = ms_between(&a, &b);
	const lt_group *big = open_biggest && u->snap ? biggest_group(u->snap) : NULL;
	if (big) {
		ui_open_group(u, big);
		clock_gettime(CLOCK_MONOTONIC, &a);
		ui_rebuild_rows(u);
		clock_gettime(CLOCK_MONOTONIC, &b);
		r->rebuild_ms = ms_between(&a, &b);
	}
	struct ui_list *l = ui_focused_list(u);
	r->rows = l ? l->n_rows : 0;
}

/* Times drawing: a page down per frame, so each frame formats new rows. */
static void bench_frames(struct ui *u, int frames, struct tui_bench *r)
{
	struct timespec a, b;
	screen_draw(u);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < frames; i++) {
		ui_move(u, ui_page_rows(u) - 1);
		screen_draw(u);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	r->frames = frames;
	r->ms_per_frame = ms_between(&a, &b) / frames;
}

int tui_draw_bench(ui_source *src, int cols, int lines, int frames, enum tui_bench_pane pane, struct tui_bench *r,
		   char *err, size_t errlen)
{
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	SCREEN *scr = out && in ? newterm("xterm-256color", out, in) : NULL;
	if (!scr) {
		snprintf(err, errlen, "%s",
			 out && in ? "no terminfo entry for xterm-256color" : "cannot open /dev/null");
		if (out)
			fclose(out);
		if (in)
			fclose(in);
		return -1;
	}
	struct tui_settings o;
	struct ui u;
	memset(&o, 0, sizeof o);
	ui_state_init(&u, &o, src, 2000);
	resize_term(lines, cols);
	u.color = has_colors() && start_color() == OK;
	theme_builtin(&u.theme, false);
	theme_apply(&u.theme, u.color);
	bench_rows(&u, pane, r);
	bench_frames(&u, frames, r);
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
	ui_state_free(&u);
	return 0;
}
