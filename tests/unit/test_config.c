/* test_config.c — the configuration file: search order, validation with file:line errors, secrets
 * (detection, masking, permission warning), and the shipped example and docs (src/config). How the file
 * combines with the command line is tests/unit/test_target.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config/config_file.h"
#include "config/duration.h"
#include "config/secrets.h"
#include "util/xalloc.h"

#include "../lib/lagtop_test.h"
#include "../lib/cmocka_main.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

/* Writes text to test_folder/rel (creating directories), mode 0600; returns the malloc'd path. */
static char *write_file(const char *rel, const char *text)
{
	return test_write_file(test_folder, rel, text, 0600);
}

/* err must be exactly "<test_folder>/t.conf:<line>: <msg>". */
static void expect_error(const char *text, int line, const char *msg)
{
	struct lt_config cfg;
	char err[512];
	char *path;
	assert_int_equal(test_config_load_text(&cfg, text, err, sizeof err, &path), -1);
	char *want = xasprintf("%s:%d: %s", path, line, msg);
	assert_string_equal(err, want);
	free(want);
	free(path);
	assert_int_equal(cfg.n_clusters, 0); /* emptied, and safe to free again */
	config_free(&cfg);
}

/* ------------------------------------------------------------------ search order */

static void search_order_is_respected(void **state)
{
	(void)state;
	char err[512];
	char *path;
	char *sys = xasprintf("%s/etc", test_folder);
	char *xdg = xasprintf("%s/xdg", test_folder);

	/* nothing anywhere: fine, no path */
	assert_int_equal(config_locate(NULL, sys, &path, err, sizeof err), 0);
	assert_null(path);

	char *f_sys = write_file("etc/lagtop/lagtop.conf", "");
	assert_int_equal(config_locate(NULL, sys, &path, err, sizeof err), 0);
	assert_string_equal(path, f_sys);
	free(path);

	char *f_home = write_file(".config/lagtop/lagtop.conf", "");
	assert_int_equal(config_locate(NULL, sys, &path, err, sizeof err), 0);
	assert_string_equal(path, f_home);
	free(path);

	char *f_xdg = write_file("xdg/lagtop/lagtop.conf", "");
	setenv("XDG_CONFIG_HOME", xdg, 1);
	assert_int_equal(config_locate(NULL, sys, &path, err, sizeof err), 0);
	assert_string_equal(path, f_xdg);
	free(path);

	/* a relative XDG_CONFIG_HOME is ignored (XDG spec) */
	setenv("XDG_CONFIG_HOME", "xdg", 1);
	assert_int_equal(config_locate(NULL, sys, &path, err, sizeof err), 0);
	assert_string_equal(path, f_home);
	free(path);
	setenv("XDG_CONFIG_HOME", xdg, 1);

	char *f_env = write_file("env.conf", "");
	setenv("LAGTOP_CONFIG", f_env, 1);
	assert_int_equal(config_locate(NULL, sys, &path, err, sizeof err), 0);
	assert_string_equal(path, f_env);
	free(path);

	char *f_cli = write_file("cli.conf", "");
	assert_int_equal(config_locate(f_cli, sys, &path, err, sizeof err), 0);
	assert_string_equal(path, f_cli);
	free(path);

	/* an empty $LAGTOP_CONFIG counts as unset */
	setenv("LAGTOP_CONFIG", "", 1);
	assert_int_equal(config_locate(NULL, sys, &path, err, sizeof err), 0);
	assert_string_equal(path, f_xdg);
	free(path);

	unsetenv("LAGTOP_CONFIG");
	unsetenv("XDG_CONFIG_HOME");
	free(f_sys), free(f_home), free(f_xdg), free(f_env), free(f_cli), free(sys), free(xdg);
}

/* The file the dashboard makes (config_user_path) is the one the next start reads (config_locate), whichever of
 * $XDG_CONFIG_HOME (absolute, relative, empty, unset) and $HOME say where it goes. */
static void the_users_file_is_the_one_read(void **state)
{
	(void)state;
	char err[512];
	char *home = xasprintf("%s/userhome", test_folder);
	char *xdg = xasprintf("%s/userxdg", test_folder);
	char *sys = xasprintf("%s/usersys", test_folder);
	const char *old_home = getenv("HOME");
	char *saved_home = old_home ? xstrdup(old_home) : NULL;
	const char *xdgs[] = { xdg, "relative-xdg", "", NULL };
	setenv("HOME", home, 1);
	for (size_t i = 0; i < sizeof xdgs / sizeof xdgs[0]; i++) {
		if (xdgs[i])
			setenv("XDG_CONFIG_HOME", xdgs[i], 1);
		else
			unsetenv("XDG_CONFIG_HOME");
		char *made = config_user_path();
		assert_non_null(made);
		lt_colset sets[LT_ROW_KINDS];
		for (unsigned k = 0; k < LT_ROW_KINDS; k++)
			colset_default((lt_row_kind)k, &sets[k]);
		assert_int_equal(config_save_columns_new(made, sets, err, sizeof err), 0);
		char *read = NULL;
		assert_int_equal(config_locate(NULL, sys, &read, err, sizeof err), 0);
		assert_non_null(read);
		assert_string_equal(read, made);
		assert_int_equal(unlink(made), 0);
		free(read);
		free(made);
	}
	/* without HOME only an absolute $XDG_CONFIG_HOME gives one */
	unsetenv("HOME");
	char *made = config_user_path();
	assert_null(made);
	setenv("XDG_CONFIG_HOME", xdg, 1);
	made = config_user_path();
	assert_non_null(made);
	assert_true(strncmp(made, xdg, strlen(xdg)) == 0);
	free(made);
	unsetenv("XDG_CONFIG_HOME");
	if (saved_home)
		setenv("HOME", saved_home, 1);
	free(saved_home), free(home), free(xdg), free(sys);
}

