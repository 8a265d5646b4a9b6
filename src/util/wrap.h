/* wrap.h — word wrapping measured as the screen measures: in terminal cells of each character's safe form
 * (sanitize.h: a wide character takes 2, an escape as many as its text), UTF-8 or not (the `utf8` flag, never
 * the locale). The one wrapper of the dashboard: the reset dialog's prose, the error popup's messages and the
 * members pane's partitions. */
#ifndef LAGTOP_UTIL_WRAP_H
#define LAGTOP_UTIL_WRAP_H

#include <stdbool.h>
#include <stddef.h>

/* The first line of text[0..len) wrapped at `cells` cells. A line ends at the last break that fits: before a
 * run of blanks (which need not fit: they end the line and are not shown), or after one of the characters in
 * `breaks` (kept at the line's end, as the comma of "orders:0,1"); the blanks that indent a line are no break.
 * Without a break that fits, a word longer than the line is split between characters: as many as fit, at least
 * one, so wrapping always moves on. Returns the bytes the line takes, with the blanks after it (where the next
 * line starts); *shown: the bytes to show, without them. cells < 1: no wrapping (the whole text). */
size_t wrap_line(const char *text, size_t len, int cells, bool utf8, const char *breaks, size_t *shown);

/* How many lines text takes wrapped so (1 for ""), in one pass over it. */
size_t wrap_count(const char *text, int cells, bool utf8, const char *breaks);

#endif
