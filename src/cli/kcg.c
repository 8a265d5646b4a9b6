/* kcg.c — kafka-consumer-groups' --list and --describe (--offsets, --members, --state), with the tool's
 * tables, messages and streams (kcg.h). lagtop reads the cluster the way --once does (one refresh of the
 * collector, without the commit stream) and prints what the real tool prints for the same groups.
 *
 * The tables follow Kafka 4.x's tool (ConsumerGroupCommand): each group's block is a blank line, the header,
 * then its rows; "-" for an unknown cell. Where 3.9 differs (no blank line between --offsets blocks, blank
 * ASSIGNMENT-STRATEGY, no verbose columns but ASSIGNMENT as "(0,1), (2)"), lagtop prints 4.x's. A group that
 * does not exist gets 3.9's per-group message ("Error: Consumer group 'g' does not exist.", on stdout, exit 0),
 * where 4.x stops the whole command on a Java exception. doc/lagtop.1 lists these choices.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/kcg.h"
#include "cli/modes.h"
#include "cli/output.h"
#include "cli/target.h"
#include "cli/unread.h"
#include "kafka/collector.h"
#include "model/group_view.h"
#include "util/utf8.h"
#include "util/xalloc.h"

/* ------------------------------------------------------------------ cells */

#define MISSING "-"

static size_t maxz(size_t a, size_t b)
{
	return a > b ? a : b;
}

/* The tool pads its columns with Java's String.format, which counts characters (UTF-16 units), not bytes:
 * widths and padding are measured that way, so a non-ASCII id lines up as the tool's does. */
static size_t tool_len(const char *s)
{
	return utf8_java_length(s);
}

static void put_padded(FILE *out, const char *s, size_t width)
{
	fputs(s, out);
	for (size_t n = tool_len(s); n < width; n++)
		fputc(' ', out);
}

/* A cell: untrusted names made terminal-safe, "-" for nothing. */
static char *cell(const char *s)
{
	return s && *s ? output_sanitize(s) : xstrdup(MISSING);
}

static char *num_cell(bool known, int64_t v)
{
	return known ? xasprintf("%lld", (long long)v) : xstrdup(MISSING);
}

/* kafka-consumer-groups prints GroupType and the state as Java's enums name them. */
static const char *type_title(const lt_group *g)
{
	lt_group_type t = g->type;
	if (t == LT_GTYPE_UNKNOWN) /* librdkafka < 2.10 does not say: a group whose members only the new API reads
				    * is a consumer-protocol group (group_view.h), any other a classic one */
		t = g->members_unreadable ? LT_GTYPE_CONSUMER : LT_GTYPE_CLASSIC;
	return t == LT_GTYPE_CONSUMER ? "Consumer" : "Classic";
}

/* ------------------------------------------------------------------ --list */

static bool listed(const struct lt_options *o, const lt_group *g)
{
	if (o->state_mask && !(o->state_mask & (1u << g->state)))
		return false;
	if (o->type_mask) {
		lt_group_type t = strcmp(type_title(g), "Consumer") == 0 ? LT_GTYPE_CONSUMER : LT_GTYPE_CLASSIC;
		if (!(o->type_mask & (1u << t)))
			return false;
	}
	return true;
}

void kcg_print_list(FILE *out, const struct lt_options *o, const lt_snapshot *s)
{
	if (!o->list_state && !o->list_type) {
		for (size_t i = 0; i < s->n_groups; i++) {
			char *name = output_sanitize(s->groups[i].group);
			fprintf(out, "%s\n", name);
			free(name);
		}
		return;
	}
	size_t w = 15;
	for (size_t i = 0; i < s->n_groups; i++)
		if (listed(o, &s->groups[i]))
			w = maxz(w, tool_len(s->groups[i].group));
	w += 10;
	fprintf(out, "%-*s", (int)w, "GROUP");
	if (o->list_type)
		fprintf(out, " %-20s", "TYPE");
	if (o->list_state)
		fprintf(out, " %-20s", "STATE");
	fputc('\n', out);
	for (size_t i = 0; i < s->n_groups; i++) {
		const lt_group *g = &s->groups[i];
		if (!listed(o, g))
			continue;
		char *name = output_sanitize(g->group);
		put_padded(out, name, w);
		if (o->list_type)
			fprintf(out, " %-20s", type_title(g));
		if (o->list_state)
			fprintf(out, " %-20s", group_state_name(g->state));
		fputc('\n', out);
		free(name);
	}
}

/* ------------------------------------------------------------------ --describe: the state message */

