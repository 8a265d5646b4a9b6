/* test_faults_reset.c — offset resets under faults, the real lagtop binary against the in-process
 * sim on 127.0.0.1:
 *   - the guard fails closed when the group's state cannot be read: each retriable coordinator error on
 *     DescribeGroups, OffsetFetch or FindCoordinator, and a frozen cluster — nothing committed, no backup;
 *   - a commit that fails part-way (one partition refused) is reported per partition, the backup of the
 *     previous offsets exists (0600), and --undo restores them;
 *   - the audit log and backups are never written through a symlink planted at their path.
 * Topic "pay": 3 partitions of 200 records. Every run is bounded (30 s, then SIGKILL: a failure). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim/sim.h"
#include "../lib/lagtop_test.h"
#include "../lib/cmocka_main.h"

#define T1 1795946400000LL
enum { API_OFFSET_FETCH = 9, API_FIND_COORDINATOR = 10, API_DESCRIBE_GROUPS = 15 };

extern char **environ;

static sim_cluster *sim;
static char bootstrap[512];
static char statedir[256];

static int setup(void **state)
{
	(void)state;
	sim = test_sim_with_topic(3, "pay", 3, 200, T1, 1000);
	snprintf(bootstrap, sizeof bootstrap, "%s", sim_bootstrap(sim));
	if (test_state_dir_make(statedir, sizeof statedir, "faults-reset") != 0)
		return -1;
	setenv("HOME", statedir, 1);
	return 0;
}

/* rm -r without a shell */
static void remove_tree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return;
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(path);
		struct dirent *e;
		while (d && (e = readdir(d))) {
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			char sub[1024];
			snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
			remove_tree(sub);
		}
		if (d)
			closedir(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}

static int teardown(void **state)
{
	(void)state;
	sim_free(sim);
	remove_tree(statedir);
	return 0;
}

static void commit3(const char *group, int64_t o)
{
	char err[256];
	for (int p = 0; p < 3; p++)
		sim_must(sim_commit(sim, group, "pay", p, o, NULL, err, sizeof err), "sim_commit", err);
}

static void assert_offsets(const char *group, int64_t o0, int64_t o1, int64_t o2)
{
	assert_int_equal(sim_committed(sim, group, "pay", 0), o0);
	assert_int_equal(sim_committed(sim, group, "pay", 1), o1);
	assert_int_equal(sim_committed(sim, group, "pay", 2), o2);
}

static const char *const codes[] = { "COORDINATOR_NOT_AVAILABLE", "NOT_COORDINATOR", "COORDINATOR_LOAD_IN_PROGRESS",
				     "REQUEST_TIMED_OUT" };

/* Each retriable error answered by every broker to one API: the reset refuses or fails, and changes nothing. */
static void guard_fails_closed_on_errors(void **state)
{
	(void)state;
	static const int apis[] = { API_DESCRIBE_GROUPS, API_OFFSET_FETCH, API_FIND_COORDINATOR };
	char err[256];
	commit3("closed", 50);
	for (size_t a = 0; a < 3; a++) {
		for (size_t i = 0; i < 4; i++) {
			int16_t code;
			assert_int_equal(sim_error_code_parse(codes[i], &code), 0);
			sim_must(sim_fault_errors(sim, 0, code, apis[a], 1.0, 0, err, sizeof err), "sim_fault_errors",
				 err);
			struct run r;
			run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "closed", "--topic", "pay",
							      "--to-earliest", "--execute", "--timeout", "2s", "-b",
							      bootstrap, NULL });
			sim_fault_clear(sim);
			if (r.status != 1 && r.status != 3)
				fail_msg("%s on API %d: exit %d (want 1 or 3): %s", codes[i], apis[a], r.status, r.err);
			assert_true(r.err[0] != '\0');
			assert_offsets("closed", 50, 50, 50);
			assert_int_equal(count_backups(statedir, "closed."), 0);
		}
	}
	/* and without the fault it goes through: the faults were what stopped it */
	struct run r;
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "closed", "--topic", "pay", "--to-earliest",
					      "--execute", "--timeout", "5s", "-b", bootstrap, NULL });
	if (r.status != 0)
		fail_msg("without faults: exit %d: %s", r.status, r.err);
	assert_offsets("closed", 0, 0, 0);
}

