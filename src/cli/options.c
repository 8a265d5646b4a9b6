/* options.c — the option table, getopt_long parsing and generated --help. */
#include "cli/options.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/snapshot.h"
#include "record/record.h"
#include "util/errbuf.h"
#include "util/xalloc.h"

/* Option ids: short options use their character, long-only ones start above 255. */
enum {
	OPT_ONCE = 256,
	OPT_FORMAT,
	OPT_SAMPLES,
	OPT_CONFIG,
	OPT_TIMEOUT,
	OPT_DEMO,
	OPT_READ_ONLY,
	OPT_NO_COMMIT_STREAM,
	OPT_THEME,
	OPT_NO_COLOR,
	OPT_ASCII,
	OPT_NO_MOUSE,
	OPT_RESET,
	OPT_ALL_TOPICS,
	OPT_TOPIC,
	OPT_TO_EARLIEST,
	OPT_TO_LATEST,
	OPT_TO_CURRENT,
	OPT_TO_OFFSET,
	OPT_SHIFT_BY,
	OPT_TO_DATETIME,
	OPT_BY_DURATION,
	OPT_FROM_FILE,
	OPT_DRY_RUN,
	OPT_EXECUTE,
	OPT_EXPORT,
	OPT_UNDO,
	OPT_UNDO_BACKUP,
	/* deletes (kafka-consumer-groups' --delete, --delete-offsets) */
	OPT_DELETE,
	OPT_DELETE_OFFSETS,
	/* monitoring (--format prometheus, --fail-on) */
	OPT_FAIL_ON,
	OPT_POSITION_SOURCE,
	OPT_LIST,
	OPT_DESCRIBE,
	OPT_ALL_GROUPS,
	OPT_MEMBERS,
	OPT_OFFSETS,
	OPT_STATE,
	OPT_TYPE,
	OPT_VERBOSE,
	OPT_COMMAND_CONFIG,
	OPT_ALLOW_EXEC_CONFIG,
	/* recording and replay */
	OPT_RECORD,
	OPT_HEADLESS,
	OPT_RECORD_MAX_SIZE,
	OPT_RECORD_KEEP,
	OPT_REPLAY,
	OPT_AT,
	OPT_PEEK,
};

enum section { SEC_GENERAL, SEC_CONNECT, SEC_VIEW, SEC_KCG, SEC_RESET, SEC_DELETE, SEC_RECORD };
#define SEC_LAST SEC_RECORD

static const char *const section_titles[] = {
	[SEC_GENERAL] = "Modes",
	[SEC_CONNECT] = "Connection",
	[SEC_VIEW] = "Display and one-shot output",
	[SEC_KCG] = "kafka-consumer-groups' --list and --describe (same options, same output)",
	[SEC_RESET] = "Offset resets (dry run unless --execute)",
	[SEC_DELETE] = "Deletes (at once, like kafka-consumer-groups; --dry-run previews;\n"
		       "refused while a group has members; backed up first: --undo GROUP --execute)",
	[SEC_RECORD] = "Recording and replay (doc/RECORDING.md)",
};

struct option_def {
	const char *long_name;
	int id;          /* short char or OPT_* */
	int has_arg;     /* no_argument / required_argument / optional_argument (see OPTIONAL_VALUE) */
	const char *arg; /* argument name for help */
	enum section section;
	const char *help;
};

