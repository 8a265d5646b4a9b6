/* test_reset_plan.c — the planner: every target, scope, clamp, fallback, validation message, totals, the
 * plan table, and the guard decisions. Inputs are plain structs: no Kafka. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reset/plan.h"
#include "reset/render.h"
#include "util/timeparse.h"
#include "../lib/cmocka_main.h"

#define NOW 1795946400000LL

/* Cluster fixture:
 *   t-0: log 10..100, committed 50     t-1: log 10..100, committed 60     t-2: log 0..40, no commit
 *   u-0: log 0..5, committed 5, NO LEADER
 *   v-0: log 0..20, committed 3        (v has a commit; used for --all-topics)
 *   gone-0: committed 7, topic deleted (not in metadata)
 */
static void fixture(lt_reset_input *in)
{
	reset_input_init(in);
	in->state = LT_GROUP_EMPTY;
	struct {
		const char *t;
		int p;
		bool exists, leader;
		int64_t committed, start, end, ts;
	} rows[] = {
		{ "t", 0, true, true, 50, 10, 100, 70 }, { "t", 1, true, true, 60, 10, 100, -1 },
		{ "t", 2, true, true, -1, 0, 40, 0 },    { "u", 0, true, false, 5, -1, -1, LT_RESET_TS_UNKNOWN },
		{ "v", 0, true, true, 3, 0, 20, 19 },    { "gone", 0, false, false, 7, -1, -1, LT_RESET_TS_UNKNOWN },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		lt_reset_part *p = reset_input_part(in, rows[i].t, rows[i].p);
		p->exists = rows[i].exists;
		p->has_leader = rows[i].leader;
		p->committed = rows[i].committed;
		p->log_start = rows[i].start;
		p->log_end = rows[i].end;
		p->ts_offset = rows[i].ts;
	}
	reset_input_topic(in, "t", true);
	reset_input_topic(in, "u", true);
	reset_input_topic(in, "v", true);
	reset_input_topic(in, "gone", false);
}

static lt_reset_plan *plan_for(lt_reset_target target, const char *arg, const char *const *topics, bool all, char *err,
			       size_t errlen)
{
	lt_reset_input in;
	lt_reset_request rq;
	fixture(&in);
	if (reset_request_init(&rq, "g", target, arg, NOW, err, errlen) != 0)
		fail_msg("init: %s", err);
	rq.all_topics = all;
	for (size_t i = 0; topics && topics[i]; i++)
		if (reset_request_add_topic(&rq, topics[i], err, errlen) != 0)
			fail_msg("topic %s: %s", topics[i], err);
	lt_reset_plan *p = reset_plan_build(&rq, &in, err, errlen);
	reset_request_free(&rq);
	reset_input_free(&in);
	return p;
}

static const lt_reset_row *row(const lt_reset_plan *p, const char *t, int part)
{
	const lt_reset_row *r = reset_plan_find(p, t, part);
	if (!r)
		fail_msg("no row %s-%d", t, part);
	return r;
}

static const char *const T_ALL[] = { "t", NULL };
static const char *const T_01[] = { "t:0,1", NULL };

static void to_earliest_latest(void **state)
{
	(void)state;
	char err[256];
	lt_reset_plan *p = plan_for(LT_RESET_EARLIEST, NULL, T_ALL, false, err, sizeof err);
	assert_non_null(p);
	assert_int_equal(p->n_rows, 3);
	assert_int_equal(row(p, "t", 0)->new_offset, 10);
	assert_int_equal(row(p, "t", 1)->new_offset, 10);
	assert_int_equal(row(p, "t", 2)->new_offset, 0);
	assert_int_equal(row(p, "t", 0)->delta, -40);
	assert_int_equal(row(p, "t", 1)->delta, -50);
	assert_false(row(p, "t", 2)->has_delta);
	assert_int_equal(p->replayed, 90);
	assert_int_equal(p->skipped, 0);
	assert_int_equal(p->n_warnings, 0);
	reset_plan_free(p);

	p = plan_for(LT_RESET_LATEST, NULL, T_ALL, false, err, sizeof err);
	assert_non_null(p);
	assert_int_equal(row(p, "t", 0)->new_offset, 100);
	assert_int_equal(row(p, "t", 2)->new_offset, 40);
	assert_int_equal(p->skipped, 50 + 40);
	assert_int_equal(p->replayed, 0);
	reset_plan_free(p);
}

