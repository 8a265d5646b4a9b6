/* test_group_view.c — the one rule that combines ListGroups and DescribeGroups (model/group_view.h):
 * every listing (Stable, Unknown, Empty, absent, listed Dead, no listing) against every describe
 * (Dead with nothing, Stable with members, Empty), the hint used when there is no listing, and the types a
 * current librdkafka reads (ConsumerGroupDescribe's, ListGroups v5's). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/group_view.h"
#include "../lib/cmocka_main.h"

static const lt_group_described DEAD_EMPTY = { .state = LT_GROUP_DEAD, .n_members = 0, .protocol_type_empty = true };
static const lt_group_described STABLE = { .state = LT_GROUP_STABLE, .n_members = 2, .protocol_type_empty = false };
static const lt_group_described EMPTY = { .state = LT_GROUP_EMPTY, .n_members = 0, .protocol_type_empty = false };

static lt_group_listing listed(lt_group_state st)
{
	return (lt_group_listing){ .kind = LT_LISTING_LISTED, .state = st };
}

static const lt_group_listing ABSENT = { .kind = LT_LISTING_ABSENT };
static const lt_group_listing NO_LISTING = { .kind = LT_LISTING_UNKNOWN };

static void expect(lt_group_view v, lt_group_state st, lt_group_type type, bool unreadable, bool carried)
{
	assert_int_equal(v.state, st);
	assert_int_equal(v.type, type);
	assert_int_equal(v.members_unreadable, unreadable);
	assert_int_equal(v.state_carried, carried);
}

static void ambiguous_only_when_dead_empty_and_untyped(void **state)
{
	(void)state;
	assert_true(group_describe_ambiguous(&DEAD_EMPTY));
	assert_false(group_describe_ambiguous(&STABLE));
	assert_false(group_describe_ambiguous(&EMPTY));
	/* Dead with a protocol type, or with members, is the classic API's own answer */
	lt_group_described d = DEAD_EMPTY;
	d.protocol_type_empty = false;
	assert_false(group_describe_ambiguous(&d));
	d = DEAD_EMPTY;
	d.n_members = 1;
	assert_false(group_describe_ambiguous(&d));
}

/* Described Dead with nothing: the listing decides. */
static void dead_empty_describe(void **state)
{
	(void)state;
	lt_group_listing l = listed(LT_GROUP_STABLE);
	expect(group_view_combine(&l, &DEAD_EMPTY, NULL), LT_GROUP_STABLE, LT_GTYPE_CONSUMER, true, false);
	/* Assigning/Reconciling as librdkafka 2.0.2 reports them */
	l = listed(LT_GROUP_UNKNOWN);
	expect(group_view_combine(&l, &DEAD_EMPTY, NULL), LT_GROUP_UNKNOWN, LT_GTYPE_CONSUMER, true, false);
	/* and as a librdkafka that can name them would */
	l = listed(LT_GROUP_RECONCILING);
	expect(group_view_combine(&l, &DEAD_EMPTY, NULL), LT_GROUP_RECONCILING, LT_GTYPE_CONSUMER, true, false);
	l = listed(LT_GROUP_EMPTY);
	expect(group_view_combine(&l, &DEAD_EMPTY, NULL), LT_GROUP_EMPTY, LT_GTYPE_CONSUMER, true, false);
	/* not listed by a complete listing, or listed as Dead: the group does not exist */
	expect(group_view_combine(&ABSENT, &DEAD_EMPTY, NULL), LT_GROUP_DEAD, LT_GTYPE_UNKNOWN, false, false);
	l = listed(LT_GROUP_DEAD);
	expect(group_view_combine(&l, &DEAD_EMPTY, NULL), LT_GROUP_DEAD, LT_GTYPE_UNKNOWN, false, false);
}

/* Described Stable with members, or Empty: a classic group, the describe wins over any listing. */
static void classic_describe_wins(void **state)
{
	(void)state;
	const lt_group_listing ls[] = { listed(LT_GROUP_STABLE), listed(LT_GROUP_UNKNOWN), listed(LT_GROUP_EMPTY),
					ABSENT, NO_LISTING };
	for (size_t i = 0; i < sizeof ls / sizeof ls[0]; i++) {
		expect(group_view_combine(&ls[i], &STABLE, NULL), LT_GROUP_STABLE, LT_GTYPE_CLASSIC, false, false);
		expect(group_view_combine(&ls[i], &EMPTY, NULL), LT_GROUP_EMPTY, LT_GTYPE_CLASSIC, false, false);
	}
	/* a hint never overrides a describe that answered */
	lt_group_view hint = { .state = LT_GROUP_STABLE, .type = LT_GTYPE_CONSUMER, .members_unreadable = true };
	expect(group_view_combine(&NO_LISTING, &EMPTY, &hint), LT_GROUP_EMPTY, LT_GTYPE_CLASSIC, false, false);
}

/* No complete listing: a Dead that nothing confirms is Unknown (fail closed), unless the last view was
 * a live consumer-protocol group, whose state is carried and marked so. */
/* librdkafka >= 2.10: ConsumerGroupDescribe described the group (type consumer) — the group whole, whatever
 * the listing or the hint says; a listing typed classic turns an ambiguous Dead into a gone classic group. */
