/* test_sim_membership.c — the classic group state machine, driven with explicit time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/membership.h"
#include "../lib/cmocka_main.h"

/* A waiter is a slot that records the answer it got. */
struct slot {
	int n_join, n_sync;
	int16_t error;
	int32_t generation;
	char member_id[128];
	char leader_id[128];
	char protocol[32];
	size_t n_members;
	char members[4][128];
	char member_meta[4][32];
	char assignment[64];
	size_t assignment_len;
};

static void on_join(void *waiter, const struct mb_join_result *r, void *arg)
{
	(void)arg;
	struct slot *s = waiter;
	s->n_join++;
	s->error = r->error;
	s->generation = r->generation_id;
	snprintf(s->member_id, sizeof s->member_id, "%s", r->member_id);
	snprintf(s->leader_id, sizeof s->leader_id, "%s", r->leader_id);
	snprintf(s->protocol, sizeof s->protocol, "%s", r->protocol_name);
	s->n_members = r->n_members;
	for (size_t i = 0; i < r->n_members && i < 4; i++) {
		snprintf(s->members[i], sizeof s->members[i], "%s", r->members[i].member_id);
		snprintf(s->member_meta[i], sizeof s->member_meta[i], "%.*s", (int)r->members[i].metadata_len,
			 (const char *)r->members[i].metadata);
	}
}

static void on_sync(void *waiter, int16_t error, const uint8_t *a, size_t len, void *arg)
{
	(void)arg;
	struct slot *s = waiter;
	s->n_sync++;
	s->error = error;
	s->assignment_len = len;
	snprintf(s->assignment, sizeof s->assignment, "%.*s", (int)len, (const char *)a);
}

static const struct mb_ops ops = { on_join, on_sync, NULL };

static struct mb_config cfg;

static struct mb_group *group(int32_t initial_delay)
{
	mb_config_default(&cfg);
	cfg.initial_rebalance_delay_ms = initial_delay;
	return mb_group_new("g", &cfg, &ops, 42);
}

/* JoinGroup with protocol "range" and metadata tag. */
static void join(struct mb_group *g, struct slot *s, const char *member_id, const char *client, bool v4, int64_t now)
{
	memset(s, 0, sizeof *s);
	struct mb_protocol_in p = { "range", (const uint8_t *)client, strlen(client) };
	struct mb_join_req req = { .member_id = member_id,
				   .client_id = client,
				   .client_host = "/127.0.0.1",
				   .session_timeout_ms = 10000,
				   .rebalance_timeout_ms = 20000,
				   .protocol_type = "consumer",
				   .protocols = &p,
				   .n_protocols = 1,
				   .member_id_required = v4 };
	mb_join(g, &req, s, now);
}

static void sync_(struct mb_group *g, struct slot *s, const char *member_id, int32_t gen,
		  const struct mb_assignment_in *a, size_t n, int64_t now)
{
	memset(s, 0, sizeof *s);
	mb_sync(g, member_id, gen, a, n, s, now);
}

/* Brings one member to Stable in generation 1; returns its id in id. */
static struct mb_group *stable_one(char *id, size_t idlen)
{
	struct mb_group *g = group(0);
	struct slot s;
	join(g, &s, "", "c1", false, 0);
	assert_int_equal(s.n_join, 1);
	snprintf(id, idlen, "%s", s.member_id);
	struct mb_assignment_in a = { id, (const uint8_t *)"A1", 2 };
	sync_(g, &s, id, 1, &a, 1, 0);
	assert_int_equal(s.error, 0);
	assert_int_equal(g->state, MB_STABLE);
	return g;
}

