/* stream.c — the commit-stream model (see stream.h).
 *
 * Two levels of chained hash tables: groups by id, and inside each group its partitions by
 * (topic, partition). Commit rates come from a ring of time buckets per partition (the window cut
 * in BUCKETS_PER_WINDOW slices), so memory per partition is fixed however fast a group commits; the
 * price is a rate exact to one bucket (1/30 of the window).
 *
 * Memory (a big cluster has hundreds of thousands of committed partitions): topic names are
 * interned once per stream; the ring is 16-bit counters behind one bucket number (the newest), and
 * only exists from a partition's second commit; partition records are 80 bytes in slabs (below).
 * About 95 bytes per partition before its second commit, 170 after.
 */
#include "commitlog/stream.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Under AddressSanitizer a partition record on the free list or not handed out yet stays poisoned, so
 * a use after part_free is still reported. */
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#define part_poison(p, n)   ASAN_POISON_MEMORY_REGION((p), (n))
#define part_unpoison(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define part_poison(p, n)   ((void)(p), (void)(n))
#define part_unpoison(p, n) ((void)(p), (void)(n))
#endif

#define BUCKETS_PER_WINDOW 30
#define NBUCKETS           32    /* > BUCKETS_PER_WINDOW + 1: a window spans at most 31 bucket starts */
#define MIN_RATE_SPAN_MS   60000 /* one commit a second ago is not "60 per minute" */

/* Bucket b (time / bucket_ms) lives in slot b % NBUCKETS while head - NBUCKETS < b <= head. */
struct ring {
	int64_t head;         /* the newest bucket number counted */
	uint16_t n[NBUCKETS]; /* commits per bucket, saturating */
};

typedef struct part {
	struct part *next;
	const char *topic;      /* interned (topic_intern): owned by the stream */
	struct ring *ring;      /* NULL until the second commit: most partitions of a big cluster sit on one */
	struct part_rare *rare; /* NULL while both of its times are unset (nearly always) */
	int64_t offset;
	int64_t last_commit_ms;
	int64_t moved_ms;
	int64_t first_ms; /* first commit seen: the rate's span starts here when younger than the window */
	/* 31-bit counts beside the two flags: 80 bytes with the rare fields apart, instead of 104 (320,000
	 * records on the L benchmark) */
	uint32_t commits : 31; /* saturating at SAT31 */
	bool moved_exact : 1;
	uint32_t same : 31;    /* saturating at SAT31 (only ">= 2" is ever asked) */
	bool has_metadata : 1; /* the last commit carried metadata (not kept: the steady refresh asks OffsetFetch) */
	int32_t partition;
	int32_t leader_epoch; /* of the last commit, -1 unknown */
} part;
_Static_assert(sizeof(part) == 80, "a partition record is 80 bytes (see the slabs below)");

/* What few partitions have: an explicit expiry (offset commit values of version 1 only) and a
 * tombstone's times (an expired offset kept as expired). Apart, they cost the others one pointer. */
struct part_rare {
	int64_t expire_ms;    /* the commit's own expiry, -1 when it has none */
	int64_t gone_ms;      /* -1: live; else the record time of its tombstone: expired (part_expired) */
	int64_t gone_base_ms; /* the expiry rule's base time when the tombstone came (the group may be gone) */
};

static int64_t part_expire_ms(const part *p)
{
	return p->rare ? p->rare->expire_ms : -1;
}

static int64_t part_gone_ms(const part *p)
{
	return p->rare ? p->rare->gone_ms : -1;
}

static int64_t part_gone_base_ms(const part *p)
{
	return p->rare ? p->rare->gone_base_ms : 0;
}

static struct part_rare *part_rare_get(part *p)
{
	if (!p->rare) {
		p->rare = xmalloc(sizeof *p->rare);
		*p->rare = (struct part_rare){ .expire_ms = -1, .gone_ms = -1, .gone_base_ms = 0 };
	}
	return p->rare;
}

/* Drops the rare fields when nothing is left in them. */
static void part_rare_trim(part *p)
{
	if (p->rare && p->rare->expire_ms < 0 && p->rare->gone_ms < 0) {
		free(p->rare);
		p->rare = NULL;
	}
}

#define SAT31 0x7fffffffu

/* Partition records come from slabs the stream owns, a freed one kept on a free list for the next:
 * one malloc per record would add its 8-byte header and rounding to each (96 bytes, not 80). */
#define PART_SLAB 1024
struct part_slab {
	struct part_slab *next;
	part p[PART_SLAB];
};

