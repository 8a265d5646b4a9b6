/* test_sim_group_wire.c — the group membership and data APIs of the simulated cluster byte by byte, with
 * a raw client: every version's layout (JoinGroup v0–v5, SyncGroup v0–v3, Heartbeat v0–v3, LeaveGroup
 * v0–v1, Produce, Fetch), the join barrier holding a JoinGroup while later requests on the same
 * connection wait behind it, a client that disconnects while parked, and the error codes Kafka answers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "sim/records.h"
#include "sim/sim.h"

#include "../lib/lagtop_test.h"
#include "sim/wire.h"
#include "../lib/cmocka_main.h"

#define K_PRODUCE   0
#define K_FETCH     1
#define K_JOIN      11
#define K_HEARTBEAT 12
#define K_LEAVE     13
#define K_SYNC      14
#define K_METADATA  3

static sim_cluster *sim;

/* ---- a raw client (lagtop_test.h's raw_conn, request header v1) ---- */
static struct raw_conn conn_coord(const char *group)
{
	return raw_connect(sim, sim_coordinator(sim, group));
}

/* Sends one request with the body in b; returns its correlation id. */
static int32_t send_req(struct raw_conn *c, int16_t key, int16_t ver, const struct wire_buf *body)
{
	raw_send(c, key, ver, false, body);
	return c->corr;
}

static bool readable(struct raw_conn *c, int ms)
{
	struct pollfd p = { c->fd, POLLIN, 0 };
	return poll(&p, 1, ms) == 1;
}

static void read_full(int fd, void *p, size_t n)
{
	size_t got = 0;
	while (got < n) {
		struct pollfd pf = { fd, POLLIN, 0 };
		assert_int_equal(poll(&pf, 1, 10000), 1);
		ssize_t r = read(fd, (char *)p + got, n - got);
		assert_true(r > 0);
		got += (size_t)r;
	}
}

/* Reads one response; checks its correlation id; the body goes to *body (caller frees), rd over it. */
static void recv_resp(struct raw_conn *c, int32_t corr, struct wire_buf *body, struct wire_rd *rd)
{
	uint8_t hdr[8];
	read_full(c->fd, hdr, 8);
	uint32_t len = (uint32_t)hdr[0] << 24 | hdr[1] << 16 | hdr[2] << 8 | hdr[3];
	int32_t got_corr = (int32_t)((uint32_t)hdr[4] << 24 | hdr[5] << 16 | hdr[6] << 8 | hdr[7]);
	assert_int_equal(got_corr, corr);
	assert_true(len >= 4 && len < (1u << 24));
	wire_buf_init(body);
	body->data = malloc(len - 4 + 1);
	body->len = body->cap = len - 4;
	read_full(c->fd, body->data, len - 4);
	wire_rd_init(rd, body->data, body->len);
}

static void expect_end(struct wire_rd *rd, struct wire_buf *body)
{
	assert_false(rd->err);
	assert_int_equal(wire_rd_left(rd), 0); /* the whole body was the layout we expected */
	wire_buf_free(body);
}

/* ---- request builders ---- */
struct join_ans {
	int16_t error;
	int32_t generation;
	char protocol[32], leader[128], member[128];
	int nmembers;
	char members[4][128];
	char meta[4][32];
};

static void str_copy(char *dst, size_t n, struct wire_str s)
{
	snprintf(dst, n, "%.*s", s.len < 0 ? 0 : s.len, s.p ? s.p : "");
}

static int32_t join_send(struct raw_conn *c, int16_t v, const char *group, const char *member, int32_t session_ms,
			 const char *meta)
{
	struct wire_buf b;
	wire_buf_init(&b);
	wire_put_str(&b, group, false);
	wire_put_i32(&b, session_ms);
	if (v >= 1)
		wire_put_i32(&b, 10000); /* rebalance timeout */
	wire_put_str(&b, member, false);
	if (v >= 5)
		wire_put_str(&b, NULL, false);
	wire_put_str(&b, "consumer", false);
	wire_put_array(&b, 1, false);
	wire_put_str(&b, "range", false);
	wire_put_bytes(&b, meta, (int32_t)strlen(meta), false);
	int32_t corr = send_req(c, K_JOIN, v, &b);
	wire_buf_free(&b);
	return corr;
}

