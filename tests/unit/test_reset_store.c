/* test_reset_store.c — backups, the audit log and the group locks on disk: modes, names, newest-first,
 * refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../lib/lagtop_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kafka/reset_store.h"
#include "reset/plan.h"
#include "../lib/cmocka_main.h"

static char tmpdir[256];

static int setup(void **state)
{
	(void)state;
	if (test_dir_make(tmpdir, sizeof tmpdir, "store") != 0)
		return -1;
	setenv("XDG_STATE_HOME", tmpdir, 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return test_dir_remove(tmpdir);
}

#define T0 1795946400000LL /* 2026-11-29T10:00:00.000Z */

static void backup_written_private_and_found(void **state)
{
	(void)state;
	char err[512], path[4096], newest[4096];
	assert_int_equal(reset_backup_newest("g", newest, sizeof newest, err, sizeof err), 1);
	assert_non_null(strstr(err, "no backup of group 'g'"));

	assert_int_equal(reset_backup_write("g", T0, "t,0,5\n", path, sizeof path, err, sizeof err), 0);
	char want[4096];
	snprintf(want, sizeof want, "%s/lagtop/backups/g.20261129T100000.000Z.csv", tmpdir);
	assert_string_equal(path, want);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	char bdir[4096];
	snprintf(bdir, sizeof bdir, "%s/lagtop", tmpdir);
	assert_int_equal(stat(bdir, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	char *text = reset_file_read(path, 1000, err, sizeof err);
	assert_string_equal(text, "t,0,5\n");
	free(text);

	/* same millisecond: a new file, never an overwrite */
	char path2[4096];
	assert_int_equal(reset_backup_write("g", T0, "t,0,6\n", path2, sizeof path2, err, sizeof err), 0);
	assert_string_not_equal(path, path2);
	/* a later one, and one for a group whose name starts like ours */
	assert_int_equal(reset_backup_write("g", T0 + 1000, "t,0,7\n", path, sizeof path, err, sizeof err), 0);
	assert_int_equal(reset_backup_write("g.x", T0 + 5000, "t,0,8\n", path2, sizeof path2, err, sizeof err), 0);
	assert_int_equal(reset_backup_newest("g", newest, sizeof newest, err, sizeof err), 0);
	assert_string_equal(newest, path);
	assert_int_equal(reset_backup_newest("g.x", newest, sizeof newest, err, sizeof err), 0);
	assert_string_equal(newest, path2);

	/* any group id is a safe file name */
	assert_int_equal(reset_backup_write("../evil/ g", T0, "t,0,1\n", path, sizeof path, err, sizeof err), 0);
	assert_non_null(strstr(path, "/backups/%2E.%2Fevil%2F%20g."));
	assert_int_equal(reset_backup_newest("../evil/ g", newest, sizeof newest, err, sizeof err), 0);
	assert_string_equal(newest, path);
}

static void undo_request_from_newest(void **state)
{
	(void)state;
	char err[512], path[4096], used[4096];
	assert_int_equal(reset_backup_write("u", T0, "t,0,5\nt,1,9\n", path, sizeof path, err, sizeof err), 0);
	assert_int_equal(reset_backup_write("u", T0 + 1, "t,0,6\n", path, sizeof path, err, sizeof err), 0);
	lt_reset_request rq;
	assert_int_equal(reset_undo_request("u", &rq, used, sizeof used, err, sizeof err), 0);
	assert_string_equal(used, path);
	assert_int_equal(rq.target, LT_RESET_FILE);
	assert_int_equal(rq.n_rows, 1);
	assert_int_equal(rq.rows[0].offset, 6);
	reset_request_free(&rq);

	memset(&rq, 0, sizeof rq);
	assert_int_equal(reset_undo_request("nobody", &rq, used, sizeof used, err, sizeof err), 1);
	reset_request_free(&rq);

	/* an empty backup (the group had no commits) restores nothing: kafka-consumer-groups' message */
	assert_int_equal(reset_backup_write("e", T0, "", path, sizeof path, err, sizeof err), 0);
	memset(&rq, 0, sizeof rq);
	assert_int_equal(reset_undo_request("e", &rq, used, sizeof used, err, sizeof err), -1);
	assert_non_null(strstr(err, "No reset plan for group e found."));
	reset_request_free(&rq);
}

static void audit_appends_private_lines(void **state)
{
	(void)state;
	char err[512], path[4096];
	assert_int_equal(reset_audit_append("first", err, sizeof err), 0);
	assert_int_equal(reset_audit_append("second", err, sizeof err), 0);
	snprintf(path, sizeof path, "%s/lagtop/audit.log", tmpdir);
	char *text = reset_file_read(path, 1000, err, sizeof err);
	assert_string_equal(text, "first\nsecond\n");
	free(text);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);

	/* a log left wider than 0600 is made private again */
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(reset_audit_append("again", err, sizeof err), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);

	/* never into something that is not a regular file, and never blocking on it: a FIFO with no reader
	 * fails at open (ENXIO, thanks to O_NONBLOCK), a directory at open or at the regular-file check */
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(reset_audit_append("fifo", err, sizeof err), -1);
	assert_non_null(strstr(err, "audit.log"));
	unlink(path);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(reset_audit_append("dir", err, sizeof err), -1);
	assert_non_null(strstr(err, "audit.log"));
	rmdir(path);

	/* never through a symlink */
	unlink(path);
	assert_int_equal(symlink("/tmp/elsewhere-audit", path), 0);
	assert_int_equal(reset_audit_append("third", err, sizeof err), -1);
	assert_non_null(strstr(err, "audit.log"));
	unlink(path);
}

static void unwritable_state_dir_refuses(void **state)
{
	(void)state;
	char err[512], path[4096], file[400];
	snprintf(file, sizeof file, "%s/not-a-dir", tmpdir);
	FILE *f = fopen(file, "w");
	assert_non_null(f);
	fclose(f);
	setenv("XDG_STATE_HOME", file, 1);
	assert_int_equal(reset_backup_write("g", T0, "t,0,5\n", path, sizeof path, err, sizeof err), -1);
	assert_non_null(strstr(err, "not-a-dir"));
	/* relative XDG_STATE_HOME is ignored (XDG spec): HOME is used */
	setenv("XDG_STATE_HOME", "relative", 1);
	char home[400];
	snprintf(home, sizeof home, "%s/home", tmpdir);
	mkdir(home, 0700);
	char *old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	setenv("HOME", home, 1);
	assert_int_equal(reset_backup_write("g", T0, "t,0,5\n", path, sizeof path, err, sizeof err), 0);
	assert_non_null(strstr(path, "/home/.local/state/lagtop/backups/g."));
	if (old_home) {
		setenv("HOME", old_home, 1);
		free(old_home);
	}
	setenv("XDG_STATE_HOME", tmpdir, 1);
}

static void file_read_limits(void **state)
{
	(void)state;
	char err[512], path[400];
	snprintf(path, sizeof path, "%s/big", tmpdir);
	FILE *f = fopen(path, "w");
	for (int i = 0; i < 100; i++)
		fputs("t,0,1\n", f);
	fclose(f);
	assert_null(reset_file_read(path, 100, err, sizeof err));
	assert_non_null(strstr(err, "larger than 100 bytes"));
	char *t = reset_file_read(path, 1000, err, sizeof err);
	assert_int_equal(strlen(t), 600);
	free(t);
	assert_null(reset_file_read("/nonexistent/x.csv", 100, err, sizeof err));
	assert_non_null(strstr(err, "/nonexistent/x.csv"));
}

/* Two backups in the same millisecond: the second ("-01") is the newer one, and --undo must restore it. */
static void same_millisecond_newest_is_the_later(void **state)
{
	(void)state;
	char err[512], first[4096], second[4096], third[4096], newest[4096];
	assert_int_equal(reset_backup_write("ms", T0, "t,0,1\n", first, sizeof first, err, sizeof err), 0);
	assert_int_equal(reset_backup_write("ms", T0, "t,0,2\n", second, sizeof second, err, sizeof err), 0);
	assert_non_null(strstr(second, "Z-01.csv"));
	assert_int_equal(reset_backup_newest("ms", newest, sizeof newest, err, sizeof err), 0);
	assert_string_equal(newest, second);
	assert_int_equal(reset_backup_write("ms", T0, "t,0,3\n", third, sizeof third, err, sizeof err), 0);
	assert_int_equal(reset_backup_newest("ms", newest, sizeof newest, err, sizeof err), 0);
	assert_string_equal(newest, third);
	/* a later millisecond still wins over every suffix */
	assert_int_equal(reset_backup_write("ms", T0 + 1, "t,0,4\n", first, sizeof first, err, sizeof err), 0);
	assert_int_equal(reset_backup_newest("ms", newest, sizeof newest, err, sizeof err), 0);
	assert_string_equal(newest, first);
}

/* A group id whose encoded form would not fit in a file name (NAME_MAX is 255 bytes) still gets a backup,
 * so it can be reset; two such ids with a common prefix keep separate backups. */
static void long_group_ids_get_backups(void **state)
{
	(void)state;
	char err[512], pa[4096], pb[4096], newest[4096];
	char ga[301], gb[301];
	memset(ga, 'g', 300);
	ga[300] = '\0';
	memcpy(gb, ga, sizeof gb);
	gb[299] = 'h';
	assert_int_equal(reset_backup_write(ga, T0, "t,0,1\n", pa, sizeof pa, err, sizeof err), 0);
	assert_int_equal(reset_backup_write(gb, T0 + 1, "t,0,2\n", pb, sizeof pb, err, sizeof err), 0);
	assert_true(strlen(strrchr(pa, '/') + 1) <= 255);
	assert_int_equal(reset_backup_newest(ga, newest, sizeof newest, err, sizeof err), 0);
	assert_string_equal(newest, pa);
	assert_int_equal(reset_backup_newest(gb, newest, sizeof newest, err, sizeof err), 0);
	assert_string_equal(newest, pb);
	/* 30 three-byte UTF-8 characters: 270 bytes once percent-encoded */
	char cjk[91] = "";
	for (int i = 0; i < 30; i++)
		strcat(cjk, "\xe6\xb6\x88");
	assert_int_equal(reset_backup_write(cjk, T0, "t,0,3\n", pa, sizeof pa, err, sizeof err), 0);
	assert_int_equal(reset_backup_newest(cjk, newest, sizeof newest, err, sizeof err), 0);
	assert_string_equal(newest, pa);
}

/* The lock of a group on a cluster: a second holder (another process: flock is per open file) is refused at
 * once with the holder's pid; another group or cluster is not; released, it can be taken again. */
static void group_lock_refuses_a_second_holder(void **state)
{
	(void)state;
	char err[512];
	int fd = -1, fd2 = -1;
	assert_int_equal(reset_lock_group("prod", "billing", &fd, err, sizeof err), 0);
	assert_true(fd >= 0);
	int pipefd[2];
	assert_int_equal(pipe(pipefd), 0);
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		char e[512] = "";
		int f = -1;
		int rc = reset_lock_group("prod", "billing", &f, e, sizeof e);
		int other = reset_lock_group("prod", "shipping", &f, e + 256, sizeof e - 256);
		int other_cluster = reset_lock_group("staging", "billing", &f, e + 256, sizeof e - 256);
		char out[700];
		int n = snprintf(out, sizeof out, "%d %d %d %s", rc, other, other_cluster, e);
		_exit(write(pipefd[1], out, (size_t)n) == n ? 0 : 1);
	}
	close(pipefd[1]);
	char got[700] = "";
	ssize_t r = read(pipefd[0], got, sizeof got - 1);
	close(pipefd[0]);
	int status = 0;
	waitpid(child, &status, 0);
	assert_true(r > 0);
	char want[128];
	snprintf(want, sizeof want,
		 "1 0 0 group 'billing' on cluster 'prod' is being changed by another lagtop (pid %ld)",
		 (long)getpid());
	assert_true(strncmp(got, want, strlen(want)) == 0);
	reset_unlock_group(fd);
	assert_int_equal(reset_lock_group("prod", "billing", &fd2, err, sizeof err), 0);
	reset_unlock_group(fd2);
}

