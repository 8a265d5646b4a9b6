/* markset.c — the marked partitions of one group (see markset.h). */
#include "config.h"

#include "model/markset.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static int tp_compare(const char *ta, int32_t pa, const char *tb, int32_t pb)
{
	int c = strcmp(ta, tb);
	return c ? c : (pa > pb) - (pa < pb);
}

/* Index of (topic, partition), or where it would go; *found says which. */
static size_t find(const lt_markset *m, const char *topic, int32_t partition, bool *found)
{
	size_t lo = 0, hi = m->n;
	*found = false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = tp_compare(m->marks[mid].topic, m->marks[mid].partition, topic, partition);
		if (c == 0) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool markset_has_tp(const lt_markset *m, const char *topic, int32_t partition)
{
	bool found;
	if (!m || !topic)
		return false;
	find(m, topic, partition, &found);
	return found;
}

bool markset_has(const lt_markset *m, const lt_row *r)
{
	return r && r->part && !r->topic && markset_has_tp(m, r->part->topic, r->part->partition);
}

bool markset_toggle(lt_markset *m, const lt_row *r)
{
	if (!r || !r->part || r->topic)
		return false;
	bool found;
	size_t i = find(m, r->part->topic, r->part->partition, &found);
	if (found) {
		free(m->marks[i].topic);
		memmove(&m->marks[i], &m->marks[i + 1], (m->n - i - 1) * sizeof *m->marks);
		m->n--;
		return false;
	}
	m->marks = xgrow(m->marks, &m->cap, m->n + 1, sizeof *m->marks);
	memmove(&m->marks[i + 1], &m->marks[i], (m->n - i) * sizeof *m->marks);
	m->marks[i].topic = xstrdup(r->part->topic);
	m->marks[i].partition = r->part->partition;
	m->n++;
	return true;
}

static bool group_has(const lt_group *g, const char *topic, int32_t partition)
{
	/* the group's partitions are sorted by (topic, partition) (snapshot.h) */
	size_t lo = 0, hi = g->n_partitions;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = tp_compare(g->partitions[mid].topic, g->partitions[mid].partition, topic, partition);
		if (c == 0)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

size_t markset_prune(lt_markset *m, const lt_group *g)
{
	size_t k = 0, gone = 0;
	for (size_t i = 0; i < m->n; i++) {
		if (g && group_has(g, m->marks[i].topic, m->marks[i].partition)) {
			m->marks[k++] = m->marks[i];
		} else {
			free(m->marks[i].topic);
			gone++;
		}
	}
	m->n = k;
	return gone;
}

void markset_clear(lt_markset *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->marks[i].topic);
	free(m->marks);
	memset(m, 0, sizeof *m);
}

char **markset_scopes(const lt_markset *m, size_t *n)
{
	char **out = xcalloc(m->n + 1, sizeof *out);
	size_t k = 0;
	for (size_t i = 0; i < m->n;) {
		size_t len = strlen(m->marks[i].topic) + 1, cap = len + 16;
		char *s = xmalloc(cap);
		snprintf(s, cap, "%s:", m->marks[i].topic);
		size_t j = i;
		for (; j < m->n && strcmp(m->marks[j].topic, m->marks[i].topic) == 0; j++) {
			char num[16];
			int w = snprintf(num, sizeof num, "%s%" PRId32, j > i ? "," : "", m->marks[j].partition);
			if (len + (size_t)w + 1 > cap) {
				cap = (len + (size_t)w + 1) * 2;
				s = xrealloc(s, cap);
			}
			memcpy(s + len, num, (size_t)w + 1);
			len += (size_t)w;
		}
		out[k++] = s;
		i = j;
	}
	if (n)
		*n = k;
	return out;
}
