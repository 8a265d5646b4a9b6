/* reset_exec.c — the guarded reset executor (see reset_exec.h). */
#include "config.h" /* _GNU_SOURCE: memmem */

#include "kafka/reset_exec.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <librdkafka/rdkafka.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kafka/client.h"
#include "kafka/reset_int.h"
#include "kafka/reset_store.h"
#include "model/group_view.h"
#include "reset/csv.h"
#include "util/errbuf.h"
#include "util/sanitize.h"
#include "util/strbuf.h"
#include "util/timeparse.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

int64_t reset_now_ms(void)
{
	return now_wall_ms();
}

lt_reset_conn *reset_conn_new(const struct lt_connection *conn, int timeout_ms, char *err, size_t errlen)
{
	lt_client *cl = client_new(conn, err, errlen);
	if (!cl)
		return NULL;
	lt_reset_conn *c = xcalloc(1, sizeof *c);
	c->cl = cl;
	c->rk = client_rk(cl);
	c->timeout_ms = timeout_ms > 0 ? timeout_ms : 10000;
	c->cluster = xstrdup(connection_name(conn));
	c->lock_fd = -1;
	return c;
}

int reset_conn_lock(lt_reset_conn *c, const char *group, char *err, size_t errlen)
{
	if (c->lock_fd >= 0 && strcmp(c->lock_group, group) == 0)
		return 0;
	reset_conn_unlock(c);
	int fd = -1;
	int rc = reset_lock_group(c->cluster, group, &fd, err, errlen);
	if (rc)
		return rc;
	c->lock_fd = fd;
	c->lock_group = xstrdup(group);
	return 0;
}

void reset_conn_unlock(lt_reset_conn *c)
{
	reset_unlock_group(c->lock_fd);
	c->lock_fd = -1;
	free(c->lock_group);
	c->lock_group = NULL;
}

int reset_lock_for(lt_reset_conn *c, const char *group, bool *taken, char *err, size_t errlen)
{
	*taken = false;
	if (c->lock_fd >= 0 && strcmp(c->lock_group, group) == 0)
		return 0;
	int rc = reset_conn_lock(c, group, err, errlen);
	*taken = rc == 0;
	return rc;
}

void reset_lock_release(lt_reset_conn *c, bool taken)
{
	if (taken)
		reset_conn_unlock(c);
}

void reset_conn_free(lt_reset_conn *c)
{
	if (!c)
		return;
	reset_conn_unlock(c);
	client_free(c->cl);
	free(c->cluster);
	free(c);
}

/* Every admin call the executor makes goes through FindCoordinator. In librdkafka 2.0.2 such a request
 * that times out while its coordinator lookup is pending aborts the process when the coordinator comes
 * back (librdkafka issue 4605; see COLD_TIMEOUT_MS in refresh_send.c). So the request itself is given an hour,
 * and the executor stops waiting at its own deadline instead. Each call has its own result queue, so a
 * late answer can never be taken for the answer of a later call (a stale "Empty" must not pass the guard). */
#define COLD_TIMEOUT_MS (3600 * 1000)

rd_kafka_AdminOptions_t *reset_admin_options(lt_reset_conn *c, rd_kafka_admin_op_t op)
{
	char errstr[256];
	rd_kafka_AdminOptions_t *o = rd_kafka_AdminOptions_new(c->rk, op);
	rd_kafka_AdminOptions_set_request_timeout(o, COLD_TIMEOUT_MS, errstr, sizeof errstr);
	return o;
}

/* Waits for the admin result of `type` on q, at most the connection's timeout. NULL with err on timeout
 * or a request-level error. */
rd_kafka_event_t *reset_wait_result(lt_reset_conn *c, rd_kafka_queue_t *q, rd_kafka_event_type_t type, const char *what,
				    char *err, size_t errlen)
{
	return reset_wait_result_err(c, q, type, what, NULL, err, errlen);
}

rd_kafka_event_t *reset_wait_result_err(lt_reset_conn *c, rd_kafka_queue_t *q, rd_kafka_event_type_t type,
					const char *what, rd_kafka_resp_err_t *event_err, char *err, size_t errlen)
{
	/* the monotonic clock: a wall-clock step must not cut a wait short (or stretch it) */
	int64_t deadline = now_mono_ms() + c->timeout_ms;
	for (;;) {
		int64_t left = deadline - now_mono_ms();
		if (left <= 0) {
			err_set(err, errlen, "%s: no answer within %d ms", what, c->timeout_ms);
			return NULL;
		}
		rd_kafka_event_t *ev = rd_kafka_queue_poll(q, (int)left);
		if (!ev)
			continue;
		if (rd_kafka_event_type(ev) != type) {
			rd_kafka_event_destroy(ev);
			continue;
		}
		if (rd_kafka_event_error(ev)) {
			err_set(err, errlen, "%s: %s", what, rd_kafka_event_error_string(ev));
			if (event_err) {
				*event_err = rd_kafka_event_error(ev);
				return ev;
			}
			rd_kafka_event_destroy(ev);
			return NULL;
		}
		return ev;
	}
}

static lt_group_state map_state(rd_kafka_consumer_group_state_t s)
{
	switch (s) {
	case RD_KAFKA_CONSUMER_GROUP_STATE_PREPARING_REBALANCE: return LT_GROUP_PREPARING_REBALANCE;
	case RD_KAFKA_CONSUMER_GROUP_STATE_COMPLETING_REBALANCE: return LT_GROUP_COMPLETING_REBALANCE;
	case RD_KAFKA_CONSUMER_GROUP_STATE_STABLE: return LT_GROUP_STABLE;
	case RD_KAFKA_CONSUMER_GROUP_STATE_DEAD: return LT_GROUP_DEAD;
	case RD_KAFKA_CONSUMER_GROUP_STATE_EMPTY: return LT_GROUP_EMPTY;
	case RD_KAFKA_CONSUMER_GROUP_STATE_UNKNOWN:
	default: return LT_GROUP_UNKNOWN;
	}
}

/* What ListGroups says of `group` (one ListGroups per broker). Asked only when the describe answers Dead
 * with nothing (group_describe_ambiguous), so a classic group costs no extra request. librdkafka sends
 * it to every broker it knows and answers when all have answered or timed out: with a broker down that
 * is the request timeout, kept below the wait so the partial answer still arrives. A group missing from
 * a partial answer is LT_LISTING_UNKNOWN (its coordinator may be the broker that did not answer). */
