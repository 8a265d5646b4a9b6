/* prom.h — a Prometheus text exposition format (version 0.0.4) writer: gather samples, then write them
 * grouped by metric, sorted, without duplicates.
 *
 * The caller declares each metric (name, help) and adds samples in any order; prom_write sorts metrics by
 * name and each metric's samples by label values (digit-only values, such as partitions, numerically),
 * keeps the first of two samples with the same metric and labels, and writes # HELP and # TYPE gauge once
 * per metric that has samples. No timestamps: node_exporter's textfile collector refuses them.
 *
 * Escaping: label values and help text are first put in their terminal-safe form (sanitize.h: controls,
 * bidi characters and bytes that are not UTF-8, which names from a cluster may hold, become \xNN or \uXXXX
 * text, as on the dashboard), then the format's escapes apply: \ and " become \\ and \" (a newline never
 * remains). So a scrape or a terminal never gets a control byte, and the text stays UTF-8.
 * An unknown value is never written: the double variant drops NaN and infinities, and callers skip values
 * they do not know, so "no data" never reads as 0.
 */
#ifndef LAGTOP_UTIL_PROM_H
#define LAGTOP_UTIL_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct lt_prom lt_prom;

lt_prom *prom_new(void);
void prom_free(lt_prom *p);

/* Declares a gauge; name and help must outlive p (string literals). Declaring it twice is harmless. */
void prom_gauge(lt_prom *p, const char *name, const char *help);

/* Adds one sample of a declared metric: n_labels pairs (names[i], values[i]); values are copied. A NULL
 * value is written as an empty label (Prometheus reads it as an absent one). */
void prom_int(lt_prom *p, const char *name, const char *const *names, const char *const *values, size_t n_labels,
	      int64_t v);
/* Milliseconds written as seconds, exactly ("1.5", "-0.25", "3"). */
void prom_ms_as_seconds(lt_prom *p, const char *name, const char *const *names, const char *const *values,
			size_t n_labels, int64_t ms);
/* A double, shortest form that reads back exactly; NaN and infinities are dropped (unknown, not 0). */
void prom_double(lt_prom *p, const char *name, const char *const *names, const char *const *values, size_t n_labels,
		 double v);

/* Writes everything; returns 0, or -1 on a write error. */
int prom_write(lt_prom *p, FILE *out);

/* Escaping into a new string (also used by the tests): a label value, or help text. */
char *prom_escape_label_value(const char *s);
char *prom_escape_help(const char *s);

#endif
