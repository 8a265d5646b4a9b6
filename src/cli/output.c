/* output.c — table, JSON and CSV renderings of a snapshot (see output.h). */
#include "config.h"

#include "cli/output.h"

#include <langinfo.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "util/xalloc.h"

/* ------------------------------------------------------------------ text helpers */

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if invalid; *cp receives the code point. */
static size_t utf8_seq(const unsigned char *s, uint32_t *cp)
{
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	size_t n;
	uint32_t c, min;
	if ((s[0] & 0xE0) == 0xC0) {
		n = 2, c = s[0] & 0x1F, min = 0x80;
	} else if ((s[0] & 0xF0) == 0xE0) {
		n = 3, c = s[0] & 0x0F, min = 0x800;
	} else if ((s[0] & 0xF8) == 0xF0) {
		n = 4, c = s[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return n;
}

static bool locale_is_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);
	return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

char *output_sanitize(const char *s)
{
	if (!s)
		return xstrdup("");
	bool utf8 = locale_is_utf8();
	size_t len = strlen(s);
	char *out = xmalloc(len + 1);
	size_t o = 0;
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		uint32_t cp;
		size_t n = utf8_seq(p, &cp);
		bool printable = n > 0 && cp >= 0x20 && cp != 0x7F && !(cp >= 0x80 && cp < 0xA0);
		if (printable && n > 1)
			printable = utf8 && iswprint((wint_t)cp);
		if (printable) {
			memcpy(out + o, p, n);
			o += n;
			p += n;
		} else {
			out[o++] = '?';
			p += n ? n : 1;
		}
	}
	out[o] = '\0';
	return out;
}

/* Display width of sanitized text (wide characters count 2). */
static size_t text_width(const char *s)
{
	size_t w = 0;
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		uint32_t cp;
		size_t n = utf8_seq(p, &cp);
		if (n == 0)
			n = 1, cp = '?';
		int cw = cp < 0x80 ? 1 : wcwidth((wchar_t)cp);
		w += cw > 0 ? (size_t)cw : 0;
		p += n;
	}
	return w;
}

void output_duration(char *buf, size_t len, int64_t ms)
{
	if (ms < 0)
		ms = 0;
	int64_t s = ms / 1000;
	if (ms < 1000)
		snprintf(buf, len, "%dms", (int)ms);
	else if (s < 60)
		snprintf(buf, len, "%.1fs", (double)ms / 1000.0);
	else if (s < 3600)
		snprintf(buf, len, "%dm%02ds", (int)(s / 60), (int)(s % 60));
	else if (s < 86400)
		snprintf(buf, len, "%dh%02dm", (int)(s / 3600), (int)(s % 3600 / 60));
	else
		snprintf(buf, len, "%dd%02dh", (int)(s / 86400), (int)(s % 86400 / 3600));
}

static const lt_member *partition_member(const lt_group *g, const lt_partition *p)
{
	return p->member >= 0 && (size_t)p->member < g->n_members ? &g->members[p->member] : NULL;
}

static bool member_has_partitions(const lt_group *g, size_t m)
{
	for (size_t k = 0; k < g->n_partitions; k++)
		if (g->partitions[k].member == (int)m)
			return true;
	return false;
}

/* ------------------------------------------------------------------ table */

enum {
	COL_GROUP, COL_TOPIC, COL_PARTITION, COL_LOG_START, COL_CURRENT, COL_LOG_END, COL_LAG,
	COL_TIME_LAG, COL_STATUS, COL_CONSUMER, COL_HOST, COL_CLIENT, N_COLS
};

static const struct {
	const char *title;
	bool right; /* numbers are right-aligned */
} table_cols[N_COLS] = {
	[COL_GROUP] = { "GROUP", false },          [COL_TOPIC] = { "TOPIC", false },
	[COL_PARTITION] = { "PARTITION", true },   [COL_LOG_START] = { "LOG-START", true },
	[COL_CURRENT] = { "CURRENT-OFFSET", true }, [COL_LOG_END] = { "LOG-END-OFFSET", true },
	[COL_LAG] = { "LAG", true },               [COL_TIME_LAG] = { "TIME-LAG", true },
	[COL_STATUS] = { "STATUS", false },        [COL_CONSUMER] = { "CONSUMER-ID", false },
	[COL_HOST] = { "HOST", false },            [COL_CLIENT] = { "CLIENT-ID", false },
};

struct table {
	char *(*cells)[N_COLS];
	size_t n, cap;
};

