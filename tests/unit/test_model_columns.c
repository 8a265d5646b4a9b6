/* test_model_columns.c — column tables, sort, filter, rows, row keys and human formatting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "model/colkey.h"
#include "model/columns.h"
#include "model/model.h"
#include "../lib/cmocka_main.h"

/* ---- formatting ---- */

static void fmt_count_boundaries(void **state)
{
	(void)state;
	char b[32];
	const struct {
		int64_t v;
		const char *want;
	} cases[] = {
		{ -1, "-" },
		{ 0, "0" },
		{ 999, "999" },
		{ 1000, "1.0K" },
		{ 1049, "1.0K" },
		{ 1050, "1.1K" }, /* round half up in tenths (1.05 → 1.1 may be 1.0 in binary; see below) */
		{ 1234, "1.2K" },
		{ 9949, "9.9K" },
		{ 9960, "10K" },
		{ 12345, "12K" },
		{ 99499, "99K" },
		{ 999499, "999K" },
		{ 999500, "1.0M" },
		{ 999999, "1.0M" },
		{ 3400000, "3.4M" },
		{ INT64_C(5600000000), "5.6G" },
		{ INT64_C(7800000000000), "7.8T" },
		{ INT64_MAX, "9.2E" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		format_count(cases[i].v, b, sizeof b);
		if (cases[i].v == 1050)
			assert_true(strcmp(b, "1.1K") == 0 || strcmp(b, "1.0K") == 0);
		else
			assert_string_equal(b, cases[i].want);
	}
	/* tiny buffers are respected */
	char small[3];
	format_count(123456, small, sizeof small);
	assert_int_equal(strlen(small), 2);
	format_count(5, NULL, 0);
}

static void fmt_duration_boundaries(void **state)
{
	(void)state;
	char b[32];
	const struct {
		int64_t ms;
		const char *want;
	} cases[] = {
		{ -1, "-" },           { 0, "0s" },
		{ 999, "0s" },         { 59999, "59s" },
		{ 60000, "1m00s" },    { 187000, "3m07s" },
		{ 3599999, "59m59s" }, { 3600000, "1h00m" },
		{ 11040000, "3h04m" }, { 86399999, "23h59m" },
		{ 86400000, "1d00h" }, { 183600000, "2d03h" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		format_duration_ms(cases[i].ms, b, sizeof b);
		assert_string_equal(b, cases[i].want);
	}
	format_duration_ms(INT64_MAX, b, sizeof b);
	assert_non_null(strchr(b, 'd'));
	format_duration_exact(11047123, b, sizeof b);
	assert_string_equal(b, "3h04m07.123s");
	format_duration_exact(1500, b, sizeof b);
	assert_string_equal(b, "1.500s");
	format_duration_exact(90061001, b, sizeof b);
	assert_string_equal(b, "1d01h01m01.001s");
	format_duration_exact(-5, b, sizeof b);
	assert_string_equal(b, "-");
}

static void fmt_rate_boundaries(void **state)
{
	(void)state;
	char b[32];
	const struct {
		double v;
		const char *want;
	} cases[] = {
		{ 0, "0/s" },       { 0.5, "0.5/s" }, { 12, "12/s" }, { 999.4, "999/s" }, { 999.6, "1.0K/s" },
		{ 1234, "1.2K/s" }, { -1, "-" },      { NAN, "-" },   { INFINITY, "-" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		format_rate(cases[i].v, b, sizeof b);
		assert_string_equal(b, cases[i].want);
	}
	format_rate_exact(1234.567, b, sizeof b);
	assert_string_equal(b, "1234.57/s");
}

static void fmt_sparkline(void **state)
{
	(void)state;
	char b[64];
	int64_t v[] = { 0, 7, 14 };
	format_sparkline(v, 3, true, b, sizeof b);
	assert_string_equal(b, "_+@");
	format_sparkline(v, 3, false, b, sizeof b);
	assert_string_equal(b, "\u2581\u2585\u2588");
	int64_t flat[] = { 5, 5 };
	format_sparkline(flat, 2, true, b, sizeof b);
	assert_string_equal(b, "__");
	format_sparkline(v, 0, true, b, sizeof b);
	assert_string_equal(b, "-");
	char small[5]; /* room for one 3-byte glyph only */
	format_sparkline(v, 3, false, small, sizeof small);
	assert_int_equal(strlen(small), 3);
	int64_t big[] = { 0, INT64_MAX };
	format_sparkline(big, 2, true, b, sizeof b);
	assert_string_equal(b, "_@");
}

/* ---- tables ---- */

static void tables(void **state)
{
	(void)state;
	size_t n;
	const lt_column *g = columns_for(LT_ROWS_GROUPS, &n);
	const char *gnames[] = { "group",        "state",        "type",  "members", "topics",      "partitions", "lag",
				 "max-time-lag", "consume-rate", "trend", "status",  "last-commit", "expires" };
	assert_int_equal(n, 13);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(g[i].name, gnames[i]);
		assert_int_equal(g[i].kind, LT_ROWS_GROUPS);
		assert_ptr_equal(column_by_id(g[i].id), &g[i]);
		assert_non_null(g[i].key);
		assert_non_null(g[i].format);
		assert_non_null(g[i].help);
		assert_true(g[i].width >= (int)strlen(g[i].title));
	}
	const lt_column *p = columns_for(LT_ROWS_PARTITIONS, &n);
	const char *ptitles[] = { "TOPIC",       "PARTITION",   "LOG-START", "COMMITTED", "LOG-END",    "LAG",
				  "TIME-LAG",    "RATE",        "ETA",       "STATUS",    "CLIENT-ID",  "HOST",
				  "LAST-COMMIT", "COMMITS/MIN", "UNMOVED",   "POSITION",  "UNCOMMITTED" };
	assert_int_equal(n, 17);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(p[i].title, ptitles[i]);
		assert_int_equal(p[i].kind, LT_ROWS_PARTITIONS);
		assert_ptr_equal(column_by_id(p[i].id), &p[i]);
		assert_true(p[i].width >= (int)strlen(p[i].title));
	}
	assert_int_equal(column_by_name(LT_ROWS_GROUPS, "lag")->id, LT_COL_LAG);
	assert_int_equal(column_by_name(LT_ROWS_PARTITIONS, "lag")->id, LT_COL_P_LAG);
	assert_int_equal(column_by_name(LT_ROWS_PARTITIONS, "TIME-LAG")->id, LT_COL_TIME_LAG);
	assert_null(column_by_name(LT_ROWS_GROUPS, "topic"));
	assert_null(column_by_name(LT_ROWS_GROUPS, NULL));
	assert_null(column_by_id(LT_COL__COUNT));
	assert_true(column_by_id(LT_COL_LAG)->default_desc);
	assert_false(column_by_id(LT_COL_GROUP)->default_desc);
}

/* The column table is the one place a column is described: every id has its row (a row left out of
 * the designated initializers would be all zeros), with everything the help screen, the sort and the
 * formatters need; names and titles are unique within a pane; each pane's rows are together. */
static void every_column_has_one_complete_row(void **state)
{
	(void)state;
	size_t seen = 0;
	for (int kind = LT_ROWS_GROUPS; kind <= LT_ROWS_TOPIC_GROUPS; kind++) {
		size_t n;
		const lt_column *c = columns_for((lt_row_kind)kind, &n);
		assert_true(n > 0);
		for (size_t i = 0; i < n; i++) {
			assert_int_equal(c[i].kind, kind);
			for (size_t j = 0; j < i; j++) {
				if (strcasecmp(c[i].name, c[j].name) == 0)
					fail_msg("column name %s twice in one pane", c[i].name);
				if (strcmp(c[i].title, c[j].title) == 0)
					fail_msg("column title %s twice in one pane", c[i].title);
			}
			assert_ptr_equal(column_by_name((lt_row_kind)kind, c[i].name), &c[i]);
		}
		seen += n;
	}
	assert_int_equal(seen, LT_COL__COUNT); /* the panes' columns are the whole table */
	for (int id = 0; id < LT_COL__COUNT; id++) {
		const lt_column *c = column_by_id((lt_col_id)id);
		assert_non_null(c);
		if (!c->name || !c->title || !c->help || !c->format || !c->key)
			fail_msg("column id %d: its row lacks a name, title, help, format or key", id);
		assert_int_equal(c->id, id);
		assert_true(c->name[0] && c->title[0] && c->help[0]);
		for (const char *q = c->name; *q; q++) /* a config name: lower case, digits and '-' */
			assert_true((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '-');
		assert_true(c->width >= (int)strlen(c->title));
		assert_true(c->priority > 0 && c->priority <= 100);
		assert_true(c->key_kind == LT_KEY_INT || c->key_kind == LT_KEY_DOUBLE || c->key_kind == LT_KEY_STR);
	}
}

/* The dashboard's per-column behaviour comes from the rows: which cells turn the warning colour, which
 * draw a sparkline, which show exact offsets when they fit. */
static void warn_series_and_exact_come_from_the_rows(void **state)
{
	(void)state;
	char gname[] = "g", tname[] = "t";
	lt_group g = { .group = gname };
	lt_partition p = { .topic = tname, .partition = 0 };
	g.partitions = &p;
	g.n_partitions = 1;
	g.n_trend = 3;
	g.trend[0] = 5, g.trend[1] = 7, g.trend[2] = 9;
	lt_row gr = { &g, NULL }, pr = { &g, &p };
	const lt_col_id warns[] = { LT_COL_MAX_TIME_LAG, LT_COL_EXPIRES, LT_COL_TIME_LAG, LT_COL_T_MAX_TIME_LAG,
				    LT_COL_TG_MAX_TIME_LAG };
	const lt_col_id exact[] = { LT_COL_MEMBERS,   LT_COL_PARTITIONS, LT_COL_LAG,        LT_COL_LOG_START,
				    LT_COL_COMMITTED, LT_COL_LOG_END,    LT_COL_P_LAG,      LT_COL_T_PARTITIONS,
				    LT_COL_T_GROUPS,  LT_COL_T_LAG,      LT_COL_T_MAX_LAG,  LT_COL_TG_PARTITIONS,
				    LT_COL_TG_LAG,    LT_COL_POSITION,   LT_COL_UNCOMMITTED };
	for (int id = 0; id < LT_COL__COUNT; id++) {
		const lt_column *c = column_by_id((lt_col_id)id);
		bool w = false, e = false;
		for (size_t i = 0; i < sizeof warns / sizeof *warns; i++)
			w |= (int)warns[i] == id;
		for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
			e |= (int)exact[i] == id;
		assert_int_equal(c->warn != NULL, w);
		assert_int_equal(c->exact_when_fits, e);
		assert_int_equal(c->series != NULL, id == LT_COL_TREND);
		if (c->warn) /* nothing above a threshold yet */
			assert_false(c->warn(c->kind == LT_ROWS_GROUPS ? &gr : &pr));
	}
	g.time_lag_high = true;
	assert_true(column_by_id(LT_COL_MAX_TIME_LAG)->warn(&gr));
	g.has_expiry = true;
	assert_false(column_by_id(LT_COL_EXPIRES)->warn(&gr));
	g.expiry_warn = true;
	assert_true(column_by_id(LT_COL_EXPIRES)->warn(&gr));
	assert_false(column_by_id(LT_COL_TIME_LAG)->warn(&pr));
	p.flags |= LT_PF_TIME_LAG_HIGH;
	assert_true(column_by_id(LT_COL_TIME_LAG)->warn(&pr));
	size_t n = 0;
	const int64_t *v = column_by_id(LT_COL_TREND)->series(&gr, &n);
	assert_int_equal(n, 3);
	assert_int_equal(v[2], 9);
}

/* doc/lagtop.1's DASHBOARD COLUMNS lists the table: every pane's titles, in table order, and nothing
 * else (its .B lines, troff escapes undone). A column added to the table without its man page entry fails
 * here. */
static void man_page_lists_the_table(void **state)
{
	(void)state;
	const char *srcdir = getenv("LT_SRCDIR");
	char path[512];
	snprintf(path, sizeof path, "%s/doc/lagtop.1", srcdir ? srcdir : ".");
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char line[1024];
	bool in = false;
	size_t k = 0;
	const lt_column *all = column_by_id((lt_col_id)0); /* the panes in table order: groups, partitions,
							    * topics, a topic's groups */
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, ".SH", 3) == 0) {
			in = strcmp(line, ".SH DASHBOARD COLUMNS\n") == 0;
			continue;
		}
		if (!in || strncmp(line, ".B ", 3) != 0 || line[3] == '<' || line[3] == '>')
			continue;
		char title[64];
		size_t n = 0;
		for (const char *c = line + 3; *c && *c != '\n' && n + 1 < sizeof title; c++) {
			if (*c == '\\' && c[1] == '-')
				c++;
			title[n++] = *c;
		}
		title[n] = '\0';
		if (k >= LT_COL__COUNT)
			fail_msg("doc/lagtop.1, DASHBOARD COLUMNS: %s is not a column of the table", title);
		if (strcmp(title, all[k].title) != 0)
			fail_msg("doc/lagtop.1, DASHBOARD COLUMNS: %s where the table has %s (column %zu)", title,
				 all[k].title, k);
		k++;
	}
	fclose(f);
	assert_int_equal(k, LT_COL__COUNT);
}

