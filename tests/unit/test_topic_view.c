/* test_topic_view.c — the topic view (src/model/topic_view.c): a snapshot regrouped by topic, each
 * partition's produce rate counted once however many groups read it, lags summed and maxed per group,
 * statuses with the pending rule; the topic panes' rows, filter, sort and row identities. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/columns.h"
#include "model/topic_view.h"
#include "../lib/cmocka_main.h"

static lt_partition *part(lt_group *g, const char *topic, int32_t p, int64_t lag, double prod, double cons,
			  lt_status st)
{
	lt_partition *x = group_add_partition(g, topic, p);
	x->has_lag = lag >= 0;
	x->lag = lag >= 0 ? lag : 0;
	x->has_rates = prod >= 0;
	x->produce_rate = prod;
	x->consume_rate = cons;
	x->status = st;
	return x;
}

/*   g1: a/0 lag 10 (prod 2), a/1 lag 5 (prod 3, STALL, time lag 9s), b/0 lag 7
 *   g2: a/1 lag 20 (prod 3, PENDING), a/2 lag 1 (prod 4)
 *   g3: c/0 (no lag, no rates)
 * Partitions are added out of order: snapshot_finish sorts them. */
static lt_snapshot *fixture(int64_t g2_a2_lag)
{
	lt_snapshot *s = snapshot_new();
	lt_group *g2 = snapshot_add_group(s, "g2");
	part(g2, "a", 2, g2_a2_lag, 4, 2, LT_STATUS_OK);
	part(g2, "a", 1, 20, 3, 2, LT_STATUS_PENDING);
	lt_group *g1 = snapshot_add_group(s, "g1");
	part(g1, "b", 0, 7, -1, 0, LT_STATUS_OK);
	lt_partition *slow = part(g1, "a", 1, 5, 3, 1, LT_STATUS_STALL);
	slow->has_time_lag = true;
	slow->time_lag_ms = 9000;
	slow->flags |= LT_PF_TIME_LAG_HIGH;
	part(g1, "a", 0, 10, 2, 1, LT_STATUS_OK);
	lt_group *g3 = snapshot_add_group(s, "g3");
	part(g3, "c", 0, -1, -1, 0, LT_STATUS_UNKNOWN);
	snapshot_finish(s);
	return s;
}

static void aggregates_per_topic_and_group(void **state)
{
	(void)state;
	lt_snapshot *s = fixture(1);
	lt_topic_view *v = topic_view_build(s);
	assert_int_equal(v->n_topics, 3);
	assert_int_equal(v->n_entries, 4); /* g1/a, g2/a, g1/b, g3/c */
	const lt_topic_stats *a = topic_view_find(v, "a");
	assert_non_null(a);
	assert_ptr_equal(a, &v->topics[0]);
	assert_null(a->group);
	assert_int_equal(a->n_partitions, 3); /* 0, 1, 2: partition 1 counted once */
	assert_int_equal(a->n_groups, 2);
	assert_int_equal(a->total_lag, 36); /* 10 + 5 + 20 + 1 */
	assert_int_equal(a->max_lag, 21);   /* g2's share: 20 + 1 */
	assert_true(a->has_rates);
	assert_true(a->produce_rate == 9.0); /* 2 + 3 + 4: a/1 once, not 12 */
	assert_true(a->consume_rate == 6.0); /* committed rates add up over groups */
	assert_true(a->has_max_time_lag);
	assert_int_equal(a->max_time_lag_ms, 9000);
	assert_true(a->time_lag_high);
	assert_int_equal(a->status, LT_STATUS_STALL); /* the partition's name, not the group's ERR */

	/* its groups, by id */
	assert_string_equal(a->entries[0].group->group, "g1");
	assert_string_equal(a->entries[1].group->group, "g2");
	const lt_topic_stats *g1a = &a->entries[0], *g2a = &a->entries[1];
	assert_int_equal(g1a->n_partitions, 2);
	assert_int_equal(g1a->parts[0].partition, 0);
	assert_int_equal(g1a->total_lag, 15);
	assert_int_equal(g1a->max_lag, 10);
	assert_int_equal(g1a->status, LT_STATUS_STALL);
	assert_int_equal(g2a->total_lag, 21);
	assert_int_equal(g2a->status, LT_STATUS_PENDING); /* pending and nothing worse than OK */
	assert_false(g2a->has_max_time_lag);

	const lt_topic_stats *b = topic_view_find(v, "b");
	assert_int_equal(b->total_lag, 7);
	assert_false(b->has_rates); /* no partition has rates yet */
	const lt_topic_stats *c = topic_view_find(v, "c");
	assert_false(c->has_lag);
	assert_int_equal(c->status, LT_STATUS_UNKNOWN);
	assert_null(topic_view_find(v, "nope"));
	topic_view_free(v);
	snapshot_unref(s);

	v = topic_view_build(NULL); /* no snapshot yet: an empty view */
	assert_int_equal(v->n_topics, 0);
	size_t n = 9;
	lt_row *rows = topic_view_rows(v, NULL, NULL, &n);
	assert_int_equal(n, 0);
	free(rows);
	topic_view_free(v);
}