static const struct option_def option_table[] = {
	{ "help", 'h', no_argument, NULL, SEC_GENERAL, "show this help and exit" },
	{ "version", 'V', no_argument, NULL, SEC_GENERAL, "show the version and exit" },
	{ "once", OPT_ONCE, no_argument, NULL, SEC_GENERAL, "refresh once, print the groups and exit" },
	{ "demo", OPT_DEMO, no_argument, NULL, SEC_GENERAL,
	  "start the built-in simulated cluster and open the dashboard on it" },
	{ "reset-offsets", OPT_RESET, no_argument, NULL, SEC_GENERAL,
	  "plan (and with --execute, commit) an offset reset for each --group, or --all-groups" },
	{ "undo", OPT_UNDO, required_argument, "GROUP", SEC_GENERAL,
	  "restore GROUP's offsets from the backup of its newest change (dry run unless --execute)" },
	{ "peek", OPT_PEEK, required_argument, "GROUP", SEC_GENERAL,
	  "print the record at each partition's committed offset (and position) of GROUP, read-only; "
	  "--format table|json" },

	{ "bootstrap-servers", 'b', required_argument, "HOST:PORT,...", SEC_CONNECT,
	  "brokers to bootstrap from (overrides the config); kafka-consumer-groups' --bootstrap-server works too" },
	{ "cluster", 'c', required_argument, "NAME", SEC_CONNECT, "use the named cluster from the config file" },
	{ "config", OPT_CONFIG, required_argument, "FILE", SEC_CONNECT, "read FILE instead of the default config" },
	{ "allow-exec-config", OPT_ALLOW_EXEC_CONFIG, no_argument, NULL, SEC_CONNECT,
	  "let the config file set librdkafka properties that run programs or load code (sasl.kerberos.kinit.cmd, "
	  "plugin.library.paths, ssl.engine.location, ssl.providers); -X may always" },
	{ "property", 'X', required_argument, "KEY=VALUE", SEC_CONNECT,
	  "set a librdkafka property (repeatable); -X list shows them, -X dump the effective ones" },
	{ "command-config", OPT_COMMAND_CONFIG, required_argument, "FILE", SEC_CONNECT,
	  "kafka-consumer-groups' properties file (security.protocol, sasl.*, ssl.*...), mapped to librdkafka; "
	  "-X and -b override it" },
	{ "timeout", OPT_TIMEOUT, required_argument, "TIME", SEC_CONNECT,
	  "give up on the cluster after TIME: 10s, 500ms, or bare milliseconds >= 1000 as kafka-consumer-groups "
	  "reads them (default 10s)" },

	{ "group", 'g', required_argument, "GROUP", SEC_VIEW,
	  "only the group with exactly this id (repeatable), as kafka-consumer-groups' --group" },
	{ "group-regex", 'G', required_argument, "REGEX", SEC_VIEW,
	  "only groups matching the regular expression REGEX (repeatable; --once and the dashboard)" },
	{ "interval", 'i', required_argument, "SECONDS", SEC_VIEW, "refresh interval (default 2)" },
	{ "format", OPT_FORMAT, required_argument, "table|json|csv|prometheus", SEC_VIEW,
	  "output format for --once (default table); with --record --headless, each refresh recorded is printed" },
	{ "samples", OPT_SAMPLES, required_argument, "N", SEC_VIEW,
	  "with --once, take N refreshes --interval apart: rates and time lag need 2, a status 10" },
	{ "read-only", OPT_READ_ONLY, no_argument, NULL, SEC_VIEW,
	  "remove every reset and delete path (keys and options)" },
	{ "no-commit-stream", OPT_NO_COMMIT_STREAM, no_argument, NULL, SEC_VIEW,
	  "do not read __consumer_offsets (no commit times, commit rates or expiry forecasts)" },
	{ "theme", OPT_THEME, required_argument, "NAME", SEC_VIEW,
	  "colour theme (default, light, high-contrast, mono)" },
	{ "no-color", OPT_NO_COLOR, no_argument, NULL, SEC_VIEW, "no colours (also when NO_COLOR is set)" },
	{ "ascii", OPT_ASCII, no_argument, NULL, SEC_VIEW,
	  "ASCII glyphs only (automatic when the locale is not UTF-8)" },
	{ "no-mouse", OPT_NO_MOUSE, no_argument, NULL, SEC_VIEW,
	  "leave the mouse to the terminal (its selection copies text); M toggles it in the dashboard" },
	/* monitoring (--format prometheus, --fail-on) */
	{ "fail-on", OPT_FAIL_ON, required_argument, "warn|err", SEC_VIEW,
	  "with --once, exit 4 when a group's status is WARN or worse (warn) or ERR (err)" },
	{ "position-source", OPT_POSITION_SOURCE, required_argument, "URL|FILE", SEC_VIEW,
	  "read consumers' positions from a Prometheus endpoint or librdkafka statistics (repeatable)" },

	{ "list", OPT_LIST, no_argument, NULL, SEC_KCG,
	  "list the groups, one per line (with --state/--type: a table)" },
	{ "describe", OPT_DESCRIBE, no_argument, NULL, SEC_KCG,
	  "describe --group G... or --all-groups: --offsets (default), --members or --state" },
	{ "all-groups", OPT_ALL_GROUPS, no_argument, NULL, SEC_KCG,
	  "every group of the cluster (--describe, --reset-offsets, --delete)" },
	{ "offsets", OPT_OFFSETS, no_argument, NULL, SEC_KCG, "--describe: partitions, offsets and lag (the default)" },
	{ "members", OPT_MEMBERS, no_argument, NULL, SEC_KCG, "--describe: the members; --verbose adds assignments" },
	{ "state", OPT_STATE, optional_argument, "[S,...]", SEC_KCG,
	  "--describe: coordinator, strategy, state; --list: the state column, only groups in states S" },
	{ "type", OPT_TYPE, optional_argument, "[T,...]", SEC_KCG,
	  "--list: the type column (Classic, Consumer), only groups of types T" },
	{ "verbose", OPT_VERBOSE, no_argument, NULL, SEC_KCG, "--describe: the tool's verbose columns" },

	{ "all-topics", OPT_ALL_TOPICS, no_argument, NULL, SEC_RESET,
	  "every partition the group has a committed offset for" },
	{ "topic", OPT_TOPIC, required_argument, "T[:P,...]", SEC_RESET,
	  "topic T, or only its partitions P (repeatable)" },
	{ "to-earliest", OPT_TO_EARLIEST, no_argument, NULL, SEC_RESET, "reset to the log start offset" },
	{ "to-latest", OPT_TO_LATEST, no_argument, NULL, SEC_RESET, "reset to the log end offset" },
	{ "to-current", OPT_TO_CURRENT, no_argument, NULL, SEC_RESET,
	  "reset to the committed offset (log end if none)" },
	{ "to-offset", OPT_TO_OFFSET, required_argument, "N", SEC_RESET, "reset to offset N (clamped to the log)" },
	{ "shift-by", OPT_SHIFT_BY, required_argument, "N", SEC_RESET,
	  "move the committed offset by N, + or - (clamped)" },
	{ "to-datetime", OPT_TO_DATETIME, required_argument, "YYYY-MM-DDTHH:mm:SS.sss", SEC_RESET,
	  "reset to the first record at or after the time (UTC unless a zone is given)" },
	{ "by-duration", OPT_BY_DURATION, required_argument, "PnDTnHnMnS", SEC_RESET,
	  "reset to the first record at or after now minus the duration" },
	{ "from-file", OPT_FROM_FILE, required_argument, "CSV", SEC_RESET,
	  "reset to the offsets in CSV (topic,partition,offset)" },
	{ "dry-run", OPT_DRY_RUN, no_argument, NULL, SEC_RESET, "only show the plan (the default)" },
	{ "execute", OPT_EXECUTE, no_argument, NULL, SEC_RESET, "commit the plan (after a backup)" },
	{ "export", OPT_EXPORT, no_argument, NULL, SEC_RESET, "print the plan as CSV" },
	{ "backup", OPT_UNDO_BACKUP, required_argument, "FILE", SEC_RESET,
	  "with --undo: apply this backup (e.g. one older than the group's newest change)" },

	/* deletes: the real tool's spellings; --group and --topic as above, --dry-run previews */
	{ "delete", OPT_DELETE, no_argument, NULL, SEC_DELETE,
	  "delete each --group G (exact id, repeatable), or --all-groups, with its offsets" },
	{ "delete-offsets", OPT_DELETE_OFFSETS, no_argument, NULL, SEC_DELETE,
	  "delete one --group's committed offsets on each --topic T[:P,...]" },

	{ "record", OPT_RECORD, required_argument, "FILE", SEC_RECORD,
	  "record every refresh of the dashboard into FILE (an existing FILE is rotated to FILE.1, never "
	  "overwritten)" },
	{ "headless", OPT_HEADLESS, no_argument, NULL, SEC_RECORD,
	  "with --record: no terminal, refresh every --interval until SIGINT or SIGTERM" },
	{ "record-max-size", OPT_RECORD_MAX_SIZE, required_argument, "SIZE", SEC_RECORD,
	  "with --record: start a new FILE before it passes SIZE (512K, 100M, 2G); the old one becomes FILE.1" },
	{ "record-keep", OPT_RECORD_KEEP, required_argument, "N", SEC_RECORD,
	  "with --record: keep N rotated files FILE.1..FILE.N, delete older ones (default 9)" },
	{ "replay", OPT_REPLAY, required_argument, "FILE", SEC_RECORD,
	  "the dashboard on a recording instead of a cluster (with --once: print one recorded moment)" },
	{ "at", OPT_AT, required_argument, "TIME", SEC_RECORD,
	  "with --replay: start at TIME: 2026-12-01T03:10:00[Z|+01:00], 03:10[:00] (UTC, first such time in "
	  "the recording), or -2h (before the recording's end)" },
};

