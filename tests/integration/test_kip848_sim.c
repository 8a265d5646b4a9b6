/* test_kip848_sim.c — KIP-848 consumer-protocol groups end to end, against the simulated cluster in this
 * process (the "fixture" scenario: src/sim/sim.h). Such a group answers DescribeGroups below v6 (all that
 * librdkafka 2.0.2 sends) as Dead with no members; ListGroups lists it with its real state.
 *   - the collector shows the listed state, type consumer, members unreadable, and the committed offsets,
 *     on the first (cold) refresh and on warm ones, also when the list arrives after the describe;
 *   - --once: JSON type/members_readable/members, the table's STATE and "?" owners, a warning line;
 *   - resets: refused (exit 3) with nothing committed and no backup while the group is Stable or in a
 *     state librdkafka cannot name; allowed once its last member is gone (Empty); the executor API says
 *     the same (the dashboard's reset dialog goes through it).
 * Fixture group fx-kip848: Stable, one member, committed fx-orders/1 = 650 (log end 1000).
 *
 * With librdkafka 2.10 or later (configure: HAVE_RD_KAFKA_CONSUMERGROUPDESCRIPTION_TYPE) the same group is
 * described whole through ConsumerGroupDescribe: the same state and type, its member readable (fx-c4-member,
 * client fx-c4, host /10.9.0.4, fx-orders 1), and the guard refuses it naming that member; Assigning and
 * Reconciling are still Unknown (librdkafka has no name for them). Each check says which it expects.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kafka/collector.h"
#include "kafka/reset_exec.h"
#include "reset/plan.h"
#include "sim/sim.h"
#include "../lib/lagtop_test.h"

#define ERR_LEN 512

static sim_cluster *sim;
static char bootstrap[512];
static char statedir[256];

static int setup(void **state)
{
	(void)state;
	char err[ERR_LEN];
	struct sim_options o = { .brokers = 3, .port = 0, .scenario = "fixture" };
	sim = sim_new(&o, err, sizeof err);
	if (!sim || sim_start(sim)) {
		fprintf(stderr, "sim: %s\n", err);
		return -1;
	}
	snprintf(bootstrap, sizeof bootstrap, "%s", sim_bootstrap(sim));
	return test_state_dir_make(statedir, sizeof statedir, "kip848-it");
}

static int teardown(void **state)
{
	(void)state;
	sim_free(sim);
	return test_dir_remove(statedir);
}

static lt_collector *collector_for(struct lt_collector_conf *c)
{
	char err[ERR_LEN] = "";
	static struct lt_connection conn;
	conn = (struct lt_connection){ .name = (char *)"sim", .bootstrap = (char *)bootstrap };
	c->conn = &conn;
	c->timeout_ms = 5000;
	c->interval_ms = 200;
	model_params_default(&c->model);
	lt_collector *col = collector_new(c, err, sizeof err);
	if (!col)
		fail_msg("collector_new: %s", err);
	return col;
}

static const lt_group *group_in(const lt_snapshot *s, const char *name)
{
	const lt_group *g = snapshot_find_group(s, name);
	if (!g)
		fail_msg("group %s missing from the snapshot (error: %s)", name, s->error ? s->error : "-");
	return g;
}

#ifdef HAVE_RD_KAFKA_CONSUMERGROUPDESCRIPTION_TYPE
#define DESCRIBED_WHOLE 1 /* ConsumerGroupDescribe: members read */
#else
#define DESCRIBED_WHOLE 0 /* the classic API: members unreadable */
#endif

