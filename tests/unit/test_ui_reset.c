/* test_ui_reset.c — the reset dialog's state machine without a terminal or a cluster: target choice and
 * value validation with the planner's parsers, the scope, Esc at every step (not during a commit), the
 * preview's buttons (No first) and the group name above the threshold, refusals, errors, results, the
 * text shown; and the worker's thread + pipe hand-over on a job that needs no cluster. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <curses.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui/reset_dialog.h"
#include "ui/reset_worker.h"
#include "util/sanitize.h"
#include "util/xalloc.h"
#include "../lib/cmocka_main.h"

#define NOW_MS INT64_C(1795989600000) /* 2026-11-29T... */
#define ESC    27

static enum rd_action keys(struct ui_reset *rd, const char *s)
{
	enum rd_action a = RD_ACT_NONE;
	for (; *s; s++)
		a = rd_key(rd, (unsigned char)*s, NOW_MS);
	return a;
}

static enum rd_action key(struct ui_reset *rd, int ch)
{
	return rd_key(rd, ch, NOW_MS);
}

static void select_target(struct ui_reset *rd, lt_reset_target t)
{
	key(rd, KEY_HOME);
	while (rd_target_at(rd->target)->target != t)
		key(rd, KEY_DOWN);
}

/* A group on topic orders with n partitions, each committed at `committed` in a log of 0..1000. */
static lt_reset_plan *plan_for(const lt_reset_request *rq, int n, int64_t committed)
{
	lt_reset_input in;
	char err[256];
	reset_input_init(&in);
	in.state = LT_GROUP_EMPTY;
	in.group_exists = true;
	reset_input_topic(&in, "orders", true);
	for (int p = 0; p < n; p++) {
		lt_reset_part *pt = reset_input_part(&in, "orders", p);
		pt->exists = pt->has_leader = true;
		pt->committed = committed;
		pt->log_start = 0;
		pt->log_end = 1000;
		pt->ts_offset = 1000; /* to-datetime: the first record at or after the time */
	}
	lt_reset_plan *plan = reset_plan_build(rq, &in, err, sizeof err);
	assert_non_null(plan);
	reset_input_free(&in);
	return plan;
}

static bool view_has(const struct ui_reset *rd, const char *text)
{
	struct rd_view v;
	rd_view_build(rd, 0, true, &v);
	bool found = strstr(v.title, text) != NULL;
	for (size_t i = 0; i < v.n_body && !found; i++)
		found = strstr(v.body[i], text) != NULL;
	for (size_t i = 0; i < v.n_foot && !found; i++)
		found = strstr(v.foot[i], text) != NULL;
	rd_view_free(&v);
	return found;
}

static void earliest_on_group_asks_for_preview(void **state)
{
	(void)state;
	struct ui_reset *rd = rd_new("g", NULL, -1, false, 10000);
	assert_int_equal(rd->step, RD_TARGET);
	assert_int_equal(rd_target_at(rd->target)->target, LT_RESET_EARLIEST);
	assert_true(view_has(rd, "Scope: all topics"));
	assert_int_equal(key(rd, '\n'), RD_ACT_PREVIEW);
	assert_int_equal(rd->step, RD_WORKING);
	assert_true(rd->has_rq);
	assert_int_equal(rd->rq.target, LT_RESET_EARLIEST);
	assert_true(rd->rq.all_topics);
	assert_string_equal(rd->target_desc, "to-earliest");
	assert_true(view_has(rd, "Working"));
	rd_free(rd);
}

