/* record_ts.c — see record_ts.h. An array of entries and an open-addressing index over it (rebuilt when entries
 * are forgotten); the wants are the entries in state WANTED, oldest first. */
#include "model/record_ts.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

enum ts_state { TS_WANTED, TS_KNOWN, TS_FAILED };

struct entry {
	char *topic;
	int32_t partition;
	uint8_t state; /* enum ts_state */
	int64_t offset;
	int64_t ts_ms;
	uint32_t used;     /* the tick it was last looked up or wanted */
	uint32_t retry_at; /* TS_FAILED: the tick it is wanted again */
	uint64_t hash;
};

struct lt_record_ts {
	struct entry *e;
	size_t n, cap, max;
	uint32_t *slot; /* 1 + entry index, 0 empty */
	size_t n_slots; /* a power of two, at least twice max */
	uint32_t tick;
};

static uint64_t key_hash(const char *topic, int32_t partition, int64_t offset)
{
	uint64_t h = 1469598103934665603ULL;
	for (const unsigned char *p = (const unsigned char *)topic; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	h = (h ^ (uint32_t)partition) * 1099511628211ULL;
	h = (h ^ (uint64_t)offset) * 1099511628211ULL;
	return h ^ (h >> 29);
}

lt_record_ts *record_ts_new(size_t max_entries)
{
	lt_record_ts *c = xcalloc(1, sizeof *c);
	c->max = max_entries ? max_entries : LT_RECORD_TS_MAX;
	c->n_slots = 16;
	while (c->n_slots < 2 * c->max)
		c->n_slots *= 2;
	c->slot = xcalloc(c->n_slots, sizeof *c->slot);
	return c;
}

void record_ts_free(lt_record_ts *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		free(c->e[i].topic);
	free(c->e);
	free(c->slot);
	free(c);
}

static struct entry *find(lt_record_ts *c, const char *topic, int32_t partition, int64_t offset, uint64_t h,
			  size_t *free_slot)
{
	size_t mask = c->n_slots - 1;
	for (size_t i = h & mask;; i = (i + 1) & mask) {
		uint32_t s = c->slot[i];
		if (s == 0) {
			*free_slot = i;
			return NULL;
		}
		struct entry *e = &c->e[s - 1];
		if (e->hash == h && e->partition == partition && e->offset == offset && strcmp(e->topic, topic) == 0)
			return e;
	}
}

static void reindex(lt_record_ts *c)
{
	memset(c->slot, 0, c->n_slots * sizeof *c->slot);
	size_t mask = c->n_slots - 1;
	for (size_t j = 0; j < c->n; j++) {
		size_t i = c->e[j].hash & mask;
		while (c->slot[i])
			i = (i + 1) & mask;
		c->slot[i] = (uint32_t)(j + 1);
	}
}

/* Keeps the entries used in the last two refreshes (what the groups look at now), in order. */
static void forget_unused(lt_record_ts *c)
{
	size_t j = 0;
	for (size_t i = 0; i < c->n; i++) {
		if (c->tick - c->e[i].used <= 1)
			c->e[j++] = c->e[i];
		else
			free(c->e[i].topic);
	}
	c->n = j;
	reindex(c);
}

void record_ts_tick(lt_record_ts *c)
{
	c->tick++;
	if (c->n >= c->max)
		forget_unused(c);
	for (size_t i = 0; i < c->n; i++)
		if (c->e[i].state == TS_FAILED && (int32_t)(c->tick - c->e[i].retry_at) >= 0)
			c->e[i].state = TS_WANTED;
}

bool record_ts_get(lt_record_ts *c, const char *topic, int32_t partition, int64_t offset, int64_t *ts_ms)
{
	size_t fs;
	struct entry *e = find(c, topic, partition, offset, key_hash(topic, partition, offset), &fs);
	if (!e)
		return false;
	e->used = c->tick;
	if (e->state != TS_KNOWN)
		return false;
	*ts_ms = e->ts_ms;
	return true;
}

void record_ts_want(lt_record_ts *c, const char *topic, int32_t partition, int64_t offset)
{
	uint64_t h = key_hash(topic, partition, offset);
	size_t fs;
	struct entry *e = find(c, topic, partition, offset, h, &fs);
	if (e) {
		e->used = c->tick;
		return;
	}
	if (c->n >= c->max)
		return; /* full: asked again at a later refresh, once unused entries are forgotten */
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 64;
		c->e = xrealloc(c->e, c->cap * sizeof *c->e);
	}
	c->e[c->n] = (struct entry){ .topic = xstrdup(topic),
				     .partition = partition,
				     .state = TS_WANTED,
				     .offset = offset,
				     .used = c->tick,
				     .hash = h };
	c->slot[fs] = (uint32_t)(c->n + 1);
	c->n++;
}

size_t record_ts_wanted(const lt_record_ts *c, lt_record_ts_key *out, size_t max)
{
	size_t k = 0;
	for (size_t i = 0; i < c->n && k < max; i++)
		if (c->e[i].state == TS_WANTED)
			out[k++] = (lt_record_ts_key){ c->e[i].topic, c->e[i].partition, c->e[i].offset };
	return k;
}

void record_ts_put(lt_record_ts *c, const char *topic, int32_t partition, int64_t offset, bool ok, int64_t ts_ms)
{
	size_t fs;
	struct entry *e = find(c, topic, partition, offset, key_hash(topic, partition, offset), &fs);
	if (!e)
		return; /* forgotten meanwhile: no longer looked at */
	e->state = ok ? TS_KNOWN : TS_FAILED;
	e->ts_ms = ts_ms;
	e->retry_at = c->tick + LT_RECORD_TS_RETRY;
}
