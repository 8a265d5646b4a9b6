/* test_faults_collector.c — the collector against a faulty simulated cluster: retriable errors
 * from the coordinator, a coordinator broker down and back, a slow broker, connections dropped in the middle
 * of answers, a moved coordinator and a flapping broker. Every refresh must come back within its bound,
 * keep the groups it showed before (marked stale, with the age of their data and the error) and recover by
 * itself once the fault is gone. The sim runs in-process on 127.0.0.1 with ephemeral ports. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "kafka/collector.h"
#include "model/snapshot.h"
#include "reset/plan.h"
#include "sim/sim.h"
#include "util/timeutil.h"

#include "../lib/lagtop_test.h"
#include "../lib/cmocka_main.h"

#define TIMEOUT_MS 2000
/* A refresh is cut at TIMEOUT_MS; this generous bound only catches a hang. */
#define HANG_MS       (TIMEOUT_MS + 8000)
#define RECOVER_TRIES 20

enum { API_OFFSET_FETCH = 9, API_DESCRIBE_GROUPS = 15, API_LIST_GROUPS = 16 };

static sim_cluster *sim;
static lt_collector *col;

static int setup(void **state)
{
	(void)state;
	char err[256];
	sim = test_sim_start(3, "fixture");
	static char *k[] = { (char *)"log_level" }, *v[] = { (char *)"0" };
	struct lt_connection conn = { .name = (char *)"sim",
				      .bootstrap = (char *)sim_bootstrap(sim),
				      .n_props = 1,
				      .prop_keys = k,
				      .prop_values = v };
	struct lt_collector_conf c = {
		.conn = &conn,
		.interval_ms = 200,
		.timeout_ms = TIMEOUT_MS,
	};
	model_params_default(&c.model);
	col = collector_new(&c, err, sizeof(err));
	if (!col)
		fail_msg("collector_new: %s", err);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	collector_free(col);
	sim_free(sim);
	return 0;
}

/* One refresh, bounded; returns the snapshot (NULL when the whole cluster was unreachable). */
static lt_snapshot *refresh(void)
{
	char err[512] = "";
	lt_snapshot *s = NULL;
	int64_t t0 = now_mono_ms();
	int rc = collector_refresh_once(col, &s, err, sizeof(err));
	int64_t took = now_mono_ms() - t0;
	if (took > HANG_MS)
		fail_msg("a refresh took %lld ms (timeout %d ms)", (long long)took, TIMEOUT_MS);
	if (rc != 0) {
		assert_true(err[0] != '\0'); /* a failed refresh always says why */
		snapshot_unref(s);
		return NULL;
	}
	assert_non_null(s);
	return s;
}

static bool group_fresh(const lt_snapshot *s, const char *name)
{
	const lt_group *g = snapshot_find_group(s, name);
	if (!g || g->error || g->stale_ms != 0 || g->n_partitions == 0)
		return false;
	for (size_t i = 0; i < g->n_partitions; i++)
		if (g->partitions[i].flags & LT_PF_STALE)
			return false;
	return true;
}

/* Refreshes until fx-stable is fresh again (librdkafka reconnects with a backoff). */
static void assert_recovers(void)
{
	for (int i = 0; i < RECOVER_TRIES; i++) {
		lt_snapshot *s = refresh();
		bool ok = s && group_fresh(s, "fx-stable") && group_fresh(s, "fx-empty") && !s->error;
		if (!ok && i == RECOVER_TRIES - 1 && s) {
			const lt_group *g = snapshot_find_group(s, "fx-stable");
			print_message("# last refresh: error %s; fx-stable: %s\n", s->error ? s->error : "none",
				      g ? (g->error ? g->error : "no error") : "missing");
		}
		snapshot_unref(s);
		if (ok)
			return;
		test_sleep_ms(250);
	}
	fail_msg("the collector did not recover within %d refreshes", RECOVER_TRIES);
}