static lt_group_listing read_listing(lt_reset_conn *c, const char *group, char *why, size_t whylen)
{
	lt_group_listing l = { .kind = LT_LISTING_UNKNOWN };
	char errstr[256];
	rd_kafka_AdminOptions_t *o = rd_kafka_AdminOptions_new(c->rk, RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPS);
	int req_ms = c->timeout_ms * 3 / 4 > 500 ? c->timeout_ms * 3 / 4 : 500;
	rd_kafka_AdminOptions_set_request_timeout(o, req_ms, errstr, sizeof errstr);
	rd_kafka_queue_t *q = rd_kafka_queue_new(c->rk);
	rd_kafka_ListConsumerGroups(c->rk, o, q);
	rd_kafka_AdminOptions_destroy(o);
	rd_kafka_event_t *ev =
		reset_wait_result(c, q, RD_KAFKA_EVENT_LISTCONSUMERGROUPS_RESULT, "ListGroups", why, whylen);
	rd_kafka_queue_destroy(q);
	if (!ev)
		return l;
	const rd_kafka_ListConsumerGroups_result_t *res = rd_kafka_event_ListConsumerGroups_result(ev);
	size_t n_valid = 0, n_err = 0;
	const rd_kafka_ConsumerGroupListing_t **valid = rd_kafka_ListConsumerGroups_result_valid(res, &n_valid);
	const rd_kafka_error_t **errs = rd_kafka_ListConsumerGroups_result_errors(res, &n_err);
	for (size_t i = 0; i < n_valid && l.kind != LT_LISTING_LISTED; i++) {
		const char *name = rd_kafka_ConsumerGroupListing_group_id(valid[i]);
		if (name && strcmp(name, group) == 0)
			l = (lt_group_listing){ .kind = LT_LISTING_LISTED,
						.state = map_state(rd_kafka_ConsumerGroupListing_state(valid[i])),
						.type = client_listing_type(valid[i]) };
	}
	if (l.kind != LT_LISTING_LISTED) {
		if (n_err == 0)
			l.kind = LT_LISTING_ABSENT;
		else
			err_set(why, whylen, "ListGroups: %zu broker%s did not answer (%s)", n_err,
				n_err == 1 ? "" : "s", rd_kafka_error_string(errs[0]));
	}
	rd_kafka_event_destroy(ev);
	return l;
}

/* The group's state, type and members: DescribeGroups, and ListGroups when the describe answers Dead with
 * nothing, combined by the collector's rule (group_view_combine): on Kafka 4.x that Dead is also what a
 * live consumer-protocol (KIP-848) group looks like through the classic API librdkafka 2.0.2 speaks. */
void reset_exec_read_state(lt_reset_conn *c, const char *group, lt_reset_input *in)
{
	char err[512];
	const char *groups[1] = { group };
	rd_kafka_AdminOptions_t *o = reset_admin_options(c, RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS);
	rd_kafka_queue_t *q = rd_kafka_queue_new(c->rk);
	rd_kafka_DescribeConsumerGroups(c->rk, groups, 1, o, q);
	rd_kafka_AdminOptions_destroy(o);
	rd_kafka_event_t *ev = reset_wait_result(c, q, RD_KAFKA_EVENT_DESCRIBECONSUMERGROUPS_RESULT,
						 "describing the group", err, sizeof err);
	rd_kafka_queue_destroy(q);
	if (!ev) {
		reset_input_set_error(in, err);
		return;
	}
	size_t n = 0;
	const rd_kafka_ConsumerGroupDescription_t **d =
		rd_kafka_DescribeConsumerGroups_result_groups(rd_kafka_event_DescribeConsumerGroups_result(ev), &n);
	if (n != 1) {
		reset_input_set_error(in, "the broker described no group");
	} else {
		const rd_kafka_error_t *e = rd_kafka_ConsumerGroupDescription_error(d[0]);
		bool not_found = e && rd_kafka_error_code(e) == RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND;
		if (e && !not_found) {
			char why[400];
			snprintf(err, sizeof err, "describing the group: %s", client_error_text(e, why, sizeof why));
			reset_input_set_error(in, err);
		} else {
			/* GROUP_ID_NOT_FOUND is DescribeGroups v6+'s answer for a consumer-protocol group too */
			lt_group_described desc = { .state = LT_GROUP_DEAD, .protocol_type_empty = true };
			if (!not_found)
				desc = (lt_group_described){
					.state = map_state(rd_kafka_ConsumerGroupDescription_state(d[0])),
					.n_members = rd_kafka_ConsumerGroupDescription_member_count(d[0]),
					.protocol_type_empty =
						rd_kafka_ConsumerGroupDescription_is_simple_consumer_group(d[0]) != 0,
					.type = client_description_type(d[0]),
				};
			lt_group_listing listing = { .kind = LT_LISTING_UNKNOWN };
			char why[512] = "";
			if (group_describe_ambiguous(&desc))
				listing = read_listing(c, group, why, sizeof why);
			lt_group_view v = group_view_combine(&listing, &desc, NULL);
			in->state = v.state;
			in->type = v.type;
			in->members_unreadable = v.members_unreadable;
			in->group_exists = !(not_found && v.state == LT_GROUP_DEAD);
			if (v.state == LT_GROUP_UNKNOWN && listing.kind == LT_LISTING_UNKNOWN) {
				snprintf(err, sizeof err,
					 "it describes as Dead, as a consumer-protocol group does, and "
					 "ListGroups could not confirm it: %s",
					 why[0] ? why : "no answer");
				reset_input_set_error(in, err);
			} else if (v.state == LT_GROUP_UNKNOWN && v.type == LT_GTYPE_CONSUMER) {
				reset_input_set_error(
					in, "a consumer-protocol group in a state this librdkafka cannot name, "
					    "such as Assigning or Reconciling");
			} else if (v.state == LT_GROUP_UNKNOWN && !v.members_unreadable) {
				reset_input_set_error(in, "the broker reported the state as Unknown");
			}
			for (size_t i = 0; !not_found && i < desc.n_members; i++) {
				const rd_kafka_MemberDescription_t *m =
					rd_kafka_ConsumerGroupDescription_member(d[0], i);
				reset_input_member(in, rd_kafka_MemberDescription_consumer_id(m),
						   rd_kafka_MemberDescription_client_id(m),
						   rd_kafka_MemberDescription_host(m));
			}
		}
	}
	rd_kafka_event_destroy(ev);
}

