/* ui.h — the dashboard's state, shared by the loop (tui.c), the drawing (screen.c), the key actions
 * (keys.c and the modes' tables) and the files below. Internal to src/ui. Everything here runs on the UI
 * thread only: the collector and the reset worker reach it through their pipes, never through these
 * functions. `struct ui` owns its rows, filters, names and one reference to each snapshot it holds. */
#ifndef LAGTOP_UI_UI_H
#define LAGTOP_UI_UI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/columns.h"
#include "model/markset.h"
#include "model/snapshot.h"
#include "model/topic_view.h"
#include "ui/layout.h"
#include "ui/source.h"
#include "ui/theme.h"
#include "ui/tui.h"

/* Which pane a key applies to (ui_key.panes) and which one has the focus. */
enum ui_pane {
	UI_PANE_GROUPS = 1u << 0,
	UI_PANE_PARTS = 1u << 1,
	UI_PANE_MEMBERS = 1u << 2,
	UI_PANE_TOPICS = 1u << 3,       /* the topic view's top pane (T) */
	UI_PANE_TOPIC_GROUPS = 1u << 4, /* the groups reading the open topic */
};
#define UI_PANE_ALL (UI_PANE_GROUPS | UI_PANE_PARTS | UI_PANE_MEMBERS | UI_PANE_TOPICS | UI_PANE_TOPIC_GROUPS)
/* Panes that list rows with columns: sortable, filterable, clickable headers. */
#define UI_PANE_LISTS (UI_PANE_GROUPS | UI_PANE_PARTS | UI_PANE_TOPICS | UI_PANE_TOPIC_GROUPS)

enum ui_popup {
	UI_POPUP_NONE = 0,
	UI_POPUP_HELP,
	UI_POPUP_DETAIL,
	UI_POPUP_ERROR,
	UI_POPUP_CLUSTERS,
	UI_POPUP_RESET,
	UI_POPUP_COLUMNS, /* the column setup (F2, S): columns_ui.c */
	UI_POPUP_SORT,    /* the sort chooser (F6, .): columns_ui.c */
	UI_POPUP_PEEK,    /* the record at the committed offset and the position (v): peek_ui.c */
};

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
	ui_source *src;
	lt_snapshot *snap;  /* the snapshot being shown (one reference); rows point into it */
	lt_snapshot *next;  /* a newer one, adopted (with a rebuild of the rows) when the hold ends */
	int64_t next_since; /* monotonic ms when next arrived */

	struct ui_list groups, parts;
	char *open_group; /* group of the bottom pane, NULL when closed */

	/* The topic view (T): the top pane lists topics instead of groups; Enter opens a topic's groups in
	 * the bottom pane, Enter there that group's partitions (open_group), Esc goes back one step. */
	bool topic_view;
	struct ui_list topics, tgroups;
	char *open_topic;     /* topic of the bottom pane's groups, NULL when closed */
	lt_topic_view *tview; /* built from snap while the topic view is shown; the topic rows point into it */
	const lt_snapshot *tview_snap;

	/* Marked partitions (Space in the partitions pane) of marks_group: R and D act on them. They stay
	 * while the group is closed and reopened, and go when another group is opened or u clears them. */
	lt_markset marks;
	char *marks_group;

	bool mouse;        /* mouse reporting on (M toggles; --no-mouse, mouse = false) */
	bool show_members; /* bottom pane shows members instead of partitions */
	size_t mem_cursor, mem_top;
	/* The members pane's partitions text, one per member of mem_group (screen.c): made once per snapshot and
	 * group, not at each draw; mem_snap is a reference held while they are (dropped when a snapshot is
	 * adopted, screen_members_forget). */
	lt_snapshot *mem_snap;
	const lt_group *mem_group;
	char **mem_assigned;
	size_t n_mem_assigned;
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

	struct ui_reset *reset; /* the reset dialog (UI_POPUP_RESET), NULL when closed */
	struct rw_worker *rw;   /* the reset worker thread, made on first use */
	struct rw_job *rw_job;  /* the job it runs for the open dialog (NULL: none, or abandoned) */
	struct ui_peek *peek;   /* the record popup's read (peek_ui.c), NULL when none */

	/* columns_ui.c: each pane's columns, by lt_row_kind; the open column setup or sort chooser (NULL when
	 * neither is); the configuration file the setup saves to (NULL: none was read) */
	lt_colset colsets[LT_ROW_KINDS];
	struct ui_colsetup *colsetup;
	const char *config_path;
	char *config_made; /* the file the setup made when none was read (then config_path points to it) */

	struct ui_geom geom;
	bool color, ascii;
	const struct ui_glyphs *glyphs;
	struct ui_theme_list themes;
	size_t theme_idx;
	struct ui_theme theme;
};

