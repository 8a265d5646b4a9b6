/* api_fetch.c — Fetch v4–v11 without fetch sessions (session id 0: every request is a full fetch, which
 * is what librdkafka 2.0.2 and kafka-python do).
 *
 * Every partition answer carries the high watermark, the last stable offset (= high watermark: no
 * transactions) and the log start. A fetch below the log start or past the log end is OFFSET_OUT_OF_RANGE.
 * When there is less than MinBytes to return, the answer is held back for MaxWaitTime on a timer of the
 * event loop (never a sleep); Produce wakes held fetches early when it appends.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/api.h"
#include "sim/record_store.h"
#include "sim/server.h"
#include "util/xalloc.h"

#define KERR_FETCH_SESSION_ID_NOT_FOUND 70

struct fetch_part {
	int32_t partition;
	int64_t offset;
	int32_t max_bytes;
};

struct fetch_topic {
	char *name;
	struct fetch_part *parts;
	int32_t nparts;
};

/* A parsed Fetch; kept while the answer is held back. */
struct sim_fetch_wait {
	struct sim_fetch_wait *next, *prev;
	struct sim_server *srv;
	struct sim_resp *resp;
	uint64_t timer;
	int16_t version;
	int32_t node_id;
	int32_t min_bytes, max_bytes;
	struct fetch_topic *topics;
	int32_t ntopics;
};

static void fetch_free(struct sim_fetch_wait *f)
{
	for (int32_t t = 0; t < f->ntopics; t++) {
		free(f->topics[t].name);
		free(f->topics[t].parts);
	}
	free(f->topics);
	free(f);
}

static void fetch_unlink(struct sim_fetch_wait *f)
{
	if (f->prev)
		f->prev->next = f->next;
	else
		f->srv->fetch_waits = f->next;
	if (f->next)
		f->next->prev = f->prev;
	f->next = f->prev = NULL;
}

/* Encodes the answer as of now; returns the record bytes it carries, *any_error when a partition failed. */
static size_t fetch_encode(struct sim_state *st, const struct sim_fetch_wait *f, struct wire_buf *out, bool *any_error)
{
	int16_t v = f->version;
	size_t total = 0;
	struct rec_buf recs = { 0 };

	*any_error = false;
	wire_put_i32(out, 0); /* throttle_time_ms */
	if (v >= 7) {
		wire_put_i16(out, KERR_NONE);
		wire_put_i32(out, 0); /* session_id: no session */
	}
	wire_put_array(out, f->ntopics, false);
	for (int32_t t = 0; t < f->ntopics; t++) {
		const struct fetch_topic *ft = &f->topics[t];
		wire_put_str(out, ft->name, false);
		wire_put_array(out, ft->nparts, false);
		for (int32_t i = 0; i < ft->nparts; i++) {
			const struct fetch_part *fp = &ft->parts[i];
			struct sim_partition *p = sim_partition_find(st, ft->name, strlen(ft->name), fp->partition);
			int16_t err = KERR_NONE;
			recs.len = 0;
			if (!p)
				err = KERR_UNKNOWN_TOPIC_OR_PARTITION;
			else if (p->leader != f->node_id)
				err = KERR_NOT_LEADER_OR_FOLLOWER;
			else if (fp->offset < p->log_start || fp->offset > p->log_end)
				err = KERR_OFFSET_OUT_OF_RANGE;
			else if (f->max_bytes <= 0 || total < (size_t)f->max_bytes) {
				int32_t limit = fp->max_bytes;
				if (f->max_bytes > 0 && (size_t)f->max_bytes - total < (size_t)limit)
					limit = (int32_t)((size_t)f->max_bytes - total);
				/* KIP-74: only the first partition with records may go over its limit */
				total += sim_store_read(p, fp->offset, limit, total == 0, &recs);
			}
			if (err)
				*any_error = true;
			wire_put_i32(out, fp->partition);
			wire_put_i16(out, err);
			wire_put_i64(out, p ? p->log_end : -1); /* high watermark */
			wire_put_i64(out, p ? p->log_end : -1); /* last stable offset */
			if (v >= 5)
				wire_put_i64(out, p ? p->log_start : -1);
			wire_put_array(out, 0, false); /* aborted transactions */
			if (v >= 11)
				wire_put_i32(out, -1); /* preferred read replica */
			wire_put_bytes(out, recs.data, (int32_t)recs.len, false);
		}
	}
	rec_buf_free(&recs);
	return total;
}

static void fetch_answer(struct sim_fetch_wait *f)
{
	struct wire_buf body;
	bool any_error;
	wire_buf_init(&body);
	fetch_encode(f->srv->st, f, &body, &any_error);
	sim_resp_complete(f->srv, f->resp, &body);
	wire_buf_free(&body);
}

static void fetch_expired(struct sim_server *srv, void *arg)
{
	(void)srv;
	struct sim_fetch_wait *f = arg;
	f->timer = 0;
	fetch_unlink(f);
	fetch_answer(f);
	fetch_free(f);
}

