/* cluster.c — see cluster.h. */
#include "sim/cluster.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/wire.h"
#include "sim/offsets_log.h"
#include "util/xalloc.h"

static const char *const state_names[] = {
	[SIM_GROUP_EMPTY] = "Empty",
	[SIM_GROUP_PREPARING_REBALANCE] = "PreparingRebalance",
	[SIM_GROUP_COMPLETING_REBALANCE] = "CompletingRebalance",
	[SIM_GROUP_STABLE] = "Stable",
	[SIM_GROUP_DEAD] = "Dead",
	[SIM_GROUP_ASSIGNING] = "Assigning",
	[SIM_GROUP_RECONCILING] = "Reconciling",
};

const char *sim_group_state_name(enum sim_group_state s)
{
	return (unsigned)s < sizeof(state_names) / sizeof(state_names[0]) ? state_names[s] : "Unknown";
}

int sim_group_state_parse(const char *name, enum sim_group_state *out)
{
	for (size_t i = 0; i < sizeof(state_names) / sizeof(state_names[0]); i++) {
		if (strcasecmp(name, state_names[i]) == 0) {
			*out = (enum sim_group_state)i;
			return 0;
		}
	}
	return -1;
}

bool sim_group_state_valid(enum sim_group_type t, enum sim_group_state s)
{
	switch (s) {
	case SIM_GROUP_EMPTY:
	case SIM_GROUP_STABLE:
	case SIM_GROUP_DEAD: return true;
	case SIM_GROUP_PREPARING_REBALANCE:
	case SIM_GROUP_COMPLETING_REBALANCE: return t == SIM_GROUP_CLASSIC;
	case SIM_GROUP_ASSIGNING:
	case SIM_GROUP_RECONCILING: return t == SIM_GROUP_CONSUMER;
	}
	return false;
}

const char *sim_group_type_name(enum sim_group_type t)
{
	return t == SIM_GROUP_CONSUMER ? "consumer" : "classic";
}

struct sim_state *sim_state_new(int nnodes, uint64_t seed)
{
	struct sim_state *st = xcalloc(1, sizeof(*st));
	st->nnodes = nnodes;
	st->nodes = xcalloc((size_t)nnodes, sizeof(*st->nodes));
	for (int i = 0; i < nnodes; i++) {
		st->nodes[i].node_id = i + 1;
		snprintf(st->nodes[i].host, sizeof(st->nodes[i].host), "127.0.0.1");
		st->nodes[i].up = true;
	}
	st->cluster_id = xstrdup("lagtop-sim-cluster");
	strmap_init(&st->topics);
	strmap_init(&st->groups);
	st->rng = seed ? seed : 0x9e3779b97f4a7c15ULL;
	st->kafka_major = 4;
	return st;
}

static void topic_free(struct sim_state *st, struct sim_topic *t)
{
	for (int32_t i = 0; i < t->npartitions; i++) {
		free(t->parts[i].segs);
		if (t->parts[i].store && st->store_free)
			st->store_free(t->parts[i].store);
	}
	free(t->parts);
	free(t->name);
	free(t);
}

static void group_free(struct sim_group *g)
{
	for (size_t i = 0; i < g->nmembers; i++)
		sim_member_free(g->members[i]);
	free(g->members);
	for (size_t i = 0; i < g->noffsets; i++) {
		for (int32_t p = 0; p < g->offsets[i].nparts; p++)
			free(g->offsets[i].parts[p].metadata);
		free(g->offsets[i].parts);
		free(g->offsets[i].topic);
	}
	free(g->offsets);
	if (g->priv && g->priv_free)
		g->priv_free(g->priv);
	free(g->group_id);
	free(g->protocol_type);
	free(g->protocol_name);
	free(g->leader_id);
	free(g);
}

void sim_state_free(struct sim_state *st)
{
	if (!st)
		return;
	void *v;
	size_t it = 0;
	while ((v = strmap_next(&st->topics, &it)))
		topic_free(st, v);
	it = 0;
	while ((v = strmap_next(&st->groups, &it)))
		group_free(v);
	strmap_free(&st->topics);
	strmap_free(&st->groups);
	free(st->nodes);
	free(st->cluster_id);
	free(st);
}

