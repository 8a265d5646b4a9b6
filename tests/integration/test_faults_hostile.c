/* test_faults_hostile.c — hostile names from the cluster: group ids, member and client ids,
 * hosts and topic names with escape sequences, C0/C1 controls, bidi overrides, invalid UTF-8 and 10 KB
 * lengths, served by an in-process sim playing a hostile broker. lagtop --once must print them safely:
 * the table and stderr hold no raw control byte and only valid UTF-8; the JSON is valid and keeps the
 * exact names (invalid bytes as U+FFFD); the CSV parses back to the exact bytes. The JSON and CSV
 * checks are done by tests/integration/check_hostile.py (Debian's python3). */
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

#include "../faults/hostile.h"

static sim_cluster *sim;
static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	char err[256];
	struct sim_options o = { .brokers = 1, .port = 0, .scenario = "empty" };
	sim = sim_new(&o, err, sizeof(err));
	if (!sim)
		fail_msg("sim_new: %s", err);
	if (hostile_build(sim, err, sizeof(err)) != 0)
		fail_msg("hostile_build: %s", err);
	if (sim_start(sim) < 0)
		fail_msg("sim_start");
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/lagtop-hostile.XXXXXX");
	if (!mkdtemp(tmpdir))
		fail_msg("mkdtemp");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sim_free(sim);
	char path[128];
	static const char *const files[] = { "out", "err", "pyout", "home" };
	for (size_t i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", tmpdir, files[i]);
		(void)remove(path);
	}
	(void)rmdir(tmpdir);
	return 0;
}

/* Runs argv with stdout/stderr to files in tmpdir, no shell; returns the exit status (-1 on a signal). */
static int run(char *const argv[], const char *outname)
{
	char out[128], errf[128], home[128];
	snprintf(out, sizeof(out), "%s/%s", tmpdir, outname);
	snprintf(errf, sizeof(errf), "%s/err", tmpdir);
	snprintf(home, sizeof(home), "%s/home", tmpdir);
	(void)mkdir(home, 0700);
	/* No user configuration leaks in. */
	setenv("HOME", home, 1);
	setenv("XDG_CONFIG_HOME", home, 1);
	unsetenv("LAGTOP_CONFIG");
	setenv("LC_ALL", "C.UTF-8", 1);
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

static char *slurp(const char *name, size_t *len)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	size_t r;
	while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	buf[n < cap ? n : cap - 1] = '\0';
	*len = n;
	return buf;
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
		if ((cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
			fail_msg("%s: unsafe character U+%04X at %zu", what, cp, i);
		i += k;
	}
}

static void once_format(const char *format)
{
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
	if (strcmp(format, "table") == 0) {
		assert_terminal_safe("table", (const unsigned char *)out, n);
		/* every hostile group is there, in its escaped form */
		assert_non_null(strstr(out, "evil\\x1b]0;pwned"));
		assert_non_null(strstr(out, "bad\\xff\\xfe"));
		assert_non_null(strstr(out, "line1\\x0aline2"));
	} else {
		char script[512], file[128];
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

static void table_is_terminal_safe(void **state)
{
	(void)state;
	once_format("table");
}

static void json_is_valid_and_exact(void **state)
{
	(void)state;
	once_format("json");
}

static void csv_round_trips(void **state)
{
	(void)state;
	once_format("csv");
}

int main(void)
{
	if (!getenv("LAGTOP") || !getenv("DEBIAN_PYTHON") || !getenv("LT_SRCDIR")) {
		printf("1..0 # SKIP needs LAGTOP, DEBIAN_PYTHON and LT_SRCDIR (run by make check)\n");
		return 0;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_is_terminal_safe),
		cmocka_unit_test(json_is_valid_and_exact),
		cmocka_unit_test(csv_round_trips),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
