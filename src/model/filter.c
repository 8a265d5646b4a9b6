/* filter.c — the row filter: case-insensitive substring, or an extended regex (also
 * case-insensitive) when the text contains a regex metacharacter. A text with a metacharacter
 * that does not compile is an error, not a silent substring search: the user meant a regex. */
#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/colkey.h"
#include "model/topic_view.h"
#include "util/regex.h"
#include "util/xalloc.h"

struct lt_filter {
	char *text;
	bool is_regex;
	regex_t re;
};

static const char metachars[] = ".[]()*+?{}|^$\\";

lt_filter *filter_new(const char *text, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = '\0';
	if (!text)
		text = "";
	lt_filter *f = xcalloc(1, sizeof *f);
	f->text = xstrdup(text);
	if (strpbrk(text, metachars)) {
		char why[128];
		if (regex_compile(&f->re, text, REG_EXTENDED | REG_ICASE | REG_NOSUB, why, sizeof why) != 0) {
			if (err && errlen)
				snprintf(err, errlen, "bad filter regex '%s': %s", text, why);
			free(f->text);
			free(f);
			return NULL;
		}
		f->is_regex = true;
	}
	return f;
}

/* ASCII case-insensitive substring search (names are ASCII in practice; bytes above 127 compare
 * exactly). */
static bool contains_icase(const char *hay, const char *needle)
{
	if (!*needle)
		return true;
	const unsigned char first = (unsigned char)tolower((unsigned char)*needle);
	for (; *hay; hay++) {
		if ((unsigned char)tolower((unsigned char)*hay) != first)
			continue;
		const char *h = hay, *n = needle;
		while (*n && *h && tolower((unsigned char)*h) == tolower((unsigned char)*n)) {
			h++;
			n++;
		}
		if (!*n)
			return true;
	}
	return false;
}

bool filter_match_name(const lt_filter *f, const char *s)
{
	if (!f || !f->text[0])
		return true;
	if (!s)
		return false;
	if (f->is_regex)
		return regexec(&f->re, s, 0, NULL, 0) == 0;
	return contains_icase(s, f->text);
}

/* A group row matches on its id or on any of its topics (so "orders" finds every group reading
 * orders); a partition row on its group id or its topic. The topic view mirrors it: a topic row on its
 * name or any group reading it, a topic's group row on the group id (the topic is the pane's). */
bool filter_match(const lt_filter *f, const lt_row *r)
{
	if (!f || !f->text[0])
		return true;
	if (r && r->topic && !r->group) {
		if (filter_match_name(f, r->topic->topic))
			return true;
		for (size_t i = 0; i < r->topic->n_groups; i++)
			if (filter_match_name(f, r->topic->entries[i].group->group))
				return true;
		return false;
	}
	if (!r || !r->group)
		return false;
	if (r->topic)
		return filter_match_name(f, r->group->group);
	if (filter_match_name(f, r->group->group))
		return true;
	if (r->part)
		return filter_match_name(f, r->part->topic);
	const char *prev = NULL;
	for (size_t i = 0; i < r->group->n_partitions; i++) {
		const char *t = r->group->partitions[i].topic;
		if (prev && strcmp(prev, t) == 0)
			continue; /* partitions are sorted by topic: test each topic once */
		prev = t;
		if (filter_match_name(f, t))
			return true;
	}
	return false;
}

const char *filter_text(const lt_filter *f)
{
	return f ? f->text : "";
}

void filter_free(lt_filter *f)
{
	if (!f)
		return;
	if (f->is_regex)
		regfree(&f->re);
	free(f->text);
	free(f);
}