/* A member of a KIP-848 consumer group (ConsumerGroupMemberMetadata) and the topics it subscribes to. */
typedef struct np_member {
	char *id;
	bool known; /* subscribed by names, which were read; false: a regex or an unreadable value */
	char **topics;
	size_t ntopics;
} np_member;

typedef struct lt_commit_group {
	struct lt_commit_group *next;
	char *name;
	bool has_meta;
	bool deleted;
	bool new_protocol; /* a KIP-848 consumer group (ConsumerGroupMetadata): members in np */
	np_member *np;     /* its live members, from their ConsumerGroupMemberMetadata records */
	size_t nnp;
	char *protocol_type;
	int32_t generation;
	size_t n_members;
	int64_t state_ms;
	bool subs_known; /* a consumer group with members whose subscriptions all parsed */
	char **subs;     /* the union of the members' subscribed topics */
	size_t nsubs;
	part **pb; /* buckets */
	size_t npb;
	size_t n_parts; /* live and gone */
	size_t n_gone;  /* tombstoned partitions kept because their offsets expired */
} group;

struct lt_commit_stream {
	lt_commit_stream_conf conf;
	char **topics; /* interned topic names, open addressing */
	size_t ntopics, ntb;
	int64_t bucket_ms;
	group **gb;
	size_t ngb;
	size_t n_groups;
	lt_commit_counters ctr;
	struct part_slab *slabs; /* newest first; the newest has slab_used records handed out */
	size_t slab_used;
	part *free_parts; /* freed records, linked by next */
};

static bool part_expiry_base(const group *g, const part *p, int64_t *base);
static bool part_expired(const lt_commit_stream *s, const part *p);
static void part_remove(lt_commit_stream *s, group *g, part **pp);

/* FNV-1a */
static uint64_t hash_str(const char *s, uint64_t h)
{
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ULL;
	return h;
}

#define FNV_BASIS 14695981039346656037ULL

static uint64_t part_hash(const char *topic, int32_t partition)
{
	uint64_t h = hash_str(topic, FNV_BASIS);
	return (h ^ (uint32_t)partition) * 1099511628211ULL;
}

/* The stream's one copy of a topic name (kept until the stream is freed: topics are few). */
static const char *topic_intern(lt_commit_stream *s, const char *topic)
{
	if (s->ntopics * 2 >= s->ntb) {
		size_t n = s->ntb ? s->ntb * 2 : 64;
		char **nt = xcalloc(n, sizeof *nt);
		for (size_t i = 0; i < s->ntb; i++) {
			if (!s->topics[i])
				continue;
			size_t h = hash_str(s->topics[i], FNV_BASIS) & (n - 1);
			while (nt[h])
				h = (h + 1) & (n - 1);
			nt[h] = s->topics[i];
		}
		free(s->topics);
		s->topics = nt;
		s->ntb = n;
	}
	size_t h = hash_str(topic, FNV_BASIS) & (s->ntb - 1);
	while (s->topics[h]) {
		if (strcmp(s->topics[h], topic) == 0)
			return s->topics[h];
		h = (h + 1) & (s->ntb - 1);
	}
	s->topics[h] = xstrdup(topic);
	s->ntopics++;
	return s->topics[h];
}

lt_commit_stream *commit_stream_new(const lt_commit_stream_conf *conf)
{
	lt_commit_stream *s = xcalloc(1, sizeof *s);
	if (conf)
		s->conf = *conf;
	if (s->conf.window_ms <= 0)
		s->conf.window_ms = LT_COMMIT_WINDOW_DEFAULT_MS;
	if (s->conf.horizon_ms <= 0)
		s->conf.horizon_ms = LT_COMMIT_HORIZON_DEFAULT_MS;
	s->bucket_ms = (s->conf.window_ms + BUCKETS_PER_WINDOW - 1) / BUCKETS_PER_WINDOW;
	s->ngb = 64;
	s->gb = xcalloc(s->ngb, sizeof *s->gb);
	return s;
}

static part *part_alloc(lt_commit_stream *s)
{
	part *p = s->free_parts;
	if (p) {
		part_unpoison(p, sizeof *p);
		s->free_parts = p->next;
	} else {
		if (!s->slabs || s->slab_used == PART_SLAB) {
			struct part_slab *sl = xmalloc(sizeof *sl);
			sl->next = s->slabs;
			s->slabs = sl;
			s->slab_used = 0;
			part_poison(sl->p, sizeof sl->p);
		}
		p = &s->slabs->p[s->slab_used++];
		part_unpoison(p, sizeof *p);
	}
	memset(p, 0, sizeof *p);
	return p;
}