static void expect_kip848(const lt_group *g, lt_group_state st)
{
	if (g->state != st)
		fail_msg("%s: state %s, want %s (error: %s)", g->group, group_state_name(g->state),
			 group_state_name(st), g->error ? g->error : "-");
	assert_int_equal(g->type, LT_GTYPE_CONSUMER);
	assert_string_equal(g->protocol_type, "consumer");
#if DESCRIBED_WHOLE
	assert_false(g->members_unreadable);
	assert_int_equal(g->n_members, 1);
	assert_string_equal(g->members[0].member_id, "fx-c4-member");
	assert_string_equal(g->members[0].client_id, "fx-c4");
	assert_string_equal(g->members[0].host, "/10.9.0.4");
	assert_int_equal(g->members[0].n_assigned, 1);
	assert_string_equal(g->members[0].assigned[0].topic, "fx-orders");
	assert_int_equal(g->members[0].assigned[0].partition, 1);
#else
	assert_true(g->members_unreadable);
	assert_int_equal(g->n_members, 0);
#endif
	assert_null(g->error);
	const lt_partition *p = NULL;
	for (size_t k = 0; k < g->n_partitions; k++)
		if (g->partitions[k].partition == 1 && strcmp(g->partitions[k].topic, "fx-orders") == 0)
			p = &g->partitions[k];
	assert_non_null(p);
	assert_int_equal(p->committed, 650);
	assert_int_equal(p->log_end, 1000);
	assert_true(p->has_lag);
	assert_int_equal(p->lag, 350);
	assert_false(p->flags & LT_PF_UNASSIGNED);
#if DESCRIBED_WHOLE
	assert_int_equal(p->member, 0); /* owned by fx-c4-member */
#endif
}

/* The collector: the listed state on the cold refresh and on warm ones; a classic group beside it keeps
 * its members; the list delayed behind the warm describe changes nothing (the build waits for it);
 * Reconciling arrives as Unknown through librdkafka 2.0.2. */
static void collector_shows_the_listed_state(void **state)
{
	(void)state;
	char err[ERR_LEN];
	struct lt_collector_conf conf = { 0 };
	lt_collector *col = collector_for(&conf);
	lt_snapshot *s = collector_refresh_or_fail(col);
	expect_kip848(group_in(s, "fx-kip848"), LT_GROUP_STABLE);
	const lt_group *classic = group_in(s, "fx-stable");
	assert_int_equal(classic->type, LT_GTYPE_CLASSIC);
	assert_false(classic->members_unreadable);
	assert_int_equal(classic->n_members, 2);
	snapshot_unref(s);

	s = collector_refresh_or_fail(col); /* warm: described straight at its coordinator, in parallel with the list */
	expect_kip848(group_in(s, "fx-kip848"), LT_GROUP_STABLE);
	snapshot_unref(s);

	/* every broker but the coordinator answers late: the warm describe is in before the list */
	int coord = sim_coordinator(sim, "fx-kip848");
	for (int b = 1; b <= sim_broker_count(sim); b++)
		if (b != coord)
			sim_must(sim_broker_set_latency(sim, b, 400, err, sizeof err), "latency", err);
	s = collector_refresh_or_fail(col);
	expect_kip848(group_in(s, "fx-kip848"), LT_GROUP_STABLE);
	snapshot_unref(s);
	for (int b = 1; b <= sim_broker_count(sim); b++)
		sim_must(sim_broker_set_latency(sim, b, 0, err, sizeof err), "latency", err);

	sim_must(sim_set_group_state(sim, "fx-kip848", "Reconciling", err, sizeof err), "Reconciling", err);
	s = collector_refresh_or_fail(col);
	expect_kip848(group_in(s, "fx-kip848"), LT_GROUP_UNKNOWN);
	snapshot_unref(s);
	sim_must(sim_set_group_state(sim, "fx-kip848", "Stable", err, sizeof err), "Stable", err);
	collector_free(col);
}

