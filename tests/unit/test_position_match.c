/* test_position_match.c — reports to partitions, each source's status line (position/match.h), and the
 * not-committing flag (position/commitwatch.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/snapshot.h"
#include "position/commitwatch.h"
#include "position/match.h"
#include "position/report.h"
#include "../lib/cmocka_main.h"

#define NOW 1700000000000LL

/* Group g: member c1 owns t-0 and t-1, member c2 owns t-2; log start 100, log end 1000, committed 500. */
static lt_snapshot *fixture(int64_t taken_at, int64_t committed)
{
	lt_snapshot *s = snapshot_new();
	s->taken_at_ms = taken_at;
	lt_group *g = snapshot_add_group(s, "g");
	g->state = LT_GROUP_STABLE;
	lt_member *m1 = group_add_member(g, "m1", "c1", "/h1");
	member_add_assignment(m1, "t", 0);
	member_add_assignment(m1, "t", 1);
	lt_member *m2 = group_add_member(g, "m2", "c2", "/h2");
	member_add_assignment(m2, "t", 2);
	for (int p = 0; p < 3; p++) {
		lt_partition *pt = group_add_partition(g, "t", p);
		pt->log_start = 100;
		pt->log_end = 1000;
		pt->committed = committed;
	}
	snapshot_finish(s);
	return s;
}

static void add(lt_pos_reports *r, const char *client, int32_t p, lt_pos_kind k, int64_t v, int64_t ts)
{
	pos_reports_add(r, client, strlen(client), "t", 1, p, k, v, -1, ts);
}

static const lt_partition *part(const lt_snapshot *s, int p)
{
	return &s->groups[0].partitions[p];
}

static void reports_go_to_the_owner(void **state)
{
	(void)state;
	lt_snapshot *s = fixture(NOW, 500);
	lt_pos_reports a;
	pos_reports_init(&a);
	add(&a, "c1", 0, LT_POSK_LEAD, 430, -1);           /* 100 + 430 */
	add(&a, "c1", 0, LT_POSK_LAG, 999, -1);            /* a lead is preferred */
	add(&a, "c1", 1, LT_POSK_LAG, 5, NOW - 2000);      /* 1000 - 5 */
	add(&a, "c1", 2, LT_POSK_LEAD, 1, -1);             /* c1 does not own t-2 */
	add(&a, "ghost", 0, LT_POSK_LEAD, 1, -1);          /* in no group */
	add(&a, "c2", 2, LT_POSK_LEAD, 600, NOW - 120000); /* stale */
	pos_reports_finish(&a);
	lt_pos_input in[] = { { .location = "http://a/metrics", .reports = &a, .taken_ms = NOW - 500 } };
	pos_match(s, in, 1, NOW, 60000);

	assert_true(part(s, 0)->has_position);
	assert_int_equal(partition_position(&s->groups[0], part(s, 0)), 530);
	assert_int_equal(partition_position_age_ms(&s->groups[0], part(s, 0)), 500); /* no timestamp: the fetch's */
	assert_int_equal(partition_position_source(&s->groups[0], part(s, 0)), 0);
	int64_t unc;
	assert_true(partition_uncommitted(&s->groups[0], part(s, 0), &unc));
	assert_int_equal(unc, 30);
	assert_true(part(s, 1)->has_position);
	assert_int_equal(partition_position(&s->groups[0], part(s, 1)), 995);
	assert_int_equal(partition_position_age_ms(&s->groups[0], part(s, 1)), 2000);
	assert_false(part(s, 2)->has_position);
	assert_false(partition_uncommitted(&s->groups[0], part(s, 2), &unc));

	assert_int_equal(s->n_pos_sources, 1);
	assert_string_equal(s->pos_sources[0].location, "http://a/metrics");
	assert_true(s->pos_sources[0].ok);
	assert_int_equal(s->pos_sources[0].n_reports, 6);
	assert_int_equal(s->pos_sources[0].n_used, 2);
	assert_string_equal(s->pos_sources[0].status, "ok: 6 positions, 2 used; 1 stale; 1 for partitions their client "
						      "does not own; client id in none of the groups read: ghost");

	/* applied again (the next refresh): fields are reset, not left over */
	lt_pos_reports none;
	pos_reports_init(&none);
	in[0].reports = &none;
	pos_match(s, in, 1, NOW, 60000);
	assert_false(part(s, 0)->has_position);
	assert_false(s->pos_sources[0].ok);
	assert_string_equal(s->pos_sources[0].status, "no position metrics found (check the metric names)");
	pos_reports_free(&a);
	snapshot_unref(s);
}