static void single_member_lifecycle(void **state)
{
	(void)state;
	struct mb_group *g = group(0);
	struct slot s;

	assert_int_equal(g->state, MB_EMPTY);
	join(g, &s, "", "c1", false, 100);
	assert_int_equal(s.n_join, 1);
	assert_int_equal(s.error, MB_ERR_NONE);
	assert_int_equal(s.generation, 1);
	assert_true(!strncmp(s.member_id, "c1-", 3));
	assert_string_equal(s.leader_id, s.member_id);
	assert_string_equal(s.protocol, "range");
	assert_int_equal(s.n_members, 1);
	assert_string_equal(s.members[0], s.member_id);
	assert_string_equal(s.member_meta[0], "c1");
	assert_int_equal(g->state, MB_COMPLETING_REBALANCE);
	assert_string_equal(g->protocol_type, "consumer");

	char id[128];
	snprintf(id, sizeof id, "%s", s.member_id);
	struct mb_assignment_in a = { id, (const uint8_t *)"ASSIGN", 6 };
	sync_(g, &s, id, 1, &a, 1, 200);
	assert_int_equal(s.n_sync, 1);
	assert_int_equal(s.error, MB_ERR_NONE);
	assert_string_equal(s.assignment, "ASSIGN");
	assert_int_equal(g->state, MB_STABLE);
	assert_int_equal(mb_heartbeat(g, id, 1, 300), MB_ERR_NONE);
	/* a follower-style SyncGroup in Stable returns the stored assignment */
	sync_(g, &s, id, 1, NULL, 0, 300);
	assert_string_equal(s.assignment, "ASSIGN");

	assert_int_equal(mb_leave(g, id, 400), MB_ERR_NONE);
	assert_int_equal(g->state, MB_EMPTY);
	assert_int_equal(g->generation_id, 2); /* going Empty is a generation too */
	assert_int_equal(g->n_members, 0);
	assert_int_equal(mb_heartbeat(g, id, 2, 500), MB_ERR_UNKNOWN_MEMBER_ID);
	assert_int_equal(mb_leave(g, id, 500), MB_ERR_UNKNOWN_MEMBER_ID);
	assert_string_equal(g->protocol_type, "consumer"); /* kept, as Kafka shows it for Empty groups */
	mb_group_free(g);
}

static void member_id_required(void **state)
{
	(void)state;
	struct mb_group *g = group(0);
	struct slot s;

	join(g, &s, "", "c1", true, 0);
	assert_int_equal(s.error, MB_ERR_MEMBER_ID_REQUIRED);
	assert_int_equal(s.generation, -1);
	assert_true(!strncmp(s.member_id, "c1-", 3));
	assert_int_equal(g->state, MB_EMPTY);
	assert_int_equal(g->n_pending, 1);
	char id[128];
	snprintf(id, sizeof id, "%s", s.member_id);
	join(g, &s, id, "c1", true, 10);
	assert_int_equal(s.error, MB_ERR_NONE);
	assert_string_equal(s.member_id, id);
	assert_int_equal(s.generation, 1);
	assert_int_equal(g->n_pending, 0);

	/* an id never used again expires after the session timeout */
	join(g, &s, "", "c2", true, 20);
	assert_int_equal(s.error, MB_ERR_MEMBER_ID_REQUIRED);
	assert_int_equal(g->n_pending, 1);
	assert_true(mb_next_deadline(g) <= 20 + 10000);
	mb_tick(g, 20 + 10000);
	assert_int_equal(g->n_pending, 0);
	/* an unknown, non-pending id */
	join(g, &s, "c9-nope", "c9", true, 30);
	assert_int_equal(s.error, MB_ERR_UNKNOWN_MEMBER_ID);
	mb_group_free(g);
}

