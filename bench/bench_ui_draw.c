/* bench_ui_draw.c — how long the dashboard takes to draw a frame with very many rows, offscreen
 * (curses writing to /dev/null). Three shapes: 100,000 groups in the groups pane, one group with
 * 100,000 partitions in the partitions pane, and the topic view of 100,000 partition rows laid out as the
 * scale scenarios do (groups of 32 partitions, 10 groups a topic: 3,125 groups, 313 topics). Each frame moves a page
 * down, so every frame formats new rows. Usage: bench_ui_draw [ROWS [COLS LINES [FRAMES]]] */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "model/model.h"
#include "model/snapshot.h"
#include "ui/source.h"
#include "ui/tui.h"

/* n partition rows: one group each (GROUPS), all in one group (PARTITIONS), or as the scale scenarios lay
 * them out (TOPICS: groups of 32 partitions, each topic read by 10 groups). */
static lt_snapshot *build(size_t n, enum tui_bench_pane pane, int64_t t, int64_t step)
{
	bool one_group = pane == TUI_BENCH_PARTITIONS, scale = pane == TUI_BENCH_TOPICS;
	lt_snapshot *s = snapshot_new();
	s->taken_at_ms = t;
	s->duration_ms = 40;
	s->cluster = NULL;
	s->brokers_up = s->brokers_total = 3;
	char name[64];
	lt_group *g = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!g || (!one_group && (!scale || i % 32 == 0))) {
			snprintf(name, sizeof name, "group-%06zu", i);
			g = snapshot_add_group(s, name);
			g->state = LT_GROUP_STABLE;
		}
		int32_t part = (int32_t)(one_group ? i % 1000 : scale ? i % 32 : 0);
		if (scale)
			snprintf(name, sizeof name, "topic-%05zu", i / 32 / 10);
		else
			snprintf(name, sizeof name, "topic-%03zu", one_group ? i / 1000 : i % 97);
		lt_partition *p = group_add_partition(g, name, part);
		p->log_start = 0;
		p->log_end = (int64_t)(1000 + (i * 7919) % 100000) + step * 10;
		p->committed = p->log_end - (int64_t)((i * 104729) % 5000);
	}
	snapshot_finish(s);
	return s;
}

static int run(const char *what, size_t n, enum tui_bench_pane pane, int cols, int lines, int frames)
{
	lt_model_params mp;
	model_params_default(&mp);
	lt_history *h = history_new(&mp);
	lt_snapshot *s = NULL;
	for (int k = 0; k < 3; k++) { /* a few refreshes so rates and trends exist */
		if (s)
			snapshot_unref(s);
		s = build(n, pane, 1700000000000 + k * 2000, k);
		model_enrich(h, s);
	}
	ui_source *src = source_fixed_new(s, NULL, 0);
	struct tui_bench r;
	char err[256];
	int rc = tui_draw_bench(src, cols, lines, frames, pane, &r, err, sizeof err);
	if (rc == 0)
		printf("%-28s rows=%zu size=%dx%d frames=%d rebuild(build+sort)=%.1f ms draw=%.3f ms/frame\n", what,
		       r.rows, cols, lines, r.frames, r.rebuild_ms, r.ms_per_frame);
	else
		fprintf(stderr, "bench_ui_draw: %s\n", err);
	source_free(src);
	snapshot_unref(s);
	history_free(h);
	return rc;
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 100000;
	int cols = argc > 3 ? atoi(argv[2]) : 200, lines = argc > 3 ? atoi(argv[3]) : 60;
	int frames = argc > 4 ? atoi(argv[4]) : 300;
	if (run("groups pane", n, TUI_BENCH_GROUPS, cols, lines, frames) != 0 ||
	    run("partitions pane (1 group)", n, TUI_BENCH_PARTITIONS, cols, lines, frames) != 0 ||
	    run("topics pane (topic view)", n, TUI_BENCH_TOPICS, cols, lines, frames) != 0)
		return 1;
	return 0;
}