/* The group's committed offsets (every partition when parts is NULL). Calls cb for each committed one. */
int reset_read_committed(lt_reset_conn *c, const char *group, const rd_kafka_topic_partition_list_t *parts,
			 void (*cb)(void *, const char *, int32_t, int64_t), void *arg, char *err, size_t errlen)
{
	rd_kafka_ListConsumerGroupOffsets_t *req = rd_kafka_ListConsumerGroupOffsets_new(group, parts);
	rd_kafka_AdminOptions_t *o = reset_admin_options(c, RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS);
	rd_kafka_queue_t *q = rd_kafka_queue_new(c->rk);
	rd_kafka_ListConsumerGroupOffsets(c->rk, &req, 1, o, q);
	rd_kafka_AdminOptions_destroy(o);
	rd_kafka_ListConsumerGroupOffsets_destroy(req);
	rd_kafka_event_t *ev = reset_wait_result(c, q, RD_KAFKA_EVENT_LISTCONSUMERGROUPOFFSETS_RESULT,
						 "reading committed offsets", err, errlen);
	rd_kafka_queue_destroy(q);
	if (!ev)
		return -1;
	size_t n = 0;
	const rd_kafka_group_result_t **g =
		rd_kafka_ListConsumerGroupOffsets_result_groups(rd_kafka_event_ListConsumerGroupOffsets_result(ev), &n);
	int rc = 0;
	if (n != 1) {
		rc = err_set(err, errlen, "reading committed offsets: no result for the group");
	} else if (rd_kafka_group_result_error(g[0])) {
		rc = err_set(err, errlen, "reading committed offsets: %s",
			     rd_kafka_error_string(rd_kafka_group_result_error(g[0])));
	} else {
		const rd_kafka_topic_partition_list_t *l = rd_kafka_group_result_partitions(g[0]);
		for (int i = 0; l && i < l->cnt; i++) {
			const rd_kafka_topic_partition_t *p = &l->elems[i];
			if (p->err) {
				rc = err_set(err, errlen, "reading the committed offset of %s-%d: %s", p->topic,
					     p->partition, rd_kafka_err2str(p->err));
				break;
			}
			if (p->offset >= 0)
				cb(arg, p->topic, p->partition, p->offset);
		}
	}
	rd_kafka_event_destroy(ev);
	return rc;
}

/* A read whose answer does not come is tried this many times in all (each bounded by the connection's
 * timeout), a short pause between: a broker that stalled through a commit's wait often answers soon after. */
#define READBACK_ATTEMPTS 3
#define READBACK_PAUSE_MS 300

int reset_read_committed_retry(lt_reset_conn *c, const char *group, const rd_kafka_topic_partition_list_t *parts,
			       void (*cb)(void *, const char *, int32_t, int64_t), void *arg, void (*reset_cb)(void *),
			       char *err, size_t errlen)
{
	int rc = -1;
	for (int i = 0; i < READBACK_ATTEMPTS && rc != 0; i++) {
		if (i) {
			struct timespec ts = { 0, READBACK_PAUSE_MS * 1000L * 1000L };
			nanosleep(&ts, NULL);
			if (reset_cb)
				reset_cb(arg); /* a failed attempt may have delivered some partitions */
		}
		rc = reset_read_committed(c, group, parts, cb, arg, err, errlen);
	}
	return rc;
}

void reset_committed_into_input(void *arg, const char *topic, int32_t partition, int64_t offset)
{
	reset_input_part(arg, topic, partition)->committed = offset;
}

int reset_backup_committed(lt_reset_conn *c, const char *group, const rd_kafka_topic_partition_list_t *parts,
			   lt_reset_input *cur, const char *verb, char *path, size_t pathlen, char *err, size_t errlen)
{
	char why[1024];
	path[0] = '\0';
	if (reset_read_committed(c, group, parts, reset_committed_into_input, cur, why, sizeof why))
		return err_set(err, errlen, "cannot back up the committed offsets, nothing was %s: %s", verb, why);
	if (cur->n_parts == 0)
		return 0;
	char *csv = reset_csv_backup(cur);
	int rc = reset_backup_write(group, reset_now_ms(), csv, path, pathlen, why, sizeof why);
	free(csv);
	if (rc) {
		path[0] = '\0';
		err_set(err, errlen, "the backup could not be written, nothing was %s: %s", verb, why);
		return -2;
	}
	/* What --undo will read is the file on disk: read it back through the same parser before anything is
	 * changed, and drop a backup that would not restore these offsets (--undo must never find it). */
	char *text = reset_file_read(path, (size_t)64 << 20, why, sizeof why);
	if (!text || reset_csv_backup_check(text, cur, why, sizeof why)) {
		free(text);
		err_set(err, errlen, "the backup %s is not valid, nothing was %s: %s", path, verb, why);
		(void)unlink(path);
		path[0] = '\0';
		return -2;
	}
	free(text);
	return 0;
}

rd_kafka_event_t *reset_offset_delete(lt_reset_conn *c, const char *group, const rd_kafka_topic_partition_list_t *parts,
				      const char *what, rd_kafka_resp_err_t *event_err, char *err, size_t errlen)
{
	rd_kafka_DeleteConsumerGroupOffsets_t *req = rd_kafka_DeleteConsumerGroupOffsets_new(group, parts);
	rd_kafka_AdminOptions_t *o = reset_admin_options(c, RD_KAFKA_ADMIN_OP_DELETECONSUMERGROUPOFFSETS);
	rd_kafka_queue_t *q = rd_kafka_queue_new(c->rk);
	rd_kafka_DeleteConsumerGroupOffsets(c->rk, &req, 1, o, q);
	rd_kafka_AdminOptions_destroy(o);
	rd_kafka_DeleteConsumerGroupOffsets_destroy(req);
	*event_err = RD_KAFKA_RESP_ERR_NO_ERROR;
	rd_kafka_event_t *ev = reset_wait_result_err(c, q, RD_KAFKA_EVENT_DELETECONSUMERGROUPOFFSETS_RESULT, what,
						     event_err, err, errlen);
	rd_kafka_queue_destroy(q);
	return ev;
}

/* Metadata of every topic (one request); marks the wanted topics and their partitions in `in`. */
static int read_metadata(lt_reset_conn *c, char **topics, size_t n_topics, lt_reset_input *in, char *err, size_t errlen)
{
	const struct rd_kafka_metadata *md = NULL;
	rd_kafka_resp_err_t e = rd_kafka_metadata(c->rk, 1, NULL, &md, c->timeout_ms);
	if (e)
		return err_set(err, errlen, "reading topic metadata: %s", rd_kafka_err2str(e));
	for (size_t i = 0; i < n_topics; i++) {
		const struct rd_kafka_metadata_topic *t = NULL;
		for (int k = 0; k < md->topic_cnt; k++)
			if (strcmp(md->topics[k].topic, topics[i]) == 0)
				t = &md->topics[k];
		bool exists = t && t->err != RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART && t->partition_cnt > 0;
		reset_input_topic(in, topics[i], exists);
		for (int k = 0; exists && k < t->partition_cnt; k++) {
			lt_reset_part *p = reset_input_part(in, topics[i], t->partitions[k].id);
			p->exists = true;
			p->has_leader = t->partitions[k].leader >= 0 &&
					t->partitions[k].err != RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE;
		}
	}
	rd_kafka_metadata_destroy(md);
	return 0;
}

enum lookup { LOOKUP_START, LOOKUP_END, LOOKUP_TIME };

/* One ListOffsets round (per leader, by librdkafka) for every partition in the request's scope that has a
 * leader. offsets_for_times fails as a whole if one leader fails: then the reset is not planned at all. */
