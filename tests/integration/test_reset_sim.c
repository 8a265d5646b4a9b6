/* test_reset_sim.c — guarded resets end to end: the real lagtop binary (and the executor API) against the
 * simulated cluster running in this process on 127.0.0.1.
 *
 * Topic "pay", 3 partitions, two batches of 100 records each with known timestamps:
 *   batch 1: offsets 0..99,   timestamps T1 + i s
 *   batch 2: offsets 100..199, timestamps T2 + i s   (T2 = T1 + 1 h)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <librdkafka/rdkafka.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kafka/reset_exec.h"
#include "reset/plan.h"
#include "sim/sim.h"
#include "../lib/lagtop_test.h"

#define T1 1795946400000LL /* 2026-11-29T10:00:00.000Z */
#define T2 (T1 + 3600000LL)

static sim_cluster *sim;
static char bootstrap[512];
static char statedir[256];

static int setup(void **state)
{
	(void)state;
	char err[512];
	sim = test_sim_with_topic(3, "pay", 3, 100, T1, 1000);
	snprintf(bootstrap, sizeof bootstrap, "%s", sim_bootstrap(sim));
	for (int p = 0; p < 3; p++)
		if (sim_append(sim, "pay", p, 100, T2, 1000, err, sizeof err))
			return -1;
	return test_state_dir_make(statedir, sizeof statedir, "reset-it");
}

static int teardown(void **state)
{
	(void)state;
	sim_free(sim);
	return test_dir_remove(statedir);
}

/* Commits offsets[p] (-1: none) for partitions 0..2 of "pay". */
static void commit3(const char *group, int64_t o0, int64_t o1, int64_t o2)
{
	char err[256];
	int64_t o[3] = { o0, o1, o2 };
	for (int p = 0; p < 3; p++)
		if (o[p] >= 0)
			sim_must(sim_commit(sim, group, "pay", p, o[p], NULL, err, sizeof err), "commit", err);
}

static char *read_audit(void)
{
	static char buf[65536];
	char path[400];
	snprintf(path, sizeof path, "%s/lagtop/audit.log", statedir);
	FILE *f = fopen(path, "r");
	buf[0] = '\0';
	if (f) {
		size_t n = fread(buf, 1, sizeof buf - 1, f);
		buf[n] = '\0';
		fclose(f);
	}
	return buf;
}

static void refused_while_stable(void **state)
{
	(void)state;
	char err[256], id[128];
	commit3("billing", 50, 60, 70);
	const int32_t parts[] = { 0, 1, 2 };
	struct sim_member_assignment a = { "pay", parts, 3 };
	struct sim_member_spec m = {
		.client_id = "billing-worker-1", .client_host = "/10.1.2.3", .assignment = &a, .nassignment = 1
	};
	sim_must(sim_add_member(sim, "billing", &m, id, sizeof id, err, sizeof err), "add member", err);

	struct run r;
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "billing", "--all-topics", "--to-earliest",
					      "--execute", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 3);
	expect_in(r.err, "Assignments can only be reset if the group 'billing' is inactive, but the current state "
			 "is Stable.");
	expect_in(r.err, "billing-worker-1");
	expect_in(r.err, "/10.1.2.3");
	assert_int_equal(sim_committed(sim, "billing", "pay", 0), 50);
	assert_int_equal(sim_committed(sim, "billing", "pay", 1), 60);
	assert_int_equal(sim_committed(sim, "billing", "pay", 2), 70);
	assert_int_equal(count_backups(statedir, "billing."), 0);
	expect_in(read_audit(), "group=billing target=to-earliest partitions=- result=refused");

	/* the dry run is refused the same way (kafka-consumer-groups does too) */
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "billing", "--topic", "pay", "--to-latest", "-b",
					      bootstrap, NULL });
	assert_int_equal(r.status, 3);
	sim_must(sim_remove_member(sim, "billing", id, err, sizeof err), "remove member", err);
}