static void to_current(void **state)
{
	(void)state;
	char err[256];
	lt_reset_plan *p = plan_for(LT_RESET_CURRENT, NULL, T_ALL, false, err, sizeof err);
	assert_non_null(p);
	assert_int_equal(row(p, "t", 0)->new_offset, 50);
	assert_int_equal(row(p, "t", 0)->delta, 0);
	assert_int_equal(row(p, "t", 2)->new_offset, 40); /* no commit: log end */
	assert_true(row(p, "t", 2)->notes & LT_RESET_NOTE_NO_COMMIT);
	assert_int_equal(p->n_changed, 1);
	assert_int_equal(p->replayed + p->skipped, 0);
	reset_plan_free(p);
}

static void to_offset_clamped(void **state)
{
	(void)state;
	char err[256];
	lt_reset_plan *p = plan_for(LT_RESET_OFFSET, "55", T_ALL, false, err, sizeof err);
	assert_non_null(p);
	assert_int_equal(row(p, "t", 0)->new_offset, 55);
	assert_int_equal(row(p, "t", 0)->delta, 5);
	assert_int_equal(row(p, "t", 1)->delta, -5);
	assert_int_equal(row(p, "t", 2)->new_offset, 40);
	assert_true(row(p, "t", 2)->notes & LT_RESET_NOTE_CLAMP_HIGH);
	assert_int_equal(row(p, "t", 2)->requested, 55);
	assert_int_equal(p->n_warnings, 1);
	assert_string_equal(
		p->warnings[0],
		"New offset (55) is higher than latest offset for topic partition t-2. Value will be set to 40.");
	assert_int_equal(p->skipped, 5);
	assert_int_equal(p->replayed, 5);
	reset_plan_free(p);

	p = plan_for(LT_RESET_OFFSET, "3", T_01, false, err, sizeof err);
	assert_non_null(p);
	assert_int_equal(p->n_rows, 2);
	assert_int_equal(row(p, "t", 0)->new_offset, 10);
	assert_true(row(p, "t", 0)->notes & LT_RESET_NOTE_CLAMP_LOW);
	assert_string_equal(
		p->warnings[0],
		"New offset (3) is lower than earliest offset for topic partition t-0. Value will be set to 10.");
	assert_string_equal(row(p, "t", 0)->note, "clamped to log start");
	reset_plan_free(p);

	/* bad numbers are usage errors */
	lt_reset_request rq;
	assert_int_equal(reset_request_init(&rq, "g", LT_RESET_OFFSET, "12abc", NOW, err, sizeof err), -1);
	assert_non_null(strstr(err, "'12abc'"));
	reset_request_free(&rq);
	assert_int_equal(reset_request_init(&rq, "g", LT_RESET_OFFSET, "99999999999999999999", NOW, err, sizeof err),
			 -1);
	reset_request_free(&rq);
	assert_int_equal(reset_request_init(&rq, "g", LT_RESET_SHIFT, "", NOW, err, sizeof err), -1);
	reset_request_free(&rq);
}

static void shift_by(void **state)
{
	(void)state;
	char err[256];
	lt_reset_plan *p = plan_for(LT_RESET_SHIFT, "-45", T_01, false, err, sizeof err);
	assert_non_null(p);
	assert_int_equal(row(p, "t", 0)->new_offset, 10); /* 50-45=5 < 10: clamped */
	assert_int_equal(row(p, "t", 1)->new_offset, 15);
	assert_int_equal(p->replayed, 40 + 45);
	assert_int_equal(p->n_warnings, 1);
	reset_plan_free(p);

	p = plan_for(LT_RESET_SHIFT, "+45", T_01, false, err, sizeof err);
	assert_non_null(p);
	assert_int_equal(row(p, "t", 0)->new_offset, 95);
	assert_int_equal(row(p, "t", 1)->new_offset, 100); /* clamped high */
	reset_plan_free(p);

	/* overflow saturates and then clamps */
	p = plan_for(LT_RESET_SHIFT, "9223372036854775807", T_01, false, err, sizeof err);
	assert_non_null(p);
	assert_int_equal(row(p, "t", 0)->new_offset, 100);
	reset_plan_free(p);

	/* no commit: kafka-consumer-groups' error */
	p = plan_for(LT_RESET_SHIFT, "1", T_ALL, false, err, sizeof err);
	assert_null(p);
	assert_string_equal(err, "Cannot shift offset for partition t-2 since there is no current committed offset");
}

