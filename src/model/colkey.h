/* colkey.h — sort keys of the columns (columns.c), shared with rows.c's decorated sort. */
#ifndef LAGTOP_MODEL_COLKEY_H
#define LAGTOP_MODEL_COLKEY_H

#include <stdbool.h>
#include <stdint.h>

#include "model/columns.h"

typedef enum { LT_KEY_INT, LT_KEY_DOUBLE, LT_KEY_STR } lt_key_kind;

typedef struct lt_sort_key {
	union {
		int64_t i;
		double d;
		const char *s;
	} v;
	bool known;
} lt_sort_key;

lt_key_kind column_key_kind(lt_col_id id);
void column_key(lt_col_id id, const lt_row *r, lt_sort_key *k);
/* Known before unknown, then the value ascending (negated when descending); 0 on a tie. */
int sort_key_compare(lt_key_kind kind, const lt_sort_key *a, const lt_sort_key *b, bool descending);
/* filter.c: does the filter match this one name (group id or topic)? */
bool filter_match_name(const lt_filter *f, const char *s);

/* The fixed tie-break: group, topic, partition, ascending. */
int row_tiebreak(const lt_row *a, const lt_row *b);

#endif
