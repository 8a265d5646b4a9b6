/* test_markset.c — the partitions pane's marks (src/model/markset.c): toggle, membership by identity
 * across snapshots, pruning of partitions that went away, and the --topic arguments they become. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/markset.h"
#include "../lib/cmocka_main.h"

static lt_snapshot *group_with(const char *const *topics, const int32_t *parts, size_t n)
{
	lt_snapshot *s = snapshot_new();
	lt_group *g = snapshot_add_group(s, "g");
	for (size_t i = 0; i < n; i++)
		group_add_partition(g, topics[i], parts[i]);
	snapshot_finish(s);
	return s;
}

static lt_row prow(const lt_snapshot *s, size_t i)
{
	lt_row r = { &s->groups[0], &s->groups[0].partitions[i], NULL };
	return r;
}

static void toggle_membership_and_scopes(void **state)
{
	(void)state;
	const char *t[] = { "orders", "orders", "orders", "orders", "audit" };
	const int32_t p[] = { 0, 1, 2, 3, 0 };
	lt_snapshot *s = group_with(t, p, 5); /* sorted: audit/0, orders/0..3 */
	lt_markset m = { 0 };
	lt_row o3 = prow(s, 4), o1 = prow(s, 2), a0 = prow(s, 0);
	assert_true(markset_toggle(&m, &o3));
	assert_true(markset_toggle(&m, &o1));
	assert_true(markset_toggle(&m, &a0));
	assert_int_equal(m.n, 3);
	assert_true(markset_has(&m, &o1));
	assert_false(markset_has(&m, &(lt_row){ &s->groups[0], &s->groups[0].partitions[1], NULL }));
	/* kept sorted: the scopes come out per topic, partitions ascending */
	size_t n;
	char **sc = markset_scopes(&m, &n);
	assert_int_equal(n, 2);
	assert_string_equal(sc[0], "audit:0");
	assert_string_equal(sc[1], "orders:1,3");
	assert_null(sc[2]);
	for (size_t i = 0; i < n; i++)
		free(sc[i]);
	free(sc);
	/* toggling again unmarks */
	assert_false(markset_toggle(&m, &a0));
	assert_int_equal(m.n, 2);
	assert_false(markset_has(&m, &a0));
	/* group rows and topic rows are not markable */
	lt_row gr = { &s->groups[0], NULL, NULL };
	assert_false(markset_toggle(&m, &gr));
	assert_int_equal(m.n, 2);

	/* identity, not address: a new snapshot of the same partitions has them marked */
	lt_snapshot *s2 = group_with(t, p, 5);
	lt_row again = prow(s2, 4);
	assert_true(markset_has(&m, &again));
	assert_int_equal(markset_prune(&m, &s2->groups[0]), 0);
	assert_int_equal(m.n, 2);
	snapshot_unref(s2);

	/* orders/3 went away (offset deleted): its mark goes, the other stays */
	lt_snapshot *s3 = group_with(t, p, 3); /* orders/0..2 */
	assert_int_equal(markset_prune(&m, &s3->groups[0]), 1);
	assert_int_equal(m.n, 1);
	assert_true(markset_has_tp(&m, "orders", 1));
	assert_false(markset_has_tp(&m, "orders", 3));
	snapshot_unref(s3);
	assert_int_equal(markset_prune(&m, NULL), 1); /* the group is gone */
	assert_int_equal(m.n, 0);

	assert_true(markset_toggle(&m, &o1));
	markset_clear(&m);
	assert_int_equal(m.n, 0);
	assert_null(m.marks);
	sc = markset_scopes(&m, &n);
	assert_int_equal(n, 0);
	assert_null(sc[0]);
	free(sc);
	snapshot_unref(s);
}

static void many_partitions_one_topic(void **state)
{
	(void)state;
	enum { N = 300 };
	const char *t[N];
	int32_t p[N];
	for (int i = 0; i < N; i++) {
		t[i] = "big";
		p[i] = N - 1 - i;
	}
	lt_snapshot *s = group_with(t, p, N);
	lt_markset m = { 0 };
	for (int i = N - 1; i >= 0; i -= 2) { /* odd partitions, marked from the end */
		lt_row r = prow(s, (size_t)i);
		assert_true(markset_toggle(&m, &r));
	}
	assert_int_equal(m.n, N / 2);
	size_t n;
	char **sc = markset_scopes(&m, &n);
	assert_int_equal(n, 1);
	assert_int_equal(strncmp(sc[0], "big:1,3,5,", 10), 0);
	assert_non_null(strstr(sc[0], ",297,299"));
	assert_null(strstr(sc[0], ",2,"));
	free(sc[0]);
	free(sc);
	markset_clear(&m);
	snapshot_unref(s);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(toggle_membership_and_scopes),
	cmocka_unit_test(many_partitions_one_topic),
};

LT_TEST_MAIN(NULL, NULL)