/* ---- the commit-stream columns (LAST-COMMIT, from __consumer_offsets) ---- */

/* Column id formats row r (exact: numbers in full) as exactly want. */
static void expect_cell(lt_col_id id, const lt_row *r, bool exact, const char *want)
{
	char b[64];
	column_by_id(id)->format(r, b, sizeof b, exact);
	assert_string_equal(b, want);
}

static void commit_stream_columns(void **state)
{
	(void)state;
	char gname[] = "g", hname[] = "h", tname[] = "t";
	lt_group g = { .group = gname };
	lt_partition p = { .topic = tname, .partition = 0 };
	g.partitions = &p;
	g.n_partitions = 1;
	lt_row gr = { &g, NULL }, pr = { &g, &p };

	/* unknown: "-" everywhere */
	expect_cell(LT_COL_LAST_COMMIT, &gr, false, "-");
	expect_cell(LT_COL_EXPIRES, &gr, false, "-");
	expect_cell(LT_COL_COMMITS_PER_MIN, &pr, false, "-");
	expect_cell(LT_COL_UNMOVED, &pr, false, "-");

	g.has_last_commit = true, g.last_commit_age_ms = 187000;
	expect_cell(LT_COL_LAST_COMMIT, &gr, false, "3m07s");
	g.last_commit_age_ms = -300; /* broker clock a little ahead: an age of 0, not a negative one */
	expect_cell(LT_COL_LAST_COMMIT, &gr, false, "0s");
	g.has_expiry = true, g.expires_in_ms = 2 * 86400000LL + 3 * 3600000LL;
	expect_cell(LT_COL_EXPIRES, &gr, false, "2d03h");
	g.expires_in_ms = -1000;
	expect_cell(LT_COL_EXPIRES, &gr, false, "overdue");

	p.has_last_commit = true, p.last_commit_age_ms = 5000, p.commits_per_min = 0.4;
	expect_cell(LT_COL_P_LAST_COMMIT, &pr, false, "5s");
	expect_cell(LT_COL_COMMITS_PER_MIN, &pr, false, "0.4");
	p.commits_per_min = 12;
	expect_cell(LT_COL_COMMITS_PER_MIN, &pr, false, "12");
	p.commits_per_min = 1500;
	expect_cell(LT_COL_COMMITS_PER_MIN, &pr, false, "1.5K");
	p.has_unmoved = true, p.unmoved_ms = 600000, p.repeating = true;
	expect_cell(LT_COL_UNMOVED, &pr, false, "10m00s=");

	/* sorting: known before unknown, by age / time left */
	lt_group g2 = { .group = hname };
	lt_row rows[2] = { { &g2, NULL }, { &g, NULL } };
	g.expires_in_ms = 5000;
	rows_sort(rows, 2, LT_COL_EXPIRES, false);
	assert_ptr_equal(rows[0].group, &g);
	rows_sort(rows, 2, LT_COL_EXPIRES, true);
	assert_ptr_equal(rows[0].group, &g);
	/* low priority: the 80-column essentials are dropped after them */
	assert_true(column_by_id(LT_COL_LAST_COMMIT)->priority < column_by_id(LT_COL_MEMBERS)->priority);
	assert_true(column_by_id(LT_COL_COMMITS_PER_MIN)->priority < column_by_id(LT_COL_COMMITTED)->priority);
	/* TYPE is the first to go at 80 columns: lower than every other column of the groups pane */
	size_t ng;
	const lt_column *gc = columns_for(LT_ROWS_GROUPS, &ng);
	for (size_t i = 0; i < ng; i++)
		if (gc[i].id != LT_COL_TYPE)
			assert_true(column_by_id(LT_COL_TYPE)->priority < gc[i].priority);
}

