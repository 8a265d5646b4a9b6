/* server.c — see server.h. */
#define _GNU_SOURCE /* accept4 */
#include "sim/server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "util/xalloc.h"
#include "util/timeutil.h"

/* Largest request frame accepted: Kafka's default socket.request.max.bytes. */
#define SIM_MAX_FRAME (100 * 1024 * 1024)
/* A connection stops being read while this many answer bytes wait for a client that does not read,
 * and resumes below half of it: memory stays bounded whatever a client pipelines. */
#define SIM_MAX_PENDING_OUT (32u * 1024 * 1024)

/* ---- timers ---- */

uint64_t sim_timer_add(struct sim_server *srv, int64_t due_mono_ms, sim_timer_fn *fn, void *arg)
{
	srv->timers = xgrow(srv->timers, &srv->timers_cap, srv->ntimers + 1, sizeof(*srv->timers));
	uint64_t id = ++srv->next_timer_id;
	srv->timers[srv->ntimers++] = (struct sim_timer){ id, due_mono_ms, fn, arg };
	return id;
}

void sim_timer_cancel(struct sim_server *srv, uint64_t id)
{
	for (size_t i = 0; i < srv->ntimers; i++) {
		if (srv->timers[i].id == id) {
			srv->timers[i] = srv->timers[--srv->ntimers];
			return;
		}
	}
}

/* Runs due timers; returns ms until the next one (-1 when none). */
static int timers_run(struct sim_server *srv)
{
	int64_t now = now_mono_ms();
	for (size_t i = 0; i < srv->ntimers;) {
		if (srv->timers[i].due <= now) {
			struct sim_timer t = srv->timers[i];
			srv->timers[i] = srv->timers[--srv->ntimers];
			/* fn may add or cancel timers; slot i now holds another timer (or the scan ends), and one
			 * moved behind i by a cancel is simply run on the next pass. */
			t.fn(srv, t.arg);
			continue;
		}
		i++;
	}
	int64_t next = -1;
	for (size_t i = 0; i < srv->ntimers; i++)
		if (next < 0 || srv->timers[i].due < next)
			next = srv->timers[i].due;
	if (next < 0)
		return -1;
	return next <= now ? 0 : (int)(next - now > 60000 ? 60000 : next - now);
}

/* ---- connections ---- */

static void conn_close(struct sim_conn *c, const char *why)
{
	if (c->dead)
		return;
	struct sim_server *srv = c->broker->srv;
	if (why && !c->detached)
		fprintf(stderr, "lagtop-sim: broker %d: closing connection %s: %s\n", c->broker->node_id, c->peer, why);
	if (c->fd >= 0) {
		epoll_ctl(srv->epfd, EPOLL_CTL_DEL, c->fd, NULL);
		close(c->fd);
	}
	c->fd = -1;
	c->dead = true;
	if (c->prev)
		c->prev->next = c->next;
	else if (c->broker->conns == c)
		c->broker->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	/* Owners of deferred answers must forget them before the answers are freed. */
	for (struct sim_resp *r = c->head; r; r = r->next) {
		if (r->delay_timer)
			sim_timer_cancel(srv, r->delay_timer);
		if (!r->ready && r->cancel)
			r->cancel(r->cancel_arg, r);
	}
	c->dead_next = srv->dead;
	srv->dead = c;
}

static void conn_free(struct sim_conn *c)
{
	struct sim_resp *r = c->head;
	while (r) {
		struct sim_resp *n = r->next;
		free(r->data);
		free(r);
		r = n;
	}
	wire_buf_free(&c->in);
	free(c);
}

static void conn_set_events(struct sim_conn *c, bool out, bool paused)
{
	if ((c->epollout == out && c->paused == paused) || c->dead || c->detached)
		return;
	struct epoll_event ev = { .events = (paused ? 0 : EPOLLIN) | (out ? EPOLLOUT : 0), .data.ptr = c };
	epoll_ctl(c->broker->srv->epfd, EPOLL_CTL_MOD, c->fd, &ev);
	c->epollout = out;
	c->paused = paused;
}