static void join_recv(struct raw_conn *c, int32_t corr, int16_t v, struct join_ans *a)
{
	struct wire_buf body;
	struct wire_rd rd;
	memset(a, 0, sizeof *a);
	recv_resp(c, corr, &body, &rd);
	if (v >= 2)
		assert_int_equal(wire_i32(&rd), 0); /* throttle */
	a->error = wire_i16(&rd);
	a->generation = wire_i32(&rd);
	str_copy(a->protocol, sizeof a->protocol, wire_str(&rd, false));
	str_copy(a->leader, sizeof a->leader, wire_str(&rd, false));
	str_copy(a->member, sizeof a->member, wire_str(&rd, false));
	a->nmembers = wire_array(&rd, false, 2);
	for (int i = 0; i < a->nmembers && i < 4; i++) {
		str_copy(a->members[i], sizeof a->members[i], wire_str(&rd, false));
		if (v >= 5) {
			struct wire_str inst = wire_str(&rd, false);
			assert_int_equal(inst.len, -1); /* group_instance_id: null */
		}
		str_copy(a->meta[i], sizeof a->meta[i], wire_bytes(&rd, false));
	}
	expect_end(&rd, &body);
}

static void join(struct raw_conn *c, int16_t v, const char *group, const char *member, const char *meta,
		 struct join_ans *a)
{
	join_recv(c, join_send(c, v, group, member, 6000, meta), v, a);
}

static int32_t sync_send(struct raw_conn *c, int16_t v, const char *group, int32_t gen, const char *member,
			 const char *assign_to, const char *assignment)
{
	struct wire_buf b;
	wire_buf_init(&b);
	raw_put_member_head(&b, group, gen, member, v >= 3);
	wire_put_array(&b, assign_to ? 1 : 0, false);
	if (assign_to) {
		wire_put_str(&b, assign_to, false);
		wire_put_bytes(&b, assignment, (int32_t)strlen(assignment), false);
	}
	int32_t corr = send_req(c, K_SYNC, v, &b);
	wire_buf_free(&b);
	return corr;
}

static int16_t sync_recv(struct raw_conn *c, int32_t corr, int16_t v, char *assignment, size_t n)
{
	struct wire_buf body;
	struct wire_rd rd;
	recv_resp(c, corr, &body, &rd);
	if (v >= 1)
		assert_int_equal(wire_i32(&rd), 0);
	int16_t err = wire_i16(&rd);
	str_copy(assignment, n, wire_bytes(&rd, false));
	expect_end(&rd, &body);
	return err;
}

/* Heartbeat (key 12) or LeaveGroup (key 13): answers are [throttle] error. */
static int16_t simple_call(struct raw_conn *c, int16_t key, int16_t v, const char *group, int32_t gen,
			   const char *member)
{
	struct wire_buf b;
	wire_buf_init(&b);
	if (key == K_HEARTBEAT) {
		raw_put_member_head(&b, group, gen, member, v >= 3);
	} else { /* LeaveGroup v0-v2: group and member id */
		wire_put_str(&b, group, false);
		wire_put_str(&b, member, false);
	}
	int32_t corr = send_req(c, key, v, &b);
	wire_buf_free(&b);
	struct wire_buf body;
	struct wire_rd rd;
	recv_resp(c, corr, &body, &rd);
	if (v >= 1)
		assert_int_equal(wire_i32(&rd), 0);
	int16_t err = wire_i16(&rd);
	expect_end(&rd, &body);
	return err;
}

static void state_is(const char *group, const char *want, int members)
{
	char st[32];
	assert_int_equal(sim_group_info(sim, group, st, sizeof st), members);
	assert_string_equal(st, want);
}

/* ---- tests ---- */