static void explicit_missing_file_is_an_error(void **state)
{
	(void)state;
	char err[512];
	char *path = (char *)"x";
	char *missing = xasprintf("%s/nope.conf", test_folder);

	assert_int_equal(config_locate(missing, NULL, &path, err, sizeof err), -1);
	assert_null(path);
	char *want = xasprintf("%s: No such file or directory (given by --config)", missing);
	assert_string_equal(err, want);
	free(want);

	setenv("LAGTOP_CONFIG", missing, 1);
	assert_int_equal(config_locate(NULL, NULL, &path, err, sizeof err), -1);
	want = xasprintf("%s: No such file or directory (given by $LAGTOP_CONFIG)", missing);
	assert_string_equal(err, want);
	free(want);
	unsetenv("LAGTOP_CONFIG");

	/* config_load reports it too, and leaves nothing to free */
	struct lt_config cfg;
	assert_int_equal(config_load(&cfg, missing, 0, NULL, err, sizeof err), -1);
	assert_null(cfg.theme);
	free(missing);
}

static void no_file_gives_defaults(void **state)
{
	(void)state;
	struct lt_config cfg;
	char err[512];
	/* HOME is an empty directory; SYSCONFDIR/lagtop/lagtop.conf is not expected on a build machine */
	char *home = xasprintf("%s/emptyhome", test_folder);
	mkdir(home, 0700);
	setenv("HOME", home, 1);
	char *sysconf = xasprintf("%s/lagtop/lagtop.conf", SYSCONFDIR);
	bool sys_has_one = access(sysconf, F_OK) == 0;
	free(sysconf);
	assert_int_equal(config_load(&cfg, NULL, 0, NULL, err, sizeof err), 0);
	if (!sys_has_one) {
		assert_null(cfg.path);
		assert_int_equal(cfg.n_clusters, 0);
	}
	assert_int_equal(cfg.refresh_ms, LT_DEFAULT_REFRESH_MS);
	assert_string_equal(cfg.theme, "default");
	assert_int_equal(cfg.expiry_horizon_ms, 3LL * 24 * 3600 * 1000);
	config_free(&cfg);
	setenv("HOME", test_folder, 1);
	free(home);
}

static void unreadable_or_odd_files_are_errors(void **state)
{
	(void)state;
	struct lt_config cfg;
	char err[512];
	assert_int_equal(config_load_file(&cfg, test_folder, NULL, err, sizeof err), -1);
	char *want = xasprintf("%s: not a regular file", test_folder);
	assert_string_equal(err, want);
	free(want);
	config_free(&cfg);

	if (geteuid() != 0) { /* root reads anything */
		char *p = write_file("locked.conf", "general = { };\n");
		chmod(p, 0);
		assert_int_equal(config_load_file(&cfg, p, NULL, err, sizeof err), -1);
		want = xasprintf("%s: Permission denied", p);
		assert_string_equal(err, want);
		free(want);
		free(p);
		config_free(&cfg);
	}
}

/* ------------------------------------------------------------------ trust and hangs */

/* Gives path to nobody; false (after a one-line skip, or a failure under CI=true) when not root. */
static bool give_to_nobody(const char *path)
{
	if (geteuid() == 0)
		return chown(path, 65534, 65534) == 0;
	if (getenv("CI") && strcmp(getenv("CI"), "true") == 0)
		fail_msg("files owned by another user need root (CI=true)");
	printf("# skip: files owned by another user need root\n");
	return false;
}

static void untrusted_files_are_refused(void **state)
{
	(void)state;
	struct lt_config cfg;
	char err[512];
	char *p = write_file("w.conf", "general = { theme = \"mono\"; };\n");
	chmod(p, 0602);
	assert_int_equal(config_load_file(&cfg, p, NULL, err, sizeof err), -1);
	char *want = xasprintf("refusing %s: writable by others (chmod go-w %s)", p, p);
	assert_string_equal(err, want);
	free(want);
	config_free(&cfg);

	/* every way of naming the file: $LAGTOP_CONFIG, the search path */
	chmod(p, 0620);
	setenv("LAGTOP_CONFIG", p, 1);
	assert_int_equal(config_load(&cfg, NULL, 0, NULL, err, sizeof err), -1);
	want = xasprintf("refusing %s: writable by its group (chmod go-w %s)", p, p);
	assert_string_equal(err, want);
	free(want);
	unsetenv("LAGTOP_CONFIG");
	char *home = write_file(".config/lagtop/lagtop.conf", "general = { theme = \"mono\"; };\n");
	chmod(home, 0666);
	assert_int_equal(config_load(&cfg, NULL, 0, NULL, err, sizeof err), -1);
	assert_non_null(strstr(err, "writable by others"));
	chmod(home, 0644);
	assert_int_equal(config_load(&cfg, NULL, 0, NULL, err, sizeof err), 0);
	config_free(&cfg);

	chmod(p, 0644);
	if (give_to_nobody(p)) {
		assert_int_equal(config_load_file(&cfg, p, NULL, err, sizeof err), -1);
		assert_non_null(strstr(err, "owned by uid 65534, not by you"));
	}
	unlink(home);
	free(home);
	free(p);
}

