/* test_sim_kip848.c — consumer-protocol (KIP-848) groups in the simulated cluster, byte by byte: the
 * control API (types, states, epochs), ConsumerGroupDescribe v0/v1 (every field, the classic, unknown
 * and empty-id errors, NOT_COORDINATOR), and what the classic APIs do with such a group the way Kafka 4.x
 * does: admin OffsetCommit refused while it has members and accepted once Empty, a member's own commit
 * below v9 refused, OffsetFetch and OffsetDelete as usual, DeleteGroups, and a classic JoinGroup. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../lib/lagtop_test.h"
#include "../lib/cmocka_main.h"

#define K_OFFSET_COMMIT 8
#define K_OFFSET_FETCH  9
#define K_JOIN_GROUP    11
#define K_DELETE_GROUPS 42
#define K_OFFSET_DELETE 47
#define K_CGD           69

#define E_NOT_COORDINATOR     16
#define E_INCONSISTENT_PROTO  23
#define E_INVALID_GROUP_ID    24
#define E_UNKNOWN_MEMBER_ID   25
#define E_UNSUPPORTED_VERSION 35
#define E_NON_EMPTY_GROUP     68
#define E_GROUP_ID_NOT_FOUND  69
#define E_SUBSCRIBED_TO_TOPIC 86

static sim_cluster *sim;
static char err[256];

static void must(int rc)
{
	if (rc < 0)
		fail_msg("%s", err);
}

static int setup(void **state)
{
	*state = sim = test_sim_start(3, "fixture");
	return 0;
}

static struct raw_conn to_coordinator(const char *group)
{
	return raw_connect(sim, sim_coordinator(sim, group));
}

/* ---- ConsumerGroupDescribe ---- */

static void cgd_request(struct wire_buf *b, const char *const *groups, int n)
{
	wire_buf_init(b);
	wire_put_array(b, n, true);
	for (int i = 0; i < n; i++)
		wire_put_str(b, groups[i], true);
	wire_put_bool(b, false); /* include_authorized_operations */
	wire_put_tags(b, true);
}

struct cgd_tp {
	uint8_t id[16];
	char topic[64];
	int32_t parts[8];
	int nparts;
};

struct cgd_member {
	char id[64], instance[64], rack[64], client[64], host[64], regex[64];
	bool instance_null, rack_null, regex_null;
	int32_t epoch;
	int nsubs;
	char subs[4][64];
	struct cgd_tp assigned[4], target[4];
	int nassigned, ntarget;
	int8_t type;
};

struct cgd_group {
	int16_t error;
	char message[160];
	bool message_null;
	char id[64], state[32], assignor[32];
	int32_t epoch, assignment_epoch, authorized;
	int nmembers;
	struct cgd_member m[4];
};

static int read_assignment(struct wire_rd *rd, struct cgd_tp *out)
{
	int32_t n = wire_array(rd, true, 1);
	assert_true(n >= 0 && n <= 4);
	for (int32_t i = 0; i < n; i++) {
		for (int k = 0; k < 16; k++)
			out[i].id[k] = (uint8_t)wire_i8(rd);
		raw_str(rd, true, out[i].topic, sizeof out[i].topic);
		out[i].nparts = wire_array(rd, true, 4);
		assert_true(out[i].nparts >= 0 && out[i].nparts <= 8);
		for (int k = 0; k < out[i].nparts; k++)
			out[i].parts[k] = wire_i32(rd);
		wire_tags_skip(rd, true);
	}
	wire_tags_skip(rd, true);
	return n;
}

static void read_member(struct wire_rd *rd, int16_t v, struct cgd_member *m)
{
	raw_str(rd, true, m->id, sizeof m->id);
	struct wire_str s = wire_str(rd, true);
	m->instance_null = s.len < 0;
	snprintf(m->instance, sizeof m->instance, "%.*s", s.len < 0 ? 0 : (int)s.len, s.p ? s.p : "");
	s = wire_str(rd, true);
	m->rack_null = s.len < 0;
	snprintf(m->rack, sizeof m->rack, "%.*s", s.len < 0 ? 0 : (int)s.len, s.p ? s.p : "");
	m->epoch = wire_i32(rd);
	raw_str(rd, true, m->client, sizeof m->client);
	raw_str(rd, true, m->host, sizeof m->host);
	m->nsubs = wire_array(rd, true, 1);
	assert_true(m->nsubs >= 0 && m->nsubs <= 4);
	for (int i = 0; i < m->nsubs; i++)
		raw_str(rd, true, m->subs[i], sizeof m->subs[i]);
	s = wire_str(rd, true);
	m->regex_null = s.len < 0;
	snprintf(m->regex, sizeof m->regex, "%.*s", s.len < 0 ? 0 : (int)s.len, s.p ? s.p : "");
	m->nassigned = read_assignment(rd, m->assigned);
	m->ntarget = read_assignment(rd, m->target);
	m->type = v >= 1 ? wire_i8(rd) : -1;
	wire_tags_skip(rd, true);
}

