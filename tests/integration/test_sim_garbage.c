/* test_sim_garbage.c — the sim's framing over raw TCP: pipelined requests are answered in order, and an
 * unknown API (as in Kafka), garbage, truncated frames, huge length prefixes and malformed bodies close
 * only the offending connection while the sim keeps serving. Also unit tests of the wire codec. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "sim/sim.h"
#include "sim/wire.h"

#include "../lib/lagtop_test.h"
#include "../lib/cmocka_main.h"

static sim_cluster *sim;

static int setup(void **state)
{
	*state = sim = test_sim_start(2, "demo");
	return 0;
}

static int connect_broker(int node)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)sim_broker_port(sim, node)) };
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	struct timeval tv = { .tv_sec = 10 };
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

static void send_all(int fd, const void *p, size_t n)
{
	const uint8_t *b = p;
	while (n) {
		ssize_t k = send(fd, b, n, MSG_NOSIGNAL);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return; /* the sim may close first: that is allowed */
		b += k;
		n -= (size_t)k;
	}
}

/* Reads one response frame into *out (caller frees); returns its length, or -1 on EOF/timeout. */
static ssize_t read_frame(int fd, uint8_t **out)
{
	uint8_t hdr[4];
	size_t got = 0;
	while (got < 4) {
		ssize_t k = recv(fd, hdr + got, 4 - got, 0);
		if (k <= 0)
			return -1;
		got += (size_t)k;
	}
	uint32_t len = ((uint32_t)hdr[0] << 24) | ((uint32_t)hdr[1] << 16) | ((uint32_t)hdr[2] << 8) | hdr[3];
	assert_true(len < (1u << 24));
	uint8_t *b = malloc(len + 1);
	got = 0;
	while (got < len) {
		ssize_t k = recv(fd, b + got, len - got, 0);
		if (k <= 0) {
			free(b);
			return -1;
		}
		got += (size_t)k;
	}
	*out = b;
	return (ssize_t)len;
}

/* True when the peer closed the connection (EOF) within the receive timeout. */
static bool closed_by_peer(int fd)
{
	uint8_t b[256];
	for (;;) {
		ssize_t k = recv(fd, b, sizeof(b), 0);
		if (k == 0)
			return true;
		if (k < 0)
			return errno == ECONNRESET;
	}
}

static void request(struct wire_buf *b, int16_t key, int16_t ver, int32_t corr, bool flex_header)
{
	size_t start = b->len;
	wire_put_i32(b, 0);
	wire_put_i16(b, key);
	wire_put_i16(b, ver);
	wire_put_i32(b, corr);
	wire_put_str(b, "garbage-test", false);
	wire_put_tags(b, flex_header);
	(void)start;
}

static void finish(struct wire_buf *b, size_t start)
{
	wire_patch_i32(b, start, (int32_t)(b->len - start - 4));
}

/* An ApiVersions v0 request with correlation id corr on a new connection to node is answered, error 0. */
static void expect_api_versions(int node, int32_t corr)
{
	int fd = connect_broker(node);
	struct wire_buf b;
	wire_buf_init(&b);
	request(&b, 18, 0, corr, false);
	finish(&b, 0);
	send_all(fd, b.data, b.len);
	uint8_t *r;
	ssize_t n = read_frame(fd, &r);
	assert_true(n >= 6);
	struct wire_rd rd;
	wire_rd_init(&rd, r, (size_t)n);
	assert_int_equal(wire_i32(&rd), corr);
	assert_int_equal(wire_i16(&rd), 0);
	free(r);
	wire_buf_free(&b);
	close(fd);
}

/* A working ApiVersions v0 round trip: the sim is alive. */
static void assert_alive(void)
{
	expect_api_versions(1, 777);
}

