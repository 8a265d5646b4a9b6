/* csv.h — kafka-consumer-groups' reset CSV, pure (text in, text out; the caller reads and writes files).
 *
 * No header. One group: topic,partition,offset. Several groups: group,topic,partition,offset.
 * Records are RFC 4180 CSV read by util/csv.h's strict reader (the one CSV reader): a quoted field may hold
 * commas, doubled quotes and line breaks (a group id may be any string); a quoting error is the reader's
 * "line N: … at column C". The export writes names as util/csv.h's text cells (terminal-safe, formula-
 * guarded, quoted when needed); the import takes the formula guard off a group or topic field
 * (csv_formula_unguard). A backup holds exact names, quoted when needed, never guarded.
 * Import (kafka-consumer-groups' rule): if the first line has 3 fields (and lagtop always resets exactly
 * one group) the whole file is the 3-column form for that group; otherwise every line has 4 fields and the
 * rows of the group are kept. No row for the group: "No reset plan for group g found.".
 * Strict: every line has the form's field count, a non-empty legal topic name, a partition 0..2^31-1 and an
 * offset 0..2^63-1; the first bad line is reported as "line N: …". Blank lines are skipped; CRLF is fine.
 * A partition given twice with different offsets is an error (kafka-consumer-groups would silently keep
 * the last one).
 *
 * lagtop's backups add one form: an empty offset column ("pay,2,") records a partition that had no
 * commit before the reset. Only a backup read for --undo accepts it (reset_csv_parse_ex with
 * no_commit_rows; the row's offset is LT_OFFSET_NONE), and it is restored by deleting the partition's
 * committed offset; --from-file keeps kafka-consumer-groups' rule (an offset is a number). Backups
 * written before this form (no such rows) read as before.
 */
#ifndef LAGTOP_RESET_CSV_H
#define LAGTOP_RESET_CSV_H

#include <stdbool.h>
#include <stddef.h>

#include "reset/plan.h"

/* Parses the file text; fills the rows for `group` (caller frees with reset_csv_rows_free). */
int reset_csv_parse(const char *text, const char *group, lt_reset_csv_row **rows, size_t *n, char *err, size_t errlen);
/* The same; backup reads one of lagtop's backups (--undo): an empty offset is "no commit", any non-empty
 * topic name is taken as it is, and no formula guard is taken off. */
int reset_csv_parse_ex(const char *text, const char *group, bool backup, lt_reset_csv_row **rows, size_t *n, char *err,
		       size_t errlen);
void reset_csv_rows_free(lt_reset_csv_row *rows, size_t n);

/* --export: the plans as CSV (3 columns for one plan, 4 with the group for several; a delete row has an
 * empty offset, as in a backup). Newly allocated. */
char *reset_csv_export(const lt_reset_plan *const *plans, size_t n_plans);

/* The backup written before a commit: a row for every partition of `in` (the plan's partitions) with its
 * current committed offset, 3-column form, sorted; a partition without a commit gets an empty offset
 * ("pay,2,"), so --undo can delete the commit the reset created. Newly allocated. */
char *reset_csv_backup(const lt_reset_input *in);

/* Checks a backup's text as --undo will read it (reset_csv_parse_ex, backup form): it must hold exactly the
 * partitions of `in` with their committed offsets. 0, or -1 with err ("it does not read back: ..."). */
int reset_csv_backup_check(const char *text, const lt_reset_input *in, char *err, size_t errlen);

#endif
