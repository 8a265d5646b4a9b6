/* test_util_sanitize.c — hostile names become safe, width-correct terminal text (util/sanitize, util/utf8). */
#include "config.h" /* _GNU_SOURCE for wcwidth */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "util/errbuf.h"
#include "util/sanitize.h"
#include "util/utf8.h"
#include "../lib/cmocka_main.h"

static void decode_rejects_bad_sequences(void **state)
{
	(void)state;
	uint32_t cp;
	assert_int_equal(utf8_decode("A", 1, &cp), 1);
	assert_int_equal(cp, 'A');
	assert_int_equal(utf8_decode("\xc3\xa9", 2, &cp), 2);
	assert_int_equal(cp, 0xE9);
	assert_int_equal(utf8_decode("\xf0\x9f\x98\x80", 4, &cp), 4);
	assert_int_equal(cp, 0x1F600);
	/* overlong '/', surrogate, above U+10FFFF, lone continuation, truncated, bad continuation */
	const char *bad[] = { "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
			      "\x80",     "\xe4\xb8",     "\xe4\x41\x41", "\xff" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(utf8_decode(bad[i], strlen(bad[i]), &cp), 1);
		assert_true(cp == UTF8_INVALID);
	}
	/* a length limit cuts a valid sequence */
	assert_int_equal(utf8_decode("\xc3\xa9", 1, &cp), 1);
	assert_true(cp == UTF8_INVALID);
}

static void encode_round_trips(void **state)
{
	(void)state;
	const uint32_t cps[] = { 0x41, 0x7FF, 0x800, 0xFFFD, 0x10000, 0x10FFFF };
	for (size_t i = 0; i < sizeof cps / sizeof cps[0]; i++) {
		char b[4];
		uint32_t back;
		size_t n = utf8_encode(cps[i], b);
		assert_true(n >= 1 && n <= 4);
		assert_int_equal(utf8_decode(b, n, &back), n);
		assert_int_equal(back, cps[i]);
	}
	char b[4];
	assert_int_equal(utf8_encode(0xD800, b), 0);
	assert_int_equal(utf8_encode(0x110000, b), 0);
}

static void widths_follow_wcwidth(void **state)
{
	(void)state;
	static const struct {
		uint32_t cp;
		int w;
	} cases[] = {
		{ 'a', 1 },     { 0xE9, 1 },   { 0x0301, 0 }, { 0x4E2D, 2 }, { 0xAC00, 2 }, { 0xFF21, 2 },
		{ 0x1F600, 2 }, { 0x200B, 0 }, { 0x3000, 2 }, { 0x0E31, 0 }, { 0x1160, 0 }, { 0x20AC, 1 },
		{ 0x2603, 1 },  { 0x1B, -1 },  { 0x7F, -1 },  { 0x9B, -1 },  { 0xFE0F, 0 }, { 0x20000, 2 },
	};
	/* the table must agree with the C library's wcwidth where a UTF-8 locale exists */
	bool have_locale = setlocale(LC_CTYPE, "C.UTF-8") != NULL;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(utf8_cp_width(cases[i].cp), cases[i].w);
		if (have_locale)
			assert_int_equal(wcwidth((wchar_t)cases[i].cp), cases[i].w);
	}
	setlocale(LC_CTYPE, "C");
}

static void check_safe(const char *in, bool utf8, const char *want)
{
	char out[256];
	size_t need = sanitize_display(in, out, sizeof out, utf8);
	assert_string_equal(out, want);
	assert_int_equal(need, strlen(want));
}

static void controls_and_escapes_are_shown_escaped(void **state)
{
	(void)state;
	check_safe("plain-group_1.x", true, "plain-group_1.x");
	check_safe("\x1b[2J\x1b]0;pwned\x07", true, "\\x1b[2J\\x1b]0;pwned\\x07");
	check_safe("a\nb\rc\td", true, "a\\x0ab\\x0dc\\x09d");
	check_safe("del\x7f", true, "del\\x7f");
	check_safe("c1\xc2\x9b"
		   "31m",
		   true, "c1\\u009b31m"); /* CSI as a C1 control */
	check_safe("bad\xff\xfe!", true, "bad\\xff\\xfe!");
	check_safe("cut\xe4\xb8", true, "cut\\xe4\\xb8");
	check_safe("back\\slash", true, "back\\slash");
	check_safe(NULL, true, "");
}