static void current_librdkafka_types(void **state)
{
	(void)state;
	lt_group_described cgd = { .state = LT_GROUP_STABLE, .n_members = 2, .type = LT_GTYPE_CONSUMER };
	const lt_group_listing ls[] = { listed(LT_GROUP_STABLE), listed(LT_GROUP_UNKNOWN), ABSENT, NO_LISTING };
	lt_group_view hint = { .state = LT_GROUP_EMPTY, .type = LT_GTYPE_CLASSIC };
	for (size_t i = 0; i < sizeof ls / sizeof ls[0]; i++) {
		expect(group_view_combine(&ls[i], &cgd, NULL), LT_GROUP_STABLE, LT_GTYPE_CONSUMER, false, false);
		expect(group_view_combine(&ls[i], &cgd, &hint), LT_GROUP_STABLE, LT_GTYPE_CONSUMER, false, false);
	}
	/* Assigning or Reconciling: librdkafka 2.15 has no name for them either, but the members are read */
	cgd.state = LT_GROUP_UNKNOWN;
	expect(group_view_combine(&ls[0], &cgd, NULL), LT_GROUP_UNKNOWN, LT_GTYPE_CONSUMER, false, false);
	/* an Empty consumer-protocol group, described whole: no members, and that is known */
	cgd = (lt_group_described){ .state = LT_GROUP_EMPTY, .protocol_type_empty = true, .type = LT_GTYPE_CONSUMER };
	expect(group_view_combine(&NO_LISTING, &cgd, NULL), LT_GROUP_EMPTY, LT_GTYPE_CONSUMER, false, false);
	/* ListGroups v5 types the listing: consumer confirms the inference, classic means the classic describe's
	 * Dead is the truth (deleted between the list and the describe) */
	lt_group_listing l = listed(LT_GROUP_STABLE);
	l.type = LT_GTYPE_CONSUMER;
	expect(group_view_combine(&l, &DEAD_EMPTY, NULL), LT_GROUP_STABLE, LT_GTYPE_CONSUMER, true, false);
	l.type = LT_GTYPE_CLASSIC;
	l.state = LT_GROUP_EMPTY;
	expect(group_view_combine(&l, &DEAD_EMPTY, NULL), LT_GROUP_DEAD, LT_GTYPE_UNKNOWN, false, false);
}

static void no_listing(void **state)
{
	(void)state;
	expect(group_view_combine(&NO_LISTING, &DEAD_EMPTY, NULL), LT_GROUP_UNKNOWN, LT_GTYPE_UNKNOWN, true, false);
	lt_group_view hint = { .state = LT_GROUP_STABLE, .type = LT_GTYPE_CONSUMER, .members_unreadable = true };
	expect(group_view_combine(&NO_LISTING, &DEAD_EMPTY, &hint), LT_GROUP_STABLE, LT_GTYPE_CONSUMER, true, true);
	hint.state = LT_GROUP_EMPTY;
	expect(group_view_combine(&NO_LISTING, &DEAD_EMPTY, &hint), LT_GROUP_EMPTY, LT_GTYPE_CONSUMER, true, true);
	/* a classic group, or a consumer group last seen Dead, says nothing about this Dead */
	hint = (lt_group_view){ .state = LT_GROUP_STABLE, .type = LT_GTYPE_CLASSIC };
	expect(group_view_combine(&NO_LISTING, &DEAD_EMPTY, &hint), LT_GROUP_UNKNOWN, LT_GTYPE_UNKNOWN, true, false);
	hint = (lt_group_view){ .state = LT_GROUP_DEAD, .type = LT_GTYPE_CONSUMER };
	expect(group_view_combine(&NO_LISTING, &DEAD_EMPTY, &hint), LT_GROUP_UNKNOWN, LT_GTYPE_UNKNOWN, true, false);
	/* a complete listing beats the hint: a deleted consumer group turns Dead */
	hint = (lt_group_view){ .state = LT_GROUP_STABLE, .type = LT_GTYPE_CONSUMER, .members_unreadable = true };
	expect(group_view_combine(&ABSENT, &DEAD_EMPTY, &hint), LT_GROUP_DEAD, LT_GTYPE_UNKNOWN, false, false);
}

static void view_of_group(void **state)
{
	(void)state;
	lt_group g = { .state = LT_GROUP_EMPTY, .type = LT_GTYPE_CONSUMER, .members_unreadable = true };
	expect(group_view_of(&g), LT_GROUP_EMPTY, LT_GTYPE_CONSUMER, true, false);
}

static void unreadable_line(void **state)
{
	(void)state;
	lt_snapshot *s = snapshot_new();
	assert_null(group_view_unreadable_line(s));
	const char *names[] = { "a", "b", "c", "d", "e" };
	for (size_t i = 0; i < 5; i++) {
		lt_group *g = snapshot_add_group(s, names[i]);
		g->state = LT_GROUP_STABLE;
	}
	snapshot_finish(s);
	s->groups[0].members_unreadable = true;
	char *l = group_view_unreadable_line(s);
	assert_string_equal(l, "group a: " LT_MEMBERS_UNREADABLE_NOTE);
	free(l);
	s->groups[1].members_unreadable = true;
	s->groups[2].members_unreadable = true;
	s->groups[2].state = LT_GROUP_EMPTY; /* Empty: its members (none) are known */
	l = group_view_unreadable_line(s);
	assert_string_equal(l, "2 groups (a, b) are KIP-848 consumer-protocol groups: their members need librdkafka "
			       "2.10+ to be read");
	free(l);
	for (size_t i = 2; i < 5; i++)
		s->groups[i].members_unreadable = true;
	s->groups[2].state = LT_GROUP_STABLE;
	l = group_view_unreadable_line(s);
	assert_non_null(strstr(l, "5 groups (a, b, c and 2 more) are"));
	free(l);
	snapshot_unref(s);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(ambiguous_only_when_dead_empty_and_untyped),
	cmocka_unit_test(dead_empty_describe),
	cmocka_unit_test(classic_describe_wins),
	cmocka_unit_test(current_librdkafka_types),
	cmocka_unit_test(no_listing),
	cmocka_unit_test(view_of_group),
	cmocka_unit_test(unreadable_line),
};

LT_TEST_MAIN(NULL, NULL)
