/* test_ui_keys.c — the key tables (the main one and each mode's: the filter prompt, the cluster chooser,
 * the popups): names and codes unique within a mode, every key documented in doc/lagtop.1 under its
 * mode, help generated from them, and keys that change the cluster hidden in --read-only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/keys.h"
#include "ui/reset_dialog.h"
#include "ui/replay.h"
#include "../lib/cmocka_main.h"

/* Adds the words of a .B/.BR line to names (" a b c "), with troff escapes undone and quotes dropped. */
static void add_line_names(char *names, size_t size, char *line)
{
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
		if (strlen(names) + k + 2 < size) {
			strcat(names, clean);
			strcat(names, " ");
		}
	}
}

/* Whether a man page line is the heading of the paragraph for `mode`: .B "Filter prompt" (or .B Popups). */
static bool is_mode_heading(const char *line, const char *mode)
{
	char want[128];
	snprintf(want, sizeof want, ".B \"%s\"\n", mode);
	if (strcmp(line, want) == 0)
		return true;
	snprintf(want, sizeof want, ".B %s\n", mode);
	return strcmp(line, want) == 0;
}

/* The key names the KEYS section lists for a mode: every word of the .B/.BR lines of its paragraphs. The
 * main table's (mode NULL) are those before the first .PP; another mode's, those of the .PP paragraph that
 * starts with its heading, up to the next heading or .SH. Returns " name name ... ". */
static char *man_key_names(const char *mode)
{
	const char *srcdir = getenv("LT_SRCDIR");
	char path[512];
	snprintf(path, sizeof path, "%s/doc/lagtop.1", srcdir ? srcdir : ".");
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	static char names[8192];
	char line[1024];
	bool in_keys = false, in = false, after_pp = false;
	snprintf(names, sizeof names, " ");
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, ".SH", 3) == 0) {
			in_keys = strncmp(line, ".SH KEYS", 8) == 0;
			in = in_keys && !mode;
			continue;
		}
		if (!in_keys)
			continue;
		if (strncmp(line, ".PP", 3) == 0) {
			if (!mode)
				in = false; /* the main table's keys end at the first paragraph */
			after_pp = true;
			continue;
		}
		if (after_pp && mode && strncmp(line, ".B ", 3) == 0) {
			bool heading = is_mode_heading(line, mode);
			if (heading || in) /* a heading of ours starts our part; another .PP .B heading ends it */
				in = heading;
			after_pp = false;
			if (heading)
				continue;
		}
		after_pp = false;
		if (in && (strncmp(line, ".B ", 3) == 0 || strncmp(line, ".BR ", 4) == 0))
			add_line_names(names, sizeof names, line);
	}
	fclose(f);
	return names;
}

static void every_key_is_in_the_man_page(void **state)
{
	(void)state;
	const char *names = man_key_names(NULL);
	size_t n = 0;
	for (size_t i = 0; keys_at(i); i++, n++) {
		char want[80];
		snprintf(want, sizeof want, " %s ", keys_at(i)->name);
		if (!strstr(names, want))
			fail_msg("doc/lagtop.1 (KEYS) does not list the key '%s'", keys_at(i)->name);
	}
	assert_true(n >= 20);
}

/* Every mode's keys are listed under that mode's heading in the KEYS section (.PP, .B "Filter prompt"). */
static void every_modes_keys_are_in_the_man_page(void **state)
{
	(void)state;
	size_t modes = 0;
	assert_ptr_equal(keys_mode_at(0), &keys_main_mode);
	for (size_t m = 1; keys_mode_at(m); m++, modes++) {
		const struct ui_key_mode *mode = keys_mode_at(m);
		const char *names = man_key_names(mode->name);
		if (strcmp(names, " ") == 0)
			fail_msg("doc/lagtop.1 (KEYS) has no paragraph headed .B \"%s\"", mode->name);
		for (size_t i = 0; i < mode->n; i++) {
			char want[80];
			snprintf(want, sizeof want, " %s ", mode->keys[i].name);
			if (!strstr(names, want))
				fail_msg("doc/lagtop.1 (KEYS, %s) does not list the key '%s'", mode->name,
					 mode->keys[i].name);
		}
	}
	assert_true(modes >= 3); /* the filter prompt, the cluster chooser, the popups */
	/* the paragraphs are told apart: the filter's ^U is not the chooser's */
	assert_null(strstr(man_key_names("Cluster chooser"), " ^U "));
	assert_non_null(strstr(man_key_names("Filter prompt"), " ^U "));
}

/* Within one mode's table: no code twice for the same pane, no name twice, every entry with a code, a
 * name, a help line and an action; a mode with a heading in the help says what opens it. */
