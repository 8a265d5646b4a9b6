/* peek.h — the record at an offset ("what is the group stuck on?"): what src/kafka/record_peek.c read, and
 * its one rendering as terminal-safe lines (the dashboard's popup and --peek's table).
 *
 * Pure: the record's bytes come in, safe text goes out. Every byte from the cluster (key, header names and
 * values, the value's first bytes) goes through util/sanitize.h's one rule, so no escape sequence, bidi
 * control or invalid UTF-8 reaches the terminal raw. What is kept of a record is capped (LT_PEEK_*_MAX):
 * a megabyte value costs its first bytes only.
 */
#ifndef LAGTOP_MODEL_PEEK_H
#define LAGTOP_MODEL_PEEK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LT_PEEK_KEY_MAX     256 /* bytes of the key kept */
#define LT_PEEK_VALUE_MAX   256 /* bytes of the value kept ("the first bytes") */
#define LT_PEEK_HEADERS_MAX 16  /* headers kept */
#define LT_PEEK_HVALUE_MAX  64  /* bytes of a header's value kept */

typedef enum {
	LT_PEEK_OK = 0, /* a record was read (offset may be past the one asked: compacted away or a control record) */
	LT_PEEK_NO_OFFSET, /* no offset to read at (no commit, no position reported) */
	LT_PEEK_AT_END,    /* the offset is the log end: nothing to read yet */
	LT_PEEK_DELETED,   /* below the log start: deleted by retention (log_start says where the log starts) */
	LT_PEEK_DENIED,    /* TOPIC_AUTHORIZATION_FAILED */
	LT_PEEK_TIMEOUT,   /* no answer within the timeout */
	LT_PEEK_ERROR,     /* another error: error says which */
} lt_peek_status;

typedef enum {
	LT_PEEK_TS_NONE = 0, /* the record has no timestamp (message format v0) */
	LT_PEEK_TS_CREATE,   /* CreateTime: the producer's clock */
	LT_PEEK_TS_LOG_APPEND,
} lt_peek_ts_type;

typedef struct lt_peek_bytes {
	char *data;  /* the first bytes (at most the field's cap); NULL when the field is null */
	size_t kept; /* bytes in data */
	size_t size; /* the field's whole size */
} lt_peek_bytes;

typedef struct lt_peek_header {
	char *name; /* NUL-terminated (cut at the cap) */
	lt_peek_bytes value;
} lt_peek_header;

typedef struct lt_peeked {
	lt_peek_status status;
	int64_t asked;  /* the offset asked for */
	int64_t offset; /* the record's offset (LT_PEEK_OK) */
	int64_t timestamp_ms;
	lt_peek_ts_type ts_type;
	lt_peek_bytes key, value;
	size_t n_headers;       /* kept (at most LT_PEEK_HEADERS_MAX) */
	size_t n_headers_total; /* the record had */
	lt_peek_header headers[LT_PEEK_HEADERS_MAX];
	int64_t log_start; /* with LT_PEEK_DELETED: where the log starts now (-1 unknown) */
	char error[200];   /* with LT_PEEK_ERROR (already one safe line) */
} lt_peeked;

/* Copies a field's first bytes (data NULL: a null field). */
void peek_bytes_set(lt_peek_bytes *b, const void *data, size_t size, size_t cap);
/* Adds a header (ignored past LT_PEEK_HEADERS_MAX, but counted). */
void peek_add_header(lt_peeked *r, const char *name, const void *value, size_t size);
/* Frees what r holds and leaves it zeroed. */
void peek_clear(lt_peeked *r);

const char *peek_ts_type_name(lt_peek_ts_type t); /* "CreateTime", "LogAppendTime", "none" */
/* The one line saying why there is no record (every status but LT_PEEK_OK): "deleted by retention: the log
 * now starts at 120" ... Written into buf (safe), returned. */
const char *peek_status_line(const lt_peeked *r, char *buf, size_t len);

/* A field's safe text in a new allocation (util/sanitize.h's rule over every byte, NULs included), with
 * "… (N bytes)" appended when only its first bytes were kept; "null" for a null field. */
char *peek_bytes_text(const lt_peek_bytes *b, bool utf8);

/* The record as lines ("offset 42", "timestamp 2026-... (CreateTime)", "key ...", "header NAME: ...",
 * "size ...", "value ..."), each safe, passed to emit in order; the status line alone when no record. */
typedef void (*lt_peek_emit)(void *arg, const char *line);
void peek_format(const lt_peeked *r, bool utf8, lt_peek_emit emit, void *arg);

#endif
