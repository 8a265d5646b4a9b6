/* commitwatch.c — the not-committing flag (commitwatch.h): a hash table of (group, topic, partition). */
#include "position/commitwatch.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "util/xalloc.h"

#define FORGET_AFTER 30

struct entry {
	char *group, *topic; /* NULL: free slot */
	int32_t partition;
	int64_t committed; /* when it last changed (or was first seen) */
	int64_t position;  /* the position then, or when first reported since; -1 unknown */
	int64_t since_ms;
	uint64_t seen;    /* generation */
	bool commit_seen; /* since_ms is a change of the committed offset seen here, not the first sight */
};

struct lt_commitwatch {
	int64_t window_ms;
	uint64_t gen;
	size_t cap, used; /* cap: a power of two */
	struct entry *slots;
};

lt_commitwatch *commitwatch_new(int64_t window_ms)
{
	lt_commitwatch *w = xcalloc(1, sizeof *w);
	w->window_ms = window_ms;
	w->cap = 64;
	w->slots = xcalloc(w->cap, sizeof *w->slots);
	return w;
}

void commitwatch_free(lt_commitwatch *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->cap; i++) {
		free(w->slots[i].group);
		free(w->slots[i].topic);
	}
	free(w->slots);
	free(w);
}

static uint64_t hash(const char *g, const char *t, int32_t p)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */
	for (; *g; g++)
		h = (h ^ (unsigned char)*g) * 1099511628211ULL;
	h = (h ^ 0xff) * 1099511628211ULL;
	for (; *t; t++)
		h = (h ^ (unsigned char)*t) * 1099511628211ULL;
	return (h ^ (uint32_t)p) * 1099511628211ULL;
}

/* The entry of (g, t, p); a new one when create (NULL otherwise). */
static struct entry *lookup(lt_commitwatch *w, const char *g, const char *t, int32_t p, bool create, bool *fresh)
{
	size_t i = hash(g, t, p) & (w->cap - 1);
	for (;; i = (i + 1) & (w->cap - 1)) {
		struct entry *e = &w->slots[i];
		if (!e->group) {
			if (!create)
				return NULL;
			*fresh = true;
			e->group = xstrdup(g);
			e->topic = xstrdup(t);
			e->partition = p;
			w->used++;
			return e;
		}
		if (e->partition == p && !strcmp(e->group, g) && !strcmp(e->topic, t)) {
			*fresh = false;
			return e;
		}
	}
}

/* Rebuilds the table with the entries seen lately, at a size that keeps it at most half full. */
static void rebuild(lt_commitwatch *w, size_t want)
{
	size_t cap = 64;
	while (cap < want * 2)
		cap *= 2;
	struct entry *old = w->slots;
	size_t old_cap = w->cap;
	w->slots = xcalloc(cap, sizeof *w->slots);
	w->cap = cap;
	w->used = 0;
	for (size_t i = 0; i < old_cap; i++) {
		struct entry *e = &old[i];
		if (!e->group)
			continue;
		if (w->gen - e->seen > FORGET_AFTER) {
			free(e->group);
			free(e->topic);
			continue;
		}
		size_t k = hash(e->group, e->topic, e->partition) & (cap - 1);
		while (w->slots[k].group)
			k = (k + 1) & (cap - 1);
		w->slots[k] = *e;
		w->used++;
	}
	free(old);
}

void commitwatch_apply(lt_commitwatch *w, lt_snapshot *s)
{
	w->gen++;
	size_t n = 0; /* the most entries this call can add */
	for (size_t g = 0; g < s->n_groups; g++)
		for (size_t i = 0; i < s->groups[g].n_partitions; i++)
			n += s->groups[g].partitions[i].has_position;
	if ((w->used + n) * 2 > w->cap || w->gen % FORGET_AFTER == 0)
		rebuild(w, w->used + n);
	int64_t now = s->taken_at_ms;
	for (size_t g = 0; g < s->n_groups; g++) {
		lt_group *grp = &s->groups[g];
		for (size_t i = 0; i < grp->n_partitions; i++) {
			lt_partition *p = &grp->partitions[i];
			p->flags &= ~(unsigned)(LT_PF_NOT_COMMITTING | LT_PF_COMMITTING_KNOWN);
			if (p->flags & LT_PF_STALE)
				continue; /* last round's committed offset: says nothing new (unknown) */
			/* only partitions with a position get an entry: on a cluster of 300,000 partitions where
			 * a few consumers publish, the table holds theirs */
			bool fresh = false;
			struct entry *e = lookup(w, grp->group, p->topic, p->partition, p->has_position, &fresh);
			if (!e)
				continue;
			e->seen = w->gen;
			int64_t pos = p->has_position ? partition_position(grp, p) : -1;
			if (fresh || e->committed != p->committed) {
				e->commit_seen = !fresh;
				e->committed = p->committed;
				e->position = pos;
				e->since_ms = now;
			} else if (e->position < 0) { /* the window starts with the first position seen */
				e->position = pos;
				e->since_ms = now;
			}
			lt_not_committing v = not_committing_rule(w->window_ms, e->since_ms, e->commit_seen,
								  e->position, pos, p->committed, now);
			if (v != LT_NC_UNKNOWN)
				p->flags |= LT_PF_COMMITTING_KNOWN;
			if (v == LT_NC_YES)
				p->flags |= LT_PF_NOT_COMMITTING;
		}
	}
}