static void included_files_are_held_to_the_rule(void **state)
{
	(void)state;
	struct lt_config cfg;
	char err[512];
	char *inc = write_file("inc.conf", "clusters = { a = { bootstrap_servers = \"h:1\"; }; };\n");
	char *p = write_file("main.conf", "@include \"inc.conf\"\n");
	assert_int_equal(config_load_file(&cfg, p, NULL, err, sizeof err), 0);
	config_free(&cfg);
	chmod(inc, 0666);
	assert_int_equal(config_load_file(&cfg, p, NULL, err, sizeof err), -1);
	char *want = xasprintf("refusing %s: writable by others (chmod go-w %s)", inc, inc);
	assert_string_equal(err, want);
	free(want);
	free(inc);
	free(p);
}

static void properties_that_run_programs_need_the_option(void **state)
{
	(void)state;
	struct lt_config cfg;
	char err[512];
	static const char *const runs[] = {
		"sasl.kerberos.kinit.cmd=touch /tmp/x",   "plugin.library.paths=/tmp/x.so",
		"ssl.engine.location=/tmp/e.so",          "ssl.providers=/tmp/p",
		"sasl.kerberos.principal=u;touch /tmp/x", "sasl.kerberos.keytab=$(touch /tmp/x)"
	};
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		char *text = xasprintf("clusters = {\n a = { properties = [ \"%s\" ]; };\n};\n", runs[i]);
		char *path = write_file("x.conf", text);
		assert_int_equal(config_load_file(&cfg, path, NULL, err, sizeof err), -1);
		char *key = xstrndup(runs[i], (size_t)(strchr(runs[i], '=') - runs[i]));
		char *want = xasprintf("%s:2: 'properties' in cluster 'a': property '%s' runs a program or loads "
				       "code; lagtop takes it from a file only with --allow-exec-config (or give "
				       "it with -X)",
				       path, key);
		assert_string_equal(err, want);
		assert_int_equal(config_load_file_flags(&cfg, path, LT_CONFIG_ALLOW_EXEC, NULL, err, sizeof err), 0);
		config_free(&cfg);
		free(want);
		free(key);
		free(path);
		free(text);
	}
	/* a plain principal and keytab are Kerberos settings like any other */
	char *path =
		write_file("k.conf", "clusters = { a = { properties = [ \"sasl.kerberos.principal=kafka/h@EX.COM\", "
				     "\"sasl.kerberos.keytab=/etc/k.keytab\" ]; }; };\n");
	assert_int_equal(config_load_file(&cfg, path, NULL, err, sizeof err), 0);
	config_free(&cfg);
	free(path);
}

static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = "Bail out! blocked on a FIFO\n";
	(void)!write(1, msg, sizeof msg - 1);
	_exit(1);
}

/* n string literals of 1000 copies of c appended to text: each after sep (the first after a space), each
 * closed by close. */
static void append_literals(char *text, int n, char c, const char *sep, const char *close)
{
	for (int i = 0; i < n; i++) {
		strcat(text, i ? sep : " ");
		strcat(text, "\"");
		size_t at = strlen(text);
		memset(text + at, c, 1000);
		strcpy(text + at + 1000, close);
	}
}