static void unicode_is_kept_or_escaped_by_mode(void **state)
{
	(void)state;
	check_safe("caf\xc3\xa9 \xe4\xb8\xad", true, "caf\xc3\xa9 \xe4\xb8\xad");
	check_safe("caf\xc3\xa9 \xe4\xb8\xad", false, "caf\\u00e9 \\u4e2d");
	check_safe("\xf0\x9f\x98\x80", false, "\\U0001f600");
	/* bidi override and line separator are escaped even in UTF-8 mode */
	check_safe("a\xe2\x80\xae"
		   "b\xe2\x80\xa8"
		   "c",
		   true, "a\\u202eb\\u2028c");
}

static void output_is_cut_at_whole_units(void **state)
{
	(void)state;
	char out[8];
	/* "ab" + "\x1b" (4 bytes) would need 6 + NUL = 7: fits; one more byte does not */
	assert_int_equal(sanitize_display("ab\x1b"
					  "cd",
					  out, sizeof out, true),
			 8);
	assert_string_equal(out, "ab\\x1bc");
	char small[5];
	assert_int_equal(sanitize_display("a\x1b", small, sizeof small, true), 5);
	assert_string_equal(small, "a"); /* never half an escape */
	char u[4];
	sanitize_display("a\xe4\xb8\xad", u, sizeof u, true);
	assert_string_equal(u, "a"); /* never half a character */
	char *d = sanitize_dup("x\x1by", true);
	assert_string_equal(d, "x\\x1by");
	free(d);
}

static void widths_count_cells(void **state)
{
	(void)state;
	assert_int_equal(display_width("abc", true), 3);
	assert_int_equal(display_width("\xe4\xb8\xad\xe6\x96\x87", true), 4);
	assert_int_equal(display_width("e\xcc\x81", true), 1);     /* e + combining acute */
	assert_int_equal(display_width("\x1b", true), 4);          /* shown as \x1b */
	assert_int_equal(display_width("\xe4\xb8\xad", false), 6); /* shown as \u4e2d */
	assert_int_equal(display_width("", true), 0);
}

static void check_fit(const char *in, int cells, bool utf8, const char *want, int want_w)
{
	char out[128];
	int w = fit_cells(in, cells, utf8, out, sizeof out);
	assert_string_equal(out, want);
	assert_int_equal(w, want_w);
	assert_int_equal(display_width(out, utf8), want_w);
}

static void fit_truncates_with_ellipsis(void **state)
{
	(void)state;
	check_fit("payments", 10, true, "payments", 8);
	check_fit("payments", 8, true, "payments", 8);
	check_fit("payments", 7, true, "paymen\xe2\x80\xa6", 7);
	check_fit("payments", 7, false, "paymen~", 7);
	check_fit("payments", 1, true, "\xe2\x80\xa6", 1);
	check_fit("payments", 0, true, "", 0);
	check_fit("payments", -3, true, "", 0);
	/* a wide character that would straddle the limit is left out: 中文字 in 4 cells */
	check_fit("\xe4\xb8\xad\xe6\x96\x87\xe5\xad\x97", 4, true, "\xe4\xb8\xad\xe2\x80\xa6", 3);
	check_fit("\xe4\xb8\xad\xe6\x96\x87\xe5\xad\x97", 5, true, "\xe4\xb8\xad\xe6\x96\x87\xe2\x80\xa6", 5);
	/* an escape is never split: "ab\x1b" in 5 cells → "ab" + ellipsis */
	check_fit("ab\x1bzz", 5, true, "ab\xe2\x80\xa6", 3);
	/* combining marks stay with their base */
	check_fit("e\xcc\x81tude", 3, true, "e\xcc\x81t\xe2\x80\xa6", 3);
}