static void part_free(lt_commit_stream *s, part *p)
{
	free(p->ring);
	free(p->rare);
	p->next = s->free_parts;
	s->free_parts = p;
	part_poison(p, sizeof *p);
}

static void subs_clear(group *g)
{
	for (size_t i = 0; i < g->nsubs; i++)
		free(g->subs[i]);
	free(g->subs);
	g->subs = NULL;
	g->nsubs = 0;
	g->subs_known = false;
}

static void np_member_free(np_member *m)
{
	free(m->id);
	for (size_t i = 0; i < m->ntopics; i++)
		free(m->topics[i]);
	free(m->topics);
}

static void np_clear(group *g)
{
	for (size_t i = 0; i < g->nnp; i++)
		np_member_free(&g->np[i]);
	free(g->np);
	g->np = NULL;
	g->nnp = 0;
}

static void group_free(lt_commit_stream *s, group *g)
{
	subs_clear(g);
	np_clear(g);
	for (size_t i = 0; i < g->npb; i++) {
		part *p = g->pb[i];
		while (p) {
			part *n = p->next;
			part_free(s, p);
			p = n;
		}
	}
	free(g->pb);
	free(g->name);
	free(g->protocol_type);
	free(g);
}

void commit_stream_free(lt_commit_stream *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ngb; i++) {
		group *g = s->gb[i];
		while (g) {
			group *n = g->next;
			group_free(s, g);
			g = n;
		}
	}
	free(s->gb);
	while (s->slabs) {
		struct part_slab *n = s->slabs->next;
		free(s->slabs);
		s->slabs = n;
	}
	for (size_t i = 0; i < s->ntb; i++)
		free(s->topics[i]);
	free(s->topics);
	free(s);
}

void commit_stream_set_retention(lt_commit_stream *s, int64_t retention_ms)
{
	s->conf.retention_ms = retention_ms;
	if (retention_ms <= 0)
		return;
	/* Tombstones that came while the retention was unknown: the ones before their forecast were deletes. */
	for (size_t i = 0; i < s->ngb; i++) {
		for (group *g = s->gb[i], *gn; g; g = gn) {
			gn = g->next; /* part_remove may drop g */
			for (size_t b = 0; b < g->npb && g->n_gone; b++) {
				part **pp = &g->pb[b];
				while (*pp) {
					if (part_gone_ms(*pp) >= 0 && !part_expired(s, *pp)) {
						bool last = g->n_parts == 1;
						part_remove(s, g, pp);
						if (last)
							goto next_group; /* g may be freed */
					} else {
						pp = &(*pp)->next;
					}
				}
			}
		next_group:;
		}
	}
}

void commit_stream_set_horizon(lt_commit_stream *s, int64_t horizon_ms)
{
	s->conf.horizon_ms = horizon_ms > 0 ? horizon_ms : LT_COMMIT_HORIZON_DEFAULT_MS;
}

int64_t commit_stream_horizon(const lt_commit_stream *s)
{
	return s->conf.horizon_ms;
}

const lt_commit_counters *commit_stream_counters(const lt_commit_stream *s)
{
	return &s->ctr;
}

size_t commit_stream_n_groups(const lt_commit_stream *s)
{
	return s->n_groups;
}

/* ---- lookup ---- */

static group **group_slot(const lt_commit_stream *s, const char *name)
{
	group **gp = &s->gb[hash_str(name, FNV_BASIS) % s->ngb];
	while (*gp && strcmp((*gp)->name, name) != 0)
		gp = &(*gp)->next;
	return gp;
}

static void groups_rehash(lt_commit_stream *s)
{
	size_t n = s->ngb * 4;
	group **nb = xcalloc(n, sizeof *nb);
	for (size_t i = 0; i < s->ngb; i++) {
		group *g = s->gb[i];
		while (g) {
			group *next = g->next;
			size_t h = hash_str(g->name, FNV_BASIS) % n;
			g->next = nb[h];
			nb[h] = g;
			g = next;
		}
	}
	free(s->gb);
	s->gb = nb;
	s->ngb = n;
}

static group *group_get(lt_commit_stream *s, const char *name)
{
	group **gp = group_slot(s, name);
	if (*gp)
		return *gp;
	if (s->n_groups >= s->ngb * 2) {
		groups_rehash(s);
		gp = group_slot(s, name);
	}
	group *g = xcalloc(1, sizeof *g);
	g->name = xstrdup(name);
	g->generation = -1;
	g->state_ms = -1;
	g->npb = 8;
	g->pb = xcalloc(g->npb, sizeof *g->pb);
	*gp = g;
	s->n_groups++;
	return g;
}

