/* snapshot.c — building, sorting, sharing and freeing snapshots (see snapshot.h). */
#include "model/snapshot.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Under AddressSanitizer the row blocks below keep its checks: unused space is poisoned, and each
 * array is followed by a poisoned gap, so reading past a group's rows is still reported. */
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#define ROWS_REDZONE        16
#define rows_poison(p, n)   ASAN_POISON_MEMORY_REGION((p), (n))
#define rows_unpoison(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define ROWS_REDZONE        0
#define rows_poison(p, n)   ((void)(p), (void)(n))
#define rows_unpoison(p, n) ((void)(p), (void)(n))
#endif

/* Arrays grow by doubling from 8. A published snapshot is read-only, so no capacity field is
 * kept: the capacity is implied by the count (8, then the next power of two), and the array is
 * reallocated exactly when the count reaches it. */
static void *grow_for_one_more(void *arr, size_t count, size_t elem)
{
	if (count == 0)
		return xcalloc(8, elem);
	if (count >= 8 && (count & (count - 1)) == 0)
		arr = xrealloc(arr, count * 2 * elem);
	return arr;
}

/* The snapshot's topic names: each distinct name stored once (an open-addressing hash set over
 * strings packed in chunks). On L (320,000 rows of 500 topics) this replaces 640,000 small
 * strdups (rows and assignments) by 500 names, which saves memory and most of the build's mallocs. */
struct strtab_chunk {
	struct strtab_chunk *next;
	size_t used, cap;
	char data[];
};

/* The partition rows (each group's lt_partition array) of one snapshot, in blocks of pages taken from
 * the kernel and given back as a whole when the snapshot is freed (xpages). The rows are most of a
 * snapshot (L: 320,000 of 120 bytes, 38 MB) and a refresh builds the next snapshot while the last is
 * alive; from malloc, the freed rows stayed in the arenas of glibc, fragmented by the strings and the
 * answers other threads allocate in between (measured; the figures are in git history). A group's array
 * grows in place while it is the block's newest (the refresh builds one group at a time); otherwise it
 * moves, and the old copy is left unused until the snapshot goes. */
struct rows_block {
	struct rows_block *next;
	size_t size;  /* of the whole mapping, this header included */
	size_t used;  /* bytes of data[] given out */
	char *newest; /* the last array given out, which may grow in place */
	_Alignas(16) char data[];
};

#define ROWS_BLOCK_MIN ((size_t)64 << 10)
#define ROWS_BLOCK_MAX ((size_t)4 << 20)
#define ROWS_ALIGN(n)  (((n) + 15) & ~(size_t)15)

struct lt_strtab {
	char **slots; /* power-of-two capacity, at most half full */
	size_t cap, n;
	struct strtab_chunk *chunks;
	struct rows_block *rows; /* the snapshot's partition rows (see rows_block) */
};

/* The blocks of the last snapshot freed, kept for the next one up to ROWS_SPARE_MAX bytes of mappings
 * instead of unmapped: a fresh mapping costs a page fault and a zeroed page per 4 KB written, and the
 * steady refresh writes every row again (bench M: ~1,300 faults, ~9 % of a steady refresh's CPU). A
 * block's size follows from its place in the snapshot (ROWS_BLOCK_MIN doubling), so the next snapshot
 * asks for the same sizes in the same order. 8 MB holds all of bench M's rows (32,000); on L they hold
 * the first 8 MB of the next snapshot's. Each snapshot freed with rows replaces the spares (those not
 * taken are unmapped then), so they stay at most 8 MB. Rows are written (memset) when added, so a
 * reused block's old bytes are never read. */
#define ROWS_SPARE_MAX ((size_t)8 << 20)
static pthread_mutex_t spare_mu = PTHREAD_MUTEX_INITIALIZER;
static struct rows_block *spare; /* under spare_mu */

static struct rows_block *spare_take(size_t size)
{
	pthread_mutex_lock(&spare_mu);
	struct rows_block **bp = &spare;
	while (*bp && (*bp)->size != size)
		bp = &(*bp)->next;
	struct rows_block *b = *bp;
	if (b)
		*bp = b->next;
	pthread_mutex_unlock(&spare_mu);
	return b;
}