uint64_t sim_state_rand(struct sim_state *st)
{
	uint64_t x = st->rng;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	st->rng = x;
	return x;
}

struct sim_node *sim_state_node(struct sim_state *st, int32_t node_id)
{
	return node_id >= 1 && node_id <= st->nnodes ? &st->nodes[node_id - 1] : NULL;
}

/* ---- topics ---- */

static bool topic_name_valid(const char *name)
{
	size_t n = strlen(name);
	if (n == 0 || n > 249 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
		      c == '_' || c == '-'))
			return false;
	}
	return true;
}

struct sim_topic *sim_topic_create(struct sim_state *st, const char *name, int32_t npartitions, int16_t *kerr,
				   char *err, size_t errlen)
{
	int16_t dummy;
	if (!kerr)
		kerr = &dummy;
	if (!st->any_topic_names && !topic_name_valid(name)) {
		*kerr = KERR_INVALID_TOPIC_EXCEPTION;
		snprintf(err, errlen, "invalid topic name '%s'", name);
		return NULL;
	}
	if (npartitions < 1 || npartitions > 100000) {
		*kerr = KERR_INVALID_PARTITIONS;
		snprintf(err, errlen, "topic '%s': partition count %d out of range 1..100000", name, npartitions);
		return NULL;
	}
	if (strmap_get(&st->topics, name, strlen(name))) {
		*kerr = KERR_TOPIC_ALREADY_EXISTS;
		snprintf(err, errlen, "topic '%s' already exists", name);
		return NULL;
	}
	struct sim_topic *t = xcalloc(1, sizeof(*t));
	t->name = xstrdup(name);
	t->npartitions = npartitions;
	t->parts = xcalloc((size_t)npartitions, sizeof(*t->parts));
	t->seq = st->topic_seq++;
	uint64_t h = strmap_hash(name, strlen(name));
	for (int i = 0; i < 16; i++)
		t->id[i] = (uint8_t)(h >> (8 * (i % 8))) ^ (uint8_t)(i * 37 + 1);
	for (int32_t i = 0; i < npartitions; i++) {
		t->parts[i].index = i;
		/* Spread leaders: consecutive partitions on consecutive brokers, offset per topic.
		 * __consumer_offsets has no offset: partition p's leader coordinates its groups. */
		size_t shift = strcmp(name, SIM_OFFSETS_TOPIC) == 0 ? 0 : t->seq;
		t->parts[i].leader = (int32_t)((shift + (size_t)i) % (size_t)st->nnodes) + 1;
	}
	strmap_put(&st->topics, t->name, t);
	*kerr = KERR_NONE;
	return t;
}

struct sim_topic *sim_topic_find(const struct sim_state *st, const char *name, size_t len)
{
	return strmap_get(&st->topics, name, len);
}

struct sim_partition *sim_partition_find(const struct sim_state *st, const char *topic, size_t len, int32_t p)
{
	struct sim_topic *t = sim_topic_find(st, topic, len);
	if (!t || p < 0 || p >= t->npartitions)
		return NULL;
	return &t->parts[p];
}

