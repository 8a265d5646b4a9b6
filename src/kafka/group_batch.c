/* group_batch.c — rd_kafka_list_groups on a thread of its own (group_batch.h). */
#include "kafka/group_batch.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

struct lt_group_batch {
	rd_kafka_t *rk;
	rd_kafka_queue_t *wake;
	int timeout_ms;
	pthread_t thread;
	bool started; /* the thread runs (else the answer is empty) */
	atomic_bool ready;
	rd_kafka_resp_err_t err;
	const struct rd_kafka_group_list *list;
	const struct rd_kafka_group_info **by_name; /* the list's groups sorted by name */
	size_t n;
};

static int cmp_info(const void *a, const void *b)
{
	return strcmp((*(const struct rd_kafka_group_info *const *)a)->group,
		      (*(const struct rd_kafka_group_info *const *)b)->group);
}

/* Keeps only the groups described once (by_name sorted): two brokers listing one group means its
 * coordinator moved between their answers, and which of the two is current is not known here, so the
 * per-group describe, which asks the coordinator FindCoordinator names now, settles it. Returns how many
 * are kept. */
static size_t drop_repeated(const struct rd_kafka_group_info **by_name, size_t n)
{
	size_t kept = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && cmp_info(&by_name[i], &by_name[j]) == 0)
			j++;
		if (j == i + 1)
			by_name[kept++] = by_name[i];
		i = j;
	}
	return kept;
}

/* The answer's groups, sorted by name for group_batch_find, each described once (drop_repeated). */
static void batch_index(lt_group_batch *b, const struct rd_kafka_group_list *list)
{
	size_t n = list && list->group_cnt > 0 ? (size_t)list->group_cnt : 0;
	b->by_name = xcalloc(n + 1, sizeof *b->by_name);
	for (size_t i = 0; i < n; i++)
		if (list->groups[i].group)
			b->by_name[b->n++] = &list->groups[i];
	qsort(b->by_name, b->n, sizeof *b->by_name, cmp_info);
	b->n = drop_repeated(b->by_name, b->n);
}

static void *batch_main(void *arg)
{
	lt_group_batch *b = arg;
	const struct rd_kafka_group_list *list = NULL;
	b->err = rd_kafka_list_groups(b->rk, NULL, &list, b->timeout_ms);
	if (b->err != RD_KAFKA_RESP_ERR_NO_ERROR && b->err != RD_KAFKA_RESP_ERR__PARTIAL)
		list = NULL; /* librdkafka leaves it untouched then */
	b->list = list;
	batch_index(b, list);
	atomic_store(&b->ready, true);
	if (b->wake)
		rd_kafka_queue_yield(b->wake);
	return NULL;
}

lt_group_batch *group_batch_over(const struct rd_kafka_group_list *list)
{
	lt_group_batch *b = xcalloc(1, sizeof *b);
	atomic_init(&b->ready, true);
	batch_index(b, list);
	return b;
}

lt_group_batch *group_batch_start(rd_kafka_t *rk, rd_kafka_queue_t *wake, int timeout_ms)
{
	lt_group_batch *b = xcalloc(1, sizeof *b);
	b->rk = rk;
	b->wake = wake;
	b->timeout_ms = timeout_ms > 0 ? timeout_ms : 1;
	atomic_init(&b->ready, false);
	b->started = pthread_create(&b->thread, NULL, batch_main, b) == 0;
	if (!b->started) {
		/* no thread: an empty answer, so that every group takes the per-group path */
		b->err = RD_KAFKA_RESP_ERR__FAIL;
		b->by_name = xcalloc(1, sizeof *b->by_name);
		atomic_store(&b->ready, true);
	}
	return b;
}

bool group_batch_ready(const lt_group_batch *b)
{
	return atomic_load(&((lt_group_batch *)b)->ready);
}

const struct rd_kafka_group_info *group_batch_find(const lt_group_batch *b, const char *group)
{
	struct rd_kafka_group_info key = { .group = (char *)group };
	const struct rd_kafka_group_info *kp = &key;
	const struct rd_kafka_group_info **hit =
		b->n ? bsearch(&kp, b->by_name, b->n, sizeof *b->by_name, cmp_info) : NULL;
	return hit ? *hit : NULL;
}

void group_batch_free(lt_group_batch *b)
{
	if (!b)
		return;
	if (b->started)
		pthread_join(b->thread, NULL);
	if (b->list)
		rd_kafka_group_list_destroy(b->list);
	free(b->by_name);
	free(b);
}

bool group_batch_member_dynamic(const char *member_id, const char *client_id)
{
	static const char uuid_shape[] = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
	size_t n = strlen(client_id ? client_id : ""), u = sizeof uuid_shape - 1;
	if (!member_id || strlen(member_id) != n + 1 + u || strncmp(member_id, client_id ? client_id : "", n) != 0 ||
	    member_id[n] != '-')
		return false;
	for (size_t i = 0; i < u; i++) {
		char c = member_id[n + 1 + i];
		bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
		if (uuid_shape[i] == '-' ? c != '-' : !hex)
			return false;
	}
	return true;
}