static void two_members_rebalance(void **state)
{
	(void)state;
	char id1[128], id2[128];
	struct mb_group *g = stable_one(id1, sizeof id1);
	struct slot s1, s2, y1, y2;

	/* m2 joins: the group prepares a rebalance and m2 waits at the barrier */
	join(g, &s2, "", "c2", false, 1000);
	assert_int_equal(s2.n_join, 0);
	assert_int_equal(g->state, MB_PREPARING_REBALANCE);
	assert_int_equal(mb_heartbeat(g, id1, 1, 1100), MB_ERR_REBALANCE_IN_PROGRESS);
	/* still allowed to commit in PreparingRebalance */
	assert_int_equal(mb_commit_check(g, id1, 1, 1100), MB_ERR_NONE);
	assert_int_equal(mb_commit_check(g, "", -1, 1100), MB_ERR_UNKNOWN_MEMBER_ID);
	/* sync in PreparingRebalance */
	sync_(g, &y1, id1, 1, NULL, 0, 1150);
	assert_int_equal(y1.error, MB_ERR_REBALANCE_IN_PROGRESS);

	/* m1 rejoins: the barrier completes; both get generation 2, only the leader sees members */
	join(g, &s1, id1, "c1", false, 1200);
	assert_int_equal(s1.n_join, 1);
	assert_int_equal(s2.n_join, 1);
	assert_int_equal(s1.generation, 2);
	assert_int_equal(s2.generation, 2);
	snprintf(id2, sizeof id2, "%s", s2.member_id);
	assert_string_equal(s1.leader_id, id1);
	assert_string_equal(s2.leader_id, id1);
	assert_int_equal(s1.n_members, 2);
	assert_string_equal(s1.members[0], id1);
	assert_string_equal(s1.members[1], id2);
	assert_string_equal(s1.member_meta[1], "c2");
	assert_int_equal(s2.n_members, 0);
	assert_int_equal(g->state, MB_COMPLETING_REBALANCE);

	/* old generation is fenced */
	assert_int_equal(mb_heartbeat(g, id1, 1, 1250), MB_ERR_ILLEGAL_GENERATION);
	assert_int_equal(mb_commit_check(g, id1, 1, 1250), MB_ERR_ILLEGAL_GENERATION);
	/* follower syncs first and waits; heartbeats are fine, commits are not yet */
	sync_(g, &y2, id2, 2, NULL, 0, 1300);
	assert_int_equal(y2.n_sync, 0);
	assert_int_equal(mb_heartbeat(g, id2, 2, 1310), MB_ERR_NONE);
	assert_int_equal(mb_commit_check(g, id2, 2, 1310), MB_ERR_REBALANCE_IN_PROGRESS);
	/* the leader's assignments reach both */
	struct mb_assignment_in a[] = { { id1, (const uint8_t *)"P0", 2 }, { id2, (const uint8_t *)"P1", 2 } };
	sync_(g, &y1, id1, 2, a, 2, 1400);
	assert_int_equal(y1.n_sync, 1);
	assert_int_equal(y2.n_sync, 1);
	assert_string_equal(y1.assignment, "P0");
	assert_string_equal(y2.assignment, "P1");
	assert_int_equal(g->state, MB_STABLE);
	assert_int_equal(mb_find_member(g, id2)->assignment_len, 2);
	assert_memory_equal(mb_find_member(g, id2)->assignment, "P1", 2);
	assert_int_equal(mb_commit_check(g, id2, 2, 1500), MB_ERR_NONE);

	/* m2 leaves: m1 is told to rejoin and gets everything in generation 3 */
	assert_int_equal(mb_leave(g, id2, 2000), MB_ERR_NONE);
	assert_int_equal(g->state, MB_PREPARING_REBALANCE);
	assert_int_equal(mb_heartbeat(g, id1, 2, 2100), MB_ERR_REBALANCE_IN_PROGRESS);
	join(g, &s1, id1, "c1", false, 2200);
	assert_int_equal(s1.generation, 3);
	assert_int_equal(s1.n_members, 1);
	mb_group_free(g);
}

