/* test_ui_keys.c — the key table: names unique, every key documented in doc/lagtop.1, help
 * generated from it, and keys that change the cluster hidden in --read-only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/keys.h"

/* The names in the KEYS section: every word of the .B/.BR lines, with troff escapes undone. */
static char *man_key_names(void)
{
	const char *srcdir = getenv("LT_SRCDIR");
	char path[512];
	snprintf(path, sizeof path, "%s/doc/lagtop.1", srcdir ? srcdir : ".");
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	static char names[8192];
	char line[1024];
	bool in = false;
	names[0] = '\0';
	strcat(names, " ");
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, ".SH", 3) == 0) {
			in = strncmp(line, ".SH KEYS", 8) == 0;
			continue;
		}
		if (!in || (strncmp(line, ".B ", 3) != 0 && strncmp(line, ".BR ", 4) != 0))
			continue;
		char *p = strchr(line, ' ') + 1;
		for (char *tok = strtok(p, " \",\n"); tok; tok = strtok(NULL, " \",\n")) {
			char clean[64];
			size_t k = 0;
			for (const char *c = tok; *c && k + 1 < sizeof clean; c++) {
				if (*c == '\\' && c[1] == '-') {
					clean[k++] = '-';
					c++;
				} else {
					clean[k++] = *c;
				}
			}
			clean[k] = '\0';
			if (strlen(names) + k + 2 < sizeof names) {
				strcat(names, clean);
				strcat(names, " ");
			}
		}
	}
	fclose(f);
	return names;
}

static void every_key_is_in_the_man_page(void **state)
{
	(void)state;
	const char *names = man_key_names();
	size_t n = 0;
	for (size_t i = 0; keys_at(i); i++, n++) {
		char want[80];
		snprintf(want, sizeof want, " %s ", keys_at(i)->name);
		if (!strstr(names, want))
			fail_msg("doc/lagtop.1 (KEYS) does not list the key '%s'", keys_at(i)->name);
	}
	assert_true(n >= 20);
}

static void names_unique_codes_unique_help_present(void **state)
{
	(void)state;
	for (size_t i = 0; keys_at(i); i++) {
		const struct ui_key *a = keys_at(i);
		assert_non_null(a->action);
		assert_true(a->help && a->help[0]);
		assert_true(a->codes[0] != 0);
		assert_true(a->panes != 0);
		for (size_t j = i + 1; keys_at(j); j++) {
			const struct ui_key *b = keys_at(j);
			/* one key may do different things in different panes (Space: pause, or mark in the
			 * partitions pane), never two things in one pane */
			if (!(a->panes & b->panes)) {
				assert_string_not_equal(a->help, b->help);
				continue;
			}
			if (strcmp(a->name, b->name) == 0)
				fail_msg("key name '%s' twice", a->name);
			for (int x = 0; x < 3 && a->codes[x]; x++)
				for (int y = 0; y < 3 && b->codes[y]; y++)
					if (a->codes[x] == b->codes[y])
						fail_msg("keys '%s' and '%s' share a code", a->name, b->name);
		}
	}
}

static void issue_keys_are_all_there(void **state)
{
	(void)state;
	const char *want[] = {"q",   "?", "Up", "Down", "j", "k", "PgUp",  "PgDn", "Home", "End", "Tab", "Enter",
	                      "Esc", "/", "<",  ">",    "I", "p", "Space", "+",    "-",    "F5",  "m",   "t",
	                      /* the topic view, marks, the mouse and htop's function keys */
	                      "T",   "u", "M",  "F1",   "F3", "F4", "F6", "F10"};
	for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
		bool found = false;
		for (size_t i = 0; keys_at(i); i++)
			found = found || strcmp(keys_at(i)->name, want[w]) == 0;
		if (!found)
			fail_msg("no key '%s' in the table", want[w]);
	}
}

static void help_is_generated_from_the_table(void **state)
{
	(void)state;
	char **lines = keys_help_lines(false, 12);
	size_t n = 0;
	bool joined = false, quit = false;
	for (; lines[n]; n++) {
		joined = joined || strncmp(lines[n], "Up, k", 5) == 0;
		quit = quit || (strncmp(lines[n], "q, F10 ", 7) == 0 && strstr(lines[n], "quit"));
	}
	assert_true(joined); /* keys sharing a help line are listed together */
	assert_true(quit);
	size_t entries = 0;
	for (size_t i = 0; keys_at(i); i++)
		entries++;
	assert_true(n < entries);
	keys_help_free(lines);
}

static void read_only_removes_writing_keys(void **state)
{
	(void)state;
	struct ui_key k = {.flags = UI_KEY_WRITES};
	assert_false(keys_enabled(&k, true));
	assert_true(keys_enabled(&k, false));
	for (size_t i = 0; keys_at(i); i++)
		if (!(keys_at(i)->flags & UI_KEY_WRITES))
			assert_true(keys_enabled(keys_at(i), true));
	/* the read-only help never mentions a writing key */
	char **lines = keys_help_lines(true, 12);
	for (size_t i = 0; lines[i]; i++)
		for (size_t j = 0; keys_at(j); j++)
			if (keys_at(j)->flags & UI_KEY_WRITES)
				assert_null(strstr(lines[i], keys_at(j)->help));
	keys_help_free(lines);
}

/* htop's function keys replace their letters in the key bar from UI_KEY_BAR_WIDE_COLS on; at 80 columns the
 * bar is the letters', as before. */
static void key_bar_by_width(void **state)
{
	(void)state;
	const struct ui_key *q = NULL, *f10 = NULL, *f1 = NULL, *help = NULL, *t = NULL;
	for (size_t i = 0; keys_at(i); i++) {
		const struct ui_key *k = keys_at(i);
		if (strcmp(k->name, "q") == 0)
			q = k;
		else if (strcmp(k->name, "F10") == 0)
			f10 = k;
		else if (strcmp(k->name, "F1") == 0)
			f1 = k;
		else if (strcmp(k->name, "?") == 0)
			help = k;
		else if (strcmp(k->name, "t") == 0)
			t = k;
	}
	assert_non_null(q);
	assert_non_null(f10);
	assert_true(keys_in_bar(q, 80) && !keys_in_bar(f10, 80));
	assert_true(keys_in_bar(help, 80) && !keys_in_bar(f1, 80));
	assert_true(!keys_in_bar(q, UI_KEY_BAR_WIDE_COLS) && keys_in_bar(f10, UI_KEY_BAR_WIDE_COLS));
	assert_true(keys_in_bar(f1, 200) && !keys_in_bar(help, 200));
	assert_true(keys_in_bar(t, 80) && keys_in_bar(t, 200)); /* keys without a twin: always */
	/* the help joins each F-key with its letter */
	char **lines = keys_help_lines(false, 12);
	bool quit = false, filter = false;
	for (size_t i = 0; lines[i]; i++) {
		quit = quit || strncmp(lines[i], "q, F10 ", 7) == 0;
		filter = filter || strncmp(lines[i], "/, F3, F4 ", 10) == 0;
	}
	assert_true(quit);
	assert_true(filter);
	keys_help_free(lines);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(every_key_is_in_the_man_page),   cmocka_unit_test(names_unique_codes_unique_help_present),
	    cmocka_unit_test(issue_keys_are_all_there),       cmocka_unit_test(help_is_generated_from_the_table),
	    cmocka_unit_test(read_only_removes_writing_keys), cmocka_unit_test(key_bar_by_width),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