static int read_log_offsets(lt_reset_conn *c, const lt_reset_request *rq, lt_reset_input *in, enum lookup what,
			    int64_t ts, char *err, size_t errlen)
{
	rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(16);
	for (size_t i = 0; i < in->n_parts; i++) {
		lt_reset_part *p = &in->parts[i];
		if (reset_request_wants(rq, p) && p->exists && p->has_leader)
			rd_kafka_topic_partition_list_add(l, p->topic, p->partition)->offset =
				what == LOOKUP_START ? RD_KAFKA_OFFSET_BEGINNING
				: what == LOOKUP_END ? RD_KAFKA_OFFSET_END
						     : ts;
	}
	int rc = 0;
	if (l->cnt == 0)
		goto out;
	rd_kafka_resp_err_t e = rd_kafka_offsets_for_times(c->rk, l, c->timeout_ms);
	if (e) {
		rc = err_set(err, errlen, "reading log offsets: %s", rd_kafka_err2str(e));
		goto out;
	}
	for (int i = 0; i < l->cnt; i++) {
		const rd_kafka_topic_partition_t *tp = &l->elems[i];
		lt_reset_part *p = reset_input_part(in, tp->topic, tp->partition);
		if (what == LOOKUP_TIME) {
			/* -1: no message at or after the time; an error leaves it unknown (the planner refuses) */
			p->ts_offset = tp->err ? LT_RESET_TS_UNKNOWN : tp->offset < 0 ? LT_OFFSET_NONE : tp->offset;
			continue;
		}
		if (tp->err || tp->offset < 0) {
			rc = err_set(err, errlen, "reading the %s offset of %s-%d: %s",
				     what == LOOKUP_START ? "log start" : "log end", tp->topic, tp->partition,
				     tp->err ? rd_kafka_err2str(tp->err) : "no offset returned");
			goto out;
		}
		if (what == LOOKUP_START)
			p->log_start = tp->offset;
		else
			p->log_end = tp->offset;
	}
out:
	rd_kafka_topic_partition_list_destroy(l);
	return rc;
}

int reset_exec_gather(lt_reset_conn *c, const lt_reset_request *rq, lt_reset_input *in, char *err, size_t errlen)
{
	reset_exec_read_state(c, rq->group, in);
	if (reset_read_committed(c, rq->group, NULL, reset_committed_into_input, in, err, errlen))
		return -1;
	size_t n_topics = 0;
	char **topics = reset_request_topics(rq, in, &n_topics);
	int rc = 0;
	if (n_topics && (read_metadata(c, topics, n_topics, in, err, errlen) ||
			 read_log_offsets(c, rq, in, LOOKUP_START, 0, err, errlen) ||
			 read_log_offsets(c, rq, in, LOOKUP_END, 0, err, errlen) ||
			 ((rq->target == LT_RESET_DATETIME || rq->target == LT_RESET_DURATION) &&
			  read_log_offsets(c, rq, in, LOOKUP_TIME, rq->timestamp_ms, err, errlen))))
		rc = -1;
	reset_strv_free(topics, n_topics);
	return rc;
}

/* ---- commit ---- */

static bool is_membership_error(rd_kafka_resp_err_t e)
{
	/* Kafka rejects an admin commit (generation -1, no member id) to a group with members this way, and an
	 * OffsetDelete with NON_EMPTY_GROUP, or GROUP_SUBSCRIBED_TO_TOPIC for a topic its members consume. */
	return e == RD_KAFKA_RESP_ERR_UNKNOWN_MEMBER_ID || e == RD_KAFKA_RESP_ERR_ILLEGAL_GENERATION ||
	       e == RD_KAFKA_RESP_ERR_REBALANCE_IN_PROGRESS || e == RD_KAFKA_RESP_ERR_FENCED_INSTANCE_ID ||
	       e == RD_KAFKA_RESP_ERR_NON_EMPTY_GROUP || e == RD_KAFKA_RESP_ERR_GROUP_SUBSCRIBED_TO_TOPIC;
}

/* The broker refused for want of an ACL (Read on the group or its topics): nothing was applied. */
static bool is_authz_error(rd_kafka_resp_err_t e)
{
	return e == RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED || e == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED;
}

/* What the commit and the delete requests answered, summed up. */
struct outcome {
	size_t n_refused, n_failed;
	size_t n_authz;    /* partitions refused for authorization (among n_failed) */
	char *group_error; /* the first group-level error, NULL if none */
	bool no_answer;    /* a request got no answer (or none that says what the broker did): outcome unknown */
	bool group_refused;
	bool group_authz; /* the group-level error is an authorization failure */
};

static void outcome_group_error(struct outcome *o, char *msg, bool refused)
{
	if (!o->group_error)
		o->group_error = msg;
	else
		free(msg);
	o->group_refused |= refused;
}

/* One group result (AlterConsumerGroupOffsets or DeleteConsumerGroupOffsets): its error, and the errors of
 * its partitions into res. For a delete, GROUP_ID_NOT_FOUND means the group has no commits: nothing to
 * delete, which is what was asked. */
static void take_group_result(const rd_kafka_group_result_t **gr, size_t n, const char *what, bool deleting,
			      lt_reset_result *res, struct outcome *o)
{
	if (n != 1) {
		outcome_group_error(o, xasprintf("%s: no result for the group", what), false);
		return;
	}
	const rd_kafka_error_t *e = rd_kafka_group_result_error(gr[0]);
	if (e && !(deleting && rd_kafka_error_code(e) == RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND)) {
		outcome_group_error(o, xasprintf("%s: %s", what, rd_kafka_error_string(e)),
				    is_membership_error(rd_kafka_error_code(e)));
		o->group_authz |= is_authz_error(rd_kafka_error_code(e));
	}
	const rd_kafka_topic_partition_list_t *pl = rd_kafka_group_result_partitions(gr[0]);
	for (int i = 0; pl && i < pl->cnt; i++) {
		const rd_kafka_topic_partition_t *tp = &pl->elems[i];
		if (!tp->err)
			continue;
		for (size_t k = 0; k < res->n_parts; k++) {
			lt_reset_part_result *pr = &res->parts[k];
			if (pr->partition != tp->partition || strcmp(pr->topic, tp->topic) != 0)
				continue;
			pr->error = xstrdup(rd_kafka_err2str(tp->err));
			pr->refused = is_membership_error(tp->err);
			o->n_authz += is_authz_error(tp->err);
			if (pr->refused)
				o->n_refused++;
			else
				o->n_failed++;
		}
	}
}

/* AlterConsumerGroupOffsets for the plan's rows with an offset: an admin commit (no member id, generation
 * -1), which Kafka refuses for a group that has members. */
