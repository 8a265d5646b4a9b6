/* markset.h — the marked partitions of one group (the partitions pane's multi-select): a set of
 * (topic, partition) identities, so marks survive refreshes and re-sorts like the cursor's row_key.
 * Kept sorted by (topic, partition); pure C, no I/O.
 *
 *   markset_toggle(&m, row)   mark or unmark a partition row (returns whether it is marked now)
 *   markset_prune(&m, group)  after a refresh: forget marks whose partition the group no longer has
 *   markset_scopes(&m, &n)    the marks as --topic arguments, "T:P,P,..." one per topic
 */
#ifndef LAGTOP_MODEL_MARKSET_H
#define LAGTOP_MODEL_MARKSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/columns.h"
#include "model/snapshot.h"

typedef struct lt_mark {
	char *topic;
	int32_t partition;
} lt_mark;

typedef struct lt_markset {
	size_t n, cap;
	lt_mark *marks; /* sorted by (topic, partition), unique */
} lt_markset;

/* Only partition rows can be marked: other rows are ignored (toggle returns false). */
bool markset_toggle(lt_markset *m, const lt_row *r);
bool markset_has(const lt_markset *m, const lt_row *r);
bool markset_has_tp(const lt_markset *m, const char *topic, int32_t partition);
/* Drops marks for partitions g does not have (g NULL: every mark). Returns how many went. */
size_t markset_prune(lt_markset *m, const lt_group *g);
void markset_clear(lt_markset *m); /* empty, storage freed */
/* The marks grouped by topic as kafka-consumer-groups' --topic arguments ("orders:1,3"), in order;
 * a NULL-terminated malloc'd array of malloc'd strings (free each, then the array). */
char **markset_scopes(const lt_markset *m, size_t *n);

#endif
