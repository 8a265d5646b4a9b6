/* test_snapshot.c — building, sorting, linking and freeing snapshots. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/snapshot.h"
#include "../lib/cmocka_main.h"

static void groups_sorted_and_found(void **state)
{
	(void)state;
	lt_snapshot *s = snapshot_new();
	const char *names[] = { "zeta", "alpha", "mid", "beta", "a", "b", "c", "d", "e", "f", "g" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		snapshot_add_group(s, names[i]);
	snapshot_finish(s);
	assert_int_equal(s->n_groups, 11);
	for (size_t i = 1; i < s->n_groups; i++)
		assert_true(strcmp(s->groups[i - 1].group, s->groups[i].group) < 0);
	assert_non_null(snapshot_find_group(s, "mid"));
	assert_string_equal(snapshot_find_group(s, "zeta")->group, "zeta");
	assert_null(snapshot_find_group(s, "nope"));
	snapshot_unref(s);
}

/* --describe of a group on a cluster with no groups at all asked an empty snapshot: bsearch got a NULL
 * array (UBSan: "null pointer passed as argument 2"). */
static void empty_snapshot_and_brokers(void **state)
{
	(void)state;
	lt_snapshot *s = snapshot_new();
	snapshot_finish(s);
	assert_null(snapshot_find_group(s, "nope"));
	assert_null(snapshot_find_broker(s, 1));
	snapshot_add_broker(s, 3, "kafka-3", 9093);
	snapshot_add_broker(s, 1, "kafka-1", 9092);
	assert_string_equal(snapshot_find_broker(s, 1)->host, "kafka-1");
	assert_int_equal(snapshot_find_broker(s, 3)->port, 9093);
	assert_null(snapshot_find_broker(s, 2));
	snapshot_unref(s);
}

static void partitions_linked_to_members(void **state)
{
	(void)state;
	lt_snapshot *s = snapshot_new();
	lt_group *g = snapshot_add_group(s, "g");
	lt_partition *p = group_add_partition(g, "t", 1);
	p->committed = 10;
	group_add_partition(g, "t", 0)->committed = 5;
	group_add_partition(g, "old", 0)->committed = 1; /* committed, no owner */
	lt_member *m = group_add_member(g, "m-1", "c1", "/127.0.0.1");
	member_add_assignment(m, "t", 0);
	member_add_assignment(m, "t", 1);
	member_add_assignment(m, "t", 2); /* assigned, never committed */
	snapshot_finish(s);

	g = &s->groups[0];
	assert_int_equal(g->n_partitions, 4);
	assert_string_equal(g->partitions[0].topic, "old");
	assert_int_equal(g->partitions[0].member, -1);
	assert_int_equal(g->partitions[1].partition, 0);
	assert_int_equal(g->partitions[1].committed, 5);
	assert_int_equal(g->partitions[1].member, 0);
	assert_int_equal(g->partitions[3].partition, 2);
	assert_int_equal(g->partitions[3].committed, LT_OFFSET_NONE);
	assert_int_equal(g->partitions[3].member, 0);
	snapshot_unref(s);
}

/* A group whose members are assigned partitions it has never committed (a new group): the partitions
 * come from the assignment alone (no bsearch over the empty, NULL array: UBSan). */
static void assigned_without_any_commit(void **state)
{
	(void)state;
	lt_snapshot *s = snapshot_new();
	lt_group *g = snapshot_add_group(s, "new");
	lt_member *m = group_add_member(g, "m-1", "c1", "/127.0.0.1");
	member_add_assignment(m, "t", 1);
	member_add_assignment(m, "t", 0);
	snapshot_finish(s);
	g = &s->groups[0];
	assert_int_equal(g->n_partitions, 2);
	assert_int_equal(g->partitions[0].partition, 0);
	assert_int_equal(g->partitions[0].member, 0);
	assert_int_equal(g->partitions[1].committed, LT_OFFSET_NONE);
	snapshot_unref(s);
}

/* Topic names are interned per snapshot (snapshot.h): one pointer per name across groups, rows and
 * assignments, distinct names apart, and the table grows past its first capacity (64 slots). */