static void conn_want_out(struct sim_conn *c, bool on)
{
	bool paused = c->out_bytes > SIM_MAX_PENDING_OUT || (c->paused && c->out_bytes > SIM_MAX_PENDING_OUT / 2);
	conn_set_events(c, on, paused);
}

/* Writes ready answers from the head of the queue, in order. */
static void conn_flush(struct sim_conn *c)
{
	while (!c->dead && c->head && c->head->ready) {
		struct sim_resp *r = c->head;
		size_t end = r->cut ? r->cut : r->len;
		ssize_t n = c->detached ? (ssize_t)(end - r->off)
					: send(c->fd, r->data + r->off, end - r->off, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				conn_want_out(c, true);
				return;
			}
			if (errno == EINTR)
				continue;
			conn_close(c, NULL); /* peer went away */
			return;
		}
		r->off += (size_t)n;
		c->out_bytes -= (size_t)n;
		if (r->off < end)
			continue;
		if (r->cut) {
			conn_close(c, "fault injection: connection dropped in the middle of an answer");
			return;
		}
		c->head = r->next;
		if (!c->head)
			c->tail = NULL;
		free(r->data);
		free(r);
	}
	conn_want_out(c, false);
}

static struct sim_resp *resp_new(struct sim_conn *c, int16_t api_key, int32_t corr, bool flex_header)
{
	struct sim_resp *r = xcalloc(1, sizeof(*r));
	r->conn = c;
	r->api_key = api_key;
	r->correlation_id = corr;
	r->flex_header = flex_header;
	if (c->tail)
		c->tail->next = r;
	else
		c->head = r;
	c->tail = r;
	return r;
}

static void resp_fill(struct sim_resp *r, const struct wire_buf *body)
{
	struct wire_buf f;
	wire_buf_init(&f);
	wire_put_i32(&f, 0);
	wire_put_i32(&f, r->correlation_id);
	wire_put_tags(&f, r->flex_header);
	if (body)
		wire_put_raw(&f, body->data, body->len);
	wire_patch_i32(&f, 0, (int32_t)(f.len - 4));
	r->data = f.data;
	r->len = f.len;
	r->off = 0;
}

static void resp_ready(struct sim_resp *r)
{
	r->ready = true;
	r->conn->out_bytes += r->len;
	conn_flush(r->conn);
}

static void delay_done(struct sim_server *srv, void *arg)
{
	struct sim_resp *r = arg;
	r->delay_timer = 0;
	resp_ready(r);
}

/* xorshift64*: uniform in [0, 1). */
static double fault_rand(struct sim_server *srv)
{
	uint64_t x = srv->fault_rng ? srv->fault_rng : 0x9e3779b97f4a7c15ULL;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	srv->fault_rng = x;
	return (double)((x * 0x2545f4914f6cdd1dULL) >> 11) / 9007199254740992.0;
}

/* The APIs whose answers carry a coordinator error (the ones the injected errors make sense for). */
static bool fault_api(int16_t key)
{
	switch (key) {
	case KAPI_OFFSET_COMMIT:
	case KAPI_OFFSET_FETCH:
	case KAPI_FIND_COORDINATOR:
	case KAPI_JOIN_GROUP:
	case KAPI_HEARTBEAT:
	case KAPI_LEAVE_GROUP:
	case KAPI_SYNC_GROUP:
	case KAPI_DESCRIBE_GROUPS:
	case KAPI_LIST_GROUPS:
	case KAPI_DELETE_GROUPS:
	case KAPI_OFFSET_DELETE:
	case KAPI_CONSUMER_GROUP_DESCRIBE: return true;
	default: return false;
	}
}