#define N_OPTIONS (sizeof option_table / sizeof option_table[0])

const char *options_long_name(size_t i)
{
	return i < N_OPTIONS ? option_table[i].long_name : NULL;
}

static const struct option_def *find_def(int id)
{
	for (size_t i = 0; i < N_OPTIONS; i++)
		if (option_table[i].id == id)
			return &option_table[i];
	return NULL;
}

/* Whole-number seconds or decimal seconds ("0.5") → milliseconds, within [min_ms, max_ms]. */
static int parse_seconds(const char *s, int min_ms, int max_ms, int *out_ms)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end != '\0' || !(v * 1000.0 >= min_ms) || !(v * 1000.0 <= max_ms))
		return -1;
	*out_ms = (int)(v * 1000.0 + 0.5);
	return 0;
}

int options_parse_timeout(const char *s, int *out_ms, char *err, size_t errlen)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	bool bare = *end == '\0';
	double ms;
	/* plain decimal digits only: no sign, exponent, hex, "inf" or "nan" */
	if (errno || end == s || !(*s >= '0' && *s <= '9') || strspn(s, "0123456789.") != (size_t)(end - s))
		goto bad;
	if (strcmp(end, "ms") == 0)
		ms = v;
	else if (strcmp(end, "s") == 0)
		ms = v * 1000.0;
	else if (bare && strspn(s, "0123456789") == strlen(s))
		ms = v;
	else
		goto bad;
	if (bare && ms < 1000.0)
		return err_set(err, errlen,
			       "--timeout %s is ambiguous: a bare number is milliseconds (as in "
			       "kafka-consumer-groups) and must be at least 1000; write %ss or %sms",
			       s, s, s);
	if (!(ms >= 100.0) || !(ms <= 3600.0 * 1000.0))
		return err_set(err, errlen, "--timeout expects a time between 100ms and 3600s, got '%s'", s);
	*out_ms = (int)(ms + 0.5);
	return 0;
bad:
	return err_set(err, errlen, "--timeout expects a time such as 10s, 500ms or 5000 (milliseconds), got '%s'", s);
}

static int parse_int(const char *s, long min, long max, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end != '\0' || v < min || v > max)
		return -1;
	*out = (int)v;
	return 0;
}

static void push(const char ***arr, size_t *n, const char *v)
{
	*arr = xrealloc(*arr, (*n + 1) * sizeof **arr);
	(*arr)[(*n)++] = v;
}

/* kafka-consumer-groups' actions (it wants exactly one of them). */
static bool kcg_action_mode(lt_mode m)
{
	return m == LT_MODE_LIST || m == LT_MODE_DESCRIBE || m == LT_MODE_RESET || m == LT_MODE_DELETE ||
	       m == LT_MODE_DELETE_OFFSETS;
}

/* The modes are exclusive, whatever the order they are given in: the first one named wins the
 * mode, any different one after it is a usage error naming both (the same mode twice is fine). */
static int set_mode(struct lt_options *o, const char **mode_name, lt_mode m, const char *name, char *err, size_t errlen)
{
	if (*mode_name && o->mode != m) {
		/* two of kafka-consumer-groups' actions: its own words */
		bool kcg_action = kcg_action_mode(o->mode) && kcg_action_mode(m);
		if (kcg_action)
			return err_set(err, errlen,
				       "Command must include exactly one action: --list, --describe, "
				       "--delete, --reset-offsets, --delete-offsets");
		return err_set(err, errlen, "%s cannot be combined with %s: give one mode", *mode_name, name);
	}
	o->mode = m;
	*mode_name = name;
	return 0;
}

