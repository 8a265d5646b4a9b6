/* test_util_wrap.c — the one word-wrapper (util/wrap.h): breaks at blanks and at the characters asked for, words
 * longer than the line split between characters (never inside one, nor inside an escape), widths in cells of the
 * safe form (wide characters 2, escapes their text), the same under any locale. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/wrap.h"
#include "../lib/cmocka_main.h"

/* text wrapped at cells, the lines shown joined with '|' */
static const char *wrapped(const char *text, int cells, bool utf8, const char *breaks)
{
	static char out[1024];
	size_t len = strlen(text), off = 0, o = 0, shown;
	out[0] = '\0';
	do {
		size_t next = wrap_line(text + off, len - off, cells, utf8, breaks, &shown);
		assert_true(next >= 1 || len == 0);
		assert_true(shown <= next);
		o += (size_t)snprintf(out + o, sizeof out - o, "%s%.*s", off ? "|" : "", (int)shown, text + off);
		off += next;
	} while (off < len);
	return out;
}

/* lines of wrapped(), counted by its separators, must be what wrap_count says */
static void count_matches(const char *text, int cells, bool utf8, const char *breaks)
{
	const char *w = wrapped(text, cells, utf8, breaks);
	size_t n = 1;
	for (const char *p = w; *p; p++)
		n += *p == '|';
	assert_int_equal(wrap_count(text, cells, utf8, breaks), n);
}

static void exact_fit_is_one_line(void **state)
{
	(void)state;
	size_t shown;
	assert_int_equal(wrap_line("hello", 5, 5, true, NULL, &shown), 5);
	assert_int_equal(shown, 5);
	assert_int_equal(wrap_count("hello world", 11, true, NULL), 1);
	assert_int_equal(wrap_count("hello world", 10, true, NULL), 2);
	/* the blank right after a line that fits exactly ends it, unseen */
	assert_int_equal(wrap_line("hello world", 11, 5, true, NULL, &shown), 6);
	assert_int_equal(shown, 5);
	/* blanks at the end need not fit */
	assert_int_equal(wrap_line("ab   ", 5, 2, true, NULL, &shown), 5);
	assert_int_equal(shown, 2);
	assert_int_equal(wrap_count("ab   ", 2, true, NULL), 1);
	assert_int_equal(wrap_count("", 5, true, NULL), 1);
}

static void words_break_at_the_last_blank_that_fits(void **state)
{
	(void)state;
	const char *t = "the group has no active members now";
	count_matches(t, 12, true, NULL);
	assert_string_equal(wrapped(t, 12, true, NULL), "the group|has no|active|members now");
	/* several blanks between words: none starts a line */
	assert_string_equal(wrapped("ab   cd ef", 4, true, NULL), "ab|cd|ef");
	/* a line's indent is no break: it stays on the first line */
	assert_string_equal(wrapped("  ab cd", 5, true, NULL), "  ab|cd");
}

static void a_word_longer_than_the_line_is_split(void **state)
{
	(void)state;
	assert_string_equal(wrapped("abcdefghij", 4, true, NULL), "abcd|efgh|ij");
	assert_string_equal(wrapped("ab abcdefghij", 4, true, NULL), "ab|abcd|efgh|ij");
	count_matches("ab abcdefghij", 4, true, NULL);
	/* a width of one cell still moves on, a character a line */
	assert_string_equal(wrapped("abc", 1, true, NULL), "a|b|c");
	/* no width: no wrapping */
	assert_string_equal(wrapped("abc def", 0, true, NULL), "abc def");
}

static void breaks_stay_at_the_line_end(void **state)
{
	(void)state;
	const char *t = "orders:0,1,2 audit:0-5,8";
	assert_string_equal(wrapped(t, 9, true, ","), "orders:0,|1,2|audit:0-5|,8");
	assert_string_equal(wrapped(t, 10, true, ","), "orders:0,|1,2|audit:0-5,|8");
	assert_string_equal(wrapped(t, 12, true, ","), "orders:0,1,2|audit:0-5,8");
	count_matches(t, 10, true, ",");
	/* without the comma as a break, the topic splits where the line ends */
	assert_string_equal(wrapped("orders:0,1,2", 10, true, NULL), "orders:0,1|,2");
}

