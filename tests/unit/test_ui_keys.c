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
#include "ui/replay.h"

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

/* The replay's keys (replay_keys.c): in the man page, none of them a key of the main table (which works
 * unchanged in a replay), and in the help screen's lines. */
static void replay_keys_documented_and_apart(void **state)
{
	(void)state;
	const char *names = man_key_names();
	size_t n = 0;
	for (size_t i = 0; replay_keys_at(i); i++, n++) {
		const struct ui_key *r = replay_keys_at(i);
		char want[80];
		snprintf(want, sizeof want, " %s ", r->name);
		if (!strstr(names, want))
			fail_msg("doc/lagtop.1 (KEYS) does not list the replay key '%s'", r->name);
		assert_non_null(r->action);
		for (size_t j = 0; keys_at(j); j++)
			for (int y = 0; y < 3 && keys_at(j)->codes[y]; y++)
				if (keys_at(j)->codes[y] == r->codes[0])
					fail_msg("replay key '%s' is the main table's '%s'", r->name, keys_at(j)->name);
		for (size_t j = i + 1; replay_keys_at(j); j++)
			if (replay_keys_at(j)->codes[0] == r->codes[0])
				fail_msg("replay key '%s' twice", r->name);
	}
	assert_true(n >= 9);
	char **lines = replay_help_lines(12);
	size_t nl = 0;
	for (; lines[nl]; nl++)
		assert_non_null(strstr(lines[nl], replay_keys_at(nl)->help));
	assert_int_equal(nl, n);
	keys_help_free(lines);
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
	                      "Esc", "/", "<",  ">",    "I", "p", "Space", "+",    "-",    "F5",  "m",   "t"};
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
		quit = quit || (strncmp(lines[n], "q ", 2) == 0 && strstr(lines[n], "quit"));
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(every_key_is_in_the_man_page),   cmocka_unit_test(names_unique_codes_unique_help_present),
	    cmocka_unit_test(issue_keys_are_all_there),       cmocka_unit_test(help_is_generated_from_the_table),
	    cmocka_unit_test(read_only_removes_writing_keys), cmocka_unit_test(replay_keys_documented_and_apart),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