/* Every version of the four APIs with one member: Empty → Stable → Empty. */
static void versions_single_member(void **state)
{
	(void)state;
	for (int16_t v = 0; v <= 5; v++) {
		char group[32], assignment[64];
		snprintf(group, sizeof group, "wire-v%d", v);
		struct raw_conn c = conn_coord(group);
		struct join_ans a;
		int16_t sv = v > 3 ? 3 : v, hv = v > 3 ? 3 : v, lv = v > 1 ? 1 : v;

		join(&c, v, group, "", "sub-1", &a);
		if (v >= 4) { /* a first JoinGroup v4+ only gets a member id */
			assert_int_equal(a.error, 79);
			assert_int_equal(a.generation, -1);
			assert_true(!strncmp(a.member, "raw-test-", 9));
			state_is(group, "Empty", 0);
			char id[128];
			snprintf(id, sizeof id, "%s", a.member);
			join(&c, v, group, id, "sub-1", &a);
			assert_string_equal(a.member, id);
		}
		assert_int_equal(a.error, 0);
		assert_int_equal(a.generation, 1);
		assert_string_equal(a.protocol, "range");
		assert_string_equal(a.leader, a.member);
		assert_int_equal(a.nmembers, 1);
		assert_string_equal(a.members[0], a.member);
		assert_string_equal(a.meta[0], "sub-1");
		state_is(group, "CompletingRebalance", 1);

		assert_int_equal(sync_recv(&c, sync_send(&c, sv, group, 1, a.member, a.member, "ASSIGN"), sv,
					   assignment, sizeof assignment),
				 0);
		assert_string_equal(assignment, "ASSIGN");
		state_is(group, "Stable", 1);
		assert_int_equal(simple_call(&c, K_HEARTBEAT, hv, group, 1, a.member), 0);
		assert_int_equal(simple_call(&c, K_HEARTBEAT, hv, group, 0, a.member), 22); /* ILLEGAL_GENERATION */
		assert_int_equal(simple_call(&c, K_LEAVE, lv, group, 0, a.member), 0);
		state_is(group, "Empty", 0);
		assert_int_equal(simple_call(&c, K_LEAVE, lv, group, 0, a.member), 25); /* UNKNOWN_MEMBER_ID */
		close(c.fd);
	}
}

/* The join barrier: a second member's JoinGroup is held until the first rejoins; a request pipelined
 * behind the held JoinGroup on the same connection is answered after it, never before. */
static void barrier_keeps_request_order(void **state)
{
	(void)state;
	const char *g = "wire-barrier";
	struct raw_conn a = conn_coord(g), b = conn_coord(g);
	struct join_ans ja, jb;
	char assignment[64];

	join(&a, 3, g, "", "sub-a", &ja);
	assert_int_equal(
		sync_recv(&a, sync_send(&a, 3, g, 1, ja.member, ja.member, "A-ALL"), 3, assignment, sizeof assignment),
		0);

	int32_t cj = join_send(&b, 3, g, "", 6000, "sub-b");
	struct wire_buf empty;
	wire_buf_init(&empty);
	wire_put_array(&empty, 0, false); /* Metadata v1, no topics */
	int32_t cm = send_req(&b, K_METADATA, 1, &empty);
	wire_buf_free(&empty);
	assert_false(readable(&b, 300)); /* both held: the Metadata answer waits behind the JoinGroup */
	state_is(g, "PreparingRebalance", 2);

	assert_int_equal(simple_call(&a, K_HEARTBEAT, 3, g, 1, ja.member), 27); /* REBALANCE_IN_PROGRESS */
	char ida[128];
	snprintf(ida, sizeof ida, "%s", ja.member);
	join(&a, 3, g, ida, "sub-a", &ja); /* completes the barrier */
	join_recv(&b, cj, 3, &jb);
	struct wire_buf body;
	struct wire_rd rd;
	recv_resp(&b, cm, &body, &rd); /* then, only then, the Metadata answer */
	wire_buf_free(&body);

	assert_int_equal(ja.generation, 2);
	assert_int_equal(jb.generation, 2);
	assert_string_equal(ja.leader, ida);
	assert_string_equal(jb.leader, ida);
	assert_int_equal(ja.nmembers, 2); /* members to the leader only */
	assert_int_equal(jb.nmembers, 0);

	/* the follower's SyncGroup is held until the leader's arrives */
	int32_t cs = sync_send(&b, 3, g, 2, jb.member, NULL, NULL);
	assert_false(readable(&b, 200));
	assert_int_equal(
		sync_recv(&a, sync_send(&a, 3, g, 2, ida, jb.member, "B-PART"), 3, assignment, sizeof assignment), 0);
	assert_string_equal(assignment, ""); /* the leader gave itself nothing */
	assert_int_equal(sync_recv(&b, cs, 3, assignment, sizeof assignment), 0);
	assert_string_equal(assignment, "B-PART");
	state_is(g, "Stable", 2);
	close(a.fd);
	close(b.fd);
}

