/* delete_exec.c — guarded deletes of groups and of committed offsets (see delete_exec.h). */
#include "kafka/delete_exec.h"

#include <librdkafka/rdkafka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kafka/explain.h"
#include "kafka/reset_int.h"
#include "kafka/reset_store.h"
#include "reset/csv.h"
#include "util/errbuf.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

const char *delete_kerr_text(int kerr)
{
	return rd_kafka_err2str((rd_kafka_resp_err_t)kerr);
}

const char *delete_kerr_name(int kerr)
{
	return rd_kafka_err2name((rd_kafka_resp_err_t)kerr);
}

static void result_init(lt_delete_result *res)
{
	memset(res, 0, sizeof *res);
}

static void set_message(lt_delete_result *res, lt_delete_status st, char *msg)
{
	res->status = st;
	free(res->message);
	res->message = msg;
}

void delete_result_set_failed(lt_delete_result *res, char *message)
{
	res->group_kerr = -1;
	set_message(res, LT_DEL_FAILED, message);
}

void delete_result_free(lt_delete_result *res)
{
	for (size_t i = 0; i < res->n_parts; i++)
		free(res->parts[i].topic);
	free(res->parts);
	free(res->message);
	free(res->backup_path);
	free(res->audit_error);
	memset(res, 0, sizeof *res);
}

static char *audit_line(lt_reset_conn *c, const char *group, const char *target, lt_delete_result *res,
			const char *word)
{
	char counts[96];
	snprintf(counts, sizeof counts, "partitions=%zu", res->n_parts ? res->n_parts : res->n_backed_up);
	bool success = strcmp(word, "executed") == 0 || strcmp(word, "applied") == 0 || strcmp(word, "intent") == 0;
	return reset_audit_line(c, group, counts, target, word, res->backup_path, success ? NULL : res->message);
}

/* The result line (a result other than a success carries the message as its reason). */
static void audit(lt_reset_conn *c, const char *group, const char *target, lt_delete_result *res, const char *word)
{
	char *e = audit_line(c, group, target, res, word);
	if (e) {
		free(res->audit_error);
		res->audit_error = e;
	}
}

/* The intent line, before the delete: -1 (res failed, nothing may be deleted) when it cannot be written. */
static int audit_intent(lt_reset_conn *c, const char *group, const char *target, lt_delete_result *res)
{
	char *e = audit_line(c, group, target, res, "intent");
	if (!e)
		return 0;
	delete_result_set_failed(res, xasprintf("the audit log could not be written, nothing was deleted: %s", e));
	res->audit_error = e;
	return -1;
}

/* The group's lock for one delete (reset_lock_for): 0, or -1 with res refused (another lagtop holds it) or
 * failed, and the refusal audited. */
static int lock_group(lt_reset_conn *c, const char *group, const char *target, bool *taken, lt_delete_result *res)
{
	char err[1024];
	int rc = reset_lock_for(c, group, taken, err, sizeof err);
	if (rc == 0)
		return 0;
	if (rc > 0) {
		res->group_kerr = -1;
		set_message(res, LT_DEL_REFUSED, xstrdup(err));
		audit(c, group, target, res, "refused");
	} else {
		delete_result_set_failed(
			res, xasprintf("the group's lock could not be taken, nothing was deleted: %s", err));
		audit(c, group, target, res, "failed");
	}
	return -1;
}

static void committed_into_input_cb(void *arg, const char *topic, int32_t partition, int64_t offset)
{
	reset_committed_into_input(arg, topic, partition, offset);
}

static void input_clear(void *arg)
{
	lt_reset_input *in = arg;
	for (size_t i = 0; i < in->n_parts; i++)
		in->parts[i].committed = LT_OFFSET_NONE;
}

/* A delete that got no answer (no_answer says why): its outcome is read back from the committed offsets of
 * the partitions it was to delete (parts of res with partition >= 0; each one's kerr set: 0 deleted, else
 * still there). Returns the audit word; status DELETED, FAILED (nothing or part deleted) or UNKNOWN. */
