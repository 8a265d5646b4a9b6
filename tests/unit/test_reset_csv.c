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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(three_columns),  cmocka_unit_test(four_columns),
		cmocka_unit_test(malformed),      cmocka_unit_test(quoted_group_ids),
		cmocka_unit_test(no_commit_rows), cmocka_unit_test(export_and_backup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