/* fx-stable as shown before the fault, now stale: kept, with its error and the age of its data. */
static void assert_stale(const lt_snapshot *s, const char *name)
{
	const lt_group *g = snapshot_find_group(s, name);
	if (!g)
		fail_msg("group %s vanished instead of being marked stale", name);
	assert_non_null(g->error);
	assert_true(g->stale_ms > 0);
	assert_true(g->n_partitions > 0); /* last known numbers are still shown */
	for (size_t i = 0; i < g->n_partitions; i++) {
		assert_true(g->partitions[i].flags & LT_PF_STALE);
		assert_true(partition_stale_ms(g, &g->partitions[i]) > 0);
	}
}

static void baseline(void **state)
{
	(void)state;
	lt_snapshot *s = refresh();
	assert_non_null(s);
	assert_true(group_fresh(s, "fx-stable"));
	assert_true(group_fresh(s, "fx-empty"));
	snapshot_unref(s);
}

/* Each retriable error, answered by every coordinator to DescribeGroups, then to OffsetFetch. */
static void retriable_errors_mark_stale(void **state)
{
	(void)state;
	static const char *const names[] = { "COORDINATOR_NOT_AVAILABLE", "NOT_COORDINATOR",
					     "COORDINATOR_LOAD_IN_PROGRESS", "REQUEST_TIMED_OUT" };
	static const int apis[] = { API_DESCRIBE_GROUPS, API_OFFSET_FETCH };
	char err[256];
	for (size_t a = 0; a < 2; a++) {
		for (size_t i = 0; i < 4; i++) {
			int16_t code;
			assert_int_equal(sim_error_code_parse(names[i], &code), 0);
			assert_recovers();
			uint64_t e0, e1, d;
			sim_fault_counts(sim, &e0, &d);
			sim_must(sim_fault_errors(sim, 0, code, apis[a], 1.0, 0, err, sizeof(err)), "sim_fault_errors",
				 err);
			test_sleep_ms(20); /* the stale data's age is measured in ms */
			lt_snapshot *s = refresh();
			sim_fault_counts(sim, &e1, &d);
			if (e1 == e0)
				fail_msg("%s on API %d: nothing was injected", names[i], apis[a]);
			assert_non_null(s);
			assert_stale(s, "fx-stable");
			snapshot_unref(s);
			sim_fault_clear(sim);
		}
	}
	assert_recovers();
}

/* ListGroups failing everywhere: the groups shown before stay (stale), they do not vanish. */
static void list_groups_errors_keep_groups(void **state)
{
	(void)state;
	char err[256];
	assert_recovers();
	sim_must(sim_fault_errors(sim, 0, 14 /* COORDINATOR_LOAD_IN_PROGRESS */, API_LIST_GROUPS, 1.0, 0, err,
				  sizeof(err)),
		 "sim_fault_errors", err);
	lt_snapshot *s = refresh();
	assert_non_null(s);
	/* said as what was not read: each broker's list, with the error (not the refresh-wide error) */
	assert_false(snapshot_read_whole(s));
	assert_true(s->n_unread >= 1);
	for (size_t i = 0; i < s->n_unread; i++) {
		assert_null(s->unread[i].group);
		assert_non_null(strstr(s->unread[i].reason, "ListGroups: "));
	}
	assert_non_null(snapshot_find_group(s, "fx-stable"));
	assert_non_null(snapshot_find_group(s, "fx-empty"));
	snapshot_unref(s);
	sim_fault_clear(sim);
	assert_recovers();
}

static void coordinator_down_and_back(void **state)
{
	(void)state;
	char err[256];
	assert_recovers();
	int node = sim_coordinator(sim, "fx-stable");
	assert_true(node >= 1);
	sim_must(sim_broker_stop(sim, node, err, sizeof(err)), "sim_broker_stop", err);
	test_sleep_ms(20);
	lt_snapshot *s = refresh();
	if (s) /* the bootstrap may be down too: then the whole refresh fails, with its error */
		assert_stale(s, "fx-stable");
	snapshot_unref(s);
	s = refresh(); /* still down: the age grows */
	if (s) {
		assert_stale(s, "fx-stable");
	}
	snapshot_unref(s);
	sim_must(sim_broker_start(sim, node, err, sizeof(err)), "sim_broker_start", err);
	assert_recovers();
}