static const char *settle_delete(lt_reset_conn *c, const char *group, lt_delete_result *res, const char *no_answer,
				 const char *what)
{
	char err[1024];
	lt_reset_input now;
	reset_input_init(&now);
	rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new((int)res->n_parts + 1);
	for (size_t i = 0; i < res->n_parts; i++)
		if (res->parts[i].partition >= 0) {
			rd_kafka_topic_partition_list_add(l, res->parts[i].topic, res->parts[i].partition);
			reset_input_part(&now, res->parts[i].topic, res->parts[i].partition);
		}
	int rb = l->cnt ? reset_read_committed_retry(c, group, l, committed_into_input_cb, &now, input_clear, err,
						     sizeof err)
			: 0;
	rd_kafka_topic_partition_list_destroy(l);
	size_t n_asked = 0, n_gone = 0;
	for (size_t i = 0; i < res->n_parts; i++) {
		lt_delete_part *p = &res->parts[i];
		if (p->partition < 0)
			continue;
		const lt_reset_part *q = reset_input_find(&now, p->topic, p->partition);
		bool gone = rb == 0 && (!q || q->committed < 0);
		n_asked++;
		n_gone += gone;
		p->kerr = gone ? 0 : RD_KAFKA_RESP_ERR__TIMED_OUT;
	}
	reset_input_free(&now);
	res->group_kerr = -1; /* no broker answer behind the result */
	if (rb == 0 && n_asked == 0) {
		/* a group without commits: its state says whether it is gone */
		reset_input_init(&now);
		reset_exec_read_state(c, group, &now);
		if (now.state_error) {
			snprintf(err, sizeof err, "%s", now.state_error);
			rb = -1;
		} else {
			n_asked = now.state != LT_GROUP_DEAD; /* still there: counted as one not deleted */
		}
		reset_input_free(&now);
	}
	if (rb) {
		set_message(res, LT_DEL_UNKNOWN,
			    xasprintf("outcome unknown: %s, and the committed offsets could not be read back either "
				      "(%s). Whether %s is unknown: read them (lagtop --once) before anything else.",
				      no_answer, err, what));
		return "unknown";
	}
	lt_settled v = reset_settle(n_asked, n_gone, n_asked - n_gone, 0);
	if (v == LT_SETTLED_APPLIED) {
		res->group_kerr = 0;
		set_message(res, LT_DEL_DELETED,
			    xasprintf("outcome unknown: %s; settled by reading the offsets back: none is left, the "
				      "delete was applied",
				      no_answer));
	} else if (v == LT_SETTLED_NOT_APPLIED) {
		set_message(res, LT_DEL_FAILED,
			    xasprintf("outcome unknown: %s; settled by reading the offsets back: all are still "
				      "committed, the delete was not applied",
				      no_answer));
	} else {
		set_message(res, LT_DEL_FAILED,
			    xasprintf("outcome unknown: %s; settled by reading the offsets back: %zu of %zu are gone, "
				      "the delete was partly applied",
				      no_answer, n_gone, n_asked));
	}
	return reset_settled_word(v);
}

/* The guard's state read was denied for want of an ACL: that is the answer, not "the group is not empty".
 * Returns the Kafka error to report (0 when the read failed for another reason or did not fail). */
static int denied_kerr(const lt_reset_input *in, char *why, size_t len)
{
	if (!in->state_error || !explain_authorization("DescribeGroups", in->state_error, why, len))
		return 0;
	return strstr(in->state_error, "Topic authorization failed") ? LT_KERR_TOPIC_AUTHORIZATION_FAILED
								     : LT_KERR_GROUP_AUTHORIZATION_FAILED;
}

/* The guard, read now (step 1). 0: proceed; -1: refused (or failed: not authorized to read the state),
 * res filled. */
static int guard(lt_reset_conn *c, lt_guard_action act, const char *group, lt_delete_result *res)
{
	char msg[8192], why[200];
	lt_reset_input in;
	reset_input_init(&in);
	reset_exec_read_state(c, group, &in);
	lt_guard g = reset_guard_for(act, group, &in, msg, sizeof msg);
	int denied = g == LT_GUARD_PROCEED ? 0 : denied_kerr(&in, why, sizeof why);
	reset_input_free(&in);
	if (g == LT_GUARD_PROCEED)
		return 0;
	if (denied) {
		res->group_kerr = denied;
		set_message(res, LT_DEL_FAILED,
			    xasprintf("group '%s': %s: its state is read before a delete, so nothing was deleted",
				      group, why));
		return -1;
	}
	res->group_kerr = LT_KERR_NON_EMPTY_GROUP; /* what the broker answers an active group */
	set_message(res, LT_DEL_REFUSED, xstrdup(msg));
	return -1;
}