static void topic_names_interned(void **state)
{
	(void)state;
	lt_snapshot *s = snapshot_new();
	char name[32];
	for (int gi = 0; gi < 3; gi++) {
		snprintf(name, sizeof name, "g%d", gi);
		lt_group *g = snapshot_add_group(s, name);
		lt_member *m = group_add_member(g, "m", "c", "h");
		for (int t = 0; t < 100; t++) {
			snprintf(name, sizeof name, "topic-%03d", t);
			group_add_partition(g, name, gi)->committed = t;
			member_add_assignment(m, name, gi);
		}
		group_add_partition(g, NULL, 0); /* NULL: the empty name */
	}
	snapshot_finish(s);
	assert_int_equal(s->n_groups, 3);
	for (size_t k = 0; k < s->groups[0].n_partitions; k++) {
		const char *t = s->groups[0].partitions[k].topic;
		for (size_t gi = 1; gi < 3; gi++)
			assert_ptr_equal(s->groups[gi].partitions[k].topic, t);
		if (k > 0)
			assert_ptr_not_equal(s->groups[0].partitions[k - 1].topic, t);
	}
	assert_string_equal(s->groups[0].partitions[0].topic, "");
	assert_string_equal(s->groups[2].partitions[100].topic, "topic-099");
	const lt_member *m = &s->groups[1].members[0];
	assert_int_equal(m->n_assigned, 100);
	assert_ptr_equal(m->assigned[7].topic, s->groups[0].partitions[8].topic);
	assert_string_equal(m->assigned[7].topic, "topic-007");
	assert_int_equal(s->groups[1].partitions[8].member, 0);
	snapshot_unref(s);
}

static void refcount_keeps_snapshot_alive(void **state)
{
	(void)state;
	lt_snapshot *s = snapshot_new();
	snapshot_add_group(s, "g");
	lt_snapshot *held = snapshot_ref(s);
	snapshot_unref(s);
	assert_string_equal(held->groups[0].group, "g"); /* ASan catches a use after free here */
	snapshot_unref(held);
}

static void state_names_round_trip(void **state)
{
	(void)state;
	for (int st = LT_GROUP_UNKNOWN; st <= LT_GROUP_RECONCILING; st++)
		assert_int_equal(group_state_parse(group_state_name((lt_group_state)st)), st);
	/* the consumer protocol's states (KIP-848), by Kafka's names */
	assert_string_equal(group_state_name(LT_GROUP_ASSIGNING), "Assigning");
	assert_string_equal(group_state_name(LT_GROUP_RECONCILING), "Reconciling");
	assert_int_equal(group_state_parse("Reconciling"), LT_GROUP_RECONCILING);
	assert_int_equal(group_state_parse("AwaitingSync"), LT_GROUP_COMPLETING_REBALANCE);
	assert_int_equal(group_state_parse("bogus"), LT_GROUP_UNKNOWN);
	assert_int_equal(group_state_parse(NULL), LT_GROUP_UNKNOWN);
	assert_string_equal(status_name(LT_STATUS_STALL), "STALL");
	assert_string_equal(status_name(LT_STATUS_ERR), "ERR");
	assert_string_equal(status_name(LT_STATUS_UNKNOWN), "-");
	assert_string_equal(status_name(LT_STATUS_PENDING), "-"); /* not evaluated yet: never "OK" */
	assert_string_equal(group_type_name(LT_GTYPE_CLASSIC), "classic");
	assert_string_equal(group_type_name(LT_GTYPE_CONSUMER), "consumer");
	assert_null(group_type_name(LT_GTYPE_UNKNOWN));
}

/* n_members is a count only when the members could be read, or the state says there are none. */
static void members_known(void **state)
{
	(void)state;
	lt_group g = { .state = LT_GROUP_STABLE };
	assert_true(group_members_known(&g));
	g.members_unreadable = true;
	assert_false(group_members_known(&g));
	g.state = LT_GROUP_UNKNOWN;
	assert_false(group_members_known(&g));
	g.state = LT_GROUP_EMPTY;
	assert_true(group_members_known(&g));
}

/* The rows come from the snapshot's page blocks (snapshot.c): a group growing while another grows too
 * (its array moves), a group bigger than a block, many groups over several blocks, the assigned rows
 * snapshot_finish adds; every value read back where it was written. */