static void rebalance_timeout_drops_silent_member(void **state)
{
	(void)state;
	char id1[128];
	struct mb_group *g = stable_one(id1, sizeof id1);
	struct slot s2;

	join(g, &s2, "", "c2", false, 1000);
	assert_int_equal(g->state, MB_PREPARING_REBALANCE);
	/* m1 keeps heartbeating but never rejoins; the barrier waits for the largest rebalance timeout */
	for (int64_t t = 5000; t < 1000 + 20000; t += 4000) {
		assert_int_equal(mb_heartbeat(g, id1, 1, t), MB_ERR_REBALANCE_IN_PROGRESS);
		mb_tick(g, t);
	}
	assert_true(mb_next_deadline(g) == 1000 + 20000);
	mb_tick(g, 1000 + 20000 - 1);
	assert_int_equal(s2.n_join, 0);
	mb_tick(g, 1000 + 20000);
	assert_int_equal(s2.n_join, 1);
	assert_int_equal(s2.generation, 2);
	assert_string_equal(s2.leader_id, s2.member_id); /* the new leader is one that rejoined */
	assert_int_equal(s2.n_members, 1);
	assert_null(mb_find_member(g, id1));
	assert_int_equal(mb_heartbeat(g, id1, 1, 21000), MB_ERR_UNKNOWN_MEMBER_ID);
	mb_group_free(g);
}

static void session_timeout_evicts(void **state)
{
	(void)state;
	char id1[128];
	struct mb_group *g = stable_one(id1, sizeof id1); /* last heartbeat at 0, session 10000 */

	assert_int_equal(mb_heartbeat(g, id1, 1, 4000), MB_ERR_NONE);
	assert_true(mb_next_deadline(g) == 14000);
	mb_tick(g, 13999);
	assert_int_equal(g->n_members, 1);
	assert_int_equal(g->state, MB_STABLE);
	mb_tick(g, 14000);
	assert_int_equal(g->n_members, 0);
	assert_int_equal(g->state, MB_EMPTY);
	assert_int_equal(g->generation_id, 2);
	assert_true(mb_next_deadline(g) == INT64_MAX);
	/* and now an admin commit is welcome */
	assert_int_equal(mb_commit_check(g, "", -1, 15000), MB_ERR_NONE);
	mb_group_free(g);
}

static void new_member_join_timeout(void **state)
{
	(void)state;
	char id1[128];
	struct mb_group *g = stable_one(id1, sizeof id1);
	struct slot s2;
	struct mb_protocol_in p = { "range", (const uint8_t *)"x", 1 };
	/* a member with a rebalance timeout beyond Kafka's new-member join timeout */
	struct mb_join_req req = { .member_id = "",
				   .client_id = "c2",
				   .client_host = "h",
				   .session_timeout_ms = 10000,
				   .rebalance_timeout_ms = 400000,
				   .protocol_type = "consumer",
				   .protocols = &p,
				   .n_protocols = 1 };
	memset(&s2, 0, sizeof s2);
	mb_join(g, &req, &s2, 1000);
	for (int64_t t = 2000; t < 1000 + MB_NEW_MEMBER_JOIN_TIMEOUT_MS; t += 3000)
		mb_heartbeat(g, id1, 1, t); /* m1 alive, but never rejoins */
	mb_tick(g, 1000 + MB_NEW_MEMBER_JOIN_TIMEOUT_MS);
	assert_int_equal(s2.n_join, 1);
	assert_int_equal(s2.error, MB_ERR_UNKNOWN_MEMBER_ID);
	assert_string_equal(s2.member_id, "");
	assert_int_equal(g->n_members, 1);
	mb_group_free(g);
}

