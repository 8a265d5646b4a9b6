/* columns.h — the column tables of the two row kinds (groups, partitions), and sorting, filtering
 * and formatting over them. Pure C: the UI draws what these describe, --once prints them.
 *
 * A row is a view into a snapshot: a group row is a `const lt_group *`, a partition row is a
 * (group, partition) pair. Rows are rebuilt from each new snapshot; the UI keeps its cursor on a
 * row *identity* (row_key) rather than an index.
 */
#ifndef LAGTOP_MODEL_COLUMNS_H
#define LAGTOP_MODEL_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

typedef enum {
	LT_ROWS_GROUPS = 0,
	LT_ROWS_PARTITIONS,
	LT_ROWS_TOPICS,       /* the topic view: one row per topic (topic_view.h) */
	LT_ROWS_TOPIC_GROUPS, /* one topic's groups, with their lag on it */
} lt_row_kind;

/* Column ids. Group pane first, then partition pane; names in the table are stable (config files
 * save names, never these numbers). */
typedef enum {
	/* groups pane */
	LT_COL_GROUP = 0,
	LT_COL_STATE,
	LT_COL_TYPE, /* classic / consumer (KIP-848) */
	LT_COL_MEMBERS,
	LT_COL_TOPICS,
	LT_COL_PARTITIONS,
	LT_COL_LAG,
	LT_COL_MAX_TIME_LAG,
	LT_COL_CONSUME_RATE,
	LT_COL_TREND,
	LT_COL_STATUS,
	LT_COL_LAST_COMMIT, /* from the commit stream (__consumer_offsets) */
	LT_COL_EXPIRES,
	/* partitions pane */
	LT_COL_TOPIC,
	LT_COL_PARTITION,
	LT_COL_LOG_START,
	LT_COL_COMMITTED,
	LT_COL_LOG_END,
	LT_COL_P_LAG,
	LT_COL_TIME_LAG,
	LT_COL_RATE,
	LT_COL_ETA,
	LT_COL_P_STATUS,
	LT_COL_CLIENT_ID,
	LT_COL_HOST,
	LT_COL_P_LAST_COMMIT, /* from the commit stream (__consumer_offsets) */
	LT_COL_COMMITS_PER_MIN,
	LT_COL_UNMOVED,
	LT_COL_POSITION, /* the consumer's own position, from the metrics it publishes */
	LT_COL_UNCOMMITTED,
	/* topics pane (topic_view.h) */
	LT_COL_T_TOPIC,
	LT_COL_T_PARTITIONS,
	LT_COL_T_PRODUCE_RATE,
	LT_COL_T_GROUPS,
	LT_COL_T_LAG,
	LT_COL_T_MAX_LAG,
	LT_COL_T_MAX_TIME_LAG,
	LT_COL_T_STATUS,
	/* a topic's groups pane: each group's share of the topic */
	LT_COL_TG_GROUP,
	LT_COL_TG_STATE,
	LT_COL_TG_PARTITIONS,
	LT_COL_TG_LAG,
	LT_COL_TG_MAX_TIME_LAG,
	LT_COL_TG_CONSUME_RATE,
	LT_COL_TG_STATUS,
	LT_COL__COUNT
} lt_col_id;

struct lt_topic_stats;
typedef struct lt_row {
	const lt_group *group;              /* NULL for a topic row */
	const lt_partition *part;           /* NULL for a group row */
	const struct lt_topic_stats *topic; /* topic rows and a topic's group rows (topic_view.h); else NULL */
} lt_row;

/* A column's sort key for one row: read once per row per sort (rows.c), then compared without
 * touching the row again. Unknown keys sort last whatever the direction. */
typedef enum { LT_KEY_INT = 0, LT_KEY_DOUBLE, LT_KEY_STR } lt_key_kind;

typedef struct lt_sort_key {
	union {
		int64_t i;
		double d;
		const char *s; /* points into the snapshot */
	} v;
	bool known;
} lt_sort_key;