static void rows_survive_growth_and_moves(void **state)
{
	(void)state;
	lt_snapshot *s = snapshot_new();
	enum { N_GROUPS = 300, BIG = 40000 };
	char name[32];
	for (int g = 0; g < N_GROUPS; g++) {
		snprintf(name, sizeof name, "g%03d", g);
		snapshot_add_group(s, name);
	}
	/* interleaved: group g and group g+1 take turns, so neither stays its block's newest array */
	for (int g = 0; g + 1 < N_GROUPS; g += 2)
		for (int p = 0; p < 70; p++)
			for (int k = 0; k < 2; k++) {
				lt_partition *row = group_add_partition(&s->groups[g + k], "t", p);
				row->committed = (g + k) * 1000 + p;
				if (p % 10 == 0) /* beside the row: it must follow the row when the array moves */
					partition_ext_add(&s->groups[g + k], row)->commit_metadata = strdup("meta");
			}
	lt_group *big = snapshot_add_group(s, "zz-big");
	for (int p = 0; p < BIG; p++)
		group_add_partition(big, "u", p)->committed = p;
	lt_member *m = group_add_member(big, "m1", "c1", "h1");
	member_add_assignment(m, "v", 7); /* a row snapshot_finish adds */
	snapshot_finish(s);
	for (int g = 0; g < N_GROUPS; g++) {
		snprintf(name, sizeof name, "g%03d", g);
		const lt_group *gr = snapshot_find_group(s, name);
		assert_non_null(gr);
		assert_int_equal(gr->n_partitions, 70);
		for (int p = 0; p < 70; p++) {
			assert_int_equal(gr->partitions[p].partition, p);
			assert_int_equal(gr->partitions[p].committed, g * 1000 + p);
			const char *md = partition_commit_metadata(gr, &gr->partitions[p]);
			if (p % 10 == 0)
				assert_string_equal(md, "meta");
			else
				assert_null(md);
		}
	}
	big = (lt_group *)snapshot_find_group(s, "zz-big");
	assert_int_equal(big->n_partitions, BIG + 1);
	for (int p = 0; p < BIG; p++)
		assert_int_equal(big->partitions[p].committed, p);
	assert_string_equal(big->partitions[BIG].topic, "v");
	assert_int_equal(big->partitions[BIG].member, 0);
	snapshot_unref(s);
}

/* A row's metadata and position live beside it (lt_partition_ext): they follow the row through
 * snapshot_finish's sort and the repeats it drops, and a row without one reads as unset. */
static void partition_ext_follows_its_row(void **state)
{
	(void)state;
	lt_snapshot *s = snapshot_new();
	lt_group *g = snapshot_add_group(s, "g");
	for (int k = 9; k >= 0; k--) { /* reverse order: the sort moves every row */
		lt_partition *p = group_add_partition(g, "t", k);
		p->committed = k;
		if (k % 3 == 0) {
			lt_partition_ext *x = partition_ext_add(g, p);
			x->position = 100 + k;
			x->position_age_ms = 10 * k;
			x->position_source = k / 3;
			p->has_position = true;
		}
		if (k == 4)
			partition_ext_add(g, p)->commit_metadata = strdup("four");
	}
	assert_null(partition_ext(NULL, &g->partitions[0]));
	lt_member *m = group_add_member(g, "m-1", "c1", "h");
	member_add_assignment(m, "a", 0); /* added twice, one kept: sorted before every "t" row */
	member_add_assignment(m, "a", 0);
	snapshot_finish(s);

	g = &s->groups[0];
	assert_int_equal(g->n_partitions, 11);
	assert_null(partition_ext(g, &g->partitions[0]));
	for (int k = 0; k < 10; k++) {
		const lt_partition *p = &g->partitions[k + 1];
		assert_int_equal(p->partition, k);
		int64_t unc = -1;
		if (k % 3 == 0) {
			assert_int_equal(partition_position(g, p), 100 + k);
			assert_int_equal(partition_position_age_ms(g, p), 10 * k);
			assert_int_equal(partition_position_source(g, p), k / 3);
			assert_true(partition_uncommitted(g, p, &unc));
			assert_int_equal(unc, 100);
		} else {
			assert_int_equal(partition_position(g, p), 0);
			assert_int_equal(partition_position_source(g, p), 0);
			assert_false(partition_uncommitted(g, p, &unc));
		}
		if (k == 4)
			assert_string_equal(partition_commit_metadata(g, p), "four");
		else
			assert_null(partition_commit_metadata(g, p));
	}
	snapshot_unref(s);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(groups_sorted_and_found),       cmocka_unit_test(empty_snapshot_and_brokers),
	cmocka_unit_test(partitions_linked_to_members),  cmocka_unit_test(assigned_without_any_commit),
	cmocka_unit_test(topic_names_interned),          cmocka_unit_test(refcount_keeps_snapshot_alive),
	cmocka_unit_test(state_names_round_trip),        cmocka_unit_test(members_known),
	cmocka_unit_test(rows_survive_growth_and_moves), cmocka_unit_test(partition_ext_follows_its_row),
};

LT_TEST_MAIN(NULL, NULL)