static void group_drop(lt_commit_stream *s, group *g)
{
	group **gp = group_slot(s, g->name);
	*gp = g->next;
	group_free(s, g);
	s->n_groups--;
}

static part **part_slot(const group *g, const char *topic, int32_t partition)
{
	part **pp = &g->pb[part_hash(topic, partition) % g->npb];
	while (*pp && ((*pp)->partition != partition || strcmp((*pp)->topic, topic) != 0))
		pp = &(*pp)->next;
	return pp;
}

static void parts_rehash(group *g)
{
	size_t n = g->npb * 4;
	part **nb = xcalloc(n, sizeof *nb);
	for (size_t i = 0; i < g->npb; i++) {
		part *p = g->pb[i];
		while (p) {
			part *next = p->next;
			size_t h = part_hash(p->topic, p->partition) % n;
			p->next = nb[h];
			nb[h] = p;
			p = next;
		}
	}
	free(g->pb);
	g->pb = nb;
	g->npb = n;
}

static part *part_get(lt_commit_stream *s, group *g, const char *topic, int32_t partition)
{
	part **pp = part_slot(g, topic, partition);
	if (*pp)
		return *pp;
	if (g->n_parts >= g->npb * 2) {
		parts_rehash(g);
		pp = part_slot(g, topic, partition);
	}
	part *p = part_alloc(s);
	p->topic = topic_intern(s, topic);
	p->partition = partition;
	p->offset = -1;
	*pp = p;
	g->n_parts++;
	return p;
}

/* ---- applying records ---- */

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static size_t ring_slot(int64_t id)
{
	return (size_t)(((id % NBUCKETS) + NBUCKETS) % NBUCKETS);
}

static void ring_add(const lt_commit_stream *s, struct ring *rg, int64_t ts)
{
	int64_t id = floor_div(ts, s->bucket_ms);
	if (id > rg->head) {
		/* moving forward: the buckets passed over (at most the whole ring) start empty */
		int64_t from = id - rg->head > NBUCKETS ? id - NBUCKETS + 1 : rg->head + 1;
		for (int64_t b = from; b <= id; b++)
			rg->n[ring_slot(b)] = 0;
		rg->head = id;
	} else if (id <= rg->head - NBUCKETS) {
		return; /* a commit older than the ring reaches back: too old for any window */
	}
	size_t slot = ring_slot(id);
	if (rg->n[slot] < UINT16_MAX)
		rg->n[slot]++;
}

/* Counts a commit at ts (p->commits already counts it). The first commit needs no ring: its time is
 * first_ms; the ring is made when a second one arrives. */
static void bucket_add(const lt_commit_stream *s, part *p, int64_t ts)
{
	if (p->commits < 2)
		return;
	if (!p->ring) {
		p->ring = xcalloc(1, sizeof *p->ring);
		p->ring->head = floor_div(p->first_ms, s->bucket_ms);
		ring_add(s, p->ring, p->first_ms);
	}
	ring_add(s, p->ring, ts);
}

static void apply_commit(lt_commit_stream *s, const lt_commit_record *r)
{
	group *g = group_get(s, r->group);
	part *p = part_get(s, g, r->topic, r->partition);
	if (part_gone_ms(p) >= 0) { /* committed again after it expired: a new life */
		p->rare->gone_ms = -1;
		g->n_gone--;
		free(p->ring);
		p->ring = NULL;
		p->commits = 0;
	}
	if (p->commits == 0) {
		p->first_ms = r->commit_ms;
		p->moved_ms = r->commit_ms;
		p->moved_exact = false;
		p->same = 0;
	} else if (r->offset != p->offset) {
		p->moved_ms = r->commit_ms;
		p->moved_exact = true;
		p->same = 0;
	} else if (p->same < SAT31) {
		p->same++;
	}
	p->offset = r->offset;
	p->leader_epoch = r->leader_epoch;
	p->has_metadata = r->metadata_len > 0;
	p->last_commit_ms = r->commit_ms;
	if (r->expire_ms >= 0 || p->rare)
		part_rare_get(p)->expire_ms = r->expire_ms;
	part_rare_trim(p);
	if (p->commits < SAT31)
		p->commits++;
	bucket_add(s, p, r->commit_ms);
}