static const char *guard_word(const lt_delete_result *res)
{
	return res->status == LT_DEL_FAILED ? "failed" : "refused";
}

static lt_delete_part *add_part(lt_delete_result *res, const char *topic, int32_t partition, int kerr)
{
	for (size_t i = 0; i < res->n_parts; i++)
		if (res->parts[i].partition == partition && strcmp(res->parts[i].topic, topic) == 0)
			return &res->parts[i];
	res->parts = xrealloc(res->parts, (res->n_parts + 1) * sizeof *res->parts);
	lt_delete_part *p = &res->parts[res->n_parts++];
	*p = (lt_delete_part){
		.topic = xstrdup(topic), .partition = partition, .committed = LT_OFFSET_NONE, .kerr = kerr
	};
	return p;
}

/* kafka-consumer-groups sorts its result table by the text topic + partition ("t10" before "t2"). */
static int part_cmp(const void *a, const void *b)
{
	const lt_delete_part *x = a, *y = b;
	char *kx = xasprintf("%s%d", x->topic, x->partition), *ky = xasprintf("%s%d", y->topic, y->partition);
	int r = strcmp(kx, ky);
	free(kx);
	free(ky);
	return r;
}

/* The committed offsets read into res: per asked partition (delete-offsets), or as the parts themselves
 * (a whole group: every committed partition, which the dashboard shows). */
static void take_committed(lt_delete_result *res, const lt_reset_input *cur)
{
	if (res->n_parts == 0) {
		for (size_t i = 0; i < cur->n_parts; i++)
			add_part(res, cur->parts[i].topic, cur->parts[i].partition, 0);
		if (res->n_parts > 1)
			qsort(res->parts, res->n_parts, sizeof *res->parts, part_cmp);
	}
	for (size_t i = 0; i < res->n_parts; i++) {
		const lt_reset_part *p = reset_input_find(cur, res->parts[i].topic, res->parts[i].partition);
		if (p)
			res->parts[i].committed = p->committed;
	}
	res->n_backed_up = cur->n_parts;
}

/* Step 2: reads the committed offsets (of parts, or all when NULL) and writes them as a backup. 0 (also when
 * there is nothing to back up), or -1 with res failed: nothing may be deleted. */
static int backup(lt_reset_conn *c, const char *group, const rd_kafka_topic_partition_list_t *parts,
		  lt_delete_result *res)
{
	char err[1024], path[4096];
	lt_reset_input cur;
	reset_input_init(&cur);
	int rc = reset_backup_committed(c, group, parts, &cur, "deleted", path, sizeof path, err, sizeof err);
	if (rc != -1) /* read: what was there, written to the backup or not */
		take_committed(res, &cur);
	if (rc)
		delete_result_set_failed(res, xstrdup(err));
	else if (path[0])
		res->backup_path = xstrdup(path);
	reset_input_free(&cur);
	return rc ? -1 : 0;
}

static bool is_refusal(int kerr)
{
	return kerr == LT_KERR_NON_EMPTY_GROUP || kerr == LT_KERR_GROUP_SUBSCRIBED_TO_TOPIC;
}

static lt_delete_status group_locked(lt_reset_conn *c, const char *group, bool dry_run, lt_delete_result *res);

lt_delete_status delete_exec_group(lt_reset_conn *c, const char *group, bool dry_run, lt_delete_result *res)
{
	result_init(res);
	bool taken = false;
	if (!dry_run && lock_group(c, group, "delete-group", &taken, res))
		return res->status;
	group_locked(c, group, dry_run, res);
	reset_lock_release(c, taken);
	return res->status;
}