static void executed_when_empty_then_undo(void **state)
{
	(void)state;
	commit3("ledger", 50, 150, -1);
	char info[32];
	sim_group_info(sim, "ledger", info, sizeof info);
	assert_string_equal(info, "Empty");

	/* dry run first: the plan, a warning, and nothing changes */
	struct run r;
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "ledger", "--topic", "pay", "--shift-by", "-70",
					      "-b", bootstrap, NULL });
	assert_int_equal(r.status, 2); /* pay-2 has no commit: cannot shift */
	expect_in(r.err, "Cannot shift offset for partition pay-2 since there is no current committed offset");

	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "ledger", "--topic", "pay:0,1", "--shift-by",
					      "-70", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 0);
	expect_in(r.out, "ledger          pay             0          0               50              -50");
	expect_in(r.out, "ledger          pay             1          80              150             -70");
	expect_in(r.out, "2 partitions: 120 messages replayed, 0 skipped");
	expect_in(r.err, "New offset (-20) is lower than earliest offset for topic partition pay-0. Value will be "
			 "set to 0.");
	expect_in(r.err, "dry run: nothing was committed");
	assert_int_equal(sim_committed(sim, "ledger", "pay", 0), 50);
	assert_int_equal(sim_committed(sim, "ledger", "pay", 1), 150);
	assert_int_equal(count_backups(statedir, "ledger."), 0);
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "ledger", "--topic", "pay", "--to-latest",
					      "--dry-run", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 0);
	expect_in(r.err, "dry run: nothing was committed");
	assert_int_equal(sim_committed(sim, "ledger", "pay", 0), 50);
	assert_int_equal(sim_committed(sim, "ledger", "pay", 2), -1);
	assert_int_equal(count_backups(statedir, "ledger."), 0);
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "ledger", "--topic", "pay", "--to-latest",
					      "--dry-run", "--execute", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 2);

	/* --execute: exactly the plan; a backup of the previous offsets first */
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "ledger", "--topic", "pay", "--to-offset", "120",
					      "--execute", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 0);
	assert_int_equal(sim_committed(sim, "ledger", "pay", 0), 120);
	assert_int_equal(sim_committed(sim, "ledger", "pay", 1), 120);
	assert_int_equal(sim_committed(sim, "ledger", "pay", 2), 120);
	expect_in(r.err, "every offset reads back as planned");
	assert_int_equal(count_backups(statedir, "ledger."), 1);
	expect_in(r.err, "backup of the previous offsets: ");
	const char *bp = strstr(r.err, "backup of the previous offsets: ") + strlen("backup of the previous offsets: ");
	char path[1024];
	snprintf(path, sizeof path, "%.*s", (int)strcspn(bp, "\n"), bp);
	expect_file_text(path, "pay,0,50\npay,1,150\npay,2,\n"); /* pay-2: no commit, an empty offset */
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	expect_in(read_audit(), "group=ledger target=to-offset%20120 partitions=3");
	expect_in(read_audit(), "result=executed");

	/* --export prints the plan as kafka-consumer-groups' CSV */
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "ledger", "--topic", "pay:2", "--to-latest",
					      "--export", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "pay,2,200\n");

	/* undo restores the newest backup, after a backup of its own */
	run_lagtop(&r, (const char *const[]){ "--undo", "ledger", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 0);
	expect_in(r.err, "dry run");
	assert_int_equal(sim_committed(sim, "ledger", "pay", 0), 120);
	run_lagtop(&r, (const char *const[]){ "--undo", "ledger", "--execute", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 0);
	assert_int_equal(sim_committed(sim, "ledger", "pay", 0), 50);
	assert_int_equal(sim_committed(sim, "ledger", "pay", 1), 150);
	/* pay-2 had no commit before the reset: undo deletes the one the reset made (it kept 120) */
	assert_int_equal(sim_committed(sim, "ledger", "pay", 2), -1);
	expect_in(r.err, "deleted the commit of 1 (no commit before the reset); every offset reads back as planned");
	assert_int_equal(count_backups(statedir, "ledger."), 2);
}

/* The backup holds the plan's partitions only, so --undo puts back what the reset moved and leaves alone
 * the partitions it did not touch (which consumers may have advanced since). */
static void undo_restores_only_what_the_reset_moved(void **state)
{
	(void)state;
	commit3("scoped", 40, 140, 190);
	struct run r;
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "scoped", "--topic", "pay:0", "--to-offset",
					      "10", "--execute", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 0);
	assert_int_equal(sim_committed(sim, "scoped", "pay", 0), 10);
	const char *bp = strstr(r.err, "backup of the previous offsets: ");
	assert_non_null(bp);
	bp += strlen("backup of the previous offsets: ");
	char path[1024];
	snprintf(path, sizeof path, "%.*s", (int)strcspn(bp, "\n"), bp);
	expect_file_text(path, "pay,0,40\n");

	/* the consumers run for a while (pay-1 and pay-2 advance), then stop; the operator undoes the reset */
	commit3("scoped", -1, 170, 200);
	run_lagtop(&r, (const char *const[]){ "--undo", "scoped", "--execute", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 0);
	assert_int_equal(sim_committed(sim, "scoped", "pay", 0), 40);
	assert_int_equal(sim_committed(sim, "scoped", "pay", 1), 170); /* not rewound to 140 */
	assert_int_equal(sim_committed(sim, "scoped", "pay", 2), 200);
}

/* A group with no commits at all. Its reset wrote no backup before (nothing was committed), so
 * --undo had nothing to restore; now the backup records "no commit" for each partition (an empty offset)
 * and --undo deletes the commits the reset created (OffsetDelete), through the same guard: refused while
 * the group has a member, nothing deleted. */
static void undo_of_a_group_without_commits(void **state)
{
	(void)state;
	char err[256], info[32], id[128];
	assert_int_equal(sim_group_info(sim, "newcomer", info, sizeof info), -1);
	struct run r;
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "newcomer", "--topic", "pay:0,2", "--to-offset",
					      "150", "--execute", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 0);
	assert_int_equal(sim_committed(sim, "newcomer", "pay", 0), 150);
	assert_int_equal(sim_committed(sim, "newcomer", "pay", 2), 150);
	assert_int_equal(count_backups(statedir, "newcomer."), 1);
	const char *bp = strstr(r.err, "backup of the previous offsets: ");
	assert_non_null(bp);
	bp += strlen("backup of the previous offsets: ");
	char path[1024];
	snprintf(path, sizeof path, "%.*s", (int)strcspn(bp, "\n"), bp);
	expect_file_text(path, "pay,0,\npay,2,\n");

	/* the preview says what the undo does */
	run_lagtop(&r, (const char *const[]){ "--undo", "newcomer", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 0);
	expect_in(r.out, "newcomer        pay             0          -               150             -            "
			 "no commit before: delete");
	expect_in(r.out,
		  "2 partitions: 0 messages replayed, 0 skipped, 2 commits deleted (no commit before the reset)");
	assert_int_equal(sim_committed(sim, "newcomer", "pay", 0), 150);

	/* guarded like everything else: refused while the group has a member, nothing deleted */
	const int32_t parts[] = { 0 };
	struct sim_member_assignment a = { "pay", parts, 1 };
	struct sim_member_spec m = {
		.client_id = "newcomer-1", .client_host = "/10.9.9.9", .assignment = &a, .nassignment = 1
	};
	sim_must(sim_add_member(sim, "newcomer", &m, id, sizeof id, err, sizeof err), "add member", err);
	run_lagtop(&r, (const char *const[]){ "--undo", "newcomer", "--execute", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 3);
	expect_in(r.err, "Assignments can only be reset if the group 'newcomer' is inactive");
	expect_in(r.err, "newcomer-1");
	assert_int_equal(sim_committed(sim, "newcomer", "pay", 0), 150);
	assert_int_equal(sim_committed(sim, "newcomer", "pay", 2), 150);
	sim_must(sim_remove_member(sim, "newcomer", id, err, sizeof err), "remove member", err);

	/* Empty again: the undo deletes both commits; the group is back to having none */
	run_lagtop(&r, (const char *const[]){ "--undo", "newcomer", "--execute", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 0);
	expect_in(r.err,
		  "committed 0 partitions and deleted the commit of 2 (no commit before the reset); every offset "
		  "reads back as planned");
	assert_int_equal(sim_committed(sim, "newcomer", "pay", 0), -1);
	assert_int_equal(sim_committed(sim, "newcomer", "pay", 2), -1);
	expect_in(read_audit(), "group=newcomer target=undo%20");
	/* the undo's own backup holds the commits it deleted: undoing the undo brings them back */
	run_lagtop(&r, (const char *const[]){ "--undo", "newcomer", "--execute", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 0);
	assert_int_equal(sim_committed(sim, "newcomer", "pay", 0), 150);
	assert_int_equal(sim_committed(sim, "newcomer", "pay", 2), 150);
}

/* What rd_kafka_offsets_for_times says for ts on pay-0..2. */
static void offsets_for_times(int64_t ts, int64_t out[3])
{
	char errstr[256];
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	assert_int_equal(rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap, errstr, sizeof errstr), 0);
	rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
	assert_non_null(rk);
	rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(3);
	for (int p = 0; p < 3; p++)
		rd_kafka_topic_partition_list_add(l, "pay", p)->offset = ts;
	assert_int_equal(rd_kafka_offsets_for_times(rk, l, 10000), 0);
	for (int p = 0; p < 3; p++) {
		assert_int_equal(l->elems[p].err, 0);
		out[l->elems[p].partition] = l->elems[p].offset;
	}
	rd_kafka_topic_partition_list_destroy(l);
	rd_kafka_destroy(rk);
}

static void to_datetime_matches_offsets_for_times(void **state)
{
	(void)state;
	commit3("audit", 10, 10, 10);
	int64_t want[3];
	/* between the two batches: the first record of batch 2 */
	offsets_for_times(T1 + 3000000, want);
	assert_int_equal(want[0], 100);
	struct run r;
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "audit", "--topic", "pay", "--to-datetime",
					      "2026-11-29T10:50:00.000", "--execute", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 0);
	for (int p = 0; p < 3; p++)
		assert_int_equal(sim_committed(sim, "audit", "pay", p), want[p]);

	/* inside batch 1, with a zone: 2026-11-29T18:00:50.500+08:00 = T1 + 50.5 s -> offset 51 */
	offsets_for_times(T1 + 50500, want);
	assert_int_equal(want[1], 51);
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "audit", "--topic", "pay", "--to-datetime",
					      "2026-11-29T18:00:50.500+08:00", "--execute", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 0);
	for (int p = 0; p < 3; p++)
		assert_int_equal(sim_committed(sim, "audit", "pay", p), want[p]);

	/* after the last record: kafka-consumer-groups falls back to the log end, with a warning */
	offsets_for_times(T2 + 200000, want);
	assert_int_equal(want[0], -1);
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "audit", "--topic", "pay:0", "--to-datetime",
					      "2026-11-29T11:03:20.000Z", "--execute", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 0);
	/* kafka-consumer-groups' sentence, where it prints it: standard output, a blank line before it */
	expect_in(r.out, "\nWarn: Partition 0 from topic pay is empty. Falling back to latest known offset.\n\n");
	assert_null(strstr(r.err, "no message at or after"));
	assert_int_equal(sim_committed(sim, "audit", "pay", 0), 200);
	expect_in(r.out, "nothing at/after time: log end");
}