/* ConsumerGroupDescribe of groups at broker node (0: each group's coordinator, one at a time). */
static void cgd(int node, int16_t v, const char *const *groups, int n, struct cgd_group *out)
{
	for (int i = 0; i < n; i++) {
		struct raw_conn c = raw_connect(sim, node ? node : sim_coordinator(sim, groups[i]));
		struct wire_buf req, body;
		struct wire_rd rd;
		cgd_request(&req, &groups[i], 1);
		raw_call(&c, K_CGD, v, true, &req, &body, &rd);
		wire_buf_free(&req);
		assert_int_equal(wire_i32(&rd), 0); /* throttle */
		assert_int_equal(wire_array(&rd, true, 1), 1);
		struct cgd_group *g = &out[i];
		memset(g, 0, sizeof *g);
		g->error = wire_i16(&rd);
		struct wire_str s = wire_str(&rd, true);
		g->message_null = s.len < 0;
		snprintf(g->message, sizeof g->message, "%.*s", s.len < 0 ? 0 : (int)s.len, s.p ? s.p : "");
		raw_str(&rd, true, g->id, sizeof g->id);
		raw_str(&rd, true, g->state, sizeof g->state);
		g->epoch = wire_i32(&rd);
		g->assignment_epoch = wire_i32(&rd);
		raw_str(&rd, true, g->assignor, sizeof g->assignor);
		g->nmembers = wire_array(&rd, true, 1);
		assert_true(g->nmembers >= 0 && g->nmembers <= 4);
		for (int k = 0; k < g->nmembers; k++)
			read_member(&rd, v, &g->m[k]);
		g->authorized = wire_i32(&rd);
		wire_tags_skip(&rd, true);
		wire_tags_skip(&rd, true);
		raw_end(&rd, &body);
		raw_close(&c);
	}
}

static void test_fixture_group_every_field(void **state)
{
	(void)state;
	static const char *const ids[] = { "fx-kip848" };
	uint8_t first_id[16];
	for (int16_t v = 0; v <= 1; v++) {
		struct cgd_group g;
		cgd(0, v, ids, 1, &g);
		assert_int_equal(g.error, 0);
		assert_true(g.message_null);
		assert_string_equal(g.id, "fx-kip848");
		assert_string_equal(g.state, "Stable");
		assert_int_equal(g.epoch, 1);
		assert_int_equal(g.assignment_epoch, 1);
		assert_string_equal(g.assignor, "uniform");
		assert_int_equal(g.authorized, INT32_MIN);
		assert_int_equal(g.nmembers, 1);
		const struct cgd_member *m = &g.m[0];
		assert_string_equal(m->id, "fx-c4-member");
		assert_true(m->instance_null);
		assert_false(m->rack_null);
		assert_string_equal(m->rack, "rack-a");
		assert_int_equal(m->epoch, 1);
		assert_string_equal(m->client, "fx-c4");
		assert_string_equal(m->host, "/10.9.0.4");
		assert_int_equal(m->nsubs, 1);
		assert_string_equal(m->subs[0], "fx-orders");
		assert_false(m->regex_null); /* Kafka keeps "" for a member subscribed by names */
		assert_string_equal(m->regex, "");
		assert_int_equal(m->nassigned, 1);
		assert_string_equal(m->assigned[0].topic, "fx-orders");
		assert_int_equal(m->assigned[0].nparts, 1);
		assert_int_equal(m->assigned[0].parts[0], 1);
		static const uint8_t zero[16];
		assert_memory_not_equal(m->assigned[0].id, zero, 16);
		assert_int_equal(m->ntarget, 1); /* the target is the assignment: synthetic members are reconciled */
		assert_memory_equal(m->target[0].id, m->assigned[0].id, 16);
		assert_string_equal(m->target[0].topic, "fx-orders");
		assert_int_equal(m->type, v >= 1 ? 1 : -1);
		if (v == 0)
			memcpy(first_id, m->assigned[0].id, 16);
		else
			assert_memory_equal(first_id, m->assigned[0].id, 16); /* topic ids are stable */
	}
}