/* Room for `n` rows of `elem` bytes where `old` held `n_old` of them (NULL: none yet). */
static void *rows_grow(struct lt_strtab *t, void *old, size_t n_old, size_t n, size_t elem)
{
	size_t need = ROWS_ALIGN(n * elem + ROWS_REDZONE);
	struct rows_block *b = t->rows;
	if (old && b && (char *)old == b->newest && (size_t)(b->newest - b->data) + need <= b->size - sizeof *b) {
		b->used = (size_t)(b->newest - b->data) + need;
		rows_unpoison(old, n * elem);
		return old;
	}
	if (!b || b->used + need > b->size - sizeof *b) {
		size_t size = b ? b->size * 2 : ROWS_BLOCK_MIN;
		if (size > ROWS_BLOCK_MAX)
			size = ROWS_BLOCK_MAX;
		if (size < sizeof *b + need)
			size = sizeof *b + need;
		struct rows_block *nb = spare_take(size);
		if (!nb)
			nb = xpages(size);
		nb->size = size;
		nb->used = 0;
		nb->newest = NULL;
		nb->next = b;
		rows_poison(nb->data, size - sizeof *nb);
		t->rows = b = nb;
	}
	char *p = b->data + b->used;
	b->used += need;
	b->newest = p;
	rows_unpoison(p, n * elem);
	if (old && n_old)
		memcpy(p, old, n_old * elem);
	return p;
}

static void rows_free(struct lt_strtab *t)
{
	/* the first blocks (the smallest, the next snapshot's first sizes) become the spares */
	struct rows_block *keep = NULL, **tail = &keep, *old;
	size_t kept = 0;
	struct rows_block *list = NULL; /* oldest first: t->rows is newest first */
	while (t->rows) {
		struct rows_block *b = t->rows;
		t->rows = b->next;
		b->next = list;
		list = b;
	}
	while (list) {
		struct rows_block *b = list;
		list = b->next;
		/* the next mapping there, or the block's next snapshot, starts clean */
		rows_unpoison(b->data, b->size - sizeof *b);
		if (kept + b->size <= ROWS_SPARE_MAX) {
			kept += b->size;
			b->next = NULL;
			*tail = b;
			tail = &b->next;
		} else {
			xpages_free(b, b->size);
		}
	}
	if (!keep)
		return; /* a snapshot without rows leaves the spares to the next one with rows */
	pthread_mutex_lock(&spare_mu);
	old = spare;
	spare = keep;
	pthread_mutex_unlock(&spare_mu);
	while (old) {
		struct rows_block *b = old;
		old = b->next;
		xpages_free(b, b->size);
	}
}

#define STRTAB_CHUNK 4096

static uint64_t str_hash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

static char *strtab_store(struct lt_strtab *t, const char *s, size_t len)
{
	struct strtab_chunk *c = t->chunks;
	if (!c || c->cap - c->used < len + 1) {
		size_t cap = len + 1 > STRTAB_CHUNK ? len + 1 : STRTAB_CHUNK;
		c = xmalloc(sizeof *c + cap);
		c->used = 0;
		c->cap = cap;
		c->next = t->chunks;
		t->chunks = c;
	}
	char *d = c->data + c->used;
	memcpy(d, s, len);
	d[len] = '\0';
	c->used += len + 1;
	return d;
}

static char *strtab_intern(struct lt_strtab *t, const char *s)
{
	if (!s)
		s = "";
	if (2 * (t->n + 1) > t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 64;
		char **ns = xcalloc(ncap, sizeof *ns);
		for (size_t i = 0; i < t->cap; i++)
			if (t->slots[i]) {
				size_t j = str_hash(t->slots[i], strlen(t->slots[i])) & (ncap - 1);
				while (ns[j])
					j = (j + 1) & (ncap - 1);
				ns[j] = t->slots[i];
			}
		free(t->slots);
		t->slots = ns;
		t->cap = ncap;
	}
	size_t len = strlen(s);
	size_t j = str_hash(s, len) & (t->cap - 1);
	for (; t->slots[j]; j = (j + 1) & (t->cap - 1))
		if (strcmp(t->slots[j], s) == 0)
			return t->slots[j];
	t->n++;
	return t->slots[j] = strtab_store(t, s, len);
}