/* ---- a snapshot to sort and filter ---- */

static lt_snapshot *fixture(void)
{
	lt_snapshot *s = snapshot_new();
	const char *groups[] = { "billing", "Orders-App", "audit", "payments" };
	for (int gi = 0; gi < 4; gi++) {
		lt_group *g = snapshot_add_group(s, groups[gi]);
		lt_member *m = group_add_member(g, "m", gi == 1 ? "orders-client" : "c", "/10.0.0.9");
		for (int pi = 0; pi < 3; pi++) {
			const char *topic = gi % 2 ? "orders" : "events";
			lt_partition *p = group_add_partition(g, topic, 2 - pi);
			p->committed = 10 * pi;
			p->log_end = 100;
			if (pi == 1)
				member_add_assignment(m, topic, 2 - pi);
		}
	}
	snapshot_finish(s);
	lt_history *h = history_new(NULL);
	model_enrich(h, s);
	history_free(h);
	/* sorted: Orders-App (orders), audit (events), billing (events), payments (orders) */
	lt_group *audit = (lt_group *)snapshot_find_group(s, "audit"); /* lag unknown */
	for (size_t i = 0; i < audit->n_partitions; i++)
		audit->partitions[i].has_lag = false;
	((lt_group *)snapshot_find_group(s, "billing"))->partitions[0].has_lag = false; /* events/0 */
	return s;
}

