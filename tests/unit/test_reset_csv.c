/* test_reset_csv.c — kafka-consumer-groups' reset CSV: both forms, the import rules, every malformed line,
 * export and the backup form. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reset/csv.h"
#include "reset/plan.h"
#include "../lib/cmocka_main.h"

static void parse_ok(const char *text, const char *group, size_t want_n, lt_reset_csv_row **rows)
{
	char err[256] = "";
	size_t n = 0;
	if (reset_csv_parse(text, group, rows, &n, err, sizeof err) != 0)
		fail_msg("rejected: %s", err);
	assert_int_equal(n, want_n);
}

static void parse_bad(const char *text, const char *want)
{
	char err[256] = "";
	lt_reset_csv_row *rows = NULL;
	size_t n = 0;
	if (reset_csv_parse(text, "g", &rows, &n, err, sizeof err) == 0)
		fail_msg("accepted: %s", text);
	if (strcmp(err, want) != 0)
		fail_msg("error '%s', want '%s'", err, want);
	assert_null(rows);
}

static void three_columns(void **state)
{
	(void)state;
	lt_reset_csv_row *r;
	parse_ok("t,0,5\nt,1,6\nother.topic-x_y,2,0\n", "g", 3, &r);
	assert_string_equal(r[0].topic, "t");
	assert_int_equal(r[1].partition, 1);
	assert_int_equal(r[1].offset, 6);
	assert_int_equal(r[2].line, 3);
	assert_null(r[0].group);
	reset_csv_rows_free(r, 3);

	/* CRLF, no final newline, blank lines, quoted fields (as a CSV writer may produce) */
	parse_ok("t,0,5\r\n\r\n\"t\",\"1\",\"9223372036854775807\"", "g", 2, &r);
	assert_int_equal(r[1].offset, INT64_MAX);
	assert_int_equal(r[1].line, 3);
	reset_csv_rows_free(r, 2);

	/* the same partition twice with the same offset is harmless */
	parse_ok("t,0,5\nt,0,5\n", "g", 1, &r);
	reset_csv_rows_free(r, 1);
}

static void four_columns(void **state)
{
	(void)state;
	lt_reset_csv_row *r;
	parse_ok("a,t,0,5\ng,t,1,6\ng,u,0,7\nb,t,0,1\n", "g", 2, &r);
	assert_string_equal(r[0].group, "g");
	assert_string_equal(r[1].topic, "u");
	assert_int_equal(r[0].line, 2);
	reset_csv_rows_free(r, 2);
	parse_bad("a,t,0,5\nb,t,1,6\n", "No reset plan for group g found.");
	parse_bad("", "No reset plan for group g found.");
	parse_bad("\n\n", "No reset plan for group g found.");
}

static void malformed(void **state)
{
	(void)state;
	parse_bad("t,0,5\nt,1\n", "line 2: expected 3 fields (topic,partition,offset), got 2");
	parse_bad("t,0,5\ng,t,1,6\n", "line 2: expected 3 fields (topic,partition,offset), got 4");
	parse_bad("g,t,0,5\nt,1,6\n", "line 2: expected 4 fields (group,topic,partition,offset), got 3");
	parse_bad("t\n", "line 1: expected 4 fields (group,topic,partition,offset), got 1");
	parse_bad("a,b,c,d,e,f,g\n", "line 1: expected 4 fields (group,topic,partition,offset), got more than 5");
	parse_bad("t,x,5\n", "line 1: partition 'x' is not a whole number from 0 to 2147483647");
	parse_bad("t,-1,5\n", "line 1: partition '-1' is not a whole number from 0 to 2147483647");
	parse_bad("t,2147483648,5\n", "line 1: partition '2147483648' is not a whole number from 0 to 2147483647");
	parse_bad("t,0,5x\n", "line 1: offset '5x' is not a whole number");
	parse_bad("t,0,\n", "line 1: offset '' is not a whole number");
	parse_bad("t,0, 5\n", "line 1: offset ' 5' is not a whole number");
	parse_bad("t,0,99999999999999999999\n", "line 1: offset '99999999999999999999' is not a whole number");
	parse_bad("t,0,-3\n", "line 1: offset -3 is negative");
	parse_bad(",0,5\n", "line 1: '' is not a valid topic name");
	parse_bad("bad topic,0,5\n", "line 1: 'bad topic' is not a valid topic name");
	parse_bad(",t,0,5\n", "line 1: the group is empty");
	parse_bad("t,0,5\nt,0,6\n", "line 2: partition t-0 was already given on line 1 with another offset (5)");
	/* an error in another group's rows still stops the import: the file is bad */
	parse_bad("other,t,x,5\ng,t,0,1\n", "line 1: partition 'x' is not a whole number from 0 to 2147483647");
}