static void test_describe_errors(void **state)
{
	(void)state;
	static const char *const ids[] = { "fx-stable", "no-such-group", "" };
	struct cgd_group g[3];
	cgd(0, 1, ids, 2, g);
	assert_int_equal(g[0].error, E_GROUP_ID_NOT_FOUND);
	assert_string_equal(g[0].message, "Group fx-stable is not a consumer group.");
	assert_string_equal(g[0].id, "fx-stable");
	assert_string_equal(g[0].state, "");
	assert_int_equal(g[0].nmembers, 0);
	assert_int_equal(g[1].error, E_GROUP_ID_NOT_FOUND);
	assert_string_equal(g[1].message, "Group no-such-group not found.");
	cgd(1, 0, &ids[2], 1, &g[2]);
	assert_int_equal(g[2].error, E_INVALID_GROUP_ID);
	assert_string_equal(g[2].id, "");
	/* Off the coordinator. */
	int coord = sim_coordinator(sim, "fx-kip848");
	cgd(coord % sim_broker_count(sim) + 1, 0, (const char *const[]){ "fx-kip848" }, 1, &g[0]);
	assert_int_equal(g[0].error, E_NOT_COORDINATOR);
	assert_true(g[0].message_null);
	/* An injected coordinator error goes into the group's error field, once. */
	must(sim_fault_errors(sim, 0, 15 /* COORDINATOR_NOT_AVAILABLE */, K_CGD, 0, 1, err, sizeof err));
	cgd(0, 1, (const char *const[]){ "fx-kip848" }, 1, &g[0]);
	assert_int_equal(g[0].error, 15);
	assert_int_equal(g[0].nmembers, 0);
	cgd(0, 1, (const char *const[]){ "fx-kip848" }, 1, &g[0]);
	assert_int_equal(g[0].error, 0);
	sim_fault_clear(sim);
}

/* ---- the control API ---- */

static const int32_t part0[] = { 0 }, part2[] = { 2 };

static void add(const char *group, const char *member, const int32_t *parts, const char *regex, char *id_out)
{
	struct sim_member_assignment a = { "fx-orders", parts, 1 };
	struct sim_member_spec spec = { .member_id = member,
					.client_id = "cg-client",
					.group_instance_id = "inst-1",
					.assignment = &a,
					.nassignment = 1,
					.topic_regex = regex };
	char id[64];
	must(sim_add_consumer_member(sim, group, &spec, id_out ? id_out : id, 64, err, sizeof err));
}

static void expect_epochs(const char *group, const char *state, int32_t epoch, int32_t assignment_epoch,
			  const int32_t *member_epochs, int n)
{
	struct cgd_group g;
	cgd(0, 1, &group, 1, &g);
	assert_int_equal(g.error, 0);
	assert_string_equal(g.state, state);
	assert_int_equal(g.epoch, epoch);
	assert_int_equal(g.assignment_epoch, assignment_epoch);
	assert_int_equal(g.nmembers, n);
	for (int i = 0; i < n; i++)
		assert_int_equal(g.m[i].epoch, member_epochs[i]);
	char st[32];
	assert_int_equal(sim_group_info(sim, group, st, sizeof st), n);
	assert_string_equal(st, state);
}

