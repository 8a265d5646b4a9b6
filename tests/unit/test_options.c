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
#include "model/snapshot.h"

#include "../lib/lagtop_test.h"
#include "../lib/cmocka_main.h"

static int parse(struct lt_options *o, char *err, size_t errlen, ...)
{
	char *argv[32];
	va_list ap;
	va_start(ap, errlen);
	int argc = test_argv(argv, ap);
	va_end(ap);
	err[0] = '\0';
	return options_parse(o, argc, argv, err, errlen);
}

/* A command line (after "lagtop") that options_parse refuses, and what its one-line error says. */
struct refusal {
	const char *args[6];
	const char *needle;
};

/* Each case is refused (-1) with a one-line error that holds its needle, or starts with it when prefix. */
static void expect_refusals(const struct refusal *cases, size_t n, bool prefix)
{
	struct lt_options o;
	char err[512];
	for (size_t i = 0; i < n; i++) {
		char *argv[8] = { (char *)"lagtop" };
		int argc = 1;
		for (int k = 0; k < 6 && cases[i].args[k]; k++)
			argv[argc++] = (char *)cases[i].args[k];
		argv[argc] = NULL;
		err[0] = '\0';
		int rc = options_parse(&o, argc, argv, err, sizeof err);
		bool said = prefix ? strncmp(err, cases[i].needle, strlen(cases[i].needle)) == 0
				   : strstr(err, cases[i].needle) != NULL;
		if (rc != -1 || !said)
			fail_msg("case %zu: rc=%d err='%s' (wanted '%s')", i, rc, err, cases[i].needle);
		assert_null(strchr(err, '\n'));
		options_free(&o);
	}
}

