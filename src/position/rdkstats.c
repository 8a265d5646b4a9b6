/* rdkstats.c — librdkafka's statistics JSON, read with jansson (rdkstats.h). */
#include "position/rdkstats.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void bad(lt_pos_reports *out, size_t doc, const char *what)
{
	out->n_bad++;
	if (!out->first_error[0])
		snprintf(out->first_error, sizeof out->first_error, "document %zu: %.120s", doc, what);
}

static int64_t offset_or_none(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return -1; /* absent, or -1001: not known */
	return json_integer_value(v);
}

static void take_partition(const char *client, const char *topic, json_t *p, int64_t ts_ms, lt_pos_reports *out)
{
	json_t *pno = json_object_get(p, "partition");
	if (!json_is_integer(pno) || json_integer_value(pno) < 0 || json_integer_value(pno) > INT32_MAX)
		return; /* -1: librdkafka's internal "unassigned" partition */
	json_t *desired = json_object_get(p, "desired");
	if (json_is_false(desired))
		return; /* no longer assigned to this client */
	out->n_matched++;
	int64_t app = offset_or_none(p, "app_offset");
	if (app < 0) {
		out->n_no_value++;
		return;
	}
	pos_reports_add(out, client, strlen(client), topic, strlen(topic), (int32_t)json_integer_value(pno),
			LT_POSK_POSITION, app, offset_or_none(p, "committed_offset"), ts_ms);
}

static void take_document(json_t *doc, size_t n, lt_pos_reports *out)
{
	if (!json_is_object(doc))
		return bad(out, n, "not a JSON object");
	json_t *type = json_object_get(doc, "type");
	json_t *client = json_object_get(doc, "client_id");
	json_t *topics = json_object_get(doc, "topics");
	if (!json_is_string(client) || !json_is_object(topics))
		return bad(out, n, "no client_id or topics: not librdkafka statistics");
	if (json_is_string(type) && strcmp(json_string_value(type), "consumer") != 0)
		return; /* a producer's statistics: nothing to say about positions */
	if (!json_string_length(client)) {
		out->n_unlabelled++;
		if (!out->missing_label[0])
			snprintf(out->missing_label, sizeof out->missing_label, "client_id");
		return;
	}
	json_t *time = json_object_get(doc, "time");
	int64_t ts_ms =
		json_is_integer(time) && json_integer_value(time) > 0 && json_integer_value(time) < INT64_MAX / 1000
			? json_integer_value(time) * 1000
			: -1;
	const char *tname;
	json_t *t;
	json_object_foreach(topics, tname, t)
	{
		json_t *parts = json_object_get(t, "partitions");
		if (!json_is_object(parts) || !tname[0])
			continue;
		const char *pkey;
		json_t *p;
		json_object_foreach(parts, pkey, p)
		{
			if (json_is_object(p))
				take_partition(json_string_value(client), tname, p, ts_ms, out);
		}
	}
}

void rdkstats_extract_positions(const char *text, size_t len, lt_pos_reports *out)
{
	size_t pos = 0;
	for (;;) {
		while (pos < len && (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' || text[pos] == '\r'))
			pos++;
		if (pos == len)
			break;
		json_error_t err;
		/* JSON_DISABLE_EOF_CHECK: stop after one document (err.position: the bytes it took);
		 * no JSON_ALLOW_NUL, so names with a NUL byte are refused, as C strings cannot hold them */
		json_t *doc = json_loadb(text + pos, len - pos, JSON_DISABLE_EOF_CHECK, &err);
		out->n_units++;
		if (!doc) {
			char what[120];
			snprintf(what, sizeof what, "not JSON (line %d, column %d: %.80s)", err.line, err.column,
				 err.text);
			bad(out, out->n_units, what);
			break; /* no way to find where the next document starts */
		}
		take_document(doc, out->n_units, out);
		json_decref(doc);
		if (err.position <= 0)
			break;
		pos += (size_t)err.position;
	}
	pos_reports_finish(out);
}