static int topic_seq_cmp(const void *a, const void *b)
{
	const struct sim_topic *x = *(const struct sim_topic *const *)a, *y = *(const struct sim_topic *const *)b;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

struct sim_topic **sim_topics_sorted(const struct sim_state *st, size_t *n)
{
	struct sim_topic **v = xcalloc(st->topics.count + 1, sizeof(*v));
	size_t it = 0, k = 0;
	struct sim_topic *t;
	while ((t = strmap_next(&st->topics, &it)))
		v[k++] = t;
	qsort(v, k, sizeof(*v), topic_seq_cmp);
	*n = k;
	return v;
}

int64_t sim_partition_append(struct sim_partition *p, int64_t count, int64_t first_ts, int64_t ts_step)
{
	int64_t first = p->log_end;
	if (count <= 0)
		return first;
	if (ts_step < 0)
		ts_step = 0;
	if (count == 1)
		ts_step = 0;
	struct sim_segment *last = p->nsegs ? &p->segs[p->nsegs - 1] : NULL;
	/* Extend the last run when the new records continue its arithmetic progression. */
	if (last && last->first_offset + last->count == first) {
		int64_t next_ts = last->first_ts + last->ts_step * last->count;
		if (last->count == 1 && first_ts >= last->first_ts &&
		    (count == 1 || ts_step == first_ts - last->first_ts)) {
			last->ts_step = first_ts - last->first_ts;
			last->count += count;
			p->log_end += count;
			return first;
		}
		if (first_ts == next_ts && (ts_step == last->ts_step || count == 1)) {
			last->count += count;
			p->log_end += count;
			return first;
		}
	}
	p->segs = xgrow(p->segs, &p->segs_cap, p->nsegs + 1, sizeof(*p->segs));
	p->segs[p->nsegs++] = (struct sim_segment){ first, count, first_ts, ts_step };
	p->log_end += count;
	return first;
}

void sim_partition_set_log_start(struct sim_partition *p, int64_t offset)
{
	if (offset > p->log_end)
		offset = p->log_end;
	if (offset <= p->log_start)
		return;
	p->log_start = offset;
	/* Drop runs that lie wholly below the new start; trim the first one kept. */
	size_t drop = 0;
	while (drop < p->nsegs && p->segs[drop].first_offset + p->segs[drop].count <= offset)
		drop++;
	if (drop) {
		memmove(p->segs, p->segs + drop, (p->nsegs - drop) * sizeof(*p->segs));
		p->nsegs -= drop;
	}
	if (p->nsegs && p->segs[0].first_offset < offset) {
		struct sim_segment *s = &p->segs[0];
		int64_t skip = offset - s->first_offset;
		s->first_ts += skip * s->ts_step;
		s->first_offset = offset;
		s->count -= skip;
	}
}

int64_t sim_partition_timestamp_at(const struct sim_partition *p, int64_t offset)
{
	if (offset < p->log_start || offset >= p->log_end)
		return -1;
	size_t lo = 0, hi = p->nsegs;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct sim_segment *s = &p->segs[mid];
		if (offset < s->first_offset)
			hi = mid;
		else if (offset >= s->first_offset + s->count)
			lo = mid + 1;
		else
			return s->first_ts + (offset - s->first_offset) * s->ts_step;
	}
	return -1;
}

int64_t sim_partition_offset_for_time(const struct sim_partition *p, int64_t ts, int64_t *found_ts)
{
	/* Runs are scanned in offset order: timestamps need not be monotonic across runs (producers may
	 * set any time), and Kafka answers the FIRST offset whose timestamp is >= ts. */
	for (size_t i = 0; i < p->nsegs; i++) {
		const struct sim_segment *s = &p->segs[i];
		int64_t last_ts = s->first_ts + (s->count - 1) * s->ts_step;
		if (last_ts < ts)
			continue;
		int64_t k = 0;
		if (s->first_ts < ts && s->ts_step > 0)
			k = (ts - s->first_ts + s->ts_step - 1) / s->ts_step;
		if (found_ts)
			*found_ts = s->first_ts + k * s->ts_step;
		return s->first_offset + k;
	}
	if (found_ts)
		*found_ts = -1;
	return -1;
}

/* ---- groups ---- */

int32_t sim_coordinator_for(const struct sim_state *st, const char *group_id, size_t len)
{
	/* A coordinator moved by fault injection (sim_fault_move_coordinator) wins. */
	const struct sim_group *g = sim_group_find(st, group_id, len);
	if (g && g->coordinator > 0)
		return g->coordinator;
	/* As in Kafka: the leader of the group's __consumer_offsets partition (sim_topic_create gives
	 * its partition p to broker p % N + 1). */
	char buf[256];
	char *id = len < sizeof buf ? buf : xmalloc(len + 1);
	memcpy(id, group_id, len);
	id[len] = '\0';
	int32_t node = sim_offsets_partition(id) % st->nnodes + 1;
	if (id != buf)
		free(id);
	return node;
}