/* delete_exec_group with the group's lock held (a dry run takes none). */
static lt_delete_status group_locked(lt_reset_conn *c, const char *group, bool dry_run, lt_delete_result *res)
{
	const char *target = "delete-group";
	if (guard(c, LT_GUARD_FOR_DELETE, group, res)) {
		if (!dry_run)
			audit(c, group, target, res, guard_word(res));
		return res->status;
	}
	if (dry_run) {
		/* what would be backed up, without writing it */
		char err[1024];
		lt_reset_input cur;
		reset_input_init(&cur);
		if (reset_read_committed(c, group, NULL, reset_committed_into_input, &cur, err, sizeof err) == 0) {
			take_committed(res, &cur);
			set_message(res, LT_DEL_PREVIEW, NULL);
		} else {
			delete_result_set_failed(res, xasprintf("reading the committed offsets: %s", err));
		}
		reset_input_free(&cur);
		return res->status;
	}
	if (backup(c, group, NULL, res)) {
		audit(c, group, target, res, "failed");
		return res->status;
	}
	if (audit_intent(c, group, target, res))
		return res->status;

	char err[1024];
	rd_kafka_DeleteGroup_t *dg = rd_kafka_DeleteGroup_new(group);
	rd_kafka_AdminOptions_t *o = reset_admin_options(c, RD_KAFKA_ADMIN_OP_DELETEGROUPS);
	rd_kafka_queue_t *q = rd_kafka_queue_new(c->rk);
	rd_kafka_DeleteGroups(c->rk, &dg, 1, o, q);
	rd_kafka_AdminOptions_destroy(o);
	rd_kafka_DeleteGroup_destroy(dg);
	rd_kafka_event_t *ev =
		reset_wait_result(c, q, RD_KAFKA_EVENT_DELETEGROUPS_RESULT, "deleting the group", err, sizeof err);
	rd_kafka_queue_destroy(q);
	const char *word = "executed";
	if (!ev) {
		/* the group's committed offsets (res->parts) tell whether it went: DeleteGroups takes them all */
		word = settle_delete(c, group, res, err, "the group was deleted");
	} else {
		size_t n = 0;
		const rd_kafka_group_result_t **gr =
			rd_kafka_DeleteGroups_result_groups(rd_kafka_event_DeleteGroups_result(ev), &n);
		const rd_kafka_error_t *e = n == 1 ? rd_kafka_group_result_error(gr[0]) : NULL;
		if (n != 1) {
			delete_result_set_failed(res, xstrdup("deleting the group: no result for the group"));
			word = "failed";
		} else if (e) {
			res->group_kerr = (int)rd_kafka_error_code(e);
			bool refused = is_refusal(res->group_kerr);
			set_message(
				res, refused ? LT_DEL_REFUSED : LT_DEL_FAILED,
				refused ? xasprintf(
						  "The broker refused to delete group '%s': a member joined after the "
						  "guard read its state (%s). Nothing was deleted.",
						  group, rd_kafka_error_string(e))
					: xasprintf("deleting group '%s': %s", group, rd_kafka_error_string(e)));
			word = refused ? "refused-by-broker" : "failed";
		} else {
			set_message(res, LT_DEL_DELETED, NULL);
		}
		rd_kafka_event_destroy(ev);
	}
	audit(c, group, target, res, word);
	return res->status;
}

/* ---- delete-offsets ---- */

/* The partitions asked: explicit ones as given, a bare topic's from the metadata (-1 when it has none). */
static int resolve_partitions(lt_reset_conn *c, const lt_reset_request *rq, lt_delete_result *res, char *err,
			      size_t errlen)
{
	bool need_md = false;
	for (size_t i = 0; i < rq->n_scopes; i++)
		need_md |= rq->scopes[i].n_parts == 0;
	const struct rd_kafka_metadata *md = NULL;
	if (need_md) {
		rd_kafka_resp_err_t e = rd_kafka_metadata(c->rk, 1, NULL, &md, c->timeout_ms);
		if (e)
			return err_set(err, errlen, "reading topic metadata: %s", rd_kafka_err2str(e));
	}
	for (size_t i = 0; i < rq->n_scopes; i++) {
		const lt_reset_scope *s = &rq->scopes[i];
		for (size_t k = 0; k < s->n_parts; k++)
			add_part(res, s->topic, s->parts[k], 0);
		if (s->n_parts)
			continue;
		const struct rd_kafka_metadata_topic *t = NULL;
		for (int k = 0; md && k < md->topic_cnt; k++)
			if (strcmp(md->topics[k].topic, s->topic) == 0)
				t = &md->topics[k];
		if (!t || t->err || t->partition_cnt == 0) {
			add_part(res, s->topic, -1, t && t->err ? (int)t->err : LT_KERR_UNKNOWN_TOPIC_OR_PARTITION);
			continue;
		}
		for (int k = 0; k < t->partition_cnt; k++)
			add_part(res, s->topic, t->partitions[k].id, 0);
	}
	if (md)
		rd_kafka_metadata_destroy(md);
	if (res->n_parts > 1)
		qsort(res->parts, res->n_parts, sizeof *res->parts, part_cmp);
	return 0;
}

