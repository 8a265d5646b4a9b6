/* api_describe_configs.c — DescribeConfigs v0–v2, enough for lagtop to learn offsets.retention.minutes.
 *
 * BROKER resources: the answering broker's own id (as Kafka requires; "" gives the cluster-wide dynamic
 * defaults, of which the sim has none) → the group-coordinator settings below, as a broker running with
 * Kafka's defaults reports them. TOPIC resources: cleanup.policy and retention.ms (__consumer_offsets
 * is compacted). Requested key lists filter the answer; unknown keys are left out, as Kafka does.
 * v0 carries is_default, v1+ config_source and synonyms (the entry itself, when asked for).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/api.h"
#include "sim/offsets_expiry.h"
#include "sim/offsets_log.h"

enum { RES_TOPIC = 2, RES_BROKER = 4 };
enum { SRC_TOPIC_CONFIG = 1, SRC_STATIC_BROKER = 4, SRC_DEFAULT = 5 };

struct cfg {
	const char *name;
	char value[32];
	bool read_only;
	int8_t source;
};

static size_t broker_configs(const struct sim_req *req, struct cfg *c)
{
	size_t n = 0;
	c[n] = (struct cfg){ .name = "broker.id", .read_only = true, .source = SRC_STATIC_BROKER };
	snprintf(c[n++].value, sizeof c->value, "%d", req->node_id);
	c[n] = (struct cfg){ .name = "offsets.retention.minutes", .read_only = true, .source = SRC_DEFAULT };
	snprintf(c[n++].value, sizeof c->value, "%lld", (long long)(sim_offsets_retention_ms(req->st) / 60000));
	c[n] = (struct cfg){ .name = "offsets.retention.check.interval.ms", .read_only = true, .source = SRC_DEFAULT };
	snprintf(c[n++].value, sizeof c->value, "%lld", (long long)sim_offsets_retention_check_interval_ms(req->st));
	c[n] = (struct cfg){ .name = "offsets.topic.num.partitions", .read_only = true, .source = SRC_DEFAULT };
	snprintf(c[n++].value, sizeof c->value, "%d", SIM_OFFSETS_PARTITIONS);
	return n;
}

static size_t topic_configs(const char *topic, struct cfg *c)
{
	bool offsets = strcmp(topic, SIM_OFFSETS_TOPIC) == 0;
	size_t n = 0;
	c[n] = (struct cfg){ .name = "cleanup.policy", .source = offsets ? SRC_TOPIC_CONFIG : SRC_DEFAULT };
	snprintf(c[n++].value, sizeof c->value, "%s", offsets ? "compact" : "delete");
	c[n] = (struct cfg){ .name = "retention.ms", .source = SRC_DEFAULT };
	snprintf(c[n++].value, sizeof c->value, "%d", 604800000);
	return n;
}

/* Whether name is among the requested keys (keys_at: the key array inside the request; n -1: all). */
static bool wanted(const struct wire_rd *req_rd, size_t keys_at, int32_t n, const char *name)
{
	if (n < 0)
		return true;
	struct wire_rd rd = *req_rd;
	rd.off = keys_at;
	for (int32_t i = 0; i < n; i++)
		if (wire_str_eq(wire_str(&rd, false), name))
			return true;
	return false;
}

int sim_api_describe_configs(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out)
{
	int16_t v = req->api_version;
	int32_t nres = wire_array(rd, false, 1 + 2 + 4);
	size_t res_at = rd->off;
	for (int32_t i = 0; i < nres && !rd->err; i++) {
		(void)wire_i8(rd);
		(void)wire_str(rd, false);
		int32_t nk = wire_array(rd, false, 2);
		for (int32_t k = 0; k < nk && !rd->err; k++)
			(void)wire_str(rd, false);
	}
	bool synonyms = v >= 1 ? wire_bool(rd) : false;
	if (rd->err || nres < 0)
		return SIM_API_MALFORMED;

	wire_put_i32(out, 0); /* throttle_time_ms */
	wire_put_array(out, nres, false);
	rd->off = res_at;
	for (int32_t i = 0; i < nres; i++) {
		int8_t type = wire_i8(rd);
		struct wire_str name = wire_str(rd, false);
		int32_t nk = wire_array(rd, false, 2);
		size_t keys_at = rd->off;
		for (int32_t k = 0; k < nk; k++)
			(void)wire_str(rd, false);

		char *rname = wire_str_dup(name);
		struct cfg cfgs[8];
		size_t ncfg = 0;
		int16_t err = KERR_NONE;
		char msg[200] = "";
		char self[16];
		snprintf(self, sizeof self, "%d", req->node_id);
		if (!rname) {
			err = KERR_INVALID_REQUEST;
			snprintf(msg, sizeof msg, "null resource name");
		} else if (type == RES_BROKER) {
			if (strcmp(rname, self) == 0)
				ncfg = broker_configs(req, cfgs);
			else if (rname[0] != '\0') {
				err = KERR_INVALID_REQUEST;
				snprintf(msg, sizeof msg,
					 "Unexpected broker id, expected %d or empty string, but received %.40s",
					 req->node_id, rname);
			}
		} else if (type == RES_TOPIC) {
			if (sim_topic_find(req->st, rname, strlen(rname)))
				ncfg = topic_configs(rname, cfgs);
			else {
				err = KERR_UNKNOWN_TOPIC_OR_PARTITION;
				snprintf(msg, sizeof msg, "The topic '%.80s' does not exist.", rname);
			}
		} else {
			err = KERR_INVALID_REQUEST;
			snprintf(msg, sizeof msg, "Unsupported resource type %d", type);
		}

		wire_put_i16(out, err);
		wire_put_str(out, err ? msg : NULL, false);
		wire_put_i8(out, type);
		wire_put_strn(out, name.p, name.len < 0 ? 0 : name.len, false);
		size_t slot = wire_put_array_slot(out, false);
		int32_t nout = 0;
		for (size_t c = 0; c < ncfg; c++) {
			if (!wanted(rd, keys_at, nk, cfgs[c].name))
				continue;
			nout++;
			wire_put_str(out, cfgs[c].name, false);
			wire_put_str(out, cfgs[c].value, false);
			wire_put_bool(out, cfgs[c].read_only);
			if (v == 0)
				wire_put_bool(out, cfgs[c].source == SRC_DEFAULT); /* is_default */
			else
				wire_put_i8(out, cfgs[c].source);
			wire_put_bool(out, false); /* is_sensitive */
			if (v >= 1) {
				wire_put_array(out, synonyms ? 1 : 0, false);
				if (synonyms) {
					wire_put_str(out, cfgs[c].name, false);
					wire_put_str(out, cfgs[c].value, false);
					wire_put_i8(out, cfgs[c].source);
				}
			}
		}
		wire_patch_array(out, slot, nout, false);
		free(rname);
	}
	return SIM_API_OK;
}