struct sim_group *sim_group_find(const struct sim_state *st, const char *id, size_t len)
{
	return strmap_get(&st->groups, id, len);
}

struct sim_group *sim_group_get_or_create(struct sim_state *st, const char *id)
{
	struct sim_group *g = sim_group_find(st, id, strlen(id));
	if (g)
		return g;
	g = xcalloc(1, sizeof(*g));
	g->group_id = xstrdup(id);
	g->state = SIM_GROUP_EMPTY;
	g->state_ms = -1;
	g->protocol_type = xstrdup("");
	g->protocol_name = xstrdup("");
	strmap_put(&st->groups, g->group_id, g);
	return g;
}

void sim_group_delete(struct sim_state *st, struct sim_group *g)
{
	strmap_del(&st->groups, g->group_id, strlen(g->group_id));
	group_free(g);
}

void sim_group_to_classic(struct sim_group *g)
{
	g->type = SIM_GROUP_CLASSIC;
	g->state = SIM_GROUP_EMPTY;
	g->group_epoch = g->assignment_epoch = 0;
	g->generation_id = 0;
	free(g->protocol_type);
	g->protocol_type = xstrdup("");
	free(g->protocol_name);
	g->protocol_name = xstrdup("");
}

struct sim_member *sim_member_new(const char *member_id, const char *client_id, const char *client_host)
{
	struct sim_member *m = xcalloc(1, sizeof(*m));
	m->member_id = xstrdup(member_id);
	m->client_id = xstrdup(client_id ? client_id : "");
	m->client_host = xstrdup(client_host ? client_host : "/127.0.0.1");
	m->session_timeout_ms = 45000;
	m->rebalance_timeout_ms = 300000;
	return m;
}

void sim_member_free(struct sim_member *m)
{
	if (!m)
		return;
	if (m->priv && m->priv_free)
		m->priv_free(m->priv);
	for (size_t i = 0; i < m->nprotocols; i++) {
		free(m->protocols[i].name);
		free(m->protocols[i].metadata);
	}
	free(m->protocols);
	free(m->assignment);
	free(m->member_id);
	free(m->group_instance_id);
	free(m->client_id);
	free(m->client_host);
	free(m->rack_id);
	free(m->subscribed_regex);
	for (size_t i = 0; i < m->nsubscribed_topics; i++)
		free(m->subscribed_topics[i]);
	free(m->subscribed_topics);
	free(m);
}

static uint8_t *bytes_dup(const void *p, int32_t len)
{
	if (len <= 0)
		return xmalloc(1);
	uint8_t *d = xmalloc((size_t)len);
	memcpy(d, p, (size_t)len);
	return d;
}

void sim_member_add_protocol(struct sim_member *m, const char *name, const void *metadata, int32_t len)
{
	m->protocols = xrealloc(m->protocols, (m->nprotocols + 1) * sizeof(*m->protocols));
	struct sim_protocol *p = &m->protocols[m->nprotocols++];
	p->name = xstrdup(name);
	p->metadata = bytes_dup(metadata, len);
	p->metadata_len = len < 0 ? 0 : len;
}

void sim_member_set_assignment(struct sim_member *m, const void *bytes, int32_t len)
{
	free(m->assignment);
	m->assignment = bytes_dup(bytes, len);
	m->assignment_len = len < 0 ? 0 : len;
}

void sim_group_add_member(struct sim_group *g, struct sim_member *m)
{
	g->members = xgrow(g->members, &g->members_cap, g->nmembers + 1, sizeof(*g->members));
	g->members[g->nmembers++] = m;
}

struct sim_member *sim_group_find_member(const struct sim_group *g, const char *member_id, size_t len)
{
	for (size_t i = 0; i < g->nmembers; i++) {
		const char *id = g->members[i]->member_id;
		if (strlen(id) == len && memcmp(id, member_id, len) == 0)
			return g->members[i];
	}
	return NULL;
}