static void usage_errors(void **state)
{
	(void)state;
	struct run r;
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "x", "--topic", "pay", "--to-datetime",
					      "2026-02-30T00:00:00.000", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 2);
	expect_in(r.err, "'2026-02-30T00:00:00.000'");
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "x", "--topic", "pay:0,9", "--to-earliest", "-b",
					      bootstrap, NULL });
	assert_int_equal(r.status, 2);
	expect_in(r.err, "The partitions \"pay-9\" do not exist");
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "x", "--topic", "nope", "--to-earliest", "-b",
					      bootstrap, NULL });
	assert_int_equal(r.status, 2);
	char csvpath[400];
	snprintf(csvpath, sizeof csvpath, "%s/plan.csv", statedir);
	FILE *f = fopen(csvpath, "w");
	fputs("pay,0,5\npay,one,6\n", f);
	fclose(f);
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "x", "--from-file", csvpath, "-b", bootstrap,
					      NULL });
	assert_int_equal(r.status, 2);
	expect_in(r.err, "line 2: partition 'one' is not a whole number");
	run_lagtop(&r, (const char *const[]){ "--undo", "never-reset", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 2);
	expect_in(r.err, "no backup of group 'never-reset'");
	/* a cluster marked read_only in the configuration has no reset path */
	char confpath[400];
	snprintf(confpath, sizeof confpath, "%s/ro.conf", statedir);
	f = fopen(confpath, "w");
	fprintf(f, "clusters = { prod = { bootstrap_servers = \"%s\"; read_only = true; }; };\n", bootstrap);
	fclose(f);
	run_lagtop(&r, (const char *const[]){ "--config", confpath, "-c", "prod", "--reset-offsets", "-g", "x",
					      "--topic", "pay", "--to-earliest", "--execute", NULL });
	assert_int_equal(r.status, 2);
	expect_in(r.err, "resets are disabled for cluster 'prod'");
	assert_int_equal(sim_committed(sim, "x", "pay", 0), -1);
	/* unreachable cluster: exit 1 */
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "x", "--all-topics", "--to-earliest", "-b",
					      "127.0.0.1:1", "--timeout", "1s", NULL });
	assert_int_equal(r.status, 1);
}