static void part_remove(lt_commit_stream *s, group *g, part **pp)
{
	part *p = *pp;
	*pp = p->next;
	if (part_gone_ms(p) >= 0)
		g->n_gone--;
	part_free(s, p);
	g->n_parts--;
	if (g->n_parts == 0 && !g->has_meta && !g->new_protocol)
		group_drop(s, g);
}

/* A tombstone: an offset deleted (OffsetDelete, DeleteGroups) or expired. Kafka writes no reason, so the
 * time decides: a tombstone written at or after the offset's forecast expiry is its expiry, and the
 * partition is kept as expired (the group restarts from auto.offset.reset); an earlier one is a delete.
 * Without the record time (record_ms < 0) or outside the expiry rule it is a delete. While the retention
 * is unknown the partition waits (commit_stream_set_retention decides). */
static void apply_offset_delete(lt_commit_stream *s, const lt_commit_record *r, int64_t record_ms)
{
	group **gp = group_slot(s, r->group);
	if (!*gp)
		return;
	group *g = *gp;
	part **pp = part_slot(g, r->topic, r->partition);
	if (!*pp) {
		if (g->n_parts == 0 && !g->has_meta && !g->new_protocol)
			group_drop(s, g);
		return;
	}
	part *p = *pp;
	if (part_gone_ms(p) >= 0)
		return; /* already gone: a repeated tombstone changes nothing */
	int64_t base;
	if (record_ms >= 0 && part_expiry_base(g, p, &base)) {
		struct part_rare *pr = part_rare_get(p);
		pr->gone_ms = record_ms;
		pr->gone_base_ms = base;
		g->n_gone++;
		if ((s->conf.retention_ms > 0 || part_expire_ms(p) >= 0) && !part_expired(s, p))
			part_remove(s, g, part_slot(g, r->topic, r->partition));
		return;
	}
	part_remove(s, g, pp);
}

static void apply_group(lt_commit_stream *s, const lt_commit_record *r)
{
	group *g = group_get(s, r->group);
	g->has_meta = true;
	g->deleted = false;
	free(g->protocol_type);
	g->protocol_type = xstrdup(r->protocol_type ? r->protocol_type : "");
	g->generation = r->generation;
	g->n_members = r->n_members;
	g->state_ms = r->state_ms;
	subs_clear(g);
	if (strcmp(g->protocol_type, "consumer") != 0 || r->n_members == 0)
		return;
	/* Kafka's subscribedTopics: defined only when every member's subscription parses */
	size_t cap = 0;
	for (size_t i = 0; i < r->n_members; i++) {
		char **t;
		size_t n;
		if (commit_subscription_topics(r->members[i].subscription, r->members[i].subscription_len, &t, &n) <
		    0) {
			subs_clear(g);
			return;
		}
		for (size_t k = 0; k < n; k++) {
			bool dup = false;
			for (size_t j = 0; j < g->nsubs && !dup; j++)
				dup = strcmp(g->subs[j], t[k]) == 0;
			if (dup) {
				free(t[k]);
				continue;
			}
			g->subs = xgrow(g->subs, &cap, g->nsubs + 1, sizeof *g->subs);
			g->subs[g->nsubs++] = t[k];
		}
		free(t);
	}
	g->subs_known = true;
}

static void apply_group_delete(lt_commit_stream *s, const lt_commit_record *r)
{
	group **gp = group_slot(s, r->group);
	if (!*gp)
		return;
	group *g = *gp;
	if (g->n_parts == 0 && !g->new_protocol) { /* n_parts counts the expired ones, which stay */
		group_drop(s, g);
		return;
	}
	/* Offsets outlive the metadata until their own tombstones arrive (Kafka writes them in the same
	 * batch when a group is deleted); meanwhile the group is a bare offset holder, like a group that
	 * only ever had admin commits. */
	g->has_meta = false;
	g->deleted = true;
	free(g->protocol_type);
	g->protocol_type = NULL;
	g->generation = -1;
	g->n_members = 0;
	g->state_ms = -1;
	subs_clear(g);
}

/* A KIP-848 consumer group (ConsumerGroupMetadataKey); its tombstone: the group deleted (its members'
 * tombstones came before it). */
static void apply_new_protocol(lt_commit_stream *s, const lt_commit_record *r)
{
	if (r->value_version >= 0) {
		group_get(s, r->group)->new_protocol = true;
		return;
	}
	group **gp = group_slot(s, r->group);
	if (!*gp)
		return;
	(*gp)->new_protocol = false;
	np_clear(*gp);
	if ((*gp)->n_parts == 0 && !(*gp)->has_meta)
		group_drop(s, *gp);
}