int sim_group_remove_member(struct sim_group *g, const char *member_id)
{
	for (size_t i = 0; i < g->nmembers; i++) {
		if (strcmp(g->members[i]->member_id, member_id) == 0) {
			sim_member_free(g->members[i]);
			memmove(&g->members[i], &g->members[i + 1], (g->nmembers - i - 1) * sizeof(*g->members));
			g->nmembers--;
			return 0;
		}
	}
	return -1;
}

const struct sim_protocol *sim_member_protocol(const struct sim_member *m, const char *name)
{
	for (size_t i = 0; i < m->nprotocols; i++)
		if (name && strcmp(m->protocols[i].name, name) == 0)
			return &m->protocols[i];
	return NULL;
}

static struct sim_group_topic *group_topic(const struct sim_group *g, const char *topic, size_t len)
{
	for (size_t i = 0; i < g->noffsets; i++) {
		struct sim_group_topic *gt = &g->offsets[i];
		if (strlen(gt->topic) == len && memcmp(gt->topic, topic, len) == 0)
			return gt;
	}
	return NULL;
}

void sim_group_commit(struct sim_group *g, const char *topic, size_t topic_len, int32_t partition, int64_t offset,
		      int32_t leader_epoch, const char *metadata, size_t metadata_len, int64_t now_ms)
{
	if (partition < 0)
		return;
	struct sim_group_topic *gt = group_topic(g, topic, topic_len);
	if (!gt) {
		g->offsets = xgrow(g->offsets, &g->offsets_cap, g->noffsets + 1, sizeof(*g->offsets));
		gt = &g->offsets[g->noffsets++];
		gt->topic = xstrndup(topic, topic_len);
		gt->parts = NULL;
		gt->nparts = 0;
	}
	if (partition >= gt->nparts) {
		int32_t n = partition + 1;
		gt->parts = xrealloc(gt->parts, (size_t)n * sizeof(*gt->parts));
		memset(gt->parts + gt->nparts, 0, (size_t)(n - gt->nparts) * sizeof(*gt->parts));
		gt->nparts = n;
	}
	struct sim_commit *c = &gt->parts[partition];
	free(c->metadata);
	c->set = true;
	c->offset = offset;
	c->leader_epoch = leader_epoch;
	c->metadata = metadata ? xstrndup(metadata, metadata_len) : NULL;
	c->commit_ts_ms = now_ms;
}

const struct sim_commit *sim_group_committed(const struct sim_group *g, const char *topic, size_t len, int32_t p)
{
	struct sim_group_topic *gt = group_topic(g, topic, len);
	if (!gt || p < 0 || p >= gt->nparts || !gt->parts[p].set)
		return NULL;
	return &gt->parts[p];
}

int sim_group_commit_delete(struct sim_group *g, const char *topic, size_t len, int32_t partition)
{
	struct sim_group_topic *gt = group_topic(g, topic, len);
	if (!gt || partition < 0 || partition >= gt->nparts || !gt->parts[partition].set)
		return -1;
	struct sim_commit *c = &gt->parts[partition];
	free(c->metadata);
	memset(c, 0, sizeof(*c));
	return 0;
}

size_t sim_group_commit_count(const struct sim_group *g)
{
	size_t n = 0;
	for (size_t i = 0; i < g->noffsets; i++)
		for (int32_t p = 0; p < g->offsets[i].nparts; p++)
			n += g->offsets[i].parts[p].set;
	return n;
}

struct subscribes_arg {
	const char *topic;
	size_t len;
	bool found;
};

static void subscribes_cb(const char *topic, size_t len, void *arg)
{
	struct subscribes_arg *a = arg;
	if (len == a->len && memcmp(topic, a->topic, len) == 0)
		a->found = true;
}

