/* report.h — what consumers say about their own position, as parsed from their metrics.
 *
 * No broker API returns a consumer's position (the next offset it will read): it lives in the consumer's
 * memory. Consumers publish it through their metrics, in one of three shapes (lt_pos_kind):
 *   POSITION  the position itself (librdkafka's statistics `app_offset`, or a metric an operator names);
 *   LEAD      position − log start (the Java client's `records-lead`): exact once lagtop knows the log start,
 *             which the consumer's own view of it equals unless retention deleted records in between;
 *   LAG       high watermark − position (the Java client's `records-lag`): the consumer's high watermark is the
 *             one of its last fetch, older than the log end lagtop asks, so log end − lag can be too high by
 *             what was produced since that fetch. Used only when no LEAD or POSITION is reported.
 * The parsers (prom.h, rdkstats.h) are pure: bytes in, reports out, no I/O and no clocks. */
#ifndef LAGTOP_POSITION_REPORT_H
#define LAGTOP_POSITION_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* In order of preference: a direct position beats a lead, a lead beats a lag. */
typedef enum {
	LT_POSK_POSITION = 0,
	LT_POSK_LEAD,
	LT_POSK_LAG,
} lt_pos_kind;

typedef struct lt_pos_report {
	char *client_id;
	char *topic;
	int64_t value;     /* the position, the lead or the lag, per kind */
	int64_t committed; /* the committed offset the consumer itself reports (librdkafka), -1 if none */
	int64_t ts_ms;     /* when the consumer took it (wall clock, ms since the epoch), -1 if the source
			      does not say: the time of the fetch applies */
	int32_t partition;
	lt_pos_kind kind;
	size_t seq; /* internal: order of appearance, so that of two equal reports the later wins */
} lt_pos_report;

/* A parse's result: the reports, and what the parser saw, for the source's status line. */
typedef struct lt_pos_reports {
	size_t n, cap;
	lt_pos_report *v;       /* after pos_reports_finish: sorted by (client id, topic, partition, kind), unique */
	size_t n_units;         /* lines (Prometheus) or JSON documents (statistics) read */
	size_t n_bad;           /* lines or documents that could not be parsed (skipped) */
	size_t n_matched;       /* samples or partitions of a position metric, before label checks */
	size_t n_unlabelled;    /* matched samples lacking the client id, topic or partition label, or with a
				   partition that is not a number */
	size_t n_no_value;      /* matched samples without a usable value (NaN, ±Inf, -1001 in librdkafka) */
	char first_error[160];  /* the first bad unit, "line 12: ..." ; "" if none */
	char missing_label[64]; /* the first label found missing, "" if none */
} lt_pos_reports;

void pos_reports_init(lt_pos_reports *r);
void pos_reports_free(lt_pos_reports *r);
/* Copies the strings (lengths given, not NUL-terminated). */
void pos_reports_add(lt_pos_reports *r, const char *client_id, size_t client_len, const char *topic, size_t topic_len,
		     int32_t partition, lt_pos_kind kind, int64_t value, int64_t committed, int64_t ts_ms);
/* Sorts and keeps one report per (client id, topic, partition, kind): the newest by ts_ms, and of equal
 * times the last to appear (a metrics page lists a series once; a statistics file appends documents). */
void pos_reports_finish(lt_pos_reports *r);
/* The first report for (client id, topic, partition) in order of preference (POSITION, LEAD, LAG), or NULL.
 * Needs pos_reports_finish. */
const lt_pos_report *pos_reports_find(const lt_pos_reports *r, const char *client_id, const char *topic,
				      int32_t partition);
/* A metric value as an offset: finite, integral after rounding, within int64. */
bool pos_value_to_offset(double v, int64_t *out);
/* The position a report means, given the partition's log start and log end (-1: unknown); false when it
 * cannot be known (a lead without the log start, a lag without the log end). */
bool pos_report_position(const lt_pos_report *rep, int64_t log_start, int64_t log_end, int64_t *position);
const char *pos_kind_name(lt_pos_kind k); /* "position", "lead", "lag" */

#endif