static void datetime_and_fallback(void **state)
{
	(void)state;
	char err[256];
	lt_reset_plan *p = plan_for(LT_RESET_DATETIME, "2026-11-29T08:00:00.000", T_ALL, false, err, sizeof err);
	assert_non_null(p);
	assert_int_equal(row(p, "t", 0)->new_offset, 70);
	assert_int_equal(row(p, "t", 1)->new_offset, 100); /* nothing at or after T: log end */
	assert_true(row(p, "t", 1)->notes & LT_RESET_NOTE_TS_FALLBACK);
	assert_int_equal(row(p, "t", 2)->new_offset, 0);
	assert_int_equal(p->n_warnings, 1);
	assert_string_equal(p->warnings[0], "Partition 1 from topic t has no message at or after "
					    "2026-11-29T08:00:00.000Z. Falling back to latest known offset (100).");
	reset_plan_free(p);

	p = plan_for(LT_RESET_DURATION, "PT2H", T_01, false, err, sizeof err);
	assert_non_null(p);
	assert_int_equal(row(p, "t", 0)->new_offset, 70);
	assert_non_null(strstr(p->warnings[0], "2026-11-29T08:00:00.000Z"));
	reset_plan_free(p);

	/* lookup failed: no silent fallback */
	lt_reset_input in;
	lt_reset_request rq;
	fixture(&in);
	reset_input_part(&in, "t", 0)->ts_offset = LT_RESET_TS_UNKNOWN;
	assert_int_equal(reset_request_init(&rq, "g", LT_RESET_DATETIME, "1h", NOW, err, sizeof err), 0);
	assert_int_equal(reset_request_add_topic(&rq, "t:0", err, sizeof err), 0);
	bool cluster_fault = false;
	assert_null(reset_plan_build_ex(&rq, &in, &cluster_fault, err, sizeof err));
	assert_string_equal(err, "Error getting offset by timestamp of topic partition: t-0");
	assert_true(cluster_fault); /* the cluster's fault: exit status 1, not a usage error */
	reset_request_free(&rq);
	reset_input_free(&in);

	/* a bad datetime is refused by the request, before any lookup */
	assert_int_equal(
		reset_request_init(&rq, "g", LT_RESET_DATETIME, "2026-02-30T00:00:00.000", NOW, err, sizeof err), -1);
	assert_non_null(strstr(err, "has no day 30"));
	reset_request_free(&rq);
}

static void from_file(void **state)
{
	(void)state;
	char err[256];
	lt_reset_input in;
	lt_reset_request rq;
	fixture(&in);
	assert_int_equal(reset_request_init(&rq, "g", LT_RESET_FILE, "plan.csv", NOW, err, sizeof err), 0);
	assert_int_equal(reset_request_load_csv(&rq, "t,0,20\nt,1,500\nv,0,1\n", err, sizeof err), 0);
	lt_reset_plan *p = reset_plan_build(&rq, &in, err, sizeof err);
	assert_non_null(p);
	assert_int_equal(p->n_rows, 3);
	assert_int_equal(row(p, "t", 0)->new_offset, 20);
	assert_int_equal(row(p, "t", 1)->new_offset, 100); /* clamped */
	assert_int_equal(row(p, "v", 0)->new_offset, 1);
	assert_int_equal(p->n_warnings, 1);
	reset_plan_free(p);

	/* 4-column file with rows for other groups only */
	assert_int_equal(reset_request_load_csv(&rq, "other,t,0,1\n", err, sizeof err), -1);
	assert_string_equal(err, "No reset plan for group g found.");
	/* 4-column with ours */
	assert_int_equal(reset_request_load_csv(&rq, "other,t,0,1\ng,t,1,11\n", err, sizeof err), 0);
	p = reset_plan_build(&rq, &in, err, sizeof err);
	assert_non_null(p);
	assert_int_equal(p->n_rows, 1);
	assert_int_equal(row(p, "t", 1)->new_offset, 11);
	reset_plan_free(p);
	/* file partitions are validated too */
	assert_int_equal(reset_request_load_csv(&rq, "t,9,1\n", err, sizeof err), 0);
	assert_null(reset_plan_build(&rq, &in, err, sizeof err));
	assert_string_equal(err, "The partitions \"t-9\" do not exist");
	assert_false(reset_request_wants(&rq, reset_input_find(&in, "t", 0)));
	assert_true(reset_request_wants(&rq, reset_input_part(&in, "t", 9)));
	reset_request_free(&rq);
	reset_input_free(&in);
}