/* The tool's shouldPrintMemberState: a message per group (stdout for "does not exist", stderr for the
 * others); returns whether the group's rows are printed. g NULL: the group does not exist. */
static bool group_message(FILE *out, FILE *err, const char *id, const lt_group *g)
{
	char *name = output_sanitize(id);
	bool print = true;
	if (!g || g->state == LT_GROUP_DEAD) {
		fprintf(out, "\nError: Consumer group '%s' does not exist.\n", name);
		print = false;
	} else if (g->state == LT_GROUP_EMPTY) {
		fprintf(err, "\nConsumer group '%s' has no active members.\n", name);
	} else if (g->state == LT_GROUP_PREPARING_REBALANCE || g->state == LT_GROUP_COMPLETING_REBALANCE ||
		   g->state == LT_GROUP_ASSIGNING || g->state == LT_GROUP_RECONCILING) {
		fprintf(err, "\nWarning: Consumer group '%s' is rebalancing.\n", name);
	}
	free(name);
	return print;
}

/* ------------------------------------------------------------------ --describe --offsets */

enum { OC_GROUP, OC_TOPIC, OC_PARTITION, OC_EPOCH, OC_CURRENT, OC_END, OC_LAG, OC_CONSUMER, OC_HOST, OC_CLIENT, OC_N };

static const char *const offsets_titles[OC_N] = {
	"GROUP",          "TOPIC", "PARTITION",   "LEADER-EPOCH", "CURRENT-OFFSET",
	"LOG-END-OFFSET", "LAG",   "CONSUMER-ID", "HOST",         "CLIENT-ID",
};

struct rows {
	char *(*cells)[OC_N];
	size_t n, cap;
};

static void offsets_row(struct rows *r, const lt_group *g, const lt_partition *p, const lt_member *m)
{
	int32_t epoch = group_commit_epoch(g, p->topic, p->partition);
	r->cells = xgrow(r->cells, &r->cap, r->n + 1, sizeof *r->cells);
	char **c = r->cells[r->n++];
	c[OC_GROUP] = output_sanitize(g->group);
	c[OC_TOPIC] = cell(p->topic);
	c[OC_PARTITION] = xasprintf("%d", (int)p->partition);
	/* the commit's leader epoch: read with librdkafka >= 2.1 (configure), else "-" */
	c[OC_EPOCH] = epoch >= 0 ? xasprintf("%d", (int)epoch) : xstrdup(MISSING);
	bool committed = p->committed >= 0, end = p->log_end >= 0;
	c[OC_CURRENT] = num_cell(committed, p->committed);
	c[OC_END] = num_cell(end, p->log_end);
	/* the tool's LAG is log end minus committed, negative past the log end (lagtop's own lag clamps at 0) */
	c[OC_LAG] = num_cell(committed && end, p->log_end - p->committed);
	c[OC_CONSUMER] = cell(m ? m->member_id : NULL);
	c[OC_HOST] = cell(m ? m->host : NULL);
	c[OC_CLIENT] = cell(m ? m->client_id : NULL);
}

/* The tool's order: members with partitions, most partitions first (ties in the describe's order), each
 * member's partitions; then the committed partitions no member owns. Members without partitions: no row. */
static void offsets_rows(struct rows *r, const lt_group *g)
{
	size_t *order = xcalloc(g->n_members + 1, sizeof *order);
	size_t n = 0;
	for (size_t m = 0; m < g->n_members; m++)
		if (g->members[m].n_assigned)
			order[n++] = m;
	for (size_t i = 1; i < n; i++) /* stable insertion sort, most partitions first */
		for (size_t j = i; j > 0 && g->members[order[j]].n_assigned > g->members[order[j - 1]].n_assigned;
		     j--) {
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < g->n_partitions; k++)
			if (g->partitions[k].member == (int)order[i])
				offsets_row(r, g, &g->partitions[k], &g->members[order[i]]);
	for (size_t k = 0; k < g->n_partitions; k++) {
		const lt_partition *p = &g->partitions[k];
		if ((p->member < 0 || (size_t)p->member >= g->n_members) && p->committed >= 0)
			offsets_row(r, g, p, NULL);
	}
	free(order);
}

