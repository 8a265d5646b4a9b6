/* test_faults_hostile.c — hostile names from the cluster: group ids, member and client ids,
 * hosts and topic names with escape sequences, C0/C1 controls, bidi overrides, invalid UTF-8 and 10 KB
 * lengths, served by an in-process sim playing a hostile broker. lagtop must print them safely: the table,
 * the CSV, the Prometheus text, the audit log and stderr hold no raw control byte, no bidi control or
 * line separator and only valid UTF-8; the JSON is valid and keeps the exact names (invalid bytes as
 * U+FFFD); the CSV holds each name's text cell (terminal-safe, formula-guarded) and the Prometheus text
 * its terminal-safe form. The JSON, CSV and Prometheus checks are done by
 * tests/integration/check_hostile.py (Debian's python3, prometheus_client). A reset of a group whose
 * topics have hostile names is backed up and undone exactly. */
#include "config.h"

#include <fcntl.h>
#include <setjmp.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

extern char **environ;

#include "../lib/hostile.h"
#include "../lib/lagtop_test.h"
#include "util/csv.h"

static sim_cluster *sim;
static char tmpdir[256]; /* lagtop's state and configuration folder, and every output file */

/* Groups without members (so a reset is planned, not refused) whose ids a spreadsheet or a terminal would
 * act on, and each one's cell in --export's CSV, spelled out by hand (doc/lagtop.1, FILES). */
static const struct {
	const char *id, *cell;
	bool round_trips; /* --from-file finds the group again from its cell */
} empty_groups[] = {
	{ "=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0", true },
	{ "@SUM(A1)", "'@SUM(A1)", true },
	{ "-1+2", "'-1+2", true },
	{ "+1", "'+1", true },
	{ "'=x", "''=x", true },
	{ "a,\"b\"", "a,\"b\"", true },
	{ "\t=1+1", "\\x09=1+1", false },
	{ "osc52\x1b]52;c;cHduZWQ=\x07", "osc52\\x1b]52;c;cHduZWQ=\\x07", false },
	{ "\xe2\x80\xae"
	  "exe.txt",
	  "\\u202eexe.txt", false },
	{ "c1\xc2\x9b"
	  "31m",
	  "c1\\u009b31m", false },
	{ "inv\xff\xc3(", "inv\\xff\\xc3(", false },
};
#define N_EMPTY (sizeof empty_groups / sizeof empty_groups[0])

/* The group the backup and --undo test resets: its topics' names are hostile (lagtop-sim takes any name). */
#define UNDO_GROUP "undo-me"
static const char *const undo_topics[] = {
	"=HYPERLINK(\"http://x.invalid\")",
	"a,b\"c\r\nd",
	"inv\xff-topic",
	"\xe2\x80\xae"
	"gnp.exe",
	"'=x",
	"-1+2",
	"c1\xc2\x85nel",
};
#define N_UNDO (sizeof undo_topics / sizeof undo_topics[0])

static int build_reset_groups(char *err, size_t errlen)
{
	for (size_t i = 0; i < N_EMPTY; i++)
		if (sim_commit(sim, empty_groups[i].id, "plain", 0, 5, NULL, err, errlen))
			return -1;
	for (size_t i = 0; i < N_UNDO; i++)
		if (sim_create_topic_any_name(sim, undo_topics[i], 1, err, errlen) ||
		    sim_append(sim, undo_topics[i], 0, 10, 1700000000000LL, 1000, err, errlen) ||
		    sim_commit(sim, UNDO_GROUP, undo_topics[i], 0, 5, NULL, err, errlen))
			return -1;
	return 0;
}