static char *num_or_dash(int64_t v)
{
	return v >= 0 ? xasprintf("%lld", (long long)v) : xstrdup("-");
}

static char *text_or_dash(const char *s)
{
	return s && *s ? output_sanitize(s) : xstrdup("-");
}

static char **table_row(struct table *t, const lt_group *g)
{
	t->cells = xgrow(t->cells, &t->cap, t->n + 1, sizeof *t->cells);
	char **row = t->cells[t->n++];
	for (int c = 0; c < N_COLS; c++)
		row[c] = NULL;
	row[COL_GROUP] = text_or_dash(g->group);
	return row;
}

static void row_fill_dashes(char **row)
{
	for (int c = 0; c < N_COLS; c++)
		if (!row[c])
			row[c] = xstrdup("-");
}

void output_table(FILE *out, const lt_snapshot *s)
{
	struct table t = { 0 };
	bool show[N_COLS];
	for (int c = 0; c < N_COLS; c++)
		show[c] = true;
	show[COL_TIME_LAG] = show[COL_STATUS] = false;

	for (size_t i = 0; i < s->n_groups; i++) {
		const lt_group *g = &s->groups[i];
		for (size_t k = 0; k < g->n_partitions; k++) {
			const lt_partition *p = &g->partitions[k];
			const lt_member *m = partition_member(g, p);
			char **row = table_row(&t, g);
			row[COL_TOPIC] = text_or_dash(p->topic);
			row[COL_PARTITION] = xasprintf("%d", (int)p->partition);
			row[COL_LOG_START] = num_or_dash(p->log_start);
			row[COL_CURRENT] = num_or_dash(p->committed);
			row[COL_LOG_END] = num_or_dash(p->log_end);
			row[COL_LAG] = p->has_lag ? xasprintf("%lld", (long long)p->lag) : xstrdup("-");
			if (p->has_time_lag) {
				char d[32];
				output_duration(d, sizeof d, p->time_lag_ms);
				row[COL_TIME_LAG] = xstrdup(d);
				show[COL_TIME_LAG] = true;
			}
			if (p->status != LT_STATUS_UNKNOWN) {
				row[COL_STATUS] = xstrdup(status_name(p->status));
				show[COL_STATUS] = true;
			}
			if (m) {
				row[COL_CONSUMER] = text_or_dash(m->member_id);
				row[COL_HOST] = text_or_dash(m->host);
				row[COL_CLIENT] = text_or_dash(m->client_id);
			}
			row_fill_dashes(row);
		}
		/* Members without partitions, and groups with neither, still get a row (as Kafka's tool does). */
		for (size_t m = 0; m < g->n_members; m++) {
			if (member_has_partitions(g, m))
				continue;
			char **row = table_row(&t, g);
			row[COL_CONSUMER] = text_or_dash(g->members[m].member_id);
			row[COL_HOST] = text_or_dash(g->members[m].host);
			row[COL_CLIENT] = text_or_dash(g->members[m].client_id);
			row_fill_dashes(row);
		}
		if (g->n_partitions == 0 && g->n_members == 0)
			row_fill_dashes(table_row(&t, g));
	}

	size_t width[N_COLS];
	for (int c = 0; c < N_COLS; c++) {
		width[c] = strlen(table_cols[c].title);
		for (size_t r = 0; r < t.n; r++) {
			size_t w = text_width(t.cells[r][c]);
			if (w > width[c])
				width[c] = w;
		}
	}
	for (size_t r = 0; r <= t.n; r++) {
		bool first = true;
		int last = N_COLS - 1;
		for (int c = 0; c < N_COLS; c++) {
			if (!show[c])
				continue;
			const char *cell = r == 0 ? table_cols[c].title : t.cells[r - 1][c];
			size_t pad = width[c] - text_width(cell);
			if (!first)
				fputc(' ', out);
			first = false;
			if (table_cols[c].right)
				fprintf(out, "%*s%s", (int)pad, "", cell);
			else if (c == last)
				fputs(cell, out); /* no trailing blanks */
			else
				fprintf(out, "%s%*s", cell, (int)pad, "");
		}
		fputc('\n', out);
	}
	for (size_t r = 0; r < t.n; r++)
		for (int c = 0; c < N_COLS; c++)
			free(t.cells[r][c]);
	free(t.cells);
}

/* ------------------------------------------------------------------ JSON */

