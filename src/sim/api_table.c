/* api_table.c — every API the sim knows: key, name, served versions, first flexible version, handler.
 *
 * Versions follow ../shared/PROTOCOL.md: the highest each client uses, non-flexible where the flexible
 * form buys nothing; for the group admin APIs the newest Kafka has (DescribeGroups v6, ListGroups v5,
 * ConsumerGroupDescribe v1), so a differential test against a real broker sees the same answers.
 * A NULL handler means "not yet": the API is not advertised and answers UNSUPPORTED_VERSION. Keep rows
 * sorted by key.
 */
#include "sim/api.h"

#define NEVER INT16_MAX

const struct sim_api sim_api_table[] = {
	{KAPI_PRODUCE, "Produce", 0, 7, 9, sim_api_produce},
	{KAPI_FETCH, "Fetch", 4, 11, 12, sim_api_fetch},
	{KAPI_LIST_OFFSETS, "ListOffsets", 1, 2, 6, sim_api_list_offsets},
	{KAPI_METADATA, "Metadata", 0, 4, 9, sim_api_metadata},
	{KAPI_OFFSET_COMMIT, "OffsetCommit", 0, 7, 8, sim_api_offset_commit},
	{KAPI_OFFSET_FETCH, "OffsetFetch", 0, 7, 6, sim_api_offset_fetch},
	{KAPI_FIND_COORDINATOR, "FindCoordinator", 0, 2, 3, sim_api_find_coordinator},
	{KAPI_JOIN_GROUP, "JoinGroup", 0, 5, 6, sim_api_join_group},
	{KAPI_HEARTBEAT, "Heartbeat", 0, 3, 4, sim_api_heartbeat},
	{KAPI_LEAVE_GROUP, "LeaveGroup", 0, 1, 4, sim_api_leave_group},
	{KAPI_SYNC_GROUP, "SyncGroup", 0, 3, 4, sim_api_sync_group},
	{KAPI_DESCRIBE_GROUPS, "DescribeGroups", 0, 6, 5, sim_api_describe_groups},
	{KAPI_LIST_GROUPS, "ListGroups", 0, 5, 3, sim_api_list_groups},
	{KAPI_API_VERSIONS, "ApiVersions", 0, 3, 3, sim_api_api_versions},
	{KAPI_CREATE_TOPICS, "CreateTopics", 0, 4, 5, sim_api_create_topics},
	{KAPI_DESCRIBE_CONFIGS, "DescribeConfigs", 0, 2, 4, sim_api_describe_configs},
	{KAPI_DELETE_GROUPS, "DeleteGroups", 0, 1, 2, sim_api_delete_groups},
	{KAPI_OFFSET_DELETE, "OffsetDelete", 0, 0, NEVER, sim_api_offset_delete},
	{KAPI_CONSUMER_GROUP_DESCRIBE, "ConsumerGroupDescribe", 0, 1, 0, sim_api_consumer_group_describe},
};

const size_t sim_api_table_len = sizeof(sim_api_table) / sizeof(sim_api_table[0]);

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
