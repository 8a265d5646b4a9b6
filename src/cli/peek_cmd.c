/* peek_cmd.c — --peek GROUP: the record each partition of GROUP is stuck on, read-only (src/kafka/record_peek.h):
 * the record at the committed offset and, where a position source reports the consumer's position, the record
 * there. --format table (default) prints model/peek.h's safe lines; --format json the same fields, every text
 * sanitised the same way (a record's bytes are terminal-safe text, not raw bytes). Exit 0 when the group was
 * read (a partition with no record says why in its own line), 1 when the cluster or the group could not be. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/kcg.h"
#include "cli/modes.h"
#include "cli/output.h"
#include "cli/target.h"
#include "kafka/collector.h"
#include "kafka/record_peek.h"
#include "model/peek.h"
#include "ui/theme.h"
#include "util/exit_status.h"
#include "util/json.h"
#include "util/sanitize.h"
#include "util/xalloc.h"

/* What is read per partition: the record at the committed offset, then the one at the position. */
struct peek_rows {
	const lt_group *g;
	size_t n;         /* partitions */
	lt_peek_req *req; /* 2 n: [2i] committed, [2i+1] position (offset -1 when not reported) */
	lt_peeked *out;
};

static void peek_rows_build(struct peek_rows *r, const lt_group *g)
{
	r->g = g;
	r->n = g->n_partitions;
	r->req = xcalloc(2 * r->n + 1, sizeof *r->req);
	r->out = xcalloc(2 * r->n + 1, sizeof *r->out);
	for (size_t i = 0; i < r->n; i++) {
		const lt_partition *p = &g->partitions[i];
		lt_peek_req q = { p->topic, p->partition, p->committed, p->log_start, p->log_end };
		r->req[2 * i] = q;
		q.offset = p->has_position ? partition_position(g, p) : -1;
		r->req[2 * i + 1] = q;
	}
}

static void rows_free(struct peek_rows *r)
{
	for (size_t i = 0; i < 2 * r->n; i++)
		peek_clear(&r->out[i]);
	free(r->req);
	free(r->out);
}

/* ---- table ---- */

static void print_line(void *arg, const char *line)
{
	fprintf((FILE *)arg, "    %s\n", line);
}

static void print_table(FILE *out, const struct peek_rows *r, bool utf8)
{
	char *group = sanitize_dup(r->g->group, utf8);
	fprintf(out, "GROUP %s\n", group);
	free(group);
	for (size_t i = 0; i < r->n; i++) {
		const lt_partition *p = &r->g->partitions[i];
		char *topic = sanitize_dup(p->topic, utf8);
		fprintf(out, "\n%s:%d  log start %lld, log end %lld\n", topic, (int)p->partition,
			(long long)p->log_start, (long long)p->log_end);
		free(topic);
		for (int k = 0; k < 2; k++) {
			const lt_peeked *rec = &r->out[2 * i + k];
			if (k == 1 && rec->status == LT_PEEK_NO_OFFSET)
				continue; /* no position reported */
			if (rec->status == LT_PEEK_NO_OFFSET)
				fprintf(out, "  committed: none\n");
			else
				fprintf(out, "  %s %lld:\n", k == 0 ? "committed" : "position", (long long)rec->asked);
			if (rec->status != LT_PEEK_NO_OFFSET)
				peek_format(rec, utf8, print_line, out);
		}
	}
}

/* ---- JSON ---- */

static void json_bytes(lt_json *j, const char *key, const lt_peek_bytes *b)
{
	json_key(j, key);
	if (!b->data) {
		json_null(j);
	} else {
		size_t need = sanitize_bytes(b->data, b->kept, NULL, 0, true);
		char *safe = xmalloc(need + 1);
		sanitize_bytes(b->data, b->kept, safe, need + 1, true);
		json_string(j, safe);
		free(safe);
	}
	char size_key[40];
	snprintf(size_key, sizeof size_key, "%s_size", key);
	json_kv_int(j, size_key, (int64_t)b->size);
}

static const char *peek_status_name(lt_peek_status st)
{
	static const char *const names[] = {
		[LT_PEEK_OK] = "ok",           [LT_PEEK_NO_OFFSET] = "no_offset", [LT_PEEK_AT_END] = "at_log_end",
		[LT_PEEK_DELETED] = "deleted", [LT_PEEK_DENIED] = "denied",       [LT_PEEK_TIMEOUT] = "timeout",
		[LT_PEEK_ERROR] = "error",
	};
	return names[st];
}