static void json_str(FILE *out, const char *s)
{
	if (!s) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		uint32_t cp;
		size_t n = utf8_seq(p, &cp);
		if (n == 0) {
			fputs("\\ufffd", out); /* invalid UTF-8 byte: JSON must be valid UTF-8 */
			p++;
			continue;
		}
		switch (cp) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		default:
			if (cp < 0x20 || cp == 0x7F || cp == 0x2028 || cp == 0x2029)
				fprintf(out, "\\u%04x", (unsigned)cp);
			else
				fwrite(p, 1, n, out);
		}
		p += n;
	}
	fputc('"', out);
}

static void json_key(FILE *out, bool *first, const char *key)
{
	fputs(*first ? "" : ",", out);
	*first = false;
	json_str(out, key);
	fputc(':', out);
}

static void json_int(FILE *out, bool *first, const char *key, bool known, int64_t v)
{
	json_key(out, first, key);
	if (known)
		fprintf(out, "%lld", (long long)v);
	else
		fputs("null", out);
}

static void json_double(FILE *out, bool *first, const char *key, bool known, double v)
{
	json_key(out, first, key);
	if (known && isfinite(v))
		fprintf(out, "%.3f", v);
	else
		fputs("null", out);
}

static void json_text(FILE *out, bool *first, const char *key, const char *v)
{
	json_key(out, first, key);
	json_str(out, v);
}

static const struct {
	unsigned flag;
	const char *name;
} flag_names[] = {
	{ LT_PF_OUT_OF_RANGE, "out_of_range" }, { LT_PF_AHEAD_OF_END, "ahead_of_end" },
	{ LT_PF_STALE, "stale" },               { LT_PF_NO_LEADER, "no_leader" },
	{ LT_PF_UNASSIGNED, "unassigned" },     { LT_PF_IDLE, "idle" },
};

static void json_partition(FILE *out, const lt_group *g, const lt_partition *p)
{
	const lt_member *m = partition_member(g, p);
	bool f = true;
	fputc('{', out);
	json_text(out, &f, "topic", p->topic);
	json_int(out, &f, "partition", true, p->partition);
	json_int(out, &f, "log_start", p->log_start >= 0, p->log_start);
	json_int(out, &f, "committed", p->committed >= 0, p->committed);
	json_int(out, &f, "log_end", p->log_end >= 0, p->log_end);
	json_int(out, &f, "lag", p->has_lag, p->lag);
	json_text(out, &f, "consumer_id", m ? m->member_id : NULL);
	json_text(out, &f, "client_id", m ? m->client_id : NULL);
	json_text(out, &f, "host", m ? m->host : NULL);
	json_int(out, &f, "time_lag_ms", p->has_time_lag, p->time_lag_ms);
	json_double(out, &f, "consume_rate", p->has_rates, p->consume_rate);
	json_double(out, &f, "produce_rate", p->has_rates, p->produce_rate);
	json_int(out, &f, "eta_ms", p->has_eta, p->eta_ms);
	json_text(out, &f, "status", p->status == LT_STATUS_UNKNOWN ? NULL : status_name(p->status));
	json_text(out, &f, "metadata", p->commit_metadata);
	json_key(out, &f, "flags");
	fputc('[', out);
	bool ff = true;
	for (size_t i = 0; i < sizeof flag_names / sizeof flag_names[0]; i++)
		if (p->flags & flag_names[i].flag) {
			fputs(ff ? "" : ",", out);
			ff = false;
			json_str(out, flag_names[i].name);
		}
	fputc(']', out);
	if (p->flags & LT_PF_STALE)
		json_int(out, &f, "stale_ms", true, p->stale_ms);
	fputc('}', out);
}

static void json_member(FILE *out, const lt_member *m)
{
	bool f = true;
	fputc('{', out);
	json_text(out, &f, "consumer_id", m->member_id);
	json_text(out, &f, "client_id", m->client_id);
	json_text(out, &f, "host", m->host);
	json_text(out, &f, "instance_id", m->instance_id);
	json_key(out, &f, "assignment");
	fputc('[', out);
	for (size_t a = 0; a < m->n_assigned; a++) {
		bool af = true;
		fputs(a ? ",{" : "{", out);
		json_text(out, &af, "topic", m->assigned[a].topic);
		json_int(out, &af, "partition", true, m->assigned[a].partition);
		fputc('}', out);
	}
	fputs("]}", out);
}