/* The error to inject into this request's answer (0: none). */
static int16_t fault_pick_error(struct sim_server *srv, struct sim_broker *b, int16_t key)
{
	struct sim_fault *f = &b->fault;
	if (!f->error_code || !fault_api(key) || (f->error_api >= 0 && f->error_api != key))
		return 0;
	bool hit = false;
	if (f->error_count > 0) {
		f->error_count--;
		hit = true;
	} else if (f->error_rate > 0) {
		hit = fault_rand(srv) < f->error_rate;
	}
	if (!hit)
		return 0;
	srv->injected_errors++;
	return f->error_code;
}

/* Marks an answer ready, or holds it back when the broker has injected latency. */
static void resp_release(struct sim_server *srv, struct sim_resp *r)
{
	double drop = r->conn->broker->fault.drop_rate;
	if (drop > 0 && fault_rand(srv) < drop) {
		r->cut = r->len / 2; /* the length prefix and part of the body: the client waits for the rest */
		srv->injected_drops++;
	}
	const struct sim_fault *f = &r->conn->broker->fault;
	int32_t lat = f->latency_api < 0 || f->latency_api == r->api_key ? f->latency_ms : 0;
	if (lat > 0) {
		r->delay_timer = sim_timer_add(srv, now_mono_ms() + lat, delay_done, r);
		return;
	}
	resp_ready(r);
}

struct sim_resp *sim_req_defer(struct sim_req *req, void (*cancel)(void *arg, struct sim_resp *resp), void *arg)
{
	struct sim_resp *r =
		resp_new(req->conn, req->api_key, req->correlation_id, req->flex && req->api_key != KAPI_API_VERSIONS);
	r->cancel = cancel;
	r->cancel_arg = arg;
	req->deferred = r;
	return r;
}

void sim_resp_complete(struct sim_server *srv, struct sim_resp *resp, const struct wire_buf *body)
{
	resp->cancel = NULL;
	resp_fill(resp, body);
	resp_release(srv, resp);
}

int16_t sim_req_list_offsets_fault(const struct sim_req *req, const char *topic, size_t len, int32_t partition)
{
	const struct sim_server *srv = req->srv;
	if (!srv->list_offsets_fail_topic || partition != srv->list_offsets_fail_partition ||
	    strlen(srv->list_offsets_fail_topic) != len || memcmp(srv->list_offsets_fail_topic, topic, len) != 0)
		return KERR_NONE;
	return srv->list_offsets_fail_code;
}

int16_t sim_req_commit_fault(const struct sim_req *req, const char *topic, size_t len, int32_t partition)
{
	const struct sim_server *srv = req->srv;
	if (!srv->commit_fail_topic || partition != srv->commit_fail_partition ||
	    strlen(srv->commit_fail_topic) != len || memcmp(srv->commit_fail_topic, topic, len) != 0)
		return KERR_NONE;
	return srv->commit_fail_code;
}

int16_t sim_req_check_coordinator(const struct sim_req *req, const char *group, size_t len)
{
	if (req->inject_err)
		return req->inject_err;
	return sim_coordinator_for(req->st, group, len) == req->node_id ? KERR_NONE : KERR_NOT_COORDINATOR;
}

/* The answer to an ApiVersions of a version the sim does not serve: a v0-shaped body with
 * UNSUPPORTED_VERSION and ApiVersions' own range, which is what Kafka sends so that a client can retry
 * with a version both sides have. Every other API at an unserved version gets no answer at all (below). */
static void unsupported_api_versions_body(struct wire_buf *out)
{
	wire_put_i16(out, KERR_UNSUPPORTED_VERSION);
	const struct sim_api *a = sim_api_find(KAPI_API_VERSIONS);
	wire_put_i32(out, 1);
	wire_put_i16(out, a->key);
	wire_put_i16(out, a->min_version);
	wire_put_i16(out, a->max_version);
}

