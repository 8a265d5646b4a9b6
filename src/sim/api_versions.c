/* api_versions.c — ApiVersions v0–v3. v3 is flexible, but its response header has no tagged fields (the
 * one exception in the protocol, handled by the server), so an old client can always read the error. */
#include "sim/api.h"

int sim_api_api_versions(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out)
{
	bool flex = req->flex;
	if (req->api_version >= 3) {
		/* client_software_name, client_software_version: informational only. */
		(void)wire_str(rd, true);
		(void)wire_str(rd, true);
		wire_tags_skip(rd, true);
		if (rd->err)
			return SIM_API_MALFORMED;
	}
	wire_put_i16(out, KERR_NONE);
	struct sim_api_range r;
	int32_t n = 0;
	for (size_t i = 0; i < sim_api_table_len; i++)
		n += sim_api_served(&sim_api_table[i], req->st->kafka_major, req->st->kafka_minor, &r);
	wire_put_array(out, n, flex);
	for (size_t i = 0; i < sim_api_table_len; i++) {
		const struct sim_api *a = &sim_api_table[i];
		if (!sim_api_served(a, req->st->kafka_major, req->st->kafka_minor, &r))
			continue;
		wire_put_i16(out, a->key);
		wire_put_i16(out, r.advertised_min);
		wire_put_i16(out, r.max);
		wire_put_tags(out, flex);
	}
	if (req->api_version >= 1)
		wire_put_i32(out, 0); /* throttle_time_ms */
	wire_put_tags(out, flex);
	return SIM_API_OK;
}
