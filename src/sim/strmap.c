/* strmap.c — see strmap.h. */
#include "sim/strmap.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

uint64_t strmap_hash(const char *key, size_t len)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)key[i];
		h *= 1099511628211ULL;
	}
	return h;
}

void strmap_init(struct strmap *m)
{
	m->slots = NULL;
	m->cap = 0;
	m->count = 0;
}

void strmap_free(struct strmap *m)
{
	free(m->slots);
	strmap_init(m);
}

static size_t find_slot(const struct strmap *m, const char *key, size_t len, uint64_t h)
{
	size_t mask = m->cap - 1;
	size_t i = (size_t)h & mask;
	while (m->slots[i].val) {
		const struct strmap_slot *s = &m->slots[i];
		if (s->hash == h && s->keylen == len && memcmp(s->key, key, len) == 0)
			return i;
		i = (i + 1) & mask;
	}
	return i;
}

void *strmap_get(const struct strmap *m, const char *key, size_t len)
{
	if (!m->cap)
		return NULL;
	return m->slots[find_slot(m, key, len, strmap_hash(key, len))].val;
}

static void grow(struct strmap *m)
{
	struct strmap old = *m;
	m->cap = old.cap ? old.cap * 2 : 16;
	m->slots = xcalloc(m->cap, sizeof(*m->slots));
	for (size_t i = 0; i < old.cap; i++) {
		struct strmap_slot *s = &old.slots[i];
		if (s->val)
			m->slots[find_slot(m, s->key, s->keylen, s->hash)] = *s;
	}
	free(old.slots);
}

void *strmap_put(struct strmap *m, const char *key, void *val)
{
	if ((m->count + 1) * 4 > m->cap * 3)
		grow(m);
	size_t len = strlen(key);
	uint64_t h = strmap_hash(key, len);
	struct strmap_slot *s = &m->slots[find_slot(m, key, len, h)];
	void *prev = s->val;
	if (!prev)
		m->count++;
	s->key = key;
	s->keylen = len;
	s->hash = h;
	s->val = val;
	return prev;
}

void *strmap_del(struct strmap *m, const char *key, size_t len)
{
	if (!m->cap)
		return NULL;
	size_t mask = m->cap - 1;
	size_t i = find_slot(m, key, len, strmap_hash(key, len));
	void *val = m->slots[i].val;
	if (!val)
		return NULL;
	m->slots[i].val = NULL;
	m->count--;
	/* Backward-shift: move later entries of the probe run into the hole when that brings them
	 * closer to (or onto) their home slot, so lookups never stop at a false hole. */
	size_t hole = i;
	for (size_t j = (i + 1) & mask; m->slots[j].val; j = (j + 1) & mask) {
		size_t home = (size_t)m->slots[j].hash & mask;
		if (((j - home) & mask) >= ((j - hole) & mask)) {
			m->slots[hole] = m->slots[j];
			m->slots[j].val = NULL;
			hole = j;
		}
	}
	return val;
}

void *strmap_next(const struct strmap *m, size_t *it)
{
	while (*it < m->cap) {
		void *v = m->slots[(*it)++].val;
		if (v)
			return v;
	}
	return NULL;
}