/* One request frame. Returns -1 when the connection must be closed. */
static int handle_frame(struct sim_conn *c, const uint8_t *p, size_t len)
{
	struct sim_server *srv = c->broker->srv;
	struct wire_rd rd;
	wire_rd_init(&rd, p, len);
	int16_t key = wire_i16(&rd);
	int16_t ver = wire_i16(&rd);
	rd.off = 0;
	if (key >= 0 && key < KAPI_KEY_MAX)
		srv->counts[key]++;
	else
		srv->count_unknown++;

	const struct sim_api *api = sim_api_find(key);
	struct sim_api_range range;
	bool served = sim_api_served(api, srv->st->kafka_major, srv->st->kafka_minor, &range) && ver >= range.min &&
		      ver <= range.max;
	bool flex = served && ver >= api->flexible_from;
	struct wire_req_header h;
	char why[160];
	if (wire_req_header_parse(&rd, &h, flex ? 2 : 1) < 0) {
		snprintf(why, sizeof(why), "truncated request header (api key %d v%d, %zu bytes)", key, ver, len);
		conn_close(c, why);
		return -1;
	}
	if (!served && key != KAPI_API_VERSIONS) {
		/* Kafka's SocketServer refuses the request header of an API or version it does not serve
		 * (InvalidRequestException) and closes the connection without an answer: a removed version
		 * (KIP-896) reaches a client as a disconnect, never as an UNSUPPORTED_VERSION error. */
		snprintf(why, sizeof(why), "api key %d v%d is not served (correlation id %d)", key, ver,
			 h.correlation_id);
		conn_close(c, why);
		return -1;
	}
	struct wire_buf body;
	wire_buf_init(&body);
	if (!served) {
		unsupported_api_versions_body(&body);
		struct sim_resp *r = resp_new(c, key, h.correlation_id, false);
		resp_fill(r, &body);
		wire_buf_free(&body);
		resp_release(srv, r);
		return 0;
	}
	struct sim_req req = {
		.srv = srv,
		.st = srv->st,
		.broker = c->broker,
		.node_id = c->broker->node_id,
		.conn = c,
		.api_key = key,
		.api_version = ver,
		.correlation_id = h.correlation_id,
		.client_id = h.client_id,
		.client_host = "/127.0.0.1",
		.flex = flex,
		.now_ms = now_wall_ms(),
		.mono_ms = now_mono_ms(),
		.inject_err = fault_pick_error(srv, c->broker, key),
	};
	/* Answers leave in request order without a place reserved beforehand: a handler that defers takes
	 * its place in the connection's queue inside sim_req_defer, any other answer is queued below when
	 * the handler returns (resp_new); both happen before this connection's next request is read (one
	 * loop thread), and a deferred answer holds back those queued after it. */
	int rc = api->fn(&req, &rd, &body);
	if (rc == SIM_API_MALFORMED || (rc == SIM_API_OK && rd.err)) {
		wire_buf_free(&body);
		if (req.deferred) {
			/* cannot happen for well-behaved handlers: they defer only after parsing */
			req.deferred->cancel = NULL;
		}
		snprintf(why, sizeof(why), "malformed %s v%d request (correlation id %d, %zu bytes)", api->name, ver,
			 h.correlation_id, len);
		conn_close(c, why);
		return -1;
	}
	if (rc == SIM_API_CLOSE) {
		wire_buf_free(&body);
		snprintf(why, sizeof(why), "%s v%d without an answer failed (correlation id %d)", api->name, ver,
			 h.correlation_id);
		conn_close(c, why);
		return -1;
	}
	if (rc == SIM_API_DEFERRED || rc == SIM_API_NO_RESPONSE) {
		wire_buf_free(&body);
		return 0;
	}
	struct sim_resp *r = resp_new(c, key, h.correlation_id, flex && key != KAPI_API_VERSIONS);
	resp_fill(r, &body);
	wire_buf_free(&body);
	resp_release(srv, r);
	return 0;
}

