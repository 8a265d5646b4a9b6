/* peek.c — see peek.h. */
#include "model/peek.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sanitize.h"
#include "util/timeparse.h"
#include "util/xalloc.h"

void peek_bytes_set(lt_peek_bytes *b, const void *data, size_t size, size_t cap)
{
	free(b->data);
	b->data = NULL;
	b->kept = 0;
	b->size = data ? size : 0;
	if (!data)
		return;
	b->kept = size < cap ? size : cap;
	b->data = xmalloc(b->kept + 1);
	memcpy(b->data, data, b->kept);
	b->data[b->kept] = '\0';
}

void peek_add_header(lt_peeked *r, const char *name, const void *value, size_t size)
{
	r->n_headers_total++;
	if (r->n_headers >= LT_PEEK_HEADERS_MAX)
		return;
	lt_peek_header *h = &r->headers[r->n_headers++];
	memset(h, 0, sizeof *h);
	size_t n = name ? strlen(name) : 0;
	h->name = xmalloc((n < LT_PEEK_HVALUE_MAX ? n : LT_PEEK_HVALUE_MAX) + 1);
	memcpy(h->name, name ? name : "", n < LT_PEEK_HVALUE_MAX ? n : LT_PEEK_HVALUE_MAX);
	h->name[n < LT_PEEK_HVALUE_MAX ? n : LT_PEEK_HVALUE_MAX] = '\0';
	peek_bytes_set(&h->value, value, size, LT_PEEK_HVALUE_MAX);
}

void peek_clear(lt_peeked *r)
{
	free(r->key.data);
	free(r->value.data);
	for (size_t i = 0; i < r->n_headers; i++) {
		free(r->headers[i].name);
		free(r->headers[i].value.data);
	}
	memset(r, 0, sizeof *r);
}

const char *peek_ts_type_name(lt_peek_ts_type t)
{
	switch (t) {
	case LT_PEEK_TS_CREATE: return "CreateTime";
	case LT_PEEK_TS_LOG_APPEND: return "LogAppendTime";
	case LT_PEEK_TS_NONE: break;
	}
	return "none";
}

const char *peek_status_line(const lt_peeked *r, char *buf, size_t len)
{
	switch (r->status) {
	case LT_PEEK_OK: snprintf(buf, len, "record at offset %" PRId64, r->offset); break;
	case LT_PEEK_NO_OFFSET: snprintf(buf, len, "no offset to read at"); break;
	case LT_PEEK_AT_END:
		snprintf(buf, len, "offset %" PRId64 " is the log end: nothing to read yet", r->asked);
		break;
	case LT_PEEK_DELETED:
		if (r->log_start >= 0)
			snprintf(buf, len,
				 "offset %" PRId64 " was deleted by retention: the log now starts at %" PRId64,
				 r->asked, r->log_start);
		else
			snprintf(buf, len, "offset %" PRId64 " was deleted by retention (below the log start)",
				 r->asked);
		break;
	case LT_PEEK_DENIED: snprintf(buf, len, "not authorized to read the topic (TOPIC_AUTHORIZATION_FAILED)"); break;
	case LT_PEEK_TIMEOUT: snprintf(buf, len, "no record within the timeout"); break;
	case LT_PEEK_ERROR: {
		char *safe = sanitize_dup(r->error, false);
		snprintf(buf, len, "cannot read: %s", safe);
		free(safe);
		break;
	}
	}
	return buf;
}

char *peek_bytes_text(const lt_peek_bytes *b, bool utf8)
{
	if (!b->data)
		return xstrdup("null");
	size_t need = sanitize_bytes(b->data, b->kept, NULL, 0, utf8);
	char tail[48] = "";
	if (b->kept < b->size)
		snprintf(tail, sizeof tail, "%s (%zu bytes)", utf8 ? "\xe2\x80\xa6" : "...", b->size);
	char *out = xmalloc(need + strlen(tail) + 1);
	sanitize_bytes(b->data, b->kept, out, need + 1, utf8);
	memcpy(out + need, tail, strlen(tail) + 1);
	return out;
}

static void emit_field(lt_peek_emit emit, void *arg, const char *label, const lt_peek_bytes *b, bool utf8)
{
	char *text = peek_bytes_text(b, utf8);
	size_t n = strlen(label) + strlen(text) + 2;
	char *line = xmalloc(n);
	snprintf(line, n, "%s %s", label, text);
	emit(arg, line);
	free(line);
	free(text);
}

void peek_format(const lt_peeked *r, bool utf8, lt_peek_emit emit, void *arg)
{
	char line[320];
	if (r->status != LT_PEEK_OK) {
		emit(arg, peek_status_line(r, line, sizeof line));
		return;
	}
	if (r->offset != r->asked)
		snprintf(line, sizeof line,
			 "offset    %" PRId64 " (asked %" PRId64 ": compacted away or a control record)", r->offset,
			 r->asked);
	else
		snprintf(line, sizeof line, "offset    %" PRId64, r->offset);
	emit(arg, line);
	if (r->ts_type == LT_PEEK_TS_NONE) {
		emit(arg, "timestamp none");
	} else {
		char ts[64];
		reset_format_time(r->timestamp_ms, ts, sizeof ts);
		snprintf(line, sizeof line, "timestamp %s (%s)", ts, peek_ts_type_name(r->ts_type));
		emit(arg, line);
	}
	snprintf(line, sizeof line, "size      key %zu, value %zu, %zu header%s", r->key.size, r->value.size,
		 r->n_headers_total, r->n_headers_total == 1 ? "" : "s");
	emit(arg, line);
	emit_field(emit, arg, "key      ", &r->key, utf8);
	for (size_t i = 0; i < r->n_headers; i++) {
		char *name = sanitize_dup(r->headers[i].name, utf8);
		size_t n = strlen(name) + 16;
		char *label = xmalloc(n);
		snprintf(label, n, "header    %s:", name);
		emit_field(emit, arg, label, &r->headers[i].value, utf8);
		free(label);
		free(name);
	}
	if (r->n_headers_total > r->n_headers) {
		snprintf(line, sizeof line, "header    ... %zu more", r->n_headers_total - r->n_headers);
		emit(arg, line);
	}
	emit_field(emit, arg, "value    ", &r->value, utf8);
}
