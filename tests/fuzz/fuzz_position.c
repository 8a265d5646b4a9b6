/* fuzz_position.c — libFuzzer harness for the two position parsers (src/position): Prometheus' text format
 * and librdkafka's statistics JSON, on the same arbitrary bytes. Properties checked, not only "no crash":
 * every report names a client id and a topic (non-empty C strings within the input's size) and a partition
 * ≥ 0, a statistics position is ≥ 0, the list is sorted and unique as pos_reports_find needs, and every
 * report can be found again; a parsed line's label values fit in the line (the scratch buffer's size). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "position/prom.h"
#include "position/rdkstats.h"
#include "position/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const lt_pos_reports *r, size_t size, bool nonneg)
{
	if (r->n_bad > r->n_units || r->n_matched < r->n)
		abort();
	for (size_t i = 0; i < r->n; i++) {
		const lt_pos_report *p = &r->v[i];
		if (!p->client_id[0] || !p->topic[0] || strlen(p->client_id) > size || strlen(p->topic) > size ||
		    p->partition < 0 || (nonneg && p->value < 0))
			abort();
		if (i && strcmp(r->v[i - 1].client_id, p->client_id) == 0 && strcmp(r->v[i - 1].topic, p->topic) == 0 &&
		    r->v[i - 1].partition == p->partition && r->v[i - 1].kind >= p->kind)
			abort(); /* not sorted by kind, or a duplicate */
		const lt_pos_report *f = pos_reports_find(r, p->client_id, p->topic, p->partition);
		if (!f || f->kind > p->kind)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 18)
		return 0;
	const char *text = (const char *)data;

	lt_pos_reports r;
	pos_reports_init(&r);
	prom_extract_positions(text, size, &prom_names_builtin, &r);
	check(&r, size, false);
	pos_reports_free(&r);

	/* every metric is a position metric, labels named by the first byte: more samples reach the checks */
	lt_prom_names any = { .position = { "a", "x", "m" },
			      .lead = { "b" },
			      .lag = { "c" },
			      .client_label = "c",
			      .topic_label = "t",
			      .partition_label = "p" };
	pos_reports_init(&r);
	prom_extract_positions(text, size, &any, &r);
	check(&r, size, false);
	pos_reports_free(&r);

	const char *nl = memchr(text, '\n', size);
	size_t len = nl ? (size_t)(nl - text) : size;
	char *scratch = malloc(len + 1);
	lt_prom_sample s;
	const char *why = NULL;
	int rc = prom_parse_line(text, len, &s, scratch, &why);
	if (rc < 0 && !why)
		abort();
	if (rc > 0) {
		size_t total = 0;
		for (size_t k = 0; k < s.n_labels; k++) {
			total += s.labels[k].value.len;
			if (!s.labels[k].name.len || s.labels[k].value.s < scratch ||
			    s.labels[k].value.s > scratch + len)
				abort();
		}
		if (total > len || !s.name.len || s.n_labels > LT_PROM_MAX_LABELS)
			abort();
	}
	free(scratch);

	pos_reports_init(&r);
	rdkstats_extract_positions(text, size, &r);
	check(&r, size, true);
	pos_reports_free(&r);
	return 0;
}