static void defaults_are_the_dashboard(void **state)
{
	(void)state;
	struct lt_options o;
	test_options_ok(&o, NULL);
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
	test_options_ok(&o, "--once", "--format", "json", "-g", "^pay", "--group", "x", "-b", "127.0.0.1:9092", "-X",
			"security.protocol=SSL", "--interval", "0.5", "--samples", "3", NULL);
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

/* --record and --replay: what goes with them, and what is refused in one line naming it. */
static void record_and_replay_rules(void **state)
{
	(void)state;
	struct lt_options o;
	test_options_ok(&o, "--record", "r.lrec", "--headless", "-i", "10", "--record-max-size", "200M",
			"--record-keep", "5", "-b", "h:1", NULL);
	assert_int_equal(o.mode, LT_MODE_TUI);
	assert_string_equal(o.record_path, "r.lrec");
	assert_true(o.headless);
	assert_true(o.record_max_size == 200ull * 1024 * 1024);
	assert_int_equal(o.record_keep, 5);
	options_free(&o);
	test_options_ok(&o, "--replay", "r.lrec", "--once", "--at", "-2h", "--format", "json", NULL);
	assert_int_equal(o.mode, LT_MODE_ONCE);
	assert_string_equal(o.replay_path, "r.lrec");
	assert_string_equal(o.replay_at, "-2h");
	options_free(&o);
	test_options_ok(&o, "--replay", "r.lrec", "--theme", "mono", NULL);
	assert_int_equal(o.mode, LT_MODE_TUI);
	options_free(&o);

	static const struct refusal cases[] = {
		{ { "--record", "f", "--once" }, "--record cannot be combined with --once" },
		{ { "--once", "--record", "f" }, "--record cannot be combined with --once" },
		{ { "--record", "f", "--demo" }, "--record cannot be combined with --demo" },
		{ { "--record", "f", "--replay", "g" }, "--record and --replay cannot be combined" },
		{ { "--headless" }, "--headless goes with --record" },
		{ { "--record-max-size", "1M" }, "--record-max-size goes with --record" },
		{ { "--record-keep", "3" }, "--record-keep goes with --record" },
		{ { "--record", "f", "--record-max-size", "lots" }, "--record-max-size expects a size" },
		{ { "--record", "f", "--record-max-size", "100" }, "at least 4K" },
		{ { "--record", "f", "--record-keep", "0" }, "--record-keep expects a whole number from 1" },
		{ { "--at", "03:00" }, "--at goes with --replay" },
		{ { "--replay", "f", "-b", "h:1" }, "it takes no -b" },
		{ { "--replay", "f", "-c", "prod" }, "it takes no -c" },
		{ { "--replay", "f", "-X", "a=b" }, "it takes no -X" },
		{ { "--replay", "f", "--timeout", "5s" }, "it takes no --timeout" },
		{ { "--replay", "f", "-G", "x" }, "it takes no --group-regex" },
		{ { "--replay", "f", "--once", "--samples", "3" }, "it takes no --samples" },
		{ { "--replay", "f", "--reset-offsets" }, "--replay cannot be combined with --reset-offsets" },
		{ { "--replay", "f", "--list" }, "--replay cannot be combined with --list" },
		{ { "--replay", "f", "--format", "json" }, "go with --once" },
	};
	expect_refusals(cases, sizeof cases / sizeof cases[0], false);
}

static void usage_errors_name_the_problem(void **state)
{
	(void)state;
	static const struct refusal cases[] = {
		{ { "--format", "xml", "--once" }, "'xml'" },
		{ { "--bogus" }, "--bogus" },
		{ { "-X", "novalue" }, "KEY=VALUE" },
		{ { "--once", "--demo" }, "cannot be combined" },
		{ { "--samples", "0", "--once" }, "--samples" },
		{ { "--interval", "abc" }, "'abc'" },
		{ { "--reset-offsets", "-g", "g", "--all-topics" }, "needs a target" },
		{ { "--reset-offsets", "-g", "g", "--to-latest" }, "One of the reset scopes should be defined" },
		{ { "--reset-offsets", "--all-topics", "--to-latest" },
		  "Option [reset-offsets] takes one of these options: [group], [all-groups]" },
		{ { "--reset-offsets", "-g", "g", "--all-topics", "--to-latest", "--to-earliest" },
		  "Option \"[to-latest]\" can't be used with option \"[to-earliest]\"" },
		{ { "--to-latest" }, "need --reset-offsets" },
		{ { "--reset-offsets", "-g", "g", "--all-topics", "--to-latest", "--read-only" }, "--read-only" },
		{ { "--format", "json" }, "go with --once" },
		{ { "--timeout" }, "needs an argument" },
		{ { "stray" }, "'stray'" },
	};
	expect_refusals(cases, sizeof cases / sizeof cases[0], false);
}

/* kafka-consumer-groups' command line: its spellings, its rules, its messages (Kafka 4.x's words). */
static void kcg_command_line(void **state)
{
	(void)state;
	struct lt_options o;
	test_options_ok(&o, "--describe", "--group", "a", "--group", "b", "--members", "--verbose", NULL);
	assert_int_equal(o.mode, LT_MODE_DESCRIBE);
	assert_int_equal(o.describe, LT_DESCRIBE_MEMBERS);
	assert_true(o.verbose);
	assert_int_equal(o.n_groups, 2);
	options_free(&o);
	test_options_ok(&o, "--describe", "--all-groups", "--state", NULL);
	assert_int_equal(o.describe, LT_DESCRIBE_STATE);
	assert_true(o.all_groups);
	options_free(&o);
	test_options_ok(&o, "--describe", "-g", "a", "--offsets", NULL);
	assert_int_equal(o.describe, LT_DESCRIBE_OFFSETS);
	options_free(&o);
	/* optional values: "--state S" and "--state=S"; any case; blanks around commas */
	test_options_ok(&o, "--list", "--state", "stable, EMPTY", "--type", NULL);
	assert_int_equal(o.mode, LT_MODE_LIST);
	assert_true(o.list_state && o.list_type);
	assert_int_equal(o.state_mask, (1u << LT_GROUP_STABLE) | (1u << LT_GROUP_EMPTY));
	assert_int_equal(o.type_mask, 0);
	options_free(&o);
	test_options_ok(&o, "--list", "--type=consumer", "--state", NULL);
	assert_int_equal(o.type_mask, 1u << LT_GTYPE_CONSUMER);
	assert_int_equal(o.state_mask, 0);
	options_free(&o);
	/* -g is exact and -G a regex: both repeatable, kept apart */
	test_options_ok(&o, "--once", "-g", "pay", "-G", "^x", "--group-regex", "y$", NULL);
	assert_int_equal(o.n_groups, 1);
	assert_int_equal(o.n_group_regex, 2);
	options_free(&o);
	test_options_ok(&o, "--reset-offsets", "--all-groups", "--all-topics", "--to-earliest", NULL);
	assert_true(o.all_groups);
	options_free(&o);
	test_options_ok(&o, "--reset-offsets", "-g", "a", "-g", "b", "--all-topics", "--to-earliest", NULL);
	assert_int_equal(o.n_groups, 2);
	options_free(&o);
	test_options_ok(&o, "--describe", "-g", "a", "--command-config", "/x.properties", NULL);
	assert_string_equal(o.command_config, "/x.properties");
	options_free(&o);

	static const struct refusal bad[] = {
		/* the start of each message: its fixed words */
		{ { "--describe" }, "Option [describe] takes one of these options: [group], [all-groups]" },
		{ { "--describe", "-g", "a", "--members", "--state" },
		  "Option [describe] takes at most one of these options: [members], [offsets], [state]" },
		{ { "--describe", "-g", "a", "--state", "Stable" },
		  "Option [describe] does not take a value for [state]" },
		{ { "--list", "--group", "a" }, "Option \"[group]\" can't be used with option \"[list]\"" },
		{ { "--describe", "--all-groups", "-g", "a" },
		  "Option \"[group]\" can't be used with option \"[all-groups]\"" },
		{ { "--describe", "--all-groups", "--topic", "t" },
		  "Option \"[topic]\" can't be used with option \"[describe]\"" },
		{ { "--list", "--members" },
		  "Option(s) [members] are unavailable given other options on the command line" },
		{ { "--list", "--verbose" },
		  "Option(s) [verbose] are unavailable given other options on the command line" },
		{ { "--describe", "-g", "a", "--type" },
		  "Option(s) [type] are unavailable given other options on the command line" },
		{ { "--once", "--state" },
		  "Option(s) [state] are unavailable given other options on the command line" },
		{ { "--list", "--state", "Bogus" },
		  "Invalid state list 'Bogus'. Valid states are: PreparingRebalance, Reconciling, Dead, "
		  "CompletingRebalance, Stable, Assigning, Empty" },
		{ { "--list", "--state", "stable,,empty" }, "Invalid state list 'stable,,empty'. Valid states are: " },
		{ { "--list", "--type", "bogus" }, "Invalid types list 'bogus'. Valid types are: Consumer, Classic" },
		{ { "--describe", "--list", "-g", "a" },
		  "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, "
		  "--delete-offsets" },
		{ { "--describe", "-g", "a", "--reset-offsets" },
		  "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, "
		  "--delete-offsets" },
		{ { "--describe", "-G", "a" }, "--group-regex goes with --once and the dashboard" },
		{ { "--once", "--all-groups" },
		  "Option(s) [all-groups] are unavailable given other options on the command line" },
	};
	expect_refusals(bad, sizeof bad / sizeof bad[0], true);
}

/* --timeout: units always, bare numbers as kafka-consumer-groups' milliseconds from 1000 up, never a silent
 * misreading of lagtop's old bare seconds. */
static void timeout_rule(void **state)
{
	(void)state;
	char err[256];
	static const struct {
		const char *in;
		int ms; /* -1: refused */
		const char *needle;
	} cases[] = {
		{ "5000", 5000, NULL },
		{ "1000", 1000, NULL },
		{ "999", -1, "ambiguous" },
		{ "20", -1, "write 20s or 20ms" },
		{ "1", -1, "ambiguous" },
		{ "0", -1, "ambiguous" },
		{ "10s", 10000, NULL },
		{ "0.5s", 500, NULL },
		{ "100ms", 100, NULL },
		{ "99ms", -1, "between 100ms and 3600s" },
		{ "0.09s", -1, "between" },
		{ "3600s", 3600000, NULL },
		{ "3601s", -1, "between" },
		{ "3600000", 3600000, NULL },
		{ "3600001", -1, "between" },
		{ "1.5", -1, "expects a time" },
		{ "1500.0", -1, "expects a time" },
		{ "5 s", -1, "'5 s'" },
		{ "5sec", -1, "'5sec'" },
		{ "s", -1, "'s'" },
		{ "", -1, "''" },
		{ "-1s", -1, "'-1s'" },
		{ "nan", -1, "'nan'" },
		{ "1e99", -1, "'1e99'" },
		{ "inf", -1, "'inf'" },
		{ "1e3ms", -1, "'1e3ms'" },
		{ "0x10s", -1, "'0x10s'" },
		{ "99999999999999999999", -1, "between" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int ms = -7;
		err[0] = '\0';
		int rc = options_parse_timeout(cases[i].in, &ms, err, sizeof err);
		if (cases[i].ms >= 0 ? (rc != 0 || ms != cases[i].ms)
				     : (rc != -1 || ms != -7 || !strstr(err, cases[i].needle)))
			fail_msg("'%s': rc=%d ms=%d err='%s'", cases[i].in, rc, ms, err);
	}
	struct lt_options o;
	assert_int_equal(parse(&o, err, sizeof err, "--once", "--timeout", "30", NULL), -1);
	assert_non_null(strstr(err, "--timeout 30 is ambiguous"));
	options_free(&o);
	test_options_ok(&o, "--once", "--timeout", "2500", NULL);
	assert_int_equal(o.timeout_ms, 2500);
	options_free(&o);
}

static void dry_run_and_execute_conflict(void **state)
{
	(void)state;
	struct lt_options o;
	char err[256];
	assert_int_equal(parse(&o, err, sizeof err, "--reset-offsets", "-g", "g", "--topic", "t:0,1", "--shift-by",
			       "-5", "--dry-run", "--execute", NULL),
			 -1);
	assert_non_null(strstr(err, "Option [reset-offsets] only accepts one of [execute] and [dry-run]"));
	options_free(&o);
	test_options_ok(&o, "--reset-offsets", "-g", "g", "--topic", "t:0,1", "--shift-by", "-5", "--execute", NULL);
	assert_int_equal(o.target, LT_TARGET_SHIFT);
	assert_string_equal(o.target_arg, "-5");
	assert_true(o.execute);
	options_free(&o);
}

/* The modes are exclusive whatever their order; every conflicting pair is one line naming
 * both options (before, "--demo -X dump" ran the dump and "-X dump --demo" was refused). */
static void modes_conflict_in_any_order(void **state)
{
	(void)state;
	struct lt_options o;
	char err[256];
	static const struct {
		const char *args[2];
		const char *shown;
		lt_mode mode;
	} modes[] = {
		{ { "--once" }, "--once", LT_MODE_ONCE },
		{ { "--demo" }, "--demo", LT_MODE_DEMO },
		{ { "--reset-offsets" }, "--reset-offsets", LT_MODE_RESET },
		{ { "--undo", "g" }, "--undo", LT_MODE_UNDO },
		{ { "-X", "list" }, "-X list", LT_MODE_X_LIST },
		{ { "-X", "dump" }, "-X dump", LT_MODE_X_DUMP },
	};
	const size_t n = sizeof modes / sizeof modes[0];
	for (size_t a = 0; a < n; a++) {
		for (size_t b = 0; b < n; b++) {
			char *argv[8] = { (char *)"lagtop" };
			int argc = 1;
			for (int k = 0; k < 2 && modes[a].args[k]; k++)
				argv[argc++] = (char *)modes[a].args[k];
			for (int k = 0; k < 2 && modes[b].args[k]; k++)
				argv[argc++] = (char *)modes[b].args[k];
			argv[argc] = NULL;
			err[0] = '\0';
			int rc = options_parse(&o, argc, argv, err, sizeof err);
			if (a == b) {
				/* the same mode twice is still that mode (a reset still wants its -g and target) */
				if (o.mode != modes[a].mode)
					fail_msg("%s twice: mode %d", modes[a].shown, (int)o.mode);
			} else {
				char want[128];
				snprintf(want, sizeof want, "%s cannot be combined with %s", modes[a].shown,
					 modes[b].shown);
				if (rc != -1 || !strstr(err, want))
					fail_msg("%s then %s: rc=%d err='%s' (wanted '%s')", modes[a].shown,
						 modes[b].shown, rc, err, want);
				assert_null(strchr(err, '\n'));
			}
			options_free(&o);
		}
	}
	/* each mode alone, with its usual companions, still parses */
	test_options_ok(&o, "-X", "dump", "-b", "h:1", "-X", "client.id=x", NULL);
	assert_int_equal(o.mode, LT_MODE_X_DUMP);
	assert_int_equal(o.n_props, 1);
	options_free(&o);
	test_options_ok(&o, "-X", "client.id=x", "-X", "list", NULL);
	assert_int_equal(o.mode, LT_MODE_X_LIST);
	options_free(&o);
}

static void man_page_documents_every_option(void **state)
{
	(void)state;
	char *text = test_source_file("doc/lagtop.1");
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
	free(text);
}

/* What --help prints: malloc'd text. */
static char *help_text(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	options_print_help(f, "lagtop");
	fclose(f);
	return buf;
}

static void help_lists_every_option(void **state)
{
	(void)state;
	char *buf = help_text();
	for (size_t i = 0; options_long_name(i); i++) {
		char needle[128];
		snprintf(needle, sizeof needle, "--%s", options_long_name(i));
		if (!strstr(buf, needle))
			fail_msg("--help does not list %s", needle);
	}
	free(buf);
}

/* --help fits an 80-column terminal and a screen: no line wider than 80, at most 60 lines (every option's
 * description is in the man page). The layout packs each section's options, so rows added to the table
 * cost a line per few options, not one each. */
static void help_fits_80_columns_and_60_lines(void **state)
{
	(void)state;
	char *buf = help_text();
	int lines = 0;
	for (char *line = buf; *line;) {
		char *end = strchr(line, '\n');
		size_t w = end ? (size_t)(end - line) : strlen(line);
		if (w > 80)
			fail_msg("--help line %d is %zu columns: %.*s", lines + 1, w, (int)w, line);
		lines++;
		line = end ? end + 1 : line + w;
	}
	if (lines > 60)
		fail_msg("--help is %d lines", lines);
	free(buf);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(defaults_are_the_dashboard),
	cmocka_unit_test(once_with_format_groups_and_props),
	cmocka_unit_test(usage_errors_name_the_problem),
	cmocka_unit_test(kcg_command_line),
	cmocka_unit_test(timeout_rule),
	cmocka_unit_test(dry_run_and_execute_conflict),
	cmocka_unit_test(modes_conflict_in_any_order),
	cmocka_unit_test(record_and_replay_rules),
	cmocka_unit_test(man_page_documents_every_option),
	cmocka_unit_test(help_lists_every_option),
	cmocka_unit_test(help_fits_80_columns_and_60_lines),
};

LT_TEST_MAIN(NULL, NULL)