static void sort_groups_by_lag(void **state)
{
	(void)state;
	lt_snapshot *s = fixture();
	size_t n;
	lt_row *r = rows_build(s, LT_ROWS_GROUPS, NULL, NULL, &n);
	assert_int_equal(n, 4);
	((lt_group *)snapshot_find_group(s, "billing"))->total_lag = 500;
	((lt_group *)snapshot_find_group(s, "Orders-App"))->total_lag = 7;
	((lt_group *)snapshot_find_group(s, "payments"))->total_lag = 7;
	rows_sort(r, n, LT_COL_LAG, true);
	assert_string_equal(r[0].group->group, "billing");
	assert_string_equal(r[1].group->group, "Orders-App"); /* tie → group name */
	assert_string_equal(r[2].group->group, "payments");
	assert_string_equal(r[3].group->group, "audit"); /* unknown last */
	rows_sort(r, n, LT_COL_LAG, false);
	assert_string_equal(r[0].group->group, "Orders-App");
	assert_string_equal(r[1].group->group, "payments"); /* tie-break not reversed */
	assert_string_equal(r[2].group->group, "billing");
	assert_string_equal(r[3].group->group, "audit"); /* unknown still last */
	/* public comparator: unknown after known, total order */
	const lt_column *c = column_by_id(LT_COL_LAG);
	assert_true(column_compare(c, &r[3], &r[0]) > 0);
	assert_true(column_compare(c, &r[0], &r[1]) < 0);
	assert_int_equal(column_compare(c, &r[0], &r[0]), 0);
	/* by name */
	rows_sort(r, n, LT_COL_GROUP, false);
	assert_string_equal(r[0].group->group, "Orders-App"); /* strcmp: upper case first */
	assert_string_equal(r[3].group->group, "payments");
	rows_sort(r, n, LT_COL_GROUP, true);
	assert_string_equal(r[0].group->group, "payments");
	free(r);
	snapshot_unref(s);
}

static void sort_by_trend_negative_and_zero(void **state)
{
	(void)state;
	/* doubles: negative, -0.0, 0, positive, unknown — radix keys must keep their order */
	lt_snapshot *s = snapshot_new();
	const char *names[] = { "a", "b", "c", "d", "e", "f" };
	const int64_t first[] = { 100, 0, 5, 7, 0, 1000 };
	const int64_t last[] = { 40, 0, 5, 9, 0, 1 };
	const size_t n_trend[] = { 2, 2, 2, 2, 1, 2 };
	for (int i = 0; i < 6; i++) {
		lt_group *g = snapshot_add_group(s, names[i]);
		g->n_trend = n_trend[i];
		g->trend[0] = first[i];
		g->trend[g->n_trend - 1] = last[i];
	}
	snapshot_finish(s);
	size_t n;
	lt_row *r = rows_build(s, LT_ROWS_GROUPS, NULL, NULL, &n);
	rows_sort(r, n, LT_COL_TREND, false);
	const char *asc = "fabcde"; /* -999, -60, 0 (b, c by name), 2, unknown */
	for (size_t i = 0; i < n; i++)
		assert_int_equal(r[i].group->group[0], asc[i]);
	rows_sort(r, n, LT_COL_TREND, true);
	const char *desc = "dbcafe";
	for (size_t i = 0; i < n; i++)
		assert_int_equal(r[i].group->group[0], desc[i]);
	free(r);
	snapshot_unref(s);
}