static void protocol_selection(void **state)
{
	(void)state;
	struct mb_group *g = group(5000);
	struct slot s[4];
	const struct mb_protocol_in p1[] = { { "range", NULL, 0 }, { "roundrobin", NULL, 0 } };
	const struct mb_protocol_in p2[] = { { "roundrobin", NULL, 0 }, { "range", NULL, 0 } };
	const struct mb_protocol_in p3[] = { { "roundrobin", NULL, 0 } };
	const struct mb_protocol_in p4[] = { { "sticky", NULL, 0 } };
	struct mb_join_req req = { .member_id = "",
				   .client_id = "c",
				   .client_host = "h",
				   .session_timeout_ms = 10000,
				   .rebalance_timeout_ms = 10000,
				   .protocol_type = "consumer" };

	memset(s, 0, sizeof s);
	req.protocols = p1, req.n_protocols = 2;
	mb_join(g, &req, &s[0], 0);
	req.protocols = p2, req.n_protocols = 2;
	mb_join(g, &req, &s[1], 0);
	/* a protocol nobody else supports, or another protocol type, is refused */
	req.protocols = p4, req.n_protocols = 1;
	mb_join(g, &req, &s[3], 0);
	assert_int_equal(s[3].error, MB_ERR_INCONSISTENT_GROUP_PROTOCOL);
	req.protocols = p1, req.n_protocols = 2, req.protocol_type = "connect";
	memset(&s[3], 0, sizeof s[3]);
	mb_join(g, &req, &s[3], 0);
	assert_int_equal(s[3].error, MB_ERR_INCONSISTENT_GROUP_PROTOCOL);
	req.protocol_type = "consumer";
	/* tie 1-1: the first member's preference wins (the second arrival extended the initial delay) */
	mb_tick(g, 5000);
	assert_int_equal(s[0].n_join, 0);
	mb_tick(g, 10000);
	assert_int_equal(s[0].n_join, 1);
	assert_string_equal(s[0].protocol, "range");
	assert_string_equal(s[1].protocol, "range");
	mb_group_kill(g);
	mb_group_free(g);

	/* with a third member that only knows roundrobin, roundrobin is the only common one */
	g = group(5000);
	memset(s, 0, sizeof s);
	req.protocols = p1, req.n_protocols = 2;
	mb_join(g, &req, &s[0], 0);
	req.protocols = p2, req.n_protocols = 2;
	mb_join(g, &req, &s[1], 0);
	req.protocols = p3, req.n_protocols = 1;
	mb_join(g, &req, &s[2], 0);
	mb_tick(g, 5000);
	mb_tick(g, 10000);
	assert_string_equal(s[0].protocol, "roundrobin");
	assert_string_equal(s[2].protocol, "roundrobin");
	/* an empty protocol type cannot start a group */
	mb_group_kill(g);
	mb_group_free(g);
	g = group(0);
	req.protocol_type = "";
	memset(s, 0, sizeof s);
	mb_join(g, &req, &s[0], 0);
	assert_int_equal(s[0].error, MB_ERR_INCONSISTENT_GROUP_PROTOCOL);
	assert_int_equal(g->state, MB_EMPTY);
	mb_group_free(g);
}

static void initial_delay_extends(void **state)
{
	(void)state;
	struct mb_group *g = group(3000);
	struct slot s1, s2;

	join(g, &s1, "", "c1", false, 0);
	assert_int_equal(g->state, MB_PREPARING_REBALANCE);
	assert_int_equal(s1.n_join, 0); /* held for the initial delay even though everyone joined */
	join(g, &s2, "", "c2", false, 1000);
	assert_true(mb_next_deadline(g) == 3000);
	mb_tick(g, 3000); /* a member arrived during the delay: wait another delay */
	assert_int_equal(s1.n_join, 0);
	assert_true(mb_next_deadline(g) == 6000);
	mb_tick(g, 6000);
	assert_int_equal(s1.n_join, 1);
	assert_int_equal(s2.n_join, 1);
	assert_int_equal(s1.generation, 1);
	assert_int_equal(s1.n_members, 2);
	mb_group_free(g);
}