static void the_newest_of_several_sources_wins(void **state)
{
	(void)state;
	lt_snapshot *s = fixture(NOW, 500);
	lt_pos_reports a, b;
	pos_reports_init(&a);
	pos_reports_init(&b);
	add(&a, "c2", 2, LT_POSK_POSITION, 700, NOW - 5000);
	add(&b, "c2", 2, LT_POSK_POSITION, 720, NOW - 1000);
	pos_reports_finish(&a);
	pos_reports_finish(&b);
	lt_pos_input in[] = { { .location = "a", .reports = &a },
			      { .location = "b", .reports = &b },
			      { .location = "c", .failure = "timeout after 2000 ms" } };
	pos_match(s, in, 3, NOW, 0);
	assert_int_equal(partition_position(&s->groups[0], part(s, 2)), 720);
	assert_int_equal(partition_position_source(&s->groups[0], part(s, 2)), 1);
	assert_string_equal(s->pos_sources[0].status,
			    "unused: 1 position, 0 used; 1 superseded by newer reports of another source");
	assert_false(s->pos_sources[0].ok);
	assert_string_equal(s->pos_sources[1].status, "ok: 1 position, 1 used");
	assert_string_equal(s->pos_sources[2].status, "timeout after 2000 ms");
	assert_false(s->pos_sources[2].ok);
	pos_reports_free(&a);
	pos_reports_free(&b);
	snapshot_unref(s);
}

static void why_a_source_gave_nothing(void **state)
{
	(void)state;
	lt_snapshot *s = fixture(NOW, 500);
	lt_pos_reports garbage, labels, stale, ghost;
	pos_reports_init(&garbage);
	garbage.n_units = 3;
	garbage.n_bad = 3;
	strcpy(garbage.first_error, "line 1: not a metric name");
	pos_reports_init(&labels);
	labels.n_units = 2;
	labels.n_matched = 2;
	labels.n_unlabelled = 2;
	strcpy(labels.missing_label, "client_id");
	pos_reports_init(&stale);
	add(&stale, "c1", 0, LT_POSK_LEAD, 1, NOW - 90000);
	pos_reports_finish(&stale);
	pos_reports_init(&ghost);
	add(&ghost, "nobody", 0, LT_POSK_LEAD, 1, -1);
	pos_reports_finish(&ghost);
	lt_pos_input in[] = { { .location = "g", .reports = &garbage },
			      { .location = "l", .reports = &labels },
			      { .location = "s", .reports = &stale, .taken_ms = NOW },
			      { .location = "n", .reports = &ghost, .taken_ms = NOW } };
	pos_match(s, in, 4, NOW, 60000);
	assert_string_equal(s->pos_sources[0].status, "parse error: line 1: not a metric name (nothing readable)");
	assert_string_equal(s->pos_sources[1].status,
			    "wrong labels: 2 position samples without a usable 'client_id' label");
	assert_string_equal(s->pos_sources[2].status, "stale: newest report 90 s old (max 60 s)");
	/* "in no group" would be a guess: the client may be in a group lagtop does not read (-g, include_groups) */
	assert_string_equal(s->pos_sources[3].status, "client id in none of the groups read: nobody");
	/* a KIP-848 group whose members this librdkafka cannot read: the client may be one of them */
	lt_group *hidden = snapshot_add_group(s, "kip848");
	hidden->state = LT_GROUP_STABLE;
	hidden->type = LT_GTYPE_CONSUMER;
	hidden->members_unreadable = true;
	snapshot_finish(s);
	pos_match(s, in, 4, NOW, 60000);
	assert_string_equal(
		s->pos_sources[3].status,
		"client id in none of the groups read: nobody (or in a group whose members cannot be read)");
	for (int i = 0; i < 4; i++)
		assert_false(s->pos_sources[i].ok);
	assert_false(part(s, 0)->has_position);
	pos_reports_free(&stale);
	pos_reports_free(&ghost);
	snapshot_unref(s);
}