static void sort_partitions_stable(void **state)
{
	(void)state;
	lt_snapshot *s = fixture();
	size_t n;
	lt_row *r = rows_build(s, LT_ROWS_PARTITIONS, NULL, NULL, &n);
	assert_int_equal(n, 12);
	/* every column, both directions: a total order (no equal neighbours under the comparator
	 * plus tie-break) and unknowns after knowns */
	for (int col = LT_COL_TOPIC; col < LT_COL__COUNT; col++)
		for (int desc = 0; desc < 2; desc++) {
			rows_sort(r, n, (lt_col_id)col, desc);
			const lt_column *c = column_by_id((lt_col_id)col);
			for (size_t i = 1; i < n; i++) {
				int cmp = column_compare(c, &r[i - 1], &r[i]);
				assert_true(cmp != 0);
				if (!desc) /* the public comparator is the ascending order */
					assert_true(cmp < 0);
			}
			/* sorting again (e.g. on the next refresh) gives the same order */
			lt_row *copy = malloc(n * sizeof *copy);
			memcpy(copy, r, n * sizeof *copy);
			rows_sort(copy, n, (lt_col_id)col, desc);
			assert_memory_equal(copy, r, n * sizeof *copy);
			free(copy);
		}
	rows_sort(r, n, LT_COL_P_LAG, true);
	/* billing events/0 has no lag: last in both directions */
	assert_string_equal(r[n - 1].group->group, "billing");
	assert_int_equal(r[n - 1].part->partition, 0);
	assert_int_equal(r[0].part->lag, 100);
	assert_string_equal(r[0].group->group, "Orders-App"); /* ties: group name order among lag 100 */
	rows_sort(r, n, LT_COL_P_LAG, false);
	assert_string_equal(r[n - 1].group->group, "billing");
	assert_int_equal(r[0].part->lag, 80);
	/* client id: unowned partitions ("-") last */
	rows_sort(r, n, LT_COL_CLIENT_ID, false);
	assert_int_equal(r[0].part->member, 0);
	assert_int_equal(r[n - 1].part->member, -1);
	rows_sort(r, n, LT_COL_CLIENT_ID, true);
	assert_string_equal(r[0].group->members[0].client_id, "orders-client");
	assert_int_equal(r[n - 1].part->member, -1);
	free(r);
	rows_sort(NULL, 0, LT_COL_LAG, true);
	snapshot_unref(s);
}

static void rows_of_one_group(void **state)
{
	(void)state;
	lt_snapshot *s = fixture();
	const lt_group *g = snapshot_find_group(s, "payments");
	size_t n;
	lt_row *r = rows_build(s, LT_ROWS_PARTITIONS, g, NULL, &n);
	assert_int_equal(n, 3);
	for (size_t i = 0; i < n; i++)
		assert_ptr_equal(r[i].group, g);
	assert_int_equal(r[0].part->partition, 0); /* snapshot order: (topic, partition) */
	free(r);
	r = rows_build(NULL, LT_ROWS_GROUPS, NULL, NULL, &n);
	assert_int_equal(n, 0);
	free(r);
	lt_snapshot *empty = snapshot_new();
	r = rows_build(empty, LT_ROWS_PARTITIONS, NULL, NULL, &n);
	assert_int_equal(n, 0);
	free(r);
	snapshot_unref(empty);
	snapshot_unref(s);
}