static void fifos_and_huge_files_are_refused_at_once(void **state)
{
	(void)state;
	struct lt_config cfg;
	char err[512];
	char *fifo = xasprintf("%s/fifo.conf", test_folder);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	signal(SIGALRM, on_alarm);
	alarm(5);
	assert_int_equal(config_load(&cfg, fifo, 0, NULL, err, sizeof err), -1);
	char *want = xasprintf("%s: not a regular file", fifo);
	assert_string_equal(err, want);
	setenv("LAGTOP_CONFIG", fifo, 1);
	assert_int_equal(config_load(&cfg, NULL, 0, NULL, err, sizeof err), -1);
	assert_string_equal(err, want);
	unsetenv("LAGTOP_CONFIG");
	alarm(0);
	free(want);
	free(fifo);

	/* a 10 MB value: libconfig's lexer would take minutes over it */
	size_t n = 10u << 20;
	char *text = xmalloc(n + 64);
	strcpy(text, "general = { theme = \"");
	size_t k = strlen(text);
	memset(text + k, 'a', n);
	strcpy(text + k + n, "\"; };\n");
	char *path = write_file("big.conf", text);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(config_load_file(&cfg, path, NULL, err, sizeof err), -1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	want = xasprintf("refusing %s: %zu bytes, over the 1 MiB a configuration file may have", path, strlen(text));
	assert_string_equal(err, want);
	assert_true(secs < 0.5);
	free(want);
	free(path);

	/* under 1 MiB, a string value over 64 KiB (adjacent literals are one value) is refused by its line */
	strcpy(text, "# a \"quoted\" comment\ngeneral = {\n /* \" */ theme =");
	append_literals(text, 70, 'a', " ", "\"\n");
	strcat(text, "; };\n");
	path = write_file("long.conf", text);
	assert_int_equal(config_load_file(&cfg, path, NULL, err, sizeof err), -1);
	want = xasprintf("%s:3: a string over 64 KiB: not a lagtop setting", path);
	assert_string_equal(err, want);
	free(want);
	free(path);
	/* 60 separate strings of 1000 characters each are fine (each value is short) */
	strcpy(text, "clusters = { c = { include_groups = [");
	append_literals(text, 60, 'b', ", ", "\"");
	strcat(text, " ]; }; };\n");
	path = write_file("many.conf", text);
	assert_int_equal(config_load_file(&cfg, path, NULL, err, sizeof err), 0);
	config_free(&cfg);
	free(path);
	free(text);
}

/* ------------------------------------------------------------------ validation */

static void full_file_is_read(void **state)
{
	(void)state;
	struct lt_config cfg;
	char err[512];
	assert_int_equal(
		test_config_load_text(&cfg,
				      "# comment\n"
				      "general = {\n"
				      "  default_cluster = \"b\";\n"
				      "  refresh_interval = 0.5;\n"
				      "  lag_threshold = 100;\n"
				      "  time_lag_threshold = \"1m30s\";\n"
				      "  theme = \"high-contrast\";\n"
				      "  reset_confirm_threshold = 5000000000L;\n"
				      "  expiry_horizon = 86400;\n"
				      "};\n"
				      "clusters = {\n"
				      "  a = { bootstrap_servers = \"h1:9092\"; };\n"
				      "  b = {\n"
				      "    bootstrap_servers = \"h2:9093,h3:9093\";\n"
				      "    properties = [ \"security.protocol=SASL_SSL\", \"sasl.password=p=w\" ];\n"
				      "    include_groups = [ \"^pay\", \"x|y\" ];\n"
				      "    exclude_groups = ( \"-test$\" );\n"
				      "    read_only = true;\n"
				      "  };\n"
				      "};\n",
				      err, sizeof err, NULL),
		0);
	assert_string_equal(cfg.default_cluster, "b");
	assert_int_equal(cfg.refresh_ms, 500);
	assert_int_equal(cfg.lag_threshold, 100);
	assert_int_equal(cfg.time_lag_threshold_ms, 90000);
	assert_string_equal(cfg.theme, "high-contrast");
	assert_int_equal(cfg.reset_confirm_threshold, 5000000000LL);
	assert_int_equal(cfg.expiry_horizon_ms, 86400000LL);
	assert_int_equal(cfg.n_clusters, 2);
	const struct lt_cluster_def *b = config_find_cluster(&cfg, "b");
	assert_non_null(b);
	assert_string_equal(b->conn.bootstrap, "h2:9093,h3:9093");
	assert_int_equal(b->conn.n_props, 2);
	assert_string_equal(b->conn.prop_keys[1], "sasl.password");
	assert_string_equal(b->conn.prop_values[1], "p=w"); /* split at the first '=' only */
	assert_int_equal(b->n_include, 2);
	assert_string_equal(b->include[1], "x|y");
	assert_int_equal(b->n_exclude, 1);
	assert_true(b->read_only);
	assert_false(config_find_cluster(&cfg, "a")->read_only);
	assert_int_equal(b->line, 13);
	assert_null(config_find_cluster(&cfg, "c"));
	config_free(&cfg);
}

static void parse_errors_name_file_and_line(void **state)
{
	(void)state;
	expect_error("general = {\n  theme = \"x\";\n  refresh_interval = ;\n};\n", 3, "syntax error");
	expect_error("general = {\n  theme = \"x\"\n", 3, "syntax error");
	expect_error("general = { theme = \"a\"; };\ngeneral = { };\n", 2, "duplicate setting name");
	/* quoted or dotted setting names are not libconfig: properties are "key=value" strings */
	expect_error("clusters = { a = { \"security.protocol\" = \"SSL\"; }; };\n", 1, "syntax error");
}

static void unknown_keys_name_key_and_line(void **state)
{
	(void)state;
	expect_error("general = {\n  theme = \"x\";\n  refersh = 2;\n};\n", 3,
		     "unknown setting 'refersh' in 'general'");
	expect_error("general = {\n\n  refresh_intervall = 2;\n};\n", 3,
		     "unknown setting 'refresh_intervall' in 'general' (did you mean 'refresh_interval'?)");
	expect_error("clusters = {\n  prod = {\n    bootstrap_servers = \"h:1\";\n    read_onyl = true;\n  };\n};\n", 4,
		     "unknown setting 'read_onyl' in cluster 'prod' (did you mean 'read_only'?)");
	expect_error("cluster = { };\n", 1,
		     "unknown setting 'cluster' (the file has three groups: general, clusters and panes)");
	expect_error("refresh_interval = 2;\n", 1,
		     "unknown setting 'refresh_interval' (the file has three groups: general, clusters and panes)");
}

static void wrong_types_are_named(void **state)
{
	(void)state;
	expect_error("general = 5;\n", 1, "'general' must be a group { ... }, not an integer");
	expect_error("general = {\n refresh_interval = true;\n};\n", 2,
		     "'refresh_interval' in 'general' must be a number of seconds or a duration string, not a boolean");
	expect_error("general = {\n refresh_interval = \"fast\";\n};\n", 2,
		     "'refresh_interval' in 'general' must be seconds or a duration like \"500ms\", \"2s\", \"1h30m\", "
		     "\"3d\"");
	expect_error("general = {\n lag_threshold = 1.5;\n};\n", 2,
		     "'lag_threshold' in 'general' must be a whole number, not a decimal number");
	expect_error("general = {\n theme = 3;\n};\n", 2, "'theme' in 'general' must be a string, not an integer");
	expect_error("general = {\n theme = \"../../etc/x\";\n};\n", 2,
		     "'theme' in 'general' must be a name of letters, digits, '_', '-' or '.', got '../../etc/x'");
	expect_error("general = {\n default_cluster = \"\";\n};\n", 2,
		     "'default_cluster' in 'general' must not be empty");
	expect_error("clusters = {\n a = \"h:1\";\n};\n", 2,
		     "cluster 'a' in 'clusters' must be a group { bootstrap_servers = ...; }, not a string");
	expect_error("clusters = {\n a = { read_only = \"yes\"; };\n};\n", 2,
		     "'read_only' in cluster 'a' must be true or false, not a string");
	expect_error("clusters = {\n a = { properties = \"security.protocol=SSL\"; };\n};\n", 2,
		     "'properties' in cluster 'a' must be a list of strings like [ \"a\", \"b\" ], not a string");
	expect_error("clusters = {\n a = { include_groups = ( \"x\",\n 5 ); };\n};\n", 3,
		     "'include_groups' in cluster 'a' must hold only strings; element 2 is an integer");
}

static void ranges_are_checked(void **state)
{
	(void)state;
	expect_error("general = {\n refresh_interval = 0.01;\n};\n", 2,
		     "'refresh_interval' in 'general' must be between 100ms and 1h");
	expect_error("general = {\n refresh_interval = 7200;\n};\n", 2,
		     "'refresh_interval' in 'general' must be between 100ms and 1h");
	expect_error("general = {\n refresh_interval = -1;\n};\n", 2,
		     "'refresh_interval' in 'general' must be between 100ms and 1h");
	expect_error("general = {\n expiry_horizon = \"400d\";\n};\n", 2,
		     "'expiry_horizon' in 'general' must be between 0s and 365d");
	expect_error("general = {\n lag_threshold = -5;\n};\n", 2, "'lag_threshold' in 'general' must be at least 0");
	expect_error("general = {\n reset_confirm_threshold = -1L;\n};\n", 2,
		     "'reset_confirm_threshold' in 'general' must be at least 0");

	struct lt_config cfg;
	char err[512];
	assert_int_equal(test_config_load_text(&cfg,
					       "general = { refresh_interval = \"100ms\"; time_lag_threshold = 0; };\n",
					       err, sizeof err, NULL),
			 0);
	assert_int_equal(cfg.refresh_ms, 100);
	assert_int_equal(cfg.time_lag_threshold_ms, 0);
	config_free(&cfg);
}

static void durations_parse(void **state)
{
	(void)state;
	static const struct {
		const char *s;
		int64_t ms;
	} ok[] = { { "2", 2000 },        { "0.5", 500 },      { "500ms", 500 }, { "2s", 2000 },    { "1m", 60000 },
		   { "1h30m", 5400000 }, { "3d", 259200000 }, { "1.5s", 1500 }, { "1m1ms", 60001 } };
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		int64_t ms = -1;
		assert_int_equal(config_parse_duration(ok[i].s, &ms), 0);
		assert_int_equal(ms, ok[i].ms);
	}
	const char *bad[] = { "", "s", "-1", "1x", "1 s", "1e3", "2s3", "1.2.3s", "inf", "99999999999999d" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int64_t ms;
		assert_int_equal(config_parse_duration(bad[i], &ms), -1);
	}
}