static void conn_read(struct sim_conn *c)
{
	for (;;) {
		if (c->out_bytes > SIM_MAX_PENDING_OUT)
			break; /* conn_flush() below pauses reading until the client catches up */
		if (c->in.cap - c->in.len < 65536)
			c->in.data = xgrow(c->in.data, &c->in.cap, c->in.len + 65536, 1);
		ssize_t n = recv(c->fd, c->in.data + c->in.len, c->in.cap - c->in.len, 0);
		if (n == 0) {
			if (c->in.len)
				conn_close(c, "peer closed the connection in the middle of a request");
			else
				conn_close(c, NULL);
			return;
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				conn_close(c, NULL);
			break;
		}
		c->in.len += (size_t)n;
		/* Frames complete so far. */
		size_t off = 0;
		while (!c->dead && c->in.len - off >= 4) {
			const uint8_t *q = c->in.data + off;
			int32_t size = (int32_t)(((uint32_t)q[0] << 24) | ((uint32_t)q[1] << 16) |
						 ((uint32_t)q[2] << 8) | q[3]);
			if (size < 8 || size > SIM_MAX_FRAME) {
				char why[80];
				snprintf(why, sizeof(why), "bad request length %d", size);
				conn_close(c, why);
				return;
			}
			if (c->in.len - off - 4 < (size_t)size)
				break;
			if (handle_frame(c, q + 4, (size_t)size) < 0)
				return;
			off += 4 + (size_t)size;
		}
		if (c->dead)
			return;
		if (off) {
			memmove(c->in.data, c->in.data + off, c->in.len - off);
			c->in.len -= off;
		}
		/* Keep big input buffers from lingering once drained. */
		if (c->in.len == 0 && c->in.cap > (1u << 20)) {
			wire_buf_free(&c->in);
		}
	}
	conn_flush(c);
}

static void listener_accept(struct sim_broker *b)
{
	struct sim_server *srv = b->srv;
	for (;;) {
		struct sockaddr_in sa;
		socklen_t sl = sizeof(sa);
		int fd = accept4(b->listen_fd, (struct sockaddr *)&sa, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				fprintf(stderr, "lagtop-sim: broker %d: accept: %s\n", b->node_id, strerror(errno));
			return;
		}
		int one = 1;
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		struct sim_conn *c = xcalloc(1, sizeof(*c));
		c->kind = SIM_EV_CONN;
		c->fd = fd;
		c->id = ++srv->next_conn_id;
		c->broker = b;
		wire_buf_init(&c->in);
		char ip[INET_ADDRSTRLEN] = "?";
		inet_ntop(AF_INET, &sa.sin_addr, ip, sizeof(ip));
		snprintf(c->peer, sizeof(c->peer), "%s:%d", ip, ntohs(sa.sin_port));
		c->next = b->conns;
		if (b->conns)
			b->conns->prev = c;
		b->conns = c;
		struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c };
		if (epoll_ctl(srv->epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
			conn_close(c, "epoll_ctl failed");
	}
}

/* ---- listeners ---- */

static int listener_open(struct sim_broker *b, int port, char *err, size_t errlen)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 512) < 0) {
		snprintf(err, errlen, "cannot listen on 127.0.0.1:%d: %s", port, strerror(errno));
		close(fd);
		return -1;
	}
	socklen_t sl = sizeof(sa);
	getsockname(fd, (struct sockaddr *)&sa, &sl);
	b->port = ntohs(sa.sin_port);
	b->listen_fd = fd;
	return 0;
}

static void listener_register(struct sim_broker *b)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = b };
	epoll_ctl(b->srv->epfd, EPOLL_CTL_ADD, b->listen_fd, &ev);
}

