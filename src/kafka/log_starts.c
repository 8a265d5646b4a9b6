/* log_starts.c — see log_starts.h. Two sets, the kept one and the next being put: each an array of entries and
 * an open-addressing index over it, keyed by (topic, partition). */
#include "kafka/log_starts.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

struct kept {
	const char *topic; /* one of the set's topic copies */
	int32_t partition;
	int64_t start, read_at_ms;
};

struct start_set {
	struct kept *e;
	size_t n, cap;
	uint32_t *slot; /* 1 + entry index, 0 empty; a power of two, at least twice n */
	size_t n_slots;
	char **topics; /* the copies, one per run of equal topics put */
	size_t n_topics, cap_topics;
	const char *last_copy; /* the last topic put */
};

struct lt_log_starts {
	int max_age_ms;
	struct start_set kept, next;
};

static uint64_t key_hash(const char *topic, int32_t partition)
{
	uint64_t h = 1469598103934665603ULL;
	for (const unsigned char *p = (const unsigned char *)topic; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	h = (h ^ (uint32_t)partition) * 1099511628211ULL;
	return h ^ (h >> 29);
}

static void set_clear(struct start_set *s)
{
	for (size_t i = 0; i < s->n_topics; i++)
		free(s->topics[i]);
	free(s->topics);
	free(s->e);
	free(s->slot);
	memset(s, 0, sizeof *s);
}

static const struct kept *set_find(const struct start_set *s, const char *topic, int32_t partition)
{
	if (s->n_slots == 0)
		return NULL;
	size_t mask = s->n_slots - 1;
	for (size_t i = key_hash(topic, partition) & mask; s->slot[i]; i = (i + 1) & mask) {
		const struct kept *e = &s->e[s->slot[i] - 1];
		if (e->partition == partition && strcmp(e->topic, topic) == 0)
			return e;
	}
	return NULL;
}

static void set_index(struct start_set *s)
{
	s->n_slots = 16;
	while (s->n_slots < 2 * s->n)
		s->n_slots *= 2;
	s->slot = xcalloc(s->n_slots, sizeof *s->slot);
	size_t mask = s->n_slots - 1;
	for (size_t j = 0; j < s->n; j++) {
		size_t i = key_hash(s->e[j].topic, s->e[j].partition) & mask;
		while (s->slot[i])
			i = (i + 1) & mask;
		s->slot[i] = (uint32_t)(j + 1);
	}
}

lt_log_starts *log_starts_new(int max_age_ms)
{
	lt_log_starts *k = xcalloc(1, sizeof *k);
	k->max_age_ms = max_age_ms;
	return k;
}

void log_starts_free(lt_log_starts *k)
{
	if (!k)
		return;
	set_clear(&k->kept);
	set_clear(&k->next);
	free(k);
}

bool log_starts_get(const lt_log_starts *k, const char *topic, int32_t partition, int64_t now_ms, int64_t *start,
		    int64_t *read_at_ms)
{
	if (!k || k->max_age_ms <= 0)
		return false;
	const struct kept *e = set_find(&k->kept, topic, partition);
	if (!e || now_ms - e->read_at_ms >= k->max_age_ms || now_ms < e->read_at_ms)
		return false;
	*start = e->start;
	*read_at_ms = e->read_at_ms;
	return true;
}

void log_starts_put(lt_log_starts *k, const char *topic, int32_t partition, int64_t start, int64_t read_at_ms)
{
	if (!k || k->max_age_ms <= 0 || start < 0)
		return;
	struct start_set *s = &k->next;
	/* the caller puts a topic's partitions together: one copy per run */
	if (!s->last_copy || strcmp(topic, s->last_copy) != 0) {
		s->topics = xgrow(s->topics, &s->cap_topics, s->n_topics + 1, sizeof *s->topics);
		s->topics[s->n_topics] = xstrdup(topic);
		s->last_copy = s->topics[s->n_topics++];
	}
	s->e = xgrow(s->e, &s->cap, s->n + 1, sizeof *s->e);
	s->e[s->n++] = (struct kept){ s->last_copy, partition, start, read_at_ms };
}

void log_starts_commit(lt_log_starts *k)
{
	if (!k)
		return;
	set_clear(&k->kept);
	k->kept = k->next;
	k->kept.last_copy = NULL;
	memset(&k->next, 0, sizeof k->next);
	set_index(&k->kept);
}