static void from_file_round_trip(void **state)
{
	(void)state;
	commit3("files", 5, 6, 7);
	char csvpath[400];
	snprintf(csvpath, sizeof csvpath, "%s/files.csv", statedir);
	FILE *f = fopen(csvpath, "w");
	fputs("other,pay,0,1\nfiles,pay,0,11\nfiles,pay,2,999\n", f);
	fclose(f);
	struct run r;
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "files", "--from-file", csvpath, "--execute",
					      "-b", bootstrap, NULL });
	assert_int_equal(r.status, 0);
	expect_in(r.err,
		  "New offset (999) is higher than latest offset for topic partition pay-2. Value will be set to "
		  "200.");
	assert_int_equal(sim_committed(sim, "files", "pay", 0), 11);
	assert_int_equal(sim_committed(sim, "files", "pay", 1), 6);
	assert_int_equal(sim_committed(sim, "files", "pay", 2), 200);

	/* with --export, stdout carries only the CSV, also when executing */
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "files", "--topic", "pay:1", "--to-offset", "9",
					      "--execute", "--export", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "pay,1,9\n");
	expect_in(r.err, "every offset reads back as planned");
	assert_int_equal(sim_committed(sim, "files", "pay", 1), 9);

	/* a group that does not exist yet may be given offsets (kafka-consumer-groups allows it too) */
	char info[32];
	assert_int_equal(sim_group_info(sim, "fresh", info, sizeof info), -1);
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "fresh", "--topic", "pay:1", "--to-datetime",
					      "2026-11-29T11:00:00.000Z", "--execute", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 0);
	expect_in(r.out, "fresh           pay             1          100             -               -");
	expect_in(r.out, "1 partition: 0 messages replayed, 0 skipped, 1 without a previous commit");
	assert_int_equal(sim_committed(sim, "fresh", "pay", 1), 100);
}