static void multibyte_characters_are_measured_in_cells(void **state)
{
	(void)state;
	size_t shown;
	/* é is 2 bytes and 1 cell: "héllo" fits 5 cells in 6 bytes */
	assert_int_equal(wrap_line("h\xc3\xa9llo w\xc3\xb6rld", 13, 5, true, NULL, &shown), 7);
	assert_int_equal(shown, 6);
	assert_string_equal(wrapped("h\xc3\xa9llo w\xc3\xb6rld", 5, true, NULL), "h\xc3\xa9llo|w\xc3\xb6rld");
	/* CJK: 2 cells each, never cut in half: two a line at 5 cells */
	const char *cjk = "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x83\x86\xe3\x82\xad";
	assert_int_equal(wrap_line(cjk, strlen(cjk), 5, true, NULL, &shown), 6);
	assert_int_equal(wrap_count(cjk, 5, true, NULL), 3);
	count_matches(cjk, 5, true, NULL);
	/* wider than the line: one character anyway, whole */
	assert_int_equal(wrap_line(cjk, strlen(cjk), 1, true, NULL, &shown), 3);
	assert_int_equal(wrap_count(cjk, 1, true, NULL), 5);
	/* an escape is measured as shown: ESC is \x1b, 4 cells */
	assert_string_equal(wrapped("ab\x1b"
				    "cd",
				    5, true, NULL),
			    "ab|\x1b"
			    "c|d");
}

/* ASCII mode (--ascii, or a locale that is not UTF-8 such as LANG=C): a character is shown as its escape (é as
 * \u00e9, 6 cells) and wraps as one */
static void ascii_mode_measures_the_escapes(void **state)
{
	(void)state;
	size_t shown;
	assert_string_equal(wrapped("h\xc3\xa9llo", 7, false, NULL), "h\xc3\xa9|llo");
	/* wider than the line: taken whole, its 2 bytes together */
	assert_int_equal(wrap_line("\xc3\xa9llo", 5, 5, false, NULL, &shown), 2);
	assert_int_equal(shown, 2);
	count_matches("h\xc3\xa9llo w\xc3\xb6rld", 7, false, NULL);
	/* a bad byte is one \xNN escape of 4 cells */
	assert_string_equal(wrapped("a\xff"
				    "b",
				    5, true, NULL),
			    "a\xff|b");
}

/* The locale changes nothing: LANG=C and a UTF-8 locale wrap alike (the flag decides, never the locale). */
static void the_locale_changes_nothing(void **state)
{
	(void)state;
	const char *texts[] = { "h\xc3\xa9llo w\xc3\xb6rld and more", "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e x",
				"orders:0,1,2 audit:0-5,8" };
	char first[3][2][1024];
	const char *locales[] = { "C.UTF-8", "C" };
	for (size_t l = 0; l < 2; l++) {
		setlocale(LC_ALL, locales[l]); /* C.UTF-8 may be missing: then C twice, still a check of C */
		for (size_t i = 0; i < 3; i++)
			for (int u = 0; u < 2; u++) {
				const char *w = wrapped(texts[i], 6, u, ",");
				if (l == 0)
					snprintf(first[i][u], sizeof first[i][u], "%s", w);
				else
					assert_string_equal(w, first[i][u]);
			}
	}
	setlocale(LC_ALL, "C");
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(exact_fit_is_one_line),
	cmocka_unit_test(words_break_at_the_last_blank_that_fits),
	cmocka_unit_test(a_word_longer_than_the_line_is_split),
	cmocka_unit_test(breaks_stay_at_the_line_end),
	cmocka_unit_test(multibyte_characters_are_measured_in_cells),
	cmocka_unit_test(ascii_mode_measures_the_escapes),
	cmocka_unit_test(the_locale_changes_nothing),
};

LT_TEST_MAIN(NULL, NULL)