/* A client that disconnects while its JoinGroup is held: the sim forgets the answer, keeps serving, and
 * the member goes when its session times out (Kafka cannot see the disconnect either). */
static void disconnect_while_held(void **state)
{
	(void)state;
	const char *g = "wire-disconnect";
	struct raw_conn a = conn_coord(g), b = conn_coord(g);
	struct join_ans ja;
	char assignment[64];

	join(&a, 3, g, "", "sub-a", &ja);
	char ida[128];
	snprintf(ida, sizeof ida, "%s", ja.member);
	assert_int_equal(sync_recv(&a, sync_send(&a, 3, g, 1, ida, ida, "A"), 3, assignment, sizeof assignment), 0);
	join_send(&b, 3, g, "", 1000, "sub-b");
	assert_false(readable(&b, 100));
	close(b.fd);
	join(&a, 3, g, ida, "sub-a", &ja); /* the barrier completes with the vanished member in it */
	assert_int_equal(ja.generation, 2);
	assert_int_equal(ja.nmembers, 2);
	/* its session (1 s) runs out: a rebalance without it */
	int16_t err = 0;
	for (int i = 0; i < 40 && err != 27; i++) {
		usleep(100 * 1000);
		err = simple_call(&a, K_HEARTBEAT, 3, g, 2, ida);
	}
	assert_int_equal(err, 27);
	join(&a, 3, g, ida, "sub-a", &ja);
	assert_int_equal(ja.generation, 3);
	assert_int_equal(ja.nmembers, 1);
	close(a.fd);
}

static void group_errors(void **state)
{
	(void)state;
	const char *g = "wire-errors";
	struct join_ans a;
	char assignment[8];
	int coord = sim_coordinator(sim, g);
	struct raw_conn other = raw_connect(sim, coord == 1 ? 2 : 1);
	struct raw_conn c = conn_coord(g);

	join(&other, 3, g, "", "m", &a);
	assert_int_equal(a.error, 16); /* NOT_COORDINATOR */
	join(&c, 3, "", "", "m", &a);
	assert_int_equal(a.error, 24); /* INVALID_GROUP_ID */
	join_recv(&c, join_send(&c, 3, g, "", 50, "m"), 3, &a);
	assert_int_equal(a.error, 26); /* INVALID_SESSION_TIMEOUT (below the broker's minimum) */
	join(&c, 3, g, "who-1234", "m", &a);
	assert_int_equal(a.error, 25); /* a member id for a group that does not exist */
	assert_int_equal(sim_group_info(sim, g, assignment, sizeof assignment), -1); /* not created */
	assert_int_equal(sync_recv(&c, sync_send(&c, 3, g, 1, "who", NULL, NULL), 3, assignment, sizeof assignment),
			 25);
	assert_int_equal(simple_call(&c, K_HEARTBEAT, 3, g, 1, "who"), 25);
	assert_int_equal(simple_call(&c, K_LEAVE, 1, g, 0, "who"), 25);
	/* a different protocol type than the group's */
	join(&c, 3, g, "", "m", &a);
	assert_int_equal(a.error, 0);
	struct wire_buf b;
	wire_buf_init(&b);
	raw_put_join_body(&b, g, 6000, "connect", "x", 1);
	struct join_ans x;
	join_recv(&c, send_req(&c, K_JOIN, 3, &b), 3, &x);
	wire_buf_free(&b);
	assert_int_equal(x.error, 23); /* INCONSISTENT_GROUP_PROTOCOL */
	close(other.fd);
	close(c.fd);
}

