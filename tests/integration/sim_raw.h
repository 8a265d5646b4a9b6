/* sim_raw.h — a raw Kafka client for byte-level tests of the simulated cluster: one request at a time,
 * request header v1 (v2 for flexible versions), response header v0 (v1: with tags). Everything fails
 * the running cmocka test on a surprise. Header-only (static inline functions) for the test programs that
 * include it; `sim` must be the test's cluster. */
#ifndef LAGTOP_TESTS_SIM_RAW_H
#define LAGTOP_TESTS_SIM_RAW_H

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sim/sim.h"
#include "sim/wire.h"

struct raw_conn {
	int fd;
	int32_t corr;
};

static inline struct raw_conn raw_connect(sim_cluster *c, int node_id)
{
	struct raw_conn r = { socket(AF_INET, SOCK_STREAM, 0), 0 };
	assert_true(r.fd >= 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)sim_broker_port(c, node_id)) };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(connect(r.fd, (struct sockaddr *)&a, sizeof a), 0);
	return r;
}

static inline void raw_close(struct raw_conn *r)
{
	close(r->fd);
	r->fd = -1;
}

/* Sends one request; flex selects request header v2 (tags after the client id). */
static inline void raw_send(struct raw_conn *r, int16_t key, int16_t ver, bool flex, const struct wire_buf *body)
{
	struct wire_buf f;
	wire_buf_init(&f);
	wire_put_i32(&f, 0);
	wire_put_i16(&f, key);
	wire_put_i16(&f, ver);
	wire_put_i32(&f, ++r->corr);
	wire_put_str(&f, "raw-test", false);
	wire_put_tags(&f, flex);
	wire_put_raw(&f, body->data, body->len);
	wire_patch_i32(&f, 0, (int32_t)(f.len - 4));
	assert_int_equal(send(r->fd, f.data, f.len, MSG_NOSIGNAL), (ssize_t)f.len);
	wire_buf_free(&f);
}

/* Reads n bytes; false on EOF, a reset or 10 s of silence. */
static inline bool raw_read(int fd, void *p, size_t n)
{
	size_t got = 0;
	while (got < n) {
		struct pollfd pf = { fd, POLLIN, 0 };
		if (poll(&pf, 1, 10000) != 1)
			return false;
		ssize_t k = recv(fd, (char *)p + got, n - got, 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		got += (size_t)k;
	}
	return true;
}

/* Receives the answer to the last request: checks the correlation id, skips the header's tags when flex
 * (every flexible API but ApiVersions); the body goes to *body (caller frees), rd reads it. */
static inline void raw_recv(struct raw_conn *r, bool flex, struct wire_buf *body, struct wire_rd *rd)
{
	uint8_t hdr[8];
	assert_true(raw_read(r->fd, hdr, 8));
	uint32_t len = (uint32_t)hdr[0] << 24 | (uint32_t)hdr[1] << 16 | (uint32_t)hdr[2] << 8 | hdr[3];
	int32_t corr = (int32_t)((uint32_t)hdr[4] << 24 | (uint32_t)hdr[5] << 16 | (uint32_t)hdr[6] << 8 | hdr[7]);
	assert_int_equal(corr, r->corr);
	assert_true(len >= 4 && len < (1u << 24));
	wire_buf_init(body);
	body->data = malloc(len - 4 + 1);
	body->len = body->cap = len - 4;
	assert_true(raw_read(r->fd, body->data, len - 4));
	wire_rd_init(rd, body->data, body->len);
	wire_tags_skip(rd, flex);
}

/* One request, one answer. */
static inline void raw_call(struct raw_conn *r, int16_t key, int16_t ver, bool flex, const struct wire_buf *req,
			    struct wire_buf *body, struct wire_rd *rd)
{
	raw_send(r, key, ver, flex, req);
	raw_recv(r, flex, body, rd);
}

/* The whole body was read, and nothing was wrong with it. */
static inline void raw_end(struct wire_rd *rd, struct wire_buf *body)
{
	assert_false(rd->err);
	assert_int_equal(wire_rd_left(rd), 0);
	wire_buf_free(body);
}

/* True when the peer closed the connection without answering. */
static inline bool raw_closed(struct raw_conn *r)
{
	uint8_t b[64];
	struct pollfd pf = { r->fd, POLLIN, 0 };
	if (poll(&pf, 1, 10000) != 1)
		return false;
	ssize_t k = recv(r->fd, b, sizeof b, 0);
	return k == 0 || (k < 0 && errno == ECONNRESET);
}

/* A string field equals s (NULL: a null string). */
static inline void raw_expect_str(struct wire_rd *rd, bool flex, const char *s)
{
	struct wire_str w = wire_str(rd, flex);
	assert_false(rd->err);
	if (!s) {
		assert_int_equal(w.len, -1);
		return;
	}
	char got[512];
	snprintf(got, sizeof got, "%.*s", w.len < 0 ? 0 : (int)w.len, w.p ? w.p : "");
	assert_string_equal(got, s);
}

/* A string field copied into out. */
static inline void raw_str(struct wire_rd *rd, bool flex, char *out, size_t n)
{
	struct wire_str w = wire_str(rd, flex);
	snprintf(out, n, "%.*s", w.len < 0 ? 0 : (int)w.len, w.p ? w.p : "");
}

#endif
