/* plan.c — reset requests, cluster input, and the planner (kafka-consumer-groups' GroupOffsetsResetter
 * semantics; see plan.h). */
#include "reset/plan.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reset/csv.h"
#include "util/errbuf.h"
#include "util/strbuf.h"
#include "util/timeparse.h"
#include "util/xalloc.h"

/* An error in the cluster's answer rather than in the request (see reset_plan_build_ex). */
static int fail_cluster(bool *cluster_fault, char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail_cluster(bool *cluster_fault, char *err, size_t errlen, const char *fmt, ...)
{
	*cluster_fault = true;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* kafka-consumer-groups' message for an offset the cluster did not give. */
static int no_offset(bool *cluster_fault, const char *which, const lt_reset_row *row, char *err, size_t errlen)
{
	return fail_cluster(cluster_fault, err, errlen, "Error getting %s of topic partition: %s-%d", which, row->topic,
			    row->partition);
}

static const char *const target_names[] = {
	[LT_RESET_NONE] = "none",
	[LT_RESET_EARLIEST] = "to-earliest",
	[LT_RESET_LATEST] = "to-latest",
	[LT_RESET_CURRENT] = "to-current",
	[LT_RESET_OFFSET] = "to-offset",
	[LT_RESET_SHIFT] = "shift-by",
	[LT_RESET_DATETIME] = "to-datetime",
	[LT_RESET_DURATION] = "by-duration",
	[LT_RESET_FILE] = "from-file",
};

const char *reset_target_name(lt_reset_target t)
{
	return (size_t)t < sizeof target_names / sizeof target_names[0] ? target_names[t] : "?";
}

/* A whole int64, optional sign (Java's Long.parseLong accepts "+5" too). */
static bool parse_long(const char *s, int64_t *out)
{
	if (!s || !*s)
		return false;
	const char *p = s + (*s == '+' || *s == '-');
	if (*p < '0' || *p > '9')
		return false;
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

/* ---- request ---- */

int reset_request_init(lt_reset_request *rq, const char *group, lt_reset_target target, const char *arg, int64_t now_ms,
		       char *err, size_t errlen)
{
	memset(rq, 0, sizeof *rq);
	rq->group = xstrdup(group);
	rq->target = target;
	rq->target_text = xstrdup(arg);
	switch (target) {
	case LT_RESET_OFFSET:
		if (!parse_long(arg, &rq->offset))
			return err_set(err, errlen, "Cannot parse argument '%s' of option to-offset", arg ? arg : "");
		break;
	case LT_RESET_SHIFT:
		if (!parse_long(arg, &rq->offset))
			return err_set(err, errlen, "Cannot parse argument '%s' of option shift-by", arg ? arg : "");
		break;
	case LT_RESET_DATETIME: return reset_parse_datetime(arg, now_ms, &rq->timestamp_ms, err, errlen);
	case LT_RESET_DURATION: return reset_duration_before(arg, now_ms, &rq->timestamp_ms, err, errlen);
	case LT_RESET_FILE:
		if (!arg || !*arg)
			return err_set(err, errlen, "--from-file needs a file name");
		break;
	case LT_RESET_EARLIEST:
	case LT_RESET_LATEST:
	case LT_RESET_CURRENT: break;
	case LT_RESET_NONE:
	default: return err_set(err, errlen, "no reset target given");
	}
	return 0;
}

static void scope_add_part(lt_reset_scope *sc, int32_t p)
{
	for (size_t i = 0; i < sc->n_parts; i++)
		if (sc->parts[i] == p)
			return;
	sc->parts = xrealloc(sc->parts, (sc->n_parts + 1) * sizeof *sc->parts);
	sc->parts[sc->n_parts++] = p;
}

int reset_request_add_topic(lt_reset_request *rq, const char *arg, char *err, size_t errlen)
{
	const char *colon = strchr(arg, ':');
	if (!*arg || colon == arg)
		return err_set(err, errlen, "Invalid topic arg '%s', expected topic name and partitions", arg);
	lt_reset_scope sc = { .topic = colon ? xstrndup(arg, (size_t)(colon - arg)) : xstrdup(arg) };
	if (colon) {
		const char *p = colon + 1;
		if (!*p || strchr(p, ':')) {
			free(sc.topic);
			return err_set(err, errlen, "Invalid topic arg '%s', expected topic name and partitions", arg);
		}
		for (;;) {
			const char *comma = strchr(p, ',');
			size_t len = comma ? (size_t)(comma - p) : strlen(p);
			char num[24];
			int64_t v;
			snprintf(num, sizeof num, "%.*s", (int)(len < sizeof num ? len : sizeof num - 1), p);
			if (len >= sizeof num || !parse_long(num, &v) || v < INT32_MIN || v > INT32_MAX) {
				free(sc.topic);
				free(sc.parts);
				return err_set(err, errlen, "Invalid partition '%.*s' specified in topic arg '%s'",
					       (int)len, p, arg);
			}
			scope_add_part(&sc, (int32_t)v);
			if (!comma)
				break;
			p = comma + 1;
		}
	}
	/* Merge with an earlier --topic for the same topic ("t" wins over "t:0"). */
	for (size_t i = 0; i < rq->n_scopes; i++) {
		lt_reset_scope *o = &rq->scopes[i];
		if (strcmp(o->topic, sc.topic) != 0)
			continue;
		if (o->n_parts == 0 || sc.n_parts == 0) {
			free(o->parts);
			o->parts = NULL;
			o->n_parts = 0;
		} else {
			for (size_t k = 0; k < sc.n_parts; k++)
				scope_add_part(o, sc.parts[k]);
		}
		free(sc.topic);
		free(sc.parts);
		return 0;
	}
	rq->scopes = xrealloc(rq->scopes, (rq->n_scopes + 1) * sizeof *rq->scopes);
	rq->scopes[rq->n_scopes++] = sc;
	return 0;
}

int reset_request_load_csv(lt_reset_request *rq, const char *text, char *err, size_t errlen)
{
	reset_csv_rows_free(rq->rows, rq->n_rows);
	rq->rows = NULL;
	rq->n_rows = 0;
	return reset_csv_parse_ex(text, rq->group, rq->from_backup, &rq->rows, &rq->n_rows, err, errlen);
}

void reset_request_free(lt_reset_request *rq)
{
	free(rq->group);
	free(rq->target_text);
	for (size_t i = 0; i < rq->n_scopes; i++) {
		free(rq->scopes[i].topic);
		free(rq->scopes[i].parts);
	}
	free(rq->scopes);
	reset_csv_rows_free(rq->rows, rq->n_rows);
	memset(rq, 0, sizeof *rq);
}

/* ---- input ---- */

void reset_input_init(lt_reset_input *in)
{
	memset(in, 0, sizeof *in);
	in->state = LT_GROUP_UNKNOWN;
	in->group_exists = true;
}

void reset_input_free(lt_reset_input *in)
{
	free(in->state_error);
	for (size_t i = 0; i < in->n_members; i++) {
		free(in->members[i].member_id);
		free(in->members[i].client_id);
		free(in->members[i].host);
	}
	free(in->members);
	for (size_t i = 0; i < in->n_topics; i++)
		free(in->topics[i].name);
	free(in->topics);
	for (size_t i = 0; i < in->n_parts; i++)
		free(in->parts[i].topic);
	free(in->parts);
	memset(in, 0, sizeof *in);
}

const lt_reset_part *reset_input_find(const lt_reset_input *in, const char *topic, int32_t partition)
{
	for (size_t i = 0; i < in->n_parts; i++)
		if (in->parts[i].partition == partition && strcmp(in->parts[i].topic, topic) == 0)
			return &in->parts[i];
	return NULL;
}

lt_reset_part *reset_input_part(lt_reset_input *in, const char *topic, int32_t partition)
{
	lt_reset_part *p = (lt_reset_part *)reset_input_find(in, topic, partition);
	if (p)
		return p;
	in->parts = xrealloc(in->parts, (in->n_parts + 1) * sizeof *in->parts);
	p = &in->parts[in->n_parts++];
	*p = (lt_reset_part){ .topic = xstrdup(topic),
			      .partition = partition,
			      .committed = LT_OFFSET_NONE,
			      .log_start = LT_OFFSET_NONE,
			      .log_end = LT_OFFSET_NONE,
			      .ts_offset = LT_RESET_TS_UNKNOWN };
	return p;
}

static lt_reset_topic *find_topic(const lt_reset_input *in, const char *name)
{
	for (size_t i = 0; i < in->n_topics; i++)
		if (strcmp(in->topics[i].name, name) == 0)
			return &in->topics[i];
	return NULL;
}

void reset_input_topic(lt_reset_input *in, const char *name, bool exists)
{
	lt_reset_topic *t = find_topic(in, name);
	if (!t) {
		in->topics = xrealloc(in->topics, (in->n_topics + 1) * sizeof *in->topics);
		t = &in->topics[in->n_topics++];
		t->name = xstrdup(name);
	}
	t->exists = exists;
}

void reset_input_member(lt_reset_input *in, const char *member_id, const char *client_id, const char *host)
{
	in->members = xrealloc(in->members, (in->n_members + 1) * sizeof *in->members);
	in->members[in->n_members++] = (lt_reset_member){ .member_id = xstrdup(member_id ? member_id : ""),
							  .client_id = xstrdup(client_id ? client_id : ""),
							  .host = xstrdup(host ? host : "") };
}

void reset_input_set_error(lt_reset_input *in, const char *why)
{
	free(in->state_error);
	in->state_error = xstrdup(why);
	in->state = LT_GROUP_UNKNOWN;
}

void reset_input_from_group(lt_reset_input *in, const lt_group *g)
{
	in->state = g->state;
	in->type = g->type;
	in->members_unreadable = g->members_unreadable;
	in->group_exists = true;
	if (g->error)
		reset_input_set_error(in, g->error);
	for (size_t i = 0; i < g->n_members; i++)
		reset_input_member(in, g->members[i].member_id, g->members[i].client_id, g->members[i].host);
	for (size_t i = 0; i < g->n_partitions; i++) {
		const lt_partition *sp = &g->partitions[i];
		lt_reset_part *p = reset_input_part(in, sp->topic, sp->partition);
		bool leader = !(sp->flags & LT_PF_NO_LEADER);
		p->exists = true;
		p->has_leader = leader;
		/* a leader whose log offsets could not be read is not a missing leader: the planner says which */
		p->log_failed = leader && ((sp->flags & LT_PF_LOG_UNKNOWN) || sp->log_end == LT_OFFSET_NONE);
		p->committed = sp->committed;
		p->log_start = sp->log_start;
		p->log_end = sp->log_end;
		reset_input_topic(in, sp->topic, true);
	}
}

/* ---- topics to look up ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void strv_add_unique(char ***v, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*v)[i], s) == 0)
			return;
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = xstrdup(s);
}

char **reset_request_topics(const lt_reset_request *rq, const lt_reset_input *in, size_t *n)
{
	char **v = NULL;
	*n = 0;
	if (rq->target == LT_RESET_FILE) {
		for (size_t i = 0; i < rq->n_rows; i++)
			strv_add_unique(&v, n, rq->rows[i].topic);
	} else if (rq->all_topics) {
		for (size_t i = 0; in && i < in->n_parts; i++)
			if (in->parts[i].committed >= 0)
				strv_add_unique(&v, n, in->parts[i].topic);
	} else {
		for (size_t i = 0; i < rq->n_scopes; i++)
			strv_add_unique(&v, n, rq->scopes[i].topic);
	}
	if (*n)
		qsort(v, *n, sizeof *v, cmp_str);
	return v;
}

bool reset_request_wants(const lt_reset_request *rq, const lt_reset_part *p)
{
	if (rq->target == LT_RESET_FILE) {
		/* a row that deletes a commit (--undo of "no commit") needs no log offsets */
		for (size_t i = 0; i < rq->n_rows; i++)
			if (rq->rows[i].partition == p->partition && strcmp(rq->rows[i].topic, p->topic) == 0)
				return rq->rows[i].offset != LT_OFFSET_NONE;
		return false;
	}
	if (rq->all_topics)
		return p->committed >= 0;
	for (size_t i = 0; i < rq->n_scopes; i++) {
		const lt_reset_scope *sc = &rq->scopes[i];
		if (strcmp(sc->topic, p->topic) != 0)
			continue;
		if (sc->n_parts == 0)
			return true;
		for (size_t k = 0; k < sc->n_parts; k++)
			if (sc->parts[k] == p->partition)
				return true;
	}
	return false;
}

void reset_strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* ---- the planner ---- */

struct want {
	const lt_reset_part *part; /* NULL when the cluster does not know the partition */
	const char *topic;
	int32_t partition;
	int64_t file_offset; /* FILE only */
};

static int cmp_want(const void *a, const void *b)
{
	const struct want *x = a, *y = b;
	int c = strcmp(x->topic, y->topic);
	return c ? c : (x->partition > y->partition) - (x->partition < y->partition);
}

static void want_add(struct want **w, size_t *n, size_t *cap, const lt_reset_input *in, const char *topic,
		     int32_t partition, int64_t file_offset)
{
	for (size_t i = 0; i < *n; i++)
		if ((*w)[i].partition == partition && strcmp((*w)[i].topic, topic) == 0)
			return;
	*w = xgrow(*w, cap, *n + 1, sizeof **w);
	(*w)[(*n)++] = (struct want){ reset_input_find(in, topic, partition), topic, partition, file_offset };
}

/* The scope: which partitions the plan covers, in (topic, partition) order. */
static int collect_scope(const lt_reset_request *rq, const lt_reset_input *in, struct want **out, size_t *n_out,
			 char *err, size_t errlen)
{
	struct want *w = NULL;
	size_t n = 0, cap = 0;
	if (rq->target == LT_RESET_FILE) {
		if (rq->n_rows == 0)
			return err_set(err, errlen, "No reset plan for group %s found.", rq->group);
		for (size_t i = 0; i < rq->n_rows; i++)
			want_add(&w, &n, &cap, in, rq->rows[i].topic, rq->rows[i].partition, rq->rows[i].offset);
	} else if (rq->all_topics) {
		for (size_t i = 0; i < in->n_parts; i++)
			if (in->parts[i].committed >= 0)
				want_add(&w, &n, &cap, in, in->parts[i].topic, in->parts[i].partition, 0);
	} else {
		lt_strbuf missing = { 0 };
		size_t n_missing = 0;
		for (size_t i = 0; i < rq->n_scopes; i++) {
			const lt_reset_scope *sc = &rq->scopes[i];
			if (sc->n_parts) {
				for (size_t k = 0; k < sc->n_parts; k++)
					want_add(&w, &n, &cap, in, sc->topic, sc->parts[k], 0);
				continue;
			}
			const lt_reset_topic *t = find_topic(in, sc->topic);
			bool any = false;
			for (size_t k = 0; t && t->exists && k < in->n_parts; k++)
				if (in->parts[k].exists && strcmp(in->parts[k].topic, sc->topic) == 0) {
					want_add(&w, &n, &cap, in, sc->topic, in->parts[k].partition, 0);
					any = true;
				}
			if (!any) {
				sb_printf(&missing, "%s%s", n_missing++ ? "," : "", sc->topic);
			}
		}
		if (n_missing) {
			char *m = sb_take(&missing);
			err_set(err, errlen, "The topic%s \"%s\" do%s not exist", n_missing > 1 ? "s" : "", m,
				n_missing > 1 ? "" : "es");
			free(m);
			free(w);
			return -1;
		}
	}
	if (n)
		qsort(w, n, sizeof *w, cmp_want);
	*out = w;
	*n_out = n;
	return 0;
}

/* kafka-consumer-groups' checkAllTopicPartitionsValid: every partition exists, then every one has a leader. */
static int check_valid(const struct want *w, size_t n, bool *cluster_fault, char *err, size_t errlen)
{
	lt_strbuf b = { 0 };
	for (size_t i = 0; i < n; i++)
		if (!w[i].part || !w[i].part->exists)
			sb_printf(&b, "%s%s-%d", b.len ? "," : "", w[i].topic, w[i].partition);
	if (b.len) {
		char *s = sb_take(&b);
		err_set(err, errlen, "The partitions \"%s\" do not exist", s);
		free(s);
		return -1;
	}
	/* a delete (--undo of "no commit") goes to the group coordinator: no leader or log offsets needed */
	for (size_t i = 0; i < n; i++)
		if (!w[i].part->has_leader && w[i].file_offset != LT_OFFSET_NONE)
			sb_printf(&b, "%s%s-%d", b.len ? "," : "", w[i].topic, w[i].partition);
	if (b.len) {
		char *s = sb_take(&b);
		err_set(err, errlen, "The partitions \"%s\" have no leader", s);
		free(s);
		*cluster_fault = true;
		return -1;
	}
	/* kafka-consumer-groups' words for a failed log offset lookup, naming every such partition and why */
	size_t n_failed = 0;
	for (size_t i = 0; i < n; i++)
		if (w[i].part->log_failed && w[i].file_offset != LT_OFFSET_NONE) {
			sb_printf(&b, "%s%s-%d", b.len ? "," : "", w[i].topic, w[i].partition);
			n_failed++;
		}
	if (b.len) {
		char *s = sb_take(&b);
		err_set(err, errlen,
			"Error getting the log offsets of topic partition%s: %s (the leader is up, but its "
			"ListOffsets request failed or timed out)",
			n_failed > 1 ? "s" : "", s);
		free(s);
		*cluster_fault = true;
		return -1;
	}
	return 0;
}

static void plan_warn(lt_reset_plan *p, char *msg)
{
	p->warnings = xrealloc(p->warnings, (p->n_warnings + 1) * sizeof *p->warnings);
	p->warnings[p->n_warnings++] = msg;
}

/* kafka-consumer-groups' checkOffsetsRange: above the log end → log end, else below the log start → log
 * start; each clamp reported. */
static int clamp(lt_reset_plan *p, lt_reset_row *row, const lt_reset_part *part, bool *cluster_fault, char *err,
		 size_t errlen)
{
	if (part->log_end < 0)
		return no_offset(cluster_fault, "ending offset", row, err, errlen);
	row->new_offset = row->requested;
	if (row->requested > part->log_end) {
		row->new_offset = part->log_end;
		row->notes |= LT_RESET_NOTE_CLAMP_HIGH;
		plan_warn(p, xasprintf("New offset (%" PRId64 ") is higher than latest offset for topic partition "
				       "%s-%d. Value will be set to %" PRId64 ".",
				       row->requested, row->topic, row->partition, part->log_end));
	} else if (part->log_start >= 0 && row->requested < part->log_start) {
		row->new_offset = part->log_start;
		row->notes |= LT_RESET_NOTE_CLAMP_LOW;
		plan_warn(p, xasprintf("New offset (%" PRId64 ") is lower than earliest offset for topic partition "
				       "%s-%d. Value will be set to %" PRId64 ".",
				       row->requested, row->topic, row->partition, part->log_start));
	}
	return 0;
}

static int64_t sat_add(int64_t a, int64_t b)
{
	if (b > 0 && a > INT64_MAX - b)
		return INT64_MAX;
	if (b < 0 && a < INT64_MIN - b)
		return INT64_MIN;
	return a + b;
}

static int plan_row(const lt_reset_request *rq, lt_reset_plan *p, lt_reset_row *row, const struct want *w,
		    bool *cluster_fault, char *err, size_t errlen)
{
	const lt_reset_part *part = w->part;
	row->previous = part->committed;
	switch (rq->target) {
	case LT_RESET_EARLIEST:
		if (part->log_start < 0)
			return no_offset(cluster_fault, "starting offset", row, err, errlen);
		row->requested = row->new_offset = part->log_start;
		break;
	case LT_RESET_LATEST:
		if (part->log_end < 0)
			return no_offset(cluster_fault, "ending offset", row, err, errlen);
		row->requested = row->new_offset = part->log_end;
		break;
	case LT_RESET_CURRENT:
		if (part->committed >= 0) {
			row->requested = row->new_offset = part->committed;
			break;
		}
		if (part->log_end < 0)
			return no_offset(cluster_fault, "ending offset", row, err, errlen);
		row->requested = row->new_offset = part->log_end;
		row->notes |= LT_RESET_NOTE_NO_COMMIT;
		break;
	case LT_RESET_OFFSET: row->requested = rq->offset; return clamp(p, row, part, cluster_fault, err, errlen);
	case LT_RESET_SHIFT:
		if (part->committed < 0)
			return err_set(
				err, errlen,
				"Cannot shift offset for partition %s-%d since there is no current committed offset",
				row->topic, row->partition);
		row->requested = sat_add(part->committed, rq->offset);
		return clamp(p, row, part, cluster_fault, err, errlen);
	case LT_RESET_DATETIME:
	case LT_RESET_DURATION:
		if (part->ts_offset == LT_RESET_TS_UNKNOWN || part->ts_offset < LT_OFFSET_NONE)
			return no_offset(cluster_fault, "offset by timestamp", row, err, errlen);
		if (part->ts_offset >= 0) {
			row->requested = row->new_offset = part->ts_offset;
			break;
		}
		if (part->log_end < 0)
			return no_offset(cluster_fault, "ending offset", row, err, errlen);
		row->requested = row->new_offset = part->log_end;
		row->notes |= LT_RESET_NOTE_TS_FALLBACK;
		{
			char when[40];
			reset_format_time(rq->timestamp_ms, when, sizeof when);
			plan_warn(p, xasprintf("Partition %d from topic %s has no message at or after %s. Falling back "
					       "to latest known offset (%" PRId64 ").",
					       row->partition, row->topic, when, part->log_end));
		}
		break;
	case LT_RESET_FILE:
		if (w->file_offset == LT_OFFSET_NONE) { /* a backup's "no commit": delete, nothing to clamp */
			row->requested = row->new_offset = LT_OFFSET_NONE;
			row->notes |= LT_RESET_NOTE_DELETE;
			break;
		}
		row->requested = w->file_offset;
		return clamp(p, row, part, cluster_fault, err, errlen);
	case LT_RESET_NONE:
	default: return err_set(err, errlen, "no reset target given");
	}
	return 0;
}

static const char *note_text(unsigned notes)
{
	if (notes & LT_RESET_NOTE_CLAMP_HIGH)
		return "clamped to log end";
	if (notes & LT_RESET_NOTE_CLAMP_LOW)
		return "clamped to log start";
	if (notes & LT_RESET_NOTE_NO_COMMIT)
		return "no commit: log end";
	if (notes & LT_RESET_NOTE_TS_FALLBACK)
		return "nothing at/after time: log end";
	if (notes & LT_RESET_NOTE_DELETE)
		return "no commit before: delete";
	return NULL;
}

lt_reset_plan *reset_plan_build(const lt_reset_request *rq, const lt_reset_input *in, char *err, size_t errlen)
{
	return reset_plan_build_ex(rq, in, NULL, err, errlen);
}

lt_reset_plan *reset_plan_build_ex(const lt_reset_request *rq, const lt_reset_input *in, bool *cluster_fault, char *err,
				   size_t errlen)
{
	bool fault_ignored;
	if (!cluster_fault)
		cluster_fault = &fault_ignored;
	*cluster_fault = false;
	struct want *w = NULL;
	size_t n = 0;
	if (collect_scope(rq, in, &w, &n, err, errlen))
		return NULL;
	if (check_valid(w, n, cluster_fault, err, errlen)) {
		free(w);
		return NULL;
	}
	lt_reset_plan *p = xcalloc(1, sizeof *p);
	p->group = xstrdup(rq->group);
	p->target = rq->target;
	p->timestamp_ms = rq->target == LT_RESET_DATETIME || rq->target == LT_RESET_DURATION ? rq->timestamp_ms : -1;
	p->rows = xcalloc(n ? n : 1, sizeof *p->rows);
	for (size_t i = 0; i < n; i++) {
		lt_reset_row *row = &p->rows[p->n_rows++];
		row->topic = xstrdup(w[i].topic);
		row->partition = w[i].partition;
		if (plan_row(rq, p, row, &w[i], cluster_fault, err, errlen)) {
			free(w);
			reset_plan_free(p);
			return NULL;
		}
		const char *nt = note_text(row->notes);
		row->note = nt ? xstrdup(nt) : NULL;
		if (row->new_offset == LT_OFFSET_NONE) {
			p->n_deletes++;
			p->n_changed += row->previous >= 0; /* deleting nothing changes nothing */
			continue;
		}
		if (row->previous >= 0) {
			row->has_delta = true;
			row->delta = row->new_offset - row->previous;
			if (row->delta < 0)
				p->replayed = sat_add(p->replayed, -row->delta);
			else
				p->skipped = sat_add(p->skipped, row->delta);
		}
		if (!row->has_delta || row->delta != 0)
			p->n_changed++;
	}
	free(w);
	return p;
}

void reset_plan_free(lt_reset_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_rows; i++) {
		free(p->rows[i].topic);
		free(p->rows[i].note);
	}
	free(p->rows);
	for (size_t i = 0; i < p->n_warnings; i++)
		free(p->warnings[i]);
	free(p->warnings);
	free(p->group);
	free(p);
}

