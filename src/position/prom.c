/* prom.c — Prometheus' text format: one line at a time, then the position metrics of a page (prom.h). */
#include "config.h" /* _GNU_SOURCE: strtod_l, newlocale */
#include "position/prom.h"

#include <limits.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/xalloc.h"

const lt_prom_names prom_names_builtin = {
	.position = { NULL },
	.lead = { "kafka_consumer_fetch_manager_records_lead", "kafka_consumer_fetch_manager_metrics_records_lead",
		  "kafka_consumer_consumer_fetch_manager_metrics_records_lead", NULL },
	.lag = { "kafka_consumer_fetch_manager_records_lag", "kafka_consumer_fetch_manager_metrics_records_lag",
		 "kafka_consumer_consumer_fetch_manager_metrics_records_lag", NULL },
	.client_label = "client_id",
	.topic_label = "topic",
	.partition_label = "partition",
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_name_start(char c, bool colon)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (colon && c == ':');
}

static bool is_name_char(char c, bool colon)
{
	return is_name_start(c, colon) || (c >= '0' && c <= '9');
}

/* strtod follows LC_NUMERIC, which the dashboard sets from the environment: read numbers in "C". */
static locale_t c_numeric;
static pthread_once_t c_numeric_once = PTHREAD_ONCE_INIT;
static void make_c_numeric(void)
{
	c_numeric = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

bool prom_parse_float(const char *s, size_t len, double *out)
{
	char buf[64];
	if (len == 0 || len >= sizeof buf)
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	const char *p = buf[0] == '+' || buf[0] == '-' ? buf + 1 : buf;
	if (!strcasecmp(p, "nan")) {
		*out = NAN;
		return true;
	}
	if (!strcasecmp(p, "inf") || !strcasecmp(p, "infinity")) {
		*out = buf[0] == '-' ? -INFINITY : INFINITY;
		return true;
	}
	/* digits, one sign, '.', an exponent: nothing strtod would read as hex, "nan(...)" or whitespace */
	for (const char *q = p; *q; q++)
		if (!((*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' || *q == 'E' ||
		      ((*q == '+' || *q == '-') && (q[-1] == 'e' || q[-1] == 'E'))))
			return false;
	if (!*p || !((*p >= '0' && *p <= '9') || *p == '.'))
		return false;
	pthread_once(&c_numeric_once, make_c_numeric);
	if (!c_numeric)
		return false;
	char *end;
	double v = strtod_l(buf, &end, c_numeric);
	if (*end)
		return false;
	*out = v;
	return true;
}

static bool parse_int64(const char *s, size_t len, int64_t *out)
{
	size_t i = 0;
	bool neg = false;
	if (len && (s[0] == '-' || s[0] == '+')) {
		neg = s[0] == '-';
		i = 1;
	}
	if (i == len)
		return false;
	uint64_t v = 0;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX)
		return false;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return true;
}

static int fail(const char **why, const char *what)
{
	if (why)
		*why = what;
	return -1;
}

int prom_parse_line(const char *line, size_t len, lt_prom_sample *out, char *scratch, const char **why)
{
	if (memchr(line, '\0', len))
		return fail(why, "a NUL byte");
	if (len && line[len - 1] == '\r')
		len--;
	size_t i = 0;
	while (i < len && is_blank(line[i]))
		i++;
	if (i == len || line[i] == '#')
		return 0; /* blank, comment, # HELP, # TYPE */

	out->n_labels = 0; /* not the whole struct: the label array is large */
	out->has_ts = false;
	out->ts_ms = 0;
	if (!is_name_start(line[i], true))
		return fail(why, "not a metric name");
	size_t start = i;
	while (i < len && is_name_char(line[i], true))
		i++;
	out->name.s = line + start;
	out->name.len = i - start;
	size_t w = 0; /* scratch write position */
	if (i < len && line[i] == '{') {
		i++;
		for (;;) {
			while (i < len && is_blank(line[i]))
				i++;
			if (i < len && line[i] == '}') {
				i++;
				break;
			}
			if (i == len || !is_name_start(line[i], false))
				return fail(why, "not a label name");
			size_t ls = i;
			while (i < len && is_name_char(line[i], false))
				i++;
			lt_prom_text lname = { line + ls, i - ls };
			for (size_t k = 0; k < out->n_labels; k++)
				if (out->labels[k].name.len == lname.len &&
				    !memcmp(out->labels[k].name.s, lname.s, lname.len))
					return fail(why, "a label given twice");
			if (out->n_labels == LT_PROM_MAX_LABELS)
				return fail(why, "too many labels");
			while (i < len && is_blank(line[i]))
				i++;
			if (i == len || line[i] != '=')
				return fail(why, "no '=' after a label name");
			i++;
			while (i < len && is_blank(line[i]))
				i++;
			if (i == len || line[i] != '"')
				return fail(why, "a label value not in double quotes");
			i++;
			size_t vs = w;
			for (;;) {
				if (i == len)
					return fail(why, "an unterminated label value");
				char c = line[i++];
				if (c == '"')
					break;
				if (c == '\\') {
					if (i == len)
						return fail(why, "an unterminated label value");
					char e = line[i++];
					if (e == '\\' || e == '"')
						c = e;
					else if (e == 'n')
						c = '\n';
					else
						return fail(
							why,
							"an invalid escape in a label value (only \\\\, \\\" and \\n)");
				}
				scratch[w++] = c;
			}
			out->labels[out->n_labels].name = lname;
			out->labels[out->n_labels].value = (lt_prom_text){ scratch + vs, w - vs };
			out->n_labels++;
			while (i < len && is_blank(line[i]))
				i++;
			if (i < len && line[i] == ',') {
				i++;
				continue; /* a trailing comma before '}' is allowed */
			}
			if (i < len && line[i] == '}') {
				i++;
				break;
			}
			return fail(why, "no ',' or '}' after a label value");
		}
	}
	if (i == len || !is_blank(line[i]))
		return fail(why, i == len ? "no value" : "no blank between the name and the value");
	while (i < len && is_blank(line[i]))
		i++;
	size_t vs = i;
	while (i < len && !is_blank(line[i]))
		i++;
	if (!prom_parse_float(line + vs, i - vs, &out->value))
		return fail(why, vs == len ? "no value" : "a value that is not a number");
	while (i < len && is_blank(line[i]))
		i++;
	if (i < len && line[i] != '#') { /* '#': an OpenMetrics exemplar, ignored */
		size_t ts = i;
		while (i < len && !is_blank(line[i]))
			i++;
		if (!parse_int64(line + ts, i - ts, &out->ts_ms))
			return fail(why, "a timestamp that is not an integer");
		out->has_ts = true;
		while (i < len && is_blank(line[i]))
			i++;
		if (i < len && line[i] != '#')
			return fail(why, "text after the timestamp");
	}
	return 1;
}

static bool name_in(const lt_prom_text *name, const char *const list[LT_PROM_MAX_NAMES])
{
	for (int k = 0; k < LT_PROM_MAX_NAMES && list[k]; k++)
		if (strlen(list[k]) == name->len && !memcmp(list[k], name->s, name->len))
			return true;
	return false;
}

static const lt_prom_text *label(const lt_prom_sample *s, const char *name)
{
	size_t n = name ? strlen(name) : 0;
	for (size_t k = 0; k < s->n_labels; k++)
		if (s->labels[k].name.len == n && !memcmp(s->labels[k].name.s, name, n))
			return &s->labels[k].value;
	return NULL;
}

static void note_missing(lt_pos_reports *out, const char *name)
{
	out->n_unlabelled++;
	if (!out->missing_label[0])
		snprintf(out->missing_label, sizeof out->missing_label, "%s", name ? name : "");
}

static void take_sample(const lt_prom_sample *s, const lt_prom_names *names, lt_pos_reports *out)
{
	lt_pos_kind kind;
	if (name_in(&s->name, names->position))
		kind = LT_POSK_POSITION;
	else if (name_in(&s->name, names->lead))
		kind = LT_POSK_LEAD;
	else if (name_in(&s->name, names->lag))
		kind = LT_POSK_LAG;
	else
		return;
	out->n_matched++;
	const lt_prom_text *client = label(s, names->client_label);
	const lt_prom_text *topic = label(s, names->topic_label);
	const lt_prom_text *part = label(s, names->partition_label);
	if (!client || !client->len) {
		note_missing(out, names->client_label);
		return;
	}
	if (!topic || !topic->len) {
		note_missing(out, names->topic_label);
		return;
	}
	int64_t pno;
	if (!part || !parse_int64(part->s, part->len, &pno) || pno < 0 || pno > INT32_MAX) {
		note_missing(out, names->partition_label);
		return;
	}
	int64_t value;
	if (!pos_value_to_offset(s->value, &value)) {
		out->n_no_value++; /* the Java client reports NaN until it has fetched */
		return;
	}
	pos_reports_add(out, client->s, client->len, topic->s, topic->len, (int32_t)pno, kind, value, -1,
			s->has_ts ? s->ts_ms : -1);
}

void prom_extract_positions(const char *page, size_t len, const lt_prom_names *names, lt_pos_reports *out)
{
	char *scratch = NULL;
	size_t scratch_cap = 0;
	lt_prom_sample *sample = xmalloc(sizeof *sample);
	size_t pos = 0, lineno = 0;
	while (pos < len) {
		const char *nl = memchr(page + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - page) : len;
		size_t n = end - pos;
		lineno++;
		if (n + 1 > scratch_cap)
			scratch = xgrow(scratch, &scratch_cap, n + 1, 1);
		const char *why = NULL;
		int rc = prom_parse_line(page + pos, n, sample, scratch, &why);
		if (rc < 0) {
			out->n_bad++;
			if (!out->first_error[0])
				snprintf(out->first_error, sizeof out->first_error, "line %zu: %s", lineno, why);
		} else if (rc > 0) {
			take_sample(sample, names, out);
		}
		pos = end + 1;
	}
	out->n_units = lineno;
	free(sample);
	free(scratch);
	pos_reports_finish(out);
}