/* A member joins after the guard's last look but before the commit: the broker refuses (UNKNOWN_MEMBER_ID)
 * and nothing changes. The coordinator's answers are held back so the member can be added while the
 * executor waits for the backup read (the OffsetFetch right after the guard). */
static void member_joins_between_preview_and_commit(void **state)
{
	(void)state;
	char err[512];
	commit3("race", 30, 30, 30);
	struct lt_connection cf = { .name = (char *)"sim", .bootstrap = (char *)bootstrap };
	lt_reset_conn *c = reset_conn_new(&cf, 10000, err, sizeof err);
	assert_non_null(c);
	lt_reset_request rq;
	assert_int_equal(reset_request_init(&rq, "race", LT_RESET_EARLIEST, NULL, 0, err, sizeof err), 0);
	assert_int_equal(reset_request_add_topic(&rq, "pay", err, sizeof err), 0);
	lt_reset_input in;
	reset_input_init(&in);
	sim_must(reset_exec_gather(c, &rq, &in, err, sizeof err), "gather", err);
	char msg[1024];
	assert_int_equal(reset_guard("race", &in, msg, sizeof msg), LT_GUARD_PROCEED);
	lt_reset_plan *plan = reset_plan_build(&rq, &in, err, sizeof err);
	assert_non_null(plan);

	/* 1. joined before the commit started: the guard's second look refuses */
	char id[128];
	struct sim_member_spec m = { .client_id = "early-joiner" };
	const int32_t parts[] = { 1 };
	struct sim_member_assignment a = { "pay", parts, 1 };
	m.assignment = &a;
	m.nassignment = 1;
	sim_must(sim_add_member(sim, "race", &m, id, sizeof id, err, sizeof err), "add", err);
	lt_reset_result res;
	assert_int_equal(reset_exec_commit(c, plan, "to-earliest", &res), LT_EXEC_REFUSED);
	assert_non_null(strstr(res.message, "early-joiner"));
	assert_null(res.backup_path);
	reset_result_free(&res);
	sim_must(sim_remove_member(sim, "race", id, err, sizeof err), "remove", err);

	/* 2. joined after the guard's look: the broker refuses the admin commit */
	uint64_t counts[SIM_COUNT_KEYS + 1];
	sim_counts(sim, counts, false);
	struct sim_joiner j = { .sim = sim, .group = "race", .fetch_before = counts[9] };
	int coord = sim_coordinator(sim, "race");
	sim_must(sim_broker_set_latency(sim, coord, 1500, err, sizeof err), "latency", err);
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, sim_join_on_fetch, &j), 0);
	lt_exec_status st = reset_exec_commit(c, plan, "to-earliest", &res);
	pthread_join(th, NULL);
	sim_must(sim_broker_set_latency(sim, coord, 0, err, sizeof err), "latency", err);
	assert_true(j.done);
	assert_int_equal(st, LT_EXEC_REFUSED);
	assert_non_null(strstr(res.message, "a member joined group 'race'"));
	assert_non_null(res.backup_path); /* the backup was written before the attempt */
	for (size_t i = 0; i < res.n_parts; i++) {
		assert_true(res.parts[i].refused);
		assert_false(res.parts[i].matches);
		assert_int_equal(res.parts[i].after, 30);
	}
	for (int p = 0; p < 3; p++)
		assert_int_equal(sim_committed(sim, "race", "pay", p), 30);
	reset_result_free(&res);
	sim_must(sim_remove_member(sim, "race", j.id, err, sizeof err), "remove", err);

	/* 3. and once the group is empty again, the same plan goes through */
	assert_int_equal(reset_exec_commit(c, plan, "to-earliest", &res), LT_EXEC_EXECUTED);
	for (int p = 0; p < 3; p++)
		assert_int_equal(sim_committed(sim, "race", "pay", p), 0);
	reset_result_free(&res);

	reset_plan_free(plan);
	reset_input_free(&in);
	reset_request_free(&rq);
	reset_conn_free(c);
}