static void errors_and_fencing(void **state)
{
	(void)state;
	char id1[128];
	struct mb_group *g = stable_one(id1, sizeof id1);
	struct slot s;

	sync_(g, &s, "nobody", 1, NULL, 0, 10);
	assert_int_equal(s.error, MB_ERR_UNKNOWN_MEMBER_ID);
	sync_(g, &s, id1, 7, NULL, 0, 10);
	assert_int_equal(s.error, MB_ERR_ILLEGAL_GENERATION);
	assert_int_equal(mb_heartbeat(g, "nobody", 1, 10), MB_ERR_UNKNOWN_MEMBER_ID);
	assert_int_equal(mb_commit_check(g, "nobody", 1, 10), MB_ERR_UNKNOWN_MEMBER_ID);
	assert_int_equal(mb_commit_check(g, id1, 0, 10), MB_ERR_ILLEGAL_GENERATION);
	assert_int_equal(mb_commit_check(g, id1, 1, 10), MB_ERR_NONE);
	/* admin commit on a Stable group, and a member id with generation -1 */
	assert_int_equal(mb_commit_check(g, "", -1, 10), MB_ERR_UNKNOWN_MEMBER_ID);
	assert_int_equal(mb_commit_check(g, id1, -1, 10), MB_ERR_ILLEGAL_GENERATION);
	/* session timeout outside the broker's bounds */
	memset(&s, 0, sizeof s);
	struct mb_protocol_in p = { "range", NULL, 0 };
	struct mb_join_req req = { .member_id = "",
				   .client_id = "c",
				   .session_timeout_ms = 10,
				   .rebalance_timeout_ms = 10,
				   .protocol_type = "consumer",
				   .protocols = &p,
				   .n_protocols = 1 };
	mb_join(g, &req, &s, 20);
	assert_int_equal(s.error, MB_ERR_INVALID_SESSION_TIMEOUT);
	assert_int_equal(mb_check_session_timeout(&cfg, 6000), MB_ERR_NONE);
	assert_int_equal(mb_check_session_timeout(&cfg, 5999), MB_ERR_INVALID_SESSION_TIMEOUT);
	assert_int_equal(g->state, MB_STABLE);

	/* Dead: everything is COORDINATOR_NOT_AVAILABLE */
	mb_group_kill(g);
	assert_string_equal(mb_state_name(g->state), "Dead");
	assert_int_equal(mb_heartbeat(g, id1, 1, 30), MB_ERR_COORDINATOR_NOT_AVAILABLE);
	assert_int_equal(mb_commit_check(g, "", -1, 30), MB_ERR_COORDINATOR_NOT_AVAILABLE);
	assert_int_equal(mb_leave(g, id1, 30), MB_ERR_COORDINATOR_NOT_AVAILABLE);
	join(g, &s, "", "c1", false, 30);
	assert_int_equal(s.error, MB_ERR_COORDINATOR_NOT_AVAILABLE);
	mb_group_free(g);
}