static void commit_offsets(lt_reset_conn *c, const lt_reset_plan *plan, lt_reset_result *res, struct outcome *o)
{
	rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new((int)plan->n_rows + 1);
	for (size_t i = 0; i < plan->n_rows; i++)
		if (plan->rows[i].new_offset >= 0)
			rd_kafka_topic_partition_list_add(l, plan->rows[i].topic, plan->rows[i].partition)->offset =
				plan->rows[i].new_offset;
	if (l->cnt == 0) {
		rd_kafka_topic_partition_list_destroy(l);
		return;
	}
	char err[1024];
	rd_kafka_AlterConsumerGroupOffsets_t *req = rd_kafka_AlterConsumerGroupOffsets_new(plan->group, l);
	rd_kafka_topic_partition_list_destroy(l);
	rd_kafka_AdminOptions_t *opt = reset_admin_options(c, RD_KAFKA_ADMIN_OP_ALTERCONSUMERGROUPOFFSETS);
	rd_kafka_queue_t *q = rd_kafka_queue_new(c->rk);
	rd_kafka_AlterConsumerGroupOffsets(c->rk, &req, 1, opt, q);
	rd_kafka_AdminOptions_destroy(opt);
	rd_kafka_AlterConsumerGroupOffsets_destroy(req);
	rd_kafka_event_t *ev = reset_wait_result(c, q, RD_KAFKA_EVENT_ALTERCONSUMERGROUPOFFSETS_RESULT,
						 "committing offsets", err, sizeof err);
	rd_kafka_queue_destroy(q);
	if (!ev) {
		outcome_group_error(o, xstrdup(err), false);
		o->no_answer = true;
		return;
	}
	size_t n = 0;
	const rd_kafka_group_result_t **gr = rd_kafka_AlterConsumerGroupOffsets_result_groups(
		rd_kafka_event_AlterConsumerGroupOffsets_result(ev), &n);
	take_group_result(gr, n, "committing offsets", false, res, o);
	rd_kafka_event_destroy(ev);
}

/* OffsetDelete (DeleteConsumerGroupOffsets) for the plan's delete rows: --undo of partitions that had no
 * commit before the reset. Kafka refuses it for a group with members (NON_EMPTY_GROUP), like a commit. */
static void delete_offsets(lt_reset_conn *c, const lt_reset_plan *plan, lt_reset_result *res, struct outcome *o)
{
	if (plan->n_deletes == 0)
		return;
	rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new((int)plan->n_deletes);
	for (size_t i = 0; i < plan->n_rows; i++)
		if (plan->rows[i].new_offset < 0)
			rd_kafka_topic_partition_list_add(l, plan->rows[i].topic, plan->rows[i].partition);
	char err[1024];
	rd_kafka_resp_err_t ev_err = RD_KAFKA_RESP_ERR_NO_ERROR;
	rd_kafka_event_t *ev =
		reset_offset_delete(c, plan->group, l, "deleting committed offsets", &ev_err, err, sizeof err);
	rd_kafka_topic_partition_list_destroy(l);
	if (!ev) {
		outcome_group_error(o, xstrdup(err), false);
		o->no_answer = true;
		return;
	}
	if (ev_err) {
		/* the group-level error as the event's (librdkafka 2.0.2): read as take_group_result reads it */
		if (ev_err != RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND) {
			outcome_group_error(o, xstrdup(err), is_membership_error(ev_err));
			o->group_authz |= is_authz_error(ev_err);
		}
		rd_kafka_event_destroy(ev);
		return;
	}
	size_t n = 0;
	const rd_kafka_group_result_t **gr = rd_kafka_DeleteConsumerGroupOffsets_result_groups(
		rd_kafka_event_DeleteConsumerGroupOffsets_result(ev), &n);
	take_group_result(gr, n, "deleting committed offsets", true, res, o);
	rd_kafka_event_destroy(ev);
}

static void result_set(lt_reset_result *res, lt_exec_status st, char *msg)
{
	res->status = st;
	free(res->message);
	res->message = msg;
}

/* Audit values are one token each: whitespace, quotes, backslash and % are escaped as %XX so a line stays a
 * line and decodes back, and so is every byte of a character no output carries raw (sanitize_next: controls,
 * C1, bidi and line separators, bytes that are not UTF-8). */
static void audit_value(lt_strbuf *b, const char *key, const char *v)
{
	sb_printf(b, " %s=", key);
	if (!v || !*v) {
		sb_printf(b, "-");
		return;
	}
	size_t n = strlen(v);
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		bool unsafe;
		size_t k = sanitize_next(v + i, n - i, &cp, &unsafe);
		for (size_t j = i; j < i + k; j++) {
			unsigned char c = (unsigned char)v[j];
			if (unsafe || c == ' ' || c == '"' || c == '\\' || c == '%')
				sb_printf(b, "%%%02X", c);
			else
				sb_printf(b, "%c", c);
		}
		i += k;
	}
}

/* The result line of a commit; a result other than a success carries its message as the reason. */
static void audit(lt_reset_conn *c, const lt_reset_plan *plan, const char *target_desc, lt_reset_result *res,
		  const char *result_word)
{
	bool success = strcmp(result_word, "executed") == 0 || strcmp(result_word, "applied") == 0;
	char *e = reset_exec_audit(c, plan->group, plan, target_desc, result_word, res->backup_path,
				   success ? NULL : res->message);
	if (e) {
		free(res->audit_error);
		res->audit_error = e;
	}
}

char *reset_exec_audit(lt_reset_conn *c, const char *group, const lt_reset_plan *plan, const char *target_desc,
		       const char *result_word, const char *backup_path, const char *reason)
{
	char counts[192] = "partitions=-", resolved[64] = "";
	if (plan && plan->timestamp_ms >= 0) { /* beside the target as typed ("-10m"): the time it meant */
		char when[40];
		reset_format_time(plan->timestamp_ms, when, sizeof when);
		snprintf(resolved, sizeof resolved, "resolved=%s ", when);
	}
	if (plan)
		snprintf(counts, sizeof counts, "%spartitions=%zu replayed=%" PRId64 " skipped=%" PRId64, resolved,
			 plan->n_rows, plan->replayed, plan->skipped);
	return reset_audit_line(c, group, counts, target_desc, result_word, backup_path, reason);
}

char *reset_audit_line(lt_reset_conn *c, const char *group, const char *counts, const char *target_desc,
		       const char *result_word, const char *backup_path, const char *reason)
{
	char host[256] = "-", when[40], user[256] = "-";
	gethostname(host, sizeof host - 1);
	host[sizeof host - 1] = '\0';
	struct passwd pw, *pwp = NULL;
	char pwbuf[1024];
	if (getpwuid_r(getuid(), &pw, pwbuf, sizeof pwbuf, &pwp) == 0 && pwp)
		snprintf(user, sizeof user, "%s", pw.pw_name);
	else if (getenv("USER"))
		snprintf(user, sizeof user, "%s", getenv("USER"));
	reset_format_time(reset_now_ms(), when, sizeof when);
	lt_strbuf b = { 0 };
	sb_printf(&b, "%s", when);
	audit_value(&b, "user", user);
	audit_value(&b, "host", host);
	audit_value(&b, "cluster", c->cluster);
	audit_value(&b, "group", group);
	audit_value(&b, "target", target_desc);
	sb_printf(&b, " %s", counts);
	audit_value(&b, "result", result_word);
	audit_value(&b, "backup", backup_path);
	if (reason)
		audit_value(&b, "reason", reason);
	char *line = sb_take(&b);
	char err[512];
	char *ret = reset_audit_append(line, err, sizeof err) ? xstrdup(err) : NULL;
	free(line);
	return ret;
}