static void backup_time_from_its_name(void **state)
{
	(void)state;
	char when[40];
	assert_int_equal(reset_backup_taken("/s/backups/g.x.20261129T100000.123Z-02.csv", when, sizeof when), 0);
	assert_string_equal(when, "2026-11-29T10:00:00.123Z");
	assert_int_equal(reset_backup_taken("/tmp/my-own.csv", when, sizeof when), -1);
}

/* The state directory, its backups/ and what is in them must be the user's own (file_trust.h). */
static void state_dir_must_be_the_users_own(void **state)
{
	(void)state;
	char err[512], path[4096], dir[400], elsewhere[400];
	lt_reset_request rq;
	assert_int_equal(reset_backup_write("g", T0, "t,0,5\n", path, sizeof path, err, sizeof err), 0);
	snprintf(dir, sizeof dir, "%s/lagtop", tmpdir);

	assert_int_equal(chmod(dir, 0777), 0);
	assert_int_equal(reset_undo_request("g", &rq, path, sizeof path, err, sizeof err), -1);
	char want[9000];
	snprintf(want, sizeof want, "refusing %s: writable by others (chmod go-w %s)", dir, dir);
	assert_string_equal(err, want);
	assert_int_equal(reset_audit_append("x", err, sizeof err), -1);
	assert_string_equal(err, want);
	assert_int_equal(chmod(dir, 0700), 0);

	/* a state directory that is a symbolic link is not followed */
	snprintf(elsewhere, sizeof elsewhere, "%s/elsewhere", tmpdir);
	assert_int_equal(rename(dir, elsewhere), 0);
	assert_int_equal(symlink(elsewhere, dir), 0);
	assert_int_equal(reset_undo_request("g", &rq, path, sizeof path, err, sizeof err), -1);
	assert_non_null(strstr(err, "a symbolic link"));
	assert_int_equal(reset_backup_write("g", T0, "t,0,5\n", path, sizeof path, err, sizeof err), -1);
	assert_non_null(strstr(err, "a symbolic link"));
	unlink(dir);
	assert_int_equal(rename(elsewhere, dir), 0);

	/* a backup others may write is not restored */
	assert_int_equal(reset_backup_newest("g", path, sizeof path, err, sizeof err), 0);
	assert_int_equal(chmod(path, 0666), 0);
	assert_int_equal(reset_undo_request("g", &rq, path, sizeof path, err, sizeof err), -1);
	snprintf(want, sizeof want, "refusing %s: writable by others (chmod go-w %s)", path, path);
	assert_string_equal(err, want);
	assert_int_equal(chmod(path, 0600), 0);
	assert_int_equal(reset_undo_request("g", &rq, path, sizeof path, err, sizeof err), 0);
	reset_request_free(&rq);
}

