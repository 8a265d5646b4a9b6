/* api_metadata.c — Metadata v0–v4: every live broker with its real host:port, topics with leaders.
 * A stopped broker is left out of the broker list and its partitions have no leader
 * (LEADER_NOT_AVAILABLE), as with replication factor 1 on a real cluster. */
#include <stdlib.h>
#include <string.h>

#include "sim/api.h"
#include "util/xalloc.h"

#define KERR_LEADER_NOT_AVAILABLE       5
#define KERR_TOPIC_AUTHORIZATION_FAILED 29

/* Fault switch (--deny-offsets-topic): a cluster whose ACLs hide __consumer_offsets from lagtop. */
static bool denied(const struct sim_req *req, const char *topic)
{
	return req->st->deny_offsets_topic && strcmp(topic, "__consumer_offsets") == 0;
}

static void put_topic(struct sim_req *req, struct wire_buf *out, const struct sim_topic *t)
{
	int16_t v = req->api_version;
	if (denied(req, t->name)) {
		wire_put_i16(out, KERR_TOPIC_AUTHORIZATION_FAILED);
		wire_put_str(out, t->name, false);
		if (v >= 1)
			wire_put_bool(out, true);
		wire_put_array(out, 0, false);
		return;
	}
	wire_put_i16(out, KERR_NONE);
	wire_put_str(out, t->name, false);
	if (v >= 1)
		wire_put_bool(out, strcmp(t->name, "__consumer_offsets") == 0); /* is_internal, as Kafka marks it */
	wire_put_array(out, t->npartitions, false);
	for (int32_t i = 0; i < t->npartitions; i++) {
		const struct sim_partition *p = &t->parts[i];
		const struct sim_node *n = sim_state_node(req->st, p->leader);
		bool up = n && n->up;
		wire_put_i16(out, up ? KERR_NONE : KERR_LEADER_NOT_AVAILABLE);
		wire_put_i32(out, p->index);
		wire_put_i32(out, up ? p->leader : -1);
		wire_put_array(out, 1, false); /* replicas */
		wire_put_i32(out, p->leader);
		wire_put_array(out, up ? 1 : 0, false); /* isr */
		if (up)
			wire_put_i32(out, p->leader);
	}
}

static void put_unknown_topic(struct sim_req *req, struct wire_buf *out, struct wire_str name)
{
	wire_put_i16(out, KERR_UNKNOWN_TOPIC_OR_PARTITION);
	wire_put_strn(out, name.p, name.len, false);
	if (req->api_version >= 1)
		wire_put_bool(out, false);
	wire_put_array(out, 0, false);
}

int sim_api_metadata(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out)
{
	int16_t v = req->api_version;
	int32_t n = wire_array(rd, false, 2);
	struct wire_str *names = NULL;
	if (n > 0) {
		names = xcalloc((size_t)n, sizeof(*names));
		for (int32_t i = 0; i < n; i++)
			names[i] = wire_str(rd, false);
	}
	bool allow_auto = true; /* v0-v3: Kafka creates whenever auto.create.topics.enable is on */
	if (v >= 4)
		allow_auto = wire_bool(rd);
	if (rd->err) {
		free(names);
		return SIM_API_MALFORMED;
	}
	/* v0: an empty list means all topics; v1+: null means all, empty means none. */
	bool all = n < 0 || (v == 0 && n == 0);

	if (v >= 3)
		wire_put_i32(out, 0); /* throttle_time_ms */
	int32_t up = 0;
	for (int i = 0; i < req->st->nnodes; i++)
		up += req->st->nodes[i].up;
	wire_put_array(out, up, false);
	for (int i = 0; i < req->st->nnodes; i++) {
		const struct sim_node *node = &req->st->nodes[i];
		if (!node->up)
			continue;
		wire_put_i32(out, node->node_id);
		wire_put_str(out, node->host, false);
		wire_put_i32(out, node->port);
		if (v >= 1)
			wire_put_str(out, NULL, false); /* rack */
	}
	if (v >= 2)
		wire_put_str(out, req->st->cluster_id, false);
	if (v >= 1) {
		int32_t controller = -1;
		for (int i = 0; i < req->st->nnodes && controller < 0; i++)
			if (req->st->nodes[i].up)
				controller = req->st->nodes[i].node_id;
		wire_put_i32(out, controller);
	}
	if (all) {
		size_t nt;
		struct sim_topic **ts = sim_topics_sorted(req->st, &nt);
		size_t shown = 0; /* as Kafka, a listing of all topics leaves out those one may not describe */
		for (size_t i = 0; i < nt; i++)
			ts[shown] = ts[i], shown += !denied(req, ts[i]->name);
		wire_put_array(out, (int32_t)shown, false);
		for (size_t i = 0; i < shown; i++)
			put_topic(req, out, ts[i]);
		free(ts);
	} else {
		wire_put_array(out, n, false);
		for (int32_t i = 0; i < n; i++) {
			const struct sim_topic *t =
				names[i].len >= 0 ? sim_topic_find(req->st, names[i].p, (size_t)names[i].len) : NULL;
			if (!t && allow_auto)
				t = sim_topic_auto_create(req->st, names[i]);
			if (t)
				put_topic(req, out, t);
			else
				put_unknown_topic(req, out, names[i]);
		}
	}
	free(names);
	return SIM_API_OK;
}