static void readback_into(void *arg, const char *topic, int32_t partition, int64_t offset)
{
	lt_reset_result *res = arg;
	for (size_t i = 0; i < res->n_parts; i++)
		if (res->parts[i].partition == partition && strcmp(res->parts[i].topic, topic) == 0)
			res->parts[i].after = offset;
}

static void readback_reset(void *arg)
{
	lt_reset_result *res = arg;
	for (size_t i = 0; i < res->n_parts; i++)
		res->parts[i].after = LT_OFFSET_NONE;
}

/* A commit (or an undo's delete) that got no answer: what the offsets read back say it did. Returns the audit
 * word. "Moved" partitions are those the plan changes; one the plan leaves where it was tells nothing. */
static const char *settle_unanswered(lt_reset_result *res, int rb, const char *rberr, const char *no_answer)
{
	res->answer_missing = true;
	if (rb) {
		res->committed = false;
		result_set(res, LT_EXEC_UNKNOWN,
			   xasprintf("outcome unknown: %s, and the offsets could not be read back either (%s). "
				     "Whether the reset was applied is unknown: read the offsets (lagtop --once) "
				     "before anything else; the backup holds those before the reset.",
				     no_answer, rberr));
		return "unknown";
	}
	size_t n_moved = 0, n_applied = 0, n_unchanged = 0, n_other = 0;
	for (size_t i = 0; i < res->n_parts; i++) {
		const lt_reset_part_result *p = &res->parts[i];
		if (p->planned == p->before) {
			n_other += !p->matches; /* moved by someone else: neither planned nor as before */
			continue;
		}
		n_moved++;
		n_applied += p->matches;
		n_unchanged += p->after == p->before;
		n_other += !p->matches && p->after != p->before;
	}
	lt_settled v = reset_settle(n_moved, n_applied, n_unchanged, n_other);
	res->committed = v == LT_SETTLED_APPLIED || (v == LT_SETTLED_PARTLY && n_applied > 0);
	if (v == LT_SETTLED_APPLIED)
		result_set(res, LT_EXEC_EXECUTED,
			   xasprintf("outcome unknown: %s; settled by reading the offsets back: every partition reads "
				     "as planned, the reset was applied",
				     no_answer));
	else if (v == LT_SETTLED_NOT_APPLIED)
		result_set(res, LT_EXEC_FAILED,
			   xasprintf("outcome unknown: %s; settled by reading the offsets back: every partition still "
				     "has its previous offset, the reset was not applied",
				     no_answer));
	else
		result_set(res, LT_EXEC_MISMATCH,
			   xasprintf("outcome unknown: %s; settled by reading the offsets back: the reset was partly "
				     "applied (%zu of %zu partitions read as planned, %zu still have their previous "
				     "offset, %zu neither)",
				     no_answer, n_applied, n_moved, n_unchanged, n_other));
	return reset_settled_word(v);
}

/* What the broker answered (commit_offsets, delete_offsets) and the read-back say: status, message, audit
 * word. */
static const char *judge_answered(const lt_reset_plan *plan, lt_reset_result *res, const struct outcome *oc, int rb,
				  const char *rberr)
{
	size_t n_refused = oc->n_refused, n_failed = oc->n_failed, n_mismatch = 0;
	for (size_t i = 0; i < res->n_parts; i++)
		n_mismatch += !res->parts[i].matches;
	const char *group_error = oc->group_error;
	if (oc->group_refused || (n_refused && n_refused + n_failed == res->n_parts && !group_error)) {
		result_set(
			res, LT_EXEC_REFUSED,
			xasprintf("The broker refused the commit: a member joined group '%s' between the preview and "
				  "the commit (%s). Nothing was changed by this commit.",
				  plan->group, group_error ? group_error : "UNKNOWN_MEMBER_ID"));
		return "refused-by-broker";
	}
	if (oc->group_authz || (oc->n_authz && oc->n_authz == res->n_parts)) {
		/* e.g. a principal with Describe but not Read on the group: the broker commits nothing. */
		result_set(
			res, LT_EXEC_FAILED,
			xasprintf("The broker refused the commit: not authorized (%s; committing needs Read on group "
				  "'%s' and Read on its topics). Nothing was applied: the offsets are unchanged.",
				  group_error ? group_error : res->parts[0].error, plan->group));
		return "not-authorized";
	}
	if (group_error) {
		result_set(res, LT_EXEC_FAILED, xasprintf("%s", group_error));
		return "failed";
	}
	if (n_refused + n_failed == res->n_parts) {
		result_set(res, LT_EXEC_FAILED,
			   xasprintf("none of the %zu partitions was committed (see the per-partition errors): nothing "
				     "was applied",
				     res->n_parts));
		return "failed";
	}
	if (n_refused || n_failed) {
		result_set(res, LT_EXEC_FAILED,
			   xasprintf("%zu of %zu partitions were not committed (see the per-partition errors)",
				     n_refused + n_failed, res->n_parts));
		return "partial";
	}
	if (rb) {
		result_set(res, LT_EXEC_MISMATCH,
			   xasprintf("committed, but the offsets could not be read back: %s", rberr));
		return "unverified";
	}
	if (n_mismatch) {
		result_set(res, LT_EXEC_MISMATCH,
			   xasprintf("committed, but %zu partition%s do%s not read back as planned", n_mismatch,
				     n_mismatch == 1 ? "" : "s", n_mismatch == 1 ? "es" : ""));
		return "mismatch";
	}
	if (plan->n_deletes) {
		size_t n_commits = res->n_parts - plan->n_deletes;
		result_set(res, LT_EXEC_EXECUTED,
			   xasprintf("committed %zu partition%s and deleted the commit of %zu (no commit before the "
				     "reset); every offset reads back as planned",
				     n_commits, n_commits == 1 ? "" : "s", plan->n_deletes));
		return "executed";
	}
	result_set(res, LT_EXEC_EXECUTED,
		   xasprintf("committed %zu partition%s; every offset reads back as planned", res->n_parts,
			     res->n_parts == 1 ? "" : "s"));
	return "executed";
}

static rd_kafka_topic_partition_list_t *plan_partitions(const lt_reset_plan *plan)
{
	rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new((int)plan->n_rows + 1);
	for (size_t i = 0; i < plan->n_rows; i++)
		rd_kafka_topic_partition_list_add(l, plan->rows[i].topic, plan->rows[i].partition);
	return l;
}

