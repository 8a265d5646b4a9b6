/* metrics.c — the sim's Prometheus endpoint (metrics.h). */
#include "sim/metrics.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "sim/cluster.h"
#include "sim/strmap.h"
#include "util/prom.h"
#include "util/xalloc.h"

#define LEAD "kafka_consumer_fetch_manager_metrics_records_lead"
#define LAG  "kafka_consumer_fetch_manager_metrics_records_lag"

struct sim_metrics {
	struct sim_server *srv;
	struct sim_scenario *scn;
	int fd, port;
	pthread_t thread;
	bool stop;
};

struct page {
	char *buf;
	size_t len, cap;
};

static void put(struct page *pg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct page *pg, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		size_t room = pg->cap - pg->len;
		int n = vsnprintf(pg->buf + pg->len, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if ((size_t)n < room) {
			pg->len += (size_t)n;
			return;
		}
		pg->buf = xgrow(pg->buf, &pg->cap, pg->len + (size_t)n + 1, 1);
	}
}

struct each_ctx {
	struct sim_state *st;
	const struct sim_scenario *scn;
	const struct sim_group *g;
	const char *client; /* escaped for a label value */
	struct page *lead, *lag;
};

static void one_assignment(const char *topic, size_t tlen, const int32_t *parts, int n, void *arg)
{
	struct each_ctx *c = arg;
	char t[256];
	if (tlen >= sizeof(t))
		return;
	memcpy(t, topic, tlen);
	t[tlen] = '\0';
	char *tname = prom_escape_label_value(t);
	const char *cl = c->client;
	for (int i = 0; i < n; i++) {
		const struct sim_partition *p = sim_partition_find(c->st, t, tlen, parts[i]);
		if (!p)
			continue;
		int64_t pos;
		bool known = sim_scenario_position(c->scn, c->g->group_id, t, parts[i], &pos);
		if (!known) {
			const struct sim_commit *cm = sim_group_committed(c->g, t, tlen, parts[i]);
			known = cm && cm->set;
			pos = known ? cm->offset : 0;
		}
		char lead[32] = "NaN", lag[32] = "NaN"; /* NaN: the consumer has not fetched yet */
		if (known) {
			snprintf(lead, sizeof lead, "%lld.0", (long long)(pos - p->log_start));
			snprintf(lag, sizeof lag, "%lld.0", (long long)(p->log_end - pos));
		}
		put(c->lead, LEAD "{client_id=\"%s\",partition=\"%d\",topic=\"%s\",} %s\n", cl, (int)parts[i], tname,
		    lead);
		put(c->lag, LAG "{client_id=\"%s\",partition=\"%d\",topic=\"%s\",} %s\n", cl, (int)parts[i], tname,
		    lag);
	}
	free(tname);
}

char *sim_metrics_page(struct sim_state *st, const struct sim_scenario *scn, size_t *len)
{
	struct page lead = { 0 }, lag = { 0 }, all = { 0 };
	put(&lead,
	    "# HELP " LEAD " The latest lead of the partition (position - log start)\n# TYPE " LEAD " untyped\n");
	put(&lag,
	    "# HELP " LAG " The latest lag of the partition (high watermark - position)\n# TYPE " LAG " untyped\n");
	size_t it = 0;
	const struct sim_group *g;
	while ((g = strmap_next(&st->groups, &it))) {
		for (size_t m = 0; m < g->nmembers; m++) {
			const struct sim_member *mem = g->members[m];
			if (!mem->assignment || !mem->client_id)
				continue;
			char *client = prom_escape_label_value(mem->client_id);
			struct each_ctx c = { st, scn, g, client, &lead, &lag };
			(void)sim_consumer_assignment_each(mem->assignment, mem->assignment_len, one_assignment, &c);
			free(client);
		}
	}
	put(&all, "%s%s", lead.buf, lag.buf);
	free(lead.buf);
	free(lag.buf);
	*len = all.len;
	return all.buf;
}

/* Reads the request head (up to 8 KB, 2 s), answers, closes. */
static void serve(struct sim_metrics *m, int c)
{
	struct timeval tv = { 2, 0 };
	setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	char req[8192];
	size_t got = 0;
	while (got < sizeof(req) - 1) {
		ssize_t r = recv(c, req + got, sizeof(req) - 1 - got, 0);
		if (r <= 0)
			return;
		got += (size_t)r;
		req[got] = '\0';
		if (strstr(req, "\r\n\r\n") || strstr(req, "\n\n"))
			break;
	}
	req[got] = '\0';
	bool found =
		!strncmp(req, "GET /metrics ", 13) || !strncmp(req, "GET / ", 6) || !strncmp(req, "GET /metrics?", 13);
	char *body;
	size_t blen;
	if (found) {
		pthread_mutex_lock(&m->srv->lock);
		body = sim_metrics_page(m->srv->st, m->scn, &blen);
		pthread_mutex_unlock(&m->srv->lock);
	} else {
		body = xstrdup("not found: GET /metrics\n");
		blen = strlen(body);
	}
	char head[256];
	int hl = snprintf(head, sizeof(head),
			  "HTTP/1.1 %s\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
			  "Content-Length: %zu\r\nConnection: close\r\n\r\n",
			  found ? "200 OK" : "404 Not Found", blen);
	if (send(c, head, (size_t)hl, MSG_NOSIGNAL) == hl) {
		for (size_t off = 0; off < blen;) {
			ssize_t w = send(c, body + off, blen - off, MSG_NOSIGNAL);
			if (w <= 0)
				break;
			off += (size_t)w;
		}
	}
	free(body);
}

static void *loop(void *arg)
{
	struct sim_metrics *m = arg;
	while (!__atomic_load_n(&m->stop, __ATOMIC_ACQUIRE)) {
		struct pollfd pfd = { m->fd, POLLIN, 0 };
		if (poll(&pfd, 1, 100) <= 0) /* 100 ms: the stop flag is seen in time */
			continue;
		int c = accept(m->fd, NULL, NULL);
		if (c < 0)
			continue;
		serve(m, c);
		close(c);
	}
	return NULL;
}

struct sim_metrics *sim_metrics_start(struct sim_server *srv, struct sim_scenario *scn, int port, char *err,
				      size_t errlen)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "metrics endpoint: socket: %s", strerror(errno));
		return NULL;
	}
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t al = sizeof(a);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(fd, 16) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &al) < 0) {
		snprintf(err, errlen, "metrics endpoint: 127.0.0.1:%d: %s", port, strerror(errno));
		close(fd);
		return NULL;
	}
	struct sim_metrics *m = xcalloc(1, sizeof(*m));
	m->srv = srv;
	m->scn = scn;
	m->fd = fd;
	m->port = ntohs(a.sin_port);
	if (pthread_create(&m->thread, NULL, loop, m) != 0) {
		snprintf(err, errlen, "metrics endpoint: cannot start its thread");
		close(fd);
		free(m);
		return NULL;
	}
	return m;
}

int sim_metrics_port(const struct sim_metrics *m)
{
	return m ? m->port : 0;
}

void sim_metrics_stop(struct sim_metrics *m)
{
	if (!m)
		return;
	__atomic_store_n(&m->stop, true, __ATOMIC_RELEASE);
	pthread_join(m->thread, NULL);
	close(m->fd);
	free(m);
}