static void values_are_validated_by_the_parsers(void **state)
{
	(void)state;
	struct ui_reset *rd = rd_new("g", NULL, -1, false, 10000);
	select_target(rd, LT_RESET_OFFSET);
	assert_int_equal(key(rd, '\n'), RD_ACT_NONE);
	assert_string_equal(rd->err, "to-offset needs a value, e.g. 1000");
	assert_int_equal(keys(rd, "12x\n"), RD_ACT_NONE);
	assert_int_equal(rd->step, RD_TARGET);
	assert_string_equal(rd->err, "Cannot parse argument '12x' of option to-offset");
	assert_true(view_has(rd, "Cannot parse argument"));
	key(rd, KEY_BACKSPACE); /* typing clears the error */
	assert_string_equal(rd->err, "");
	assert_string_equal(rd->value, "12");
	assert_int_equal(key(rd, '\n'), RD_ACT_PREVIEW);
	assert_int_equal(rd->rq.offset, 12);
	assert_string_equal(rd->target_desc, "to-offset 12");
	rd_free(rd);

	rd = rd_new("g", NULL, -1, false, 10000);
	select_target(rd, LT_RESET_DATETIME);
	assert_int_equal(keys(rd, "2026-13-01T00:00:00\n"), RD_ACT_NONE);
	assert_non_null(strstr(rd->err, "2026-13-01T00:00:00"));
	key(rd, 21); /* ^U */
	assert_string_equal(rd->value, "");
	assert_int_equal(keys(rd, "-6h\n"), RD_ACT_PREVIEW);
	assert_int_equal(rd->rq.timestamp_ms, NOW_MS - 6 * 3600 * 1000);
	rd_free(rd);

	rd = rd_new("g", NULL, -1, false, 10000);
	select_target(rd, LT_RESET_DURATION);
	assert_int_equal(keys(rd, "6h\n"), RD_ACT_NONE); /* not ISO-8601 */
	assert_true(rd->err[0] != '\0');
	key(rd, 21);
	assert_int_equal(keys(rd, "PT1H\n"), RD_ACT_PREVIEW);
	assert_int_equal(rd->rq.timestamp_ms, NOW_MS - 3600 * 1000);
	rd_free(rd);

	rd = rd_new("g", NULL, -1, false, 10000);
	select_target(rd, LT_RESET_SHIFT);
	assert_int_equal(keys(rd, "-5\n"), RD_ACT_PREVIEW);
	assert_int_equal(rd->rq.offset, -5);
	rd_free(rd);
}

static void moving_the_choice_clears_the_value(void **state)
{
	(void)state;
	struct ui_reset *rd = rd_new("g", NULL, -1, false, 10000);
	keys(rd, "abc"); /* to-earliest takes no value: ignored */
	assert_string_equal(rd->value, "");
	key(rd, KEY_UP); /* stays on the first */
	assert_int_equal(rd->target, 0);
	select_target(rd, LT_RESET_OFFSET);
	keys(rd, "77");
	key(rd, KEY_DOWN);
	assert_string_equal(rd->value, "");
	key(rd, KEY_END);
	assert_null(rd_target_at(rd->target + 1));
	key(rd, KEY_DOWN); /* stays on the last */
	assert_null(rd_target_at(rd->target + 1));
	/* the selected target is the highlighted line, marked with > */
	struct rd_view v;
	rd_view_build(rd, 0, true, &v);
	assert_true(v.hl >= 0);
	assert_non_null(strstr(v.body[v.hl], "> by-duration"));
	rd_view_free(&v);
	rd_free(rd);
}

static void partition_scope(void **state)
{
	(void)state;
	struct ui_reset *rd = rd_new("g", "orders", 2, false, 10000);
	assert_true(view_has(rd, "Scope: partition orders:2"));
	assert_int_equal(key(rd, '\n'), RD_ACT_PREVIEW);
	assert_false(rd->rq.all_topics);
	assert_int_equal(rd->rq.n_scopes, 1);
	assert_string_equal(rd->rq.scopes[0].topic, "orders");
	assert_int_equal(rd->rq.scopes[0].n_parts, 1);
	assert_int_equal(rd->rq.scopes[0].parts[0], 2);
	lt_reset_plan *plan = plan_for(&rd->rq, 4, 1000);
	assert_int_equal(plan->n_rows, 1);
	rd_preview_done(rd, false, plan, NULL, NULL);
	assert_true(view_has(rd, "replay 1000"));
	rd_free(rd);
}

static void esc_cancels_every_step_but_the_commit(void **state)
{
	(void)state;
	struct ui_reset *rd = rd_new("g", NULL, -1, false, 10000);
	assert_int_equal(key(rd, ESC), RD_ACT_CLOSE);
	key(rd, '\n');
	assert_int_equal(rd->step, RD_WORKING);
	assert_int_equal(key(rd, 'x'), RD_ACT_NONE);
	assert_int_equal(key(rd, ESC), RD_ACT_CLOSE); /* a preview may be abandoned */
	rd_preview_done(rd, false, plan_for(&rd->rq, 2, 1000), NULL, NULL);
	assert_int_equal(rd->step, RD_PREVIEW);
	assert_int_equal(key(rd, ESC), RD_ACT_CLOSE);
	key(rd, KEY_RIGHT);
	assert_int_equal(key(rd, '\n'), RD_ACT_COMMIT);
	assert_true(rd->committing);
	assert_int_equal(key(rd, ESC), RD_ACT_NONE); /* not while committing */
	assert_string_equal(rd->err, "the commit is running and cannot be cancelled now");
	assert_int_equal(key(rd, '\n'), RD_ACT_NONE);
	lt_reset_result res = { .status = LT_EXEC_EXECUTED,
				.message = xstrdup("committed 2 partitions"),
				.backup_path = xstrdup("/s/backups/g.csv") };
	rd_commit_done(rd, &res);
	assert_int_equal(rd->step, RD_RESULT);
	assert_false(rd->committing);
	assert_true(view_has(rd, "EXECUTED"));
	assert_true(view_has(rd, "Backup of the previous offsets: /s/backups/g.csv"));
	assert_int_equal(key(rd, ESC), RD_ACT_CLOSE);
	assert_int_equal(key(rd, '\n'), RD_ACT_CLOSE);
	rd_free(rd);
}