static void test_pipelined_in_order(void **state)
{
	(void)state;
	int fd = connect_broker(2);
	struct wire_buf b;
	wire_buf_init(&b);
	for (int i = 0; i < 200; i++) {
		size_t start = b.len;
		switch (i % 4) {
		case 0:
			request(&b, 18, 1, i, false); /* ApiVersions */
			break;
		case 1:
			request(&b, 3, 1, i, false); /* Metadata v1, all topics */
			wire_put_i32(&b, -1);
			break;
		case 2:
			request(&b, 16, 1, i, false); /* ListGroups */
			break;
		case 3:
			request(&b, 10, 1, i, false); /* FindCoordinator */
			wire_put_str(&b, "orders-processor", false);
			wire_put_i8(&b, 0);
			break;
		}
		finish(&b, start);
	}
	send_all(fd, b.data, b.len);
	for (int i = 0; i < 200; i++) {
		uint8_t *r;
		ssize_t n = read_frame(fd, &r);
		assert_true(n >= 4);
		struct wire_rd rd;
		wire_rd_init(&rd, r, (size_t)n);
		assert_int_equal(wire_i32(&rd), i);
		free(r);
	}
	wire_buf_free(&b);
	close(fd);
}

static void test_unknown_api(void **state)
{
	(void)state;
	int fd = connect_broker(1);
	struct wire_buf b;
	wire_buf_init(&b);
	/* An unknown key: like Kafka's SocketServer, the sim closes the connection without an answer (there
	 * is no UNSUPPORTED_VERSION error for any API but ApiVersions); other connections are unharmed. */
	request(&b, 999, 0, 5, false);
	finish(&b, 0);
	send_all(fd, b.data, b.len);
	assert_true(closed_by_peer(fd));
	close(fd);
	wire_buf_free(&b);
	expect_api_versions(1, 7);
}

static void test_api_versions_v3_and_too_new(void **state)
{
	(void)state;
	int fd = connect_broker(1);
	struct wire_buf b;
	wire_buf_init(&b);
	request(&b, 18, 3, 1, true);
	wire_put_str(&b, "lagtop-test", true);
	wire_put_str(&b, "1.0", true);
	wire_put_tags(&b, true);
	finish(&b, 0);
	size_t second = b.len;
	request(&b, 18, 9, 2, true);
	finish(&b, second);
	send_all(fd, b.data, b.len);

	uint8_t *r;
	ssize_t n = read_frame(fd, &r);
	assert_true(n > 6);
	struct wire_rd rd;
	wire_rd_init(&rd, r, (size_t)n);
	assert_int_equal(wire_i32(&rd), 1);
	/* No tagged fields in ApiVersions' response header: the error code follows directly. */
	assert_int_equal(wire_i16(&rd), 0);
	int32_t napis = wire_array(&rd, true, 7);
	assert_true(napis >= 8);
	bool has_find_coordinator_v0 = false, has_join = false;
	for (int32_t i = 0; i < napis; i++) {
		int16_t key = wire_i16(&rd), min = wire_i16(&rd), max = wire_i16(&rd);
		wire_tags_skip(&rd, true);
		if (key == 10 && min == 0 && max >= 2)
			has_find_coordinator_v0 = true;
		(void)max;
	}
	(void)has_join;
	assert_int_equal(wire_i32(&rd), 0); /* throttle */
	wire_tags_skip(&rd, true);
	assert_false(rd.err);
	assert_int_equal(wire_rd_left(&rd), 0);
	assert_true(has_find_coordinator_v0);
	free(r);

	n = read_frame(fd, &r);
	assert_true(n >= 6);
	wire_rd_init(&rd, r, (size_t)n);
	assert_int_equal(wire_i32(&rd), 2);
	assert_int_equal(wire_i16(&rd), 35);
	assert_int_equal(wire_i32(&rd), 1); /* tells the client which ApiVersions versions exist */
	assert_int_equal(wire_i16(&rd), 18);
	assert_int_equal(wire_i16(&rd), 0);
	assert_int_equal(wire_i16(&rd), 3);
	free(r);
	wire_buf_free(&b);
	close(fd);
}

