/* keys.h — the key tables: every key the dashboard answers to, with its name (as written in the help
 * screen and the man page), its key-bar label, its help line, the panes it works in and its action. The
 * main table (the panes) is in keys.c; each mode that takes the keys while it is open (the filter prompt,
 * the cluster chooser, the popups) has a table of the same shape next to its actions (tmux's per-mode key
 * tables; the reset dialog's, in reset_dialog.h, has the same shape with its steps in place of panes). The
 * help screen, the key bar and the man-page check are all generated from the tables. A new mode: its table
 * beside its actions, an extern below, an entry in keys.c's modes[] and in input.c's mode_for.
 * UI thread only; the tables are constant. */
#ifndef LAGTOP_UI_KEYS_H
#define LAGTOP_UI_KEYS_H

#include <stdbool.h>
#include <stddef.h>

struct ui;

enum {
	UI_KEY_WRITES = 1u << 0, /* changes the cluster (offset resets): never offered in --read-only */
	UI_KEY_BAR_NARROW =
		1u << 1,           /* in the key bar only below UI_KEY_BAR_WIDE_COLS (its F-key twin is shown there) */
	UI_KEY_BAR_WIDE = 1u << 2, /* in the key bar only from UI_KEY_BAR_WIDE_COLS on (htop's F-keys) */
};

/* From this width the key bar shows htop's function keys (F1 Help, F3 Filter, F6 Sort, F10 Quit) in place of
 * their letters; at 80 columns the bar keeps the letters. */
#define UI_KEY_BAR_WIDE_COLS 100

struct ui_key {
	int codes[3];     /* curses key codes, 0-terminated */
	const char *name; /* "q", "Up", "PgDn", "F5", "Space" */
	const char *bar;  /* label in the bottom key bar, NULL when not shown there */
	const char *help; /* one line; consecutive keys with the same text share a help line */
	unsigned panes;   /* UI_PANE_* where the key works; one code may have several entries for disjoint panes */
	unsigned flags;   /* UI_KEY_* */
	void (*action)(struct ui *u);
};

/* One mode's table. */
struct ui_key_mode {
	const char *name;       /* the help screen's and the man page's heading for the mode: "Filter prompt" */
	const char *opened_by;  /* what opens it, for the help's heading: "/, F3, F4"; NULL for the main table */
	const char *other_help; /* what keys without an entry do, the help's last line for the mode; NULL: none */
	const struct ui_key *keys;
	size_t n;
	/* A key no entry takes: handled here (the filter prompt's typed text). NULL: ignored. */
	void (*other)(struct ui *u, int code);
};

/* The modes' tables, defined beside their actions. */
extern const struct ui_key_mode keys_main_mode;     /* keys.c: the panes */
extern const struct ui_key_mode keys_filter_mode;   /* filter_ui.c: the filter prompt (/) */
extern const struct ui_key_mode keys_clusters_mode; /* clusters_ui.c: the cluster chooser (c) */
extern const struct ui_key_mode keys_popup_mode;    /* input.c: the help, detail and error popups */
extern const struct ui_key_mode keys_columns_mode;  /* columns_ui.c: the column setup (F2, S) */
extern const struct ui_key_mode keys_sort_mode;     /* columns_ui.c: the sort chooser (F6, .) */

/* Every mode, i = 0 the main one; NULL past the end (the help screen and the man page test walk them). */
const struct ui_key_mode *keys_mode_at(size_t i);

/* Runs the action of m's entry bound to code in the focused pane, else m->other. Returns false when no
 * entry matched (m->other, if any, has then had the key). */
bool keys_dispatch_mode(struct ui *u, const struct ui_key_mode *m, int code);

/* Help lines from parallel arrays of names and help texts: consecutive entries with the same help share a
 * line ("Up, k   move up"). NULL-terminated, malloc'd; free with keys_help_free. The one joiner for every
 * table (the reset dialog's too). */
char **keys_help_join(size_t n, const char *const *names, const char *const *helps, int name_width);

/* The help lines of one mode, as keys_help_lines. */
char **keys_mode_help_lines(const struct ui_key_mode *m, bool read_only, int name_width);

/* The main table, entry i; NULL past the end (used by the help screen and the man page test). */
const struct ui_key *keys_at(size_t i);

/* Whether the key is offered at all in this mode (read-only removes UI_KEY_WRITES keys). */
bool keys_enabled(const struct ui_key *k, bool read_only);

/* Whether the key bar shows k at this width (UI_KEY_BAR_NARROW / UI_KEY_BAR_WIDE; keys without a label: never). */
bool keys_in_bar(const struct ui_key *k, int cols);

/* Runs the main table's action bound to code in the focused pane. Returns false when no key matched. */
bool keys_dispatch(struct ui *u, int code);

/* The main table's help text, one line per entry (keys sharing a help line joined by ", "), into a
 * NULL-terminated array of malloc'd strings; free with keys_help_free. */
char **keys_help_lines(bool read_only, int name_width);
void keys_help_free(char **lines);

#endif
