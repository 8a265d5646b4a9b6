/* test_util_csv.c — RFC 4180 writing and strict reading (util/csv). */
#define _GNU_SOURCE /* asprintf */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/csv.h"
#include "../lib/cmocka_main.h"

static void quoting_only_when_needed(void **state)
{
	(void)state;
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "plain", "plain" },       { "", "" },
		{ "a,b", "\"a,b\"" },       { "say \"hi\"", "\"say \"\"hi\"\"\"" },
		{ "l1\nl2", "\"l1\nl2\"" }, { "cr\r", "\"cr\r\"" },
		{ " lead", "\" lead\"" },   { "trail ", "\"trail \"" },
		{ "in side", "in side" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *q = csv_quote_dup(cases[i].in);
		assert_string_equal(q, cases[i].out);
		free(q);
	}
	char *q = csv_quote_dup(NULL);
	assert_string_equal(q, "");
	free(q);
}

static void rows_are_written(void **state)
{
	(void)state;
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	const char *row1[] = { "topic", "partition", "offset" };
	const char *row2[] = { "pay,ments", "0", "42" };
	assert_int_equal(csv_write_row(fp, row1, 3), 0);
	assert_int_equal(csv_write_row(fp, row2, 3), 0);
	fclose(fp);
	assert_string_equal(text, "topic,partition,offset\n\"pay,ments\",0,42\n");
	free(text);
}