static void formatting_rows(void **state)
{
	(void)state;
	lt_snapshot *s = fixture();
	const lt_group *g = snapshot_find_group(s, "Orders-App");
	lt_row gr = { g, NULL };
	expect_cell(LT_COL_GROUP, &gr, false, "Orders-App");
	expect_cell(LT_COL_STATE, &gr, false, "Unknown");
	expect_cell(LT_COL_TYPE, &gr, false, "-"); /* nothing said which */
	((lt_group *)g)->type = LT_GTYPE_CLASSIC;
	expect_cell(LT_COL_TYPE, &gr, false, "classic");
	((lt_group *)g)->type = LT_GTYPE_UNKNOWN;
	expect_cell(LT_COL_MEMBERS, &gr, false, "1");
	expect_cell(LT_COL_TOPICS, &gr, false, "1");
	expect_cell(LT_COL_LAG, &gr, false, "270");
	expect_cell(LT_COL_CONSUME_RATE, &gr, false, "-"); /* one refresh: no rates */
	expect_cell(LT_COL_STATUS, &gr, false,
		    "-"); /* one refresh of a lagging group: not evaluated yet, so not "OK" */
	expect_cell(LT_COL_TREND, &gr, true, "270 -> 270");

	lt_row audit = { snapshot_find_group(s, "audit"), NULL };
	expect_cell(LT_COL_LAG, &audit, false, "-");

	lt_partition *p = &((lt_group *)g)->partitions[1];
	lt_row pr = { g, p };
	p->committed = 1234567;
	expect_cell(LT_COL_COMMITTED, &pr, false, "1.2M");
	expect_cell(LT_COL_COMMITTED, &pr, true, "1234567");
	expect_cell(LT_COL_LOG_START, &pr, false, "-");
	expect_cell(LT_COL_CLIENT_ID, &pr, false, "orders-client");
	expect_cell(LT_COL_HOST, &pr, false, "/10.0.0.9");
	p->has_rates = true;
	p->consume_rate = 1500;
	p->has_eta = false;
	expect_cell(LT_COL_ETA, &pr, false, "never");
	expect_cell(LT_COL_RATE, &pr, false, "1.5K/s");
	p->has_eta = true;
	p->eta_ms = 187000;
	expect_cell(LT_COL_ETA, &pr, false, "3m07s");
	p->has_time_lag = true;
	p->time_lag_ms = 11040000;
	expect_cell(LT_COL_TIME_LAG, &pr, false, "3h04m");
	p->has_time_lag = false;
	expect_cell(LT_COL_TIME_LAG, &pr, false, "-");
	lt_row unowned = { g, &((lt_group *)g)->partitions[0] };
	expect_cell(LT_COL_CLIENT_ID, &unowned, false, "-");
	expect_cell(LT_COL_PARTITION, &unowned, false, "0");
	/* a member index out of range is not followed */
	((lt_group *)g)->partitions[0].member = 5;
	expect_cell(LT_COL_HOST, &unowned, false, "-");
	((lt_group *)g)->partitions[0].member = -1;

	/* a consumer-protocol group seen through the classic API: members and owners unknown ("?"), not
	 * "0" members or "-" (nobody); its state as ListGroups gave it; unless Empty, which has none */
	lt_group *kg = (lt_group *)g;
	kg->members_unreadable = true;
	kg->state = LT_GROUP_RECONCILING;
	size_t n_members = kg->n_members;
	kg->n_members = 0;
	expect_cell(LT_COL_MEMBERS, &gr, false, "?");
	expect_cell(LT_COL_STATE, &gr, false, "Reconciling");
	expect_cell(LT_COL_CLIENT_ID, &unowned, false, "?");
	expect_cell(LT_COL_HOST, &unowned, false, "?");
	lt_sort_key k;
	column_key(column_by_id(LT_COL_MEMBERS), &gr, &k);
	assert_false(k.known); /* sorts with the unknowns, not as 0 */
	kg->type = LT_GTYPE_CONSUMER;
	expect_cell(LT_COL_TYPE, &gr, false, "consumer");
	kg->state = LT_GROUP_EMPTY;
	expect_cell(LT_COL_MEMBERS, &gr, false, "0");
	expect_cell(LT_COL_CLIENT_ID, &unowned, false, "-");
	kg->n_members = n_members;
	kg->members_unreadable = false;
	snapshot_unref(s);
}

/* a before b in (group, topic, partition) order */
static bool row_tiebreak_check(const lt_row *a, const lt_row *b)
{
	int c = strcmp(a->group->group, b->group->group);
	if (c)
		return c < 0;
	c = strcmp(a->part->topic, b->part->topic);
	if (c)
		return c < 0;
	return a->part->partition < b->part->partition;
}

/* ---- filter ---- */

static size_t count_groups(const lt_snapshot *s, const lt_filter *f)
{
	size_t n;
	free(rows_build(s, LT_ROWS_GROUPS, NULL, f, &n));
	return n;
}

static void filter_substring(void **state)
{
	(void)state;
	lt_snapshot *s = fixture();
	char err[128];
	lt_filter *f = filter_new("ORDERS", err, sizeof err);
	assert_non_null(f);
	assert_string_equal(filter_text(f), "ORDERS");
	/* Orders-App by name; payments reads topic "orders" */
	assert_int_equal(count_groups(s, f), 2);
	size_t n;
	lt_row *r = rows_build(s, LT_ROWS_PARTITIONS, NULL, f, &n);
	assert_int_equal(n, 6);
	free(r);
	filter_free(f);

	f = filter_new("audit", err, sizeof err);
	assert_int_equal(count_groups(s, f), 1);
	lt_row x = { snapshot_find_group(s, "audit"), NULL };
	assert_true(filter_match(f, &x));
	filter_free(f);

	f = filter_new("", err, sizeof err);
	assert_int_equal(count_groups(s, f), 4);
	filter_free(f);
	f = filter_new("zzz", err, sizeof err);
	assert_int_equal(count_groups(s, f), 0);
	filter_free(f);
	assert_true(filter_match(NULL, &x));
	filter_free(NULL);
	assert_string_equal(filter_text(NULL), "");
	snapshot_unref(s);
}

static void filter_regex(void **state)
{
	(void)state;
	lt_snapshot *s = fixture();
	char err[128] = "x";
	lt_filter *f = filter_new("^(audit|pay)", err, sizeof err);
	assert_non_null(f);
	assert_string_equal(err, "");
	assert_int_equal(count_groups(s, f), 2);
	filter_free(f);
	f = filter_new("^ORDERS$", err, sizeof err); /* case-insensitive, matches the topic */
	assert_int_equal(count_groups(s, f), 2);
	filter_free(f);
	f = filter_new("s-a", err, sizeof err); /* no metacharacter: substring */
	assert_int_equal(count_groups(s, f), 1);
	filter_free(f);
	f = filter_new("ing$", err, sizeof err);
	assert_int_equal(count_groups(s, f), 1);
	filter_free(f);
	snapshot_unref(s);
}