static int setup(void **state)
{
	(void)state;
	char err[256];
	sim = test_sim_start(1, "empty");
	if (hostile_build(sim, err, sizeof(err)) != 0 || build_reset_groups(err, sizeof err) != 0)
		fail_msg("building the hostile cluster: %s", err);
	/* no user configuration leaks in; backups and the audit log stay in tmpdir */
	if (test_state_dir_make(tmpdir, sizeof tmpdir, "hostile") != 0)
		return -1;
	setenv("HOME", tmpdir, 1);
	setenv("LC_ALL", "C.UTF-8", 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sim_free(sim);
	return test_dir_remove(tmpdir);
}

/* Runs argv with stdout to tmpdir/outname and stderr to tmpdir/err, no shell; returns the exit status (-1
 * on a signal). The outputs go to files: check_hostile.py reads them, and 10 KB names make them long. */
static int run(char *const argv[], const char *outname)
{
	char out[300], errf[300];
	snprintf(out, sizeof(out), "%s/%s", tmpdir, outname);
	snprintf(errf, sizeof(errf), "%s/err", tmpdir);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_addopen(&fa, 2, errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	pid_t pid;
	int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0)
		fail_msg("cannot run %s: %s", argv[0], strerror(rc));
	int st;
	while (waitpid(pid, &st, 0) < 0) {
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The file tmpdir/name, whole (malloc'd), its length in *len. */
static char *slurp(const char *name, size_t *len)
{
	char path[300];
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	return test_read_file(path, len);
}

/* Terminal-safe text: valid UTF-8, no C0 control but newline, no DEL, no C1, no bidi override. */
static void assert_terminal_safe(const char *what, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned c = p[i];
		if (c < 0x80) {
			if ((c < 0x20 && c != '\n') || c == 0x7f)
				fail_msg("%s: raw control byte 0x%02x at %zu", what, c, i);
			i++;
			continue;
		}
		size_t k = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
		if (!k || c > 0xf4 || i + k > n)
			fail_msg("%s: invalid UTF-8 at %zu", what, i);
		uint32_t cp = c & (0x7f >> k);
		for (size_t j = 1; j < k; j++) {
			if ((p[i + j] & 0xc0) != 0x80)
				fail_msg("%s: invalid UTF-8 at %zu", what, i);
			cp = (cp << 6) | (p[i + j] & 0x3f);
		}
		if ((cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
		    cp == 0x2028 || cp == 0x2029 || cp == 0x200e || cp == 0x200f || cp == 0x061c)
			fail_msg("%s: unsafe character U+%04X at %zu", what, cp, i);
		i += k;
	}
}

/* --once --format (the test's state): its output and stderr are terminal-safe; the table shows every hostile
 * group escaped, check_hostile.py checks the JSON (valid, exact names), the CSV (guarded cells) and the
 * Prometheus text (parses). */
static void once_format(void **state)
{
	const char *format = *state;
	char once[] = "--once", b[] = "-b", t[] = "--timeout", ten[] = "10s", f[] = "--format";
	char *boot = strdup(sim_bootstrap(sim)), *fmt = strdup(format);
	char *argv[] = { getenv("LAGTOP"), once, b, boot, t, ten, f, fmt, NULL };
	assert_non_null(argv[0]);
	int rc = run(argv, "out");
	size_t n, en;
	char *out = slurp("out", &n), *err = slurp("err", &en);
	if (rc != 0)
		fail_msg("lagtop --once --format %s exited %d: %s", format, rc, err);
	assert_terminal_safe("stderr", (const unsigned char *)err, en);
	assert_terminal_safe(format, (const unsigned char *)out, n);
	if (strcmp(format, "table") == 0) {
		/* every hostile group is there, in its escaped form */
		assert_non_null(strstr(out, "evil\\x1b]0;pwned"));
		assert_non_null(strstr(out, "bad\\xff\\xfe"));
		assert_non_null(strstr(out, "line1\\x0aline2"));
	} else {
		char script[512], file[300];
		snprintf(script, sizeof(script), "%s/tests/integration/check_hostile.py", getenv("LT_SRCDIR"));
		snprintf(file, sizeof(file), "%s/out", tmpdir);
		char *py[] = { getenv("DEBIAN_PYTHON"), script, fmt, file, NULL };
		assert_non_null(py[0]);
		int prc = run(py, "pyout");
		if (prc != 0) {
			char *why = slurp("err", &en);
			fail_msg("check_hostile.py %s: %s", format, why);
		}
	}
	free(out);
	free(err);
	free(boot);
	free(fmt);
}

/* lagtop with these arguments after -b BOOT --timeout 10s; stdout to `outname`. The exit status. */
static int lagtop(const char *outname, const char *const *args, size_t n)
{
	char b[] = "-b", t[] = "--timeout", ten[] = "10s";
	char *argv[64] = { getenv("LAGTOP"), b, (char *)sim_bootstrap(sim), t, ten };
	assert_true(n + 6 <= sizeof argv / sizeof argv[0]);
	for (size_t i = 0; i < n; i++)
		argv[5 + i] = (char *)args[i];
	return run(argv, outname);
}

/* lagtop (as lagtop() runs it) exits 0, or the test fails with what and lagtop's stderr. */
static void lagtop_ok(const char *what, const char *const *args, size_t n)
{
	size_t en;
	int rc = lagtop("out", args, n);
	char *err = slurp("err", &en);
	if (rc != 0)
		fail_msg("%s exited %d: %s", what, rc, err);
	free(err);
}

static void audit_log_is_terminal_safe(void **state)
{
	(void)state;
	/* active groups: each is refused, and the refusal is audited with the group's id */
	const char *args[] = { "--reset-offsets", "--group",       G_OSC,          "--group",  G_C1,
			       "--group",         G_BIDI,          "--group",      G_UTF8,     "--group",
			       G_LINES,           "--to-earliest", "--all-topics", "--execute" };
	size_t n, en;
	int rc = lagtop("out", args, sizeof args / sizeof args[0]);
	char *err = slurp("err", &en);
	if (rc != 3)
		fail_msg("the resets of active groups exited %d, not 3 (refused): %s", rc, err);
	char *audit = slurp("lagtop/audit.log", &n);
	assert_terminal_safe("audit.log", (const unsigned char *)audit, n);
	size_t lines = 0;
	for (size_t i = 0; i < n; i++)
		lines += audit[i] == '\n';
	assert_int_equal(lines, 5);
	/* each unsafe character is there as its bytes in %XX, so the line decodes back to the id */
	expect_all_in(audit, (const char *const[]){ "group=evil%1B]0;pwned%07%1B[2J ", "group=c1%C2%9B31mred ",
						    "group=bidi%E2%80%AEcod.exe ", "group=bad%FF%FE%C3-utf8 ",
						    "group=line1%0Aline2%09x%0Dcr,%22q%22 ", NULL });
	free(audit);
	free(err);
}

/* The CSV line of `csv` whose first field is `cell`, split; NULL if none. */
static bool export_has_row(const char *csv, const char *cell)
{
	bool found = false;
	size_t len = strlen(csv), pos = 0, line = 0;
	lt_csv_fields f = { 0 };
	char err[256];
	int got;
	while ((got = csv_next_record(csv, len, &pos, &f, &line, err, sizeof err)) == 1)
		if (f.n == 4 && strcmp(f.v[0], cell) == 0 && strcmp(f.v[1], "plain") == 0 && strcmp(f.v[2], "0") == 0 &&
		    strcmp(f.v[3], "0") == 0)
			found = true;
	if (got < 0)
		fail_msg("the export is not valid CSV: %s", err);
	csv_fields_free(&f);
	return found;
}

static void export_is_terminal_safe_and_guarded(void **state)
{
	(void)state;
	const char *args[2 * N_EMPTY + 5];
	size_t k = 0;
	args[k++] = "--reset-offsets";
	for (size_t i = 0; i < N_EMPTY; i++) {
		args[k++] = "--group";
		args[k++] = empty_groups[i].id;
	}
	args[k++] = "--to-earliest";
	args[k++] = "--topic";
	args[k++] = "plain";
	args[k++] = "--export";
	size_t n, en;
	int rc = lagtop("export.csv", args, k);
	char *csv = slurp("export.csv", &n), *err = slurp("err", &en);
	if (rc != 0)
		fail_msg("--export exited %d: %s", rc, err);
	assert_terminal_safe("--export", (const unsigned char *)csv, n);
	for (size_t i = 0; i < N_EMPTY; i++)
		if (!export_has_row(csv, empty_groups[i].cell))
			fail_msg("--export: no row for group %zu as '%s':\n%s", i, empty_groups[i].cell, csv);
	/* --from-file takes the guard off: the exported plan is found again for the group */
	char file[300];
	snprintf(file, sizeof file, "%s/export.csv", tmpdir);
	for (size_t i = 0; i < N_EMPTY; i++) {
		const char *from[] = { "--reset-offsets", "--group", empty_groups[i].id, "--from-file", file };
		int frc = lagtop("out", from, 5);
		char *ferr = slurp("err", &en);
		if (empty_groups[i].round_trips && frc != 0)
			fail_msg("--from-file of the export, group %zu, exited %d: %s", i, frc, ferr);
		if (!empty_groups[i].round_trips && (frc != 2 || !strstr(ferr, "No reset plan for group")))
			fail_msg("--from-file of the export, group %zu (not found as its escaped form), exited %d: %s",
				 i, frc, ferr);
		free(ferr);
	}
	free(csv);
	free(err);
}

static void hostile_topics_are_backed_up_and_undone(void **state)
{
	(void)state;
	const char *reset[] = {
		"--reset-offsets", "--group", UNDO_GROUP, "--all-topics", "--to-earliest", "--execute"
	};
	lagtop_ok("the reset", reset, 6);
	for (size_t i = 0; i < N_UNDO; i++)
		assert_int_equal(sim_committed(sim, UNDO_GROUP, undo_topics[i], 0), 0);
	const char *undo[] = { "--undo", UNDO_GROUP, "--execute" };
	lagtop_ok("--undo", undo, 3);
	for (size_t i = 0; i < N_UNDO; i++)
		assert_int_equal(sim_committed(sim, UNDO_GROUP, undo_topics[i], 0), 5);
}

int main(void)
{
	if (!getenv("LAGTOP") || !getenv("DEBIAN_PYTHON") || !getenv("LT_SRCDIR")) {
		printf("1..0 # SKIP needs LAGTOP, DEBIAN_PYTHON and LT_SRCDIR (run by make check)\n");
		return 0;
	}
	/* one --once test per format, named for what it checks */
	const struct CMUnitTest tests[] = {
		{ "table_is_terminal_safe", once_format, NULL, NULL, (void *)"table" },
		{ "json_is_valid_and_exact", once_format, NULL, NULL, (void *)"json" },
		{ "csv_is_terminal_safe_and_guarded", once_format, NULL, NULL, (void *)"csv" },
		{ "prometheus_is_terminal_safe_and_parses", once_format, NULL, NULL, (void *)"prometheus" },
		cmocka_unit_test(audit_log_is_terminal_safe),
		cmocka_unit_test(export_is_terminal_safe_and_guarded),
		cmocka_unit_test(hostile_topics_are_backed_up_and_undone),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
