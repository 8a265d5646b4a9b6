/* unread.c — see unread.h. */
#include "config.h"

#include "cli/unread.h"

#include <stdlib.h>
#include <string.h>

#include "cli/output.h"
#include "util/exit_status.h"
#include "util/xalloc.h"

/* How many names a cause's line shows before "...". */
#define NAMES_SHOWN 3

struct item {
	const char *reason;
	const char *group; /* NULL: a broker's list */
	int32_t broker;
};

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	int r = strcmp(x->reason, y->reason);
	if (r)
		return r;
	if (!x->group || !y->group)
		return (x->broker > y->broker) - (x->broker < y->broker);
	return strcmp(x->group, y->group);
}

/* Collects the groups (lists: false) or the brokers' lists (lists: true) not read, sorted by cause. */
static struct item *collect(const lt_snapshot *s, bool lists, size_t *n)
{
	struct item *v = xcalloc(s->n_groups + s->n_unread + 1, sizeof *v);
	*n = 0;
	for (size_t i = 0; !lists && i < s->n_groups; i++)
		if (s->groups[i].unread)
			v[(*n)++] = (struct item){ s->groups[i].error ? s->groups[i].error : "not read",
						   s->groups[i].group, -1 };
	for (size_t i = 0; i < s->n_unread; i++)
		if ((s->unread[i].group == NULL) == lists)
			v[(*n)++] = (struct item){ s->unread[i].reason, s->unread[i].group, s->unread[i].broker };
	if (*n > 1)
		qsort(v, *n, sizeof *v, cmp_item);
	return v;
}

/* The line of items [from, to), which share one cause. */
static void cause_line(FILE *err, const struct item *v, size_t from, size_t to, bool lists)
{
	size_t n = to - from;
	if (lists)
		fprintf(err, "lagtop: the group list%s of %zu broker%s not read (", n == 1 ? "" : "s", n,
			n == 1 ? "" : "s");
	else
		fprintf(err, "lagtop: %zu group%s not read (", n, n == 1 ? "" : "s");
	for (size_t i = from; i < to && i < from + NAMES_SHOWN; i++) {
		if (i > from)
			fputs(", ", err);
		if (lists) {
			fprintf(err, "broker %d", (int)v[i].broker);
		} else {
			char *name = output_sanitize(v[i].group);
			fputs(name, err);
			free(name);
		}
	}
	char *why = output_sanitize(v[from].reason);
	fprintf(err, "%s): %s%s\n", n > NAMES_SHOWN ? ", ..." : "", why,
		lists ? ": the groups they coordinate are missing" : "");
	free(why);
}

static void warn_kind(FILE *err, const lt_snapshot *s, bool lists)
{
	size_t n;
	struct item *v = collect(s, lists, &n);
	for (size_t from = 0; from < n;) {
		size_t to = from + 1;
		while (to < n && strcmp(v[to].reason, v[from].reason) == 0)
			to++;
		cause_line(err, v, from, to, lists);
		from = to;
	}
	free(v);
}

void unread_warn(FILE *err, const lt_snapshot *s)
{
	if (snapshot_read_whole(s))
		return;
	warn_kind(err, s, true);
	warn_kind(err, s, false);
}

int unread_exit(const lt_snapshot *s, int rc)
{
	return snapshot_read_whole(s) ? rc : LT_EXIT_CLUSTER;
}

static bool lists_unread(const lt_snapshot *s)
{
	for (size_t i = 0; i < s->n_unread; i++)
		if (!s->unread[i].group)
			return true;
	return false;
}

void unread_warn_lists(FILE *err, const lt_snapshot *s)
{
	if (lists_unread(s))
		warn_kind(err, s, true);
}

int unread_lists_exit(const lt_snapshot *s, int rc)
{
	return lists_unread(s) ? LT_EXIT_CLUSTER : rc;
}
