/* utf8.h — strict UTF-8 decoding and terminal cell widths, without the C library's locale.
 *
 * Names from the cluster (group ids, client ids, hosts) are arbitrary bytes: the decoder rejects
 * overlong forms, surrogates and code points above U+10FFFF one byte at a time, so the caller can
 * show each bad byte as \xNN and carry on. Widths follow wcwidth(3) semantics (0 for combining
 * marks and zero-width format characters, 2 for East Asian Wide/Fullwidth and emoji, 1 otherwise)
 * from a built-in table, because the dashboard must not depend on whatever locale it runs under.
 */
#ifndef LAGTOP_UTIL_UTF8_H
#define LAGTOP_UTIL_UTF8_H

#include <stddef.h>
#include <stdint.h>

#define UTF8_INVALID 0xFFFFFFFFu

/* Decodes one code point from s[0..n) (n >= 1). Returns the number of bytes consumed (1..4) and
 * sets *cp; an invalid or truncated sequence consumes exactly one byte and sets *cp = UTF8_INVALID. */
size_t utf8_decode(const char *s, size_t n, uint32_t *cp);

/* Encodes cp (<= U+10FFFF, not a surrogate) into out; returns 1..4, or 0 for an invalid cp. */
size_t utf8_encode(uint32_t cp, char out[4]);

/* Cells a printable code point takes: 0, 1 or 2. Control characters (C0, DEL, C1) return -1. */
int utf8_cp_width(uint32_t cp);

/* The length Java's String.length() gives the text (UTF-16 code units: 2 for a code point above U+FFFF,
 * 1 for any other, 1 for each invalid byte, which Java decodes as U+FFFD): what kafka-consumer-groups pads
 * its columns by. NULL counts 0. */
size_t utf8_java_length(const char *s);

#endif