static void bad_regex_is_named(void **state)
{
	(void)state;
	struct lt_config cfg;
	char err[512];
	char *path;
	assert_int_equal(test_config_load_text(
				 &cfg,
				 "clusters = {\n a = {\n  exclude_groups = [ \"ok\",\n \"(unclosed\" ];\n };\n};\n",
				 err, sizeof err, &path),
			 -1);
	char *want = xasprintf("%s:4: bad regex '(unclosed' in 'exclude_groups' of cluster 'a': ", path);
	assert_memory_equal(err, want, strlen(want)); /* then regerror's text */
	assert_true(strlen(err) > strlen(want));
	free(want);
	free(path);
	config_free(&cfg);
}

static void properties_are_validated_without_showing_values(void **state)
{
	(void)state;
	expect_error("clusters = {\n a = { properties = [\n \"sasl.password:hunter2\" ]; };\n};\n", 3,
		     "'properties' in cluster 'a': element 1 must be \"key=value\"");
	expect_error("clusters = {\n a = { properties = [ \"=x\" ]; };\n};\n", 2,
		     "'properties' in cluster 'a': element 1 must be \"key=value\"");
	expect_error("clusters = {\n a = { properties = [ \"bad key=x\" ]; };\n};\n", 2,
		     "'properties' in cluster 'a': element 1 has a bad property name (letters, digits, '.', '_', '-')");
	expect_error("clusters = {\n a = { properties = [ \"client.id=a\",\n \"client.id=b\" ]; };\n};\n", 3,
		     "'properties' in cluster 'a': property 'client.id' is given twice");
	expect_error("clusters = {\n a = { properties = [ \"bootstrap.servers=h:1\" ]; };\n};\n", 2,
		     "'properties' in cluster 'a': give bootstrap.servers as bootstrap_servers = \"host:port,...\"");
}

static void default_cluster_must_exist(void **state)
{
	(void)state;
	expect_error("general = {\n\n default_cluster = \"nope\";\n};\nclusters = { a = { }; b = { }; };\n", 3,
		     "default_cluster 'nope' is not defined in 'clusters' (known: a, b)");
}

/* ------------------------------------------------------------------ secrets */

static void secret_keys_are_detected_and_masked(void **state)
{
	(void)state;
	const char *secret[] = { "sasl.password",
				 "ssl.key.password",
				 "ssl.keystore.password",
				 "ssl.key.pem",
				 "sasl.oauthbearer.client.secret",
				 "SASL.PASSWORD",
				 "sasl.oauthbearer.config",
				 "ssl_key",
				 "my.token" };
	const char *plain[] = { "security.protocol",
				"sasl.mechanism",
				"sasl.username",
				"bootstrap.servers",
				"client.id",
				"ssl.ca.location",
				NULL };
	for (size_t i = 0; i < sizeof secret / sizeof secret[0]; i++) {
		assert_true(config_is_secret_key(secret[i]));
		assert_string_equal(config_display_value(secret[i], "hunter2"), "[hidden]");
	}
	for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
		assert_false(config_is_secret_key(plain[i]));
		if (plain[i])
			assert_string_equal(config_display_value(plain[i], "v"), "v");
	}
	assert_string_equal(config_display_value("client.id", NULL), "");
}

