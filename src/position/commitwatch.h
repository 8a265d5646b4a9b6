/* commitwatch.h — "not committing": a consumer whose position moves while its committed offset does not.
 *
 * Such a consumer looks healthy (it reads, its lag may even be small if it commits elsewhere) until it
 * restarts and replays everything since its last commit. Per (group, topic, partition) the watch remembers
 * when the committed offset last changed and the position at that time; a partition is flagged
 * LT_PF_NOT_COMMITTING when the committed offset has stayed the same (or absent) for the whole window while
 * the position advanced past where it was and past the committed offset. An idle consumer (position still)
 * is not flagged, nor one that commits at least once per window.
 *
 * Why not the model's history rings (src/model/history.c): they pack committed and log-end samples per
 * refresh for hundreds of thousands of partitions; this needs three numbers per partition that has a
 * reported position, and a duration rather than a number of samples. Pure: time comes from the snapshot. */
#ifndef LAGTOP_POSITION_COMMITWATCH_H
#define LAGTOP_POSITION_COMMITWATCH_H

#include <stdint.h>

#include "model/snapshot.h"

typedef struct lt_commitwatch lt_commitwatch;

lt_commitwatch *commitwatch_new(int64_t window_ms);
void commitwatch_free(lt_commitwatch *w);
/* Records s (at s->taken_at_ms) and sets or clears LT_PF_NOT_COMMITTING on each of its partitions.
 * Only partitions that have had a position are remembered; those not seen for 30 calls are forgotten. */
void commitwatch_apply(lt_commitwatch *w, lt_snapshot *s);

#endif