static void split_ok(const char *line, size_t n, ...)
{
	lt_csv_fields f = { 0 };
	char err[128] = "";
	assert_int_equal(csv_split_line(line, strlen(line), &f, err, sizeof err), 0);
	assert_int_equal(f.n, n);
	va_list ap;
	va_start(ap, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(f.v[i], va_arg(ap, const char *));
	va_end(ap);
	csv_fields_free(&f);
}

static void split_accepts_rfc4180(void **state)
{
	(void)state;
	split_ok("a,b,c", 3, "a", "b", "c");
	split_ok("a,b,c\n", 3, "a", "b", "c");
	split_ok("a,b,c\r\n", 3, "a", "b", "c");
	split_ok("", 1, "");
	split_ok(",", 2, "", "");
	split_ok("a,,c,", 4, "a", "", "c", "");
	split_ok("\"a,b\",\"say \"\"hi\"\"\",\"\"", 3, "a,b", "say \"hi\"", "");
	split_ok("\"multi\nline\",x", 2, "multi\nline", "x");
	split_ok(" spaced , kept ", 2, " spaced ", " kept ");
}

static void split_err(const char *line, size_t len, const char *want)
{
	lt_csv_fields f = { 0 };
	char err[128] = "";
	assert_int_equal(csv_split_line(line, len, &f, err, sizeof err), -1);
	assert_string_equal(err, want);
	assert_int_equal(f.n, 0);
	assert_null(f.v);
}

static void split_is_strict(void **state)
{
	(void)state;
	split_err("a,\"open", 7, "unterminated quoted field starting at column 3");
	split_err("a\"b", 3, "stray quote in an unquoted field at column 2");
	split_err("\"a\"b,c", 6, "unexpected character after the closing quote at column 4");
	split_err("\"a\" ,c", 6, "unexpected character after the closing quote at column 4");
	split_err("a\0b", 3, "NUL byte at column 2");
	split_err("a\rb", 3, "line break in an unquoted field at column 2");
}

static FILE *file_with(const char *text)
{
	FILE *fp = tmpfile();
	assert_non_null(fp);
	fputs(text, fp);
	rewind(fp);
	return fp;
}

static void records_span_lines_in_quotes(void **state)
{
	(void)state;
	FILE *fp = file_with("topic,partition,offset\n\"two\nlines\",1,2\r\nlast,3,4");
	lt_csv_fields f = { 0 };
	size_t line = 0;
	char err[128];
	assert_int_equal(csv_read_record(fp, &f, &line, err, sizeof err), 1);
	assert_int_equal(f.n, 3);
	assert_int_equal(line, 1);
	assert_int_equal(csv_read_record(fp, &f, &line, err, sizeof err), 1);
	assert_string_equal(f.v[0], "two\nlines");
	assert_string_equal(f.v[2], "2");
	assert_int_equal(line, 3);
	assert_int_equal(csv_read_record(fp, &f, &line, err, sizeof err), 1);
	assert_string_equal(f.v[0], "last");
	assert_string_equal(f.v[2], "4");
	assert_int_equal(csv_read_record(fp, &f, &line, err, sizeof err), 0);
	assert_int_equal(f.n, 0);
	csv_fields_free(&f);
	fclose(fp);
}

static void record_errors_name_the_line(void **state)
{
	(void)state;
	lt_csv_fields f = { 0 };
	size_t line = 0;
	char err[128];
	FILE *fp = file_with("ok,1\nbad\"x,2\n");
	assert_int_equal(csv_read_record(fp, &f, &line, err, sizeof err), 1);
	assert_int_equal(csv_read_record(fp, &f, &line, err, sizeof err), -1);
	assert_string_equal(err, "line 2: stray quote in an unquoted field at column 4");
	fclose(fp);

	line = 0;
	fp = file_with("a,1\n\"never\nclosed,2\n");
	assert_int_equal(csv_read_record(fp, &f, &line, err, sizeof err), 1);
	assert_int_equal(csv_read_record(fp, &f, &line, err, sizeof err), -1);
	assert_string_equal(err, "line 2: unterminated quoted field starting at column 1");
	csv_fields_free(&f);
	fclose(fp);
}

static void write_then_read_round_trips(void **state)
{
	(void)state;
	const char *row[] = { "g,1", "\"q\"", "multi\nline", " sp ", "", "plain" };
	FILE *fp = tmpfile();
	assert_int_equal(csv_write_row(fp, row, 6), 0);
	rewind(fp);
	lt_csv_fields f = { 0 };
	size_t line = 0;
	char err[128];
	assert_int_equal(csv_read_record(fp, &f, &line, err, sizeof err), 1);
	assert_int_equal(f.n, 6);
	for (size_t i = 0; i < 6; i++)
		assert_string_equal(f.v[i], row[i]);
	csv_fields_free(&f);
	fclose(fp);
}

/* --once --format csv and --export: ids and names as text cells, terminal-safe and formula-guarded. */
static void text_cells_are_safe_and_guarded(void **state)
{
	(void)state;
	static const struct {
		const char *in, *field;
	} cases[] = {
		{ "plain", "plain" },
		{ "", "" },
		/* OWASP's examples: a quote in front, and the cell quoted */
		{ "=cmd|' /C calc'!A0", "\"'=cmd|' /C calc'!A0\"" },
		{ "@SUM(A1)", "\"'@SUM(A1)\"" },
		{ "-1+2", "\"'-1+2\"" },
		{ "+1", "\"'+1\"" },
		{ "=HYPERLINK(\"http://x.invalid\")", "\"'=HYPERLINK(\"\"http://x.invalid\"\")\"" },
		{ "=a,b", "\"'=a,b\"" },
		/* a leading quote gets the guard too, so the guard can be taken off exactly */
		{ "'=x", "\"''=x\"" },
		{ "'plain", "\"''plain\"" },
		/* TAB and CR are controls: escaped first, so the cell starts with a backslash, which is safe */
		{ "\t=1+1", "\\x09=1+1" },
		{ "\r=1", "\\x0d=1" },
		{ "a,\"b\"", "\"a,\"\"b\"\"\"" },
		{ "l1\nl2", "l1\\x0al2" },
		{ "osc\x1b]52;c;eA==\x07", "osc\\x1b]52;c;eA==\\x07" },
		{ "c1\xc2\x9b"
		  "31m",
		  "c1\\u009b31m" },
		{ "bidi\xe2\x80\xae"
		  "exe",
		  "bidi\\u202eexe" },
		{ "ls\xe2\x80\xa8"
		  "x",
		  "ls\\u2028x" },
		{ "bad\xff\xc3(", "bad\\xff\\xc3(" },
		{ "caf\xc3\xa9", "caf\xc3\xa9" },
		{ " =sp", "\" =sp\"" },
		{ "a=b-c", "a=b-c" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *f = csv_text_field_dup(cases[i].in);
		assert_string_equal(f, cases[i].field);
		free(f);
		/* the writer says the same */
		char *text = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&text, &len);
		csv_write_text_field(fp, cases[i].in);
		fclose(fp);
		assert_string_equal(text, cases[i].field);
		free(text);
	}
}

/* Printable names (the ones the sanitiser leaves alone) read back exactly: split, then unguard. */
static void guarded_cells_read_back_exactly(void **state)
{
	(void)state;
	const char *names[] = { "=cmd|' /C calc'!A0",
				"@SUM(A1)",
				"-1+2",
				"+1",
				"'=x",
				"''",
				"'",
				"'plain",
				"a,\"b\"",
				"=",
				"plain",
				"x'=",
				"-",
				"'-" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char *f = csv_text_field_dup(names[i]);
		char *line = NULL;
		assert_true(asprintf(&line, "%s,0", f) > 0);
		lt_csv_fields got = { 0 };
		char err[128];
		assert_int_equal(csv_split_line(line, strlen(line), &got, err, sizeof err), 0);
		assert_int_equal(got.n, 2);
		assert_string_equal(csv_formula_unguard(got.v[0]), names[i]);
		csv_fields_free(&got);
		free(line);
		free(f);
	}
	/* what no guard wrote is left alone: kafka-consumer-groups' own files */
	assert_string_equal(csv_formula_unguard("'x"), "'x");
	assert_string_equal(csv_formula_unguard("x'=1"), "x'=1");
	assert_string_equal(csv_formula_unguard(""), "");
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(quoting_only_when_needed),        cmocka_unit_test(rows_are_written),
	cmocka_unit_test(split_accepts_rfc4180),           cmocka_unit_test(split_is_strict),
	cmocka_unit_test(records_span_lines_in_quotes),    cmocka_unit_test(record_errors_name_the_line),
	cmocka_unit_test(write_then_read_round_trips),     cmocka_unit_test(text_cells_are_safe_and_guarded),
	cmocka_unit_test(guarded_cells_read_back_exactly),
};

LT_TEST_MAIN(NULL, NULL)