static void strtab_free(struct lt_strtab *t)
{
	if (!t)
		return;
	while (t->chunks) {
		struct strtab_chunk *c = t->chunks;
		t->chunks = c->next;
		free(c);
	}
	free(t->slots);
	rows_free(t);
	free(t);
}

lt_snapshot *snapshot_new(void)
{
	lt_snapshot *s = xcalloc(1, sizeof *s);
	s->refs = 1;
	s->strtab = xcalloc(1, sizeof *s->strtab);
	return s;
}

lt_snapshot *snapshot_ref(lt_snapshot *s)
{
	if (s)
		__atomic_add_fetch(&s->refs, 1, __ATOMIC_ACQ_REL);
	return s;
}

static void member_free(lt_member *m)
{
	free(m->member_id);
	free(m->client_id);
	free(m->host);
	free(m->instance_id);
	free(m->assigned); /* the topics are interned */
}

void group_clear_slow_fields(lt_group *g)
{
	free(g->protocol_type);
	free(g->protocol);
	free(g->error);
	g->protocol_type = g->protocol = g->error = NULL;
	for (size_t i = 0; i < g->n_members; i++)
		member_free(&g->members[i]);
	free(g->members);
	g->members = NULL;
	g->n_members = 0;
	free(g->commit_epochs);
	g->commit_epochs = NULL;
	g->n_commit_epochs = 0;
}

static void group_free(lt_group *g)
{
	free(g->group);
	group_clear_slow_fields(g);
	/* the topics are interned; the rows are the snapshot's */
	for (size_t i = 0; i < g->n_pext; i++)
		free(g->pext[i].commit_metadata);
	free(g->pext);
}