/* The whole cluster frozen (the loop stopped, listeners bound: connections hang): bounded, fails closed. */
static void frozen_cluster(void **state)
{
	(void)state;
	commit3("frozen", 70);
	sim_stop(sim);
	struct run r;
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "frozen", "--topic", "pay", "--to-earliest",
					      "--execute", "--timeout", "2s", "-b", bootstrap, NULL });
	assert_int_equal(sim_start(sim), 0);
	if (r.status != 1 && r.status != 3)
		fail_msg("frozen cluster: exit %d (want 1 or 3): %s", r.status, r.err);
	assert_offsets("frozen", 70, 70, 70);
	assert_int_equal(count_backups(statedir, "frozen."), 0);
}

/* One partition's commit refused: reported per partition, the others committed, backup there, undo works. */
static void partial_commit_then_undo(void **state)
{
	(void)state;
	char err[256];
	commit3("partial", 5);
	sim_must(sim_fault_commit_partition(sim, "pay", 1, 7 /* REQUEST_TIMED_OUT */, err, sizeof err),
		 "sim_fault_commit_partition", err);
	struct run r;
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "partial", "--topic", "pay", "--to-offset",
					      "120", "--execute", "--timeout", "5s", "-b", bootstrap, NULL });
	sim_must(sim_fault_commit_partition(sim, NULL, 0, 0, err, sizeof err), "sim_fault_commit_partition", err);
	if (r.status == 0)
		fail_msg("a partly failed commit exited 0: %s", r.err);
	assert_offsets("partial", 120, 5, 120);
	/* per partition: the failed one is named with its error */
	expect_in(r.err, "1 of 3 partitions were not committed");
	const char *line = strstr(r.out, "imed out");
	if (!line)
		fail_msg("no per-partition error in:\n%s", r.out);
	while (line > r.out && line[-1] != '\n')
		line--;
	size_t ll = strcspn(line, "\n");
	char row[512];
	snprintf(row, sizeof row, "%.*s", (int)(ll < 511 ? ll : 511), line);
	if (!strstr(row, "pay") || !strstr(row, " 1 "))
		fail_msg("the error row does not name pay partition 1: '%s'\n%s", row, r.out);
	/* the backup of the previous offsets exists, 0600 */
	assert_int_equal(count_backups(statedir, "partial."), 1);
	expect_in(r.err, "backup of the previous offsets: ");
	const char *bp = strstr(r.err, "backup of the previous offsets: ") + strlen("backup of the previous offsets: ");
	char path[1024];
	snprintf(path, sizeof path, "%.*s", (int)strcspn(bp, "\n"), bp);
	struct stat st;
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0600);
	expect_file_text(path, "pay,0,5\npay,1,5\npay,2,5\n");

	run_lagtop(&r,
		   (const char *const[]){ "--undo", "partial", "--execute", "--timeout", "5s", "-b", bootstrap, NULL });
	if (r.status != 0)
		fail_msg("undo: exit %d: %s", r.status, r.err);
	assert_offsets("partial", 5, 5, 5);
}

/* Symlinks planted at the audit log's path are not followed; audit log and backups are 0600. */
static void no_symlinks_followed(void **state)
{
	(void)state;
	char dir[512], audit[600], target[600], victim[600];
	snprintf(dir, sizeof dir, "%s/lagtop", statedir);
	snprintf(audit, sizeof audit, "%s/audit.log", dir);
	snprintf(target, sizeof target, "%s/victim", statedir);
	snprintf(victim, sizeof victim, "%s", target);
	/* the audit log exists after the resets above: 0600 */
	struct stat st;
	if (lstat(audit, &st) == 0)
		assert_int_equal(st.st_mode & 0777, 0600);
	FILE *f = fopen(target, "w");
	assert_non_null(f);
	fputs("precious\n", f);
	fclose(f);
	unlink(audit);
	assert_int_equal(symlink(target, audit), 0);

	commit3("linked", 9);
	struct run r;
	run_lagtop(&r, (const char *const[]){ "--reset-offsets", "-g", "linked", "--topic", "pay", "--to-offset", "11",
					      "--execute", "--timeout", "5s", "-b", bootstrap, NULL });
	/* the intent line cannot be written, so nothing is committed; the symlink's target is untouched */
	f = fopen(victim, "r");
	assert_non_null(f);
	char buf[64] = "";
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	assert_string_equal(buf, "precious\n");
	assert_int_equal(lstat(audit, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(r.status, 1);
	expect_in(r.err, "the audit log could not be written, nothing was committed");
	unlink(audit);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(guard_fails_closed_on_errors),
	cmocka_unit_test(frozen_cluster),
	cmocka_unit_test(partial_commit_then_undo),
	cmocka_unit_test(no_symlinks_followed),
};

LT_TEST_MAIN(setup, teardown)