/* --list --state S,... and --type T,...: Kafka's names, any case, comma-separated (kafka-consumer-groups
 * parses them the same way and words the error the same way; its lists of valid names are its own order). */
static const struct {
	const char *name;
	lt_group_state state;
} state_names[] = {
	{ "PreparingRebalance", LT_GROUP_PREPARING_REBALANCE },
	{ "Reconciling", LT_GROUP_RECONCILING },
	{ "Dead", LT_GROUP_DEAD },
	{ "CompletingRebalance", LT_GROUP_COMPLETING_REBALANCE },
	{ "Stable", LT_GROUP_STABLE },
	{ "Assigning", LT_GROUP_ASSIGNING },
	{ "Empty", LT_GROUP_EMPTY },
};
static const struct {
	const char *name;
	lt_group_type type;
} type_names[] = { { "Consumer", LT_GTYPE_CONSUMER }, { "Classic", LT_GTYPE_CLASSIC } };

/* Splits list at commas, trims blanks, looks each word up (case-insensitively) with lookup; -1 on an unknown
 * word. */
static int parse_name_list(const char *list, int (*lookup)(const char *word), unsigned *mask)
{
	*mask = 0;
	const char *p = list;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		while (len && (*p == ' ' || *p == '\t'))
			p++, len--;
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		char word[64];
		if (len >= sizeof word)
			return -1;
		memcpy(word, p, len);
		word[len] = '\0';
		int bit = lookup(word);
		if (bit < 0)
			return -1;
		*mask |= 1u << bit;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

static int lookup_state(const char *w)
{
	for (size_t i = 0; i < sizeof state_names / sizeof state_names[0]; i++)
		if (strcasecmp(state_names[i].name, w) == 0)
			return (int)state_names[i].state;
	return -1;
}

static int lookup_type(const char *w)
{
	for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
		if (strcasecmp(type_names[i].name, w) == 0)
			return (int)type_names[i].type;
	return -1;
}

static int parse_states(struct lt_options *o, const char *v, char *err, size_t errlen)
{
	if (parse_name_list(v, lookup_state, &o->state_mask) == 0)
		return 0;
	err_set(err, errlen, "Invalid state list '%s'. Valid states are: ", v);
	size_t n = strlen(err);
	for (size_t i = 0; i < sizeof state_names / sizeof state_names[0] && n < errlen; i++)
		n += (size_t)snprintf(err + n, errlen - n, "%s%s", i ? ", " : "", state_names[i].name);
	return -1;
}

static int parse_types(struct lt_options *o, const char *v, char *err, size_t errlen)
{
	if (parse_name_list(v, lookup_type, &o->type_mask) == 0)
		return 0;
	err_set(err, errlen, "Invalid types list '%s'. Valid types are: ", v);
	size_t n = strlen(err);
	for (size_t i = 0; i < sizeof type_names / sizeof type_names[0] && n < errlen; i++)
		n += (size_t)snprintf(err + n, errlen - n, "%s%s", i ? ", " : "", type_names[i].name);
	return -1;
}

/* The option of each target, for messages. */
static const char *const target_option[] = {
	[LT_TARGET_EARLIEST] = "to-earliest", [LT_TARGET_LATEST] = "to-latest", [LT_TARGET_CURRENT] = "to-current",
	[LT_TARGET_OFFSET] = "to-offset",     [LT_TARGET_SHIFT] = "shift-by",   [LT_TARGET_DATETIME] = "to-datetime",
	[LT_TARGET_DURATION] = "by-duration", [LT_TARGET_FILE] = "from-file",
};

static int set_target(struct lt_options *o, lt_target_kind t, const char *name, const char *arg, char *err,
		      size_t errlen)
{
	/* kafka-consumer-groups' wording (it names the pair in its own order; this one in the order given) */
	if (o->target != LT_TARGET_NONE)
		return err_set(err, errlen, "Option \"[%s]\" can't be used with option \"[%s]\"",
			       target_option[o->target], name);
	o->target = t;
	o->target_arg = arg;
	return 0;
}

/* --delete and --delete-offsets: kafka-consumer-groups' rules and wording (4.x). They delete at once, as
 * the tool does (it ignores --execute and --dry-run here; lagtop accepts --execute and makes --dry-run a
 * preview). */
static int delete_rules(const struct lt_options *o, char *err, size_t errlen)
{
	bool offsets = o->mode == LT_MODE_DELETE_OFFSETS;
	if (o->read_only)
		return err_set(err, errlen, "deletes are disabled by --read-only");
	if (o->dry_run && o->execute)
		return err_set(err, errlen, "Option [%s] only accepts one of [execute] and [dry-run]",
			       offsets ? "delete-offsets" : "delete");
	if (o->target || o->all_topics || o->export_csv)
		return err_set(err, errlen, "%s takes no reset target, --all-topics or --export",
			       offsets ? "--delete-offsets" : "--delete");
	if ((o->format != LT_FORMAT_TABLE || o->samples != 1))
		return err_set(err, errlen, "--format and --samples go with --once");
	if (!offsets) {
		if (o->n_groups == 0 && !o->all_groups)
			return err_set(err, errlen,
				       "Option [delete] takes one of these options: [all-groups], [group]");
		if (o->n_topics)
			return err_set(
				err, errlen,
				"The consumer does not support topic-specific offset deletion from a consumer group.");
		return 0;
	}
	if (o->n_groups == 0 || o->n_topics == 0)
		return err_set(err, errlen, "Option [delete-offsets] takes the following options: [group], [topic]");
	if (o->n_groups > 1)
		return err_set(err, errlen, "Found multiple arguments for option group, but you asked for only one");
	return 0;
}

/* An option kafka-consumer-groups makes "available only if" some action is given: its message (joptsimple's). */
static int unavailable(const char *name, char *err, size_t errlen)
{
	return err_set(err, errlen, "Option(s) [%s] are unavailable given other options on the command line", name);
}

static int kcg_rules(struct lt_options *o, bool members, bool offsets, bool state, const char *state_value, bool type,
		     const char *type_value, char *err, size_t errlen)
{
	bool list = o->mode == LT_MODE_LIST, describe = o->mode == LT_MODE_DESCRIBE;
	if (members && !describe)
		return unavailable("members", err, errlen);
	if (o->verbose && !describe)
		return unavailable("verbose", err, errlen);
	if (offsets && !describe)
		return unavailable("offsets", err, errlen);
	if (state && !describe && !list)
		return unavailable("state", err, errlen);
	if (type && !list)
		return unavailable("type", err, errlen);
	if (o->n_group_regex && (list || describe || o->mode == LT_MODE_RESET || o->mode == LT_MODE_UNDO ||
				 o->mode == LT_MODE_DELETE || o->mode == LT_MODE_DELETE_OFFSETS))
		return err_set(err, errlen,
			       "--group-regex goes with --once and the dashboard; --list, --describe, "
			       "--reset-offsets and the deletes take exact --group ids (or --all-groups)");
	if (describe) {
		if (o->n_groups == 0 && !o->all_groups)
			return err_set(err, errlen,
				       "Option [describe] takes one of these options: [group], [all-groups]");
		if (members + offsets + state > 1)
			return err_set(err, errlen,
				       "Option [describe] takes at most one of these options: [members], "
				       "[offsets], [state]");
		if (state && state_value)
			return err_set(err, errlen, "Option [describe] does not take a value for [state]");
		o->describe = members ? LT_DESCRIBE_MEMBERS : state ? LT_DESCRIBE_STATE : LT_DESCRIBE_OFFSETS;
	}
	o->list_state = list && state;
	o->list_type = type;
	if (o->list_state && state_value && *state_value && parse_states(o, state_value, err, errlen))
		return -1;
	if (type && type_value && *type_value && parse_types(o, type_value, err, errlen))
		return -1;
	if (o->n_groups && o->all_groups)
		return err_set(err, errlen, "Option \"[group]\" can't be used with option \"[all-groups]\"");
	if (o->n_groups && list)
		return err_set(err, errlen, "Option \"[group]\" can't be used with option \"[list]\"");
	if ((o->n_topics || o->all_topics) && (list || describe))
		return err_set(err, errlen, "Option \"[%s]\" can't be used with option \"[%s]\"",
			       o->n_topics ? "topic" : "all-topics", list ? "list" : "describe");
	if (o->all_groups && !describe && o->mode != LT_MODE_RESET && o->mode != LT_MODE_DELETE && !list)
		return unavailable("all-groups", err, errlen);
	return 0;
}

/* --record and --replay: which modes and options go with them. --record records the dashboard (or, with
 * --headless, the refreshes alone); --replay replaces the cluster with a recording, so every option that
 * says how to reach or read a cluster is refused rather than silently ignored. */
static int record_rules(const struct lt_options *o, const char *mode_name, bool have_timeout, char *err, size_t errlen)
{
	if (o->record_path && o->replay_path)
		return err_set(err, errlen, "--record and --replay cannot be combined: give one");
	if (!o->record_path && (o->headless || o->record_max_size || o->record_keep >= 0))
		return err_set(err, errlen, "%s goes with --record FILE",
			       o->headless          ? "--headless"
			       : o->record_max_size ? "--record-max-size"
						    : "--record-keep");
	if (o->record_path && mode_name)
		return err_set(err, errlen,
			       "--record cannot be combined with %s: it records the dashboard, or with "
			       "--headless the refreshes alone",
			       mode_name);
	if (o->replay_at && !o->replay_path)
		return err_set(err, errlen, "--at goes with --replay FILE");
	if (!o->replay_path)
		return 0;
	if (mode_name && o->mode != LT_MODE_ONCE)
		return err_set(err, errlen,
			       "--replay cannot be combined with %s: it shows a recording (the "
			       "dashboard, or one moment with --once)",
			       mode_name);
	const char *refused = o->bootstrap            ? "-b"
			      : o->cluster            ? "-c"
			      : o->config_path        ? "--config"
			      : o->n_props            ? "-X"
			      : o->command_config     ? "--command-config"
			      : have_timeout          ? "--timeout"
			      : o->n_position_sources ? "--position-source"
			      : o->no_commit_stream   ? "--no-commit-stream"
			      : o->n_groups           ? "--group"
			      : o->n_group_regex      ? "--group-regex"
			      : o->all_groups         ? "--all-groups"
			      : o->interval_ms > 0    ? "--interval"
			      : o->samples != 1       ? "--samples"
						      : NULL;
	if (refused)
		return err_set(err, errlen, "--replay reads a recording, not a cluster: it takes no %s", refused);
	return 0;
}

int options_parse(struct lt_options *o, int argc, char **argv, char *err, size_t errlen)
{
	struct option longopts[N_OPTIONS + 1];
	char shortopts[64];
	size_t ns = 0;

	memset(o, 0, sizeof *o);
	o->timeout_ms = 10000;
	o->interval_ms = -1;
	o->samples = 1;
	o->format = LT_FORMAT_TABLE;
	o->record_keep = -1;

	for (size_t i = 0; i < N_OPTIONS; i++) {
		longopts[i] =
			(struct option){ option_table[i].long_name, option_table[i].has_arg, NULL, option_table[i].id };
		if (option_table[i].id < 256) { /* (no short option takes an optional argument) */
			shortopts[ns++] = (char)option_table[i].id;
			if (option_table[i].has_arg == required_argument)
				shortopts[ns++] = ':';
		}
	}
	longopts[N_OPTIONS] = (struct option){ 0 };
	shortopts[0 + ns] = '\0';
	/* leading ':' so missing arguments are reported as ':' and we word the message ourselves */
	char optstring[sizeof shortopts + 2];
	/* '+': stop at the first word that is no option, so an optional argument may follow its option as
	 * kafka-consumer-groups allows ("--state Stable", "--type classic"): see OPTIONAL_VALUE */
	snprintf(optstring, sizeof optstring, "+:%s", shortopts);

	optind = 0; /* full re-initialisation (glibc), so options_parse can be called more than once */
	opterr = 0;
	const char *mode_name = NULL; /* the mode option given, as written in messages */
	bool have_state = false, have_type = false, have_members = false, have_offsets = false;
	const char *state_value = NULL, *type_value = NULL;
	bool have_timeout = false;
	int c;
/* The value of an optional-argument option: "--state=S" or "--state S" (the next word, when it is no option). */
#define OPTIONAL_VALUE() (optarg ? optarg : (optind < argc && argv[optind][0] != '-' ? argv[optind++] : NULL))
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		const struct option_def *def = find_def(c);
		const char *name = def ? def->long_name : "?";
		switch (c) {
		case 'h': o->mode = LT_MODE_HELP; return 0;
		case 'V': o->mode = LT_MODE_VERSION; return 0;
		case OPT_ONCE:
			if (set_mode(o, &mode_name, LT_MODE_ONCE, "--once", err, errlen))
				return -1;
			break;
		case OPT_DEMO:
			if (set_mode(o, &mode_name, LT_MODE_DEMO, "--demo", err, errlen))
				return -1;
			break;
		case OPT_RESET:
			if (set_mode(o, &mode_name, LT_MODE_RESET, "--reset-offsets", err, errlen))
				return -1;
			break;
		case OPT_UNDO:
			if (set_mode(o, &mode_name, LT_MODE_UNDO, "--undo", err, errlen))
				return -1;
			o->undo_group = optarg;
			break;
		case OPT_UNDO_BACKUP: o->undo_backup = optarg; break;
		case OPT_PEEK:
			if (set_mode(o, &mode_name, LT_MODE_PEEK, "--peek", err, errlen))
				return -1;
			o->peek_group = optarg;
			break;
		case OPT_DELETE:
			if (set_mode(o, &mode_name, LT_MODE_DELETE, "--delete", err, errlen))
				return -1;
			break;
		case OPT_DELETE_OFFSETS:
			if (set_mode(o, &mode_name, LT_MODE_DELETE_OFFSETS, "--delete-offsets", err, errlen))
				return -1;
			break;
		case 'b': o->bootstrap = optarg; break;
		case 'c': o->cluster = optarg; break;
		case OPT_CONFIG: o->config_path = optarg; break;
		case 'X':
			if (strcmp(optarg, "list") == 0) {
				if (set_mode(o, &mode_name, LT_MODE_X_LIST, "-X list", err, errlen))
					return -1;
			} else if (strcmp(optarg, "dump") == 0) {
				if (set_mode(o, &mode_name, LT_MODE_X_DUMP, "-X dump", err, errlen))
					return -1;
			} else {
				const char *eq = strchr(optarg, '=');
				if (!eq || eq == optarg)
					return err_set(err, errlen, "-X expects KEY=VALUE, 'list' or 'dump', got '%s'",
						       optarg);
				push(&o->props, &o->n_props, optarg);
			}
			break;
		case OPT_TIMEOUT:
			have_timeout = true;
			if (options_parse_timeout(optarg, &o->timeout_ms, err, errlen))
				return -1;
			break;
		case 'g': push(&o->groups, &o->n_groups, optarg); break;
		case 'G': push(&o->group_regex, &o->n_group_regex, optarg); break;
		case OPT_LIST:
			if (set_mode(o, &mode_name, LT_MODE_LIST, "--list", err, errlen))
				return -1;
			break;
		case OPT_DESCRIBE:
			if (set_mode(o, &mode_name, LT_MODE_DESCRIBE, "--describe", err, errlen))
				return -1;
			break;
		case OPT_ALL_GROUPS: o->all_groups = true; break;
		case OPT_MEMBERS: have_members = true; break;
		case OPT_OFFSETS: have_offsets = true; break;
		case OPT_VERBOSE: o->verbose = true; break;
		case OPT_STATE:
			have_state = true;
			state_value = OPTIONAL_VALUE();
			break;
		case OPT_TYPE:
			have_type = true;
			type_value = OPTIONAL_VALUE();
			break;
		case OPT_COMMAND_CONFIG: o->command_config = optarg; break;
		case OPT_ALLOW_EXEC_CONFIG: o->allow_exec_config = true; break;
		case 'i':
			if (parse_seconds(optarg, 100, 3600 * 1000, &o->interval_ms))
				return err_set(err, errlen, "--interval expects seconds between 0.1 and 3600, got '%s'",
					       optarg);
			break;
		case OPT_FORMAT:
			o->format_given = true;
			if (strcmp(optarg, "table") == 0)
				o->format = LT_FORMAT_TABLE;
			else if (strcmp(optarg, "json") == 0)
				o->format = LT_FORMAT_JSON;
			else if (strcmp(optarg, "csv") == 0)
				o->format = LT_FORMAT_CSV;
			else if (strcmp(optarg, "prometheus") == 0)
				o->format = LT_FORMAT_PROMETHEUS;
			else
				return err_set(err, errlen, "--format expects table, json, csv or prometheus, got '%s'",
					       optarg);
			break;
		case OPT_SAMPLES:
			if (parse_int(optarg, 1, 10000, &o->samples))
				return err_set(err, errlen,
					       "--samples expects a whole number from 1 to 10000, got '%s'", optarg);
			break;
		case OPT_READ_ONLY: o->read_only = true; break;
		case OPT_NO_COMMIT_STREAM: o->no_commit_stream = true; break;
		case OPT_POSITION_SOURCE: push(&o->position_sources, &o->n_position_sources, optarg); break;
		case OPT_THEME: o->theme = optarg; break;
		case OPT_NO_COLOR: o->no_color = true; break;
		case OPT_ASCII: o->ascii = true; break;
		case OPT_NO_MOUSE: o->no_mouse = true; break;
		case OPT_ALL_TOPICS: o->all_topics = true; break;
		case OPT_TOPIC: push(&o->topics, &o->n_topics, optarg); break;
		case OPT_TO_EARLIEST:
			if (set_target(o, LT_TARGET_EARLIEST, name, NULL, err, errlen))
				return -1;
			break;
		case OPT_TO_LATEST:
			if (set_target(o, LT_TARGET_LATEST, name, NULL, err, errlen))
				return -1;
			break;
		case OPT_TO_CURRENT:
			if (set_target(o, LT_TARGET_CURRENT, name, NULL, err, errlen))
				return -1;
			break;
		case OPT_TO_OFFSET:
			if (set_target(o, LT_TARGET_OFFSET, name, optarg, err, errlen))
				return -1;
			break;
		case OPT_SHIFT_BY:
			if (set_target(o, LT_TARGET_SHIFT, name, optarg, err, errlen))
				return -1;
			break;
		case OPT_TO_DATETIME:
			if (set_target(o, LT_TARGET_DATETIME, name, optarg, err, errlen))
				return -1;
			break;
		case OPT_BY_DURATION:
			if (set_target(o, LT_TARGET_DURATION, name, optarg, err, errlen))
				return -1;
			break;
		case OPT_FROM_FILE:
			if (set_target(o, LT_TARGET_FILE, name, optarg, err, errlen))
				return -1;
			break;
		case OPT_DRY_RUN: o->dry_run = true; break;
		case OPT_EXECUTE: o->execute = true; break;
		case OPT_EXPORT: o->export_csv = true; break;
		/* monitoring (--format prometheus, --fail-on) */
		case OPT_FAIL_ON:
			if (strcmp(optarg, "warn") == 0)
				o->fail_on = LT_FAIL_ON_WARN;
			else if (strcmp(optarg, "err") == 0)
				o->fail_on = LT_FAIL_ON_ERR;
			else
				return err_set(err, errlen, "--fail-on expects warn or err, got '%s'", optarg);
			break;
		case OPT_RECORD: o->record_path = optarg; break;
		case OPT_HEADLESS: o->headless = true; break;
		case OPT_RECORD_MAX_SIZE:
			if (!rec_parse_size(optarg, &o->record_max_size) || o->record_max_size < 4096)
				return err_set(err, errlen,
					       "--record-max-size expects a size of at least 4K such as 512K, "
					       "100M or 2G, got '%s'",
					       optarg);
			break;
		case OPT_RECORD_KEEP:
			if (parse_int(optarg, 1, 1000, &o->record_keep))
				return err_set(err, errlen,
					       "--record-keep expects a whole number from 1 to 1000, got '%s'", optarg);
			break;
		case OPT_REPLAY: o->replay_path = optarg; break;
		case OPT_AT: o->replay_at = optarg; break;
		case ':': return err_set(err, errlen, "option '%s' needs an argument", argv[optind - 1]);
		case '?':
		default:
			if (optopt && optopt < 256)
				return err_set(err, errlen, "unknown option '-%c' (see --help)", optopt);
			return err_set(err, errlen, "unknown option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return err_set(err, errlen, "unexpected argument '%s' (see --help)", argv[optind]);

	if (getenv("NO_COLOR") && *getenv("NO_COLOR"))
		o->no_color = true;

	if (record_rules(o, mode_name, have_timeout, err, errlen))
		return -1;

	/* kafka-consumer-groups' rules for its actions, in its words (ConsumerGroupCommandOptions.checkArgs, 4.x) */
	if (kcg_rules(o, have_members, have_offsets, have_state, state_value, have_type, type_value, err, errlen))
		return -1;

	/* Cross-option rules. */
	if (o->mode == LT_MODE_DELETE || o->mode == LT_MODE_DELETE_OFFSETS)
		return delete_rules(o, err, errlen);
	bool reset_like = o->mode == LT_MODE_RESET || o->mode == LT_MODE_UNDO;
	/* kafka-consumer-groups' wording for the rules it shares (see doc/RESET-SEMANTICS.md) */
	if (o->dry_run && o->execute)
		return err_set(err, errlen, "Option [%s] only accepts one of [execute] and [dry-run]",
			       o->mode == LT_MODE_UNDO ? "undo" : "reset-offsets");
	if (!reset_like && (o->all_topics || o->n_topics || o->target || o->dry_run || o->execute || o->export_csv))
		return err_set(err, errlen, "reset options need --reset-offsets (or --undo)");
	if (o->read_only && reset_like)
		return err_set(err, errlen, "resets are disabled by --read-only");
	if (o->mode == LT_MODE_RESET) {
		if (o->n_groups == 0 && !o->all_groups)
			return err_set(err, errlen,
				       "Option [reset-offsets] takes one of these options: [group], [all-groups]");
		if (o->target == LT_TARGET_NONE)
			return err_set(err, errlen,
				       "--reset-offsets needs a target: --to-earliest, --to-latest, --to-current, "
				       "--to-offset, --shift-by, --to-datetime, --by-duration or --from-file");
		if (o->target != LT_TARGET_FILE && !o->all_topics && o->n_topics == 0)
			return err_set(err, errlen,
				       "One of the reset scopes should be defined: --all-topics, --topic.");
		if (o->all_topics && o->n_topics)
			return err_set(err, errlen, "--all-topics and --topic cannot be used together");
	}
	if (o->undo_backup && o->mode != LT_MODE_UNDO)
		return err_set(err, errlen, "--backup goes with --undo GROUP: it names the backup the undo applies");
	if (o->mode == LT_MODE_UNDO && (o->target || o->all_topics || o->n_topics))
		return err_set(err, errlen,
			       "--undo takes no target or scope: it restores the newest backup as a whole");
	if (o->samples != 1 && o->mode != LT_MODE_ONCE)
		return err_set(err, errlen, "--format and --samples go with --once");
	if (o->mode == LT_MODE_PEEK && (o->format == LT_FORMAT_CSV || o->format == LT_FORMAT_PROMETHEUS))
		return err_set(err, errlen, "--peek prints --format table or json");
	if (o->mode == LT_MODE_PEEK && (o->n_groups || o->n_group_regex || o->all_groups))
		return err_set(err, errlen,
			       "--peek takes its one group as its argument: no --group, -G or --all-groups");
	/* --record --headless --format F: each recorded refresh printed as --once prints it (JSON: one line) */
	if (o->format != LT_FORMAT_TABLE && o->mode != LT_MODE_ONCE && o->mode != LT_MODE_PEEK &&
	    !(o->record_path && o->headless))
		return err_set(err, errlen,
			       "--format and --samples go with --once (--format also with --record --headless)");
	if (o->fail_on != LT_FAIL_ON_NONE && o->mode != LT_MODE_ONCE)
		return err_set(err, errlen, "--fail-on goes with --once");
	if (o->mode == LT_MODE_DEMO && (o->bootstrap || o->cluster))
		return err_set(err, errlen, "--demo runs its own cluster; it takes no -b or -c");
	return 0;
}

void options_free(struct lt_options *o)
{
	free(o->props);
	free(o->groups);
	free(o->group_regex);
	free(o->topics);
	free(o->position_sources);
	memset(o, 0, sizeof *o);
}

/* One option as --help names it: "-b, --bootstrap-servers HOST:PORT,..." or "--once". */
static void help_name(const struct option_def *d, char *buf, size_t len)
{
	if (d->id < 256)
		snprintf(buf, len, "-%c, --%s%s%s", d->id, d->long_name, d->arg ? " " : "", d->arg ? d->arg : "");
	else
		snprintf(buf, len, "--%s%s%s", d->long_name, d->arg ? " " : "", d->arg ? d->arg : "");
}

/* --help fits 80 columns and a screen: each section's options are packed on lines of at most HELP_WIDTH
 * columns, three spaces apart; what each does is in lagtop(1), which lists them in the same sections. So
 * a row added to the table costs a line per few options, never one each. */
#define HELP_WIDTH 80

static void help_section(FILE *out, int sec)
{
	fprintf(out, "\n%s:\n", section_titles[sec]);
	int col = 0;
	for (size_t i = 0; i < N_OPTIONS; i++) {
		const struct option_def *d = &option_table[i];
		if ((int)d->section != sec)
			continue;
		char name[96];
		help_name(d, name, sizeof name);
		int w = (int)strlen(name);
		if (col > 0 && col + 3 + w > HELP_WIDTH) {
			fputc('\n', out);
			col = 0;
		}
		col += fprintf(out, "%s%s", col ? "   " : "  ", name);
	}
	if (col > 0)
		fputc('\n', out);
}

void options_print_help(FILE *out, const char *argv0)
{
	fprintf(out,
		"Usage: %s [OPTIONS]                 live dashboard of consumer groups\n"
		"       %s --once [--format F] [--samples N] [--fail-on warn|err]\n"
		"       %s --list [--state [S,...]] [--type [T,...]]\n"
		"       %s --describe (-g GROUP... | --all-groups)\n"
		"              [--offsets | --members | --state] [--verbose]\n"
		"       %s --reset-offsets (-g GROUP... | --all-groups)\n"
		"              (--all-topics | --topic T[:P,...]) TARGET [--execute]\n"
		"       %s --undo GROUP [--backup FILE] [--execute]\n"
		"       %s --peek GROUP [--format table|json]\n"
		"       %s --delete (--group GROUP... | --all-groups) [--dry-run]\n"
		"       %s --delete-offsets --group GROUP --topic T[:P,...]... [--dry-run]\n"
		"       %s --demo\n"
		"       %s --record FILE [--headless] [--record-max-size SIZE]\n"
		"       %s --replay FILE [--at TIME] [--once [--format F]]\n",
		argv0, argv0, argv0, argv0, argv0, argv0, argv0, argv0, argv0, argv0, argv0, argv0);
	for (int sec = SEC_GENERAL; sec <= SEC_LAST; sec++)
		help_section(out, sec);
	fprintf(out, "\nWhat each option does: lagtop(1), OPTIONS (man lagtop), in the same sections.\n"
		     "Exit status: 0 ok, 1 cluster or I/O error, 2 usage error, 3 refused by the\n"
		     "guard, 4 a group at or above --fail-on (--once; never a status not evaluated).\n");
}
