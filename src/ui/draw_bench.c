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

int tui_draw_bench(ui_source *src, int cols, int lines, int frames, bool open_biggest, struct tui_bench *r, char *err,
		   size_t errlen)
{
	struct tui_settings o;
	struct ui u;
	memset(&o, 0, sizeof o);
	ui_state_init(&u, &o, src, 2000);
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	if (!out || !in) {
		snprintf(err, errlen, "cannot open /dev/null");
		if (out)
			fclose(out);
		if (in)
			fclose(in);
		return -1;
	}
	SCREEN *scr = newterm("xterm-256color", out, in);
	if (!scr) {
		snprintf(err, errlen, "no terminfo entry for xterm-256color");
		fclose(out);
		fclose(in);
		return -1;
	}
	resize_term(lines, cols);
	u.color = has_colors() && start_color() == OK;
	theme_builtin(&u.theme, false);
	theme_apply(&u.theme, u.color);

	ui_take_snapshot(&u);
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	ui_adopt_next(&u, now_mono_ms()); /* adopting rebuilds the rows */
	clock_gettime(CLOCK_MONOTONIC, &b);
	r->rebuild_ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
	if (open_biggest && u.snap) {
		const lt_group *big = NULL;
		for (size_t i = 0; i < u.snap->n_groups; i++)
			if (!big || u.snap->groups[i].n_partitions > big->n_partitions)
				big = &u.snap->groups[i];
		if (big) {
			ui_open_group(&u, big);
			clock_gettime(CLOCK_MONOTONIC, &a);
			ui_rebuild_rows(&u);
			clock_gettime(CLOCK_MONOTONIC, &b);
			r->rebuild_ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
		}
	}
	struct ui_list *l = ui_focused_list(&u);
	r->rows = l ? l->n_rows : 0;
	screen_draw(&u);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < frames; i++) {
		ui_move(&u, ui_page_rows(&u) - 1); /* a page down per frame: new rows to format each time */
		screen_draw(&u);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	r->frames = frames;
	r->ms_per_frame = ((double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6) / frames;
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
	ui_state_free(&u);
	return 0;
}