/* One row of the column table (columns.c): everything about a column, so adding one is adding its
 * row and its accessors (doc/ARCHITECTURE.md, "How to add a column"). Sorting, the help screen,
 * the layout and the detail view all read this; nothing else switches on a column id. */
typedef struct lt_column {
	lt_col_id id; /* its index in the table */
	lt_row_kind kind;
	const char *name;  /* stable config name, e.g. "lag", "max-time-lag" */
	const char *title; /* header text, e.g. "LAG" */
	int width;         /* preferred width in cells */
	int priority;      /* lower is dropped first when the terminal is narrow; 100 = never dropped */
	bool align_right;
	bool default_desc;    /* first sort on this column is descending (lag, rates) */
	bool exact_when_fits; /* the dashboard shows format(exact=true) when it fits (offsets, counts) */
	bool offset;          /* an offset (log start, committed, position, log end): a row shows all of them
			       * exact or all abbreviated, never some of each (layout_offsets_exact) */
	const char *help;     /* one line for the help screen and the man page */
	lt_key_kind key_kind; /* which member of lt_sort_key key() fills (LT_KEY_INT unless said) */
	/* The row's sort key; NULL: the column does not sort. Called only with rows of the column's
	 * kind (a partition column never sees a group row). */
	void (*key)(const lt_row *r, lt_sort_key *k);
	/* human form ("1.2M", "3h04m", "-" for unknown) into buf; exact=true gives the full value */
	void (*format)(const lt_row *r, char *buf, size_t len, bool exact);
	/* optional: true when this row's cell is drawn in the warning colour (above a threshold) */
	bool (*warn)(const lt_row *r);
	/* optional: the values the dashboard draws as a sparkline instead of format()'s text */
	const int64_t *(*series)(const lt_row *r, size_t *n);
} lt_column;

/* The table for one row kind, in display order (each kind's rows are contiguous in the table). */
const lt_column *columns_for(lt_row_kind kind, size_t *n);
const lt_column *column_by_id(lt_col_id id);
const lt_column *column_by_name(lt_row_kind kind, const char *name);

/* ---- a pane's columns as the operator chose them (F2, the configuration's panes.NAME.columns) ----
 * Every column of the kind, in display order, each shown or hidden. The pane's first column (its name:
 * GROUP, TOPIC) is always shown and always first: rows are told apart by it. */
typedef struct lt_colset {
	lt_row_kind kind;
	size_t n; /* every column of the kind */
	lt_col_id ids[LT_COL__COUNT];
	bool shown[LT_COL__COUNT]; /* by position in ids */
} lt_colset;

#define LT_ROW_KINDS 4
/* The pane's name in the configuration: "groups", "partitions", "topics", "topic_groups"; NULL past the end. */
const char *row_kind_name(lt_row_kind kind);
/* The kind of a pane name; false when no pane has that name. */
bool row_kind_by_name(const char *name, lt_row_kind *kind);
/* Every column shown, in the default order (the table's, with the partitions' POSITION between COMMITTED and
 * LOG-END: committed <= position <= log end reads left to right). */
void colset_default(lt_row_kind kind, lt_colset *s);
/* The named columns shown in the order given, every other one hidden after them (default order), the name
 * column first whatever the list says. 0, or -1 with a one-line err naming the bad or repeated name
 * ("unknown column 'x' in partitions (known: topic, ...)"); *s is then untouched. */
int colset_parse(lt_row_kind kind, const char *const *names, size_t n, lt_colset *s, char *err, size_t errlen);
/* The shown columns' config names, in order ("topic", "partition", ...): how many were written to out. */
size_t colset_names(const lt_colset *s, const char **out, size_t max);
/* The shown columns, in order: how many were written to out (room for LT_COL__COUNT). */
size_t colset_shown_columns(const lt_colset *s, const lt_column **out);
/* Moves the entry at i one place up (dir < 0) or down (dir > 0); the name column never moves and nothing
 * moves above it. Returns the entry's new position. */