/* A commit whose answer did not arrive: the result says "outcome unknown" and what the read-back settled,
 * as the command line does; a partition not read back is "unknown", never "differs". */
static void commit_without_answer_shows_the_settled_outcome(void **state)
{
	(void)state;
	static const struct {
		lt_exec_status status;
		bool readback_ok;
		const char *headline, *row;
	} cases[] = {
		{ LT_EXEC_EXECUTED, true, "APPLIED (outcome unknown, settled by reading back)", "ok" },
		{ LT_EXEC_FAILED, true, "NOT APPLIED (outcome unknown, settled by reading back)", "unchanged" },
		{ LT_EXEC_MISMATCH, true, "PARTLY APPLIED (outcome unknown, settled by reading back)", "unchanged" },
		{ LT_EXEC_UNKNOWN, false, "OUTCOME UNKNOWN: no answer, and the offsets could not be read back",
		  "unknown" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct ui_reset *rd = rd_new("g", NULL, -1, false, 10000);
		keys(rd, "\n");
		rd_preview_done(rd, false, plan_for(&rd->rq, 1, 1000), NULL, NULL);
		key(rd, KEY_RIGHT);
		assert_int_equal(key(rd, '\n'), RD_ACT_COMMIT);
		bool applied = cases[i].status == LT_EXEC_EXECUTED;
		lt_reset_result res = { .status = cases[i].status,
					.message = xstrdup("outcome unknown: committing offsets: no answer"),
					.backup_path = xstrdup("/s/backups/g.csv"),
					.answer_missing = true,
					.readback_ok = cases[i].readback_ok,
					.n_parts = 1 };
		res.parts = xcalloc(1, sizeof *res.parts);
		res.parts[0] = (lt_reset_part_result){ .topic = xstrdup("orders"),
						       .planned = 0,
						       .before = 1000,
						       .after = !cases[i].readback_ok ? LT_OFFSET_NONE
								: applied             ? 0
										      : 1000,
						       .matches = applied };
		rd_commit_done(rd, &res);
		assert_true(view_has(rd, cases[i].headline));
		assert_true(view_has(rd, "outcome unknown: committing offsets: no answer"));
		struct rd_view v;
		rd_view_build(rd, 0, true, &v);
		bool row = false;
		for (size_t k = 0; k < v.n_body; k++)
			if (strncmp(v.body[k], "orders", 6) == 0) {
				const char *end = v.body[k] + strlen(v.body[k]) - strlen(cases[i].row);
				row = strcmp(end, cases[i].row) == 0 && end[-1] == ' ';
			}
		rd_view_free(&v);
		assert_true(row);
		rd_free(rd);
	}
}

/* One code, a different action per step (the key table's steps): Tab picks the next target, then switches
 * the buttons; q is typed into a value, but closes a result; Home goes to the first target, then to the top
 * of a result; PgUp/PgDn scroll the preview. */
static void keys_act_by_step(void **state)
{
	(void)state;
	struct ui_reset *rd = rd_new("g", NULL, -1, false, 10000);
	size_t first = rd->target;
	key(rd, '\t');
	assert_int_equal(rd->target, first + 1);
	key(rd, KEY_HOME);
	assert_int_equal(rd->target, 0);
	select_target(rd, LT_RESET_OFFSET);
	assert_int_equal(keys(rd, "q"), RD_ACT_NONE);
	assert_string_equal(rd->value, "q"); /* typed, not a close */
	key(rd, KEY_BACKSPACE);
	assert_int_equal(keys(rd, "5\n"), RD_ACT_PREVIEW);
	rd_preview_done(rd, false, plan_for(&rd->rq, 2, 1000), NULL, NULL);
	key(rd, KEY_NPAGE);
	assert_int_equal(rd->top, 10);
	key(rd, KEY_PPAGE);
	assert_int_equal(rd->top, 0);
	assert_false(rd->yes);
	key(rd, '\t');
	assert_true(rd->yes);
	assert_int_equal(key(rd, 'q'), RD_ACT_NONE); /* no name asked: letters do nothing, q does not close */
	assert_int_equal(key(rd, '\n'), RD_ACT_COMMIT);
	lt_reset_result res = { .status = LT_EXEC_EXECUTED,
				.message = xstrdup("committed 2 partitions"),
				.backup_path = xstrdup("/s/backups/g.csv") };
	rd_commit_done(rd, &res);
	key(rd, KEY_DOWN);
	key(rd, KEY_DOWN);
	assert_int_equal(rd->top, 2);
	key(rd, KEY_HOME);
	assert_int_equal(rd->top, 0);
	assert_int_equal(key(rd, 'q'), RD_ACT_CLOSE);
	rd_free(rd);
}

static void confirm_starts_on_no(void **state)
{
	(void)state;
	struct ui_reset *rd = rd_new("g", NULL, -1, false, 10000);
	key(rd, '\n');
	rd_preview_done(rd, false, plan_for(&rd->rq, 2, 1000), NULL, NULL);
	assert_false(rd->yes);
	assert_false(rd->need_name); /* 2000 moved <= 10000 */
	assert_true(view_has(rd, ">[ No ]<"));
	assert_true(view_has(rd, "2 partitions: 2000 messages replayed, 0 skipped"));
	assert_int_equal(key(rd, '\n'), RD_ACT_CLOSE); /* Enter on No */
	key(rd, KEY_RIGHT);
	assert_true(rd->yes);
	assert_true(view_has(rd, ">[ Yes, reset ]<"));
	key(rd, KEY_LEFT);
	assert_false(rd->yes);
	key(rd, '\t');
	assert_true(rd->yes);
	assert_int_equal(keys(rd, "y"), RD_ACT_NONE); /* letters do nothing without a name to type */
	assert_int_equal(key(rd, '\n'), RD_ACT_COMMIT);
	rd_free(rd);
}

static void group_name_above_the_threshold(void **state)
{
	(void)state;
	struct ui_reset *rd = rd_new("orders-app", NULL, -1, false, 1500);
	key(rd, '\n');
	rd_preview_done(rd, false, plan_for(&rd->rq, 2, 1000), NULL, NULL);
	assert_true(rd->need_name); /* 2000 > 1500 */
	assert_true(view_has(rd, "This moves 2000 messages (confirm threshold 1500)"));
	key(rd, KEY_RIGHT);
	assert_int_equal(key(rd, '\n'), RD_ACT_NONE);
	assert_string_equal(rd->err, "type the group name exactly to confirm (or Esc to cancel)");
	assert_int_equal(keys(rd, "orders-ap\n"), RD_ACT_NONE);
	assert_int_equal(rd->step, RD_PREVIEW);
	assert_int_equal(keys(rd, "pp"), RD_ACT_NONE);
	key(rd, KEY_BACKSPACE);
	assert_string_equal(rd->name, "orders-app");
	assert_int_equal(key(rd, '\n'), RD_ACT_COMMIT);
	rd_free(rd);

	/* exactly at the threshold: no name; threshold 0: always */
	rd = rd_new("g", NULL, -1, false, 2000);
	key(rd, '\n');
	rd_preview_done(rd, false, plan_for(&rd->rq, 2, 1000), NULL, NULL);
	assert_false(rd->need_name);
	rd_free(rd);
	rd = rd_new("g", NULL, -1, false, 0);
	select_target(rd, LT_RESET_CURRENT);
	key(rd, '\n');
	rd_preview_done(rd, false, plan_for(&rd->rq, 2, 1000), NULL, NULL);
	assert_int_equal(rd->plan->replayed + rd->plan->skipped, 0);
	assert_true(rd->need_name);
	rd_free(rd);
}

static void empty_plan_cannot_be_confirmed(void **state)
{
	(void)state;
	struct ui_reset *rd = rd_new("g", NULL, -1, false, 10000);
	key(rd, '\n');
	rd_preview_done(rd, false, plan_for(&rd->rq, 0, 1000), NULL, NULL);
	assert_int_equal(rd->plan->n_rows, 0);
	key(rd, KEY_RIGHT);
	assert_false(rd->yes);
	assert_true(view_has(rd, "Nothing to reset"));
	assert_int_equal(key(rd, '\n'), RD_ACT_CLOSE);
	rd_free(rd);
}

static void refusals_and_errors(void **state)
{
	(void)state;
	struct ui_reset *rd = rd_new("g", NULL, -1, false, 10000);
	key(rd, '\n');
	rd_preview_done(rd, true, NULL,
			xstrdup("Assignments can only be reset if the group 'g' is inactive, but the current state is "
				"Stable.\n  client-id c1 on host /10.0.0.1"),
			NULL);
	assert_int_equal(rd->step, RD_REFUSED);
	assert_true(view_has(rd, "REFUSED: nothing was changed."));
	assert_true(view_has(rd, "current state is Stable."));
	assert_true(view_has(rd, "  client-id c1 on host /10.0.0.1")); /* one line per member */
	assert_int_equal(key(rd, 'x'), RD_ACT_NONE);
	assert_int_equal(key(rd, '\n'), RD_ACT_CLOSE);
	rd_free(rd);

	rd = rd_new("g", NULL, -1, false, 10000);
	key(rd, '\n');
	rd_preview_done(rd, false, NULL, xstrdup("cannot reach the cluster"), NULL);
	assert_int_equal(rd->step, RD_ERROR);
	assert_true(view_has(rd, "cannot reach the cluster"));
	rd_free(rd);

	/* a commit refused by the broker: per partition */
	rd = rd_new("g", NULL, -1, false, 10000);
	key(rd, '\n');
	rd_preview_done(rd, false, plan_for(&rd->rq, 1, 1000), NULL, NULL);
	key(rd, KEY_RIGHT);
	key(rd, '\n');
	lt_reset_result res = { .status = LT_EXEC_REFUSED, .message = xstrdup("a member joined") };
	res.n_parts = 1;
	res.parts = xcalloc(1, sizeof *res.parts);
	res.parts[0].topic = xstrdup("orders");
	res.parts[0].error = xstrdup("UNKNOWN_MEMBER_ID");
	res.parts[0].refused = true;
	rd_commit_done(rd, &res);
	assert_true(view_has(rd, "REFUSED: nothing was changed"));
	assert_true(view_has(rd, "orders-0: refused: UNKNOWN_MEMBER_ID"));
	rd_free(rd);
}

/* A dry run's answer for a group: n committed partitions of orders at `committed`. */
static lt_delete_result delete_preview(int n, int64_t committed)
{
	lt_delete_result d = { .status = LT_DEL_PREVIEW, .n_backed_up = (size_t)n };
	d.n_parts = (size_t)n;
	d.parts = xcalloc((size_t)n + 1, sizeof *d.parts);
	for (int p = 0; p < n; p++)
		d.parts[p] = (lt_delete_part){ .topic = xstrdup("orders"), .partition = p, .committed = committed };
	return d;
}

static void delete_group_always_asks_for_the_name(void **state)
{
	(void)state;
	struct ui_reset *rd = rd_new_delete("g", NULL, -1, "/state/lagtop/backups/");
	assert_int_equal(rd->step, RD_WORKING); /* the preview starts at once */
	assert_true(view_has(rd, "Delete group g"));
	lt_delete_result d = delete_preview(2, 7);
	rd_delete_preview_done(rd, &d);
	assert_int_equal(rd->step, RD_PREVIEW);
	assert_true(rd->need_name);
	assert_true(view_has(rd, "Delete group g and its 2 committed offsets."));
	assert_true(view_has(rd, "Backup first, to /state/lagtop/backups/"));
	assert_true(view_has(rd, ">[ No ]<"));
	assert_int_equal(key(rd, '\n'), RD_ACT_CLOSE); /* Enter on No */

	rd_free(rd);
	rd = rd_new_delete("g", NULL, -1, NULL);
	d = delete_preview(1, 7);
	rd_delete_preview_done(rd, &d);
	key(rd, KEY_RIGHT);
	assert_int_equal(key(rd, '\n'), RD_ACT_NONE); /* Yes, but no name */
	assert_true(view_has(rd, "type the group name exactly"));
	keys(rd, "g");
	assert_int_equal(key(rd, '\n'), RD_ACT_COMMIT);
	assert_int_equal(key(rd, ESC), RD_ACT_NONE); /* not while deleting */
	assert_true(view_has(rd, "Deleting: checking the group again"));
	lt_delete_result done = delete_preview(1, 7);
	done.status = LT_DEL_DELETED;
	done.backup_path = xstrdup("/state/lagtop/backups/g.x.csv");
	rd_delete_done(rd, &done);
	assert_int_equal(rd->step, RD_RESULT);
	assert_true(view_has(rd, "Result: DELETED"));
	assert_true(view_has(rd, "Backup of the deleted offsets: /state/lagtop/backups/g.x.csv"));
	rd_free(rd);
}

static void delete_partition_refused_and_errors(void **state)
{
	(void)state;
	struct ui_reset *rd = rd_new_delete("g", "orders", 3, NULL);
	assert_true(view_has(rd, "Delete the offset of orders:3 in group g"));
	lt_delete_result d = { .status = LT_DEL_REFUSED,
			       .group_kerr = LT_KERR_NON_EMPTY_GROUP,
			       .message = xstrdup("Offsets of group 'g' can only be deleted if the group is inactive, "
						  "but the current state is Stable.") };
	rd_delete_preview_done(rd, &d);
	assert_int_equal(rd->step, RD_REFUSED);
	assert_true(view_has(rd, "REFUSED: nothing was deleted."));
	assert_true(view_has(rd, "current state is Stable."));
	assert_int_equal(key(rd, '\n'), RD_ACT_CLOSE);
	rd_free(rd);

	rd = rd_new_delete("g", "orders", 3, NULL);
	d = (lt_delete_result){ .status = LT_DEL_FAILED, .group_kerr = -1, .message = xstrdup("no answer") };
	rd_delete_preview_done(rd, &d);
	assert_int_equal(rd->step, RD_ERROR);
	assert_true(view_has(rd, "No delete: nothing was changed."));
	key(rd, KEY_RIGHT);
	assert_int_equal(key(rd, '\n'), RD_ACT_CLOSE); /* an error cannot be confirmed */
	rd_free(rd);
}

static void undo_starts_working_and_takes_the_description(void **state)
{
	(void)state;
	struct ui_reset *rd = rd_new("g", "ignored", 3, true, 10000);
	assert_int_equal(rd->step, RD_WORKING);
	assert_true(view_has(rd, "Undo the last reset of group g"));
	lt_reset_request rq;
	char err[128];
	assert_int_equal(reset_request_init(&rq, "g", LT_RESET_EARLIEST, NULL, NOW_MS, err, sizeof err), 0);
	rq.all_topics = true;
	/* the worker's note: which backup, from when, and the change it undoes (an undo of an undo says so) */
	rd_preview_done(rd, false, plan_for(&rq, 1, 500),
			xstrdup("Backup: /s/backups/g.1.csv (taken 2026-11-29T10:00:00.000Z)\nThat change was itself "
				"an undo: this undo of an undo re-applies what it reverted."),
			xstrdup("undo /s/backups/g.1.csv"));
	reset_request_free(&rq);
	assert_int_equal(rd->step, RD_PREVIEW);
	assert_string_equal(rd->target_desc, "undo /s/backups/g.1.csv");
	assert_true(view_has(rd, "Target: undo /s/backups/g.1.csv"));
	assert_true(view_has(rd, "the partitions in the backup"));
	assert_true(view_has(rd, "(taken 2026-11-29T10:00:00.000Z)"));
	assert_true(view_has(rd, "this undo of an undo re-applies what it reverted"));
	rd_free(rd);
}

/* The worker: an undo of a group without a backup needs no cluster; the answer comes through the pipe. */
static void worker_hands_the_answer_back_through_its_pipe(void **state)
{
	(void)state;
	char dir[] = "/tmp/lagtop-ui-reset-XXXXXX", err[256];
	assert_non_null(mkdtemp(dir));
	setenv("XDG_STATE_HOME", dir, 1);
	struct rw_worker *w = rw_new(err, sizeof err);
	assert_non_null(w);
	assert_false(rw_busy(w));
	assert_null(rw_collect(w));
	struct lt_connection cf = { .name = (char *)"c", .bootstrap = (char *)"127.0.0.1:1" };
	struct rw_job *j = rw_job_new(RW_PREVIEW, &cf, 1000);
	j->undo = true;
	j->group = xstrdup("never-reset");
	assert_int_equal(rw_start(w, j, err, sizeof err), 0);
	assert_true(rw_busy(w));
	struct rw_job *other = rw_job_new(RW_PREVIEW, &cf, 1000);
	assert_int_equal(rw_start(w, other, err, sizeof err), -1); /* one job at a time */
	rw_job_free(other);
	struct pollfd pfd = { .fd = rw_fd(w), .events = POLLIN };
	assert_int_equal(poll(&pfd, 1, 10000), 1);
	struct rw_job *done = rw_collect(w);
	assert_ptr_equal(done, j);
	assert_false(rw_busy(w));
	assert_null(done->plan_out);
	assert_non_null(done->msg);
	assert_non_null(strstr(done->msg, "never-reset"));
	rw_job_free(done);
	rw_free(w);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* The body's words, in order, joined by one space (wrapping only moves line breaks and indents). */
static char *body_words(const struct rd_view *v)
{
	size_t cap = 1;
	for (size_t i = 0; i < v->n_body; i++)
		cap += strlen(v->body[i]) + 1;
	char *out = xcalloc(cap, 1);
	size_t n = 0;
	for (size_t i = 0; i < v->n_body; i++)
		for (const char *p = v->body[i]; *p;) {
			while (*p == ' ')
				p++;
			size_t w = strcspn(p, " ");
			if (w && n)
				out[n++] = ' ';
			memcpy(out + n, p, w);
			n += w;
			p += w;
		}
	out[n] = '\0';
	return out;
}

/* The guard's refusal as the worker hands it over: Kafka's sentence, then every member. */
static char *refusal(int n_members, const char *client_extra)
{
	lt_reset_input in;
	reset_input_init(&in);
	in.state = LT_GROUP_STABLE;
	in.group_exists = true;
	for (int i = 0; i < n_members; i++) {
		char id[64], client[160], host[32];
		snprintf(id, sizeof id, "consumer-%02d-6f1c2a9e-4b7d-4a53-9c1e-%012d", i, i);
		snprintf(client, sizeof client, "payments-consumer-%02d%s", i, client_extra);
		snprintf(host, sizeof host, "/10.1.2.%d", i);
		reset_input_member(&in, id, client, host);
	}
	char msg[8192];
	assert_int_equal(reset_guard("payments-settlement-nightly", &in, msg, sizeof msg), LT_GUARD_REFUSE_ACTIVE);
	reset_input_free(&in);
	return xstrdup(msg);
}

/* At 100 columns the refusal used to be cut at the box edge ("...but the current stat..."). Prose is
 * wrapped to the width the screen gives (100 and 80 columns: 94 and 74 cells inside the box), so the
 * whole sentence and every member are on the lines, none wider than the box; nothing is lost. */
static void refusal_is_wrapped_to_the_box(void **state)
{
	(void)state;
	static const int widths[] = { 94, 74, 30 };
	/* the second run: a client id with an escape (its shown form is wider) and a long unbroken word */
	static const char *const extras[] = { "", "-\x1b[31m-"
						  "averyveryveryveryveryveryveryveryveryveryveryveryvery"
						  "veryveryverylongclientidwithoutanyspaces" };
	for (size_t e = 0; e < 2; e++) {
		char *msg = refusal(12, extras[e]);
		struct ui_reset *rd = rd_new("payments-settlement-nightly", NULL, -1, false, 10000);
		rd_preview_done(rd, true, NULL, xstrdup(msg), NULL);
		for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
			struct rd_view v;
			rd_view_build(rd, widths[wi], true, &v);
			for (size_t i = 0; i < v.n_body; i++)
				if (display_width(v.body[i], true) > widths[wi])
					fail_msg("width %d: line %zu is %d cells: '%s'", widths[wi], i,
						 display_width(v.body[i], true), v.body[i]);
			for (size_t i = 0; i < v.n_foot; i++)
				assert_true(display_width(v.foot[i], true) <= widths[wi]);
			/* the whole text is there: "REFUSED..." then the message, word for word */
			char *got = body_words(&v);
			struct rd_view flat;
			rd_view_build(rd, 0, true, &flat);
			char *want = body_words(&flat);
			if (e == 0 && widths[wi] >= 74) {
				assert_string_equal(got, want); /* broken at spaces only */
			} else {
				/* a word longer than the line is split between characters: the same text */
				char *g = got, *w = want;
				for (; *g || *w; g++, w++) {
					while (*g == ' ')
						g++;
					while (*w == ' ')
						w++;
					if (*g != *w)
						fail_msg("width %d: text differs at '%.20s' / '%.20s'", widths[wi], g,
							 w);
					if (!*g)
						break;
				}
			}
			assert_non_null(strstr(want, "but the current state is Stable."));
			for (int m = 0; m < 12; m++) {
				char client[64];
				snprintf(client, sizeof client, "payments-consumer-%02d", m);
				assert_non_null(strstr(got, client));
			}
			free(got);
			free(want);
			rd_view_free(&flat);
			rd_view_free(&v);
		}
		/* at 100 columns the sentence that was cut is on two whole lines */
		if (e == 0) {
			struct rd_view v;
			rd_view_build(rd, 94, true, &v);
			assert_string_equal(v.body[1],
					    "Assignments can only be reset if the group 'payments-settlement-nightly' "
					    "is inactive, but the");
			assert_string_equal(v.body[2], "  current state is Stable.");
			rd_view_free(&v);
		}
		/* a body longer than the box scrolls: Down/PgDn/Home move the top line */
		assert_int_equal(key(rd, KEY_DOWN), RD_ACT_NONE);
		assert_int_equal(rd->top, 1);
		key(rd, KEY_NPAGE);
		assert_int_equal(rd->top, 11);
		key(rd, KEY_HOME);
		assert_int_equal(rd->top, 0);
		assert_true(view_has(rd, "Up/Down scroll"));
		rd_free(rd);
		free(msg);
	}

	/* wide characters count two cells, and a character is never split */
	struct ui_reset *rd = rd_new("g", NULL, -1, false, 10000);
	rd_preview_done(rd, false, NULL,
			xstrdup("\xe6\xb6\x88\xe8\xb2\xbb\xe8\x80\x85\xe3\x82\xb0\xe3\x83\xab\xe3\x83\xbc\xe3\x83\x97"
				"\xe6\xb6\x88\xe8\xb2\xbb\xe8\x80\x85 caf\xc3\xa9 caf\xc3\xa9"),
			NULL);
	struct rd_view v;
	rd_view_build(rd, 7, true, &v);
	for (size_t i = 0; i < v.n_body; i++) {
		assert_true(display_width(v.body[i], true) <= 7);
		char *shown = sanitize_dup(v.body[i], true);
		assert_null(strstr(shown, "\\x")); /* no broken UTF-8 */
		free(shown);
	}
	rd_view_free(&v);
	rd_free(rd);
}

/* At 80 columns (a box 76 cells inside) the preview cuts nothing: each partition's old -> new and its
 * replay/skip count, the absolute time a relative to-datetime resolved to, where the backup and the audit
 * log go, and the scope in the title. */
static void preview_fits_80_columns(void **state)
{
	(void)state;
	struct ui_reset *rd = rd_new("inventory-sync-long-name", NULL, -1, false, 100000);
	select_target(rd, LT_RESET_DATETIME);
	keys(rd, "-10m");
	assert_int_equal(key(rd, '\n'), RD_ACT_PREVIEW);
	lt_reset_plan *plan = plan_for(&rd->rq, 3, 500);
	free(plan->rows[1].topic);
	plan->rows[1].topic = xstrdup("inventory-adjustments-from-the-warehouse"); /* a long topic name */
	rd_preview_done(rd, false, plan, NULL, NULL);
	rd->backup_dir = xstrdup("/home/op/.local/state/lagtop/backups/");
	rd->audit_path = xstrdup("/home/op/.local/state/lagtop/audit.log");
	struct rd_view v;
	rd_view_build(rd, 76, true, &v);
	char all[8192] = "";
	for (size_t i = 0; i < v.n_body + v.n_foot; i++) {
		const char *l = i < v.n_body ? v.body[i] : v.foot[i - v.n_body];
		if (display_width(l, true) > 76)
			fail_msg("line wider than the box: '%s'", l);
		strncat(all, l, sizeof all - strlen(all) - 2);
		strcat(all, "\n");
	}
	assert_non_null(strstr(v.title, "all topics"));
	int moves = 0, skips = 0; /* old -> new and the count, for every partition */
	for (const char *m = all; (m = strstr(m, "500 -> 1000")) != NULL; m++)
		moves++;
	for (const char *m = all; (m = strstr(m, "skip 500")) != NULL; m++)
		skips++;
	assert_int_equal(moves, 3);
	assert_int_equal(skips, 3);
	assert_non_null(strstr(all, "inventory-adjustments-from-the-warehouse"));
	assert_non_null(strstr(all, "to-datetime -10m"));    /* the operator's spelling */
	assert_non_null(strstr(all, "2026-11-29T21:50:00")); /* and what it resolved to */
	assert_non_null(strstr(all, "/home/op/.local/state/lagtop/backups/"));
	assert_non_null(strstr(all, "/home/op/.local/state/lagtop/audit.log"));
	rd_view_free(&v);
	rd_free(rd);

	/* marked partitions: their number in the title */
	rd = rd_new("g", NULL, -1, false, 100000);
	const char *scopes[] = { "orders:0,2" };
	rd_set_marked(rd, scopes, 1, 2);
	rd_view_build(rd, 76, true, &v);
	assert_non_null(strstr(v.title, "2 marked partitions"));
	rd_view_free(&v);
	rd_free(rd);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(earliest_on_group_asks_for_preview),
	cmocka_unit_test(values_are_validated_by_the_parsers),
	cmocka_unit_test(moving_the_choice_clears_the_value),
	cmocka_unit_test(partition_scope),
	cmocka_unit_test(esc_cancels_every_step_but_the_commit),
	cmocka_unit_test(confirm_starts_on_no),
	cmocka_unit_test(group_name_above_the_threshold),
	cmocka_unit_test(empty_plan_cannot_be_confirmed),
	cmocka_unit_test(refusals_and_errors),
	cmocka_unit_test(refusal_is_wrapped_to_the_box),
	cmocka_unit_test(undo_starts_working_and_takes_the_description),
	cmocka_unit_test(delete_group_always_asks_for_the_name),
	cmocka_unit_test(delete_partition_refused_and_errors),
	cmocka_unit_test(worker_hands_the_answer_back_through_its_pipe),
	cmocka_unit_test(keys_act_by_step),
	cmocka_unit_test(preview_fits_80_columns),
	cmocka_unit_test(commit_without_answer_shows_the_settled_outcome),
};

LT_TEST_MAIN(NULL, NULL)
