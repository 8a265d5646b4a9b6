/* render.h — the plan as text: kafka-consumer-groups' table plus lagtop's columns, and a totals line.
 * Pure: returns newly allocated strings; the caller prints them. */
#ifndef LAGTOP_RESET_RENDER_H
#define LAGTOP_RESET_RENDER_H

#include "reset/plan.h"

/* GROUP TOPIC PARTITION NEW-OFFSET (kafka-consumer-groups' columns and widths: group and topic at least 15,
 * partition 10) followed by PREVIOUS-OFFSET, DELTA (+N skips, -N replays, "-" without a previous commit)
 * and, when any row has one, NOTE. One line per row, each ending in '\n'. */
char *reset_plan_table(const lt_reset_plan *p);

/* "3 partitions: 120 messages replayed, 40 skipped, 1 unchanged" (one line, no newline). */
char *reset_plan_totals(const lt_reset_plan *p);

/* The target as the operator typed it (target_desc) and, for to-datetime and by-duration, " = " and the
 * absolute time it resolved to: "to-datetime -10m = 2026-12-03T19:40:12.000Z". */
char *reset_plan_target_text(const lt_reset_plan *p, const char *target_desc);

#endif