static bool last_known; /* step's partition had a verdict (LT_PF_COMMITTING_KNOWN) */

/* One refresh at time t: committed offset, position of t-0 (-1: none reported). */
static unsigned step(lt_commitwatch *w, int64_t t, int64_t committed, int64_t position)
{
	lt_snapshot *s = fixture(NOW + t, committed);
	lt_partition *p = &s->groups[0].partitions[0];
	if (position >= 0) {
		p->has_position = true;
		partition_ext_add(&s->groups[0], p)->position = position;
	}
	commitwatch_apply(w, s);
	unsigned f = p->flags & LT_PF_NOT_COMMITTING;
	last_known = (p->flags & LT_PF_COMMITTING_KNOWN) != 0;
	/* no position there: not flagged, and unknown rather than "committing" */
	assert_int_equal(s->groups[0].partitions[1].flags & (LT_PF_NOT_COMMITTING | LT_PF_COMMITTING_KNOWN), 0);
	snapshot_unref(s);
	return f;
}

static void not_committing_needs_the_whole_window(void **state)
{
	(void)state;
	lt_commitwatch *w = commitwatch_new(60000);
	/* the position moves, the committed offset does not: flagged once the window has passed */
	assert_false(step(w, 0, 500, 510));
	assert_false(step(w, 30000, 500, 600));
	assert_false(step(w, 59999, 500, 700));
	assert_true(step(w, 60000, 500, 800));
	assert_true(step(w, 90000, 500, 900));
	/* a commit clears it and starts a new window */
	assert_false(step(w, 95000, 900, 950));
	assert_false(step(w, 150000, 900, 990));
	assert_true(step(w, 155000, 900, 1000));
	/* a position not reported this refresh: not flagged (nothing to say), and the window goes on */
	assert_false(step(w, 160000, 900, -1));
	assert_true(step(w, 161000, 900, 1000));
	commitwatch_free(w);

	/* idle: the position does not move, so no flag however long */
	w = commitwatch_new(60000);
	assert_false(step(w, 0, 500, 500));
	assert_false(step(w, 120000, 500, 500));
	commitwatch_free(w);

	/* never committed at all (committed unknown) and reading: flagged */
	w = commitwatch_new(60000);
	assert_false(step(w, 0, -1, 10));
	assert_true(step(w, 60000, -1, 20));
	commitwatch_free(w);

	/* commits every 30 s while reading: never flagged */
	w = commitwatch_new(60000);
	for (int i = 0; i < 10; i++)
		assert_false(step(w, i * 30000, 500 + 100 * i, 550 + 100 * i));
	commitwatch_free(w);

	/* the window starts with the first position: a commit long unmoved before reports began is not enough */
	w = commitwatch_new(60000);
	assert_false(step(w, 0, 500, -1));
	assert_false(step(w, 100000, 500, 600));
	assert_false(step(w, 110000, 500, 650));
	assert_true(step(w, 160000, 500, 700));
	commitwatch_free(w);
}