/* The 4-column form is RFC 4180 CSV like every CSV lagtop reads (one reader, util/csv.h):
 * a group id may hold commas, quotes and line breaks, all legal in Kafka. Before, '"a,b",t,0,5' was
 * "expected 4 fields" and '"x""y",t,0,5' looked up the group x""y. */
static void quoted_group_ids(void **state)
{
	(void)state;
	char err[256] = "";
	lt_reset_csv_row *r = NULL;
	size_t n = 0;

	assert_int_equal(reset_csv_parse("\"a,b\",t,0,5\nother,t,1,6\n", "a,b", &r, &n, err, sizeof err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(r[0].group, "a,b");
	assert_string_equal(r[0].topic, "t");
	assert_int_equal(r[0].offset, 5);
	reset_csv_rows_free(r, n);

	assert_int_equal(reset_csv_parse("\"x\"\"y\",t,0,5\n", "x\"y", &r, &n, err, sizeof err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(r[0].group, "x\"y");
	reset_csv_rows_free(r, n);
	/* the doubled quote is not the group x""y */
	assert_int_equal(reset_csv_parse("\"x\"\"y\",t,0,5\n", "x\"\"y", &r, &n, err, sizeof err), -1);
	assert_string_equal(err, "No reset plan for group x\"\"y found.");

	/* a quoted line break: the record is named by its first line, the next by its own */
	assert_int_equal(reset_csv_parse("\"two\nlines\",t,0,5\ng,t,1,6\ng,t,x,7\n", "g", &r, &n, err, sizeof err), -1);
	assert_string_equal(err, "line 4: partition 'x' is not a whole number from 0 to 2147483647");
	assert_int_equal(reset_csv_parse("\"two\nlines\",t,0,5\ng,t,1,6\n", "two\nlines", &r, &n, err, sizeof err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(r[0].line, 1);
	reset_csv_rows_free(r, n);

	/* strict quoting: the reader's error, with the line */
	parse_bad("x\"y,t,0,5\n", "line 1: stray quote in an unquoted field at column 2");
	parse_bad("g,t,0,5\n\"open,t,0,5\n", "line 2: unterminated quoted field starting at column 1");
	parse_bad("\"g\"x,t,0,5\n", "line 1: unexpected character after the closing quote at column 4");

	/* the export quotes a group id that needs it, and reads back as the same group */
	lt_reset_plan pl = { .group = (char *)"a,\"b\"" };
	lt_reset_row row = { .topic = (char *)"t", .partition = 3, .new_offset = 9 };
	pl.rows = &row;
	pl.n_rows = 1;
	char *two = reset_csv_export((const lt_reset_plan *const[]){ &pl, &pl }, 2);
	assert_string_equal(two, "\"a,\"\"b\"\"\",t,3,9\n\"a,\"\"b\"\"\",t,3,9\n");
	assert_int_equal(reset_csv_parse(two, "a,\"b\"", &r, &n, err, sizeof err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(r[0].partition, 3);
	reset_csv_rows_free(r, n);
	free(two);
}

/* "No commit" rows. A backup records a partition that had no commit before the reset as an
 * empty offset; --undo (from_backup) reads it as LT_OFFSET_NONE, --from-file keeps the strict rule, and
 * a backup written before this form reads as it always did. */
static void no_commit_rows(void **state)
{
	(void)state;
	char err[256];
	lt_reset_csv_row *r = NULL;
	size_t n = 0;
	assert_int_equal(reset_csv_parse_ex("pay,0,50\npay,2,\r\n\npay,1,\n", "g", true, &r, &n, err, sizeof err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(r[0].offset, 50);
	assert_int_equal(r[1].offset, LT_OFFSET_NONE);
	assert_int_equal(r[1].partition, 2);
	assert_int_equal(r[2].offset, LT_OFFSET_NONE);
	reset_csv_rows_free(r, n);
	/* a group whose backup is all "no commit" (it had no commits at all) */
	assert_int_equal(reset_csv_parse_ex("pay,0,\npay,1,\n", "g", true, &r, &n, err, sizeof err), 0);
	assert_int_equal(n, 2);
	reset_csv_rows_free(r, n);
	/* the 4-column form too, and still strict about everything else */
	assert_int_equal(reset_csv_parse_ex("g,pay,0,\n", "g", true, &r, &n, err, sizeof err), 0);
	assert_int_equal(r[0].offset, LT_OFFSET_NONE);
	reset_csv_rows_free(r, n);
	assert_int_equal(reset_csv_parse_ex("pay,0,-3\n", "g", true, &r, &n, err, sizeof err), -1);
	assert_string_equal(err, "line 1: offset -3 is negative");
	assert_int_equal(reset_csv_parse_ex("pay,0,\npay,0,5\n", "g", true, &r, &n, err, sizeof err), -1);
	assert_string_equal(err, "line 2: partition pay-0 was already given on line 1 with another offset (no commit)");
	assert_int_equal(reset_csv_parse_ex("pay,0, \n", "g", true, &r, &n, err, sizeof err), -1);
	assert_string_equal(err, "line 1: offset ' ' is not a whole number");
	/* --from-file: an offset is a number, as kafka-consumer-groups wants */
	parse_bad("pay,0,\n", "line 1: offset '' is not a whole number");
	/* an old backup (no such rows) reads the same both ways */
	assert_int_equal(reset_csv_parse_ex("pay,0,50\npay,1,150\n", "g", true, &r, &n, err, sizeof err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(r[1].offset, 150);
	reset_csv_rows_free(r, n);
}

static void export_and_backup(void **state)
{
	(void)state;
	char err[256];
	lt_reset_input in;
	reset_input_init(&in);
	in.state = LT_GROUP_EMPTY;
	const char *topics[] = { "b", "a", "a" };
	int parts[] = { 0, 1, 0 };
	int64_t committed[] = { 7, 3, LT_OFFSET_NONE };
	for (int i = 0; i < 3; i++) {
		lt_reset_part *p = reset_input_part(&in, topics[i], parts[i]);
		p->exists = p->has_leader = true;
		p->committed = committed[i];
		p->log_start = 0;
		p->log_end = 10;
		reset_input_topic(&in, topics[i], true);
	}
	char *backup = reset_csv_backup(&in);
	/* sorted; a-0 had no commit: an empty offset (it used to be left out, so undo could not restore it) */
	assert_string_equal(backup, "a,0,\na,1,3\nb,0,7\n");

	/* the backup re-imports, as --undo reads it, as a plan that restores exactly that state */
	lt_reset_request rq;
	assert_int_equal(reset_request_init(&rq, "g", LT_RESET_FILE, "backup.csv", 0, err, sizeof err), 0);
	rq.from_backup = true;
	assert_int_equal(reset_request_load_csv(&rq, backup, err, sizeof err), 0);
	lt_reset_plan *p = reset_plan_build(&rq, &in, err, sizeof err);
	assert_non_null(p);
	assert_int_equal(p->n_rows, 3);
	assert_int_equal(p->n_changed, 0); /* a-0 has no commit now either: deleting nothing changes nothing */
	assert_int_equal(p->n_deletes, 1);

	char *one = reset_csv_export((const lt_reset_plan *const[]){ p }, 1);
	assert_string_equal(one, backup);
	free(one);

	lt_reset_plan *p2 = reset_plan_build(&rq, &in, err, sizeof err);
	free(p2->group);
	p2->group = strdup("h");
	char *two = reset_csv_export((const lt_reset_plan *const[]){ p, p2 }, 2);
	assert_string_equal(two, "g,a,0,\ng,a,1,3\ng,b,0,7\nh,a,0,\nh,a,1,3\nh,b,0,7\n");
	free(two);

	reset_plan_free(p);
	reset_plan_free(p2);
	free(backup);
	reset_request_free(&rq);
	reset_input_free(&in);
}

/* Topic names a cluster may give (lagtop-sim takes any): the backup holds them exactly, RFC 4180 quoted,
 * unguarded, and reads back through --undo's parser as the same names and offsets; reset_csv_backup_check
 * says so before a commit, and catches a backup that would not. */
static const char *const hostile_topics[] = {
	"=HYPERLINK(\"http://x.invalid\")",
	"a,b",
	"q\"q",
	"cr\r\nlf",
	"lf\nonly",
	"\x1b[31mred",
	"bad\xff\xc3(",
	"bidi\xe2\x80\xae"
	"exe",
	"'=x",
	"-1+2",
	"@SUM(A1)",
	"\t=1+1",
	" lead",
	"trail ",
	"c1\xc2\x9b",
	"plain",
};
#define N_HOSTILE (sizeof hostile_topics / sizeof hostile_topics[0])

static void hostile_input(lt_reset_input *in)
{
	reset_input_init(in);
	in->state = LT_GROUP_EMPTY;
	for (size_t i = 0; i < N_HOSTILE; i++) {
		lt_reset_part *p = reset_input_part(in, hostile_topics[i], (int32_t)i);
		p->exists = p->has_leader = true;
		p->committed = i % 3 == 0 ? LT_OFFSET_NONE : (int64_t)i * 10;
		reset_input_topic(in, hostile_topics[i], true);
	}
}

static void backups_round_trip_hostile_topics(void **state)
{
	(void)state;
	char err[256];
	lt_reset_input in;
	hostile_input(&in);
	char *backup = reset_csv_backup(&in);
	/* quoted where needed, never guarded: a backup is a machine file */
	assert_non_null(strstr(backup, "\"=HYPERLINK(\"\"http://x.invalid\"\")\",0,\n"));
	assert_non_null(strstr(backup, "\"cr\r\nlf\",3,\n"));
	assert_non_null(strstr(backup, "\n'=x,8,80\n"));
	lt_reset_csv_row *r = NULL;
	size_t n = 0;
	if (reset_csv_parse_ex(backup, "g", true, &r, &n, err, sizeof err))
		fail_msg("the backup does not read back: %s\n%s", err, backup);
	assert_int_equal(n, N_HOSTILE);
	for (size_t i = 0; i < n; i++) {
		size_t k = (size_t)r[i].partition;
		assert_true(k < N_HOSTILE);
		assert_string_equal(r[i].topic, hostile_topics[k]);
		assert_int_equal(r[i].offset, k % 3 == 0 ? LT_OFFSET_NONE : (int64_t)k * 10);
	}
	reset_csv_rows_free(r, n);
	assert_int_equal(reset_csv_backup_check(backup, &in, err, sizeof err), 0);

	/* what the check refuses: the old unquoted form, a missing row, another offset */
	assert_int_equal(reset_csv_backup_check("=HYPERLINK(\"http://x.invalid\"),0,\n", &in, err, sizeof err), -1);
	assert_string_equal(err, "it does not read back: line 1: stray quote in an unquoted field at column 12");
	char *cut = strdup(backup);
	*strrchr(cut, '\n') = '\0';
	*(strrchr(cut, '\n') + 1) = '\0';
	assert_int_equal(reset_csv_backup_check(cut, &in, err, sizeof err), -1);
	assert_non_null(strstr(err, "missing"));
	free(cut);
	in.parts[1].committed = 11;
	assert_int_equal(reset_csv_backup_check(backup, &in, err, sizeof err), -1);
	assert_string_equal(err, "it does not read back: partition 1 of a topic is another offset");
	free(backup);
	reset_input_free(&in);

	/* --from-file keeps kafka-consumer-groups' rule: a plan names legal topics */
	lt_reset_csv_row *rr = NULL;
	assert_int_equal(reset_csv_parse("\"a,b\",0,5\n", "g", &rr, &n, err, sizeof err), -1);
	assert_string_equal(err, "line 1: 'a,b' is not a valid topic name");
}

/* --export: names are text cells (formula-guarded, terminal-safe); --from-file takes the guard off. */
static void export_is_guarded_and_reads_back(void **state)
{
	(void)state;
	char err[256];
	lt_reset_row rows[] = { { .topic = (char *)"-dash", .partition = 0, .new_offset = 5 },
				{ .topic = (char *)"t", .partition = 1, .new_offset = LT_OFFSET_NONE } };
	const char *groups[] = { "=cmd|' /C calc'!A0", "@SUM(A1)", "'=x", "+1", "a,\"b\"", "plain" };
	lt_reset_plan pl[6];
	const lt_reset_plan *pp[6];
	for (size_t i = 0; i < 6; i++) {
		pl[i] = (lt_reset_plan){ .group = (char *)groups[i], .rows = rows, .n_rows = 2 };
		pp[i] = &pl[i];
	}
	char *one = reset_csv_export(pp, 1);
	assert_string_equal(one, "\"'-dash\",0,5\nt,1,\n");
	lt_reset_csv_row *r = NULL;
	size_t n = 0;
	assert_int_equal(reset_csv_parse(one, "g", &r, &n, err, sizeof err), -1); /* an offset is a number */
	free(one);
	pl[0].n_rows = 1;
	one = reset_csv_export(pp, 1);
	assert_int_equal(reset_csv_parse(one, "g", &r, &n, err, sizeof err), 0);
	assert_string_equal(r[0].topic, "-dash");
	reset_csv_rows_free(r, n);
	free(one);
	for (size_t i = 0; i < 6; i++)
		pl[i].n_rows = 1;
	char *all = reset_csv_export(pp, 6);
	assert_string_equal(all, "\"'=cmd|' /C calc'!A0\",\"'-dash\",0,5\n"
				 "\"'@SUM(A1)\",\"'-dash\",0,5\n"
				 "\"''=x\",\"'-dash\",0,5\n"
				 "\"'+1\",\"'-dash\",0,5\n"
				 "\"a,\"\"b\"\"\",\"'-dash\",0,5\n"
				 "plain,\"'-dash\",0,5\n");
	for (size_t i = 0; i < 6; i++) {
		if (reset_csv_parse(all, groups[i], &r, &n, err, sizeof err))
			fail_msg("group %s: %s", groups[i], err);
		assert_int_equal(n, 1);
		assert_string_equal(r[0].group, groups[i]);
		assert_string_equal(r[0].topic, "-dash");
		reset_csv_rows_free(r, n);
	}
	free(all);
	/* a control byte in a group id: the export shows it escaped, never raw */
	pl[0].group = (char *)"osc\x1b]52;c;eA==\x07";
	all = reset_csv_export(pp, 2);
	assert_non_null(strstr(all, "osc\\x1b]52;c;eA==\\x07,\"'-dash\",0,5\n"));
	assert_null(strchr(all, '\x1b'));
	free(all);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(three_columns),
	cmocka_unit_test(four_columns),
	cmocka_unit_test(malformed),
	cmocka_unit_test(quoted_group_ids),
	cmocka_unit_test(no_commit_rows),
	cmocka_unit_test(export_and_backup),
	cmocka_unit_test(backups_round_trip_hostile_topics),
	cmocka_unit_test(export_is_guarded_and_reads_back),
};

LT_TEST_MAIN(NULL, NULL)