/* rows_build's filtered partition rows are exactly the rows filter_match accepts */
static void filter_rows_agree(void **state)
{
	(void)state;
	lt_snapshot *s = fixture();
	const char *texts[] = { "orders", "ORD", "^audit$", "bill|pay", "events", "zz", "", "s-a", "^(e|O)" };
	size_t n_all;
	lt_row *all = rows_build(s, LT_ROWS_PARTITIONS, NULL, NULL, &n_all);
	for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
		char err[128];
		lt_filter *f = filter_new(texts[t], err, sizeof err);
		assert_non_null(f);
		size_t n;
		lt_row *r = rows_build(s, LT_ROWS_PARTITIONS, NULL, f, &n);
		size_t k = 0;
		for (size_t i = 0; i < n_all; i++)
			if (filter_match(f, &all[i])) {
				assert_true(k < n);
				assert_ptr_equal(r[k].part, all[i].part);
				k++;
			}
		assert_int_equal(k, n);
		free(r);
		const lt_group *g = snapshot_find_group(s, "payments");
		r = rows_build(s, LT_ROWS_PARTITIONS, g, f, &n);
		k = 0;
		for (size_t j = 0; j < g->n_partitions; j++) {
			lt_row x = { g, &g->partitions[j] };
			k += filter_match(f, &x);
		}
		assert_int_equal(k, n);
		free(r);
		filter_free(f);
	}
	free(all);
	snapshot_unref(s);
}

static void filter_bad_regex(void **state)
{
	(void)state;
	char err[160] = "";
	assert_null(filter_new("orders(", err, sizeof err));
	assert_non_null(strstr(err, "orders("));
	assert_non_null(strstr(err, "regex"));
	assert_true(strlen(err) > strlen("bad filter regex 'orders(': "));
	err[0] = '\0';
	assert_null(filter_new("[a-", err, sizeof err));
	assert_true(strlen(err) > 0);
	assert_null(filter_new("*(", NULL, 0)); /* no error buffer: still NULL, no crash */
}

/* ---- row keys ---- */