void snapshot_unref(lt_snapshot *s)
{
	if (!s || __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	for (size_t i = 0; i < s->n_groups; i++)
		group_free(&s->groups[i]);
	free(s->groups);
	free(s->cluster);
	free(s->error);
	for (size_t i = 0; i < s->n_brokers; i++)
		free(s->brokers[i].host);
	free(s->brokers);
	free(s->commit_stream_reason);
	for (size_t i = 0; i < s->n_pos_sources; i++) {
		free(s->pos_sources[i].location);
		free(s->pos_sources[i].status);
	}
	free(s->pos_sources);
	for (size_t i = 0; i < s->n_unread; i++) {
		free(s->unread[i].group);
		free(s->unread[i].reason);
	}
	free(s->unread);
	strtab_free(s->strtab);
	free(s);
}

lt_group *snapshot_add_group(lt_snapshot *s, const char *group_id)
{
	s->groups = grow_for_one_more(s->groups, s->n_groups, sizeof *s->groups);
	lt_group *g = &s->groups[s->n_groups++];
	memset(g, 0, sizeof *g);
	g->group = xstrdup(group_id ? group_id : "");
	g->coordinator = -1;
	g->strtab = s->strtab;
	return g;
}

lt_partition *group_add_partition(lt_group *g, const char *topic, int32_t partition)
{
	/* the capacity is implied by the count, as in grow_for_one_more */
	size_t n = g->n_partitions;
	if (n == 0)
		g->partitions = rows_grow(g->strtab, NULL, 0, 8, sizeof *g->partitions);
	else if (n >= 8 && (n & (n - 1)) == 0)
		g->partitions = rows_grow(g->strtab, g->partitions, n, n * 2, sizeof *g->partitions);
	/* the same topic as the row before (already this table's pointer): no lookup (a decoded record's
	 * rows come in topic runs) */
	const char *same = n > 0 && g->partitions[n - 1].topic == topic ? topic : NULL;
	lt_partition *p = &g->partitions[g->n_partitions++];
	memset(p, 0, sizeof *p);
	p->topic = same ? (char *)same : strtab_intern(g->strtab, topic);
	p->partition = partition;
	p->log_start = p->committed = p->log_end = LT_OFFSET_NONE;
	p->member = -1;
	return p;
}

lt_member *group_add_member(lt_group *g, const char *member_id, const char *client_id, const char *host)
{
	g->members = grow_for_one_more(g->members, g->n_members, sizeof *g->members);
	lt_member *m = &g->members[g->n_members++];
	memset(m, 0, sizeof *m);
	m->member_id = xstrdup(member_id ? member_id : "");
	m->client_id = xstrdup(client_id ? client_id : "");
	m->host = xstrdup(host ? host : "");
	m->strtab = g->strtab;
	return m;
}

void member_add_assignment(lt_member *m, const char *topic, int32_t partition)
{
	m->assigned = grow_for_one_more(m->assigned, m->n_assigned, sizeof *m->assigned);
	size_t n = m->n_assigned;
	/* as group_add_partition: the row before's topic pointer needs no lookup */
	m->assigned[n].topic =
		n > 0 && m->assigned[n - 1].topic == topic ? (char *)topic : strtab_intern(m->strtab, topic);
	m->assigned[m->n_assigned].partition = partition;
	m->n_assigned++;
}

static int cmp_group(const void *a, const void *b)
{
	return strcmp(((const lt_group *)a)->group, ((const lt_group *)b)->group);
}

static int cmp_partition(const void *a, const void *b)
{
	const lt_partition *x = a, *y = b;
	int c = x->topic == y->topic ? 0 : strcmp(x->topic, y->topic); /* interned: mostly the same pointer */
	if (c)
		return c;
	return (x->partition > y->partition) - (x->partition < y->partition);
}

static lt_partition *find_partition(lt_group *g, const char *topic, int32_t partition)
{
	lt_partition key = { .topic = (char *)topic, .partition = partition };
	return bsearch(&key, g->partitions, g->n_partitions, sizeof *g->partitions, cmp_partition);
}

/* Adds a partition (committed unknown) for every assignment without one. The committed
 * partitions are sorted first and each assignment is looked up by bsearch, so a group of P
 * partitions costs O(P log P), not O(P^2) (5,000 groups x 64 partitions in the L benchmark). */
static void add_assigned_partitions(lt_group *g)
{
	size_t n_known = g->n_partitions;
	if (n_known > 1)
		qsort(g->partitions, n_known, sizeof *g->partitions, cmp_partition);
	for (size_t m = 0; m < g->n_members; m++)
		for (size_t a = 0; a < g->members[m].n_assigned; a++) {
			const struct lt_topic_partition *tp = &g->members[m].assigned[a];
			lt_partition key = { .topic = tp->topic, .partition = tp->partition };
			/* n_known == 0: partitions may be NULL, which bsearch must not be given (UBSan) */
			if (n_known == 0 ||
			    !bsearch(&key, g->partitions, n_known, sizeof *g->partitions, cmp_partition))
				group_add_partition(g, tp->topic, tp->partition);
		}
	if (g->n_partitions == n_known)
		return;
	/* The added ones may repeat (two members, or one listed twice): sort, then drop repeats. Only
	 * added partitions can repeat, and they are identical, so which one stays does not matter. */
	qsort(g->partitions, g->n_partitions, sizeof *g->partitions, cmp_partition);
	size_t j = 0;
	for (size_t k = 0; k < g->n_partitions; k++) {
		if (j > 0 && cmp_partition(&g->partitions[j - 1], &g->partitions[k]) == 0)
			continue; /* an added row: no ext */
		if (j != k)
			g->partitions[j] = g->partitions[k];
		j++;
	}
	/* Fewer than allocated is fine: the implied capacity never exceeds the real one. */
	g->n_partitions = j;
}

void snapshot_finish(lt_snapshot *s)
{
	if (s->n_groups > 1)
		qsort(s->groups, s->n_groups, sizeof *s->groups, cmp_group);
	for (size_t i = 0; i < s->n_groups; i++) {
		lt_group *g = &s->groups[i];
		add_assigned_partitions(g);
		for (size_t k = 0; k < g->n_partitions; k++)
			g->partitions[k].member = -1;
		for (size_t m = 0; m < g->n_members; m++)
			for (size_t a = 0; a < g->members[m].n_assigned; a++) {
				lt_partition *p = find_partition(g, g->members[m].assigned[a].topic,
								 g->members[m].assigned[a].partition);
				if (p)
					p->member = (int)m;
			}
	}
}

const lt_group *snapshot_find_group(const lt_snapshot *s, const char *group_id)
{
	lt_group key = { .group = (char *)group_id };
	if (!s || !group_id || s->n_groups == 0) /* bsearch must not get a NULL array (UBSan) */
		return NULL;
	return bsearch(&key, s->groups, s->n_groups, sizeof *s->groups, cmp_group);
}

void snapshot_add_unread(lt_snapshot *s, const char *group, int32_t broker, const char *reason)
{
	s->unread = xrealloc(s->unread, (s->n_unread + 1) * sizeof *s->unread);
	s->unread[s->n_unread++] = (lt_unread){ .group = group ? xstrdup(group) : NULL,
						.broker = group ? -1 : broker,
						.reason = xstrdup(reason ? reason : "no answer") };
}

void snapshot_count_unread(lt_snapshot *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n_groups; i++)
		n += s->groups[i].unread;
	for (size_t i = 0; i < s->n_unread; i++)
		n += s->unread[i].group != NULL;
	s->groups_unread = n;
}

