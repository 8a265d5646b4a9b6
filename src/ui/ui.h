/* ui.h — the dashboard's state, shared by the loop (tui.c), the drawing (screen.c) and the key
 * actions (keys.c). Internal to src/ui. */
#ifndef LAGTOP_UI_UI_H
#define LAGTOP_UI_UI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/options.h"
#include "model/columns.h"
#include "model/snapshot.h"
#include "ui/layout.h"
#include "ui/source.h"
#include "ui/theme.h"
#include "ui/tui.h"

/* Which pane a key applies to (ui_key.panes) and which one has the focus. */
enum ui_pane {
	UI_PANE_GROUPS = 1u << 0,
	UI_PANE_PARTS = 1u << 1,
	UI_PANE_MEMBERS = 1u << 2,
};
#define UI_PANE_ALL (UI_PANE_GROUPS | UI_PANE_PARTS | UI_PANE_MEMBERS)

enum ui_popup { UI_POPUP_NONE = 0, UI_POPUP_HELP, UI_POPUP_DETAIL, UI_POPUP_ERROR, UI_POPUP_CLUSTERS, UI_POPUP_RESET };

/* Dirty flags: changes set them, the loop acts on them once per pass. */
enum {
	UI_DIRTY_DRAW = 1u << 0, /* redraw the screen */
	UI_DIRTY_ROWS = 1u << 1, /* rebuild, filter and sort the rows, then redraw */
};

/* Re-sorting and new snapshots wait this long after a movement key, so rows do not jump away
 * from under the cursor while the user is moving. */
#define UI_HOLD_MS 1000
/* ... but never longer than this after a new snapshot arrived: holding a key must not freeze the data. */
#define UI_HOLD_MAX_MS 3000

/* One list of rows (groups, or the open group's partitions). */
struct ui_list {
	lt_row_kind kind;
	lt_row *rows;
	size_t n_rows;
	size_t cursor, top;
	lt_row_key sel; /* identity of the row under the cursor, follows it across refreshes */
	bool has_sel;
	lt_col_id sort_col;
	bool sort_desc;
	lt_filter *filter;
	int name_want; /* longest name in the rows, for the layout */
};

struct ui {
	const struct lt_options *opts;
	ui_source *src;
	lt_snapshot *snap;  /* the snapshot being shown (one reference); rows point into it */
	lt_snapshot *next;  /* a newer one, adopted (with a rebuild of the rows) when the hold ends */
	int64_t next_since; /* monotonic ms when next arrived */

	struct ui_list groups, parts;
	char *open_group;  /* group of the bottom pane, NULL when closed */
	bool show_members; /* bottom pane shows members instead of partitions */
	size_t mem_cursor, mem_top;
	unsigned focus; /* UI_PANE_* */

	enum ui_popup popup;
	int popup_top;     /* scroll of the help popup */
	lt_row_key detail; /* partition of the detail popup */

	bool filter_editing;
	char filter_buf[256];
	char filter_err[160];

	bool paused;
	int interval_ms;
	bool read_only;

	unsigned dirty;
	bool quit;
	int64_t hold_until; /* monotonic ms */
	char msg[160];      /* transient message in the key bar */
	int64_t msg_until;  /* monotonic ms */

	struct tui_clusters *clusters; /* NULL: no cluster switching */
	struct ui_replay *replay;      /* replay.h: the keys and prompt of --replay; NULL on a cluster */

	struct ui_reset *reset;   /* the reset dialog (UI_POPUP_RESET), NULL when closed */
	struct rw_worker *rw;     /* the reset worker thread, made on first use */
	struct rw_job *rw_job;    /* the job it runs for the open dialog (NULL: none, or abandoned) */

	struct ui_geom geom;
	bool color, ascii;
	const struct ui_glyphs *glyphs;
	struct ui_theme_list themes;
	size_t theme_idx;
	struct ui_theme theme;
};

/* tui.c: the list operations the key actions use. */
struct ui_list *ui_focused_list(struct ui *u); /* NULL when the members pane has the focus */
void ui_move(struct ui *u, long delta);        /* moves the focused pane's cursor, clamped */
void ui_move_to(struct ui *u, bool end);
void ui_set_message(struct ui *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ui_open_group(struct ui *u, const lt_group *g);
void ui_apply_filter_text(struct ui *u); /* from filter_buf */
int ui_page_rows(const struct ui *u);    /* rows visible in the focused pane */
const lt_group *ui_open_group_ptr(const struct ui *u);
void ui_next_theme(struct ui *u);
void ui_choose_cluster(struct ui *u); /* opens the cluster list popup */

/* tui.c: the state machine the loop drives (also driven directly by tests/unit/test_ui_state). */
void ui_state_init(struct ui *u, const struct lt_options *o, ui_source *src, int interval_ms);
void ui_state_free(struct ui *u);
void ui_take_snapshot(struct ui *u);           /* newest snapshot from the source becomes `next` */
void ui_adopt_next(struct ui *u, int64_t now); /* `next` replaces `snap` unless the user is moving */
void ui_rebuild_rows(struct ui *u);            /* rows from snap: build, filter, sort, follow the selection */
void ui_on_key(struct ui *u, int ch);          /* one key, through popups, the filter line and the key table */

/* reset_ui.c: the reset dialog in the loop */
void ui_reset_open(struct ui *u, bool undo); /* R / U on the selected group or partition */
void ui_delete_open(struct ui *u);           /* D on the selected group or partition */
void ui_reset_key(struct ui *u, int ch);
void ui_reset_wake(struct ui *u);            /* the worker's fd is readable */
int ui_reset_fd(const struct ui *u);         /* -1 when no job runs */
void ui_reset_free(struct ui *u);            /* waits for a running job (bounded by its timeouts) */

/* screen.c */
void screen_draw(struct ui *u);
/* The members of the open group (for the members pane and cursor clamping). */
size_t screen_members_count(const struct ui *u);

#endif