/* reset_exec_commit with the group's lock held. */
static lt_exec_status commit_locked(lt_reset_conn *c, const lt_reset_plan *plan, const char *target_desc,
				    lt_reset_result *res)
{
	char err[1024], msg[4096];

	/* 1. The guard, again, immediately before committing. */
	lt_reset_input now;
	reset_input_init(&now);
	reset_exec_read_state(c, plan->group, &now);
	lt_guard g = reset_guard(plan->group, &now, msg, sizeof msg);
	reset_input_free(&now);
	if (g != LT_GUARD_PROCEED) {
		result_set(res, LT_EXEC_REFUSED, xstrdup(msg));
		audit(c, plan, target_desc, res, "refused");
		return res->status;
	}

	/* 2. The backup of what is committed right now on the plan's partitions; no backup, no commit.
	 *    Only those: --undo restores a backup as a whole, and it must put back what this reset moved,
	 *    not rewind the partitions it left alone (which the consumers may have advanced since). */
	lt_reset_input cur;
	reset_input_init(&cur);
	for (size_t i = 0; i < plan->n_rows; i++) /* a partition without a commit is a backup row too */
		reset_input_part(&cur, plan->rows[i].topic, plan->rows[i].partition);
	rd_kafka_topic_partition_list_t *bl = plan_partitions(plan);
	char path[4096];
	int brc = reset_backup_committed(c, plan->group, bl, &cur, "committed", path, sizeof path, err, sizeof err);
	rd_kafka_topic_partition_list_destroy(bl);
	for (size_t i = 0; brc == 0 && i < res->n_parts; i++) {
		const lt_reset_part *p = reset_input_find(&cur, res->parts[i].topic, res->parts[i].partition);
		res->parts[i].before = p ? p->committed : LT_OFFSET_NONE;
	}
	reset_input_free(&cur);
	if (brc) {
		result_set(res, LT_EXEC_FAILED, xstrdup(err));
		audit(c, plan, target_desc, res, "failed");
		return res->status;
	}
	res->backup_path = xstrdup(path);

	/* 3. The intent, before anything changes: a commit the audit log cannot record is not made, and one
	 *    whose process dies before its result is written is still on record (and --undo finds it). */
	char *ie = reset_exec_audit(c, plan->group, plan, target_desc, "intent", res->backup_path, NULL);
	if (ie) {
		result_set(res, LT_EXEC_FAILED,
			   xasprintf("the audit log could not be written, nothing was committed: %s", ie));
		res->audit_error = ie;
		return res->status;
	}

	/* 4. The commit, and the deletes of an undo (partitions that had no commit before the reset). */
	struct outcome oc = { 0 };
	commit_offsets(c, plan, res, &oc);
	delete_offsets(c, plan, res, &oc);
	res->committed = !oc.group_error && oc.n_refused + oc.n_failed < res->n_parts;

	/* 5. Read back what is committed now, whatever happened; with retries when an answer is missing, since
	 *    then the read-back is what says what happened. */
	rd_kafka_topic_partition_list_t *rl = plan_partitions(plan);
	char rberr[512] = "";
	int rb = oc.no_answer ? reset_read_committed_retry(c, plan->group, rl, readback_into, res, readback_reset,
							   rberr, sizeof rberr)
			      : reset_read_committed(c, plan->group, rl, readback_into, res, rberr, sizeof rberr);
	rd_kafka_topic_partition_list_destroy(rl);
	res->readback_ok = rb == 0;
	for (size_t i = 0; i < res->n_parts; i++)
		res->parts[i].matches = rb == 0 && res->parts[i].after == res->parts[i].planned;

	const char *word = oc.no_answer ? settle_unanswered(res, rb, rberr, oc.group_error)
					: judge_answered(plan, res, &oc, rb, rberr);
	free(oc.group_error);
	audit(c, plan, target_desc, res, word);
	return res->status;
}

lt_exec_status reset_exec_commit(lt_reset_conn *c, const lt_reset_plan *plan, const char *target_desc,
				 lt_reset_result *res)
{
	char err[1024];
	memset(res, 0, sizeof *res);
	res->n_parts = plan->n_rows;
	res->parts = xcalloc(plan->n_rows ? plan->n_rows : 1, sizeof *res->parts);
	for (size_t i = 0; i < plan->n_rows; i++)
		res->parts[i] = (lt_reset_part_result){ .topic = xstrdup(plan->rows[i].topic),
							.partition = plan->rows[i].partition,
							.planned = plan->rows[i].new_offset,
							.before = LT_OFFSET_NONE,
							.after = LT_OFFSET_NONE };

	if (plan->n_rows == 0) {
		result_set(res, LT_EXEC_EXECUTED, xstrdup("nothing to commit: the plan holds no partition"));
		return res->status;
	}
	/* 0. One change of a group at a time from this machine: two resets interleaved would back up each
	 *    other's offsets, and an undo would put back an intermediate value. */
	bool taken = false;
	int lrc = reset_lock_for(c, plan->group, &taken, err, sizeof err);
	if (lrc) {
		result_set(res, lrc > 0 ? LT_EXEC_REFUSED : LT_EXEC_FAILED,
			   lrc > 0 ? xstrdup(err)
				   : xasprintf("the group's lock could not be taken, nothing was committed: %s", err));
		audit(c, plan, target_desc, res, lrc > 0 ? "refused" : "failed");
		return res->status;
	}
	commit_locked(c, plan, target_desc, res);
	reset_lock_release(c, taken);
	return res->status;
}

void reset_result_free(lt_reset_result *res)
{
	for (size_t i = 0; i < res->n_parts; i++) {
		free(res->parts[i].topic);
		free(res->parts[i].error);
	}
	free(res->parts);
	free(res->message);
	free(res->backup_path);
	free(res->audit_error);
	memset(res, 0, sizeof *res);
}

/* ---- which backup --undo applies ---- */

/* The audit log's newest lines are enough to find a group's newest change. */
#define AUDIT_SCAN_MAX (16u << 20)

/* " key=<value as the audit log writes it>" */
static char *audit_token(const char *key, const char *value)
{
	lt_strbuf b = { 0 };
	audit_value(&b, key, value);
	return sb_take(&b);
}

/* Whether line holds tok as a whole token (tok starts with its space; the next character ends it). */
static bool has_token(const char *line, size_t len, const char *tok)
{
	size_t tl = strlen(tok);
	for (const char *p = line; (p = memmem(p, len - (size_t)(p - line), tok, tl)) != NULL; p++) {
		const char *e = p + tl;
		if (e == line + len || *e == ' ')
			return true;
	}
	return false;
}

/* The (escaped) value of key in line, allocated; NULL if absent. */
static char *token_value(const char *line, size_t len, const char *key)
{
	char tok[32];
	snprintf(tok, sizeof tok, " %s=", key);
	size_t tl = strlen(tok);
	const char *p = memmem(line, len, tok, tl);
	if (!p)
		return NULL;
	p += tl;
	const char *e = memchr(p, ' ', len - (size_t)(p - line));
	return xstrndup(p, e ? (size_t)(e - p) : len - (size_t)(p - line));
}