/* Unknown is not false: no verdict until a whole window was watched, unless a commit was seen within it. */
static void not_committing_unknown_until_known(void **state)
{
	(void)state;
	lt_commitwatch *w = commitwatch_new(60000);
	assert_false(step(w, 0, 500, 510));
	assert_false(last_known); /* first sight: nothing watched yet */
	assert_false(step(w, 30000, 500, 600));
	assert_false(last_known); /* half a window: could go either way */
	assert_true(step(w, 60000, 500, 700));
	assert_true(last_known);
	assert_false(step(w, 65000, 700, 750));
	assert_true(last_known); /* a commit seen: it commits */
	assert_false(step(w, 70000, 700, -1));
	assert_false(last_known); /* no position this refresh */
	commitwatch_free(w);

	w = commitwatch_new(60000);
	assert_false(step(w, 0, 500, 500));
	assert_true(last_known); /* nothing read past the commit: nothing uncommitted */
	commitwatch_free(w);

	/* the rule itself, as every output reads it */
	assert_int_equal(not_committing_rule(60000, 0, false, 10, 20, 5, 59999), LT_NC_UNKNOWN);
	assert_int_equal(not_committing_rule(60000, 0, true, 10, 20, 5, 59999), LT_NC_NO);
	assert_int_equal(not_committing_rule(60000, 0, false, 10, 20, 5, 60000), LT_NC_YES);
	assert_int_equal(not_committing_rule(60000, 0, false, 20, 20, 5, 600000), LT_NC_NO);
	assert_int_equal(not_committing_rule(60000, 0, false, 10, -1, 5, 600000), LT_NC_UNKNOWN);
	assert_int_equal(not_committing_rule(60000, 0, false, 10, 5, 5, 600000), LT_NC_NO);
	/* one threshold: 0 is the default, not_committing_after's 2 minutes */
	assert_int_equal(LT_NOT_COMMITTING_DEFAULT_MS, 120000);
	assert_int_equal(not_committing_rule(0, 0, false, 10, 20, 5, 119999), LT_NC_UNKNOWN);
	assert_int_equal(not_committing_rule(0, 0, false, 10, 20, 5, 120000), LT_NC_YES);
}

/* Many client ids: the list is cut with ", ...", never a stray "." */
static void long_client_lists_end_in_an_ellipsis(void **state)
{
	(void)state;
	lt_snapshot *s = fixture(NOW, 500);
	lt_pos_reports r;
	pos_reports_init(&r);
	/* the demo's ids, which filled the list to 92 characters and left ", ." */
	add(&r, "audit-archiver-1", 0, LT_POSK_LEAD, 1, -1);
	char id[40];
	for (int i = 1; i <= 8; i++) {
		snprintf(id, sizeof id, "clickstream-etl-%d", i);
		add(&r, id, 0, LT_POSK_LEAD, 1, -1);
	}
	pos_reports_finish(&r);
	lt_pos_input in[] = { { .location = "n", .reports = &r, .taken_ms = NOW } };
	pos_match(s, in, 1, NOW, 60000);
	const char *st = s->pos_sources[0].status;
	size_t n = strlen(st);
	assert_true(n > 5);
	assert_string_equal(st + n - 5, ", ...");
	pos_reports_free(&r);
	snapshot_unref(s);
}

static void many_partitions_and_forgetting(void **state)
{
	(void)state;
	/* a table that grows past its first size and forgets what it no longer sees, without losing the rest */
	lt_commitwatch *w = commitwatch_new(1000);
	for (int round = 0; round < 70; round++) {
		lt_snapshot *s = snapshot_new();
		s->taken_at_ms = NOW + round * 1000;
		char name[32];
		snprintf(name, sizeof name, "g%d", round < 35 ? 0 : 1);
		lt_group *g = snapshot_add_group(s, name);
		for (int p = 0; p < 200; p++) {
			lt_partition *pt = group_add_partition(g, "t", p);
			pt->committed = 5;
			pt->has_position = true;
			partition_ext_add(g, pt)->position = 10 + round;
		}
		snapshot_finish(s);
		commitwatch_apply(w, s);
		bool want = round != 0 && round != 35; /* each group's first round starts its window */
		for (int p = 0; p < 200; p++)
			assert_int_equal(!!(s->groups[0].partitions[p].flags & LT_PF_NOT_COMMITTING), want);
		snapshot_unref(s);
	}
	commitwatch_free(w);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(reports_go_to_the_owner),
	cmocka_unit_test(the_newest_of_several_sources_wins),
	cmocka_unit_test(why_a_source_gave_nothing),
	cmocka_unit_test(not_committing_needs_the_whole_window),
	cmocka_unit_test(not_committing_unknown_until_known),
	cmocka_unit_test(long_client_lists_end_in_an_ellipsis),
	cmocka_unit_test(many_partitions_and_forgetting),
};

LT_TEST_MAIN(NULL, NULL)