const lt_reset_row *reset_plan_find(const lt_reset_plan *p, const char *topic, int32_t partition)
{
	for (size_t i = 0; i < p->n_rows; i++)
		if (p->rows[i].partition == partition && strcmp(p->rows[i].topic, topic) == 0)
			return &p->rows[i];
	return NULL;
}

/* ---- the guard ---- */

/* The words of a refusal, per action: a reset keeps kafka-consumer-groups' sentence; a delete says what it
 * would have deleted, in the same shape. */
static const struct {
	const char *before, *after; /* inactive: before 'g' after <state>. */
	const char *refusing;       /* "<refusing> 'g': its state could not be read" */
	const char *noun;           /* "the <noun> can go ahead once the group is Empty" */
	const char *only;           /* "<only> when the group is known to be Empty or Dead" */
} guard_words[] = {
	[LT_GUARD_FOR_RESET] = { "Assignments can only be reset if the group ",
				 " is inactive, but the current state is ", "Refusing to reset group", "reset",
				 "Offsets are only reset" },
	[LT_GUARD_FOR_DELETE] = { "Group ", " can only be deleted if it is inactive, but the current state is ",
				  "Refusing to delete group", "delete", "Groups are only deleted" },
	[LT_GUARD_FOR_DELETE_OFFSETS] = { "Offsets of group ",
					  " can only be deleted if the group is inactive, but the current state is ",
					  "Refusing to delete the offsets of group", "delete",
					  "Offsets are only deleted" },
};