static np_member *np_find(const group *g, const char *id)
{
	for (size_t i = 0; i < g->nnp; i++)
		if (strcmp(g->np[i].id, id) == 0)
			return &g->np[i];
	return NULL;
}

/* A KIP-848 member joined or changed its subscription (ConsumerGroupMemberMetadata), or left (its
 * tombstone). Kafka keeps the offsets of the topics such a group's members subscribe to. */
static void apply_np_member(lt_commit_stream *s, const lt_commit_record *r)
{
	group **gp = group_slot(s, r->group);
	if (r->value_version < 0) {
		np_member *m = *gp ? np_find(*gp, r->member_id) : NULL;
		if (m) {
			np_member_free(m);
			*m = (*gp)->np[--(*gp)->nnp];
		}
		return;
	}
	group *g = group_get(s, r->group);
	np_member *m = np_find(g, r->member_id);
	if (m) {
		np_member_free(m);
	} else {
		g->np = xrealloc(g->np, (g->nnp + 1) * sizeof *g->np);
		m = &g->np[g->nnp++];
	}
	*m = (np_member){ .id = xstrdup(r->member_id), .known = r->member_topics_known };
	if (!m->known)
		return;
	m->topics = xcalloc(r->n_member_topics ? r->n_member_topics : 1, sizeof *m->topics);
	for (size_t i = 0; i < r->n_member_topics; i++)
		m->topics[i] = xstrdup(r->member_topics[i]);
	m->ntopics = r->n_member_topics;
}

void commit_stream_apply(lt_commit_stream *s, const lt_commit_record *r)
{
	commit_stream_apply_at(s, r, -1);
}

void commit_stream_apply_at(lt_commit_stream *s, const lt_commit_record *r, int64_t record_ms)
{
	switch (r->type) {
	case LT_CR_OFFSET_COMMIT:
		s->ctr.offset_commits++;
		apply_commit(s, r);
		break;
	case LT_CR_OFFSET_DELETE:
		s->ctr.offset_tombstones++;
		apply_offset_delete(s, r, record_ms);
		break;
	case LT_CR_GROUP_METADATA:
		s->ctr.group_metadata++;
		apply_group(s, r);
		break;
	case LT_CR_GROUP_DELETE:
		s->ctr.group_tombstones++;
		apply_group_delete(s, r);
		break;
	case LT_CR_UNKNOWN_KEY:
		s->ctr.unknown_key++;
		if (r->key_version == LT_CR_KEY_CONSUMER_GROUP && r->group)
			apply_new_protocol(s, r);
		else if (r->key_version == LT_CR_KEY_CONSUMER_MEMBER && r->group && r->member_id)
			apply_np_member(s, r);
		break;
	case LT_CR_UNKNOWN_VALUE: s->ctr.unknown_value++; break;
	}
}

int commit_stream_feed(lt_commit_stream *s, const void *key, size_t key_len, const void *value, size_t value_len,
		       char *err, size_t errlen)
{
	return commit_stream_feed_at(s, key, key_len, value, value_len, -1, err, errlen);
}

int commit_stream_feed_at(lt_commit_stream *s, const void *key, size_t key_len, const void *value, size_t value_len,
			  int64_t record_ms, char *err, size_t errlen)
{
	lt_commit_record r;
	s->ctr.records++;
	if (commit_record_decode(key, key_len, value, value_len, &r, err, errlen) < 0) {
		s->ctr.malformed++;
		return -1;
	}
	commit_stream_apply_at(s, &r, record_ms);
	commit_record_free(&r);
	return 0;
}

/* ---- queries ---- */

static double part_rate(const lt_commit_stream *s, const part *p, int64_t now)
{
	int64_t w = s->conf.window_ms;
	uint64_t n = 0;
	if (!p->ring) {
		int64_t start = floor_div(p->first_ms, s->bucket_ms) * s->bucket_ms;
		n = p->commits && start >= now - w && start <= now ? 1 : 0;
	}
	for (int64_t b = p->ring ? p->ring->head - NBUCKETS + 1 : 0; p->ring && b <= p->ring->head; b++) {
		int64_t start = b * s->bucket_ms;
		if (start >= now - w && start <= now)
			n += p->ring->n[ring_slot(b)];
	}
	int64_t span = now - p->first_ms;
	if (span > w)
		span = w;
	int64_t min_span = w < MIN_RATE_SPAN_MS ? w : MIN_RATE_SPAN_MS;
	if (span < min_span)
		span = min_span;
	return (double)n * 60000.0 / (double)span;
}