static void row_keys(void **state)
{
	(void)state;
	lt_snapshot *s = fixture();
	size_t n;
	lt_row *r = rows_build(s, LT_ROWS_PARTITIONS, NULL, NULL, &n);
	lt_row_key k = { 0 };
	row_key_set(&k, &r[4]);
	lt_row target = r[4];
	rows_sort(r, n, LT_COL_P_LAG, true);
	size_t found = 0, where = 0;
	for (size_t i = 0; i < n; i++)
		if (row_key_equal(&k, &r[i])) {
			found++;
			where = i;
		}
	assert_int_equal(found, 1);
	assert_ptr_equal(r[where].part, target.part);

	/* survives a new snapshot with the same content */
	lt_snapshot *s2 = fixture();
	size_t n2;
	lt_row *r2 = rows_build(s2, LT_ROWS_PARTITIONS, NULL, NULL, &n2);
	found = 0;
	for (size_t i = 0; i < n2; i++)
		found += row_key_equal(&k, &r2[i]);
	assert_int_equal(found, 1);

	/* group key matches the group row only */
	lt_row grow = { r[0].group, NULL };
	row_key_set(&k, &grow);
	assert_null(k.topic);
	assert_true(row_key_equal(&k, &grow));
	assert_false(row_key_equal(&k, &r[0]));
	row_key_clear(&k);
	assert_null(k.group);
	assert_false(row_key_equal(&k, &grow));
	row_key_clear(&k);
	free(r);
	free(r2);
	snapshot_unref(s);
	snapshot_unref(s2);
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* 100,000 partition rows (1,000 groups x 100): rows_build + rows_sort give a correct order; the
 * time is reported as a TAP comment, not asserted (speed belongs to bench/). */
static void many_rows(void **state)
{
	(void)state;
	lt_snapshot *s = snapshot_new();
	char name[32];
	for (int gi = 0; gi < 1000; gi++) {
		snprintf(name, sizeof name, "group-%04d", (gi * 7919) % 1000);
		lt_group *g = snapshot_add_group(s, name);
		for (int pi = 0; pi < 100; pi++) {
			snprintf(name, sizeof name, "topic-%02d", pi % 10);
			lt_partition *p = group_add_partition(g, name, pi / 10);
			p->has_lag = (pi % 13) != 0;
			p->lag = (gi * 31 + pi * 17) % 1000;
		}
	}
	snapshot_finish(s);
	double t0 = now_ms();
	size_t n;
	lt_row *r = rows_build(s, LT_ROWS_PARTITIONS, NULL, NULL, &n);
	rows_sort(r, n, LT_COL_P_LAG, true);
	double t1 = now_ms();
	assert_int_equal(n, 100000);
	size_t unknown = 0;
	for (size_t i = 1; i < n; i++) {
		const lt_partition *a = r[i - 1].part, *b = r[i].part;
		if (!b->has_lag) {
			unknown++;
			continue;
		}
		assert_true(a->has_lag);
		assert_true(a->lag > b->lag || (a->lag == b->lag && row_tiebreak_check(&r[i - 1], &r[i])));
	}
	assert_int_equal(unknown + (r[0].part->has_lag ? 0 : 1), 1000 * 8);
	rows_sort(r, n, LT_COL_TOPIC, false);
	double t2 = now_ms();
	printf("# 100,000 rows: rows_build + rows_sort(lag) %.1f ms, rows_sort(topic) %.1f ms (this build)\n", t1 - t0,
	       t2 - t1);
	free(r);
	snapshot_unref(s);
}

/* A member's partitions, as the members pane shows them: by topic, sorted, runs as ranges. */
static void assignment_ranges(void **state)
{
	(void)state;
	char orders[] = "orders", click[] = "clickstream", audit[] = "audit";
	struct lt_topic_partition tp[] = {
		{ orders, 2 }, { click, 0 }, { click, 4 },  { click, 8 },  { click, 1 }, { click, 2 },
		{ click, 3 },  { click, 5 }, { click, 12 }, { orders, 3 }, { audit, 7 },
	};
	char buf[128];
	format_assignment(tp, sizeof tp / sizeof tp[0], buf, sizeof buf);
	assert_string_equal(buf, "audit:7 clickstream:0-5,8,12 orders:2-3");
	format_assignment(tp, 0, buf, sizeof buf);
	assert_string_equal(buf, "-");
	format_assignment(tp, sizeof tp / sizeof tp[0], buf, 12); /* cut, never overrun */
	assert_true(strlen(buf) < 12);
}

/* ---- a pane's chosen columns (colset.c) ---- */

static void colset_default_puts_position_between_committed_and_log_end(void **state)
{
	(void)state;
	lt_colset s;
	colset_default(LT_ROWS_PARTITIONS, &s);
	size_t n;
	columns_for(LT_ROWS_PARTITIONS, &n);
	assert_int_equal(s.n, n);
	size_t c = s.n, p = s.n, e = s.n;
	for (size_t i = 0; i < s.n; i++) {
		assert_true(s.shown[i]);
		c = s.ids[i] == LT_COL_COMMITTED ? i : c;
		p = s.ids[i] == LT_COL_POSITION ? i : p;
		e = s.ids[i] == LT_COL_LOG_END ? i : e;
	}
	assert_int_equal(p, c + 1);
	assert_int_equal(e, p + 1);
	for (unsigned k = 0; k < LT_ROW_KINDS; k++) { /* every pane by its config name */
		lt_row_kind kind;
		assert_true(row_kind_by_name(row_kind_name((lt_row_kind)k), &kind));
		assert_int_equal(kind, k);
	}
	lt_row_kind kind;
	assert_false(row_kind_by_name("members", &kind));
}

static void colset_parse_orders_hides_and_keeps_the_name_first(void **state)
{
	(void)state;
	lt_colset s, before;
	char err[512];
	const char *names[] = { "lag", "STATE" }; /* names are case-insensitive; "group" left out */
	assert_int_equal(colset_parse(LT_ROWS_GROUPS, names, 2, &s, err, sizeof err), 0);
	const char *got[LT_COL__COUNT];
	assert_int_equal(colset_names(&s, got, LT_COL__COUNT), 3);
	assert_string_equal(got[0], "group");
	assert_string_equal(got[1], "lag");
	assert_string_equal(got[2], "state");
	size_t n;
	columns_for(LT_ROWS_GROUPS, &n);
	assert_int_equal(s.n, n); /* the others are there, hidden */
	assert_false(s.shown[3]);

	/* a bad name leaves the set as it was, and names the bad one */
	before = s;
	const char *bad[] = { "lag", "nope" };
	assert_int_equal(colset_parse(LT_ROWS_GROUPS, bad, 2, &s, err, sizeof err), -1);
	assert_non_null(strstr(err, "unknown column 'nope' in groups (known: group, state,"));
	assert_true(colset_equal(&s, &before));

	/* the name column never hides or moves; the others move and toggle */
	colset_toggle(&s, 0);
	assert_true(s.shown[0]);
	assert_int_equal(colset_move(&s, 1, -1), 1);
	assert_int_equal(colset_move(&s, 0, 1), 0);
	assert_int_equal(colset_move(&s, 1, 1), 2);
	assert_int_equal(s.ids[1], LT_COL_STATE);
	assert_int_equal(s.ids[2], LT_COL_LAG);
	colset_toggle(&s, 2);
	assert_false(s.shown[2]);
	const lt_column *shown[LT_COL__COUNT];
	assert_int_equal(colset_shown_columns(&s, shown), 2);
	assert_int_equal(shown[1]->id, LT_COL_STATE);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(fmt_count_boundaries),
	cmocka_unit_test(commit_stream_columns),
	cmocka_unit_test(fmt_duration_boundaries),
	cmocka_unit_test(fmt_rate_boundaries),
	cmocka_unit_test(fmt_sparkline),
	cmocka_unit_test(assignment_ranges),
	cmocka_unit_test(tables),
	cmocka_unit_test(every_column_has_one_complete_row),
	cmocka_unit_test(warn_series_and_exact_come_from_the_rows),
	cmocka_unit_test(man_page_lists_the_table),
	cmocka_unit_test(sort_groups_by_lag),
	cmocka_unit_test(sort_by_trend_negative_and_zero),
	cmocka_unit_test(sort_partitions_stable),
	cmocka_unit_test(rows_of_one_group),
	cmocka_unit_test(formatting_rows),
	cmocka_unit_test(filter_substring),
	cmocka_unit_test(filter_regex),
	cmocka_unit_test(filter_rows_agree),
	cmocka_unit_test(filter_bad_regex),
	cmocka_unit_test(row_keys),
	cmocka_unit_test(colset_default_puts_position_between_committed_and_log_end),
	cmocka_unit_test(colset_parse_orders_hides_and_keeps_the_name_first),
	cmocka_unit_test(many_rows),
};

LT_TEST_MAIN(NULL, NULL)