static rd_kafka_topic_partition_list_t *asked_list(const lt_delete_result *res)
{
	rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new((int)res->n_parts + 1);
	for (size_t i = 0; i < res->n_parts; i++)
		if (res->parts[i].partition >= 0)
			rd_kafka_topic_partition_list_add(l, res->parts[i].topic, res->parts[i].partition);
	return l;
}

static char *target_text(const lt_reset_request *rq)
{
	lt_strbuf b = { 0 };
	sb_printf(&b, "delete-offsets");
	for (size_t i = 0; i < rq->n_scopes; i++) {
		sb_printf(&b, " %s", rq->scopes[i].topic);
		for (size_t k = 0; k < rq->scopes[i].n_parts; k++)
			sb_printf(&b, "%c%d", k ? ',' : ':', rq->scopes[i].parts[k]);
	}
	return sb_take(&b);
}

/* The answer's errors are in res (group_kerr, parts[].kerr): its status, message and audit word. */
static const char *take_outcome(const char *group, lt_delete_result *res, const char *group_text)
{
	/* a group-level error fails every partition (the admin client's futures do the same) */
	for (size_t i = 0; i < res->n_parts; i++)
		if (res->parts[i].partition >= 0 && res->group_kerr)
			res->parts[i].kerr = res->group_kerr;
	size_t n_bad = 0, n_refused = 0;
	for (size_t i = 0; i < res->n_parts; i++) {
		n_bad += res->parts[i].kerr != 0;
		n_refused += is_refusal(res->parts[i].kerr);
	}
	if (is_refusal(res->group_kerr) || (n_refused && n_refused == n_bad && n_bad == res->n_parts)) {
		set_message(
			res, LT_DEL_REFUSED,
			xasprintf("The broker refused to delete the offsets of group '%s' (%s). Nothing was deleted.",
				  group,
				  group_text ? group_text : delete_kerr_text(LT_KERR_GROUP_SUBSCRIBED_TO_TOPIC)));
		return "refused-by-broker";
	}
	if (res->group_kerr) {
		set_message(res, LT_DEL_FAILED,
			    xasprintf("deleting the offsets of group '%s': %s", group,
				      group_text ? group_text : delete_kerr_text(res->group_kerr)));
		return "failed";
	}
	if (n_bad) {
		set_message(res, LT_DEL_FAILED,
			    xasprintf("%zu of %zu partitions were not deleted (see the table)", n_bad, res->n_parts));
		return n_bad < res->n_parts ? "partial" : "failed";
	}
	set_message(res, LT_DEL_DELETED, NULL);
	return "executed";
}

