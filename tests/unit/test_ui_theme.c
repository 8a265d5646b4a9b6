/* test_ui_theme.c — theme files: the shipped ones parse, bad ones fail with a clear message, the
 * theme list orders and overrides by name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../lib/lagtop_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui/theme.h"
#include "../lib/cmocka_main.h"

static const char *write_file(const char *name, const char *text)
{
	static char path[512];
	snprintf(path, sizeof path, "%s/%s", test_folder, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static const char *srcdir(void)
{
	const char *s = getenv("LT_SRCDIR");
	return s ? s : ".";
}

static void shipped_themes_parse_and_differ_from_builtin(void **state)
{
	(void)state;
	const char *names[] = { "default", "light", "high-contrast" };
	struct ui_theme builtin;
	theme_builtin(&builtin, false);
	for (size_t i = 0; i < 3; i++) {
		char path[512], err[256] = "";
		struct ui_theme t;
		snprintf(path, sizeof path, "%s/themes/%s.conf", srcdir(), names[i]);
		if (theme_parse_file(path, &t, err, sizeof err) != 0)
			fail_msg("%s", err);
		assert_string_equal(t.name, names[i]);
		assert_false(t.mono);
		if (i == 0)
			assert_memory_equal(t.style, builtin.style, sizeof t.style); /* the file is the built-in */
		else
			assert_memory_not_equal(t.style, builtin.style, sizeof t.style);
	}
}

static void roles_override_only_what_is_named(void **state)
{
	(void)state;
	const char *p = write_file("x.conf", "name = \"x\";\nroles = {\n  header = { fg = \"bright-red\"; bg = 17; "
					     "attrs = [ \"bold\", \"underline\" ]; };\n};\n");
	struct ui_theme t, def;
	char err[256];
	theme_builtin(&def, false);
	assert_int_equal(theme_parse_file(p, &t, err, sizeof err), 0);
	assert_int_equal(t.style[UI_ROLE_HEADER].fg, 9);
	assert_int_equal(t.style[UI_ROLE_HEADER].bg, 17);
	assert_int_equal(t.style[UI_ROLE_HEADER].attrs, UI_A_BOLD | UI_A_UNDERLINE);
	assert_memory_equal(&t.style[UI_ROLE_CURSOR], &def.style[UI_ROLE_CURSOR], sizeof def.style[0]);
	assert_string_equal(role_name(UI_ROLE_STATUS_STOP), "status-stop");
}

static void expect_error(const char *file, const char *text, const char *needle)
{
	const char *p = write_file(file, text);
	struct ui_theme t;
	char err[256] = "";
	assert_int_equal(theme_parse_file(p, &t, err, sizeof err), -1);
	if (!strstr(err, needle))
		fail_msg("error '%s' does not mention '%s'", err, needle);
	if (!strstr(err, file))
		fail_msg("error '%s' does not name the file", err);
}

static void bad_files_give_clear_errors(void **state)
{
	(void)state;
	expect_error("role.conf", "roles = { headr = { fg = \"red\"; }; };\n", "unknown colour role 'headr'");
	expect_error("colour.conf", "roles = {\n header = { fg = \"purpel\"; };\n};\n", "purpel");
	expect_error("colour.conf", "roles = {\n header = { fg = \"purpel\"; };\n};\n", ":2:");
	expect_error("num.conf", "roles = { header = { bg = 300; }; };\n", "bad colour");
	expect_error("attr.conf", "roles = { header = { attrs = [ \"blink\" ]; }; };\n", "'blink'");
	expect_error("field.conf", "roles = { header = { colour = \"red\"; }; };\n", "unknown field");
	expect_error("syntax.conf", "roles = { header = { fg = \"red\" };\n", "syntax.conf:");
	expect_error("top.conf", "colours = 1;\n", "unknown setting");
	struct ui_theme t;
	char err[256];
	assert_int_equal(theme_parse_file("/nonexistent/dir/none.conf", &t, err, sizeof err), -1);
	assert_non_null(strstr(err, "cannot read"));
}

static void list_orders_overrides_and_loads(void **state)
{
	(void)state;
	char sys[300], user[300];
	snprintf(sys, sizeof sys, "%s/themes", srcdir());
	snprintf(user, sizeof user, "%s", test_folder);
	write_file("zebra.conf", "name = \"zebra\";\n");
	write_file("light.conf", "roles = { header = { fg = \"red\"; }; };\n"); /* user override */
	write_file("broken.conf", "roles = {\n");
	const char *dirs[] = { sys, user, "/nonexistent" };
	struct ui_theme_list l;
	theme_list_scan(&l, dirs, 3);
	assert_true(l.n >= 6);
	assert_string_equal(l.e[0].name, "default");
	assert_string_equal(l.e[1].name, "light");
	assert_string_equal(l.e[2].name, "high-contrast");
	assert_string_equal(l.e[l.n - 1].name, "mono");
	assert_true(theme_list_find(&l, "zebra") > 2);
	assert_int_equal(theme_list_find(&l, "nope"), -1);

	struct ui_theme t;
	char err[256];
	assert_int_equal(theme_list_load(&l, 1, &t, err, sizeof err), 0);
	assert_int_equal(t.style[UI_ROLE_HEADER].fg, UI_C_RED); /* the user's file won */
	assert_string_equal(t.name, "light");
	assert_int_equal(theme_list_load(&l, l.n - 1, &t, err, sizeof err), 0);
	assert_true(t.mono);
	int b = theme_list_find(&l, "broken");
	assert_true(b >= 0);
	assert_int_equal(theme_list_load(&l, (size_t)b, &t, err, sizeof err), -1);
	assert_non_null(strstr(err, "broken.conf"));
	theme_list_free(&l);
}

static void glyph_sets(void **state)
{
	(void)state;
	const struct ui_glyphs *a = glyphs_get(true), *u = glyphs_get(false);
	for (int i = 0; i < 8; i++) {
		for (const char *c = a->spark[i]; *c; c++)
			assert_true((unsigned char)*c < 128);
		assert_true((unsigned char)u->spark[i][0] >= 128);
	}
	assert_string_equal(a->ellipsis, "~");
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(shipped_themes_parse_and_differ_from_builtin),
	cmocka_unit_test(roles_override_only_what_is_named),
	cmocka_unit_test(bad_files_give_clear_errors),
	cmocka_unit_test(list_orders_overrides_and_loads),
	cmocka_unit_test(glyph_sets),
};

LT_TEST_MAIN(test_folder_setup, test_folder_teardown)