static void fit_respects_small_buffers(void **state)
{
	(void)state;
	char out[6];
	/* 10 cells allowed but only 5 bytes of room: cut by the buffer, still marked */
	int w = fit_cells("abcdefghij", 10, false, out, sizeof out);
	assert_string_equal(out, "abcd~");
	assert_int_equal(w, 5);
	char tiny[1];
	assert_int_equal(fit_cells("abc", 3, true, tiny, sizeof tiny), 0);
	assert_string_equal(tiny, "");
}

static void fit_padded_aligns(void **state)
{
	(void)state;
	char out[64];
	assert_int_equal(fit_cells_padded("ab", 5, true, false, out, sizeof out), 5);
	assert_string_equal(out, "ab   ");
	assert_int_equal(fit_cells_padded("ab", 5, true, true, out, sizeof out), 5);
	assert_string_equal(out, "   ab");
	assert_int_equal(fit_cells_padded("\xe4\xb8\xad\xe6\x96\x87", 3, true, false, out, sizeof out), 3);
	assert_string_equal(out, "\xe4\xb8\xad\xe2\x80\xa6");
}

static void hostile_long_name_is_bounded(void **state)
{
	(void)state;
	size_t n = 1 << 20;
	char *big = malloc(n + 1);
	for (size_t i = 0; i < n; i++)
		big[i] = (i % 3 == 0) ? '\x1b' : (i % 3 == 1) ? '\xff' : '\xe4';
	big[n] = '\0';
	char out[64];
	int w = fit_cells(big, 20, true, out, sizeof out);
	assert_true(w <= 20);
	assert_null(strchr(out, '\x1b'));
	/* printable ASCII (the escapes) and the ellipsis at the end, nothing else */
	size_t len = strlen(out);
	assert_true(len >= 3);
	assert_string_equal(out + len - 3, "\xe2\x80\xa6");
	for (size_t i = 0; i + 3 < len; i++)
		assert_true(out[i] >= 0x20 && out[i] < 0x7f);
	free(big);
}

/* err_set keeps every error one terminal-safe line, whatever the quoted input holds. */
static void err_set_escapes_control_bytes(void **state)
{
	(void)state;
	char err[128];
	assert_int_equal(err_set(err, sizeof err, "invalid datetime '%s': bad", "2026\n\x1b[2Jx"), -1);
	for (const char *c = err; *c; c++)
		assert_true((unsigned char)*c >= 0x20 && *c != 0x7f);
	assert_non_null(strstr(err, "invalid datetime '2026"));
	assert_non_null(strstr(err, "[2Jx': bad"));
	/* text escaped before stays as it was, and valid UTF-8 is kept */
	err_set(err, sizeof err, "%s", "already \\x1b escaped, caf\xc3\xa9");
	assert_string_equal(err, "already \\x1b escaped, caf\xc3\xa9");
	/* cut to the buffer, NUL-terminated */
	char small[8];
	err_set(small, sizeof small, "%s", "0123456789");
	assert_int_equal(strlen(small), 7);
}