static void json_record(lt_json *j, const lt_peeked *r)
{
	char line[320];
	json_object_begin(j);
	json_kv_int_or_null(j, "asked", r->asked, r->status != LT_PEEK_NO_OFFSET);
	json_kv_string(j, "status", peek_status_name(r->status));
	json_kv_string(j, "message", r->status == LT_PEEK_OK ? NULL : peek_status_line(r, line, sizeof line));
	json_kv_int_or_null(j, "log_start", r->log_start, r->status == LT_PEEK_DELETED && r->log_start >= 0);
	bool ok = r->status == LT_PEEK_OK;
	json_kv_int_or_null(j, "offset", r->offset, ok);
	json_kv_int_or_null(j, "timestamp_ms", r->timestamp_ms, ok && r->ts_type != LT_PEEK_TS_NONE);
	json_kv_string(j, "timestamp_type", ok ? peek_ts_type_name(r->ts_type) : NULL);
	if (ok) {
		json_bytes(j, "key", &r->key);
		json_bytes(j, "value", &r->value);
		json_key(j, "headers");
		json_array_begin(j);
		for (size_t i = 0; i < r->n_headers; i++) {
			json_object_begin(j);
			char *name = sanitize_dup(r->headers[i].name, true);
			json_kv_string(j, "name", name);
			free(name);
			json_bytes(j, "value", &r->headers[i].value);
			json_object_end(j);
		}
		json_array_end(j);
		json_kv_int(j, "headers_count", (int64_t)r->n_headers_total);
	}
	json_object_end(j);
}

static int print_json(FILE *out, const struct peek_rows *r)
{
	lt_json j;
	json_init_file(&j, out);
	json_object_begin(&j);
	json_kv_string(&j, "group", r->g->group);
	json_key(&j, "partitions");
	json_array_begin(&j);
	for (size_t i = 0; i < r->n; i++) {
		const lt_partition *p = &r->g->partitions[i];
		json_object_begin(&j);
		json_kv_string(&j, "topic", p->topic);
		json_kv_int(&j, "partition", p->partition);
		json_kv_int_or_null(&j, "log_start", p->log_start, p->log_start >= 0);
		json_kv_int_or_null(&j, "log_end", p->log_end, p->log_end >= 0);
		json_key(&j, "committed");
		json_record(&j, &r->out[2 * i]);
		json_key(&j, "position");
		if (r->out[2 * i + 1].status == LT_PEEK_NO_OFFSET)
			json_null(&j);
		else
			json_record(&j, &r->out[2 * i + 1]);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	return json_finish(&j);
}

/* ---- the mode ---- */

static int refresh_group(const struct lt_options *o, struct lt_target *t, lt_snapshot **s)
{
	struct lt_collector_conf conf;
	target_collector_conf(t, o->timeout_ms, &conf);
	conf.commit_stream = false; /* the records need the offsets only */
	conf.no_record_reads = true;
	return kcg_refresh_once(&conf, s);
}

int mode_peek(const struct lt_options *opts)
{
	struct lt_options o = *opts;
	const char *one[] = { opts->peek_group };
	o.groups = one;
	o.n_groups = 1;
	struct lt_target t;
	char err[1024];
	if (target_from_options(&o, &t, stderr, NULL, err, sizeof err) != 0) {
		fprintf(stderr, "lagtop: %s\n", err);
		return LT_EXIT_USAGE;
	}
	lt_snapshot *s = NULL;
	int rc = refresh_group(&o, &t, &s);
	const lt_group *g = rc == LT_EXIT_OK ? snapshot_find_group(s, opts->peek_group) : NULL;
	if (rc == LT_EXIT_OK && (!g || g->unread || g->n_partitions == 0)) {
		char *name = output_sanitize(opts->peek_group);
		const char *why = g && g->error ? g->error : snapshot_unread_reason(s, opts->peek_group);
		char *e = output_sanitize(why ? why : "it has no committed offsets");
		fprintf(stderr, "lagtop: group %s: %s\n", name, e);
		free(name);
		free(e);
		rc = LT_EXIT_CLUSTER;
	}
	lt_peeker *pk = rc == LT_EXIT_OK ? peeker_new(&t.conn, err, sizeof err) : NULL;
	if (rc == LT_EXIT_OK && !pk) {
		fprintf(stderr, "lagtop: %s\n", err);
		rc = LT_EXIT_USAGE;
	}
	if (pk) {
		struct peek_rows r;
		peek_rows_build(&r, g);
		peeker_read(pk, r.req, 2 * r.n, r.out, o.timeout_ms);
		if (o.format == LT_FORMAT_JSON)
			print_json(stdout, &r);
		else
			print_table(stdout, &r, locale_is_utf8());
		rows_free(&r);
		peeker_free(pk);
		if (fflush(stdout) != 0) {
			fprintf(stderr, "lagtop: cannot write the output\n");
			rc = LT_EXIT_CLUSTER;
		}
	}
	snapshot_unref(s);
	target_free(&t);
	return rc;
}