static void permission_warning_names_file_and_mode(void **state)
{
	(void)state;
	struct lt_config cfg;
	char err[512];
	char *text = NULL;
	size_t len = 0;
	char *path = write_file("s.conf", "clusters = { a = { properties = [ \"sasl.password=s3cret\" ]; }; };\n");

	chmod(path, 0600);
	FILE *warn = open_memstream(&text, &len);
	assert_int_equal(config_load_file(&cfg, path, warn, err, sizeof err), 0);
	fflush(warn);
	assert_int_equal(len, 0);
	assert_null(cfg.warning);
	config_free(&cfg);

	chmod(path, 0644);
	assert_int_equal(config_load_file(&cfg, path, warn, err, sizeof err), 0);
	fclose(warn);
	char *want =
		xasprintf("lagtop: warning: %s holds secrets (sasl.password) but is readable by others (mode 0644); "
			  "run: chmod 600 %s\n",
			  path, path);
	assert_string_equal(text, want);
	assert_null(strstr(text, "s3cret"));
	assert_non_null(cfg.warning);
	free(want);
	free(text);
	config_free(&cfg);

	chmod(path, 0640);
	assert_int_equal(config_load_file(&cfg, path, NULL, err, sizeof err), 0);
	assert_non_null(strstr(cfg.warning, "readable by its group (mode 0640)"));
	config_free(&cfg);

	/* no secret, no warning, whatever the mode */
	free(path);
	path = write_file("n.conf", "clusters = { a = { properties = [ \"client.id=x\" ]; }; };\n");
	chmod(path, 0644);
	assert_int_equal(config_load_file(&cfg, path, NULL, err, sizeof err), 0);
	assert_null(cfg.warning);
	config_free(&cfg);
	free(path);
}

static void errors_never_show_secret_values(void **state)
{
	(void)state;
	struct lt_config cfg;
	char err[512];
	/* an error after a secret was read: the message names keys, not values */
	assert_int_equal(test_config_load_text(&cfg,
					       "clusters = { a = { properties = [ \"sasl.password=hunter2\", "
					       "\"sasl.password=hunter3\" ]; }; };\n",
					       err, sizeof err, NULL),
			 -1);
	assert_null(strstr(err, "hunter"));
	assert_non_null(strstr(err, "sasl.password"));
	config_free(&cfg);
}

/* ------------------------------------------------------------------ shipped files */

static void example_config_loads(void **state)
{
	(void)state;
	struct lt_config cfg;
	char err[512] = "";
	int rc = config_load_file(&cfg, TOP_SRCDIR "/doc/lagtop.conf.example", NULL, err, sizeof err);
	if (rc != 0)
		print_error("%s\n", err);
	assert_int_equal(rc, 0);
	assert_string_equal(cfg.default_cluster, "local");
	const struct lt_cluster_def *prod = config_find_cluster(&cfg, "prod");
	assert_non_null(prod);
	assert_true(prod->read_only);
	bool sasl_ssl = false;
	for (size_t i = 0; i < prod->conn.n_props; i++)
		if (strcmp(prod->conn.prop_keys[i], "security.protocol") == 0 &&
		    strcmp(prod->conn.prop_values[i], "SASL_SSL") == 0)
			sasl_ssl = true;
	assert_true(sasl_ssl);
	config_free(&cfg);
}

static void docs_name_every_setting(void **state)
{
	(void)state;
	char *md = test_read_file(TOP_SRCDIR "/doc/CONFIG.md", NULL);
	char *example = test_read_file(TOP_SRCDIR "/doc/lagtop.conf.example", NULL);
	size_t i;
	for (i = 0; config_setting_path(i); i++) {
		const char *name = strchr(config_setting_path(i), '.') + 1;
		char *code = xasprintf("`%s`", name);
		if (!strstr(md, code))
			print_error("doc/CONFIG.md does not document `%s`\n", name);
		assert_non_null(strstr(md, code));
		assert_non_null(strstr(example, name));
		free(code);
	}
	assert_true(i >= 12);
	free(md);
	free(example);

	char *man = test_read_file(TOP_SRCDIR "/doc/lagtop.1", NULL);
	assert_non_null(strstr(man, "\n.SH CONFIGURATION\n"));
	assert_non_null(strstr(man, "\n.SH FILES\n"));
	assert_non_null(strstr(man, "LAGTOP_CONFIG"));
	free(man);
}

/* ------------------------------------------------------------------ panes.NAME.columns */

static void pane_columns_are_read(void **state)
{
	(void)state;
	struct lt_config cfg;
	char err[512];
	assert_int_equal(
		test_config_load_text(&cfg,
				      "panes = { partitions = { columns = [ \"topic\", \"position\", \"committed\", "
				      "\"lag\" ]; }; };\n",
				      err, sizeof err, NULL),
		0);
	const lt_colset *p = &cfg.columns[LT_ROWS_PARTITIONS];
	const char *names[LT_COL__COUNT];
	size_t n = colset_names(p, names, LT_COL__COUNT);
	assert_int_equal(n, 4);
	assert_string_equal(names[0], "topic");
	assert_string_equal(names[1], "position");
	assert_string_equal(names[2], "committed");
	assert_string_equal(names[3], "lag");
	/* the other panes keep their defaults */
	lt_colset def;
	colset_default(LT_ROWS_GROUPS, &def);
	assert_true(colset_equal(&cfg.columns[LT_ROWS_GROUPS], &def));
	config_free(&cfg);
}

static void bad_pane_columns_are_named(void **state)
{
	(void)state;
	expect_error("panes = {\n partitions = { columns = [ \"topic\", \"postion\" ]; };\n};\n", 2,
		     "unknown column 'postion' in partitions (known: topic, partition, log-start, committed, log-end, "
		     "lag, time-lag, rate, eta, status, client-id, host, last-commit, commits-per-min, unmoved, "
		     "position, uncommitted)");
	expect_error("panes = {\n groups = { columns = [ \"lag\", \"lag\" ]; };\n};\n", 2,
		     "column 'lag' is named twice in groups");
	expect_error("panes = {\n members = { columns = [ \"host\" ]; };\n};\n", 2,
		     "unknown pane 'members' in 'panes' (known: groups, partitions, topics, topic_groups)");
	expect_error("panes = {\n groups = { colums = [ \"lag\" ]; };\n};\n", 2,
		     "unknown setting 'colums' in 'panes.groups' (did you mean 'columns'?)");
}