static void foreign_backup_and_audit_log_refused(void **state)
{
	(void)state;
	if (geteuid() != 0) {
		if (getenv("CI") && strcmp(getenv("CI"), "true") == 0)
			fail_msg("files owned by another user need root (CI=true)");
		printf("# skip: files owned by another user need root\n");
		return;
	}
	char err[512], path[4096], log[400];
	lt_reset_request rq;
	/* the newest backup by its name, planted by nobody: refused, never committed */
	assert_int_equal(reset_backup_write("f", T0, "t,0,5\n", path, sizeof path, err, sizeof err), 0);
	assert_int_equal(reset_backup_write("f", T0 + 1000, "t,0,999\n", path, sizeof path, err, sizeof err), 0);
	assert_int_equal(chown(path, 65534, 65534), 0);
	char used[4096];
	assert_int_equal(reset_undo_request("f", &rq, used, sizeof used, err, sizeof err), -1);
	assert_non_null(strstr(err, "owned by uid 65534, not by you"));
	assert_non_null(strstr(err, path));

	/* another user's audit log: refused, and its mode left alone */
	snprintf(log, sizeof log, "%s/lagtop/audit.log", tmpdir);
	FILE *f = fopen(log, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(chown(log, 65534, 65534), 0);
	assert_int_equal(chmod(log, 0644), 0);
	assert_int_equal(reset_audit_append("x", err, sizeof err), -1);
	assert_non_null(strstr(err, "owned by uid 65534"));
	struct stat st;
	assert_int_equal(stat(log, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	assert_int_equal(st.st_size, 0);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(backup_written_private_and_found),
	cmocka_unit_test(undo_request_from_newest),
	cmocka_unit_test(audit_appends_private_lines),
	cmocka_unit_test(unwritable_state_dir_refuses),
	cmocka_unit_test(file_read_limits),
	cmocka_unit_test(same_millisecond_newest_is_the_later),
	cmocka_unit_test(long_group_ids_get_backups),
	cmocka_unit_test(group_lock_refuses_a_second_holder),
	cmocka_unit_test(backup_time_from_its_name),
	cmocka_unit_test(state_dir_must_be_the_users_own),
	cmocka_unit_test(foreign_backup_and_audit_log_refused),
};

LT_TEST_MAIN(setup, teardown)
