/* sanitize.h — make untrusted names from the cluster safe to show on a terminal or one output line.
 *
 * Group ids, client ids, hosts and topic names come from the network and may hold escape sequences,
 * control characters, invalid UTF-8 or characters that reorder text. Everything that reaches the
 * terminal or a one-line message goes through these functions:
 *   - C0 controls and DEL                    -> \xNN      (ESC becomes \x1b, newline \x0a)
 *   - C1 controls U+0080..U+009F             -> \u0080 .. \u009f
 *   - bidi controls and line/paragraph separators (U+061C, U+200E/F, U+202A..E, U+2066..9,
 *     U+2028/9), which could reorder or split the line -> \uXXXX
 *   - bytes that are not valid UTF-8         -> \xNN, one per byte
 *   - other non-ASCII characters: kept in UTF-8 mode; \uXXXX (\UXXXXXXXX above U+FFFF) in ASCII mode
 * A backslash is kept as is (names are shown for people; use JSON output for exact bytes).
 * The `utf8` flag replaces the locale: nothing here calls setlocale, mbrtowc or wcwidth.
 * Widths are terminal cells with wcwidth(3) semantics (combining marks 0, CJK and emoji 2); an
 * escape takes as many cells as its text. Outputs are never cut inside a character or an escape.
 */
#ifndef LAGTOP_UTIL_SANITIZE_H
#define LAGTOP_UTIL_SANITIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The one rule of what no output may carry raw (the dashboard, the table, CSV, Prometheus text, the audit
 * log, messages): decodes the next character of s[0..n) (n >= 1) into *cp (UTF8_INVALID for a byte that is
 * not UTF-8) and sets *unsafe when it is such a byte, a C0 control, DEL, a C1 control, or a bidi control or
 * line/paragraph separator. Returns the bytes it takes (1 for a bad byte). Each format spells the unsafe
 * ones its own way: sanitize_display below as \xNN / \uXXXX, the audit log as %XX per byte. */
size_t sanitize_next(const char *s, size_t n, uint32_t *cp, bool *unsafe);

/* Writes the safe form of `in` (NULL is "") into out, NUL-terminated, cut at the last whole
 * character or escape that fits in outlen. Returns the length the whole safe form needs (without
 * the NUL), like snprintf: the result was cut when the return value >= outlen. out may be NULL
 * when outlen is 0. */
size_t sanitize_display(const char *in, char *out, size_t outlen, bool utf8);

/* The same for n bytes that may hold NULs (a record's key or value): each NUL becomes \x00. */
size_t sanitize_bytes(const char *in, size_t n, char *out, size_t outlen, bool utf8);

/* The safe form in a new allocation (xmalloc; caller frees). For messages: "lagtop: group '%s' ...". */
char *sanitize_dup(const char *in, bool utf8);

/* The next character of s[0..n) (n >= 1) as its safe form shows: returns the bytes it takes (1 for a bad byte) and
 * sets *cells to the cells the character, or its escape, takes. For measuring text as the screen will show it. */
size_t display_next(const char *s, size_t n, bool utf8, int *cells);

/* Terminal cells the safe form of `in` takes. */
int display_width(const char *in, bool utf8);

/* The safe form of `in` in at most `cells` cells: when it does not fit, as much as fits in
 * cells - 1 followed by an ellipsis ("…" in UTF-8 mode, "~" in ASCII mode). A wide character that
 * would straddle the limit is left out. Returns the cells written (<= cells; 0 when cells <= 0).
 * outlen must leave room for the bytes (4 * cells + 4 is always enough). */
int fit_cells(const char *in, int cells, bool utf8, char *out, size_t outlen);

/* As fit_cells, then padded with spaces to exactly `cells` cells, on the left when align_right. */
int fit_cells_padded(const char *in, int cells, bool utf8, bool align_right, char *out, size_t outlen);

#endif