/* The one rule every output applies: which characters are never written raw. */
static void unsafe_characters_are_one_rule(void **state)
{
	(void)state;
	static const struct {
		const char *in;
		size_t len;
		bool unsafe;
	} cases[] = {
		{ "a", 1, false },
		{ "\x1b", 1, true },
		{ "\x07", 1, true },
		{ "\r", 1, true },
		{ "\t", 1, true },
		{ "\x7f", 1, true },
		{ "\xc2\x80", 2, true },          /* U+0080 */
		{ "\xc2\x9b", 2, true },          /* C1 CSI */
		{ "\xc2\x9f", 2, true },          /* U+009F */
		{ "\xc2\xa0", 2, false },         /* NBSP */
		{ "\xd8\x9c", 2, true },          /* U+061C arabic letter mark */
		{ "\xe2\x80\x8e", 3, true },      /* U+200E */
		{ "\xe2\x80\x8f", 3, true },      /* U+200F */
		{ "\xe2\x80\xa8", 3, true },      /* U+2028 */
		{ "\xe2\x80\xa9", 3, true },      /* U+2029 */
		{ "\xe2\x80\xaa", 3, true },      /* U+202A */
		{ "\xe2\x80\xae", 3, true },      /* U+202E */
		{ "\xe2\x81\xa6", 3, true },      /* U+2066 */
		{ "\xe2\x81\xa9", 3, true },      /* U+2069 */
		{ "\xe2\x81\xaa", 3, false },     /* U+206A: not a bidi control */
		{ "\xe2\x80\xaf", 3, false },     /* U+202F narrow no-break space */
		{ "\xc3\xa9", 2, false },         /* é */
		{ "\xf0\x9f\x98\x80", 4, false }, /* emoji */
		{ "\xff", 1, true },              /* not UTF-8 */
		{ "\xc3(", 1, true },             /* truncated */
		{ "\xed\xa0\x80", 1, true },      /* a surrogate */
		{ "\xc0\xaf", 1, true },          /* overlong */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint32_t cp;
		bool unsafe;
		size_t n = sanitize_next(cases[i].in, strlen(cases[i].in), &cp, &unsafe);
		assert_int_equal(n, cases[i].len);
		if (unsafe != cases[i].unsafe)
			fail_msg("case %zu: unsafe %d, want %d", i, unsafe, cases[i].unsafe);
		/* and the display form escapes exactly those */
		char out[64];
		sanitize_display(cases[i].in, out, sizeof out, true);
		if (cases[i].unsafe)
			assert_true(out[0] == '\\');
	}
}

/* kafka-consumer-groups pads by Java's String.length(): UTF-16 units, whatever the bytes or the cells */
static void java_length_counts_utf16_units(void **state)
{
	(void)state;
	assert_int_equal(utf8_java_length(NULL), 0);
	assert_int_equal(utf8_java_length("orders"), 6);
	assert_int_equal(utf8_java_length("grp-\xc3\xbc"
					  "n\xc3\xaf"
					  "c\xc3\xb8"
					  "d\xc3\xa9-\xe7\xbb\x84"),
			 13);                                      /* 19 bytes */
	assert_int_equal(utf8_java_length("\xf0\x9f\x98\x80"), 2); /* a surrogate pair */
	assert_int_equal(utf8_java_length("a\xff"
					  "b"),
			 3); /* an invalid byte: one U+FFFD */
}

/* err_append gathers one operation's errors in one line, each distinct message once. */
static void err_append_lists_each_error_once(void **state)
{
	(void)state;
	char *list = NULL;
	err_append(&list, "ListOffsets (broker %d): %s", 1, "timed out");
	assert_string_equal(list, "ListOffsets (broker 1): timed out");
	err_append(&list, "ListOffsets (broker %d): %s", 1, "timed out");
	err_append(&list, "DescribeGroups: %s", "denied");
	assert_string_equal(list, "ListOffsets (broker 1): timed out; DescribeGroups: denied");
	free(list);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(decode_rejects_bad_sequences),
	cmocka_unit_test(err_set_escapes_control_bytes),
	cmocka_unit_test(err_append_lists_each_error_once),
	cmocka_unit_test(encode_round_trips),
	cmocka_unit_test(java_length_counts_utf16_units),
	cmocka_unit_test(widths_follow_wcwidth),
	cmocka_unit_test(controls_and_escapes_are_shown_escaped),
	cmocka_unit_test(unicode_is_kept_or_escaped_by_mode),
	cmocka_unit_test(output_is_cut_at_whole_units),
	cmocka_unit_test(widths_count_cells),
	cmocka_unit_test(fit_truncates_with_ellipsis),
	cmocka_unit_test(fit_respects_small_buffers),
	cmocka_unit_test(fit_padded_aligns),
	cmocka_unit_test(hostile_long_name_is_bounded),
	cmocka_unit_test(unsafe_characters_are_one_rule),
};

LT_TEST_MAIN(NULL, NULL)