bool sim_group_subscribes(const struct sim_group *g, const char *topic, size_t len)
{
	if (g->state == SIM_GROUP_EMPTY || g->state == SIM_GROUP_DEAD)
		return false;
	if (g->type == SIM_GROUP_CLASSIC && strcmp(g->protocol_type, "consumer") != 0)
		return false; /* a classic group of another protocol type: its metadata is not ours to parse */
	struct subscribes_arg a = { topic, len, false };
	for (size_t i = 0; i < g->nmembers && !a.found; i++) {
		const struct sim_member *m = g->members[i];
		if (g->type == SIM_GROUP_CONSUMER) {
			/* Kafka's ConsumerGroup.isSubscribedToTopic: the subscriptions only, not the assignments. */
			for (size_t k = 0; k < m->nsubscribed_topics; k++)
				subscribes_cb(m->subscribed_topics[k], strlen(m->subscribed_topics[k]), &a);
			continue;
		}
		const struct sim_protocol *p = sim_member_protocol(m, g->protocol_name);
		if (!p && m->nprotocols)
			p = &m->protocols[0];
		if (p)
			(void)sim_consumer_topics_each(p->metadata, p->metadata_len, false, subscribes_cb, &a);
		if (m->assignment_len > 0)
			(void)sim_consumer_topics_each(m->assignment, m->assignment_len, true, subscribes_cb, &a);
	}
	return a.found;
}

/* ---- consumer protocol ---- */

uint8_t *sim_consumer_subscription_encode(const char *const *topics, int ntopics, int32_t *len)
{
	struct wire_buf b;
	wire_buf_init(&b);
	wire_put_i16(&b, 0);
	wire_put_array(&b, ntopics, false);
	for (int i = 0; i < ntopics; i++)
		wire_put_str(&b, topics[i], false);
	wire_put_bytes(&b, NULL, -1, false); /* user data */
	*len = (int32_t)b.len;
	return b.data;
}

uint8_t *sim_consumer_assignment_encode(const struct sim_assignment *a, int n, int32_t *len)
{
	struct wire_buf b;
	wire_buf_init(&b);
	wire_put_i16(&b, 0);
	wire_put_array(&b, n, false);
	for (int i = 0; i < n; i++) {
		wire_put_str(&b, a[i].topic, false);
		wire_put_array(&b, a[i].npartitions, false);
		for (int k = 0; k < a[i].npartitions; k++)
			wire_put_i32(&b, a[i].partitions[k]);
	}
	wire_put_bytes(&b, NULL, -1, false);
	*len = (int32_t)b.len;
	return b.data;
}

int sim_consumer_topics_each(const uint8_t *bytes, int32_t len, bool assignment,
			     void (*fn)(const char *topic, size_t len, void *arg), void *arg)
{
	struct wire_rd rd;
	wire_rd_init(&rd, bytes, len > 0 ? (size_t)len : 0);
	(void)wire_i16(&rd); /* version */
	int32_t n = wire_array(&rd, false, 2);
	for (int32_t i = 0; i < n && !rd.err; i++) {
		struct wire_str t = wire_str(&rd, false);
		if (assignment) {
			int32_t np = wire_array(&rd, false, 4);
			wire_skip(&rd, np > 0 ? (size_t)np * 4 : 0);
		}
		if (!rd.err && t.len >= 0)
			fn(t.p, (size_t)t.len, arg);
	}
	return rd.err ? -1 : 0;
}

int sim_consumer_assignment_each(const uint8_t *bytes, int32_t len, sim_assignment_fn *fn, void *arg)
{
	struct wire_rd rd;
	wire_rd_init(&rd, bytes, len > 0 ? (size_t)len : 0);
	(void)wire_i16(&rd); /* version */
	int32_t n = wire_array(&rd, false, 2 + 4);
	for (int32_t i = 0; i < n && !rd.err; i++) {
		struct wire_str t = wire_str(&rd, false);
		int32_t np = wire_array(&rd, false, 4);
		int32_t *parts = xcalloc(np > 0 ? (size_t)np : 1, sizeof(*parts));
		for (int32_t k = 0; k < np; k++)
			parts[k] = wire_i32(&rd);
		if (!rd.err && t.len >= 0)
			fn(t.p, (size_t)t.len, parts, np > 0 ? np : 0, arg);
		free(parts);
	}
	return rd.err ? -1 : 0;
}
