/* reset_preview.c — a reset's preview, the one path the command line and the dashboard share (see
 * reset_exec.h): read what the planner needs, ask the guard, plan. */
#include "kafka/reset_exec.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

lt_preview_status reset_exec_preview(lt_reset_conn *c, const lt_reset_request *rq, lt_reset_preview *out)
{
	char err[1024], msg[8192];
	memset(out, 0, sizeof *out);
	lt_reset_input in;
	reset_input_init(&in);
	if (reset_exec_gather(c, rq, &in, err, sizeof err) != 0) {
		out->status = LT_PREVIEW_NO_ANSWER;
		out->message = xstrdup(err);
		out->cluster_fault = true;
	} else if (reset_guard(rq->group, &in, msg, sizeof msg) != LT_GUARD_PROCEED) {
		/* like kafka-consumer-groups: an active group is refused before anything is planned */
		out->status = LT_PREVIEW_REFUSED;
		out->message = xstrdup(msg);
	} else if ((out->plan = reset_plan_build_ex(rq, &in, &out->cluster_fault, err, sizeof err)) == NULL) {
		out->status = LT_PREVIEW_NOT_PLANNED;
		out->message = xstrdup(err);
	} else {
		out->status = LT_PREVIEW_PLANNED;
	}
	out->state = in.state;
	reset_input_free(&in);
	return out->status;
}

void reset_preview_free(lt_reset_preview *p)
{
	if (!p)
		return;
	reset_plan_free(p->plan);
	free(p->message);
	memset(p, 0, sizeof *p);
}