static const char *topic_of(const lt_row *r)
{
	return r->topic->topic;
}

static void rows_filter_sort_and_identity(void **state)
{
	(void)state;
	lt_snapshot *s = fixture(1);
	lt_topic_view *v = topic_view_build(s);
	size_t n;
	lt_row *rows = topic_view_rows(v, NULL, NULL, &n);
	assert_int_equal(n, 3);
	rows_sort(rows, n, LT_COL_T_LAG, true);
	assert_string_equal(topic_of(&rows[0]), "a");
	assert_string_equal(topic_of(&rows[1]), "b");
	assert_string_equal(topic_of(&rows[2]), "c"); /* unknown lag last */
	rows_sort(rows, n, LT_COL_T_TOPIC, true);
	assert_string_equal(topic_of(&rows[0]), "c");
	rows_sort(rows, n, LT_COL_T_GROUPS, false); /* ties (1 group) by topic name */
	assert_string_equal(topic_of(&rows[0]), "b");
	assert_string_equal(topic_of(&rows[1]), "c");
	assert_string_equal(topic_of(&rows[2]), "a");

	char buf[64];
	column_by_id(LT_COL_T_PRODUCE_RATE)->format(&rows[2], buf, sizeof buf, false);
	assert_string_equal(buf, "9.0/s");
	column_by_id(LT_COL_T_MAX_LAG)->format(&rows[2], buf, sizeof buf, true);
	assert_string_equal(buf, "21");
	column_by_id(LT_COL_T_LAG)->format(&rows[1], buf, sizeof buf, true);
	assert_string_equal(buf, "-");

	/* the cursor's identity survives a new snapshot (new addresses) */
	lt_row_key key = { 0 };
	row_key_set(&key, &rows[2]);
	assert_null(key.group);
	assert_string_equal(key.topic, "a");
	free(rows);

	/* a topic matches on its name or a group reading it */
	char err[128];
	lt_filter *f = filter_new("g2", err, sizeof err);
	rows = topic_view_rows(v, NULL, f, &n);
	assert_int_equal(n, 1);
	assert_string_equal(topic_of(&rows[0]), "a");
	free(rows);
	filter_free(f);

	/* one topic's groups: matched on the group id, sorted by their lag on the topic */
	const lt_topic_stats *a = topic_view_find(v, "a");
	rows = topic_view_rows(v, a, NULL, &n);
	assert_int_equal(n, 2);
	rows_sort(rows, n, LT_COL_TG_LAG, true);
	assert_string_equal(rows[0].group->group, "g2");
	assert_string_equal(rows[1].group->group, "g1");
	rows_sort(rows, n, LT_COL_TG_GROUP, false);
	assert_string_equal(rows[0].group->group, "g1");
	column_by_id(LT_COL_TG_STATUS)->format(&rows[0], buf, sizeof buf, false);
	assert_string_equal(buf, "STALL");
	lt_row_key gkey = { 0 };
	row_key_set(&gkey, &rows[1]);
	assert_string_equal(gkey.group, "g2");
	assert_false(row_key_equal(&key, &rows[1])); /* a topic's key is not its group row's */
	free(rows);
	f = filter_new("^g1$", err, sizeof err);
	rows = topic_view_rows(v, a, f, &n);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0].group->group, "g1");
	free(rows);
	filter_free(f);
	topic_view_free(v);
	snapshot_unref(s);

	s = fixture(500); /* g2 now lags more: the rows re-sort, the keys still find their rows */
	v = topic_view_build(s);
	rows = topic_view_rows(v, NULL, NULL, &n);
	size_t found = n;
	for (size_t i = 0; i < n; i++)
		if (row_key_equal(&key, &rows[i]))
			found = i;
	assert_true(found < n);
	assert_string_equal(topic_of(&rows[found]), "a");
	assert_int_equal(rows[found].topic->total_lag, 535);
	free(rows);
	rows = topic_view_rows(v, topic_view_find(v, "a"), NULL, &n);
	assert_false(row_key_equal(&gkey, &rows[0]));
	assert_true(row_key_equal(&gkey, &rows[1]));
	free(rows);
	row_key_clear(&key);
	row_key_clear(&gkey);
	topic_view_free(v);
	snapshot_unref(s);
}