static void scope_all_topics(void **state)
{
	(void)state;
	char err[256];
	lt_reset_input in;
	lt_reset_request rq;
	fixture(&in);
	/* the deleted topic and the leaderless partition have commits: kafka-consumer-groups refuses */
	assert_int_equal(reset_request_init(&rq, "g", LT_RESET_EARLIEST, NULL, NOW, err, sizeof err), 0);
	rq.all_topics = true;
	bool cluster_fault = true;
	assert_null(reset_plan_build_ex(&rq, &in, &cluster_fault, err, sizeof err));
	assert_string_equal(err, "The partitions \"gone-0\" do not exist");
	assert_false(cluster_fault); /* the request named it: a usage error */
	reset_input_part(&in, "gone", 0)->committed = LT_OFFSET_NONE;
	assert_null(reset_plan_build_ex(&rq, &in, &cluster_fault, err, sizeof err));
	assert_string_equal(err, "The partitions \"u-0\" have no leader");
	assert_true(cluster_fault);
	reset_input_part(&in, "u", 0)->committed = LT_OFFSET_NONE;
	lt_reset_plan *p = reset_plan_build(&rq, &in, err, sizeof err);
	assert_non_null(p);
	/* every partition with a commit, none without: t-0, t-1, v-0 (not t-2) */
	assert_int_equal(p->n_rows, 3);
	assert_string_equal(p->rows[0].topic, "t");
	assert_int_equal(p->rows[1].partition, 1);
	assert_string_equal(p->rows[2].topic, "v");
	assert_null(reset_plan_find(p, "t", 2));
	reset_plan_free(p);
	assert_true(reset_request_wants(&rq, reset_input_find(&in, "t", 1)));
	assert_false(reset_request_wants(&rq, reset_input_find(&in, "t", 2))); /* no commit */

	size_t n;
	char **names = reset_request_topics(&rq, &in, &n);
	assert_int_equal(n, 2);
	assert_string_equal(names[0], "t");
	assert_string_equal(names[1], "v");
	reset_strv_free(names, n);
	reset_request_free(&rq);
	reset_input_free(&in);
}

static void scope_topics(void **state)
{
	(void)state;
	char err[256];
	lt_reset_request rq;
	assert_int_equal(reset_request_init(&rq, "g", LT_RESET_LATEST, NULL, NOW, err, sizeof err), 0);
	assert_int_equal(reset_request_add_topic(&rq, "t:", err, sizeof err), -1);
	assert_string_equal(err, "Invalid topic arg 't:', expected topic name and partitions");
	assert_int_equal(reset_request_add_topic(&rq, "t:0,,1", err, sizeof err), -1);
	assert_string_equal(err, "Invalid partition '' specified in topic arg 't:0,,1'");
	assert_int_equal(reset_request_add_topic(&rq, "t:x", err, sizeof err), -1);
	assert_string_equal(err, "Invalid partition 'x' specified in topic arg 't:x'");
	assert_int_equal(reset_request_add_topic(&rq, "t:1:2", err, sizeof err), -1);
	assert_int_equal(reset_request_add_topic(&rq, ":1", err, sizeof err), -1);
	assert_int_equal(rq.n_scopes, 0);
	/* repeatable, merged, deduplicated */
	assert_int_equal(reset_request_add_topic(&rq, "t:1,0,1", err, sizeof err), 0);
	assert_int_equal(reset_request_add_topic(&rq, "t:2", err, sizeof err), 0);
	assert_int_equal(reset_request_add_topic(&rq, "v", err, sizeof err), 0);
	assert_int_equal(rq.n_scopes, 2);
	assert_int_equal(rq.scopes[0].n_parts, 3);

	lt_reset_input in;
	fixture(&in);
	lt_reset_plan *p = reset_plan_build(&rq, &in, err, sizeof err);
	assert_non_null(p);
	assert_int_equal(p->n_rows, 4);
	assert_int_equal(p->rows[0].partition, 0);
	assert_int_equal(p->rows[2].partition, 2);
	reset_plan_free(p);

	/* the scope test the executor uses to limit its log offset lookups */
	assert_true(reset_request_wants(&rq, reset_input_find(&in, "t", 2)));
	assert_true(reset_request_wants(&rq, reset_input_find(&in, "v", 0)));
	assert_false(reset_request_wants(&rq, reset_input_find(&in, "u", 0)));

	/* a missing partition: nothing planned, kafka-consumer-groups' message lists them all */
	assert_int_equal(reset_request_add_topic(&rq, "t:7,8", err, sizeof err), 0);
	assert_null(reset_plan_build(&rq, &in, err, sizeof err));
	assert_string_equal(err, "The partitions \"t-7,t-8\" do not exist");
	reset_request_free(&rq);

	assert_int_equal(reset_request_init(&rq, "g", LT_RESET_LATEST, NULL, NOW, err, sizeof err), 0);
	assert_int_equal(reset_request_add_topic(&rq, "u", err, sizeof err), 0);
	assert_null(reset_plan_build(&rq, &in, err, sizeof err));
	assert_string_equal(err, "The partitions \"u-0\" have no leader");
	reset_request_free(&rq);

	assert_int_equal(reset_request_init(&rq, "g", LT_RESET_LATEST, NULL, NOW, err, sizeof err), 0);
	assert_int_equal(reset_request_add_topic(&rq, "nosuch", err, sizeof err), 0);
	assert_null(reset_plan_build(&rq, &in, err, sizeof err));
	assert_string_equal(err, "The topic \"nosuch\" does not exist");
	assert_int_equal(reset_request_add_topic(&rq, "gone", err, sizeof err), 0);
	assert_null(reset_plan_build(&rq, &in, err, sizeof err));
	assert_string_equal(err, "The topics \"nosuch,gone\" do not exist");
	reset_request_free(&rq);
	reset_input_free(&in);
}