static const char kept_text[] = "# my settings\n"
				"general = {\n"
				"    refresh_interval = 5; # slow\n"
				"    theme = \"mono\";\n"
				"};\n"
				"panes = {\n"
				"    # an old choice\n"
				"    groups = { columns = [ \"group\", \"lag\" ]; };\n"
				"};\n"
				"clusters = { local = { bootstrap_servers = \"127.0.0.1:9092\"; }; };\n";

/* The save replaces the file's panes group and nothing else: comments, settings and their order stay. */
static void saved_columns_keep_the_rest(void **state)
{
	(void)state;
	char *path = write_file("save.conf", kept_text);
	lt_colset sets[LT_ROW_KINDS];
	for (unsigned k = 0; k < LT_ROW_KINDS; k++)
		colset_default((lt_row_kind)k, &sets[k]);
	const char *names[] = { "topic", "partition", "committed", "position", "log-end", "lag" };
	char err[512];
	assert_int_equal(colset_parse(LT_ROWS_PARTITIONS, names, 6, &sets[LT_ROWS_PARTITIONS], err, sizeof err), 0);
	assert_int_equal(config_save_columns(path, sets, err, sizeof err), 0);

	char *text = test_read_file(path, NULL);
	assert_non_null(strstr(text, "# my settings\ngeneral = {\n    refresh_interval = 5; # slow\n"));
	assert_non_null(strstr(text, "clusters = { local = { bootstrap_servers = \"127.0.0.1:9092\"; }; };\n"));
	assert_null(strstr(text, "an old choice")); /* the old panes group went: groups is back to its default */
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);

	struct lt_config cfg;
	assert_int_equal(config_load_file(&cfg, path, NULL, err, sizeof err), 0);
	assert_int_equal(cfg.refresh_ms, 5000);
	assert_string_equal(cfg.theme, "mono");
	assert_int_equal(cfg.n_clusters, 1);
	assert_true(colset_equal(&cfg.columns[LT_ROWS_PARTITIONS], &sets[LT_ROWS_PARTITIONS]));
	assert_true(colset_equal(&cfg.columns[LT_ROWS_GROUPS], &sets[LT_ROWS_GROUPS]));
	config_free(&cfg);

	/* saved again: the same text (the group lagtop wrote is found and replaced, not added twice) */
	assert_int_equal(config_save_columns(path, sets, err, sizeof err), 0);
	char *again = test_read_file(path, NULL);
	assert_string_equal(again, text);
	free(again);
	free(text);
	free(path);
}

/* "panes" in a comment, a string or a cluster's name is not the root group: the choice is added, nothing else
 * touched; and choosing the defaults again takes the group out. */
static void splice_finds_only_the_root_panes(void **state)
{
	(void)state;
	static const char text[] = "# panes = { old };\n"
				   "/* panes = { } */\n"
				   "clusters = { panes = { bootstrap_servers = \"panes = {\"; }; };\n"
				   "general = { theme = \"mono\"; }"; /* no newline at the end */
	lt_colset sets[LT_ROW_KINDS];
	for (unsigned k = 0; k < LT_ROW_KINDS; k++)
		colset_default((lt_row_kind)k, &sets[k]);
	const char *names[] = { "topic", "lag" };
	char err[512];
	assert_int_equal(colset_parse(LT_ROWS_TOPICS, names, 2, &sets[LT_ROWS_TOPICS], err, sizeof err), 0);
	char *out = config_splice_columns(text, sets, err, sizeof err);
	assert_non_null(out);
	assert_int_equal(strncmp(out, text, strlen(text)), 0); /* everything before kept, byte for byte */
	assert_string_equal(out + strlen(text), "\npanes = {\n    # the dashboard's columns (F2): each pane's shown "
						"columns in order; lagtop rewrites this group\n    topics = { "
						"columns = [ \"topic\", \"lag\" ]; };\n};\n");
	colset_default(LT_ROWS_TOPICS, &sets[LT_ROWS_TOPICS]);
	char *back = config_splice_columns(out, sets, err, sizeof err);
	assert_non_null(back);
	char *want = xasprintf("%s\n", text); /* the group gone, the newline that preceded it stays */
	assert_string_equal(back, want);
	free(want);
	free(back);
	free(out);
}