size_t colset_move(lt_colset *s, size_t i, int dir);
/* Shows or hides the entry at i (the name column stays shown). */
void colset_toggle(lt_colset *s, size_t i);
bool colset_equal(const lt_colset *a, const lt_colset *b);
/* Columns with nothing to show for this group, dropped before any other when the width is short: the
 * consumer's position and what depends on it when no consumer of g reports a position. */
bool column_absent_for(const lt_column *c, const lt_group *g);

/* Compares two rows by the column's key, then the fixed tie-break: <0, 0, >0 like strcmp. Unknown
 * values after known ones. */
int column_compare(const lt_column *c, const lt_row *a, const lt_row *b);

/* Sorts rows by column, ascending or descending, with the fixed tie-break (group, topic,
 * partition) so the order is total and stable across refreshes. */
void rows_sort(lt_row *rows, size_t n, lt_col_id col, bool descending);

/* A filter: substring (case-insensitive) or, when the text is a valid extended regex containing a
 * regex metacharacter, a regex. A group row matches on its id or any topic it reads, a partition row on
 * its group id or topic, a topic row on its name or any group reading it, a topic's group row on the
 * group id. */
typedef struct lt_filter lt_filter;
lt_filter *filter_new(const char *text, char *err, size_t errlen); /* NULL + err on a bad regex */
bool filter_match(const lt_filter *f, const lt_row *r);
const char *filter_text(const lt_filter *f);
void filter_free(lt_filter *f);

/* Builds the rows of a snapshot: every group (kind GROUPS) or every partition of one group
 * (kind PARTITIONS, group != NULL), keeping only rows the filter matches (f may be NULL).
 * Returns a malloc'd array; *n is set. */
lt_row *rows_build(const lt_snapshot *s, lt_row_kind kind, const lt_group *group, const lt_filter *f, size_t *n);

/* Identity of a row that survives refreshes and re-sorts: "group" or "group\0topic\0partition"
 * compared with row_key_equal; a topic row is (NULL, topic, -1), a topic's group row (group, topic, -1). */
typedef struct lt_row_key {
	char *group;       /* NULL for topic rows */
	char *topic;       /* NULL for group rows */
	int32_t partition; /* -1 unless a partition row */
} lt_row_key;
void row_key_set(lt_row_key *k, const lt_row *r);
bool row_key_equal(const lt_row_key *k, const lt_row *r);
void row_key_clear(lt_row_key *k);

/* Human formatting shared by every output. All write "-" for unknown values. */
void format_count(int64_t v, char *buf, size_t len);        /* 999, 1.2K, 3.4M, 5.6G, 7.8T */
void format_duration_ms(int64_t ms, char *buf, size_t len); /* 0s, 59s, 3m07s, 3h04m, 2d03h */
void format_rate(double per_s, char *buf, size_t len);      /* 0/s, 12/s, 1.2K/s */
void format_per_min(double per_min, char *buf, size_t len); /* 0, 0.2, 12, 1.2K (commits per minute) */
/* Exact forms (the detail view, exact=true): "3h04m07.123s", "1234.57/s". */
void format_duration_exact(int64_t ms, char *buf, size_t len);
void format_rate_exact(double per_s, char *buf, size_t len);
/* A member's partitions, by topic and sorted, runs as ranges: "clickstream:0-5,8,12 orders:2"; "-" when none.
 * Cut to fit buf, never overrun. */
void format_assignment(const struct lt_topic_partition *tp, size_t n, char *buf, size_t len);
/* One glyph per value scaled between the values' min and max: UTF-8 blocks, or ASCII "_.-=+*#@". */
void format_sparkline(const int64_t *v, size_t n, bool ascii, char *buf, size_t len);

#endif