/* Sends OffsetDelete for the asked partitions and takes the answer into res. Returns the audit word. */
static const char *send_offset_delete(lt_reset_conn *c, const char *group, lt_delete_result *res)
{
	char err[1024];
	rd_kafka_topic_partition_list_t *l = asked_list(res);
	if (l->cnt == 0) { /* only topics that could not be described: nothing to send */
		rd_kafka_topic_partition_list_destroy(l);
		set_message(res, LT_DEL_FAILED, xstrdup("no partition to delete: the topics could not be described"));
		return "failed";
	}
	rd_kafka_resp_err_t ev_err = RD_KAFKA_RESP_ERR_NO_ERROR;
	rd_kafka_event_t *ev = reset_offset_delete(c, group, l, "deleting committed offsets", &ev_err, err, sizeof err);
	rd_kafka_topic_partition_list_destroy(l);
	if (ev && ev_err > 0) {
		/* librdkafka 2.0.2 makes OffsetDelete's group-level error (GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP)
		 * the event's error: Kafka's code, nothing deleted */
		rd_kafka_event_destroy(ev);
		res->group_kerr = (int)ev_err;
		return take_outcome(group, res, rd_kafka_err2str(ev_err));
	}
	if (!ev || ev_err) {
		if (ev)
			rd_kafka_event_destroy(ev);
		return settle_delete(c, group, res, err, "the offsets were deleted");
	}
	size_t n = 0;
	const rd_kafka_group_result_t **gr = rd_kafka_DeleteConsumerGroupOffsets_result_groups(
		rd_kafka_event_DeleteConsumerGroupOffsets_result(ev), &n);
	const char *word;
	if (n != 1) {
		delete_result_set_failed(res, xstrdup("deleting committed offsets: no result for the group"));
		word = "failed";
	} else {
		const rd_kafka_error_t *e = rd_kafka_group_result_error(gr[0]);
		const rd_kafka_topic_partition_list_t *pl = rd_kafka_group_result_partitions(gr[0]);
		res->group_kerr = e ? (int)rd_kafka_error_code(e) : 0;
		for (int i = 0; pl && i < pl->cnt; i++)
			if (pl->elems[i].err)
				add_part(res, pl->elems[i].topic, pl->elems[i].partition, 0)->kerr =
					(int)pl->elems[i].err;
		word = take_outcome(group, res, e ? rd_kafka_error_string(e) : NULL);
	}
	rd_kafka_event_destroy(ev);
	return word;
}

static lt_delete_status offsets_locked(lt_reset_conn *c, const lt_reset_request *rq, bool dry_run,
				       lt_delete_result *res, char *target);

lt_delete_status delete_exec_offsets(lt_reset_conn *c, const lt_reset_request *rq, bool dry_run, lt_delete_result *res)
{
	result_init(res);
	char *target = target_text(rq);
	bool taken = false;
	if (dry_run || lock_group(c, rq->group, target, &taken, res) == 0)
		offsets_locked(c, rq, dry_run, res, target);
	reset_lock_release(c, taken);
	free(target);
	return res->status;
}

/* delete_exec_offsets with the group's lock held (a dry run takes none). */
static lt_delete_status offsets_locked(lt_reset_conn *c, const lt_reset_request *rq, bool dry_run,
				       lt_delete_result *res, char *target)
{
	char err[1024];
	if (resolve_partitions(c, rq, res, err, sizeof err)) {
		delete_result_set_failed(res, xstrdup(err));
		if (!dry_run)
			audit(c, rq->group, target, res, "failed");
		return res->status;
	}
	if (guard(c, LT_GUARD_FOR_DELETE_OFFSETS, rq->group, res)) {
		for (size_t i = 0; i < res->n_parts; i++)
			if (res->parts[i].partition >= 0)
				res->parts[i].kerr = res->group_kerr;
		if (!dry_run)
			audit(c, rq->group, target, res, guard_word(res));
		return res->status;
	}
	rd_kafka_topic_partition_list_t *l = asked_list(res);
	int brc = 0;
	if (dry_run) {
		lt_reset_input cur;
		reset_input_init(&cur);
		brc = l->cnt ? reset_read_committed(c, rq->group, l, reset_committed_into_input, &cur, err, sizeof err)
			     : 0;
		if (brc == 0)
			take_committed(res, &cur);
		reset_input_free(&cur);
		if (brc) {
			delete_result_set_failed(res, xasprintf("reading the committed offsets: %s", err));
		} else {
			set_message(res, LT_DEL_PREVIEW, NULL);
		}
	} else if (l->cnt) {
		brc = backup(c, rq->group, l, res);
	}
	rd_kafka_topic_partition_list_destroy(l);
	if (dry_run || brc) {
		if (brc && !dry_run)
			audit(c, rq->group, target, res, "failed");
		return res->status;
	}
	if (audit_intent(c, rq->group, target, res))
		return res->status;
	const char *word = send_offset_delete(c, rq->group, res);
	audit(c, rq->group, target, res, word);
	return res->status;
}