static void print_offsets(FILE *out, const lt_group *g, bool verbose)
{
	struct rows r = { 0 };
	offsets_rows(&r, g);
	if (r.n == 0) {
		free(r.cells);
		return;
	}
	size_t w[OC_N] = { 15, 15, 10, 15, 15, 15, 15, 15, 15, 0 };
	for (size_t i = 0; i < r.n; i++)
		for (int c = OC_GROUP; c <= OC_HOST; c++)
			if (c == OC_GROUP || c == OC_TOPIC || c == OC_CONSUMER || c == OC_HOST)
				w[c] = maxz(w[c], tool_len(r.cells[i][c]));
	for (size_t i = 0; i <= r.n; i++) {
		fputs(i == 0 ? "\n" : "", out);
		for (int c = 0; c < OC_N; c++) {
			if (c == OC_EPOCH && !verbose)
				continue;
			const char *v = i == 0 ? offsets_titles[c] : r.cells[i - 1][c];
			if (c == OC_CLIENT)
				fprintf(out, "%s\n", v);
			else {
				put_padded(out, v, w[c]);
				fputc(' ', out);
			}
		}
	}
	for (size_t i = 0; i < r.n; i++)
		for (int c = 0; c < OC_N; c++)
			free(r.cells[i][c]);
	free(r.cells);
}

/* ------------------------------------------------------------------ --describe --members */

/* Kafka 4.x's assignment cell: "t1:0,1;t2:3", topics and partitions in order, "-" for none. */
static char *assignment_text(const lt_member *m)
{
	if (m->n_assigned == 0)
		return xstrdup(MISSING);
	struct lt_topic_partition *a = xcalloc(m->n_assigned, sizeof *a);
	memcpy(a, m->assigned, m->n_assigned * sizeof *a);
	for (size_t i = 1; i < m->n_assigned; i++) /* insertion sort by (topic, partition) */
		for (size_t j = i; j > 0; j--) {
			int c = strcmp(a[j - 1].topic, a[j].topic);
			if (c < 0 || (c == 0 && a[j - 1].partition <= a[j].partition))
				break;
			struct lt_topic_partition t = a[j];
			a[j] = a[j - 1];
			a[j - 1] = t;
		}
	size_t len = 0, cap = 64;
	char *s = xmalloc(cap);
	s[0] = '\0';
	for (size_t i = 0; i < m->n_assigned; i++) {
		bool new_topic = i == 0 || strcmp(a[i].topic, a[i - 1].topic) != 0;
		char *topic = output_sanitize(a[i].topic);
		char *piece = new_topic ? xasprintf("%s%s:%d", i ? ";" : "", topic, (int)a[i].partition)
					: xasprintf(",%d", (int)a[i].partition);
		size_t pl = strlen(piece);
		s = xgrow(s, &cap, len + pl + 1, 1);
		memcpy(s + len, piece, pl + 1);
		len += pl;
		free(piece);
		free(topic);
	}
	free(a);
	return s;
}

static void print_members(FILE *out, const char *id, const lt_group *g, bool rows, bool verbose)
{
	size_t n = rows && g ? g->n_members : 0;
	/* the tool widens GROUP by the rows it prints: a table without rows keeps 15 */
	size_t wg = maxz(15, n ? tool_len(id) : 0), wc = 15, wi = 17, wh = 15, wl = 15, wa = 20;
	bool instance = false;
	char **assign = xcalloc(n + 1, sizeof *assign);
	for (size_t m = 0; m < n; m++) {
		const lt_member *mb = &g->members[m];
		wc = maxz(wc, tool_len(mb->member_id));
		wh = maxz(wh, tool_len(mb->host));
		wl = maxz(wl, tool_len(mb->client_id));
		if (mb->instance_id && *mb->instance_id) {
			instance = true;
			wi = maxz(wi, tool_len(mb->instance_id));
		}
		assign[m] = assignment_text(mb);
		wa = maxz(wa, tool_len(assign[m]));
	}
	fprintf(out, "\n%-*s %-*s ", (int)wg, "GROUP", (int)wc, "CONSUMER-ID");
	if (instance)
		fprintf(out, "%-*s ", (int)wi, "GROUP-INSTANCE-ID");
	fprintf(out, "%-*s %-*s %-15s ", (int)wh, "HOST", (int)wl, "CLIENT-ID", "#PARTITIONS");
	if (verbose)
		fprintf(out, "%-15s %-*s %-15s %-*s", "CURRENT-EPOCH", (int)wa, "CURRENT-ASSIGNMENT", "TARGET-EPOCH",
			(int)wa, "TARGET-ASSIGNMENT");
	fputc('\n', out);
	for (size_t m = 0; m < n; m++) {
		const lt_member *mb = &g->members[m];
		char *grp = output_sanitize(g->group), *cid = output_sanitize(mb->member_id ? mb->member_id : ""),
		     *host = output_sanitize(mb->host ? mb->host : ""),
		     *cli = output_sanitize(mb->client_id ? mb->client_id : "");
		put_padded(out, grp, wg);
		fputc(' ', out);
		put_padded(out, cid, wc);
		fputc(' ', out);
		if (instance) {
			char *inst = output_sanitize(mb->instance_id ? mb->instance_id : "");
			put_padded(out, inst, wi);
			fputc(' ', out);
			free(inst);
		}
		put_padded(out, host, wh);
		fputc(' ', out);
		put_padded(out, cli, wl);
		fprintf(out, " %-15zu ", mb->n_assigned);
		/* epochs and a consumer-protocol member's target assignment: lagtop does not read them */
		if (verbose) {
			fprintf(out, "%-15s ", MISSING);
			put_padded(out, assign[m], wa);
			fprintf(out, " %-15s %-*s", MISSING, (int)wa, MISSING);
		}
		fputc('\n', out);
		free(grp);
		free(cid);
		free(host);
		free(cli);
	}
	for (size_t m = 0; m < n; m++)
		free(assign[m]);
	free(assign);
}

