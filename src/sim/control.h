/* control.h — the control operations on the cluster state, without locking: sim.c wraps each in the
 * cluster mutex for other threads; scenarios call them directly (at build time, or from a loop timer,
 * where the mutex is already held). */
#ifndef LAGTOP_SIM_CONTROL_H
#define LAGTOP_SIM_CONTROL_H

#include "sim/cluster.h"
#include "sim/sim.h"

struct sim_member *ctl_add_member(struct sim_state *st, const char *group, const struct sim_member_spec *spec,
				  char *err, size_t errlen);
int ctl_remove_member(struct sim_state *st, const char *group, const char *member_id, char *err, size_t errlen);
int ctl_set_group_state(struct sim_state *st, const char *group, enum sim_group_state s, char *err, size_t errlen);
int ctl_commit(struct sim_state *st, const char *group, const char *topic, int partition, int64_t offset,
	       const char *metadata, int64_t now_ms, char *err, size_t errlen);
struct sim_partition *ctl_partition(struct sim_state *st, const char *topic, int partition, char *err, size_t errlen);

/* Consumer-protocol (KIP-848) groups (control_consumer.c; sim.h has the semantics). ctl_remove_member and
 * ctl_set_group_state hand such groups to the two below. */
struct sim_member *ctl_add_consumer_member(struct sim_state *st, const char *group, const struct sim_member_spec *spec,
					   char *err, size_t errlen);
int ctl_consumer_remove_member(struct sim_state *st, struct sim_group *g, const char *member_id, char *err,
			       size_t errlen);
int ctl_consumer_set_state(struct sim_state *st, struct sim_group *g, enum sim_group_state s, char *err, size_t errlen);

#endif
