/* json.h — a small streaming JSON writer, to a FILE* or to a growing buffer.
 *
 * Used by `--once --format json` and lagtop-sim's counters. The writer places commas and colons
 * itself; the caller only says begin/end, key and value. Output is compact (no whitespace) unless
 * pretty is set, in which case it is indented by two spaces.
 * Strings are escaped completely: '"' and '\\', and every character no output carries raw
 * (sanitize_next: C0, DEL, C1, the bidi controls, U+2028/U+2029) as \uXXXX, which a JSON reader
 * decodes back to the same string; each byte that is not valid UTF-8 becomes U+FFFD, so the
 * result is always valid UTF-8 JSON, safe to print, whatever the cluster sent. Doubles that are NaN or infinite
 * are written as null; numbers never depend on the locale's decimal point.
 *
 *	lt_json j;
 *	json_init_file(&j, stdout);
 *	json_object_begin(&j);
 *	json_key(&j, "groups"); json_array_begin(&j); ... json_array_end(&j);
 *	json_object_end(&j);
 *	if (json_finish(&j)) ... write error or unbalanced nesting
 */
#ifndef LAGTOP_UTIL_JSON_H
#define LAGTOP_UTIL_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define LT_JSON_MAX_DEPTH 64

/* Fields are private; the struct is public only so it can live on the stack. */
typedef struct lt_json {
	FILE *fp; /* NULL: writing to buf */
	char *buf;
	size_t len, cap;
	int depth;
	bool pretty;
	bool error;                        /* an I/O error or misuse (value without key in an object, bad nesting) */
	bool after_key;                    /* a key was written; its value comes next */
	bool first[LT_JSON_MAX_DEPTH + 1]; /* no element yet at this depth */
	char kind[LT_JSON_MAX_DEPTH + 1];  /* '{' or '[' per open level */
} lt_json;

void json_init_file(lt_json *j, FILE *fp);
void json_init_buf(lt_json *j);
void json_set_pretty(lt_json *j, bool pretty);

/* Buffer mode: the text so far (NUL-terminated, owned by j) and its length. */
const char *json_buf(const lt_json *j, size_t *len);
/* Buffer mode: hands the text over (caller frees) and empties the writer. */
char *json_buf_take(lt_json *j, size_t *len);
/* Releases the buffer (buffer mode); does not close a FILE*. */
void json_free(lt_json *j);

/* 0 if everything was written and every object/array closed; -1 otherwise. Writes a final newline
 * in file mode. */
int json_finish(lt_json *j);

void json_object_begin(lt_json *j);
void json_object_end(lt_json *j);
void json_array_begin(lt_json *j);
void json_array_end(lt_json *j);
void json_key(lt_json *j, const char *key);

void json_string(lt_json *j, const char *s); /* NULL writes null */
void json_string_n(lt_json *j, const char *s, size_t n);
void json_int(lt_json *j, int64_t v);
void json_uint(lt_json *j, uint64_t v);
void json_double(lt_json *j, double v); /* NaN/inf write null */
void json_bool(lt_json *j, bool v);
void json_null(lt_json *j);

/* key + value shorthands */
void json_kv_string(lt_json *j, const char *key, const char *s);
void json_kv_int(lt_json *j, const char *key, int64_t v);
void json_kv_double(lt_json *j, const char *key, double v);
void json_kv_bool(lt_json *j, const char *key, bool v);
void json_kv_null(lt_json *j, const char *key);
/* v when known, else null (offsets and lags use -1 for "unknown") */
void json_kv_int_or_null(lt_json *j, const char *key, int64_t v, bool known);

#endif