void sim_server_apply_brokers(struct sim_server *srv)
{
	for (int i = 0; i < srv->nbrokers; i++) {
		struct sim_broker *b = &srv->brokers[i];
		struct sim_node *node = sim_state_node(srv->st, b->node_id);
		if (!b->want_up && b->listen_fd >= 0) {
			epoll_ctl(srv->epfd, EPOLL_CTL_DEL, b->listen_fd, NULL);
			close(b->listen_fd);
			b->listen_fd = -1;
			while (b->conns)
				conn_close(b->conns, NULL);
			node->up = false;
		} else if (b->want_up && b->listen_fd < 0) {
			char err[160];
			if (listener_open(b, b->port, err, sizeof(err)) < 0) {
				fprintf(stderr, "lagtop-sim: broker %d: restart failed: %s\n", b->node_id, err);
				b->want_up = false;
				continue;
			}
			listener_register(b);
			node->up = true;
		}
	}
	pthread_cond_broadcast(&srv->changed);
}

int sim_server_feed(struct sim_server *srv, int node_id, const uint8_t *data, size_t len)
{
	if (node_id < 1 || node_id > srv->nbrokers)
		return -1;
	struct sim_conn *c = xcalloc(1, sizeof(*c));
	c->kind = SIM_EV_CONN;
	c->fd = -1;
	c->detached = true;
	c->id = ++srv->next_conn_id;
	c->broker = &srv->brokers[node_id - 1];
	wire_buf_init(&c->in);
	snprintf(c->peer, sizeof(c->peer), "feed");
	/* The same framing rules as conn_read(). */
	int frames = 0;
	size_t off = 0;
	while (!c->dead && len - off >= 4) {
		const uint8_t *q = data + off;
		int32_t size =
			(int32_t)(((uint32_t)q[0] << 24) | ((uint32_t)q[1] << 16) | ((uint32_t)q[2] << 8) | q[3]);
		if (size < 8 || size > SIM_MAX_FRAME || len - off - 4 < (size_t)size)
			break;
		if (handle_frame(c, q + 4, (size_t)size) < 0)
			break;
		frames++;
		off += 4 + (size_t)size;
	}
	int rc = c->dead ? -1 : frames;
	conn_close(c, NULL); /* cancels deferred answers and latency timers */
	while (srv->dead) {
		struct sim_conn *d = srv->dead;
		srv->dead = d->dead_next;
		conn_free(d);
	}
	return rc;
}

void sim_server_wake(struct sim_server *srv)
{
	uint64_t one = 1;
	ssize_t n = write(srv->wakefd, &one, sizeof(one));
	(void)n;
}

struct sim_server *sim_server_new(struct sim_state *st, int base_port, char *err, size_t errlen)
{
	struct sim_server *srv = xcalloc(1, sizeof(*srv));
	pthread_mutex_init(&srv->lock, NULL);
	pthread_cond_init(&srv->changed, NULL);
	srv->st = st;
	srv->nbrokers = st->nnodes;
	srv->brokers = xcalloc((size_t)st->nnodes, sizeof(*srv->brokers));
	srv->epfd = epoll_create1(EPOLL_CLOEXEC);
	srv->wakefd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	srv->wake_kind = SIM_EV_WAKE;
	for (int i = 0; i < srv->nbrokers; i++)
		srv->brokers[i].listen_fd = -1;
	if (srv->epfd < 0 || srv->wakefd < 0) {
		snprintf(err, errlen, "epoll/eventfd: %s", strerror(errno));
		sim_server_free(srv);
		return NULL;
	}
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &srv->wake_kind };
	epoll_ctl(srv->epfd, EPOLL_CTL_ADD, srv->wakefd, &ev);
	size_t blen = 0;
	srv->bootstrap = xcalloc(1, (size_t)srv->nbrokers * 24 + 1);
	for (int i = 0; i < srv->nbrokers; i++) {
		struct sim_broker *b = &srv->brokers[i];
		b->kind = SIM_EV_LISTENER;
		b->srv = srv;
		b->node_id = st->nodes[i].node_id;
		b->want_up = true;
		b->fault.error_api = -1;
		b->fault.latency_api = -1;
		if (listener_open(b, base_port ? base_port + i : 0, err, errlen) < 0) {
			sim_server_free(srv);
			return NULL;
		}
		listener_register(b);
		st->nodes[i].port = b->port;
		st->nodes[i].up = true;
		blen += (size_t)sprintf(srv->bootstrap + blen, "%s127.0.0.1:%d", i ? "," : "", b->port);
	}
	return srv;
}

