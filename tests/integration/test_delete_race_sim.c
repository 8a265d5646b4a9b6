/* test_delete_race_sim.c — the delete executor (src/kafka/delete_exec.c) against the in-process simulated
 * cluster, where timing can be arranged: a member that joins after the guard's look, while the backup is
 * being read, is refused by the broker (DeleteGroups: NON_EMPTY_GROUP; OffsetDelete of the topic it
 * consumes: GROUP_SUBSCRIBED_TO_TOPIC); lagtop reports a refusal, the backup is already written, nothing is
 * lost, and once the member left the same delete goes through and --undo's request restores it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kafka/delete_exec.h"
#include "kafka/reset_exec.h"
#include "kafka/reset_store.h"
#include "reset/plan.h"
#include "sim/sim.h"

#include "../lib/lagtop_test.h"
#include "../lib/cmocka_main.h"

#define T1 1795946400000LL /* 2026-11-29T10:00:00.000Z */

static sim_cluster *sim;
static char statedir[256];

static int setup(void **state)
{
	(void)state;
	sim = test_sim_with_topic(1, "pay", 3, 100, T1, 1000);
	return test_state_dir_make(statedir, sizeof statedir, "delete-it");
}

static int teardown(void **state)
{
	(void)state;
	sim_free(sim);
	return test_dir_remove(statedir);
}

static lt_reset_conn *connect_sim(void)
{
	char err[512];
	struct lt_connection cf = { .name = (char *)"sim", .bootstrap = (char *)sim_bootstrap(sim) };
	lt_reset_conn *c = reset_conn_new(&cf, 10000, err, sizeof err);
	if (!c)
		fail_msg("connect: %s", err);
	return c;
}

/* Runs fn(c, arg) with a member joining during its backup read (the coordinator's answers held back by the
 * latency, so the delete request comes after the join); returns its status. */
static lt_delete_status with_late_joiner(lt_reset_conn *c, const char *group, struct sim_joiner *j,
					 lt_delete_status (*fn)(lt_reset_conn *, const char *, lt_delete_result *),
					 lt_delete_result *res)
{
	char err[256];
	uint64_t counts[SIM_COUNT_KEYS + 1];
	sim_counts(sim, counts, false);
	*j = (struct sim_joiner){ .sim = sim, .group = group, .fetch_before = counts[9] };
	sim_must(sim_broker_set_latency(sim, sim_coordinator(sim, group), 1500, err, sizeof err), "latency", err);
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, sim_join_on_fetch, j), 0);
	lt_delete_status st = fn(c, group, res);
	pthread_join(th, NULL);
	sim_must(sim_broker_set_latency(sim, sim_coordinator(sim, group), 0, err, sizeof err), "latency", err);
	assert_true(j->done);
	return st;
}

static lt_delete_status delete_group(lt_reset_conn *c, const char *group, lt_delete_result *res)
{
	return delete_exec_group(c, group, false, res);
}

static lt_delete_status delete_pay(lt_reset_conn *c, const char *group, lt_delete_result *res)
{
	char err[256];
	lt_reset_request rq;
	memset(&rq, 0, sizeof rq);
	rq.group = strdup(group);
	sim_must(reset_request_add_topic(&rq, "pay", err, sizeof err), "topic", err);
	lt_delete_status st = delete_exec_offsets(c, &rq, false, res);
	reset_request_free(&rq);
	return st;
}

static void member_joins_after_the_guard(void **state)
{
	(void)state;
	char err[512];
	for (int p = 0; p < 3; p++)
		sim_must(sim_commit(sim, "race", "pay", p, 30 + p, NULL, err, sizeof err), "commit", err);
	lt_reset_conn *c = connect_sim();
	struct sim_joiner j;
	lt_delete_result res;

	/* DeleteGroups: NON_EMPTY_GROUP, a refusal, the backup already written, the offsets all there */
	assert_int_equal(with_late_joiner(c, "race", &j, delete_group, &res), LT_DEL_REFUSED);
	assert_int_equal(res.group_kerr, LT_KERR_NON_EMPTY_GROUP);
	assert_non_null(strstr(res.message, "a member joined after the guard read its state"));
	assert_non_null(res.backup_path);
	assert_int_equal(res.n_backed_up, 3);
	for (int p = 0; p < 3; p++)
		assert_int_equal(sim_committed(sim, "race", "pay", p), 30 + p);
	delete_result_free(&res);
	sim_must(sim_remove_member(sim, "race", j.id, err, sizeof err), "remove", err);

	/* OffsetDelete of the topic the member consumes: GROUP_SUBSCRIBED_TO_TOPIC on every partition */
	assert_int_equal(with_late_joiner(c, "race", &j, delete_pay, &res), LT_DEL_REFUSED);
	assert_int_equal(res.n_parts, 3);
	for (size_t i = 0; i < res.n_parts; i++)
		assert_int_equal(res.parts[i].kerr, LT_KERR_GROUP_SUBSCRIBED_TO_TOPIC);
	assert_non_null(res.backup_path);
	for (int p = 0; p < 3; p++)
		assert_int_equal(sim_committed(sim, "race", "pay", p), 30 + p);
	delete_result_free(&res);
	sim_must(sim_remove_member(sim, "race", j.id, err, sizeof err), "remove", err);

	/* Empty again: the group goes, and the newest backup brings its offsets back through --undo's request */
	assert_int_equal(delete_exec_group(c, "race", false, &res), LT_DEL_DELETED);
	assert_int_equal(sim_committed(sim, "race", "pay", 0), -1);
	delete_result_free(&res);
	lt_reset_request rq;
	char path[4096];
	memset(&rq, 0, sizeof rq);
	sim_must(reset_undo_request("race", &rq, path, sizeof path, err, sizeof err), "undo request", err);
	lt_reset_input in;
	reset_input_init(&in);
	sim_must(reset_exec_gather(c, &rq, &in, err, sizeof err), "gather", err);
	lt_reset_plan *plan = reset_plan_build(&rq, &in, err, sizeof err);
	assert_non_null(plan);
	lt_reset_result rr;
	assert_int_equal(reset_exec_commit(c, plan, "undo", &rr), LT_EXEC_EXECUTED);
	for (int p = 0; p < 3; p++)
		assert_int_equal(sim_committed(sim, "race", "pay", p), 30 + p);
	reset_result_free(&rr);
	reset_plan_free(plan);
	reset_input_free(&in);
	reset_request_free(&rq);
	reset_conn_free(c);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(member_joins_after_the_guard),
};

LT_TEST_MAIN(setup, teardown)