/* ------------------------------------------------------------------ --describe --state */

static void print_state(FILE *out, const lt_snapshot *s, const lt_group *g, bool verbose)
{
	const lt_broker *b = snapshot_find_broker(s, g->coordinator);
	char *coord = b                     ? xasprintf("%s:%d  (%d)", b->host, b->port, (int)b->id)
		      : g->coordinator >= 0 ? xasprintf("-  (%d)", (int)g->coordinator)
					    : xstrdup(MISSING);
	char *grp = output_sanitize(g->group), *strategy = cell(g->protocol);
	size_t wg = maxz(15, tool_len(grp)), wc = maxz(25, tool_len(coord));
	char members[24];
	if (group_members_known(g))
		snprintf(members, sizeof members, "%zu", g->n_members);
	else
		snprintf(members, sizeof members, "%s", MISSING);
	fprintf(out, "\n%-*s %-*s %-20s %-20s ", (int)wg, "GROUP", (int)wc, "COORDINATOR (ID)", "ASSIGNMENT-STRATEGY",
		"STATE");
	if (verbose)
		fprintf(out, "%-15s %-25s ", "GROUP-EPOCH", "TARGET-ASSIGNMENT-EPOCH");
	fprintf(out, "%s\n", "#MEMBERS");
	put_padded(out, grp, wg);
	fputc(' ', out);
	put_padded(out, coord, wc);
	fputc(' ', out);
	put_padded(out, strategy, 20);
	fprintf(out, " %-20s ", group_state_name(g->state));
	if (verbose)
		fprintf(out, "%-15s %-25s ", MISSING, MISSING);
	fprintf(out, "%s\n", members);
	free(coord);
	free(grp);
	free(strategy);
}

void kcg_print_describe(FILE *out, FILE *err, const struct lt_options *o, const lt_snapshot *s)
{
	size_t n = o->all_groups ? s->n_groups : o->n_groups;
	/* the tool describes the groups in order of their ids (a TreeMap), each once */
	const char **ids = xcalloc(n + 1, sizeof *ids);
	for (size_t i = 0; i < n; i++)
		ids[i] = o->all_groups ? s->groups[i].group : o->groups[i];
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && strcmp(ids[j - 1], ids[j]) > 0; j--) {
			const char *t = ids[j];
			ids[j] = ids[j - 1];
			ids[j - 1] = t;
		}
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && strcmp(ids[i], ids[i - 1]) == 0)
			continue;
		if (snapshot_unread_reason(s, ids[i]))
			continue; /* not read: said on stderr (unread_warn), never "does not exist" */
		const lt_group *g = snapshot_find_group(s, ids[i]);
		bool rows = group_message(out, err, ids[i], g);
		switch (o->describe) {
		case LT_DESCRIBE_MEMBERS: print_members(out, ids[i], g, rows, o->verbose); break;
		case LT_DESCRIBE_STATE:
			if (rows)
				print_state(out, s, g, o->verbose);
			break;
		case LT_DESCRIBE_OFFSETS:
		default:
			if (rows)
				print_offsets(out, g, o->verbose);
			break;
		}
		fflush(out);
		fflush(err);
	}
	free(ids);
}

/* ------------------------------------------------------------------ the modes */

