/* render.c — see render.h. */
#include "reset/render.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/timeparse.h"
#include "util/sanitize.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

/* Drops the blanks before the final newline (padding of the last column). */
static void trim_line(lt_strbuf *b)
{
	if (!b->len || b->s[b->len - 1] != '\n')
		return;
	size_t e = b->len - 1;
	while (e && b->s[e - 1] == ' ')
		e--;
	b->s[e] = '\n';
	b->s[e + 1] = '\0';
	b->len = e + 1;
}

char *reset_plan_table(const lt_reset_plan *p)
{
	/* names come from the cluster: shown in their terminal-safe form (the CSV export keeps them exact) */
	char *group = sanitize_dup(p->group, true);
	char **topics = xcalloc(p->n_rows + 1, sizeof *topics);
	int gw = max_int(15, display_width(p->group, true)), tw = 15;
	bool notes = false;
	for (size_t i = 0; i < p->n_rows; i++) {
		topics[i] = sanitize_dup(p->rows[i].topic, true);
		tw = max_int(tw, display_width(p->rows[i].topic, true));
		notes |= p->rows[i].note != NULL;
	}
	lt_strbuf b = { 0 };
	sb_printf(&b, "%-*s %-*s %-10s %-15s %-15s %-12s%s\n", gw, "GROUP", tw, "TOPIC", "PARTITION", "NEW-OFFSET",
		  "PREVIOUS-OFFSET", "DELTA", notes ? " NOTE" : "");
	trim_line(&b);
	for (size_t i = 0; i < p->n_rows; i++) {
		const lt_reset_row *r = &p->rows[i];
		char prev[24] = "-", delta[24] = "-", nw[24] = "-"; /* new "-": the commit is deleted */
		if (r->previous >= 0)
			snprintf(prev, sizeof prev, "%" PRId64, r->previous);
		if (r->new_offset >= 0)
			snprintf(nw, sizeof nw, "%" PRId64, r->new_offset);
		if (r->has_delta)
			snprintf(delta, sizeof delta, r->delta > 0 ? "+%" PRId64 : "%" PRId64, r->delta);
		sb_printf(&b, "%s%*s %s%*s %-10d %-15s %-15s %-12s%s%s", group, gw - display_width(p->group, true), "",
			  topics[i], tw - display_width(r->topic, true), "", r->partition, nw, prev, delta,
			  r->note ? " " : "", r->note ? r->note : "");
		sb_printf(&b, "\n");
		trim_line(&b);
		free(topics[i]);
	}
	free(topics);
	free(group);
	return sb_take(&b);
}

char *reset_plan_totals(const lt_reset_plan *p)
{
	lt_strbuf b = { 0 };
	size_t unchanged = p->n_rows - p->n_changed;
	sb_printf(&b, "%zu partition%s: %" PRId64 " message%s replayed, %" PRId64 " skipped", p->n_rows,
		  p->n_rows == 1 ? "" : "s", p->replayed, p->replayed == 1 ? "" : "s", p->skipped);
	if (unchanged)
		sb_printf(&b, ", %zu unchanged", unchanged);
	size_t no_prev = 0;
	for (size_t i = 0; i < p->n_rows; i++)
		no_prev += !p->rows[i].has_delta && p->rows[i].new_offset >= 0;
	if (no_prev)
		sb_printf(&b, ", %zu without a previous commit", no_prev);
	if (p->n_deletes)
		sb_printf(&b, ", %zu commit%s deleted (no commit before the reset)", p->n_deletes,
			  p->n_deletes == 1 ? "" : "s");
	return sb_take(&b);
}

char *reset_plan_target_text(const lt_reset_plan *p, const char *target_desc)
{
	const char *desc = target_desc ? target_desc : "-";
	if (!p || p->timestamp_ms < 0)
		return xstrdup(desc);
	char when[40];
	reset_format_time(p->timestamp_ms, when, sizeof when);
	return xasprintf("%s = %s", desc, when);
}