/* A group row and a partition row behave as before the topic view (its third pointer is NULL). */
static void group_rows_unchanged(void **state)
{
	(void)state;
	lt_snapshot *s = fixture(1);
	char err[128];
	lt_filter *f = filter_new("b", err, sizeof err);
	size_t n;
	lt_row *rows = rows_build(s, LT_ROWS_GROUPS, NULL, f, &n);
	assert_int_equal(n, 1); /* g1 reads topic b */
	assert_string_equal(rows[0].group->group, "g1");
	assert_null(rows[0].topic);
	free(rows);
	filter_free(f);
	size_t nc;
	const lt_column *tc = columns_for(LT_ROWS_TOPICS, &nc);
	assert_int_equal(nc, 8);
	assert_int_equal(tc[0].id, LT_COL_T_TOPIC);
	for (size_t i = 0; i < nc; i++)
		assert_int_equal(tc[i].kind, LT_ROWS_TOPICS);
	const lt_column *gc = columns_for(LT_ROWS_TOPIC_GROUPS, &nc);
	assert_int_equal(gc[0].id, LT_COL_TG_GROUP);
	assert_int_equal(gc[nc - 1].id, LT_COL__COUNT - 1);
	assert_int_equal(column_by_name(LT_ROWS_TOPICS, "produce-rate")->id, LT_COL_T_PRODUCE_RATE);
	snapshot_unref(s);
}

/* MAX-TIME-LAG in the topics pane and a topic's groups pane: "~" when the largest time lag is an estimate
 * (LT_PF_TIME_LAG_ESTIMATED), as the groups and partitions panes mark it; none when it was read exactly. */
static void max_time_lag_marks_estimates(void **state)
{
	(void)state;
	for (int estimated = 0; estimated < 2; estimated++) {
		lt_snapshot *s = snapshot_new();
		lt_group *g = snapshot_add_group(s, "g");
		lt_partition *big = part(g, "a", 0, 10, 1, 1, LT_STATUS_OK);
		big->has_time_lag = true;
		big->time_lag_ms = 9000;
		if (estimated)
			big->flags |= LT_PF_TIME_LAG_ESTIMATED;
		lt_partition *small = part(g, "a", 1, 5, 1, 1, LT_STATUS_OK);
		small->has_time_lag = true;
		small->time_lag_ms = 4000;
		small->flags |= estimated ? 0 : LT_PF_TIME_LAG_ESTIMATED; /* not the largest: no mark */
		snapshot_finish(s);
		lt_topic_view *v = topic_view_build(s);
		size_t n = 0;
		lt_row *topics = topic_view_rows(v, NULL, NULL, &n);
		assert_int_equal(n, 1);
		char buf[64];
		column_by_id(LT_COL_T_MAX_TIME_LAG)->format(&topics[0], buf, sizeof buf, false);
		assert_string_equal(buf, estimated ? "~9s" : "9s");
		lt_row *groups = topic_view_rows(v, topic_view_find(v, "a"), NULL, &n);
		assert_int_equal(n, 1);
		column_by_id(LT_COL_TG_MAX_TIME_LAG)->format(&groups[0], buf, sizeof buf, false);
		assert_string_equal(buf, estimated ? "~9s" : "9s");
		free(groups);
		free(topics);
		topic_view_free(v);
		snapshot_unref(s);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(aggregates_per_topic_and_group),
	cmocka_unit_test(rows_filter_sort_and_identity),
	cmocka_unit_test(group_rows_unchanged),
	cmocka_unit_test(max_time_lag_marks_estimates),
};

LT_TEST_MAIN(NULL, NULL)