/* Notes the first offset seen per partition of "pay" (first[p] < 0 until then); returns 1 if it was new. */
static int note_first(rd_kafka_message_t *m, int64_t first[3])
{
	int fresh = 0;
	if (!m->err && m->partition >= 0 && m->partition < 3 && first[m->partition] < 0) {
		first[m->partition] = m->offset;
		fresh = 1;
	}
	rd_kafka_message_destroy(m);
	return fresh;
}

/* A librdkafka consumer in group, subscribed to "pay"; returns once it owns partitions. Messages it
 * receives meanwhile are noted in first[]. */
static rd_kafka_t *start_consumer(const char *group, const char *client_id, int64_t first[3])
{
	char errstr[256];
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	const char *kv[][2] = { { "bootstrap.servers", bootstrap }, { "group.id", group },
				{ "client.id", client_id },         { "enable.auto.commit", "false" },
				{ "auto.offset.reset", "latest" },  { "session.timeout.ms", "6000" } };
	for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
		assert_int_equal(rd_kafka_conf_set(conf, kv[i][0], kv[i][1], errstr, sizeof errstr), 0);
	rd_kafka_t *rk = rdk_consumer_subscribed(conf, "pay");
	for (int i = 0; i < 200; i++) {
		rd_kafka_message_t *m = rd_kafka_consumer_poll(rk, 100);
		if (m)
			note_first(m, first);
		rd_kafka_topic_partition_list_t *a = NULL;
		if (rd_kafka_assignment(rk, &a) == 0 && a->cnt > 0) {
			rd_kafka_topic_partition_list_destroy(a);
			return rk;
		}
		if (a)
			rd_kafka_topic_partition_list_destroy(a);
	}
	fail_msg("the librdkafka consumer got no assignment within 20 s");
	return NULL;
}