static bool subscribed(const group *g, const char *topic)
{
	for (size_t i = 0; i < g->nsubs; i++)
		if (strcmp(g->subs[i], topic) == 0)
			return true;
	return false;
}

/* Whether a KIP-848 group's members subscribe to topic: 1 yes, 0 no, -1 unknown (a member subscribes by
 * regex, or its record could not be read). */
static int np_subscribed(const group *g, const char *topic)
{
	bool found = false;
	for (size_t i = 0; i < g->nnp; i++) {
		if (!g->np[i].known)
			return -1;
		for (size_t k = 0; k < g->np[i].ntopics && !found; k++)
			found = strcmp(g->np[i].topics[k], topic) == 0;
	}
	return found;
}

/* Kafka's expiry rule, see stream.h: the time retention counts from, or false when the offset does not
 * expire in the group's present state. */
static bool part_expiry_base(const group *g, const part *p, int64_t *base)
{
	if (g->new_protocol) { /* ConsumerGroup.offsetExpirationCondition: each offset from its commit */
		if (np_subscribed(g, p->topic) != 0)
			return false;
		*base = p->last_commit_ms;
		return true;
	}
	bool simple = !g->has_meta || !g->protocol_type || !g->protocol_type[0];
	if (simple)
		*base = p->last_commit_ms;
	else if (g->n_members == 0)
		*base = g->state_ms >= 0 ? g->state_ms : p->last_commit_ms;
	else if (g->subs_known && !subscribed(g, p->topic))
		*base = p->last_commit_ms; /* a Stable consumer group's offsets of a topic it no longer reads */
	else
		return false;
	return true;
}

static bool expiry_from_base(const lt_commit_stream *s, const part *p, int64_t base, int64_t *at)
{
	if (part_expire_ms(p) >= 0) {
		*at = part_expire_ms(p);
		return true;
	}
	if (s->conf.retention_ms <= 0)
		return false;
	*at = base + s->conf.retention_ms;
	return true;
}

static bool part_expiry(const lt_commit_stream *s, const group *g, const part *p, int64_t *at)
{
	int64_t base;
	if (part_gone_ms(p) >= 0)
		return expiry_from_base(s, p, part_gone_base_ms(p), at);
	return part_expiry_base(g, p, &base) && expiry_from_base(s, p, base, at);
}

/* A tombstoned partition whose tombstone came at or after its forecast: Kafka expired it. */
static bool part_expired(const lt_commit_stream *s, const part *p)
{
	int64_t at;
	return part_gone_ms(p) >= 0 && expiry_from_base(s, p, part_gone_base_ms(p), &at) && at <= part_gone_ms(p);
}

static void fill_stats(const lt_commit_stream *s, const group *g, const part *p, int64_t now, lt_commit_stats *o)
{
	memset(o, 0, sizeof *o);
	o->offset = p->offset;
	o->last_commit_ms = p->last_commit_ms;
	o->last_commit_age_ms = now - p->last_commit_ms;
	o->commits = p->commits;
	o->commits_per_min = part_rate(s, p, now);
	o->moved_ms = p->moved_ms;
	o->unmoved_ms = now - p->moved_ms;
	o->moved_exact = p->moved_exact;
	o->same_offset_commits = p->same;
	o->repeating = o->last_commit_age_ms <= s->conf.window_ms && p->same >= 2 && o->unmoved_ms >= s->conf.window_ms;
	if (part_expiry(s, g, p, &o->expires_at_ms)) {
		o->has_expiry = true;
		o->expires_in_ms = o->expires_at_ms - now;
		o->expiry_warn = o->expires_in_ms < s->conf.horizon_ms;
	}
}

int commit_stream_stats(const lt_commit_stream *s, const char *group_id, const char *topic, int32_t partition,
			int64_t now_ms, lt_commit_stats *out)
{
	return commit_stream_group_part_stats(s, *group_slot(s, group_id), topic, partition, now_ms, out);
}

static void fill_group_info(const group *g, lt_commit_group_stats *out)
{
	memset(out, 0, sizeof *out);
	out->has_metadata = g->has_meta;
	out->deleted = g->deleted;
	out->new_protocol = g->new_protocol;
	out->empty = g->has_meta && g->n_members == 0;
	out->generation = g->generation;
	out->n_members = g->n_members;
	out->state_ms = g->state_ms;
	out->protocol_type = g->protocol_type ? g->protocol_type : "";
	out->n_partitions = g->n_parts - g->n_gone;
	out->last_commit_ms = -1;
	out->last_commit_age_ms = -1;
	out->expired_ms = -1;
}