static void table_and_totals(void **state)
{
	(void)state;
	char err[256];
	lt_reset_plan *p = plan_for(LT_RESET_OFFSET, "55", T_ALL, false, err, sizeof err);
	assert_non_null(p);
	char *t = reset_plan_table(p);
	const char *want =
		"GROUP           TOPIC           PARTITION  NEW-OFFSET      PREVIOUS-OFFSET DELTA        NOTE\n"
		"g               t               0          55              50              +5\n"
		"g               t               1          55              60              -5\n"
		"g               t               2          40              -               -            clamped to "
		"log end\n";
	assert_string_equal(t, want);
	free(t);
	char *s = reset_plan_totals(p);
	assert_string_equal(s, "3 partitions: 5 messages replayed, 5 skipped, 1 without a previous commit");
	free(s);
	reset_plan_free(p);

	p = plan_for(LT_RESET_CURRENT, NULL, T_01, false, err, sizeof err);
	t = reset_plan_table(p);
	assert_string_equal(t, "GROUP           TOPIC           PARTITION  NEW-OFFSET      PREVIOUS-OFFSET DELTA\n"
			       "g               t               0          50              50              0\n"
			       "g               t               1          60              60              0\n");
	free(t);
	s = reset_plan_totals(p);
	assert_string_equal(s, "2 partitions: 0 messages replayed, 0 skipped, 2 unchanged");
	free(s);
	reset_plan_free(p);
}

static void table_is_terminal_safe(void **state)
{
	(void)state;
	char err[256];
	lt_reset_input in;
	lt_reset_request rq;
	reset_input_init(&in);
	in.state = LT_GROUP_EMPTY;
	lt_reset_part *p = reset_input_part(&in, "evil\x1b[2J", 0);
	p->exists = p->has_leader = true;
	p->log_start = 0;
	p->log_end = 5;
	reset_input_topic(&in, "evil\x1b[2J", true);
	assert_int_equal(reset_request_init(&rq, "g\x07", LT_RESET_LATEST, NULL, NOW, err, sizeof err), 0);
	assert_int_equal(reset_request_add_topic(&rq, "evil\x1b[2J", err, sizeof err), 0);
	lt_reset_plan *plan = reset_plan_build(&rq, &in, err, sizeof err);
	assert_non_null(plan);
	char *t = reset_plan_table(plan);
	assert_null(strchr(t, '\x1b'));
	assert_null(strchr(t, '\x07'));
	assert_non_null(strstr(t, "g\\x07           evil\\x1b[2J     0          5"));
	free(t);
	reset_plan_free(plan);
	reset_request_free(&rq);
	reset_input_free(&in);
}

static void guard_decisions(void **state)
{
	(void)state;
	char msg[1024];
	lt_reset_input in;
	reset_input_init(&in);

	in.state = LT_GROUP_EMPTY;
	assert_int_equal(reset_guard("g", &in, msg, sizeof msg), LT_GUARD_PROCEED);
	in.state = LT_GROUP_DEAD;
	assert_int_equal(reset_guard("g", &in, msg, sizeof msg), LT_GUARD_PROCEED);
	in.state = LT_GROUP_UNKNOWN;
	in.group_exists = false;
	assert_int_equal(reset_guard("g", &in, msg, sizeof msg), LT_GUARD_PROCEED);
	in.group_exists = true;

	/* unknown: fail closed, and say why */
	assert_int_equal(reset_guard("g", &in, msg, sizeof msg), LT_GUARD_REFUSE_UNKNOWN);
	assert_non_null(strstr(msg, "could not be read"));
	reset_input_set_error(&in, "Local: Timed out");
	assert_int_equal(reset_guard("g", &in, msg, sizeof msg), LT_GUARD_REFUSE_UNKNOWN);
	assert_non_null(strstr(msg, "Local: Timed out"));

	lt_group_state active[] = { LT_GROUP_STABLE, LT_GROUP_PREPARING_REBALANCE, LT_GROUP_COMPLETING_REBALANCE };
	const char *names[] = { "Stable", "PreparingRebalance", "CompletingRebalance" };
	reset_input_member(&in, "c1-1234", "c1", "/127.0.0.1");
	reset_input_member(&in, "c2-5678", "c2", "/10.0.0.2");
	for (size_t i = 0; i < 3; i++) {
		in.state = active[i];
		assert_int_equal(reset_guard("g", &in, msg, sizeof msg), LT_GUARD_REFUSE_ACTIVE);
		char want[200];
		snprintf(want, sizeof want,
			 "Assignments can only be reset if the group 'g' is inactive, but the current state is %s.\n",
			 names[i]);
		assert_memory_equal(msg, want, strlen(want));
		assert_non_null(strstr(msg, "client-id c1 on host /127.0.0.1"));
		assert_non_null(strstr(msg, "client-id c2 on host /10.0.0.2"));
	}
	/* a state that cannot be named (a consumer-protocol group between assignments through librdkafka
	 * 2.15) with members that could be read: refused as unknown, the members named all the same */
	in.state = LT_GROUP_UNKNOWN;
	in.type = LT_GTYPE_CONSUMER;
	assert_int_equal(reset_guard("g", &in, msg, sizeof msg), LT_GUARD_REFUSE_UNKNOWN);
	assert_non_null(strstr(msg, "could not be read"));
	assert_non_null(strstr(msg, "client-id c2 on host /10.0.0.2 (member c2-5678)"));
	reset_input_free(&in);
}

