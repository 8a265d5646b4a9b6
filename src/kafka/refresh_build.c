/* refresh_build.c — a group of the snapshot built from what the refresh learnt: its describe (the
 * per-group call, or the batch's answer where batch_usable says it is the same) with ListGroups'
 * view, its committed offsets (OffsetFetch or the stream), or the last snapshot's data (stale, or quiet
 * and built from the stream). Sends nothing.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "kafka/assignment.h"
#include "kafka/client.h"
#include "kafka/group_batch.h"
#include "kafka/refresh_internal.h"
#include "model/group_view.h"
#include "util/xalloc.h"

lt_group_state state_from_rd(rd_kafka_consumer_group_state_t st)
{
	switch (st) {
	case RD_KAFKA_CONSUMER_GROUP_STATE_PREPARING_REBALANCE: return LT_GROUP_PREPARING_REBALANCE;
	case RD_KAFKA_CONSUMER_GROUP_STATE_COMPLETING_REBALANCE: return LT_GROUP_COMPLETING_REBALANCE;
	case RD_KAFKA_CONSUMER_GROUP_STATE_STABLE: return LT_GROUP_STABLE;
	case RD_KAFKA_CONSUMER_GROUP_STATE_DEAD: return LT_GROUP_DEAD;
	case RD_KAFKA_CONSUMER_GROUP_STATE_EMPTY: return LT_GROUP_EMPTY;
	default: return LT_GROUP_UNKNOWN;
	}
}

/* Copies a previous group's state, type, protocol, coordinator and members into s (no partitions). */
static lt_group *group_copy_head(lt_snapshot *s, const lt_group *pg)
{
	lt_group *g = snapshot_add_group(s, pg->group);
	g->state = pg->state;
	g->type = pg->type;
	g->members_unreadable = pg->members_unreadable;
	g->protocol_type = xstrdup(pg->protocol_type);
	g->protocol = xstrdup(pg->protocol);
	g->coordinator = pg->coordinator;
	for (size_t m = 0; m < pg->n_members; m++) {
		const lt_member *pm = &pg->members[m];
		lt_member *nm = group_add_member(g, pm->member_id, pm->client_id, pm->host);
		nm->instance_id = xstrdup(pm->instance_id);
		for (size_t a = 0; a < pm->n_assigned; a++)
			member_add_assignment(nm, pm->assigned[a].topic, pm->assigned[a].partition);
	}
	return g;
}

/* Copies a previous group's observed data into s, marked stale. */
lt_group *group_copy_stale(lt_snapshot *s, const lt_group *pg, int64_t prev_taken_at, int64_t now, const char *error)
{
	lt_group *g = group_copy_head(s, pg);
	g->error = xstrdup(error ? error : pg->error);
	g->unread = true;
	/* Age of the data: how old it already was, plus the time since that refresh. */
	g->stale_ms = pg->stale_ms + (now - prev_taken_at);
	for (size_t k = 0; k < pg->n_partitions; k++) {
		const lt_partition *pp = &pg->partitions[k];
		lt_partition *np = group_add_partition(g, pp->topic, pp->partition);
		np->log_start = pp->log_start;
		np->committed = pp->committed;
		np->log_end = pp->log_end;
		const char *md = partition_commit_metadata(pg, pp);
		if (md)
			partition_ext_add(g, np)->commit_metadata = xstrdup(md);
		int32_t epoch = group_commit_epoch(pg, pp->topic, pp->partition);
		if (epoch >= 0)
			group_add_commit_epoch(g, pp->topic, pp->partition, epoch);
		np->flags = LT_PF_STALE | (pp->flags & (LT_PF_NO_LEADER | LT_PF_LOG_UNKNOWN));
		partition_ext_add(g, np)->stale_ms = g->stale_ms;
	}
	return g;
}

static bool partition_in(const lt_group *g, const char *topic, int32_t partition)
{
	for (size_t k = 0; k < g->n_partitions; k++)
		if (g->partitions[k].partition == partition && strcmp(g->partitions[k].topic, topic) == 0)
			return true;
	return false;
}