/* Produce and Fetch by hand: a batch built from the spec is appended at the log end and comes back
 * byte for byte (but for the broker-assigned base offset); a bad CRC, the wrong broker, an unknown
 * fetch session are refused with Kafka's codes. */
static void produce_fetch_by_hand(void **state)
{
	(void)state;
	char err[128];
	assert_int_equal(sim_create_topic(sim, "wire-t", 2, err, sizeof err), 0);
	assert_int_equal(sim_append(sim, "wire-t", 0, 5, 1000, 1, err, sizeof err), 0);
	int leader = sim_leader(sim, "wire-t", 0);
	struct raw_conn c = raw_connect(sim, leader), other = raw_connect(sim, leader == 1 ? 2 : 1);

	struct rec_out recs[2] = { { 777, "k", 1, "v1", 2 }, { 778, NULL, -1, "v2", 2 } };
	struct rec_buf batch = { 0 };
	records_batch_encode(&batch, 0, recs, 2);
	for (int attempt = 0; attempt < 3; attempt++) {
		struct raw_conn *to = attempt == 1 ? &other : &c;
		struct wire_buf b;
		wire_buf_init(&b);
		wire_put_str(&b, NULL, false); /* transactional id */
		wire_put_i16(&b, 1);
		wire_put_i32(&b, 1000);
		wire_put_array(&b, 1, false);
		wire_put_str(&b, "wire-t", false);
		wire_put_array(&b, 1, false);
		wire_put_i32(&b, 0);
		if (attempt == 2)
			batch.data[batch.len - 1] ^= 0xff; /* corrupt the last byte: CRC mismatch */
		wire_put_bytes(&b, batch.data, (int32_t)batch.len, false);
		int32_t corr = send_req(to, K_PRODUCE, 5, &b);
		wire_buf_free(&b);
		struct wire_buf body;
		struct wire_rd rd;
		recv_resp(to, corr, &body, &rd);
		assert_int_equal(wire_array(&rd, false, 1), 1);
		str_copy(err, sizeof err, wire_str(&rd, false));
		assert_string_equal(err, "wire-t");
		assert_int_equal(wire_array(&rd, false, 1), 1);
		assert_int_equal(wire_i32(&rd), 0);
		int16_t e = wire_i16(&rd);
		int64_t base = wire_i64(&rd);
		(void)wire_i64(&rd); /* log append time */
		int64_t log_start = wire_i64(&rd);
		assert_int_equal(wire_i32(&rd), 0); /* throttle */
		expect_end(&rd, &body);
		if (attempt == 0) {
			assert_int_equal(e, 0);
			assert_int_equal(base, 5);
			assert_int_equal(log_start, 0);
		} else {
			assert_int_equal(e, attempt == 1 ? 6 : 2); /* NOT_LEADER_OR_FOLLOWER, CORRUPT_MESSAGE */
		}
	}
	batch.data[batch.len - 1] ^= 0xff;

	/* Fetch v4 from offset 5: exactly the batch we sent, with base offset 5 */
	for (int attempt = 0; attempt < 2; attempt++) {
		int16_t v = attempt ? 7 : 4;
		struct wire_buf b;
		wire_buf_init(&b);
		wire_put_i32(&b, -1);
		wire_put_i32(&b, 100);
		wire_put_i32(&b, 1);
		wire_put_i32(&b, 1 << 20);
		wire_put_i8(&b, 0);
		if (v >= 7) {
			wire_put_i32(&b, 42); /* a session we never handed out */
			wire_put_i32(&b, 1);
		}
		wire_put_array(&b, 1, false);
		wire_put_str(&b, "wire-t", false);
		wire_put_array(&b, 1, false);
		wire_put_i32(&b, 0);
		wire_put_i64(&b, 5);
		if (v >= 5)
			wire_put_i64(&b, -1);
		wire_put_i32(&b, 1 << 20);
		if (v >= 7)
			wire_put_array(&b, 0, false);
		int32_t corr = send_req(&c, K_FETCH, v, &b);
		wire_buf_free(&b);
		struct wire_buf body;
		struct wire_rd rd;
		recv_resp(&c, corr, &body, &rd);
		assert_int_equal(wire_i32(&rd), 0);
		if (v >= 7) {
			assert_int_equal(wire_i16(&rd), 70); /* FETCH_SESSION_ID_NOT_FOUND */
			wire_buf_free(&body);
			continue;
		}
		assert_int_equal(wire_array(&rd, false, 1), 1);
		(void)wire_str(&rd, false);
		assert_int_equal(wire_array(&rd, false, 1), 1);
		assert_int_equal(wire_i32(&rd), 0);
		assert_int_equal(wire_i16(&rd), 0);
		assert_int_equal(wire_i64(&rd), 7);             /* high watermark */
		assert_int_equal(wire_i64(&rd), 7);             /* last stable offset */
		assert_int_equal(wire_array(&rd, false, 1), 0); /* aborted transactions */
		struct wire_str records = wire_bytes(&rd, false);
		records_batch_set_base_offset(batch.data, 5);
		assert_int_equal(records.len, (int32_t)batch.len);
		assert_memory_equal(records.p, batch.data, batch.len);
		expect_end(&rd, &body);
	}
	rec_buf_free(&batch);
	close(c.fd);
	close(other.fd);
}