int kcg_refresh_once(const struct lt_collector_conf *conf, lt_snapshot **out)
{
	char err[1024];
	int rc = LT_EXIT_OK;
	lt_collector *c = collector_new(conf, err, sizeof err);
	if (!c) {
		fprintf(stderr, "lagtop: %s\n", err);
		rc = LT_EXIT_USAGE;
	} else if (collector_refresh_once(c, out, err, sizeof err) != 0) {
		char *e = output_sanitize(err);
		fprintf(stderr, "lagtop: %s\n", e);
		free(e);
		rc = LT_EXIT_CLUSTER;
	}
	collector_free(c);
	return rc;
}

/* One refresh of the groups the options name (all of them for --list and --all-groups). */
static int refresh(const struct lt_options *o, lt_snapshot **out)
{
	struct lt_target t;
	char err[1024];
	*out = NULL;
	if (target_from_options(o, &t, stderr, NULL, err, sizeof err) != 0) {
		fprintf(stderr, "lagtop: %s\n", err);
		return LT_EXIT_USAGE;
	}
	struct lt_collector_conf conf;
	target_collector_conf(&t, o->timeout_ms, &conf);
	conf.commit_stream = false;                                     /* the tool's tables need no commit times */
	conf.no_record_reads = true;                                    /* nor time lags */
	conf.commit_epochs = o->mode == LT_MODE_DESCRIBE && o->verbose; /* --offsets --verbose: LEADER-EPOCH */
	int rc = kcg_refresh_once(&conf, out);
	target_free(&t);
	if (rc == LT_EXIT_OK) {
		const lt_snapshot *s = *out;
		if (s->error) {
			char *e = output_sanitize(s->error);
			fprintf(stderr, "lagtop: warning: %s\n", e);
			free(e);
		}
		for (size_t i = 0; o->mode != LT_MODE_LIST && i < s->n_groups; i++)
			if (s->groups[i].error && !s->groups[i].unread) {
				char *name = output_sanitize(s->groups[i].group),
				     *e = output_sanitize(s->groups[i].error);
				fprintf(stderr, "lagtop: warning: group %s: %s\n", name, e);
				free(name);
				free(e);
			}
		/* one line per cause, instead of a line per group; --list needs only the brokers' lists */
		if (o->mode == LT_MODE_LIST)
			unread_warn_lists(stderr, s);
		else
			unread_warn(stderr, s);
	}
	return rc;
}

static int finish(lt_snapshot *s)
{
	int rc = fflush(stdout) != 0 ? LT_EXIT_CLUSTER : LT_EXIT_OK;
	if (rc)
		fprintf(stderr, "lagtop: cannot write the output\n");
	snapshot_unref(s);
	return rc;
}

int kcg_group_ids(const struct lt_options *o, char ***ids, size_t *n)
{
	lt_snapshot *s;
	struct lt_options every = *o;
	every.all_groups = true;
	every.n_groups = 0;
	*ids = NULL;
	*n = 0;
	int rc = refresh(&every, &s);
	if (rc != LT_EXIT_OK)
		return rc;
	*ids = xcalloc(s->n_groups + 1, sizeof **ids);
	for (size_t i = 0; i < s->n_groups; i++)
		(*ids)[(*n)++] = xstrdup(s->groups[i].group);
	snapshot_unref(s);
	return LT_EXIT_OK;
}

int mode_list(const struct lt_options *o)
{
	lt_snapshot *s;
	struct lt_options every = *o; /* the tool lists every group: the config's include/exclude lists do not apply */
	every.all_groups = true;
	int rc = refresh(&every, &s);
	if (rc != LT_EXIT_OK)
		return rc;
	kcg_print_list(stdout, o, s);
	int unread = unread_lists_exit(s, LT_EXIT_OK);
	rc = finish(s);
	return rc ? rc : unread; /* a list missing a broker's groups is not the cluster's list */
}

/* --all-groups needs every broker's list read; named groups need only themselves read. */
static int describe_unread_exit(const struct lt_options *o, const lt_snapshot *s)
{
	if (o->all_groups)
		return unread_exit(s, LT_EXIT_OK);
	for (size_t i = 0; i < o->n_groups; i++)
		if (snapshot_unread_reason(s, o->groups[i]))
			return LT_EXIT_CLUSTER;
	return LT_EXIT_OK;
}

int mode_describe(const struct lt_options *o)
{
	lt_snapshot *s;
	int rc = refresh(o, &s);
	if (rc != LT_EXIT_OK)
		return rc;
	/* a consumer-protocol group whose members this librdkafka cannot read: its tables would show no
	 * members and '-' owners, which would read as "nobody"; one line says why */
	output_warn_unreadable(stderr, s);
	kcg_print_describe(stdout, stderr, o, s);
	int unread = describe_unread_exit(o, s);
	rc = finish(s);
	return rc ? rc : unread;
}