static void test_garbage_stream(void **state)
{
	(void)state;
	uint64_t x = 0x1234567887654321ULL;
	for (int round = 0; round < 20; round++) {
		int fd = connect_broker(1 + round % 2);
		uint8_t junk[4096];
		for (size_t i = 0; i < sizeof(junk); i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			junk[i] = (uint8_t)x;
		}
		/* Half the rounds use a plausible length prefix with a random body. */
		if (round % 2) {
			junk[0] = 0;
			junk[1] = 0;
			junk[2] = 0x0f;
			junk[3] = 0xfc;
		}
		int32_t len = (int32_t)(((uint32_t)junk[0] << 24) | ((uint32_t)junk[1] << 16) |
					((uint32_t)junk[2] << 8) | junk[3]);
		send_all(fd, junk, sizeof(junk));
		/* An impossible length closes at once; a plausible one may get an answer and stay open. */
		if (len < 8 || len > 100 * 1024 * 1024)
			assert_true(closed_by_peer(fd));
		close(fd);
	}
	assert_alive();
}

static void test_huge_length_prefix(void **state)
{
	(void)state;
	static const uint8_t huge[] = { 0x7f, 0xff, 0xff, 0xff, 0, 18, 0, 0 };
	static const uint8_t negative[] = { 0xff, 0xff, 0xff, 0xf0 };
	static const uint8_t tiny[] = { 0, 0, 0, 2, 0, 18 };
	int fd = connect_broker(1);
	send_all(fd, huge, sizeof(huge));
	assert_true(closed_by_peer(fd));
	close(fd);
	fd = connect_broker(1);
	send_all(fd, negative, sizeof(negative));
	assert_true(closed_by_peer(fd));
	close(fd);
	fd = connect_broker(2);
	send_all(fd, tiny, sizeof(tiny));
	assert_true(closed_by_peer(fd));
	close(fd);
	assert_alive();
}

static void test_truncated_frames(void **state)
{
	(void)state;
	/* A frame cut short, then the client goes away. */
	struct wire_buf b;
	wire_buf_init(&b);
	request(&b, 3, 1, 1, false);
	wire_put_i32(&b, -1);
	finish(&b, 0);
	for (size_t cut = 1; cut < b.len; cut += 3) {
		int fd = connect_broker(1);
		send_all(fd, b.data, cut);
		close(fd);
	}
	/* A complete frame whose body is shorter than its fields: a malformed request. */
	wire_buf_reset(&b);
	request(&b, 15, 0, 1, false); /* DescribeGroups */
	wire_put_i32(&b, 1000000000); /* a billion groups in a handful of bytes */
	finish(&b, 0);
	int fd = connect_broker(1);
	send_all(fd, b.data, b.len);
	assert_true(closed_by_peer(fd));
	close(fd);
	/* An OffsetCommit cut in the middle of a partition. */
	wire_buf_reset(&b);
	request(&b, 8, 2, 1, false);
	wire_put_str(&b, "g", false);
	wire_put_i32(&b, -1);
	wire_put_str(&b, "", false);
	wire_put_i64(&b, -1);
	wire_put_i32(&b, 1);
	wire_put_str(&b, "orders", false);
	wire_put_i32(&b, 1);
	wire_put_i32(&b, 0);
	finish(&b, 0);
	fd = connect_broker(1);
	send_all(fd, b.data, b.len);
	assert_true(closed_by_peer(fd));
	close(fd);
	wire_buf_free(&b);
	assert_alive();
}

static void test_many_connections(void **state)
{
	(void)state;
	enum { N = 200 };
	int fds[N];
	for (int i = 0; i < N; i++)
		fds[i] = connect_broker(1 + i % 2);
	struct wire_buf b;
	wire_buf_init(&b);
	request(&b, 18, 0, 42, false);
	finish(&b, 0);
	for (int i = 0; i < N; i++)
		send_all(fds[i], b.data, b.len);
	for (int i = 0; i < N; i++) {
		uint8_t *r;
		assert_true(read_frame(fds[i], &r) >= 6);
		assert_int_equal(r[3], 42);
		free(r);
		close(fds[i]);
	}
	wire_buf_free(&b);
}