/* A consumer-protocol (KIP-848) group seen through the classic API: its members cannot be read, so only
 * a known Empty lets a reset through; Stable, Unknown (Assigning/Reconciling through librdkafka 2.0.2) and
 * the consumer protocol's rebalancing states are refused, naming the state and why. */
static void guard_members_unreadable(void **state)
{
	(void)state;
	char msg[1024];
	lt_reset_input in;
	reset_input_init(&in);
	in.type = LT_GTYPE_CONSUMER;
	in.members_unreadable = true;

	lt_group_state refused[] = { LT_GROUP_STABLE, LT_GROUP_UNKNOWN, LT_GROUP_ASSIGNING, LT_GROUP_RECONCILING };
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		in.state = refused[i];
		assert_int_equal(reset_guard("kip", &in, msg, sizeof msg), LT_GUARD_REFUSE_UNREADABLE);
		char want[200];
		snprintf(want, sizeof want,
			 "Assignments can only be reset if the group 'kip' is inactive, but the current state is %s.\n",
			 group_state_name(refused[i]));
		assert_memory_equal(msg, want, strlen(want));
		assert_non_null(strstr(msg,
				       "members of this consumer-protocol (KIP-848) group cannot be read with this "
				       "librdkafka"));
		assert_non_null(strstr(msg, "once the group is Empty."));
	}
	/* Unknown says what it may hide; a state that could not be read at all says why */
	in.state = LT_GROUP_UNKNOWN;
	reset_guard("kip", &in, msg, sizeof msg);
	assert_non_null(strstr(msg, "Assigning or Reconciling"));
	reset_input_set_error(&in, "ListGroups: Local: Timed out");
	in.members_unreadable = true;
	assert_int_equal(reset_guard("kip", &in, msg, sizeof msg), LT_GUARD_REFUSE_UNREADABLE);
	assert_non_null(strstr(msg, "ListGroups: Local: Timed out"));
	/* "does not exist" from the classic API proves nothing for such a group */
	in.state = LT_GROUP_STABLE;
	in.group_exists = false;
	assert_int_equal(reset_guard("kip", &in, msg, sizeof msg), LT_GUARD_REFUSE_UNREADABLE);

	/* known Empty: no members whatever the protocol */
	in.group_exists = true;
	in.state = LT_GROUP_EMPTY;
	assert_int_equal(reset_guard("kip", &in, msg, sizeof msg), LT_GUARD_PROCEED);
	assert_string_equal(msg, "");
	reset_input_free(&in);
}

static void input_from_snapshot(void **state)
{
	(void)state;
	lt_snapshot *s = snapshot_new();
	lt_group *g = snapshot_add_group(s, "g");
	g->state = LT_GROUP_STABLE;
	lt_partition *p = group_add_partition(g, "t", 0);
	p->committed = 5;
	p->log_start = 0;
	p->log_end = 9;
	lt_member *m = group_add_member(g, "m-1", "c1", "/127.0.0.1");
	member_add_assignment(m, "t", 0);
	snapshot_finish(s);

	lt_reset_input in;
	reset_input_init(&in);
	reset_input_from_group(&in, &s->groups[0]);
	assert_int_equal(in.state, LT_GROUP_STABLE);
	assert_int_equal(in.n_members, 1);
	const lt_reset_part *rp = reset_input_find(&in, "t", 0);
	assert_non_null(rp);
	assert_true(rp->exists && rp->has_leader);
	assert_int_equal(rp->committed, 5);
	assert_int_equal(rp->log_end, 9);
	char msg[512];
	assert_int_equal(reset_guard("g", &in, msg, sizeof msg), LT_GUARD_REFUSE_ACTIVE);
	reset_input_free(&in);

	/* the dashboard's view of a consumer-protocol group reaches the guard */
	g = &s->groups[0];
	g->type = LT_GTYPE_CONSUMER;
	g->members_unreadable = true;
	reset_input_init(&in);
	reset_input_from_group(&in, g);
	assert_int_equal(in.type, LT_GTYPE_CONSUMER);
	assert_true(in.members_unreadable);
	assert_int_equal(reset_guard("g", &in, msg, sizeof msg), LT_GUARD_REFUSE_UNREADABLE);
	reset_input_free(&in);
	snapshot_unref(s);
}