/* Without a file, the user's own is made (its directories too), private, holding only the choice. */
static void saved_columns_make_the_users_file(void **state)
{
	(void)state;
	char *xdg = xasprintf("%s/newxdg", test_folder);
	setenv("XDG_CONFIG_HOME", xdg, 1);
	char *path = config_user_path();
	unsetenv("XDG_CONFIG_HOME");
	char *want = xasprintf("%s/lagtop/lagtop.conf", xdg);
	assert_string_equal(path, want);
	lt_colset sets[LT_ROW_KINDS];
	for (unsigned k = 0; k < LT_ROW_KINDS; k++)
		colset_default((lt_row_kind)k, &sets[k]);
	const char *names[] = { "group", "lag" };
	char err[512];
	assert_int_equal(colset_parse(LT_ROWS_GROUPS, names, 2, &sets[LT_ROWS_GROUPS], err, sizeof err), 0);
	assert_int_equal(config_save_columns_new(path, sets, err, sizeof err), 0);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(stat(xdg, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	struct lt_config cfg;
	assert_int_equal(config_load_file(&cfg, path, NULL, err, sizeof err), 0);
	assert_true(colset_equal(&cfg.columns[LT_ROWS_GROUPS], &sets[LT_ROWS_GROUPS]));
	config_free(&cfg);
	/* made already: rewritten in place */
	colset_default(LT_ROWS_GROUPS, &sets[LT_ROWS_GROUPS]);
	assert_int_equal(config_save_columns_new(path, sets, err, sizeof err), 0);
	assert_int_equal(config_load_file(&cfg, path, NULL, err, sizeof err), 0);
	assert_true(colset_equal(&cfg.columns[LT_ROWS_GROUPS], &sets[LT_ROWS_GROUPS]));
	config_free(&cfg);
	free(want);
	free(path);
	free(xdg);
}

/* The user's file is made under directories that do not exist yet (each made private); a file where one of
 * them should be is named in one line, and nothing is made. */
static void saved_columns_make_the_directories(void **state)
{
	(void)state;
	lt_colset sets[LT_ROW_KINDS];
	for (unsigned k = 0; k < LT_ROW_KINDS; k++)
		colset_default((lt_row_kind)k, &sets[k]);
	char err[512];
	char *top = xasprintf("%s/deep", test_folder);
	char *path = xasprintf("%s/a/b/lagtop.conf", top);
	assert_int_equal(config_save_columns_new(path, sets, err, sizeof err), 0);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	const char *dirs[] = { "", "/a", "/a/b" };
	for (size_t i = 0; i < 3; i++) {
		char *d = xasprintf("%s%s", top, dirs[i]);
		assert_int_equal(stat(d, &st), 0);
		assert_true(S_ISDIR(st.st_mode));
		assert_int_equal(st.st_mode & 0777, 0700);
		free(d);
	}
	char *blocker = write_file("blocker", "");
	char *under = xasprintf("%s/c/lagtop.conf", blocker);
	err[0] = '\0';
	assert_int_equal(config_save_columns_new(under, sets, err, sizeof err), -1);
	char *want = xasprintf("%s is not a directory", blocker);
	assert_string_equal(err, want);
	assert_true(stat(blocker, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0);
	free(want), free(under), free(blocker), free(path), free(top);
}

/* What cannot be rewritten safely is refused in one line, the file as it was. */
static void unsafe_saves_are_refused(void **state)
{
	(void)state;
	lt_colset sets[LT_ROW_KINDS];
	for (unsigned k = 0; k < LT_ROW_KINDS; k++)
		colset_default((lt_row_kind)k, &sets[k]);
	char err[512];
	char *inc = write_file("inc.conf", "general = {\n@include \"other.conf\"\n};\n");
	free(write_file("other.conf", "theme = \"mono\";\n"));
	assert_int_equal(config_save_columns(inc, sets, err, sizeof err), -1);
	assert_non_null(strstr(err, "@include"));
	assert_null(strchr(err, '\n'));
	char *text = test_read_file(inc, NULL);
	assert_string_equal(text, "general = {\n@include \"other.conf\"\n};\n");
	free(text);
	free(inc);

	char *real = write_file("real.conf", kept_text);
	char *link = xasprintf("%s/link.conf", test_folder);
	assert_int_equal(symlink(real, link), 0);
	assert_int_equal(config_save_columns(link, sets, err, sizeof err), -1);
	assert_non_null(strstr(err, "symbolic link"));
	free(link);
	free(real);

	char *missing = xasprintf("%s/missing.conf", test_folder);
	assert_int_equal(config_save_columns(missing, sets, err, sizeof err), -1);
	free(missing);

	/* text that libconfig cannot read is never rewritten */
	assert_null(config_splice_columns("general = { theme = ", sets, err, sizeof err));
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(search_order_is_respected),
	cmocka_unit_test(pane_columns_are_read),
	cmocka_unit_test(bad_pane_columns_are_named),
	cmocka_unit_test(saved_columns_keep_the_rest),
	cmocka_unit_test(unsafe_saves_are_refused),
	cmocka_unit_test(saved_columns_make_the_users_file),
	cmocka_unit_test(the_users_file_is_the_one_read),
	cmocka_unit_test(saved_columns_make_the_directories),
	cmocka_unit_test(splice_finds_only_the_root_panes),
	cmocka_unit_test(explicit_missing_file_is_an_error),
	cmocka_unit_test(no_file_gives_defaults),
	cmocka_unit_test(unreadable_or_odd_files_are_errors),
	cmocka_unit_test(untrusted_files_are_refused),
	cmocka_unit_test(included_files_are_held_to_the_rule),
	cmocka_unit_test(properties_that_run_programs_need_the_option),
	cmocka_unit_test(fifos_and_huge_files_are_refused_at_once),
	cmocka_unit_test(full_file_is_read),
	cmocka_unit_test(parse_errors_name_file_and_line),
	cmocka_unit_test(unknown_keys_name_key_and_line),
	cmocka_unit_test(wrong_types_are_named),
	cmocka_unit_test(ranges_are_checked),
	cmocka_unit_test(durations_parse),
	cmocka_unit_test(bad_regex_is_named),
	cmocka_unit_test(properties_are_validated_without_showing_values),
	cmocka_unit_test(default_cluster_must_exist),
	cmocka_unit_test(secret_keys_are_detected_and_masked),
	cmocka_unit_test(permission_warning_names_file_and_mode),
	cmocka_unit_test(errors_never_show_secret_values),
	cmocka_unit_test(example_config_loads),
	cmocka_unit_test(docs_name_every_setting),
};

LT_TEST_MAIN(test_home_setup, test_folder_teardown)