static void once_json_and_table(void **state)
{
	(void)state;
	struct run r;
	run_lagtop(&r,
		   (const char *const[]){ "--once", "--format", "json", "--no-commit-stream", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 0);
	expect_in(r.out, "\"group\":\"fx-stable\",\"state\":\"Stable\",\"type\":\"classic\",\"members_readable\":true,"
			 "\"members\":2");
#if DESCRIBED_WHOLE
	expect_in(r.out, "\"group\":\"fx-kip848\",\"state\":\"Stable\",\"type\":\"consumer\",\"members_readable\":true,"
			 "\"members\":1,\"lag\":350");
	expect_in(r.out,
		  "\"member_list\":[{\"consumer_id\":\"fx-c4-member\",\"client_id\":\"fx-c4\",\"host\":\"/10.9.0.4\","
		  "\"instance_id\":null,\"assignment\":[{\"topic\":\"fx-orders\",\"partition\":1}]}]");
	if (strstr(r.err, LT_MEMBERS_UNREADABLE_NOTE))
		fail_msg("a warning about unreadable members:\n%s", r.err);
#else
	expect_in(r.out,
		  "\"group\":\"fx-kip848\",\"state\":\"Stable\",\"type\":\"consumer\",\"members_readable\":false,"
		  "\"members\":null,\"lag\":350");
	expect_in(r.out, "\"member_list\":[]");
	expect_in(r.err, "lagtop: warning: group fx-kip848: " LT_MEMBERS_UNREADABLE_NOTE);
#endif

	run_lagtop(&r,
		   (const char *const[]){ "--once", "--no-commit-stream", "-g", "fx-kip848", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 0);
	/* columns by their header: TIME-LAG and STATUS come and go */
	char hdr[16][32], row[16][32];
	size_t nh = 0, nr = 0;
	char *text = strdup(r.out), *save = NULL;
	char *l0 = strtok_r(text, "\n", &save), *l1 = strtok_r(NULL, "\n", &save);
	assert_non_null(l0);
	assert_non_null(l1);
	for (char *s2 = NULL, *w = strtok_r(l0, " ", &s2); w && nh < 16; w = strtok_r(NULL, " ", &s2))
		snprintf(hdr[nh++], 32, "%s", w);
	for (char *s2 = NULL, *w = strtok_r(l1, " ", &s2); w && nr < 16; w = strtok_r(NULL, " ", &s2))
		snprintf(row[nr++], 32, "%s", w);
	free(text);
	assert_int_equal(nh, nr);
#if DESCRIBED_WHOLE
	const char *want[][2] = {
		{ "GROUP", "fx-kip848" },          { "STATE", "Stable" },       { "TYPE", "consumer" },
		{ "TOPIC", "fx-orders" },          { "CURRENT-OFFSET", "650" }, { "LAG", "350" },
		{ "CONSUMER-ID", "fx-c4-member" }, { "HOST", "/10.9.0.4" },     { "CLIENT-ID", "fx-c4" }
	};
#else
	const char *want[][2] = { { "GROUP", "fx-kip848" },    { "STATE", "Stable" },
				  { "TYPE", "consumer" },      { "TOPIC", "fx-orders" },
				  { "CURRENT-OFFSET", "650" }, { "LAG", "350" },
				  { "CONSUMER-ID", "?" },      { "HOST", "?" },
				  { "CLIENT-ID", "?" } };
#endif
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		size_t c = 0;
		while (c < nh && strcmp(hdr[c], want[i][0]) != 0)
			c++;
		if (c == nh)
			fail_msg("no column %s in:\n%s", want[i][0], r.out);
		if (strcmp(row[c], want[i][1]) != 0)
			fail_msg("%s is '%s', want '%s':\n%s", want[i][0], row[c], want[i][1], r.out);
	}
}

/* lagtop --reset-offsets ... --execute on an active consumer-protocol group: exit 3, nothing committed,
 * no backup. The executor says the same for Stable and for Reconciling (Unknown through 2.0.2). */
static void reset_refused_while_active(void **state)
{
	(void)state;
	char err[ERR_LEN], msg[2048];
	struct run r;
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "fx-kip848", "--topic", "fx-orders:1",
					      "--to-earliest", "--execute", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 3);
	expect_in(r.err, "the current state is Stable");
#if DESCRIBED_WHOLE
	expect_in(r.err, "client-id fx-c4 on host /10.9.0.4 (member fx-c4-member)");
#else
	expect_in(r.err, "members of this consumer-protocol (KIP-848) group cannot be read with this librdkafka");
#endif
	assert_int_equal(sim_committed(sim, "fx-kip848", "fx-orders", 1), 650);
	assert_int_equal(count_backups(statedir, "fx-kip848."), 0);

	struct lt_connection cf = { .name = (char *)"sim", .bootstrap = (char *)bootstrap };
	lt_reset_conn *c = reset_conn_new(&cf, 5000, err, sizeof err);
	assert_non_null(c);
	const char *states[] = { "Stable", "Reconciling", "Assigning" };
	for (size_t i = 0; i < 3; i++) {
		sim_must(sim_set_group_state(sim, "fx-kip848", states[i], err, sizeof err), states[i], err);
		lt_reset_input in;
		reset_input_init(&in);
		reset_exec_read_state(c, "fx-kip848", &in);
		assert_int_equal(in.type, LT_GTYPE_CONSUMER);
		assert_int_equal(in.state, i == 0 ? LT_GROUP_STABLE : LT_GROUP_UNKNOWN);
#if DESCRIBED_WHOLE
		assert_false(in.members_unreadable);
		assert_int_equal(in.n_members, 1);
		assert_int_equal(reset_guard("fx-kip848", &in, msg, sizeof msg),
				 i == 0 ? LT_GUARD_REFUSE_ACTIVE : LT_GUARD_REFUSE_UNKNOWN);
		if (!strstr(msg, "client-id fx-c4 on host /10.9.0.4"))
			fail_msg("%s: the member is not named:\n%s", states[i], msg);
#else
		assert_true(in.members_unreadable);
		assert_int_equal(reset_guard("fx-kip848", &in, msg, sizeof msg), LT_GUARD_REFUSE_UNREADABLE);
#endif
		reset_input_free(&in);
	}
	sim_must(sim_set_group_state(sim, "fx-kip848", "Stable", err, sizeof err), "Stable", err);

	/* a group that does not exist is still Dead: it may be given offsets, as before */
	lt_reset_input in;
	reset_input_init(&in);
	reset_exec_read_state(c, "no-such-group", &in);
	assert_int_equal(in.state, LT_GROUP_DEAD);
	assert_false(in.members_unreadable);
	assert_int_equal(reset_guard("no-such-group", &in, msg, sizeof msg), LT_GUARD_PROCEED);
	reset_input_free(&in);
	reset_conn_free(c);
}