/* A client that pipelines ~45 MB of answers before reading any: the sim stops reading from it (bounded
 * memory), keeps serving others meanwhile, and resumes when the client reads — every answer in order. */
static void test_slow_reader(void **state)
{
	(void)state;
	enum { N = 30000 };
	int fd = connect_broker(1);
	struct wire_buf b;
	wire_buf_init(&b);
	for (int i = 0; i < N; i++) {
		size_t start = b.len;
		request(&b, 3, 1, i, false); /* Metadata v1, all topics: ~1.5 KB answers */
		wire_put_i32(&b, -1);
		finish(&b, start);
	}
	size_t sent = 0;
	for (int tries = 0; tries < 50 && sent < b.len; tries++) {
		ssize_t k = send(fd, b.data + sent, b.len - sent, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (k > 0)
			sent += (size_t)k;
		else
			usleep(20000);
	}
	assert_alive();

	uint8_t *in = malloc(1 << 20);
	size_t inlen = 0;
	int next = 0;
	for (int rounds = 0; next < N && rounds < 200000; rounds++) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN | (sent < b.len ? POLLOUT : 0) };
		assert_true(poll(&pfd, 1, 10000) > 0);
		if ((pfd.revents & POLLOUT) && sent < b.len) {
			ssize_t k = send(fd, b.data + sent, b.len - sent, MSG_DONTWAIT | MSG_NOSIGNAL);
			if (k > 0)
				sent += (size_t)k;
		}
		if (!(pfd.revents & POLLIN))
			continue;
		ssize_t k = recv(fd, in + inlen, (1 << 20) - inlen, 0);
		assert_true(k > 0);
		inlen += (size_t)k;
		size_t off = 0;
		while (inlen - off >= 8) {
			uint32_t len = ((uint32_t)in[off] << 24) | ((uint32_t)in[off + 1] << 16) |
				       ((uint32_t)in[off + 2] << 8) | in[off + 3];
			assert_true(len < (1u << 19));
			if (inlen - off - 4 < len)
				break;
			struct wire_rd rd;
			wire_rd_init(&rd, in + off + 4, len);
			assert_int_equal(wire_i32(&rd), next);
			next++;
			off += 4 + len;
		}
		memmove(in, in + off, inlen - off);
		inlen -= off;
	}
	assert_int_equal(next, N);
	free(in);
	wire_buf_free(&b);
	close(fd);
}

/* OffsetCommit v2 over the wire: a consumer's commit (generation >= 0) for a group the coordinator does not
 * know is from an older generation (ILLEGAL_GENERATION, nothing created); the wrong broker says
 * NOT_COORDINATOR. */
static void test_commit_routing_and_generation(void **state)
{
	(void)state;
	const char *group = "g-generation";
	int coord = sim_coordinator(sim, group);
	int other = coord == 1 ? 2 : 1;
	int16_t want[2] = { 22, 16 }; /* ILLEGAL_GENERATION, NOT_COORDINATOR */
	int nodes[2] = { coord, other };
	for (int k = 0; k < 2; k++) {
		int fd = connect_broker(nodes[k]);
		struct wire_buf b;
		wire_buf_init(&b);
		request(&b, 8, 2, 9, false);
		wire_put_str(&b, group, false);
		wire_put_i32(&b, 5);            /* generation */
		wire_put_str(&b, "m-1", false); /* member */
		wire_put_i64(&b, -1);           /* retention */
		wire_put_i32(&b, 1);
		wire_put_str(&b, "orders", false);
		wire_put_i32(&b, 1);
		wire_put_i32(&b, 0);
		wire_put_i64(&b, 5);
		wire_put_str(&b, "", false);
		finish(&b, 0);
		send_all(fd, b.data, b.len);
		uint8_t *r;
		ssize_t n = read_frame(fd, &r);
		assert_true(n > 0);
		struct wire_rd rd;
		wire_rd_init(&rd, r, (size_t)n);
		assert_int_equal(wire_i32(&rd), 9);
		assert_int_equal(wire_array(&rd, false, 1), 1);
		assert_true(wire_str_eq(wire_str(&rd, false), "orders"));
		assert_int_equal(wire_array(&rd, false, 1), 1);
		assert_int_equal(wire_i32(&rd), 0);
		assert_int_equal(wire_i16(&rd), want[k]);
		assert_false(rd.err);
		free(r);
		wire_buf_free(&b);
		close(fd);
	}
	char st[32];
	assert_int_equal(sim_group_info(sim, group, st, sizeof(st)), -1);
}

