/* api_table.c — every API the sim knows: key, name, served versions, first flexible version, handler.
 *
 * The ranges are Kafka 4.x's (KIP-896 removed the oldest versions in 4.0), capped at the newest version
 * the sim implements: the newest each client of the project uses, and for the group admin APIs the
 * newest Kafka has (DescribeGroups v6, ListGroups v5, ConsumerGroupDescribe v1), so a differential test
 * against a real broker sees the same answers. kafka3_ranges below puts back what Kafka 3.9 still served.
 * A NULL handler means "not yet": the API is not advertised, and a request for it closes the
 * connection. Keep rows sorted by key.
 */
#include "sim/api.h"

#define NEVER INT16_MAX

const struct sim_api sim_api_table[] = {
	{ KAPI_PRODUCE, "Produce", 3, 7, 9, sim_api_produce },
	{ KAPI_FETCH, "Fetch", 4, 11, 12, sim_api_fetch },
	{ KAPI_LIST_OFFSETS, "ListOffsets", 1, 2, 6, sim_api_list_offsets },
	{ KAPI_METADATA, "Metadata", 0, 4, 9, sim_api_metadata },
	{ KAPI_OFFSET_COMMIT, "OffsetCommit", 2, 7, 8, sim_api_offset_commit },
	{ KAPI_OFFSET_FETCH, "OffsetFetch", 1, 7, 6, sim_api_offset_fetch },
	{ KAPI_FIND_COORDINATOR, "FindCoordinator", 0, 2, 3, sim_api_find_coordinator },
	{ KAPI_JOIN_GROUP, "JoinGroup", 0, 5, 6, sim_api_join_group }, /* v0–1: 4.0.0 refused them, 4.0.1 restored */
	{ KAPI_HEARTBEAT, "Heartbeat", 0, 3, 4, sim_api_heartbeat },
	{ KAPI_LEAVE_GROUP, "LeaveGroup", 0, 1, 4, sim_api_leave_group },
	{ KAPI_SYNC_GROUP, "SyncGroup", 0, 3, 4, sim_api_sync_group },
	{ KAPI_DESCRIBE_GROUPS, "DescribeGroups", 0, 6, 5, sim_api_describe_groups },
	{ KAPI_LIST_GROUPS, "ListGroups", 0, 5, 3, sim_api_list_groups },
	{ KAPI_API_VERSIONS, "ApiVersions", 0, 3, 3, sim_api_api_versions },
	{ KAPI_CREATE_TOPICS, "CreateTopics", 2, 4, 5, sim_api_create_topics },
	{ KAPI_DELETE_RECORDS, "DeleteRecords", 0, 1, 2, sim_api_delete_records },
	{ KAPI_DESCRIBE_CONFIGS, "DescribeConfigs", 1, 2, 4, sim_api_describe_configs },
	{ KAPI_DELETE_GROUPS, "DeleteGroups", 0, 1, 2, sim_api_delete_groups },
	{ KAPI_OFFSET_DELETE, "OffsetDelete", 0, 0, NEVER, sim_api_offset_delete },
	{ KAPI_CONSUMER_GROUP_DESCRIBE, "ConsumerGroupDescribe", 0, 1, 0, sim_api_consumer_group_describe },
};

const size_t sim_api_table_len = sizeof(sim_api_table) / sizeof(sim_api_table[0]);

/* Kafka 3.9's ranges where they differ: the versions KIP-896 removed, and the newest versions that came
 * with 4.0 (DescribeGroups v6 of KIP-1043, ConsumerGroupDescribe v1 of KIP-1099). */
static const struct {
	int16_t key, min, max;
} kafka3_ranges[] = {
	{ KAPI_PRODUCE, 0, 7 },
	{ KAPI_OFFSET_COMMIT, 0, 7 },
	{ KAPI_OFFSET_FETCH, 0, 7 },
	{ KAPI_DESCRIBE_GROUPS, 0, 5 },
	{ KAPI_CREATE_TOPICS, 0, 4 },
	{ KAPI_DESCRIBE_CONFIGS, 0, 2 },
	{ KAPI_CONSUMER_GROUP_DESCRIBE, 0, 0 },
};

bool sim_api_served(const struct sim_api *a, int kafka_major, int kafka_minor, struct sim_api_range *r)
{
	if (!a || !a->fn)
		return false;
	/* Kafka 3.6 predates KIP-848's admin APIs: no ConsumerGroupDescribe, ListGroups up to v4 (the states
	 * filter of 2.6; v5's types filter is KIP-848's). librdkafka >= 2.10 then falls back from
	 * ConsumerGroupDescribe to DescribeGroups without sending a request. */
	if (kafka_major == 3 && kafka_minor == 6 && a->key == KAPI_CONSUMER_GROUP_DESCRIBE)
		return false;
	*r = (struct sim_api_range){ a->min_version, a->max_version, a->min_version };
	if (kafka_major == 3) {
		for (size_t i = 0; i < sizeof(kafka3_ranges) / sizeof(kafka3_ranges[0]); i++) {
			if (kafka3_ranges[i].key == a->key) {
				r->min = r->advertised_min = kafka3_ranges[i].min;
				r->max = kafka3_ranges[i].max;
			}
		}
		if (kafka_minor == 6 && a->key == KAPI_LIST_GROUPS)
			r->max = 4;
	} else if (a->key == KAPI_PRODUCE) {
		/* ApiKeys.PRODUCE_API_VERSIONS_RESPONSE_MIN_VERSION: older librdkafka releases derive their
		 * message-format features from Produce ranges that start at v0 and fail compressed produce
		 * otherwise (KAFKA-18659), so 4.x lists v0 in ApiVersions yet refuses v0–2 like any removed
		 * version. */
		r->advertised_min = 0;
	}
	return true;
}

const struct sim_api *sim_api_find(int16_t key)
{
	for (size_t i = 0; i < sim_api_table_len; i++)
		if (sim_api_table[i].key == key)
			return &sim_api_table[i];
	return NULL;
}

const char *sim_api_name(int16_t key)
{
	const struct sim_api *a = sim_api_find(key);
	return a ? a->name : NULL;
}
