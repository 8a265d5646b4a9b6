/* model_pending.c — TEMPORARY stand-in for src/model's history/enrich (branch `model`), so that the
 * collector links and --once prints lags before the model lands. It fills only lag, the
 * out-of-range/ahead flags and the group totals: no history, rates, time lag or status.
 * Delete this file (and its line in src/kafka/local.mk) when the model is merged. */
#include "config.h"

#include <stdlib.h>

#include "model/model.h"
#include "util/xalloc.h"

struct lt_history {
	int unused;
};

void model_params_default(lt_model_params *p)
{
	p->allowed_lag = 0;
	p->window = 10;
	p->ring_capacity = 64;
	p->forget_after = 30;
}

lt_history *history_new(const lt_model_params *p)
{
	(void)p;
	return xcalloc(1, sizeof(lt_history));
}

void history_free(lt_history *h)
{
	free(h);
}

void model_enrich(lt_history *h, lt_snapshot *s)
{
	(void)h;
	for (size_t g = 0; g < s->n_groups; g++) {
		lt_group *gr = &s->groups[g];
		gr->total_lag = gr->max_lag = 0;
		for (size_t k = 0; k < gr->n_partitions; k++) {
			lt_partition *p = &gr->partitions[k];
			p->has_lag = p->committed >= 0 && p->log_end >= 0;
			if (!p->has_lag)
				continue;
			if (p->log_start >= 0 && p->committed < p->log_start)
				p->flags |= LT_PF_OUT_OF_RANGE;
			if (p->committed > p->log_end)
				p->flags |= LT_PF_AHEAD_OF_END;
			p->lag = p->committed > p->log_end ? 0 : p->log_end - p->committed;
			gr->total_lag += p->lag;
			if (p->lag > gr->max_lag)
				gr->max_lag = p->lag;
		}
	}
}

size_t history_partition_lags(const lt_history *h, const char *group, const char *topic, int32_t partition,
			      int64_t *out, size_t max)
{
	(void)h, (void)group, (void)topic, (void)partition, (void)out, (void)max;
	return 0;
}