/* A broker slower than the refresh timeout: the refresh is cut at its deadline, data goes stale. */
static void slow_coordinator(void **state)
{
	(void)state;
	char err[256];
	assert_recovers();
	int node = sim_coordinator(sim, "fx-stable");
	sim_must(sim_fault_latency(sim, node, TIMEOUT_MS + 1500, err, sizeof(err)), "sim_fault_latency", err);
	lt_snapshot *s = refresh();
	if (s) {
		const lt_group *g = snapshot_find_group(s, "fx-stable");
		assert_non_null(g); /* kept */
		assert_true(g->error != NULL || s->error != NULL);
	}
	snapshot_unref(s);
	sim_fault_clear(sim);
	assert_recovers();
}

/* Half of all answers cut in the middle: every refresh ends (with data or an error), nothing crashes. */
static void dropped_connections(void **state)
{
	(void)state;
	char err[256];
	assert_recovers();
	sim_must(sim_fault_drop_rate(sim, 0, 0.5, err, sizeof(err)), "sim_fault_drop_rate", err);
	for (int i = 0; i < 4; i++)
		snapshot_unref(refresh());
	uint64_t e, d;
	sim_fault_counts(sim, &e, &d);
	assert_true(d > 0);
	sim_fault_clear(sim);
	assert_recovers();
}

/* The coordinator moves (a failover) while the old one stays up and answers NOT_COORDINATOR. librdkafka
 * 2.0.2 would keep using its cached coordinator (rd_kafka_coord_cache entries expire only when idle), so
 * the collector asks the other live brokers directly (probe_next_broker in refresh_groups.c): the group must be
 * fresh again, at its new coordinator, without a restart — and again when the coordinator moves back. */