static void librdkafka_consumer_member(void **state)
{
	(void)state;
	commit3("stream", 40, 40, 40);
	int64_t first[3] = { -1, -1, -1 };
	rd_kafka_t *rk = start_consumer("stream", "stream-rdk-1", first);
	struct run r;
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "stream", "--topic", "pay", "--to-earliest",
					      "--execute", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 3);
	expect_in(r.err, "is inactive, but the current state is ");
	expect_in(r.err, "client-id stream-rdk-1");
	for (int p = 0; p < 3; p++)
		assert_int_equal(sim_committed(sim, "stream", "pay", p), 40);
	rd_kafka_consumer_close(rk);
	rd_kafka_destroy(rk);

	/* gone (LeaveGroup): the reset goes through, and a new consumer starts at the new offset */
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "stream", "--topic", "pay", "--to-offset", "150",
					      "--execute", "-b", bootstrap, NULL });
	assert_int_equal(r.status, 0);
	first[0] = first[1] = first[2] = -1;
	rk = start_consumer("stream", "stream-rdk-2", first);
	for (int i = 0; i < 300 && (first[0] < 0 || first[1] < 0 || first[2] < 0); i++) {
		rd_kafka_message_t *m = rd_kafka_consumer_poll(rk, 100);
		if (m)
			note_first(m, first);
	}
	rd_kafka_consumer_close(rk);
	rd_kafka_destroy(rk);
	for (int p = 0; p < 3; p++)
		assert_int_equal(first[p], 150);
}

/* The group's coordinator is down: nothing is planned or committed (exit 1, or the guard's fail-closed
 * refusal), and when it comes back the same connection keeps working (librdkafka 2.0.2 would abort if a
 * timed-out coordinator request were still pending then: the executor never lets them time out). */
static void coordinator_down(void **state)
{
	(void)state;
	char err[512];
	commit3("downer", 5, 5, 5);
	int coord = sim_coordinator(sim, "downer");
	assert_true(coord > 0);
	sim_must(sim_broker_stop(sim, coord, err, sizeof err), "stop", err);

	struct run r;
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "downer", "--topic", "pay", "--to-earliest",
					      "--execute", "--timeout", "1s", "-b", bootstrap, NULL });
	assert_true(r.status == 1 || r.status == 3);
	assert_int_equal(count_backups(statedir, "downer."), 0);

	struct lt_connection cf = { .name = (char *)"sim", .bootstrap = (char *)bootstrap };
	lt_reset_conn *c = reset_conn_new(&cf, 1000, err, sizeof err);
	assert_non_null(c);
	lt_reset_request rq;
	assert_int_equal(reset_request_init(&rq, "downer", LT_RESET_EARLIEST, NULL, 0, err, sizeof err), 0);
	assert_int_equal(reset_request_add_topic(&rq, "pay", err, sizeof err), 0);
	lt_reset_input in;
	reset_input_init(&in);
	assert_int_equal(reset_exec_gather(c, &rq, &in, err, sizeof err), -1);
	char msg[1024];
	assert_int_equal(reset_guard("downer", &in, msg, sizeof msg), LT_GUARD_REFUSE_UNKNOWN);
	assert_non_null(strstr(msg, "could not be read"));
	reset_input_free(&in);

	sim_must(sim_broker_start(sim, coord, err, sizeof err), "start", err);
	/* the abandoned requests find their coordinator now; the connection must survive that */
	int64_t t0 = reset_now_ms();
	int rc = -1;
	while (rc != 0 && reset_now_ms() - t0 < 20000) {
		reset_input_init(&in);
		rc = reset_exec_gather(c, &rq, &in, err, sizeof err);
		if (rc == 0 && in.state != LT_GROUP_EMPTY)
			rc = -1;
		if (rc)
			reset_input_free(&in);
	}
	assert_int_equal(rc, 0);
	assert_int_equal(reset_guard("downer", &in, msg, sizeof msg), LT_GUARD_PROCEED);
	reset_input_free(&in);
	reset_request_free(&rq);
	reset_conn_free(c);
	for (int p = 0; p < 3; p++)
		assert_int_equal(sim_committed(sim, "downer", "pay", p), 5);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(refused_while_stable),
		cmocka_unit_test(executed_when_empty_then_undo),
		cmocka_unit_test(undo_restores_only_what_the_reset_moved),
		cmocka_unit_test(undo_of_a_group_without_commits),
		cmocka_unit_test(to_datetime_matches_offsets_for_times),
		cmocka_unit_test(usage_errors),
		cmocka_unit_test(from_file_round_trip),
		cmocka_unit_test(member_joins_between_preview_and_commit),
		cmocka_unit_test(librdkafka_consumer_member),
		cmocka_unit_test(coordinator_down),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