/* An audit value as it was before escaping ("-" is none: ""). */
static char *unescape(const char *v)
{
	if (strcmp(v, "-") == 0)
		return xstrdup("");
	char *out = xmalloc(strlen(v) + 1), *o = out;
	for (const char *p = v; *p; p++) {
		unsigned x;
		if (*p == '%' && p[1] && p[2] && sscanf(p + 1, "%2x", &x) == 1) {
			*o++ = (char)x;
			p += 2;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return out;
}

/* The path an audit line's backup value (escaped) names: decoded, and checked by escaping it again; when
 * that does not give the value back (a way of escaping this decoder does not know), the backup directory's
 * file whose path escapes to it. "" when the value is "-"; NULL when no file has that path. */
static char *backup_of_value(const char *value)
{
	if (strcmp(value, "-") == 0)
		return xstrdup("");
	char *tok = xasprintf(" backup=%s", value), *path = unescape(value), *again = audit_token("backup", path);
	bool same = strcmp(again, tok) == 0;
	free(again);
	struct stat st;
	if (same) {
		free(tok);
		if (stat(path, &st) == 0)
			return path;
		free(path);
		return NULL;
	}
	free(path);
	path = NULL;
	char dir[4096], err[256], bdir[4200];
	DIR *d = reset_store_dir(dir, sizeof dir, 0, err, sizeof err) == 0
			 ? (snprintf(bdir, sizeof bdir, "%s/backups", dir), opendir(bdir))
			 : NULL;
	for (struct dirent *de; d && !path && (de = readdir(d));) {
		char *cand = xasprintf("%s/%s", bdir, de->d_name), *ct = audit_token("backup", cand);
		if (strcmp(ct, tok) == 0)
			path = cand;
		else
			free(cand);
		free(ct);
	}
	if (d)
		closedir(d);
	free(tok);
	return path;
}

/* Results after which nothing had changed: such a change is no change to undo. */
static bool result_changed_nothing(const char *word)
{
	static const char *const none[] = { "refused", "refused-by-broker", "not-authorized", "not-applied", "failed" };
	for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
		if (strcmp(word, none[i]) == 0)
			return true;
	return false;
}

struct change {
	char *backup, *target, *when; /* escaped, as in the log */
	bool dropped;                 /* its result says nothing changed */
};

/* The group's newest change on c's cluster in the audit log: an "intent" line whose result is not one that
 * changed nothing (an intent without a result — a process killed mid-commit — counts as a change). */
static int newest_change(lt_reset_conn *c, const char *group, struct change *out, char *err, size_t errlen)
{
	char *log = reset_audit_read(AUDIT_SCAN_MAX, err, errlen);
	if (!log)
		return -1;
	char *ctok = audit_token("cluster", c->cluster), *gtok = audit_token("group", group);
	struct change *v = NULL;
	size_t n = 0;
	for (char *line = log; *line;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char *word = has_token(line, len, ctok) && has_token(line, len, gtok) ? token_value(line, len, "result")
										      : NULL;
		char *backup = word ? token_value(line, len, "backup") : NULL;
		if (word && backup && strcmp(word, "intent") == 0) {
			v = xrealloc(v, (n + 1) * sizeof *v);
			const char *sp = memchr(line, ' ', len);
			v[n++] = (struct change){ .backup = backup,
						  .target = token_value(line, len, "target"),
						  .when = xstrndup(line, sp ? (size_t)(sp - line) : len) };
			backup = NULL;
		} else if (word && backup && strcmp(backup, "-") != 0 && result_changed_nothing(word)) {
			/* a result belongs to the newest intent with the same backup (each commit's is its own; a
			 * result without one, such as a refusal at the preview, pairs with no intent) */
			for (size_t i = n; i-- > 0;)
				if (!v[i].dropped && strcmp(v[i].backup, backup) == 0) {
					v[i].dropped = true;
					break;
				}
		}
		free(word);
		free(backup);
		line += len + (nl != NULL);
	}
	int found = 0;
	for (size_t i = n; i-- > 0;) {
		if (!found && !v[i].dropped) {
			*out = v[i];
			found = 1;
			continue;
		}
		free(v[i].backup);
		free(v[i].target);
		free(v[i].when);
	}
	free(v);
	free(ctok);
	free(gtok);
	free(log);
	return found;
}

static void choice_fill(lt_undo_choice *out, const char *path, struct change *ch)
{
	if (path != out->path)
		snprintf(out->path, sizeof out->path, "%s", path);
	if (reset_backup_taken(path, out->taken, sizeof out->taken) != 0)
		out->taken[0] = '\0';
	if (ch) {
		out->undone_target = unescape(ch->target ? ch->target : "-");
		out->undone_when = xstrdup(ch->when);
		out->undoes_undo = strncmp(out->undone_target, "undo ", 5) == 0;
	}
}

int reset_exec_undo_choose(lt_reset_conn *c, const char *group, const char *explicit_path, lt_undo_choice *out,
			   char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	struct change ch = { 0 };
	int found = newest_change(c, group, &ch, err, errlen);
	if (found < 0)
		return -1;
	int rc = 0;
	char *want = found ? backup_of_value(ch.backup) : NULL; /* NULL: missing; "": none was written */
	if (explicit_path) {
		/* applied as named; what it undoes is known only when it is the newest change's own backup */
		bool same = want && strcmp(want, explicit_path) == 0;
		choice_fill(out, explicit_path, same ? &ch : NULL);
	} else if (!found) {
		/* no change of the group on record here (an audit log from before intents, or none): the newest
		 * backup, as before */
		rc = reset_backup_newest(group, out->path, sizeof out->path, err, errlen);
		if (rc == 0)
			choice_fill(out, out->path, NULL);
	} else if (want && !want[0]) {
		char *target = unescape(ch.target ? ch.target : "-");
		err_set(err, errlen,
			"the newest change of group '%s' (%s at %s) left no backup, so --undo cannot undo it; an older "
			"backup is applied only when named with --backup FILE",
			group, target, ch.when);
		free(target);
		rc = 2;
	} else if (!want) {
		char *target = unescape(ch.target ? ch.target : "-"), *named = unescape(ch.backup);
		err_set(err, errlen,
			"the backup of the newest change of group '%s' (%s at %s) is missing: %s; an older backup is "
			"applied only when named with --backup FILE",
			group, target, ch.when, named);
		free(target);
		free(named);
		rc = 2;
	} else {
		choice_fill(out, want, &ch);
	}
	free(want);
	free(ch.backup);
	free(ch.target);
	free(ch.when);
	return rc;
}

void reset_undo_choice_free(lt_undo_choice *u)
{
	free(u->undone_target);
	free(u->undone_when);
	memset(u, 0, sizeof *u);
}