static void test_states_and_epochs(void **state)
{
	(void)state;
	char gen[64];
	add("cg-epochs", NULL, part0, "fx-.*", gen);
	/* A generated id looks like a KIP-848 client's: 22 characters of URL-safe base64. */
	assert_int_equal(strlen(gen), 22);
	assert_int_equal(strspn(gen, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"), 22);
	assert_string_equal(sim_group_type(sim, "cg-epochs"), "consumer");
	expect_epochs("cg-epochs", "Stable", 1, 1, (const int32_t[]){ 1 }, 1);
	add("cg-epochs", "m2", part2, NULL, NULL);
	expect_epochs("cg-epochs", "Stable", 2, 2, (const int32_t[]){ 2, 2 }, 2);

	must(sim_set_group_state(sim, "cg-epochs", "Assigning", err, sizeof err));
	expect_epochs("cg-epochs", "Assigning", 3, 2, (const int32_t[]){ 2, 2 }, 2);
	must(sim_set_group_state(sim, "cg-epochs", "reconciling", err, sizeof err));
	expect_epochs("cg-epochs", "Reconciling", 4, 4, (const int32_t[]){ 2, 2 }, 2);
	must(sim_set_group_state(sim, "cg-epochs", "Stable", err, sizeof err));
	expect_epochs("cg-epochs", "Stable", 4, 4, (const int32_t[]){ 4, 4 }, 2);

	struct cgd_group g;
	cgd(0, 0, (const char *const[]){ "cg-epochs" }, 1, &g);
	assert_string_equal(g.m[0].regex, "fx-.*");
	assert_string_equal(g.m[0].instance, "inst-1");
	assert_true(g.m[0].rack_null);
	assert_int_equal(g.m[0].nsubs, 1); /* no topics given: subscribed to the assigned one */

	must(sim_remove_member(sim, "cg-epochs", gen, err, sizeof err));
	expect_epochs("cg-epochs", "Stable", 5, 5, (const int32_t[]){ 5 }, 1);
	must(sim_remove_member(sim, "cg-epochs", "m2", err, sizeof err));
	expect_epochs("cg-epochs", "Empty", 6, 6, NULL, 0);
	assert_int_equal(sim_set_group_state(sim, "cg-epochs", "Assigning", err, sizeof err), -1);
	assert_non_null(strstr(err, "no members"));
	assert_int_equal(sim_remove_member(sim, "cg-epochs", "m2", err, sizeof err), -1);
}

static void test_types_do_not_mix(void **state)
{
	(void)state;
	assert_string_equal(sim_group_type(sim, "fx-kip848"), "consumer");
	assert_string_equal(sim_group_type(sim, "fx-stable"), "classic");
	assert_string_equal(sim_group_type(sim, "fx-empty"), "classic");
	assert_null(sim_group_type(sim, "no-such-group"));
	char st[32];
	assert_int_equal(sim_group_info(sim, "fx-kip848", st, sizeof st), 1);
	assert_string_equal(st, "Stable");

	struct sim_member_spec spec = { .member_id = "x", .client_id = "x" };
	char id[64];
	assert_int_equal(sim_add_consumer_member(sim, "fx-empty", &spec, id, sizeof id, err, sizeof err), -1);
	assert_non_null(strstr(err, "classic group"));
	assert_int_equal(sim_add_member(sim, "fx-kip848", &spec, id, sizeof id, err, sizeof err), -1);
	assert_non_null(strstr(err, "consumer-protocol group"));
	assert_int_equal(sim_set_group_state(sim, "fx-kip848", "PreparingRebalance", err, sizeof err), -1);
	assert_non_null(strstr(err, "Assigning, Reconciling"));
	assert_int_equal(sim_set_group_state(sim, "fx-stable", "Assigning", err, sizeof err), -1);
	assert_non_null(strstr(err, "PreparingRebalance, CompletingRebalance"));
	assert_int_equal(sim_set_group_state(sim, "fx-stable", "Sleeping", err, sizeof err), -1);
	assert_int_equal(sim_add_consumer_member(sim, "", &spec, id, sizeof id, err, sizeof err), -1);
	assert_int_equal(sim_group_info(sim, "fx-kip848", st, sizeof st), 1); /* nothing changed */
}

/* An assignment naming a topic the cluster does not have is left out, as Kafka drops ids it cannot
 * resolve; the subscription still names it. */
static void test_unknown_topic_dropped(void **state)
{
	(void)state;
	static const int32_t p[] = { 0 };
	struct sim_member_assignment a[2] = { { "gone-topic", p, 1 }, { "fx-audit", p, 1 } };
	struct sim_member_spec spec = { .member_id = "m", .client_id = "c", .assignment = a, .nassignment = 2 };
	char id[64];
	must(sim_add_consumer_member(sim, "cg-gone", &spec, id, sizeof id, err, sizeof err));
	struct cgd_group g;
	cgd(0, 0, (const char *const[]){ "cg-gone" }, 1, &g);
	assert_int_equal(g.m[0].nassigned, 1);
	assert_string_equal(g.m[0].assigned[0].topic, "fx-audit");
	assert_int_equal(g.m[0].nsubs, 2);
	assert_string_equal(g.m[0].subs[0], "gone-topic");
}

/* ---- the classic APIs on a consumer-protocol group ---- */

/* OffsetCommit (v2–v7) of fx-orders/partition; returns the partition's error. */
static int16_t commit(const char *group, int16_t v, int32_t generation, const char *member, int32_t partition,
		      int64_t offset)
{
	struct raw_conn c = to_coordinator(group);
	struct wire_buf b, body;
	struct wire_rd rd;
	wire_buf_init(&b);
	raw_put_member_head(&b, group, generation, member, v >= 7);
	if (v <= 4)
		wire_put_i64(&b, -1); /* retention */
	wire_put_array(&b, 1, false);
	wire_put_str(&b, "fx-orders", false);
	wire_put_array(&b, 1, false);
	wire_put_i32(&b, partition);
	wire_put_i64(&b, offset);
	if (v >= 6)
		wire_put_i32(&b, -1);
	wire_put_str(&b, "", false);
	raw_call(&c, K_OFFSET_COMMIT, v, false, &b, &body, &rd);
	wire_buf_free(&b);
	if (v >= 3)
		(void)wire_i32(&rd);
	assert_int_equal(wire_array(&rd, false, 1), 1);
	raw_expect_str(&rd, false, "fx-orders");
	assert_int_equal(wire_array(&rd, false, 1), 1);
	assert_int_equal(wire_i32(&rd), partition);
	int16_t e = wire_i16(&rd);
	raw_end(&rd, &body);
	raw_close(&c);
	return e;
}

/* A request (key, version) whose body is group and fx-orders/partition, as OffsetFetch v1 and OffsetDelete v0
 * have it, sent to group's coordinator: the connection in *c, the answer in *body, read by *rd. */
static void fx_orders_call(const char *group, int32_t partition, int16_t key, int16_t version, struct raw_conn *c,
			   struct wire_buf *body, struct wire_rd *rd)
{
	*c = to_coordinator(group);
	struct wire_buf b;
	wire_buf_init(&b);
	wire_put_str(&b, group, false);
	wire_put_array(&b, 1, false);
	wire_put_str(&b, "fx-orders", false);
	wire_put_array(&b, 1, false);
	wire_put_i32(&b, partition);
	raw_call(c, key, version, false, &b, body, rd);
	wire_buf_free(&b);
}

/* OffsetFetch v1 of fx-orders/partition. */
static int64_t fetch_committed(const char *group, int32_t partition)
{
	struct raw_conn c;
	struct wire_buf body;
	struct wire_rd rd;
	fx_orders_call(group, partition, K_OFFSET_FETCH, 1, &c, &body, &rd);
	assert_int_equal(wire_array(&rd, false, 1), 1);
	raw_expect_str(&rd, false, "fx-orders");
	assert_int_equal(wire_array(&rd, false, 1), 1);
	assert_int_equal(wire_i32(&rd), partition);
	int64_t off = wire_i64(&rd);
	raw_expect_str(&rd, false, "");
	assert_int_equal(wire_i16(&rd), 0);
	raw_end(&rd, &body);
	raw_close(&c);
	return off;
}

static int16_t delete_group(const char *group)
{
	struct raw_conn c = to_coordinator(group);
	struct wire_buf b, body;
	struct wire_rd rd;
	wire_buf_init(&b);
	wire_put_array(&b, 1, false);
	wire_put_str(&b, group, false);
	raw_call(&c, K_DELETE_GROUPS, 1, false, &b, &body, &rd);
	wire_buf_free(&b);
	(void)wire_i32(&rd);
	assert_int_equal(wire_array(&rd, false, 1), 1);
	raw_expect_str(&rd, false, group);
	int16_t e = wire_i16(&rd);
	raw_end(&rd, &body);
	raw_close(&c);
	return e;
}

static void test_commits(void **state)
{
	(void)state;
	add("cg-commit", "cm-1", part0, NULL, NULL);
	for (int16_t v = 2; v <= 7; v++) {
		/* An admin commit (no member, generation -1) while the group has a member: refused. */
		assert_int_equal(commit("cg-commit", v, -1, "", 0, 11), E_UNKNOWN_MEMBER_ID);
		/* The member itself must use OffsetCommit v9+, which the sim does not serve. */
		assert_int_equal(commit("cg-commit", v, 1, "cm-1", 0, 11), E_UNSUPPORTED_VERSION);
		assert_int_equal(commit("cg-commit", v, 1, "stranger", 0, 11), E_UNKNOWN_MEMBER_ID);
	}
	assert_int_equal(sim_committed(sim, "cg-commit", "fx-orders", 0), -1);
	assert_int_equal(fetch_committed("fx-kip848", 1), 650); /* no member checks in OffsetFetch */
	assert_int_equal(delete_group("cg-commit"), E_NON_EMPTY_GROUP);

	must(sim_set_group_state(sim, "cg-commit", "Empty", err, sizeof err));
	assert_int_equal(commit("cg-commit", 2, -1, "", 0, 12), 0);
	assert_int_equal(commit("cg-commit", 7, -1, "", 0, 13), 0);
	assert_int_equal(fetch_committed("cg-commit", 0), 13);
	assert_string_equal(sim_group_type(sim, "cg-commit"), "consumer"); /* still a consumer-protocol group */
	assert_int_equal(delete_group("cg-commit"), 0);
	assert_null(sim_group_type(sim, "cg-commit"));
	assert_int_equal(delete_group("cg-commit"), E_GROUP_ID_NOT_FOUND);
}

static int16_t offset_delete(const char *group, int32_t partition, int16_t *top)
{
	struct raw_conn c;
	struct wire_buf body;
	struct wire_rd rd;
	fx_orders_call(group, partition, K_OFFSET_DELETE, 0, &c, &body, &rd);
	*top = wire_i16(&rd);
	(void)wire_i32(&rd);
	int16_t e = -1;
	if (wire_array(&rd, false, 1) == 1) {
		raw_expect_str(&rd, false, "fx-orders");
		assert_int_equal(wire_array(&rd, false, 1), 1);
		assert_int_equal(wire_i32(&rd), partition);
		e = wire_i16(&rd);
	}
	raw_end(&rd, &body);
	raw_close(&c);
	return e;
}

/* Kafka's ConsumerGroup.validateOffsetDelete accepts any state; a subscribed topic's offsets stay. */
static void test_offset_delete(void **state)
{
	(void)state;
	int16_t top;
	assert_int_equal(offset_delete("fx-kip848", 1, &top), E_SUBSCRIBED_TO_TOPIC);
	assert_int_equal(top, 0);
	assert_int_equal(sim_committed(sim, "fx-kip848", "fx-orders", 1), 650);
}

static int16_t join(const char *group)
{
	struct raw_conn c = to_coordinator(group);
	struct wire_buf b, body;
	struct wire_rd rd;
	wire_buf_init(&b);
	raw_put_join_body(&b, group, 10000, "consumer", "\0\0\0\0\0\0\xff\xff\xff\xff", 10);
	raw_call(&c, K_JOIN_GROUP, 3, false, &b, &body, &rd);
	wire_buf_free(&b);
	(void)wire_i32(&rd);
	int16_t e = wire_i16(&rd);
	wire_buf_free(&body);
	raw_close(&c);
	return e;
}

/* A classic member: refused by a consumer-protocol group with members (Kafka would take it in through
 * KIP-848's migration path, not simulated); an Empty one becomes classic, offsets kept. */
static void test_classic_join(void **state)
{
	(void)state;
	assert_int_equal(join("fx-kip848"), E_INCONSISTENT_PROTO);
	assert_string_equal(sim_group_type(sim, "fx-kip848"), "consumer");
	add("cg-join", "j-1", part0, NULL, NULL);
	must(sim_commit(sim, "cg-join", "fx-orders", 2, 77, NULL, err, sizeof err));
	must(sim_set_group_state(sim, "cg-join", "Empty", err, sizeof err));
	assert_int_equal(join("cg-join"), 0); /* a JoinGroup v3 without member id is taken at once */
	assert_string_equal(sim_group_type(sim, "cg-join"), "classic");
	assert_int_equal(sim_committed(sim, "cg-join", "fx-orders", 2), 77);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_fixture_group_every_field),
	cmocka_unit_test(test_describe_errors),
	cmocka_unit_test(test_states_and_epochs),
	cmocka_unit_test(test_types_do_not_mix),
	cmocka_unit_test(test_unknown_topic_dropped),
	cmocka_unit_test(test_commits),
	cmocka_unit_test(test_offset_delete),
	cmocka_unit_test(test_classic_join),
};

LT_TEST_MAIN(setup, test_sim_teardown)