bool snapshot_read_whole(const lt_snapshot *s)
{
	return s->groups_unread == 0 && s->n_unread == 0;
}

const char *snapshot_unread_reason(const lt_snapshot *s, const char *group_id)
{
	const lt_group *g = snapshot_find_group(s, group_id);
	if (g)
		return g->unread ? (g->error ? g->error : "not read") : NULL;
	for (size_t i = 0; s && i < s->n_unread; i++)
		if (s->unread[i].group && strcmp(s->unread[i].group, group_id) == 0)
			return s->unread[i].reason;
	return NULL;
}

static const struct {
	lt_group_state state;
	const char *name;
} group_state_names[] = {
	{ LT_GROUP_UNKNOWN, "Unknown" },
	{ LT_GROUP_EMPTY, "Empty" },
	{ LT_GROUP_PREPARING_REBALANCE, "PreparingRebalance" },
	{ LT_GROUP_COMPLETING_REBALANCE, "CompletingRebalance" },
	{ LT_GROUP_STABLE, "Stable" },
	{ LT_GROUP_DEAD, "Dead" },
	{ LT_GROUP_ASSIGNING, "Assigning" },
	{ LT_GROUP_RECONCILING, "Reconciling" },
};

const char *group_state_name(lt_group_state st)
{
	for (size_t i = 0; i < sizeof group_state_names / sizeof group_state_names[0]; i++)
		if (group_state_names[i].state == st)
			return group_state_names[i].name;
	return "Unknown";
}

lt_group_state group_state_parse(const char *name)
{
	if (!name)
		return LT_GROUP_UNKNOWN;
	for (size_t i = 0; i < sizeof group_state_names / sizeof group_state_names[0]; i++)
		if (strcmp(group_state_names[i].name, name) == 0)
			return group_state_names[i].state;
	/* Kafka < 2.0 called CompletingRebalance "AwaitingSync". */
	if (strcmp(name, "AwaitingSync") == 0)
		return LT_GROUP_COMPLETING_REBALANCE;
	return LT_GROUP_UNKNOWN;
}

const char *group_type_name(lt_group_type t)
{
	switch (t) {
	case LT_GTYPE_CLASSIC: return "classic";
	case LT_GTYPE_CONSUMER: return "consumer";
	default: return NULL;
	}
}

bool group_members_known(const lt_group *g)
{
	return !g->members_unreadable || g->state == LT_GROUP_EMPTY;
}

const char *status_name(lt_status st)
{
	static const char *const names[] = {
		[LT_STATUS_UNKNOWN] = "-", [LT_STATUS_PENDING] = "-",     [LT_STATUS_OK] = "OK",
		[LT_STATUS_WARN] = "WARN", [LT_STATUS_REWIND] = "REWIND", [LT_STATUS_STALL] = "STALL",
		[LT_STATUS_STOP] = "STOP", [LT_STATUS_ERR] = "ERR",
	};
	if ((unsigned)st < sizeof names / sizeof names[0])
		return names[st];
	return "-";
}