static void coordinator_moves(void **state)
{
	(void)state;
	char err[256];
	assert_recovers();
	int old = sim_coordinator(sim, "fx-stable");
	int moved = old % sim_broker_count(sim) + 1;
	sim_must(sim_group_move_coordinator(sim, "fx-stable", moved, err, sizeof(err)), "sim_group_move_coordinator",
		 err);
	assert_int_equal(sim_coordinator(sim, "fx-stable"), moved);
	bool fresh = false;
	for (int i = 0; i < 3 && !fresh; i++) {
		lt_snapshot *s = refresh();
		assert_non_null(s);
		const lt_group *g = snapshot_find_group(s, "fx-stable");
		assert_non_null(g);
		if (g->error) /* the old coordinator's answer */
			assert_non_null(strstr(g->error, "oordinator"));
		fresh = !g->error && g->stale_ms == 0 && g->coordinator == moved && g->n_partitions > 0;
		snapshot_unref(s);
	}
	assert_true(fresh);
	sim_must(sim_group_move_coordinator(sim, "fx-stable", 0, err, sizeof(err)), "sim_group_move_coordinator", err);
	assert_int_equal(sim_group_move_coordinator(sim, "no-such-group", 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no-such-group"));
	assert_recovers();
}

/* A broker going down and up between refreshes. */
static void flapping_broker(void **state)
{
	(void)state;
	char err[256];
	assert_recovers();
	int node = sim_coordinator(sim, "fx-stable");
	for (int i = 0; i < 6; i++) {
		if (i % 2 == 0)
			sim_must(sim_broker_stop(sim, node, err, sizeof(err)), "sim_broker_stop", err);
		else
			sim_must(sim_broker_start(sim, node, err, sizeof(err)), "sim_broker_start", err);
		lt_snapshot *s = refresh();
		if (s)
			assert_non_null(snapshot_find_group(s, "fx-stable")); /* shown, fresh or stale, never dropped */
		snapshot_unref(s);
	}
	assert_recovers();
}

/* The control API refuses nonsense with a message. */
/* A partition whose leader is up but whose ListOffsets fails is "log offsets unknown"
 * (LT_PF_LOG_UNKNOWN), not "no leader", on both log offset paths; the reset planner fed from that
 * snapshot says so (before: LT_PF_NO_LEADER and "The partitions ... have no leader"). */
static void list_offsets_failure_is_not_no_leader(void **state)
{
	(void)state;
	char err[512];
	static const char *const paths[] = { "offsets_for_times", "list_offsets" };
	for (size_t pi = 0; pi < 2; pi++) {
		setenv("LAGTOP_LOG_OFFSETS", paths[pi], 1); /* list_offsets: the admin API where librdkafka has it */
		assert_recovers();
		int leader = sim_leader(sim, "fx-orders", 0);
		assert_true(leader > 0);
		sim_must(sim_fault_list_offsets_partition(sim, "fx-orders", 0, -1 /* UNKNOWN_SERVER_ERROR */, err,
							  sizeof(err)),
			 "sim_fault_list_offsets_partition", err);
		lt_snapshot *s = refresh();
		assert_non_null(s);
		print_message("# %s: error %s\n", paths[pi], s->error ? s->error : "-");
		const lt_group *g = snapshot_find_group(s, "fx-stable");
		assert_non_null(g);
		bool seen = false;
		for (size_t k = 0; k < g->n_partitions; k++) {
			const lt_partition *p = &g->partitions[k];
			assert_false(p->flags & LT_PF_NO_LEADER); /* every leader is up */
			if (strcmp(p->topic, "fx-orders") == 0 && p->partition == 0) {
				seen = true;
				assert_true(p->flags & LT_PF_LOG_UNKNOWN);
				assert_int_equal(p->log_end, LT_OFFSET_NONE);
			} else if (sim_leader(sim, p->topic, p->partition) != leader) {
				assert_false(p->flags & LT_PF_LOG_UNKNOWN); /* other leaders are not affected */
				assert_true(p->log_end >= 0);
			} else {
				/* the same leader: offsets_for_times fails its whole call, the admin API one partition
				 */
				assert_true(p->log_end >= 0 || (p->flags & LT_PF_LOG_UNKNOWN));
			}
		}
		assert_true(seen);

		/* the planner, fed from this snapshot, names the real reason */
		lt_reset_input in;
		reset_input_init(&in);
		reset_input_from_group(&in, g);
		lt_reset_request rq;
		assert_int_equal(reset_request_init(&rq, "fx-stable", LT_RESET_LATEST, NULL, 0, err, sizeof(err)), 0);
		assert_int_equal(reset_request_add_topic(&rq, "fx-orders:0", err, sizeof(err)), 0);
		lt_reset_plan *plan = reset_plan_build(&rq, &in, err, sizeof(err));
		assert_null(plan);
		assert_string_equal(err,
				    "Error getting the log offsets of topic partition: fx-orders-0 (the leader is up, "
				    "but its ListOffsets request failed or timed out)");
		reset_request_free(&rq);
		reset_input_free(&in);
		snapshot_unref(s);
		sim_fault_clear(sim);
	}
	unsetenv("LAGTOP_LOG_OFFSETS");
	assert_recovers();
}

static void control_api_checks(void **state)
{
	(void)state;
	char err[256];
	int16_t code;
	assert_int_equal(sim_error_code_parse("not_coordinator", &code), 0);
	assert_int_equal(code, 16);
	assert_int_equal(sim_error_code_parse("BOGUS", &code), -1);
	assert_int_equal(sim_fault_errors(sim, 99, 15, -1, 0.5, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "99"));
	assert_int_equal(sim_fault_errors(sim, 0, 15, -1, 1.5, 0, err, sizeof(err)), -1);
	assert_int_equal(sim_fault_drop_rate(sim, 0, -0.1, err, sizeof(err)), -1);
	assert_int_equal(sim_fault_latency(sim, 1, -5, err, sizeof(err)), -1);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(baseline),
	cmocka_unit_test(retriable_errors_mark_stale),
	cmocka_unit_test(list_groups_errors_keep_groups),
	cmocka_unit_test(coordinator_down_and_back),
	cmocka_unit_test(slow_coordinator),
	cmocka_unit_test(dropped_connections),
	cmocka_unit_test(coordinator_moves),
	cmocka_unit_test(flapping_broker),
	cmocka_unit_test(list_offsets_failure_is_not_no_leader),
	cmocka_unit_test(control_api_checks),
};

LT_TEST_MAIN(setup, teardown)
