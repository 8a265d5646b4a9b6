/* test_sim_group_churn.c — five librdkafka consumers in one group, leaving one by one: after every leave
 * the group settles Stable with the remaining members owning all partitions exactly once; at the end it
 * is Empty. Rebalance times are printed, not asserted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <librdkafka/rdkafka.h>

#include "sim/sim.h"

#include "../lib/lagtop_test.h"
#include "../lib/cmocka_main.h"

#define NC    5
#define NPART 12

/* Partitions assigned to rk, as a bit set. */
static unsigned assigned(rd_kafka_t *rk)
{
	rd_kafka_topic_partition_list_t *l = NULL;
	assert_int_equal(rd_kafka_assignment(rk, &l), RD_KAFKA_RESP_ERR_NO_ERROR);
	unsigned bits = 0;
	for (int i = 0; i < l->cnt; i++)
		bits |= 1u << l->elems[i].partition;
	rd_kafka_topic_partition_list_destroy(l);
	return bits;
}

static void leave_one_by_one(void **state)
{
	(void)state;
	char err[256];
	sim_cluster *sim = test_sim_start(3, NULL);
	assert_int_equal(sim_create_topic(sim, "churn", NPART, err, sizeof err), 0);
	for (int p = 0; p < NPART; p++)
		assert_int_equal(sim_append(sim, "churn", p, 10000, 1600000000000LL, 1, err, sizeof err), 0);

	rd_kafka_t *c[NC];
	for (int i = 0; i < NC; i++) {
		char id[16];
		snprintf(id, sizeof id, "churn-%d", i);
		rd_kafka_conf_t *k = rdk_group_member_conf(sim_bootstrap(sim), "churn-g", id);
		rdk_conf_set(k, "heartbeat.interval.ms", "200");
		c[i] = rdk_consumer_subscribed(k, "churn");
	}
	for (int gone = 0; gone < NC; gone++) {
		int alive = NC - gone;
		int64_t start = test_mono_ms();
		bool settled = false;
		while (!settled && test_mono_ms() - start < 20000) {
			unsigned all = 0;
			int owners = 0;
			bool overlap = false;
			for (int i = gone; i < NC; i++) {
				rd_kafka_message_t *m = rd_kafka_consumer_poll(c[i], 5);
				if (m)
					rd_kafka_message_destroy(m);
				unsigned mine = assigned(c[i]);
				overlap |= (all & mine) != 0;
				all |= mine;
				owners += mine != 0;
			}
			char st[32];
			int members = sim_group_info(sim, "churn-g", st, sizeof st);
			settled = !overlap && all == (1u << NPART) - 1 && owners == alive && members == alive &&
				  !strcmp(st, "Stable");
		}
		print_message("# %d members: settled after %" PRId64 " ms\n", alive, test_mono_ms() - start);
		assert_true(settled);
		assert_int_equal(rd_kafka_consumer_close(c[gone]), 0);
		rd_kafka_destroy(c[gone]);
	}
	char st[32];
	assert_int_equal(sim_group_info(sim, "churn-g", st, sizeof st), 0);
	assert_string_equal(st, "Empty");
	sim_free(sim);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(leave_one_by_one),
};

LT_TEST_MAIN(NULL, NULL)
