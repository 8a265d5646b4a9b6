/* api_list_groups.c — ListGroups v0–v5. v3 is the first flexible version; v4 adds a states filter and
 * each group's state, v5 a types filter and each group's type ("classic" or "consumer").
 *
 * Filters follow Kafka's GroupMetadataManager.listGroups: a state matches case-insensitively after
 * trimming, a type case-insensitively; a group passes when each non-empty filter has a match, so a
 * filter naming only unknown states or types lists nothing. Every version lists both group types, each
 * with its own states and its protocol type ("consumer" for a consumer-protocol group). Dead groups
 * are gone, as from Kafka's group map.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "sim/api.h"
#include "util/xalloc.h"

struct filter {
	struct wire_str *names;
	int32_t n;
};

/* Reads a filter array (v4+) into f; the names point into the request. */
static void filter_read(struct wire_rd *rd, struct filter *f)
{
	f->n = wire_array(rd, true, 1);
	if (f->n < 0) {
		rd->err = true;
		f->n = 0;
	}
	f->names = xcalloc(f->n ? (size_t)f->n : 1, sizeof(*f->names));
	for (int32_t i = 0; i < f->n && !rd->err; i++)
		f->names[i] = wire_str(rd, true);
}

/* Java's String.trim(): every character up to ' ' goes. */
static struct wire_str trimmed(struct wire_str s)
{
	while (s.len > 0 && (unsigned char)s.p[0] <= ' ') {
		s.p++;
		s.len--;
	}
	while (s.len > 0 && (unsigned char)s.p[s.len - 1] <= ' ')
		s.len--;
	return s;
}

static bool eq_nocase(struct wire_str s, const char *name)
{
	if (s.len < 0 || (size_t)s.len != strlen(name))
		return false;
	for (int32_t i = 0; i < s.len; i++)
		if (tolower((unsigned char)s.p[i]) != tolower((unsigned char)name[i]))
			return false;
	return true;
}

static bool filter_pass(const struct filter *f, const char *value, bool trim)
{
	if (f->n == 0)
		return true;
	for (int32_t i = 0; i < f->n; i++)
		if (eq_nocase(trim ? trimmed(f->names[i]) : f->names[i], value))
			return true;
	return false;
}

static void put_groups(struct sim_req *req, struct wire_buf *out, const struct filter *states,
		       const struct filter *types)
{
	int16_t v = req->api_version;
	size_t slot = wire_put_array_slot(out, req->flex);
	int32_t n = 0;
	size_t it = 0;
	struct sim_group *g;
	while (!req->inject_err && (g = strmap_next(&req->st->groups, &it))) { /* a failing coordinator lists nothing */
		if (g->state == SIM_GROUP_DEAD)
			continue;
		if (sim_coordinator_for(req->st, g->group_id, strlen(g->group_id)) != req->node_id)
			continue;
		const char *state = sim_group_state_name(g->state), *type = sim_group_type_name(g->type);
		if (!filter_pass(states, state, true) || !filter_pass(types, type, false))
			continue;
		wire_put_str(out, g->group_id, req->flex);
		wire_put_str(out, g->protocol_type, req->flex);
		if (v >= 4)
			wire_put_str(out, state, req->flex);
		if (v >= 5)
			wire_put_str(out, type, req->flex);
		wire_put_tags(out, req->flex);
		n++;
	}
	wire_patch_array(out, slot, n, req->flex);
}

int sim_api_list_groups(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out)
{
	int16_t v = req->api_version;
	struct filter states = { 0 }, types = { 0 };
	if (v >= 4)
		filter_read(rd, &states);
	if (v >= 5)
		filter_read(rd, &types);
	wire_tags_skip(rd, req->flex);
	int rc = SIM_API_MALFORMED;
	if (!rd->err) {
		if (v >= 1)
			wire_put_i32(out, 0); /* throttle_time_ms */
		wire_put_i16(out, req->inject_err);
		put_groups(req, out, &states, &types);
		wire_put_tags(out, req->flex);
		rc = SIM_API_OK;
	}
	free(states.names);
	free(types.names);
	return rc;
}