const lt_commit_group *commit_stream_group(const lt_commit_stream *s, const char *group_id)
{
	return *group_slot(s, group_id);
}

int commit_stream_group_part_stats(const lt_commit_stream *s, const lt_commit_group *g, const char *topic,
				   int32_t partition, int64_t now_ms, lt_commit_stats *out)
{
	const part *p = g ? *part_slot(g, topic, partition) : NULL;
	if (!p || part_gone_ms(p) >= 0)
		return -1;
	fill_stats(s, g, p, now_ms, out);
	return 0;
}

int commit_stream_group_info(const lt_commit_stream *s, const char *group_id, lt_commit_group_stats *out)
{
	const group *g = *group_slot(s, group_id);
	if (!g)
		return -1;
	fill_group_info(g, out);
	return 0;
}

int commit_stream_group_stats(const lt_commit_stream *s, const char *group_id, int64_t now_ms,
			      lt_commit_group_stats *out)
{
	const group *g = *group_slot(s, group_id);
	if (!g)
		return -1;
	fill_group_info(g, out);
	for (size_t i = 0; i < g->npb; i++) {
		for (const part *p = g->pb[i]; p; p = p->next) {
			if (part_gone_ms(p) >= 0) {
				if (part_expired(s, p)) {
					out->n_expired++;
					if (part_gone_ms(p) > out->expired_ms)
						out->expired_ms = part_gone_ms(p);
				}
				continue;
			}
			lt_commit_stats st;
			fill_stats(s, g, p, now_ms, &st);
			if (p->last_commit_ms > out->last_commit_ms)
				out->last_commit_ms = p->last_commit_ms;
			out->commits_per_min += st.commits_per_min;
			if (st.has_expiry && (!out->has_expiry || st.expires_at_ms < out->expires_at_ms)) {
				out->has_expiry = true;
				out->expires_at_ms = st.expires_at_ms;
				out->expires_in_ms = st.expires_in_ms;
				out->expiry_warn = st.expiry_warn;
			}
		}
	}
	out->last_commit_age_ms = out->last_commit_ms >= 0 ? now_ms - out->last_commit_ms : -1;
	return 0;
}

static void fill_expired(const lt_commit_stream *s, const part *p, lt_commit_expired *out)
{
	out->topic = p->topic;
	out->partition = p->partition;
	out->offset = p->offset;
	out->last_commit_ms = p->last_commit_ms;
	out->expired_ms = part_gone_ms(p);
	(void)expiry_from_base(s, p, part_gone_base_ms(p), &out->expires_at_ms);
}

int commit_stream_expired(const lt_commit_stream *s, const char *group_id, const char *topic, int32_t partition,
			  lt_commit_expired *out)
{
	const group *g = *group_slot(s, group_id);
	const part *p = g ? *part_slot(g, topic, partition) : NULL;
	if (!p || !part_expired(s, p))
		return -1;
	fill_expired(s, p, out);
	return 0;
}

void commit_stream_each_expired(const lt_commit_stream *s, lt_commit_expired_fn *fn, void *arg)
{
	for (size_t i = 0; i < s->ngb; i++)
		for (const group *g = s->gb[i]; g; g = g->next)
			for (size_t b = 0; b < g->npb && g->n_gone; b++)
				for (const part *p = g->pb[b]; p; p = p->next) {
					if (!part_expired(s, p))
						continue;
					lt_commit_expired e;
					fill_expired(s, p, &e);
					fn(g->name, &e, arg);
				}
}

int commit_stream_each_commit(const lt_commit_stream *s, const char *group_id, lt_commit_live_fn *fn, void *arg)
{
	group *const *gp = group_slot(s, group_id);
	if (!*gp)
		return -1;
	const group *g = *gp;
	for (size_t b = 0; b < g->npb; b++)
		for (const part *p = g->pb[b]; p; p = p->next) {
			if (part_gone_ms(p) >= 0)
				continue; /* expired: OffsetFetch no longer returns it either */
			lt_commit_live c = { .topic = p->topic,
					     .partition = p->partition,
					     .offset = p->offset,
					     .leader_epoch = p->leader_epoch,
					     .has_metadata = p->has_metadata,
					     .last_commit_ms = p->last_commit_ms };
			fn(&c, arg);
		}
	return 0;
}