static void stable_rejoin_rules(void **state)
{
	(void)state;
	char id1[128], id2[128];
	struct mb_group *g = stable_one(id1, sizeof id1);
	struct slot s1, s2, y1, y2;

	join(g, &s2, "", "c2", false, 100);
	join(g, &s1, id1, "c1", false, 100);
	snprintf(id2, sizeof id2, "%s", s2.member_id);
	struct mb_assignment_in a[] = { { id1, (const uint8_t *)"P0", 2 } }; /* m2 left out: gets empty */
	sync_(g, &y2, id2, 2, NULL, 0, 110);
	sync_(g, &y1, id1, 2, a, 1, 120);
	assert_int_equal(y2.n_sync, 1);
	assert_int_equal(y2.error, 0);
	assert_int_equal(y2.assignment_len, 0);
	assert_int_equal(g->state, MB_STABLE);

	/* a follower rejoining with the same metadata: current generation, no rebalance */
	join(g, &s2, id2, "c2", false, 200);
	assert_int_equal(s2.n_join, 1);
	assert_int_equal(s2.generation, 2);
	assert_int_equal(g->state, MB_STABLE);
	/* with changed metadata: rebalance */
	join(g, &s2, id2, "c2-changed", false, 300);
	assert_int_equal(s2.n_join, 0);
	assert_int_equal(g->state, MB_PREPARING_REBALANCE);
	join(g, &s1, id1, "c1", false, 310);
	assert_int_equal(s2.generation, 3);
	assert_string_equal(s1.member_meta[1], "c2-changed");
	/* the leader rejoining in CompletingRebalance with the same metadata gets the same answer */
	join(g, &s1, id1, "c1", false, 320);
	assert_int_equal(s1.n_join, 1);
	assert_int_equal(s1.generation, 3);
	assert_int_equal(s1.n_members, 2);
	assert_int_equal(g->state, MB_COMPLETING_REBALANCE);
	/* a new member during CompletingRebalance: parked syncs are told to rejoin */
	sync_(g, &y2, id2, 3, NULL, 0, 330);
	assert_int_equal(y2.n_sync, 0);
	struct slot s3;
	join(g, &s3, "", "c3", false, 340);
	assert_int_equal(y2.n_sync, 1);
	assert_int_equal(y2.error, MB_ERR_REBALANCE_IN_PROGRESS);
	assert_int_equal(g->state, MB_PREPARING_REBALANCE);
	/* the leader in Stable rejoining forces a rebalance: covered by Kafka's rule, checked here */
	join(g, &s1, id1, "c1", false, 350);
	join(g, &s2, id2, "c2-changed", false, 350);
	assert_int_equal(s3.n_join, 1);
	assert_int_equal(s3.generation, 4);
	struct mb_assignment_in none[1] = { { id1, NULL, 0 } };
	sync_(g, &y1, id1, 4, none, 1, 360);
	assert_int_equal(g->state, MB_STABLE);
	join(g, &s1, id1, "c1", false, 400);
	assert_int_equal(s1.n_join, 0);
	assert_int_equal(g->state, MB_PREPARING_REBALANCE);
	mb_group_kill(g);
	assert_int_equal(s1.n_join, 1);
	assert_int_equal(s1.error, MB_ERR_COORDINATOR_NOT_AVAILABLE);
	mb_group_free(g);
}

static void cancelled_waiter_not_answered(void **state)
{
	(void)state;
	char id1[128];
	struct mb_group *g = stable_one(id1, sizeof id1);
	struct slot s1, s2;

	join(g, &s2, "", "c2", false, 100);
	mb_cancel_waiter(g, &s2); /* its connection closed */
	join(g, &s1, id1, "c1", false, 200);
	assert_int_equal(s1.n_join, 1);
	assert_int_equal(s2.n_join, 0);
	assert_int_equal(s1.n_members, 2); /* the member stays until its session runs out */
	/* nobody syncs for m2: after the session timeout it goes, and m1 must rejoin */
	struct mb_assignment_in a[] = { { id1, (const uint8_t *)"P", 1 } };
	struct slot y1;
	sync_(g, &y1, id1, 2, a, 1, 210);
	assert_int_equal(g->state, MB_STABLE);
	mb_heartbeat(g, id1, 2, 9000);
	mb_tick(g, 200 + 10000);
	assert_int_equal(g->n_members, 1);
	assert_int_equal(g->state, MB_PREPARING_REBALANCE);
	mb_group_free(g);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(single_member_lifecycle),
	cmocka_unit_test(member_id_required),
	cmocka_unit_test(two_members_rebalance),
	cmocka_unit_test(rebalance_timeout_drops_silent_member),
	cmocka_unit_test(session_timeout_evicts),
	cmocka_unit_test(new_member_join_timeout),
	cmocka_unit_test(protocol_selection),
	cmocka_unit_test(initial_delay_extends),
	cmocka_unit_test(errors_and_fencing),
	cmocka_unit_test(stable_rejoin_rules),
	cmocka_unit_test(cancelled_waiter_not_answered),
};

LT_TEST_MAIN(NULL, NULL)