bool status_evaluated(lt_status st)
{
	return st >= LT_STATUS_OK && st <= LT_STATUS_ERR;
}

bool status_at_least(lt_status st, lt_status threshold)
{
	return status_evaluated(st) && st >= threshold;
}

const char *cstream_state_name(lt_cstream_state st)
{
	static const char *const names[] = {
		[LT_CSTREAM_OFF] = "off",   [LT_CSTREAM_STARTING] = "starting", [LT_CSTREAM_LOADING] = "loading",
		[LT_CSTREAM_LIVE] = "live", [LT_CSTREAM_DENIED] = "denied",     [LT_CSTREAM_FAILED] = "failed",
	};
	return (unsigned)st < sizeof names / sizeof names[0] ? names[st] : "?";
}

bool partition_uncommitted(const lt_group *g, const lt_partition *p, int64_t *out)
{
	if (!p->has_position || p->committed < 0)
		return false;
	*out = partition_position(g, p) - p->committed;
	return true;
}

const lt_partition_ext *partition_ext(const lt_group *g, const lt_partition *p)
{
	if (!g || !p || p->ext == 0 || p->ext > g->n_pext)
		return NULL;
	return &g->pext[p->ext - 1];
}

lt_partition_ext *partition_ext_add(lt_group *g, lt_partition *p)
{
	if (p->ext == 0 || p->ext > g->n_pext) {
		g->pext = grow_for_one_more(g->pext, g->n_pext, sizeof *g->pext);
		memset(&g->pext[g->n_pext], 0, sizeof *g->pext);
		p->ext = (uint32_t)++g->n_pext;
	}
	return &g->pext[p->ext - 1];
}

const char *partition_commit_metadata(const lt_group *g, const lt_partition *p)
{
	const lt_partition_ext *e = partition_ext(g, p);
	return e ? e->commit_metadata : NULL;
}

int64_t partition_stale_ms(const lt_group *g, const lt_partition *p)
{
	const lt_partition_ext *e = partition_ext(g, p);
	return e ? e->stale_ms : 0;
}

int64_t partition_position(const lt_group *g, const lt_partition *p)
{
	const lt_partition_ext *e = partition_ext(g, p);
	return e ? e->position : 0;
}

int64_t partition_position_age_ms(const lt_group *g, const lt_partition *p)
{
	const lt_partition_ext *e = partition_ext(g, p);
	return e ? e->position_age_ms : 0;
}

int32_t partition_position_source(const lt_group *g, const lt_partition *p)
{
	const lt_partition_ext *e = partition_ext(g, p);
	return e ? e->position_source : 0;
}

void snapshot_add_broker(lt_snapshot *s, int32_t id, const char *host, int port)
{
	s->brokers = xrealloc(s->brokers, (s->n_brokers + 1) * sizeof *s->brokers);
	s->brokers[s->n_brokers++] = (lt_broker){ .id = id, .port = port, .host = xstrdup(host ? host : "") };
}

const lt_broker *snapshot_find_broker(const lt_snapshot *s, int32_t id)
{
	for (size_t i = 0; i < s->n_brokers; i++)
		if (s->brokers[i].id == id)
			return &s->brokers[i];
	return NULL;
}

void group_add_commit_epoch(lt_group *g, const char *topic, int32_t partition, int32_t epoch)
{
	g->commit_epochs = xrealloc(g->commit_epochs, (g->n_commit_epochs + 1) * sizeof *g->commit_epochs);
	g->commit_epochs[g->n_commit_epochs++] =
		(lt_commit_epoch){ .topic = strtab_intern(g->strtab, topic), .partition = partition, .epoch = epoch };
}

int32_t group_commit_epoch(const lt_group *g, const char *topic, int32_t partition)
{
	for (size_t i = 0; i < g->n_commit_epochs; i++)
		if (g->commit_epochs[i].partition == partition && strcmp(g->commit_epochs[i].topic, topic) == 0)
			return g->commit_epochs[i].epoch;
	return -1;
}