static void every_mode_table_is_well_formed(void **state)
{
	(void)state;
	for (size_t m = 0; keys_mode_at(m); m++) {
		const struct ui_key_mode *mode = keys_mode_at(m);
		assert_non_null(mode->name);
		assert_true(mode->n > 0);
		assert_true(m == 0 || (mode->opened_by && mode->opened_by[0]));
		for (size_t i = 0; i < mode->n; i++) {
			const struct ui_key *a = &mode->keys[i];
			if (!a->name || !a->name[0] || !a->help || !a->help[0] || !a->action || !a->codes[0] ||
			    !a->panes)
				fail_msg("%s: entry %zu ('%s') lacks a name, help, action, code or pane", mode->name, i,
					 a->name ? a->name : "");
			for (size_t j = i + 1; j < mode->n; j++) {
				const struct ui_key *b = &mode->keys[j];
				if (!(a->panes & b->panes))
					continue;
				if (strcmp(a->name, b->name) == 0)
					fail_msg("%s: key name '%s' twice", mode->name, a->name);
				for (int x = 0; x < 3 && a->codes[x]; x++)
					for (int y = 0; y < 3 && b->codes[y]; y++)
						if (a->codes[x] == b->codes[y])
							fail_msg("%s: keys '%s' and '%s' share a code", mode->name,
								 a->name, b->name);
			}
		}
		/* its help comes from its table */
		char **lines = keys_mode_help_lines(mode, false, 12);
		size_t n = 0;
		for (; lines[n]; n++)
			;
		assert_true(n > 0 && n <= mode->n);
		keys_help_free(lines);
	}
}

/* The replay's keys (replay_keys.c): in the man page, none of them a key of the main table (which works
 * unchanged in a replay), and in the help screen's lines. */
static void replay_keys_documented_and_apart(void **state)
{
	(void)state;
	const char *names = man_key_names("Replay");
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
	const char *want[] = { "q", "?", "Up", "Down", "j", "k", "PgUp", "PgDn", "Home", "End", "Tab", "Enter", "Esc",
			       "/", "<", ">", "I", "p", "Space", "+", "-", "F5", "m", "t",
			       /* the topic view, marks, the mouse and htop's function keys */
			       "T", "u", "M", "F1", "F3", "F4", "F6", "F10" };
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
	struct ui_key k = { .flags = UI_KEY_WRITES };
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

/* The reset and delete dialog's table (reset_dialog.c): the same checks, per step, and its paragraph in
 * lagtop(1). */
static void reset_dialog_table_is_well_formed_and_documented(void **state)
{
	(void)state;
	const char *names = man_key_names(RD_KEYS_HEADING);
	size_t n = 0;
	for (size_t i = 0; rd_keys_at(i); i++, n++) {
		const struct rd_key_def *a = rd_keys_at(i);
		if (!a->name || !a->name[0] || !a->help || !a->help[0] || !a->action || !a->codes[0] || !a->steps)
			fail_msg("reset dialog: entry %zu ('%s') lacks a name, help, action, code or step", i,
				 a->name ? a->name : "");
		char want[80];
		snprintf(want, sizeof want, " %s ", a->name);
		if (!strstr(names, want))
			fail_msg("doc/lagtop.1 (KEYS, %s) does not list the key '%s'", RD_KEYS_HEADING, a->name);
		for (size_t j = i + 1; rd_keys_at(j); j++) {
			const struct rd_key_def *b = rd_keys_at(j);
			if (!(a->steps & b->steps))
				continue; /* Enter previews, commits or closes: one entry per step */
			if (strcmp(a->name, b->name) == 0)
				fail_msg("reset dialog: key name '%s' twice in one step", a->name);
			for (int x = 0; x < 3 && a->codes[x]; x++)
				for (int y = 0; y < 3 && b->codes[y]; y++)
					if (a->codes[x] == b->codes[y])
						fail_msg("reset dialog: keys '%s' and '%s' share a code in one step",
							 a->name, b->name);
		}
	}
	assert_true(n >= 10);
	/* Esc works at every step (it refuses only while a commit runs) */
	assert_int_equal(rd_keys_at(0)->steps, RD_IN(RD_TARGET) | RD_IN(RD_WORKING) | RD_IN(RD_PREVIEW) |
						       RD_IN(RD_REFUSED) | RD_IN(RD_ERROR) | RD_IN(RD_RESULT));
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(every_key_is_in_the_man_page),
	cmocka_unit_test(names_unique_codes_unique_help_present),
	cmocka_unit_test(issue_keys_are_all_there),
	cmocka_unit_test(help_is_generated_from_the_table),
	cmocka_unit_test(read_only_removes_writing_keys),
	cmocka_unit_test(key_bar_by_width),
	cmocka_unit_test(every_modes_keys_are_in_the_man_page),
	cmocka_unit_test(every_mode_table_is_well_formed),
	cmocka_unit_test(reset_dialog_table_is_well_formed_and_documented),
	cmocka_unit_test(replay_keys_documented_and_apart),
};

LT_TEST_MAIN(NULL, NULL)