/* A consumer-protocol group of our own: refused while its member is there, executed once it is gone
 * (Empty: the state says there are no members). */
static void reset_proceeds_once_empty(void **state)
{
	(void)state;
	char err[ERR_LEN], id[256];
	const int32_t parts[] = { 2 };
	struct sim_member_assignment a = { "fx-orders", parts, 1 };
	struct sim_member_spec m = { .client_id = "kip-worker", .assignment = &a, .nassignment = 1 };
	/* the member first: sim_commit on an unknown group would create a classic one */
	sim_must(sim_add_consumer_member(sim, "kip-own", &m, id, sizeof id, err, sizeof err), "add consumer member",
		 err);
	sim_must(sim_commit(sim, "kip-own", "fx-orders", 2, 900, NULL, err, sizeof err), "commit", err);

	struct run r;
	const char *const args[] = { "--reset-offsets", "-g", "kip-own", "--topic", "fx-orders:2", "--to-offset", "100",
				     "--execute",       "-b", bootstrap, NULL };
	run_lagtop(&r, args);
	assert_int_equal(r.status, 3);
	assert_int_equal(sim_committed(sim, "kip-own", "fx-orders", 2), 900);
	assert_int_equal(count_backups(statedir, "kip-own."), 0);

	sim_must(sim_remove_member(sim, "kip-own", id, err, sizeof err), "remove member", err);
	run_lagtop(&r, args);
	if (r.status != 0)
		fail_msg("exit %d after the last member left:\n%s", r.status, r.err);
	assert_int_equal(sim_committed(sim, "kip-own", "fx-orders", 2), 100);
	assert_int_equal(count_backups(statedir, "kip-own."), 1);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(collector_shows_the_listed_state),
		cmocka_unit_test(once_json_and_table),
		cmocka_unit_test(reset_refused_while_active),
		cmocka_unit_test(reset_proceeds_once_empty),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