/* acks=0: never an answer; when the append fails, the connection is closed instead (Kafka's way of
 * telling a client that waits for nothing). */
static void produce_acks0(void **state)
{
	(void)state;
	char err[128];
	assert_int_equal(sim_create_topic(sim, "wire-a0", 1, err, sizeof err), 0);
	struct raw_conn c = raw_connect(sim, sim_leader(sim, "wire-a0", 0));
	struct rec_out rec = { 5, NULL, -1, "v", 1 };
	struct rec_buf batch = { 0 };
	records_batch_encode(&batch, 0, &rec, 1);
	for (int attempt = 0; attempt < 2; attempt++) {
		struct wire_buf b;
		wire_buf_init(&b);
		wire_put_str(&b, NULL, false);
		wire_put_i16(&b, 0); /* acks */
		wire_put_i32(&b, 1000);
		wire_put_array(&b, 1, false);
		wire_put_str(&b, "wire-a0", false);
		wire_put_array(&b, 1, false);
		wire_put_i32(&b, 0);
		if (attempt == 1)
			batch.data[batch.len - 1] ^= 0xff;
		wire_put_bytes(&b, batch.data, (int32_t)batch.len, false);
		send_req(&c, K_PRODUCE, 7, &b);
		wire_buf_free(&b);
		if (attempt == 0) {
			/* the next answer on the connection is the Metadata's, not the Produce's */
			struct wire_buf md;
			wire_buf_init(&md);
			wire_put_array(&md, 0, false);
			int32_t corr = send_req(&c, K_METADATA, 1, &md);
			wire_buf_free(&md);
			struct wire_buf body;
			struct wire_rd rd;
			recv_resp(&c, corr, &body, &rd);
			wire_buf_free(&body);
			int64_t ls, le;
			assert_int_equal(sim_get_offsets(sim, "wire-a0", 0, &ls, &le, err, sizeof err), 0);
			assert_int_equal(le, 1);
		} else {
			char byte;
			assert_true(readable(&c, 5000));
			assert_int_equal(read(c.fd, &byte, 1), 0); /* closed */
		}
	}
	rec_buf_free(&batch);
	close(c.fd);
}

static int setup(void **state)
{
	char err[256];
	struct sim_options o = { .brokers = 2, .group_min_session_timeout_ms = 500 };
	sim = sim_new(&o, err, sizeof err);
	if (!sim || sim_start(sim) < 0) {
		fprintf(stderr, "sim: %s\n", err);
		return -1;
	}
	*state = sim;
	return 0;
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(versions_single_member), cmocka_unit_test(barrier_keeps_request_order),
	cmocka_unit_test(disconnect_while_held),  cmocka_unit_test(group_errors),
	cmocka_unit_test(produce_fetch_by_hand),  cmocka_unit_test(produce_acks0),
};

LT_TEST_MAIN(setup, test_sim_teardown)