static lt_group_described batch_described(const struct rd_kafka_group_info *gi)
{
	return (lt_group_described){
		.state = state_from_rd(rd_kafka_consumer_group_state_code(gi->state ? gi->state : "")),
		.n_members = gi->member_cnt > 0 ? (size_t)gi->member_cnt : 0,
		.protocol_type_empty = !gi->protocol_type || !gi->protocol_type[0],
		.type = LT_GTYPE_UNKNOWN, /* DescribeGroups: what librdkafka's describe gives a classic group */
	};
}

lt_group_described described_of(const struct group_work *gw)
{
	if (gw->binfo)
		return batch_described(gw->binfo);
	const rd_kafka_ConsumerGroupDescription_t *d = gw->desc;
	return (lt_group_described){
		.state = state_from_rd(rd_kafka_ConsumerGroupDescription_state(d)),
		.n_members = rd_kafka_ConsumerGroupDescription_member_count(d),
		.protocol_type_empty = rd_kafka_ConsumerGroupDescription_is_simple_consumer_group(d) != 0,
		.type = client_description_type(d),
	};
}

/* What ListGroups said of the group, as far as this refresh knows. */
static lt_group_listing listing_of(const struct work_set *ws, const struct group_work *gw)
{
	if (gw->listed)
		return (lt_group_listing){ .kind = LT_LISTING_LISTED, .state = gw->list_state, .type = gw->list_type };
	if (ws->list_done && ws->list_complete)
		return (lt_group_listing){ .kind = LT_LISTING_ABSENT };
	return (lt_group_listing){ .kind = LT_LISTING_UNKNOWN };
}

/* The group's state and type from its describe and ListGroups together (group_view_combine; the last
 * snapshot's view is the hint when ListGroups gave no complete answer). */
lt_group_view view_of_work(const struct work_set *ws, const lt_snapshot *prev, const struct group_work *gw)
{
	lt_group_described desc = described_of(gw);
	lt_group_listing listing = listing_of(ws, gw);
	const lt_group *pg = snapshot_find_group(prev, gw->name);
	lt_group_view hint = pg ? group_view_of(pg) : (lt_group_view){ 0 };
	return group_view_combine(&listing, &desc, pg ? &hint : NULL);
}

/* Protocol, coordinator and members from librdkafka's per-group describe. */
static void admin_members(lt_group *g, const rd_kafka_ConsumerGroupDescription_t *d)
{
	const char *assignor = rd_kafka_ConsumerGroupDescription_partition_assignor(d);
	g->protocol = xstrdup(assignor ? assignor : "");
	const rd_kafka_Node_t *coord = rd_kafka_ConsumerGroupDescription_coordinator(d);
	g->coordinator = coord ? rd_kafka_Node_id(coord) : -1;
	size_t n_members = rd_kafka_ConsumerGroupDescription_member_count(d);
	for (size_t m = 0; m < n_members; m++) {
		const rd_kafka_MemberDescription_t *md = rd_kafka_ConsumerGroupDescription_member(d, m);
		lt_member *lm =
			group_add_member(g, rd_kafka_MemberDescription_consumer_id(md),
					 rd_kafka_MemberDescription_client_id(md), rd_kafka_MemberDescription_host(md));
		lm->instance_id = xstrdup(rd_kafka_MemberDescription_group_instance_id(md));
		const rd_kafka_MemberAssignment_t *ma = rd_kafka_MemberDescription_assignment(md);
		const rd_kafka_topic_partition_list_t *ap = ma ? rd_kafka_MemberAssignment_partitions(ma) : NULL;
		for (int i = 0; ap && i < ap->cnt; i++)
			member_add_assignment(lm, ap->elems[i].topic, ap->elems[i].partition);
	}
}

static void add_assigned(const char *topic, int32_t partition, void *arg)
{
	member_add_assignment(arg, topic, partition);
}

static const lt_member *member_in(const lt_group *g, const char *member_id)
{
	for (size_t m = 0; g && member_id && m < g->n_members; m++)
		if (g->members[m].member_id && strcmp(g->members[m].member_id, member_id) == 0)
			return &g->members[m];
	return NULL;
}

/* The same from the batch (checked by batch_usable). DescribeGroups v0 has no group.instance.id: a member
 * of the last snapshot keeps the one it had (a member's id is the same while it stays). */