/* A partition whose leader is up but whose log offsets could not be read (LT_PF_LOG_UNKNOWN)
 * is not leaderless: the planner says the lookup failed; a real LT_PF_NO_LEADER still "has no leader". */
static void log_offsets_unknown_is_not_no_leader(void **state)
{
	(void)state;
	char err[512];
	lt_snapshot *s = snapshot_new();
	lt_group *g = snapshot_add_group(s, "g");
	g->state = LT_GROUP_EMPTY;
	lt_partition *p = group_add_partition(g, "t", 0);
	p->committed = 5, p->log_start = 0, p->log_end = 9;
	p = group_add_partition(g, "t", 1);
	p->committed = 5, p->log_start = p->log_end = LT_OFFSET_NONE, p->flags = LT_PF_LOG_UNKNOWN;
	p = group_add_partition(g, "t", 2);
	p->committed = 5, p->log_start = p->log_end = LT_OFFSET_NONE, p->flags = LT_PF_LOG_UNKNOWN;
	p = group_add_partition(g, "u", 0);
	p->committed = 5, p->log_start = p->log_end = LT_OFFSET_NONE, p->flags = LT_PF_NO_LEADER;
	snapshot_finish(s);

	lt_reset_input in;
	reset_input_init(&in);
	reset_input_from_group(&in, &s->groups[0]);
	const lt_reset_part *rp = reset_input_find(&in, "t", 1);
	assert_true(rp->has_leader);
	assert_true(rp->log_failed);
	rp = reset_input_find(&in, "u", 0);
	assert_false(rp->has_leader);

	struct {
		const char *topic, *want;
	} cases[] = {
		{ "t:1", "Error getting the log offsets of topic partition: t-1 (the leader is up, but its ListOffsets "
			 "request failed or timed out)" },
		{ "t",
		  "Error getting the log offsets of topic partitions: t-1,t-2 (the leader is up, but its ListOffsets "
		  "request failed or timed out)" },
		{ "u", "The partitions \"u-0\" have no leader" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		lt_reset_request rq;
		assert_int_equal(reset_request_init(&rq, "g", LT_RESET_EARLIEST, NULL, 0, err, sizeof err), 0);
		assert_int_equal(reset_request_add_topic(&rq, cases[i].topic, err, sizeof err), 0);
		err[0] = '\0';
		assert_null(reset_plan_build(&rq, &in, err, sizeof err));
		assert_string_equal(err, cases[i].want);
		reset_request_free(&rq);
	}
	/* t-0 alone is fine */
	lt_reset_request rq;
	assert_int_equal(reset_request_init(&rq, "g", LT_RESET_EARLIEST, NULL, 0, err, sizeof err), 0);
	assert_int_equal(reset_request_add_topic(&rq, "t:0", err, sizeof err), 0);
	lt_reset_plan *plan = reset_plan_build(&rq, &in, err, sizeof err);
	assert_non_null(plan);
	assert_int_equal(plan->rows[0].new_offset, 0);
	reset_plan_free(plan);
	reset_request_free(&rq);
	reset_input_free(&in);
	snapshot_unref(s);
}

/* --undo of a partition that had no commit before the reset deletes its commit. The plan row
 * has no new offset, needs no leader or log offsets (OffsetDelete goes to the coordinator), counts as a
 * change only when there is a commit to delete, and the table and totals say so. */
static void undo_deletes_what_had_no_commit(void **state)
{
	(void)state;
	char err[512];
	lt_reset_input in;
	reset_input_init(&in);
	in.state = LT_GROUP_EMPTY;
	in.group_exists = true;
	reset_input_topic(&in, "pay", true);
	for (int i = 0; i < 3; i++) {
		lt_reset_part *p = reset_input_part(&in, "pay", i);
		p->exists = true;
		p->has_leader = i != 2; /* pay-2's leader is down: a delete does not care */
		p->committed = i == 1 ? LT_OFFSET_NONE : 120;
		p->log_start = i == 2 ? LT_OFFSET_NONE : 0;
		p->log_end = i == 2 ? LT_OFFSET_NONE : 200;
	}
	lt_reset_request rq;
	assert_int_equal(reset_request_init(&rq, "g", LT_RESET_FILE, "b.csv", 0, err, sizeof err), 0);
	rq.from_backup = true;
	assert_int_equal(reset_request_load_csv(&rq, "pay,0,50\npay,1,\npay,2,\n", err, sizeof err), 0);
	assert_true(reset_request_wants(&rq, reset_input_find(&in, "pay", 0)));
	assert_false(reset_request_wants(&rq, reset_input_find(&in, "pay", 2))); /* no log offsets needed */
	lt_reset_plan *p = reset_plan_build(&rq, &in, err, sizeof err);
	if (!p)
		fail_msg("no plan: %s", err);
	assert_int_equal(p->n_rows, 3);
	assert_int_equal(p->n_deletes, 2);
	assert_int_equal(p->n_changed, 2); /* pay-0 moves, pay-2's commit goes; pay-1 has none to delete */
	assert_int_equal(p->rows[2].new_offset, LT_OFFSET_NONE);
	assert_false(p->rows[2].has_delta);
	assert_string_equal(p->rows[2].note, "no commit before: delete");
	char *table = reset_plan_table(p), *totals = reset_plan_totals(p);
	assert_non_null(strstr(table, "pay             2          -               120             -            "
				      "no commit before: delete"));
	assert_string_equal(totals, "3 partitions: 70 messages replayed, 0 skipped, 1 unchanged, 2 commits deleted "
				    "(no commit before the reset)");
	free(table);
	free(totals);
	reset_plan_free(p);
	reset_request_free(&rq);
	reset_input_free(&in);
}

/* The read-back verdict after an unanswered change: all as planned, all as before, anything else partly. */
static void settle_verdicts(void **state)
{
	(void)state;
	assert_int_equal(reset_settle(3, 3, 0, 0), LT_SETTLED_APPLIED);
	assert_int_equal(reset_settle(3, 0, 3, 0), LT_SETTLED_NOT_APPLIED);
	assert_int_equal(reset_settle(3, 2, 1, 0), LT_SETTLED_PARTLY);
	assert_int_equal(reset_settle(3, 3, 0, 1), LT_SETTLED_PARTLY); /* moved by someone else: not "applied" */
	assert_int_equal(reset_settle(3, 0, 3, 1), LT_SETTLED_PARTLY);
	assert_int_equal(reset_settle(0, 0, 0, 0), LT_SETTLED_APPLIED); /* nothing to move: nothing left undone */
	assert_string_equal(reset_settled_word(LT_SETTLED_APPLIED), "applied");
	assert_string_equal(reset_settled_word(LT_SETTLED_NOT_APPLIED), "not-applied");
	assert_string_equal(reset_settled_word(LT_SETTLED_PARTLY), "partly-applied");
}

/* A relative time is shown with the absolute time it resolved to (the dialog, the CLI's plan); other
 * targets as typed. */
static void resolved_target_text(void **state)
{
	(void)state;
	char err[256];
	lt_reset_plan *p = plan_for(LT_RESET_DURATION, "PT2H", T_01, false, err, sizeof err);
	char want[96], when[40];
	reset_format_time(NOW - 2 * 3600 * 1000, when, sizeof when);
	snprintf(want, sizeof want, "by-duration PT2H = %s", when);
	assert_int_equal(p->timestamp_ms, NOW - 2 * 3600 * 1000);
	char *t = reset_plan_target_text(p, "by-duration PT2H");
	assert_string_equal(t, want);
	free(t);
	reset_plan_free(p);
	p = plan_for(LT_RESET_SHIFT, "-45", T_01, false, err, sizeof err);
	assert_int_equal(p->timestamp_ms, -1);
	t = reset_plan_target_text(p, "shift-by -45");
	assert_string_equal(t, "shift-by -45");
	free(t);
	reset_plan_free(p);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(to_earliest_latest),
	cmocka_unit_test(to_current),
	cmocka_unit_test(to_offset_clamped),
	cmocka_unit_test(shift_by),
	cmocka_unit_test(datetime_and_fallback),
	cmocka_unit_test(from_file),
	cmocka_unit_test(scope_all_topics),
	cmocka_unit_test(scope_topics),
	cmocka_unit_test(table_and_totals),
	cmocka_unit_test(guard_decisions),
	cmocka_unit_test(guard_members_unreadable),
	cmocka_unit_test(table_is_terminal_safe),
	cmocka_unit_test(input_from_snapshot),
	cmocka_unit_test(log_offsets_unknown_is_not_no_leader),
	cmocka_unit_test(undo_deletes_what_had_no_commit),
	cmocka_unit_test(settle_verdicts),
	cmocka_unit_test(resolved_target_text),
};

LT_TEST_MAIN(NULL, NULL)
