/* prom.h — Prometheus' text exposition format (version 0.0.4), and the consumer positions in it.
 *
 * A page is lines; each is blank, a comment (`#`, including `# HELP` and `# TYPE`, which lagtop does not
 * need), or a sample: `name{label="value",...} value [timestamp]`, tokens separated by blanks or tabs.
 * Label values escape `\\`, `\"` and `\n` (any other escape is an error); values are floats including
 * `NaN`, `+Inf` and `-Inf`, written with a '.' whatever the locale; the timestamp is an integer in ms
 * since the epoch. Lines end in "\n" or "\r\n". Unlike the Prometheus server, which rejects a whole page
 * for one bad line, a bad line is skipped and counted: an operator wants the positions that are there, and
 * the source's status says how many lines were not understood.
 *
 * Pure: no I/O, no clocks, no locale (numbers are read in the C locale whatever setlocale said). */
#ifndef LAGTOP_POSITION_PROM_H
#define LAGTOP_POSITION_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "position/report.h"

#define LT_PROM_MAX_LABELS 32

typedef struct lt_prom_text {
	const char *s;
	size_t len;
} lt_prom_text;

typedef struct lt_prom_sample {
	lt_prom_text name;
	size_t n_labels;
	struct {
		lt_prom_text name;
		lt_prom_text value; /* unescaped (in the caller's scratch buffer) */
	} labels[LT_PROM_MAX_LABELS];
	double value;
	bool has_ts;
	int64_t ts_ms;
} lt_prom_sample;

/* One line, without its "\n" (a final "\r" is allowed). Returns 1 for a sample (in *out, its unescaped
 * label values written to scratch, which must hold len bytes), 0 for a blank or comment line, -1 for a line
 * that is neither (why: a static string naming the first thing wrong). A line with a NUL byte, a label
 * given twice or more than LT_PROM_MAX_LABELS labels is wrong. */
int prom_parse_line(const char *line, size_t len, lt_prom_sample *out, char *scratch, const char **why);

/* A number as the format writes it: a float, NaN, +Inf, -Inf (also Inf, case-insensitive, as Go reads it). */
bool prom_parse_float(const char *s, size_t len, double *out);

/* Which metrics and labels carry positions. Up to 4 names per kind; an empty list means none. */
#define LT_PROM_MAX_NAMES 4
typedef struct lt_prom_names {
	const char *position[LT_PROM_MAX_NAMES]; /* the position itself */
	const char *lead[LT_PROM_MAX_NAMES];     /* position − log start */
	const char *lag[LT_PROM_MAX_NAMES];      /* high watermark − position */
	const char *client_label;
	const char *topic_label;
	const char *partition_label;
} lt_prom_names;

/* The conventions built in: the Java client's fetch-manager `records-lead`/`records-lag` as Micrometer names
 * them (kafka_consumer_fetch_manager_records_lead), as the JMX exporter's example Kafka rules name them
 * (kafka_consumer_fetch_manager_metrics_records_lead) and as the JMX exporter names them without rules
 * (kafka_consumer_consumer_fetch_manager_metrics_records_lead); labels client_id, topic, partition. The Java
 * client publishes no position metric, so none is built in (lt_prom_names.position names one). */
extern const lt_prom_names prom_names_builtin;

/* Every sample of a position metric in the page becomes a report (sample timestamps become ts_ms; a sample
 * without one gets -1). Fills the counters of *out and finishes it (pos_reports_finish). */
void prom_extract_positions(const char *page, size_t len, const lt_prom_names *names, lt_pos_reports *out);

#endif
