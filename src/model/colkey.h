/* colkey.h — the columns' sort keys (columns.c), shared with rows.c's sorts. */
#ifndef LAGTOP_MODEL_COLKEY_H
#define LAGTOP_MODEL_COLKEY_H

#include <stdbool.h>
#include <stdint.h>

#include "model/columns.h"

/* The column's key for r: unknown when r is not a row of the column's kind. */
void column_key(const lt_column *c, const lt_row *r, lt_sort_key *k);
/* Known before unknown, then the value ascending (negated when descending); 0 on a tie. */
int sort_key_compare(lt_key_kind kind, const lt_sort_key *a, const lt_sort_key *b, bool descending);
/* filter.c: does the filter match this one name (group id or topic)? */
bool filter_match_name(const lt_filter *f, const char *s);

/* The fixed tie-break: group, topic, partition, ascending. */
int row_tiebreak(const lt_row *a, const lt_row *b);

#endif