static void fetch_cancel(void *arg, struct sim_resp *resp)
{
	(void)resp;
	struct sim_fetch_wait *f = arg;
	if (f->timer)
		sim_timer_cancel(f->srv, f->timer);
	fetch_unlink(f);
	fetch_free(f);
}

void sim_fetch_wake(struct sim_server *srv)
{
	struct wire_buf body;
	wire_buf_init(&body);
	for (struct sim_fetch_wait *f = srv->fetch_waits, *next; f; f = next) {
		next = f->next;
		bool any_error;
		wire_buf_reset(&body);
		if (fetch_encode(srv->st, f, &body, &any_error) < (size_t)f->min_bytes && !any_error)
			continue;
		if (f->timer)
			sim_timer_cancel(srv, f->timer);
		fetch_unlink(f);
		sim_resp_complete(srv, f->resp, &body);
		fetch_free(f);
	}
	wire_buf_free(&body);
}

int sim_api_fetch(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out)
{
	int16_t v = req->api_version;
	bool flex = req->flex; /* never: served up to v11 */
	struct sim_fetch_wait *f = xcalloc(1, sizeof *f);
	int32_t session_id = 0;

	f->srv = req->srv;
	f->version = v;
	f->node_id = req->node_id;
	(void)wire_i32(rd); /* replica_id */
	int32_t max_wait = wire_i32(rd);
	f->min_bytes = wire_i32(rd);
	f->max_bytes = v >= 3 ? wire_i32(rd) : INT32_MAX;
	if (v >= 4)
		(void)wire_i8(rd); /* isolation_level: no transactions, both levels read the same */
	if (v >= 7) {
		session_id = wire_i32(rd);
		(void)wire_i32(rd); /* session_epoch: -1 or 0 both mean "full fetch"; we never create one */
	}
	f->ntopics = wire_array(rd, flex, 2 + 4);
	if (f->ntopics < 0)
		f->ntopics = 0;
	f->topics = xcalloc(f->ntopics ? (size_t)f->ntopics : 1, sizeof *f->topics);
	for (int32_t t = 0; t < f->ntopics && !rd->err; t++) {
		struct fetch_topic *ft = &f->topics[t];
		struct wire_str name = wire_str(rd, flex);
		ft->name = name.len >= 0 ? wire_str_dup(name) : xstrdup("");
		int32_t n = wire_array(rd, flex, v >= 9 ? 28 : v >= 5 ? 24 : 16);
		ft->nparts = n < 0 ? 0 : n;
		ft->parts = xcalloc(ft->nparts ? (size_t)ft->nparts : 1, sizeof *ft->parts);
		for (int32_t i = 0; i < ft->nparts && !rd->err; i++) {
			ft->parts[i].partition = wire_i32(rd);
			if (v >= 9)
				(void)wire_i32(rd); /* current_leader_epoch */
			ft->parts[i].offset = wire_i64(rd);
			if (v >= 5)
				(void)wire_i64(rd); /* log_start_offset (followers only) */
			ft->parts[i].max_bytes = wire_i32(rd);
		}
	}
	if (v >= 7) {
		int32_t nforgotten = wire_array(rd, flex, 2 + 4);
		for (int32_t t = 0; t < nforgotten && !rd->err; t++) {
			(void)wire_str(rd, flex);
			int32_t n = wire_array(rd, flex, 4);
			for (int32_t i = 0; i < n && !rd->err; i++)
				(void)wire_i32(rd);
		}
	}
	if (v >= 11)
		(void)wire_str(rd, flex); /* rack_id */
	if (rd->err) {
		fetch_free(f);
		return SIM_API_MALFORMED;
	}
	if (session_id != 0) {
		/* we never hand out a session, so nobody can name one */
		wire_put_i32(out, 0);
		wire_put_i16(out, KERR_FETCH_SESSION_ID_NOT_FOUND);
		wire_put_i32(out, 0);
		wire_put_array(out, 0, false);
		fetch_free(f);
		return SIM_API_OK;
	}
	bool any_error;
	size_t got = fetch_encode(req->st, f, out, &any_error);
	if (got >= (size_t)(f->min_bytes > 0 ? f->min_bytes : 0) || any_error || max_wait <= 0 || f->ntopics == 0) {
		fetch_free(f);
		return SIM_API_OK;
	}
	/* nothing yet: hold the answer (later answers on this connection queue behind it, as in Kafka) */
	wire_buf_reset(out);
	f->resp = sim_req_defer(req, fetch_cancel, f);
	f->timer = sim_timer_add(req->srv, req->mono_ms + max_wait, fetch_expired, f);
	f->next = req->srv->fetch_waits;
	if (f->next)
		f->next->prev = f;
	req->srv->fetch_waits = f;
	return SIM_API_DEFERRED;
}
