/* test_options.c — command-line parsing rules, and that the man page documents every option. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"

static int parse(struct lt_options *o, char *err, size_t errlen, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;
	va_start(ap, errlen);
	argv[argc++] = (char *)"lagtop";
	for (char *a; (a = va_arg(ap, char *)) != NULL && argc < 31;)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	err[0] = '\0';
	return options_parse(o, argc, argv, err, errlen);
}

static void defaults_are_the_dashboard(void **state)
{
	(void)state;
	struct lt_options o;
	char err[256];
	assert_int_equal(parse(&o, err, sizeof err, NULL), 0);
	assert_int_equal(o.mode, LT_MODE_TUI);
	assert_int_equal(o.timeout_ms, 10000);
	assert_int_equal(o.interval_ms, -1);
	assert_int_equal(o.samples, 1);
	options_free(&o);
}

static void once_with_format_groups_and_props(void **state)
{
	(void)state;
	struct lt_options o;
	char err[256];
	assert_int_equal(parse(&o, err, sizeof err, "--once", "--format", "json", "-g", "^pay", "--group", "x",
			       "-b", "127.0.0.1:9092", "-X", "security.protocol=SSL", "--interval", "0.5",
			       "--samples", "3", NULL), 0);
	assert_int_equal(o.mode, LT_MODE_ONCE);
	assert_int_equal(o.format, LT_FORMAT_JSON);
	assert_int_equal(o.n_groups, 2);
	assert_string_equal(o.groups[1], "x");
	assert_string_equal(o.bootstrap, "127.0.0.1:9092");
	assert_int_equal(o.n_props, 1);
	assert_int_equal(o.interval_ms, 500);
	assert_int_equal(o.samples, 3);
	options_free(&o);
}

static void usage_errors_name_the_problem(void **state)
{
	(void)state;
	struct lt_options o;
	char err[256];
	struct {
		const char *args[6];
		const char *needle;
	} cases[] = {
		{ { "--format", "xml", "--once" }, "'xml'" },
		{ { "--bogus" }, "--bogus" },
		{ { "-X", "novalue" }, "KEY=VALUE" },
		{ { "--once", "--demo" }, "cannot be combined" },
		{ { "--samples", "0", "--once" }, "--samples" },
		{ { "--interval", "abc" }, "'abc'" },
		{ { "--reset-offsets", "-g", "g", "--all-topics" }, "needs a target" },
		{ { "--reset-offsets", "-g", "g", "--to-latest" }, "One of the reset scopes should be defined" },
		{ { "--reset-offsets", "--all-topics", "--to-latest" }, "exactly one --group" },
		{ { "--reset-offsets", "-g", "g", "--all-topics", "--to-latest", "--to-earliest" },
		  "Option \"[to-latest]\" can't be used with option \"[to-earliest]\"" },
		{ { "--to-latest" }, "need --reset-offsets" },
		{ { "--reset-offsets", "-g", "g", "--all-topics", "--to-latest", "--read-only" }, "--read-only" },
		{ { "--format", "json" }, "go with --once" },
		{ { "--timeout" }, "needs an argument" },
		{ { "stray" }, "'stray'" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *argv[8] = { (char *)"lagtop" };
		int argc = 1;
		for (int k = 0; k < 6 && cases[i].args[k]; k++)
			argv[argc++] = (char *)cases[i].args[k];
		argv[argc] = NULL;
		err[0] = '\0';
		int rc = options_parse(&o, argc, argv, err, sizeof err);
		if (rc != -1 || !strstr(err, cases[i].needle))
			fail_msg("case %zu: rc=%d err='%s' (wanted '%s')", i, rc, err, cases[i].needle);
		assert_null(strchr(err, '\n'));
		options_free(&o);
	}
}

static void dry_run_and_execute_conflict(void **state)
{
	(void)state;
	struct lt_options o;
	char err[256];
	assert_int_equal(parse(&o, err, sizeof err, "--reset-offsets", "-g", "g", "--topic", "t:0,1", "--shift-by",
			       "-5", "--dry-run", "--execute", NULL), -1);
	assert_non_null(strstr(err, "Option [reset-offsets] only accepts one of [execute] and [dry-run]"));
	options_free(&o);
	assert_int_equal(parse(&o, err, sizeof err, "--reset-offsets", "-g", "g", "--topic", "t:0,1", "--shift-by",
			       "-5", "--execute", NULL), 0);
	assert_int_equal(o.target, LT_TARGET_SHIFT);
	assert_string_equal(o.target_arg, "-5");
	assert_true(o.execute);
	options_free(&o);
}

static void man_page_documents_every_option(void **state)
{
	(void)state;
	const char *srcdir = getenv("LT_SRCDIR");
	char path[4096];
	snprintf(path, sizeof path, "%s/doc/lagtop.1", srcdir ? srcdir : ".");
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s", path);
	static char text[1 << 18];
	size_t n = fread(text, 1, sizeof text - 1, f);
	text[n] = '\0';
	fclose(f);
	for (size_t i = 0; options_long_name(i); i++) {
		/* roff writes every hyphen of an option as \- : --dry-run is \-\-dry\-run */
		char needle[256] = "\\-\\-";
		size_t k = strlen(needle);
		for (const char *c = options_long_name(i); *c && k < sizeof needle - 3; c++) {
			if (*c == '-')
				needle[k++] = '\\';
			needle[k++] = *c;
		}
		needle[k] = '\0';
		if (!strstr(text, needle))
			fail_msg("doc/lagtop.1 does not document --%s", options_long_name(i));
	}
}

static void help_lists_every_option(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	options_print_help(f, "lagtop");
	fclose(f);
	for (size_t i = 0; options_long_name(i); i++) {
		char needle[128];
		snprintf(needle, sizeof needle, "--%s", options_long_name(i));
		if (!strstr(buf, needle))
			fail_msg("--help does not list %s", needle);
	}
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_are_the_dashboard),
		cmocka_unit_test(once_with_format_groups_and_props),
		cmocka_unit_test(usage_errors_name_the_problem),
		cmocka_unit_test(dry_run_and_execute_conflict),
		cmocka_unit_test(man_page_documents_every_option),
		cmocka_unit_test(help_lists_every_option),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