lt_guard reset_guard(const char *group, const lt_reset_input *in, char *msg, size_t msglen)
{
	return reset_guard_for(LT_GUARD_FOR_RESET, group, in, msg, msglen);
}

lt_guard reset_guard_for(lt_guard_action act, const char *group, const lt_reset_input *in, char *msg, size_t msglen)
{
	/* First: such a group's Dead, or "does not exist", came from an API that cannot see it. */
	if (in->members_unreadable && in->state != LT_GROUP_EMPTY) {
		const char *why = in->state_error                 ? in->state_error
				  : in->state == LT_GROUP_UNKNOWN ? "ListGroups reports a state this librdkafka cannot "
								    "name, such as Assigning or Reconciling"
								  : NULL;
		/* several short lines: the dashboard's dialog shows each as one row */
		char first[1024];
		snprintf(first, sizeof first, "%s'%s'%s%s.", guard_words[act].before, group, guard_words[act].after,
			 group_state_name(in->state));
		snprintf(msg, msglen,
			 "%s%s%s%s\n"
			 "The members of this consumer-protocol (KIP-848) group cannot be read with this librdkafka\n"
			 "(they need librdkafka 2.10 or later). Stop its consumers; the %s can go ahead once the group "
			 "is Empty.",
			 first, why ? "\n(" : "", why ? why : "", why ? ")" : "", guard_words[act].noun);
		return LT_GUARD_REFUSE_UNREADABLE;
	}
	if (!in->group_exists || in->state == LT_GROUP_EMPTY || in->state == LT_GROUP_DEAD) {
		if (msglen)
			msg[0] = '\0';
		return LT_GUARD_PROCEED;
	}
	lt_strbuf b = { 0 };
	lt_guard verdict = LT_GUARD_REFUSE_ACTIVE;
	if (in->state == LT_GROUP_UNKNOWN) {
		char first[1024];
		snprintf(first, sizeof first, "%s '%s'", guard_words[act].refusing, group);
		sb_printf(&b, "%s: its state could not be read (%s). %s when the group is known to be Empty or Dead.",
			  first, in->state_error ? in->state_error : "the broker reported an unknown state",
			  guard_words[act].only);
		verdict = LT_GUARD_REFUSE_UNKNOWN;
	} else {
		sb_printf(&b, "%s'%s'%s%s.", guard_words[act].before, group, guard_words[act].after,
			  group_state_name(in->state));
	}
	/* named whenever they were read: a consumer-protocol group in Assigning or Reconciling, which
	 * librdkafka 2.15 cannot name, is Unknown with its members known */
	if (in->n_members) {
		sb_printf(&b, "\nActive members (stop them first):");
		for (size_t i = 0; i < in->n_members; i++)
			sb_printf(&b, "\n  client-id %s on host %s (member %s)",
				  *in->members[i].client_id ? in->members[i].client_id : "-",
				  *in->members[i].host ? in->members[i].host : "-",
				  *in->members[i].member_id ? in->members[i].member_id : "-");
	}
	char *s = sb_take(&b);
	snprintf(msg, msglen, "%s", s);
	free(s);
	return verdict;
}

lt_settled reset_settle(size_t n_asked, size_t n_as_planned, size_t n_as_before, size_t n_other)
{
	if (n_other == 0 && n_as_planned == n_asked)
		return LT_SETTLED_APPLIED;
	if (n_other == 0 && n_as_before == n_asked)
		return LT_SETTLED_NOT_APPLIED;
	return LT_SETTLED_PARTLY;
}

const char *reset_settled_word(lt_settled s)
{
	static const char *const words[] = {
		[LT_SETTLED_APPLIED] = "applied",
		[LT_SETTLED_NOT_APPLIED] = "not-applied",
		[LT_SETTLED_PARTLY] = "partly-applied",
	};
	return words[s];
}