static void loop_once(struct sim_server *srv, int timeout)
{
	struct epoll_event evs[64];
	int n = epoll_wait(srv->epfd, evs, 64, timeout);
	pthread_mutex_lock(&srv->lock);
	for (int i = 0; i < n; i++) {
		enum sim_ev_kind kind = *(enum sim_ev_kind *)evs[i].data.ptr;
		if (kind == SIM_EV_WAKE) {
			uint64_t v;
			ssize_t r = read(srv->wakefd, &v, sizeof(v));
			(void)r;
		} else if (kind == SIM_EV_LISTENER) {
			struct sim_broker *b = evs[i].data.ptr;
			if (b->listen_fd >= 0)
				listener_accept(b);
		} else {
			struct sim_conn *c = evs[i].data.ptr; /* freed only after this batch */
			if (c->dead)
				continue;
			if (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
				conn_read(c);
			if (!c->dead && (evs[i].events & EPOLLOUT))
				conn_flush(c);
		}
	}
	sim_server_apply_brokers(srv);
	while (srv->dead) {
		struct sim_conn *c = srv->dead;
		srv->dead = c->dead_next;
		conn_free(c);
	}
	pthread_mutex_unlock(&srv->lock);
}

static void *loop_main(void *arg)
{
	struct sim_server *srv = arg;
	pthread_mutex_lock(&srv->lock);
	for (;;) {
		if (srv->stop)
			break;
		int timeout = timers_run(srv);
		pthread_mutex_unlock(&srv->lock);
		loop_once(srv, timeout);
		pthread_mutex_lock(&srv->lock);
	}
	pthread_mutex_unlock(&srv->lock);
	return NULL;
}

int sim_server_start(struct sim_server *srv, char *err, size_t errlen)
{
	if (srv->running)
		return 0;
	srv->stop = false;
	int rc = pthread_create(&srv->thread, NULL, loop_main, srv);
	if (rc != 0) {
		snprintf(err, errlen, "cannot start the simulated cluster's thread: %s", strerror(rc));
		return -1;
	}
	srv->running = true;
	return 0;
}

void sim_server_stop(struct sim_server *srv)
{
	if (!srv->running)
		return;
	pthread_mutex_lock(&srv->lock);
	srv->stop = true;
	pthread_mutex_unlock(&srv->lock);
	sim_server_wake(srv);
	pthread_join(srv->thread, NULL);
	srv->running = false;
}

void sim_server_free(struct sim_server *srv)
{
	if (!srv)
		return;
	sim_server_stop(srv);
	for (int i = 0; i < srv->nbrokers; i++) {
		struct sim_broker *b = &srv->brokers[i];
		while (b->conns)
			conn_close(b->conns, NULL);
		if (b->listen_fd >= 0)
			close(b->listen_fd);
	}
	while (srv->dead) {
		struct sim_conn *c = srv->dead;
		srv->dead = c->dead_next;
		conn_free(c);
	}
	if (srv->epfd >= 0)
		close(srv->epfd);
	if (srv->wakefd >= 0)
		close(srv->wakefd);
	free(srv->brokers);
	free(srv->commit_fail_topic);
	free(srv->list_offsets_fail_topic);
	free(srv->timers);
	free(srv->bootstrap);
	pthread_cond_destroy(&srv->changed);
	pthread_mutex_destroy(&srv->lock);
	free(srv);
}