static void test_wire_codec(void **state)
{
	(void)state;
	struct wire_buf b;
	wire_buf_init(&b);
	static const int32_t vs[] = { 0, 1, -1, 63, -64, 64, 300, -300, INT32_MAX, INT32_MIN };
	for (size_t i = 0; i < sizeof(vs) / sizeof(vs[0]); i++)
		wire_put_varint(&b, vs[i]);
	wire_put_varlong(&b, INT64_MIN);
	wire_put_uvarint(&b, UINT32_MAX);
	wire_put_str(&b, "héllo", true);
	wire_put_str(&b, NULL, true);
	wire_put_str(&b, NULL, false);
	size_t slot = wire_put_array_slot(&b, true);
	for (int i = 0; i < 200; i++)
		wire_put_i8(&b, (int8_t)i);
	wire_patch_array(&b, slot, 200, true); /* a two-byte varint inserted before the elements */
	struct wire_rd rd;
	wire_rd_init(&rd, b.data, b.len);
	for (size_t i = 0; i < sizeof(vs) / sizeof(vs[0]); i++)
		assert_int_equal(wire_varint(&rd), vs[i]);
	assert_true(wire_varlong(&rd) == INT64_MIN);
	assert_true(wire_uvarint(&rd) == UINT32_MAX);
	assert_true(wire_str_eq(wire_str(&rd, true), "héllo"));
	assert_int_equal(wire_str(&rd, true).len, -1);
	assert_int_equal(wire_str(&rd, false).len, -1);
	assert_int_equal(wire_array(&rd, true, 1), 200);
	for (int i = 0; i < 200; i++)
		assert_int_equal(wire_i8(&rd), (int8_t)i);
	assert_false(rd.err);
	assert_int_equal(wire_rd_left(&rd), 0);
	(void)wire_i8(&rd); /* past the end: sticky error, zero value */
	assert_true(rd.err);
	assert_int_equal(wire_i32(&rd), 0);

	/* An array count larger than the bytes left is an error, not an allocation. */
	wire_buf_reset(&b);
	wire_put_i32(&b, 1000);
	wire_put_i32(&b, 0);
	wire_rd_init(&rd, b.data, b.len);
	(void)wire_array(&rd, false, 4);
	assert_true(rd.err);
	/* A varint longer than 5 bytes is malformed. */
	static const uint8_t longv[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };
	wire_rd_init(&rd, longv, sizeof(longv));
	(void)wire_uvarint(&rd);
	assert_true(rd.err);
	wire_buf_free(&b);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_wire_codec),       cmocka_unit_test(test_pipelined_in_order),
	cmocka_unit_test(test_unknown_api),      cmocka_unit_test(test_api_versions_v3_and_too_new),
	cmocka_unit_test(test_garbage_stream),   cmocka_unit_test(test_huge_length_prefix),
	cmocka_unit_test(test_truncated_frames), cmocka_unit_test(test_many_connections),
	cmocka_unit_test(test_slow_reader),      cmocka_unit_test(test_commit_routing_and_generation),
};

LT_TEST_MAIN(setup, test_sim_teardown)