static void json_group(FILE *out, const lt_group *g)
{
	bool any_lag = false;
	for (size_t k = 0; k < g->n_partitions; k++)
		any_lag |= g->partitions[k].has_lag;
	bool f = true;
	fputc('{', out);
	json_text(out, &f, "group", g->group);
	json_text(out, &f, "state", group_state_name(g->state));
	json_int(out, &f, "members", true, (int64_t)g->n_members);
	json_int(out, &f, "lag", any_lag, g->total_lag);
	json_int(out, &f, "max_lag", any_lag, g->max_lag);
	json_int(out, &f, "max_time_lag_ms", g->has_max_time_lag, g->max_time_lag_ms);
	json_double(out, &f, "consume_rate", true, g->consume_rate);
	json_text(out, &f, "status", g->status == LT_STATUS_UNKNOWN ? NULL : status_name(g->status));
	json_text(out, &f, "protocol_type", g->protocol_type);
	json_text(out, &f, "protocol", g->protocol);
	json_int(out, &f, "coordinator", g->coordinator >= 0, g->coordinator);
	json_text(out, &f, "error", g->error);
	json_int(out, &f, "stale_ms", true, g->stale_ms);
	json_key(out, &f, "member_list");
	fputc('[', out);
	for (size_t m = 0; m < g->n_members; m++) {
		fputs(m ? "," : "", out);
		json_member(out, &g->members[m]);
	}
	fputc(']', out);
	json_key(out, &f, "partitions");
	fputc('[', out);
	for (size_t k = 0; k < g->n_partitions; k++) {
		fputs(k ? "," : "", out);
		json_partition(out, g, &g->partitions[k]);
	}
	fputs("]}", out);
}

void output_json(FILE *out, const lt_snapshot *s)
{
	bool f = true;
	fputc('{', out);
	json_text(out, &f, "cluster", s->cluster);
	json_int(out, &f, "taken_at_ms", true, s->taken_at_ms);
	json_int(out, &f, "duration_ms", true, s->duration_ms);
	json_int(out, &f, "brokers_up", true, s->brokers_up);
	json_int(out, &f, "brokers_total", true, s->brokers_total);
	json_text(out, &f, "error", s->error);
	json_key(out, &f, "groups");
	fputc('[', out);
	for (size_t i = 0; i < s->n_groups; i++) {
		fputs(i ? ",\n" : "\n", out);
		json_group(out, &s->groups[i]);
	}
	fputs("]}\n", out);
}

/* ------------------------------------------------------------------ CSV */

static void csv_field(FILE *out, const char *s, bool last)
{
	if (s && strpbrk(s, ",\"\r\n")) {
		fputc('"', out);
		for (const char *p = s; *p; p++) {
			if (*p == '"')
				fputc('"', out);
			fputc(*p, out);
		}
		fputc('"', out);
	} else if (s) {
		fputs(s, out);
	}
	fputc(last ? '\n' : ',', out);
}

static void csv_num(FILE *out, bool known, int64_t v)
{
	if (known)
		fprintf(out, "%lld", (long long)v);
	fputc(',', out);
}

void output_csv(FILE *out, const lt_snapshot *s)
{
	fputs("group,state,topic,partition,log_start,committed,log_end,lag,time_lag_ms,status,consumer_id,host,"
	      "client_id\n",
	      out);
	for (size_t i = 0; i < s->n_groups; i++) {
		const lt_group *g = &s->groups[i];
		for (size_t k = 0; k < g->n_partitions; k++) {
			const lt_partition *p = &g->partitions[k];
			const lt_member *m = partition_member(g, p);
			csv_field(out, g->group, false);
			csv_field(out, group_state_name(g->state), false);
			csv_field(out, p->topic, false);
			csv_num(out, true, p->partition);
			csv_num(out, p->log_start >= 0, p->log_start);
			csv_num(out, p->committed >= 0, p->committed);
			csv_num(out, p->log_end >= 0, p->log_end);
			csv_num(out, p->has_lag, p->lag);
			csv_num(out, p->has_time_lag, p->time_lag_ms);
			csv_field(out, p->status == LT_STATUS_UNKNOWN ? NULL : status_name(p->status), false);
			csv_field(out, m ? m->member_id : NULL, false);
			csv_field(out, m ? m->host : NULL, false);
			csv_field(out, m ? m->client_id : NULL, true);
		}
		if (g->n_partitions == 0) {
			csv_field(out, g->group, false);
			csv_field(out, group_state_name(g->state), false);
			fputs(",,,,,,,,,,\n", out); /* the other 11 columns, empty */
		}
	}
}
