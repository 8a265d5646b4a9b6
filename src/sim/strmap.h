/* strmap.h — a string-keyed hash table (open addressing, linear probing, backward-shift deletion).
 *
 * The table does not own keys or values: a value usually holds its own name and the key points at it,
 * so the key must stay valid while the entry exists. Lookups take (pointer, length) so request strings
 * can be looked up without copying. Iterate with strmap_next().
 */
#ifndef LAGTOP_SIM_STRMAP_H
#define LAGTOP_SIM_STRMAP_H

#include <stddef.h>
#include <stdint.h>

struct strmap_slot {
	const char *key;
	size_t keylen;
	uint64_t hash;
	void *val;
};

struct strmap {
	struct strmap_slot *slots;
	size_t cap; /* power of two, or 0 */
	size_t count;
};

uint64_t strmap_hash(const char *key, size_t len); /* FNV-1a 64 */
void strmap_init(struct strmap *m);
void strmap_free(struct strmap *m); /* frees the table, not the values */
void *strmap_get(const struct strmap *m, const char *key, size_t len);
/* Inserts or replaces; returns the previous value or NULL. */
void *strmap_put(struct strmap *m, const char *key, void *val);
/* Removes; returns the removed value or NULL. */
void *strmap_del(struct strmap *m, const char *key, size_t len);
/* Iteration: size_t it = 0; while ((v = strmap_next(m, &it))) ... (no insert/delete meanwhile). */
void *strmap_next(const struct strmap *m, size_t *it);

#endif