static void batch_members(lt_group *g, const struct rd_kafka_group_info *gi, const lt_group *pg)
{
	g->protocol = xstrdup(gi->protocol ? gi->protocol : "");
	g->coordinator = gi->broker.id;
	for (int m = 0; m < gi->member_cnt; m++) {
		const struct rd_kafka_group_member_info *mi = &gi->members[m];
		lt_member *lm = group_add_member(g, mi->member_id, mi->client_id, mi->client_host);
		const lt_member *pm = member_in(pg, mi->member_id);
		lm->instance_id = pm ? xstrdup(pm->instance_id) : NULL;
		char why[160];
		size_t len = mi->member_assignment_size > 0 ? (size_t)mi->member_assignment_size : 0;
		(void)assignment_decode(mi->member_assignment, len, add_assigned, lm, why, sizeof why);
	}
}

/* Whether the batch's answer for a group is the per-group describe's, member for member (group_batch.h
 * says what it cannot answer). */
bool batch_usable(const struct rd_kafka_group_info *gi, const lt_group *pg)
{
	rd_kafka_consumer_group_state_t st = rd_kafka_consumer_group_state_code(gi->state ? gi->state : "");
	if (gi->err || st == RD_KAFKA_CONSUMER_GROUP_STATE_UNKNOWN || st == RD_KAFKA_CONSUMER_GROUP_STATE_DEAD)
		return false;
	const char *pt = gi->protocol_type ? gi->protocol_type : "";
	if (strcmp(pt, "consumer") != 0 && !(pt[0] == '\0' && gi->member_cnt == 0))
		return false;
	for (int m = 0; m < gi->member_cnt; m++) {
		const struct rd_kafka_group_member_info *mi = &gi->members[m];
		char why[160];
		size_t len = mi->member_assignment_size > 0 ? (size_t)mi->member_assignment_size : 0;
		if (assignment_decode(mi->member_assignment, len, NULL, NULL, why, sizeof why) != 0)
			return false;
		if (!group_batch_member_dynamic(mi->member_id, mi->client_id) && !member_in(pg, mi->member_id))
			return false; /* may be static: its group.instance.id needs the per-group describe */
	}
	return true;
}

/* Builds the group from fresh results (state and type: view_of_work).
 * Returns false when the group does not exist (an extra or formerly seen group that is Dead, with no
 * members and no committed offsets). A consumer-protocol group keeps its committed offsets: OffsetFetch
 * without a member id works for both group types. */
bool group_build(lt_snapshot *s, const struct work_set *ws, const lt_snapshot *prev, const struct group_work *gw)
{
	const rd_kafka_topic_partition_list_t *offs = gw->off ? rd_kafka_group_result_partitions(gw->off) : NULL;
	size_t n_commits = 0;
	for (int i = 0; offs && i < offs->cnt; i++)
		n_commits += offs->elems[i].offset >= 0;
	n_commits += gw->n_soff; /* from the stream: live commits only */
	lt_group_described desc = described_of(gw);
	lt_group_view view = view_of_work(ws, prev, gw);
	size_t n_members = desc.n_members;
	if (view.state == LT_GROUP_DEAD && n_members == 0 && n_commits == 0)
		return false;

	lt_group *g = snapshot_add_group(s, gw->name);
	g->state = view.state;
	g->type = view.type;
	g->members_unreadable = view.members_unreadable;
	if (view.state_carried)
		g->error = xasprintf("ListGroups gave no complete answer: the state (%s) is the one it listed earlier",
				     group_state_name(view.state));
	/* ListGroups gives a consumer-protocol group the protocol type "consumer"; its describe has none */
	g->protocol_type = xstrdup(view.type == LT_GTYPE_CONSUMER || !desc.protocol_type_empty ? "consumer" : "");
	if (gw->binfo)
		batch_members(g, gw->binfo, snapshot_find_group(prev, gw->name));
	else
		admin_members(g, gw->desc);
	for (int i = 0; offs && i < offs->cnt; i++) {
		const rd_kafka_topic_partition_t *tp = &offs->elems[i];
		/* -1: no commit for this partition (an "all partitions" fetch may still list it). */
		if (tp->offset < 0 || partition_in(g, tp->topic, tp->partition))
			continue;
		lt_partition *p = group_add_partition(g, tp->topic, tp->partition);
		p->committed = tp->err ? LT_OFFSET_NONE : tp->offset;
		if (tp->metadata && tp->metadata_size > 0)
			partition_ext_add(g, p)->commit_metadata = xstrndup(tp->metadata, tp->metadata_size);
#ifdef HAVE_RD_KAFKA_TOPIC_PARTITION_GET_LEADER_EPOCH
		int32_t epoch = rd_kafka_topic_partition_get_leader_epoch(tp);
		if (ws->commit_epochs && !tp->err && epoch >= 0)
			group_add_commit_epoch(g, tp->topic, tp->partition, epoch);
#endif /* librdkafka < 2.1 does not read it */
	}
	for (size_t i = 0; i < gw->n_soff; i++) {
		const struct stream_off *c = &gw->soff[i];
		if (partition_in(g, c->topic, c->partition))
			continue;
		group_add_partition(g, c->topic, c->partition)->committed = c->offset;
#ifdef HAVE_RD_KAFKA_TOPIC_PARTITION_GET_LEADER_EPOCH /* as above: the same epochs OffsetFetch gives */
		if (ws->commit_epochs && c->leader_epoch >= 0)
			group_add_commit_epoch(g, c->topic, c->partition, c->leader_epoch);
#endif
	}
	if (gw->swept && ws->verify)
		verify_group(ws, g);
	return true;
}