/* list_state.c: the lists, the focus and the cursor (the operations the key actions use). */
struct ui_list *ui_focused_list(struct ui *u); /* NULL when the members pane has the focus */
unsigned ui_top_pane(const struct ui *u);      /* UI_PANE_GROUPS, or UI_PANE_TOPICS in the topic view */
unsigned ui_bottom_pane(const struct ui *u);   /* the bottom pane shown (UI_PANE_*), 0 when closed */
/* Adopts freshly built rows into l: sorts them, keeps the cursor on its row identity, measures the names.
 * Takes ownership of rows (malloc'd; they point into u->snap). */
void ui_list_adopt(struct ui *u, struct ui_list *l, lt_row *rows, size_t n);
void ui_rebuild_rows(struct ui *u);     /* rows from snap: build, filter, sort, follow the selection */
void ui_move(struct ui *u, long delta); /* moves the focused pane's cursor, clamped */
void ui_move_to(struct ui *u, bool end);
int ui_page_rows(const struct ui *u);                  /* rows visible in the focused pane */
void ui_open_group(struct ui *u, const lt_group *g);   /* the bottom pane shows g (copies its name) */
const lt_group *ui_open_group_ptr(const struct ui *u); /* the open group in snap, NULL if none or gone */

/* ui_state.c: the message line and the theme */
/* How long a message stays in the key bar. */
#define UI_MESSAGE_MS 2500
void ui_set_message(struct ui *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same for ms milliseconds (a note about the whole session stays longer). */
void ui_set_message_for(struct ui *u, int64_t ms, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void ui_next_theme(struct ui *u);

/* filter_ui.c: the filter prompt (/); its keys: keys_filter_mode (keys.h) */
void ui_apply_filter_text(struct ui *u); /* from filter_buf */

/* clusters_ui.c: the cluster chooser (c) and the switch; its keys: keys_clusters_mode (keys.h) */
void ui_choose_cluster(struct ui *u); /* opens the cluster list popup */

void ui_set_mouse(struct ui *u, bool on); /* mouse.c: turns mouse reporting on or off (curses' mousemask) */

/* topic_ui.c: the topic view's and the marks' state changes */
void ui_toggle_topic_view(struct ui *u); /* T */
void ui_open_topic(struct ui *u, const lt_topic_stats *t);
void ui_open_topic_group(struct ui *u);   /* Enter on a topic's group: its partitions */
bool ui_back_topic(struct ui *u);         /* Esc in the topic view; false: nothing to close */
void ui_rebuild_topic_rows(struct ui *u); /* the view and its lists from snap (topic view only) */
void ui_toggle_mark(struct ui *u);        /* Space in the partitions pane */
void ui_clear_marks(struct ui *u);        /* u */
void ui_clear_marks_quiet(struct ui *u);  /* without a message (cluster switch, exit) */
void ui_marks_follow(struct ui *u);       /* a group was opened: another group's marks go */
void ui_prune_marks(struct ui *u);        /* after a rebuild: marks of partitions gone go */
/* The marks of the open group (NULL when it has none): what R and D act on. */
const lt_markset *ui_open_marks(const struct ui *u);

/* mouse.c: one mouse event (screen cell, what happened) becomes the action a key would do. Pure over the
 * state and the geometry of the last draw, so tests/unit/test_ui_mouse drives it without a terminal. */
enum ui_mouse_kind { UI_MOUSE_PRESS, UI_MOUSE_WHEEL_UP, UI_MOUSE_WHEEL_DOWN };
void ui_mouse_event(struct ui *u, enum ui_mouse_kind kind, int y, int x);
void ui_mouse_key(struct ui *u); /* KEY_MOUSE: reads the event from curses and hands it to ui_mouse_event */

/* ui_state.c: the state machine the loop drives (also driven directly by tests/unit/test_ui_state). */
void ui_state_init(struct ui *u, const struct tui_settings *s, ui_source *src, int interval_ms);
void ui_state_free(struct ui *u);
/* The theme of s (or "default") into u->theme, the theme files into u->themes; -1 and err when s names an
 * unknown or broken theme. */
int ui_themes_init(struct ui *u, const struct tui_settings *s, char *err, size_t errlen);
void ui_take_snapshot(struct ui *u);           /* newest snapshot from the source becomes `next` */
void ui_adopt_next(struct ui *u, int64_t now); /* `next` replaces `snap` unless the user is moving */

/* input.c */
void ui_on_key(struct ui *u, int ch); /* one key, through popups, the filter line and the key table */

/* columns_ui.c: the panes' columns, the column setup and the sort chooser; their keys: keys_columns_mode and
 * keys_sort_mode (keys.h) */
/* The columns l shows, in order, before the width drops any (its colset, less those with nothing to show for
 * the open group): how many were written to out (room for LT_COL__COUNT). */
size_t ui_pane_columns(const struct ui *u, const struct ui_list *l, const lt_column **out);
void ui_columns_init(struct ui *u, const lt_colset *sets); /* sets: LT_ROW_KINDS of them, or NULL: defaults */
void ui_columns_free(struct ui *u);
void ui_columns_open(struct ui *u); /* F2, S: the focused pane's column setup */
void ui_sort_open(struct ui *u);    /* F6, .: the focused pane's sort chooser */
/* A list popup as the screen draws it (the column setup, the sort chooser). */
struct ui_list_popup {
	char *title;
	char **lines;
	size_t n, cursor;
};
void ui_list_popup_view(const struct ui *u, struct ui_list_popup *v);
void ui_list_popup_free(struct ui_list_popup *v);

/* reset_ui.c: the reset dialog in the loop */
void ui_reset_open(struct ui *u, bool undo); /* R / U on the selected group or partition */
void ui_delete_open(struct ui *u);           /* D on the selected group or partition */
void ui_reset_key(struct ui *u, int ch);
void ui_reset_wake(struct ui *u);    /* the worker's fd is readable */
int ui_reset_fd(const struct ui *u); /* -1 when no job runs */
void ui_reset_free(struct ui *u);    /* waits for a running job (bounded by its timeouts) */
/* peek_ui.c: the record popup (v) */
void ui_peek_open(struct ui *u);
int ui_peek_fd(const struct ui *u); /* -1 when no read runs */
void ui_peek_wake(struct ui *u);
void ui_peek_free(struct ui *u); /* waits for a running read (bounded by --timeout) */
/* The popup's title and lines (safe), for screen.c: formatted once when the read starts and once when its
 * answer arrives, not at every draw; owned by the popup (valid until the next ui_peek_* call). */
char *const *ui_peek_lines(const struct ui *u, const char **title, size_t *n);

/* screen.c */
void screen_draw(struct ui *u);
/* Where a list's columns are on screen (as drawn: the marks' gutter included); returns how many. */
size_t screen_list_slots(const struct ui *u, const struct ui_list *l, struct ui_col_slot *out);
/* The most keys the key bar can show (the main table's keys with a label, at any width). */
#define UI_KEY_BAR_MAX 32
/* A key in the key bar: its cells (the key's name and its label) and the key. */
struct ui_bar_slot {
	const struct ui_key *key;
	int x, width;
};
/* Where the key bar's keys are, as drawn at this width, focus and mode; none while the bar shows a message,
 * the filter line or a prompt instead (a click there does nothing). Returns how many. */
size_t screen_key_bar_slots(const struct ui *u, struct ui_bar_slot *out, size_t max);
/* The gutter before the partitions pane's rows: 2 cells ("* ") while the open group has marks, else 0. */
int screen_mark_gutter(const struct ui *u, const struct ui_list *l);
/* The members of the open group (for the members pane and cursor clamping). */
size_t screen_members_count(const struct ui *u);
/* The member shown on the members pane's line (0: the first below its header); SIZE_MAX past the last. A
 * member takes as many lines as its partitions need (they wrap under PARTITIONS). */
size_t screen_member_at(struct ui *u, int line);
/* Drops the members pane's texts of the snapshot shown (and its reference to it). */
void screen_members_forget(struct ui *u);

#endif
