/* csv.h — RFC 4180 CSV: writing fields with quoting when needed, and a strict reader.
 *
 * Writing: a field is quoted when it contains a comma, a double quote, CR or LF, or starts or ends
 * with a space (so readers that trim keep it); quotes inside are doubled. Records end with "\n".
 * csv_write_field writes the bytes as they are, for exact round trips (backups).
 *
 * Text cells for people (--once --format csv, --export): ids and names from the cluster are written in
 * their terminal-safe form (sanitize.h: controls, bidi and bytes that are not UTF-8 escaped as \xNN or
 * \uXXXX), and a cell a spreadsheet would take for a formula (starting with = + - @ TAB or CR, OWASP) gets
 * a single quote in front and is quoted. A cell that starts with a single quote gets one more, so the
 * guard can be taken off again exactly (csv_formula_unguard). Numbers are never guarded: -1 stays a number.
 *
 * Reading is strict, because a reset plan read from a file must mean exactly what it says:
 * a quote inside an unquoted field, anything but a comma or the end after a closing quote, an
 * unterminated quoted field, or a NUL byte is an error naming the column (1-based byte position).
 * A trailing "\r\n" or "\n" is not part of the last field. Quoted fields may span lines only through
 * csv_read_record().
 */
#ifndef LAGTOP_UTIL_CSV_H
#define LAGTOP_UTIL_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* True when s must be quoted. */
bool csv_needs_quotes(const char *s);

/* Writes one field (quoted if needed; NULL is an empty field). No separator. */
void csv_write_field(FILE *fp, const char *s);

/* Writes n fields separated by commas, then "\n". Returns 0, or -1 on a write error. */
int csv_write_row(FILE *fp, const char *const *fields, size_t n);

/* The field as it would be written, in a new allocation (caller frees). */
char *csv_quote_dup(const char *s);

/* True when the text cell s needs the formula guard: it starts with = + - @ TAB CR or a single quote. */
bool csv_formula_risk(const char *s);

/* The text cell of s (NULL is ""): its terminal-safe form, with the guard quote in front when
 * csv_formula_risk. New allocation (caller frees). */
char *csv_text_dup(const char *s);

/* The text cell of s as one field, quoted when guarded or when needed, as csv_write_text_field writes it.
 * New allocation (caller frees). */
char *csv_text_field_dup(const char *s);

/* Writes the text cell of s as one field, quoted when guarded or when needed (NULL: an empty field). */
void csv_write_text_field(FILE *fp, const char *s);

/* The guard taken off a field read back: s past the single quote when s is a quote followed by one of
 * = + - @ TAB CR or a quote, else s itself. */
const char *csv_formula_unguard(const char *s);

/* The fields of one record. */
typedef struct lt_csv_fields {
	size_t n;
	char **v; /* n strings, each malloc'd */
} lt_csv_fields;

/* Splits one line (len bytes; a trailing "\n" or "\r\n" is dropped) into fields. Returns 0, or -1
 * with err ("unterminated quoted field starting at column 7"). out is emptied first. */
int csv_split_line(const char *line, size_t len, lt_csv_fields *out, char *err, size_t errlen);

/* Reads the next record from fp, joining physical lines while a quoted field is open.
 * *lineno counts physical lines read so far (pass 0 initially) and names the record's first line
 * in errors. Returns 1 with a record, 0 at end of file, -1 with err. Empty lines are returned as a
 * record with one empty field; callers usually skip them. */
int csv_read_record(FILE *fp, lt_csv_fields *out, size_t *lineno, char *err, size_t errlen);

/* The same from a text in memory (len bytes, from *pos, which is advanced past the record): the
 * bytes text[old *pos, new *pos) are the record's physical lines. */
int csv_next_record(const char *text, size_t len, size_t *pos, lt_csv_fields *out, size_t *lineno, char *err,
		    size_t errlen);

void csv_fields_free(lt_csv_fields *f);

#endif