/* A quiet group: the last snapshot's state, protocol, coordinator and members, and the stream's live
 * commits (what OffsetFetch would return). False when a commit carries metadata, which the stream does
 * not keep: then the group is asked. */
bool build_from_stream(lt_snapshot *s, const struct work_set *ws, const struct group_work *gw, const lt_group *pg,
		       const lt_commit_stream *cs)
{
	struct live_list l = { 0 };
	commit_stream_each_commit(cs, gw->name, collect_live, &l);
	if (l.metadata) {
		free(l.c);
		return false;
	}
	lt_group *g = group_copy_head(s, pg);
	for (size_t i = 0; i < l.n; i++) {
		if (l.c[i].offset < 0)
			continue;
		lt_partition *p = group_add_partition(g, l.c[i].topic, l.c[i].partition);
		p->committed = l.c[i].offset;
#ifdef HAVE_RD_KAFKA_TOPIC_PARTITION_GET_LEADER_EPOCH /* as group_build: librdkafka < 2.1 has no epochs */
		if (ws->commit_epochs && l.c[i].leader_epoch >= 0)
			group_add_commit_epoch(g, l.c[i].topic, l.c[i].partition, l.c[i].leader_epoch);
#else
		(void)ws;
#endif
	}
	free(l.c);
	return true;
}

/* Builds the group if both its answers are in, and releases the events they point into. A group the
 * describe answers as Dead with nothing waits for ListGroups (warm groups are described before the
 * list arrives): it may be a live consumer-protocol group (group_view.h). refresh_run builds the
 * groups still waiting when the stage ends. */
void build_if_complete(lt_snapshot *s, const struct work_set *ws, const lt_snapshot *prev, struct group_work *gw)
{
	if (gw->built || gw->error || !has_desc(gw) || !(gw->off || gw->off_stream))
		return;
	if (!ws->list_done) {
		lt_group_described d = described_of(gw);
		if (group_describe_ambiguous(&d))
			return;
	}
	group_build(s, ws, prev, gw);
	gw->built = true;
	gw->desc = NULL;
	gw->binfo = NULL;
	gw->off = NULL;
	soff_free(gw);
	release_event(gw->desc_ev, true);
	release_event(gw->off_ev, true);
	gw->desc_ev = gw->off_ev = NULL;
}

void build_batch(lt_snapshot *s, const struct lt_ticket *t, struct work_set *ws, const lt_snapshot *prev)
{
	for (size_t i = 0; i < t->n; i++) {
		struct group_work *gw = work_find(ws, t->names[i]);
		if (gw)
			build_if_complete(s, ws, prev, gw);
	}
}
