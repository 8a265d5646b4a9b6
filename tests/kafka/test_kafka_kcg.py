"""test_kafka_kcg.py — lagtop's kafka-consumer-groups command line against the real tool, on real Kafka 4.x and
3.9.x: the tool's options, tables and messages, and --command-config.

One cluster per Kafka line, beside its PLAINTEXT listener a SASL_SSL listener (SCRAM-SHA-512) and, on 4.x, an
SSL listener that requires a client certificate. Groups made with real members: payments and payments-ledger
(Empty, admin commits; "-g payments" must not select payments-ledger), ahead (Empty, committed past the log
end: the tool's negative LAG), live (a classic kafka-python member on two topics), static (a Java member with
a group.instance.id), on 4.x kip848 (a consumer-protocol Java member), a group with a non-ASCII id and one whose
id is longer than 15 (padding by characters as the tool: their tables are compared as printed). Then, for each case, lagtop and the
real kafka-consumer-groups (kafka_tool_batch.py: one JVM for every run) on the same arguments:
  --list [--state [S]] [--type [T]]; --describe --offsets / --members / --state [--verbose] for --group
  (repeated) and --all-groups; a group that does not exist; bad input (the tool's messages, one line);
  --reset-offsets for several groups and --all-groups (dry run: the same plans, the active groups refused;
  --execute: the inactive groups reset, the active one untouched, backups and audit per group, exit 3);
  --timeout as bare milliseconds; the --once table's first nine columns (awk's $6 is LAG);
  --command-config: the same properties file on SASL_SSL/SCRAM (and on 4.x mutual TLS) gives the tool and
  lagtop the same table; keys librdkafka cannot honour are one line naming them; its precedence (-X dump).
Outputs are compared ignoring column padding and the order of rows inside one block (the tool prints a
member's partitions in hash order, --list in the broker's order); blank lines, headers, messages and their
streams are compared as they are. Where lagtop follows a documented choice (doc/lagtop.1, "COMING FROM
KAFKA-CONSUMER-GROUPS": Kafka 4.x's tables everywhere, 3.9's message for a group that does not exist, exit 2
for usage errors, exit 3 when a group was refused), the case says so and checks that choice.
By hand: LT_KAFKA_KCG_ONLY=4|3.9 runs one line. Prints the wall time per line.
"""
import csv
import io
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import kafkatest as kt  # noqa: E402
from kafkatest import K  # noqa: E402
import simtest  # noqa: E402
from simtest import exit_status, note, ok, plan, require_programs  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
UNICODE_GROUP = "grp-\u00fcn\u00efc\u00f8d\u00e9-\u7ec4"  # 13 characters, 19 bytes
DOTTED_GROUP = "a.dotted.group.of.many.chars"  # longer than 15: a members table without rows keeps 15
BUILD = os.environ.get("LT_BUILDDIR") or os.path.dirname(os.path.dirname(HERE))
LAGTOP = os.environ.get("LAGTOP") or os.path.join(BUILD, "lagtop")
TMP = tempfile.mkdtemp(prefix="lagtop-kcg-")
PASSWORD = "kcg-Sc4am-pw-9z"


RDK = K.lagtop_librdkafka(LAGTOP)
READS_KIP848 = RDK is not None and RDK >= (2, 10, 0)   # members of consumer-protocol groups
SCRAM_ON_4 = RDK is not None and RDK >= (2, 6, 1)      # SCRAM against Kafka 4.x (test_kafka_secure.py)


# ------------------------------------------------------------------ normalising both outputs

def blocks(text, drop=()):
    """The text as blocks (split at blank lines and before each table header); in each, the first line (a header or a message) and then the
    other lines sorted (all of them when the first is neither: --list's ids); every line with its blanks
    collapsed (column padding ignored). Blocks of the groups in `drop` are left out (a documented difference)."""
    out, cur = [], []

    def close():
        if not cur or any("'%s'" % g in cur[0] for g in drop):
            return
        rows = [ln for ln in cur[1:] if ln.split()[0] not in drop]
        if cur[0].startswith("GROUP "):
            # a dropped group's table leaves its header; the header's optional columns are its own
            out.append(("GROUP ..." if drop and not rows else cur[0],) + tuple(sorted(rows)))
        elif cur[0].endswith("."):
            out.append((cur[0],) + tuple(sorted(rows)))
        else:
            out.append(tuple(sorted(cur)))

    for line in text.split("\n"):
        line = " ".join(line.split())
        if not line or (line.startswith("GROUP ") and cur and not cur[0].endswith(".")):
            close()  # a blank line or a header starts a block (blank lines themselves: blank_lines())
            cur = []
        if line:
            cur.append(line)
    close()
    return out


def blank_lines(text):
    """Where the blank lines are (the tool's layout): the text with every non-blank line replaced by 'x'."""
    return "".join("\n" if not ln.strip() else "x\n" for ln in text.split("\n"))


def valid_names_sorted(msg):
    """Kafka 4.x lists the valid states, and the options of "takes one of these options", in hash-set order,
    which changes from one JVM to the next: both sorted."""
    m = re.match(r"(.*Valid (?:states|types) are: )(.*)$", msg or "")
    if m:
        return m.group(1) + ", ".join(sorted(m.group(2).split(", ")))
    m = re.match(r"(.*options: )((?:\[[a-z-]+\](?:, )?)+)$", msg or "")
    return m.group(1) + ", ".join(sorted(m.group(2).split(", "))) if m else msg


def usage_message(err):
    """The tool's usage error: its first line, without joptsimple's exception class name."""
    first = (err.strip().splitlines() or [""])[0]
    return re.sub(r"^joptsimple\.\w+: ", "", first)


def lagtop_message(err):
    lines = [ln for ln in err.splitlines() if ln.strip()]
    return lines[0][len("lagtop: "):] if len(lines) == 1 and lines[0].startswith("lagtop: ") else None


class Ctx:
    def __init__(self, kc, cg):
        self.kc, self.cg, self.line = kc, cg, kc.line
        self.label = "Kafka %s" % kc.version
        self.state = tempfile.mkdtemp(prefix="state-", dir=TMP)
        self.env = dict(os.environ, XDG_STATE_HOME=self.state, XDG_CONFIG_HOME=self.state)
        self.env.pop("LAGTOP_CONFIG", None)
        self.runs = 0

    def tool(self, *args, bootstrap=None):
        return self.cg.run("--bootstrap-server", bootstrap or self.kc.bootstrap, *args)

    def lagtop(self, *args, bootstrap=None, timeout="20s"):
        cmd = ["--bootstrap-server", bootstrap or self.kc.bootstrap] + list(args)
        if timeout and "--timeout" not in args:
            cmd += ["--timeout", timeout]
        self.runs += 1
        return simtest.lagtop(*cmd, env=self.env, timeout=120)


def commit(bootstrap, group, offsets):
    """An admin-style commit (kafka-python assigns, commits, closes): the group stays Empty."""
    from kafka import KafkaConsumer, TopicPartition
    from kafka.structs import OffsetAndMetadata
    c = KafkaConsumer(bootstrap_servers=bootstrap.split(","), group_id=group, enable_auto_commit=False,
                      api_version=(2, 5, 0))
    try:
        c.commit({TopicPartition(t, p): OffsetAndMetadata(o, None) for (t, p), o in offsets.items()})
    finally:
        c.close()


# ------------------------------------------------------------------ the cases

# lagtop with librdkafka < 2.10 cannot read a consumer-protocol group's members (documented): left out of the
# --all-groups comparisons, and compared on its own where lagtop can say what it knows
DROP = () if READS_KIP848 else ("kip848",)


def same(ctx, args, name, transform=None, check_layout=True):
    """lagtop and the tool on the same arguments: the same blocks on stdout and stderr, the same blank-line
    layout on stdout (unless check_layout is False: a documented 3.9 difference), the same exit status.
    transform(text) may rewrite lagtop's stdout first (a documented difference)."""
    rc_t, out_t, err_t = ctx.tool(*args)
    rc_l, out_l, err_l = ctx.lagtop(*args)
    mine = transform(out_l) if transform else out_l
    if DROP:  # lagtop's line about the dropped group (checked in describe_cases)
        err_l = "\n".join(ln for ln in err_l.split("\n") if not (ln.startswith("lagtop: warning: group ") and
                                                                  ln.split()[3].rstrip(":") in DROP))
    diffs = []
    if blocks(out_t, DROP) != blocks(mine, DROP):
        diffs.append("stdout differs:\n--- tool\n%s\n--- lagtop\n%s" % (out_t, out_l))
    if DROP and "--all-groups" in args:
        check_layout = False  # the dropped group's rows are lines of the layout
    if check_layout and blank_lines(out_t) != blank_lines(mine):
        diffs.append("blank lines differ: tool %r, lagtop %r" % (blank_lines(out_t), blank_lines(mine)))
    if blocks(err_t, DROP) != blocks(err_l, DROP):
        diffs.append("stderr differs:\n--- tool\n%s\n--- lagtop\n%s" % (err_t[:1500], err_l[:1500]))
    if rc_t != rc_l:
        diffs.append("exit %d (tool) vs %d (lagtop)" % (rc_t, rc_l))
    ok(not diffs, "%s: %s: lagtop prints what kafka-consumer-groups prints (%s)" % (ctx.label, name,
                                                                                     " ".join(args)),
       "\n".join(diffs))
    return out_t, out_l


def describe_cases(ctx):
    v4 = ctx.line == "4"
    same(ctx, ["--list"], "--list")
    for extra in (["--state"], ["--state", "Stable"], ["--state", "stable,empty"], ["--type"], ["--type", "classic"],
                  ["--state", "--type"], ["--type", "consumer", "--state", "Stable"], ["--type=Consumer"]):
        same(ctx, ["--list"] + extra, "--list " + " ".join(extra))

    # --offsets (the default): Empty, past the log end (negative LAG), active, static member, several, all.
    # Kafka 3.9 ends the table without a newline and puts no blank line between groups' tables (documented)
    for g in ("payments", "ahead", "live", "static"):
        same(ctx, ["--describe", "--group", g], "--describe --group %s" % g, check_layout=v4)
    # Kafka 3.9 prints no blank line between the tables of several groups; lagtop prints 4.x's layout
    same(ctx, ["--describe", "--group", "payments", "--group", "live", "--group", "payments"],
         "--describe, --group repeated (a group named twice is described once)", check_layout=v4)
    out_t, out_l = same(ctx, ["--describe", "--all-groups"], "--describe --all-groups", check_layout=v4)
    ok(re.search(r"^payments-ledger ", out_l, re.M) and re.search(r"^payments ", out_l, re.M),
       "%s: --describe --all-groups holds payments and payments-ledger" % ctx.label, out_l)
    # the tool pads by characters (Java's String.format), not bytes: a non-ASCII id lines up as the tool's, and
    # a members table without rows keeps GROUP 15 wide whatever the id. Compared as printed, padding included
    for g in (UNICODE_GROUP, DOTTED_GROUP):
        # (3.9's --state and --members --verbose tables are not lagtop's: the documented 4.x tables everywhere)
        for extra in ([], ["--members"]) + ((["--state"], ["--members", "--verbose"]) if v4 else ()):
            args = ["--describe", "--group", g] + extra
            rc_t, out_t, err_t = ctx.tool(*args)
            rc_l, out_l, err_l = ctx.lagtop(*args)
            ok(rc_t == rc_l == 0 and out_t.rstrip("\n").split("\n") == out_l.rstrip("\n").split("\n")
               and len(out_t.strip()) > 0,
               "%s: %s: the same table, padding included (%s)" % (ctx.label, " ".join(args), len(g.encode())),
               "--- tool\n%s\n--- lagtop\n%s" % (out_t.replace(" ", "."), out_l.replace(" ", ".")))
    rc, out, err = ctx.lagtop("--describe", "--group", "payments")
    ok(rc == 0 and "payments-ledger" not in out + err and re.search(r"^payments ", out, re.M),
       "%s: --group payments is exact: payments-ledger is not shown" % ctx.label, out + err)
    if v4:
        same(ctx, ["--describe", "--group", "payments", "--offsets", "--verbose"], "--offsets --verbose (Empty group)")
        same(ctx, ["--describe", "--group", "live", "--offsets", "--verbose"], "--offsets --verbose (classic member)")
        # a Java member commits with the leader epoch: LEADER-EPOCH is a number, read with librdkafka >= 2.1
        if RDK is not None and RDK >= (2, 1, 0):
            same(ctx, ["--describe", "--group", "static", "--offsets", "--verbose"],
                 "--offsets --verbose: LEADER-EPOCH of a Java member's commits")
        else:
            rc, out, err = ctx.lagtop("--describe", "--group", "static", "--offsets", "--verbose")
            rows = [ln.split() for ln in out.splitlines() if ln.startswith("static ")]
            ok(rc == 0 and rows and all(r[3] == "-" for r in rows),
               "%s: --offsets --verbose with librdkafka %s: LEADER-EPOCH '-' (it needs 2.1; documented)"
               % (ctx.label, RDK), out + err)
    else:
        rc, out, err = ctx.lagtop("--describe", "--group", "live", "--offsets", "--verbose")
        ok(rc == 0 and re.search(r"^GROUP +TOPIC +PARTITION +LEADER-EPOCH +CURRENT-OFFSET", out, re.M),
           "%s: --offsets --verbose: lagtop prints Kafka 4.x's LEADER-EPOCH column (3.9's tool has none; "
           "documented)" % ctx.label, out + err)

    # --members
    for g in ("live", "static", "payments"):
        same(ctx, ["--describe", "--group", g, "--members"], "--members, group %s" % g)
    same(ctx, ["--describe", "--all-groups", "--members"], "--describe --all-groups --members")
    if v4:
        same(ctx, ["--describe", "--group", "live", "--members", "--verbose"], "--members --verbose")
        same(ctx, ["--describe", "--group", "static", "--members", "--verbose"],
             "--members --verbose with a group.instance.id")
    else:
        rc, out, err = ctx.lagtop("--describe", "--group", "live", "--members", "--verbose")
        ok(rc == 0 and "CURRENT-ASSIGNMENT" in out and re.search(r"audit:0;orders:0,1", out),
           "%s: --members --verbose: lagtop prints Kafka 4.x's columns (3.9's tool: ASSIGNMENT \"(0), (0,1)\"; "
           "documented)" % ctx.label, out + err)

    # --state: 3.9 prints an Empty group's strategy as a blank cell where 4.x (and lagtop) print "-"
    def blank_strategy(text):
        return re.sub(r"^(\S+ +\S+ +\(\d+\) +)- ", r"\1", text, flags=re.M) if not v4 else text
    for g in ("live", "payments"):
        same(ctx, ["--describe", "--group", g, "--state"], "--state, group %s" % g, transform=blank_strategy)
    same(ctx, ["--describe", "--all-groups", "--state"], "--describe --all-groups --state", transform=blank_strategy)
    if v4:
        same(ctx, ["--describe", "--group", "live", "--state", "--verbose"], "--state --verbose")
        same(ctx, ["--describe", "--group", "payments", "--state", "--verbose"], "--state --verbose, Empty group")

    # consumer-protocol group (4.x): read whole with librdkafka >= 2.10
    if v4:
        if READS_KIP848:
            same(ctx, ["--describe", "--group", "kip848"], "--describe, consumer-protocol group")
            same(ctx, ["--describe", "--group", "kip848", "--members"], "--members, consumer-protocol group")
        else:
            rc, out, err = ctx.lagtop("--describe", "--group", "kip848")
            rc_t, out_t, _ = ctx.tool("--describe", "--group", "kip848")
            mine = [ln.split()[:6] for ln in out.splitlines() if ln.startswith("kip848 ")]
            theirs = [ln.split()[:6] for ln in out_t.splitlines() if ln.startswith("kip848 ")]
            ok(rc == 0 and sorted(mine) == sorted(theirs) and mine
               and err == "lagtop: warning: group kip848: KIP-848 consumer-protocol group: members need librdkafka "
                          "2.10+ to be read\n",
               "%s: consumer-protocol group with librdkafka %s: the tool's offsets, lags and partitions; its "
               "members need 2.10 ('-' owners, documented), and one line on stderr says so" % (ctx.label, RDK),
               out + out_t + err)

    # a group that does not exist: 3.9's message, per group (4.x's tool stops on GroupIdNotFoundException)
    if v4:
        rc_t, out_t, err_t = ctx.tool("--describe", "--group", "nope")
        rc, out, err = ctx.lagtop("--describe", "--group", "nope", "--group", "payments")
        ok(rc == 0 and rc_t == 0 and "GroupIdNotFoundException: Group nope not found." in out_t
           and "\nError: Consumer group 'nope' does not exist.\n" in out and re.search(r"^payments ", out, re.M),
           "%s: a group that does not exist: \"Error: Consumer group 'nope' does not exist.\" on stdout, exit 0, "
           "the other groups described (the 4.x tool: a Java exception; documented)" % ctx.label, out + err + out_t)
        rc, out, err = ctx.lagtop("--describe", "--group", "nope", "--members")
        ok(rc == 0 and out.startswith("\nError: Consumer group 'nope' does not exist.\n\nGROUP "),
           "%s: --members of a group that does not exist: the message, then the bare header (3.9's layout)"
           % ctx.label, "rc %d\n%r\n%s" % (rc, out, err))
    else:
        same(ctx, ["--describe", "--group", "nope"], "a group that does not exist")
        same(ctx, ["--describe", "--group", "nope", "--members"], "--members of a group that does not exist")
        same(ctx, ["--describe", "--group", "nope", "--state"], "--state of a group that does not exist")

    # the --once table: the tool's nine columns first, so awk's $6 is LAG
    rc, out, err = ctx.lagtop("--once", "-g", "payments", "-g", "live", "--no-commit-stream")
    rc_t, out_t, _ = ctx.tool("--describe", "--group", "payments", "--group", "live")
    mine = sorted(ln.split()[:9] for ln in out.splitlines()[1:] if ln.split()[1] != "-")
    theirs = sorted(ln.split() for ln in out_t.splitlines() if ln.startswith(("payments ", "live ")))
    ok(rc == 0 and mine == theirs and out.split()[5] == "LAG",
       "%s: --once table: columns 1-9 are the tool's --describe columns, row for row ($6 is LAG)" % ctx.label,
       out + "\n" + out_t)


# bad input: lagtop's one line is the tool's message (Kafka 4.x's words); Kafka 3.9's differ where listed
KNOWN_39 = {
    "Option [describe] takes one of these options: [all-groups], [group]":
        "Option [describe] takes one of these options: [delete], [describe], [list], [reset-offsets]",
}


def bad_input_cases(ctx):
    cases = [
        ["--describe"],
        ["--describe", "--group", "x", "--members", "--state"],
        ["--describe", "--group", "x", "--offsets", "--members"],
        ["--describe", "--group", "x", "--state", "Stable"],
        ["--list", "--group", "x"],
        ["--describe", "--all-groups", "--group", "x"],
        ["--list", "--members"],
        ["--list", "--verbose"],
        ["--verbose", "--group", "x"],
        ["--describe", "--group", "x", "--type"],
        ["--list", "--state", "Bogus"],
        ["--list", "--type", "bogus"],
        ["--describe", "--all-groups", "--topic", "orders"],
        ["--reset-offsets", "--to-earliest", "--all-topics", "--dry-run"],
        ["--list", "--describe", "--all-groups"],
        [],
    ]
    for args in cases:
        rc_t, out_t, err_t = ctx.tool(*args)
        rc_l, out_l, err_l = ctx.lagtop(*args, timeout=None)
        want = usage_message(err_t)
        # 4.x lists its --validate-regex action, which lagtop does not have
        want = valid_names_sorted(want.replace(", --validate-regex", ""))
        got = valid_names_sorted(lagtop_message(err_l))
        if args == []:  # lagtop without an action is the dashboard; with --list/--describe absent: no terminal
            ok(rc_t == 1 and rc_l == 2 and want.startswith("Command must include exactly one action"),
               "%s: no action: the tool asks for one, lagtop opens the dashboard (here: no terminal, exit 2)"
               % ctx.label, err_l)
            continue
        agree = got == want or (ctx.line == "3.9" and KNOWN_39.get(got) == want)
        ok(rc_t == 1 and rc_l == 2 and agree and out_l == "",
           "%s: bad input %s: lagtop's one line is the tool's message (exit 2 where the tool exits 1)"
           % (ctx.label, " ".join(args)), "tool (%d): %s\nlagtop (%d): %s" % (rc_t, want, rc_l, err_l))


# ------------------------------------------------------------------ resets of several groups

def tool_plan_rows(out):
    """{(group, topic, partition): offset} of the tool's reset table (3.9 prints it on one line: tokens)."""
    toks = out.split()
    rows = {}
    if "NEW-OFFSET" not in toks:
        return rows
    i = toks.index("NEW-OFFSET") + 1
    while i + 4 <= len(toks) and toks[i + 2].isdigit():
        rows[(toks[i], toks[i + 1], int(toks[i + 2]))] = int(toks[i + 3])
        i += 4
    return rows


def lagtop_plan_rows(out):
    rows = {}
    for ln in out.splitlines():
        w = ln.split()
        if len(w) >= 4 and w[2].isdigit() and w[0] != "GROUP" and w[3].isdigit():
            rows[(w[0], w[1], int(w[2]))] = int(w[3])
    return rows


def refusals(text):
    return sorted(re.findall(r"Assignments can only be reset if the group '([^']+)' is inactive", text))


def reset_cases(ctx):
    groups = ["payments", "live", "payments-ledger"]
    args = ["--reset-offsets"] + [a for g in groups for a in ("--group", g)] + ["--to-earliest", "--all-topics",
                                                                                "--dry-run"]
    rc_t, out_t, err_t = ctx.tool(*args)
    rc_l, out_l, err_l = ctx.lagtop(*args)
    ok(rc_l == 3 and tool_plan_rows(out_t) == lagtop_plan_rows(out_l) and tool_plan_rows(out_t)
       and refusals(out_t) == refusals(err_l) == ["live"],
       "%s: --reset-offsets for three groups, one active: the same plans for the other two, the active one refused "
       "with the tool's sentence (exit 3 where the tool exits 0)" % ctx.label,
       "tool %d:\n%s\nlagtop %d:\n%s\n%s" % (rc_t, out_t, rc_l, out_l, err_l))
    ok(re.search(r"^lagtop:   live: refused", err_l, re.M) and re.search(r"^lagtop:   payments: dry run", err_l, re.M),
       "%s: several groups: a closing line per group says what happened" % ctx.label, err_l)

    args = ["--reset-offsets", "--all-groups", "--to-latest", "--all-topics", "--dry-run"]
    rc_t, out_t, err_t = ctx.tool(*args)
    rc_l, out_l, err_l = ctx.lagtop(*(args + ["--export"]))
    rows = {(r[0], r[1], int(r[2])): int(r[3]) for r in csv.reader(io.StringIO(out_l)) if len(r) == 4}
    ok(rc_l == 3 and rows == tool_plan_rows(out_t) and refusals(out_t) == refusals(err_l),
       "%s: --reset-offsets --all-groups --export: one CSV with the group column, the tool's plans and refusals"
       % ctx.label, "tool:\n%s\nlagtop %d:\n%s\n%s" % (out_t, rc_l, out_l, err_l))

    # --to-datetime after every record: the tool falls back to the log end and says so per partition on
    # standard output, a blank line before each sentence, before the plan (lagtop's own words: the dashboard)
    args = ["--reset-offsets", "--group", "payments", "--topic", "orders", "--to-datetime", "2100-01-01T00:00:00.000",
            "--dry-run"]
    rc_t, out_t, err_t = ctx.tool(*args)
    rc_l, out_l, err_l = ctx.lagtop(*args)

    def before_plan(out):
        head = out.split("\nGROUP ")[0]
        return sorted(head.split("\n\n")), head.count("\n")

    warns = [ln for ln in out_t.splitlines() if ln.startswith("Warn: ")]
    ok(rc_t == rc_l == 0 and len(warns) == 2 and before_plan(out_t) == before_plan(out_l)
       and "Falling back" not in err_l and "no message at or after" not in err_l
       and tool_plan_rows(out_t) == lagtop_plan_rows(out_l) == {("payments", "orders", 0): 10,
                                                                 ("payments", "orders", 1): 10},
       "%s: --to-datetime after the last record: the tool's 'Warn: Partition P from topic T is empty. Falling back "
       "to latest known offset.' per partition, on standard output before the plan, and the same plan"
       % ctx.label, "tool %d:\n%s\n%s\nlagtop %d:\n%s\n%s" % (rc_t, out_t, err_t, rc_l, out_l, err_l))

    # --execute: the inactive groups reset, the active one untouched; backups and audit lines per group
    before_live = ctx.tool("--describe", "--group", "live")[1]
    args = ["--reset-offsets", "--group", "exec-a", "--group", "live", "--group", "exec-b", "--topic", "orders",
            "--to-offset", "1", "--execute"]
    rc_l, out_l, err_l = ctx.lagtop(*args)
    after = ctx.tool("--describe", "--group", "exec-a", "--group", "exec-b")[1]
    cur = sorted((w[0], w[2], w[3]) for w in (ln.split() for ln in after.splitlines()) if w and w[0].startswith("exec-"))
    bdir = os.path.join(ctx.state, "lagtop", "backups")
    backups = sorted(n.split(".")[0] for n in os.listdir(bdir)) if os.path.isdir(bdir) else []
    audit = open(os.path.join(ctx.state, "lagtop", "audit.log")).read() if os.path.exists(
        os.path.join(ctx.state, "lagtop", "audit.log")) else ""
    after_live = ctx.tool("--describe", "--group", "live")[1]
    ok(rc_l == 3 and cur == [("exec-a", "0", "1"), ("exec-a", "1", "1"), ("exec-b", "0", "1"), ("exec-b", "1", "1")]
       and backups == ["exec-a", "exec-b"] and blocks(before_live) == blocks(after_live),
       "%s: --execute for three groups, one active: the two inactive ones reset (read back with the tool), the "
       "active one untouched, a backup for each reset group and none for the refused one, exit 3" % ctx.label,
       "rc %d\n%s\n%s\nread back %s\nbackups %s" % (rc_l, out_l, err_l, cur, backups))
    # each reset group: its intent before the commit, then its result; the active group: one line, refused
    lines = [ln for ln in audit.splitlines() if " result=" in ln]
    per_group = {g: [ln.split(" result=")[1].split()[0] for ln in lines if (" group=%s " % g) in ln]
                 for g in ("exec-a", "exec-b", "live")}
    ok(per_group == {"exec-a": ["intent", "executed"], "exec-b": ["intent", "executed"], "live": ["refused"]}
       and len(lines) == len(audit.splitlines()) == 5,
       "%s: the audit log has each reset group's intent then result, and the active one's refusal" % ctx.label,
       audit)


# ------------------------------------------------------------------ --timeout

def timeout_cases(ctx):
    same(ctx, ["--describe", "--group", "payments", "--timeout", "5000"],
         "--timeout 5000 (bare milliseconds, as the tool reads them)", check_layout=ctx.line == "4")
    rc, out, err = ctx.lagtop("--describe", "--group", "payments", "--timeout", "20")
    ok(rc == 2 and lagtop_message(err) and "--timeout 20 is ambiguous" in err and "20s or 20ms" in err,
       "%s: --timeout 20: refused as ambiguous (lagtop used to read seconds), one line" % ctx.label, err)
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    t0 = time.monotonic()
    rc, out, err = ctx.lagtop("--describe", "--group", "payments", "--timeout", "1000",
                              bootstrap="127.0.0.1:%d" % port)
    dt = time.monotonic() - t0
    ok(rc == 1 and dt < 8, "%s: --timeout 1000 is one second: an unreachable cluster gives up in %.1f s, exit 1"
       % (ctx.label, dt), err)


# ------------------------------------------------------------------ --command-config

def write(name, text):
    path = os.path.join(TMP, name)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    return path


def command_config_cases(ctx):
    kc = ctx.kc
    ca = kc.tls.ca
    # the file the tool reads, written with the format's corners: comments, ':' and ' ' separators, a
    # continued line, an escaped character
    scram = write("scram-%s.properties" % ctx.line,
                  "# kafka-consumer-groups --command-config\n"
                  "! SCRAM over TLS\n"
                  "security.protocol : SASL_SSL\n"
                  "sasl.mechanism SCRAM-SHA-512\n"
                  "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \\\n"
                  "    username=\"alice\" \\\n"
                  "    password=\"%s\";\n"
                  "ssl.truststore.type=PEM\n"
                  "ssl.truststore.location=%s\n"
                  "client.id=kcg\\u002Dtest\n" % (PASSWORD, ca))
    sasl = kc.listener("SASL_SSL")
    if ctx.line == "4" and not SCRAM_ON_4:
        rc, out, err = ctx.lagtop("--describe", "--group", "payments", "--command-config", scram, bootstrap=sasl,
                                  timeout="8s")
        ok(rc == 1 and lagtop_message(err) and PASSWORD not in out + err,
           "%s: --command-config SCRAM with librdkafka %s (SCRAM on Kafka 4 needs 2.6.1): one line, no password"
           % (ctx.label, RDK), err)
    else:
        for args in (["--describe", "--group", "payments"], ["--describe", "--group", "live", "--members"],
                     ["--list", "--state"]):
            rc_t, out_t, err_t = ctx.tool(*(args + ["--command-config", scram]), bootstrap=sasl)
            rc_l, out_l, err_l = ctx.lagtop(*(args + ["--command-config", scram]), bootstrap=sasl)
            ok(rc_t == rc_l == 0 and blocks(out_t) == blocks(out_l) and out_t.strip() and PASSWORD not in out_l + err_l,
               "%s: --command-config (SASL_SSL, SCRAM-SHA-512, PEM truststore): the tool and lagtop print the same "
               "(%s)" % (ctx.label, " ".join(args)), "tool %d:\n%s%s\nlagtop %d:\n%s%s" % (rc_t, out_t, err_t[:500],
                                                                                          rc_l, out_l, err_l))
        wrong = write("wrong-%s.properties" % ctx.line, open(scram).read().replace(PASSWORD, "Wr0ng-pw-x"))
        rc, out, err = ctx.lagtop("--describe", "--group", "payments", "--command-config", wrong, bootstrap=sasl,
                                  timeout="8s")
        ok(rc == 1 and lagtop_message(err) and "Wr0ng-pw-x" not in out + err and "alice" in err,
           "%s: --command-config with a wrong password: one line naming the user, never the password, exit 1"
           % ctx.label, err)
    if ctx.line == "4":
        both = write("client-keystore.pem", open(kc.tls.client_key).read() + open(kc.tls.client_cert).read())
        mtls = write("mtls.properties", "security.protocol=SSL\nssl.truststore.type=PEM\nssl.truststore.location=%s\n"
                     "ssl.keystore.type=PEM\nssl.keystore.location=%s\n" % (ca, both))
        args = ["--describe", "--group", "payments", "--command-config", mtls]
        rc_t, out_t, err_t = ctx.tool(*args, bootstrap=kc.listener("MTLS"))
        rc_l, out_l, err_l = ctx.lagtop(*args, bootstrap=kc.listener("MTLS"))
        ok(rc_t == rc_l == 0 and blocks(out_t) == blocks(out_l) and out_t.strip(),
           "%s: --command-config (mutual TLS, PEM key store with key and certificate): the same table" % ctx.label,
           "tool %d:\n%s%s\nlagtop %d:\n%s%s" % (rc_t, out_t, err_t[:800], rc_l, out_l, err_l))
    # keys librdkafka cannot honour: one line naming the key, what to use instead, exit 2, nothing printed
    jks = write("jks.properties", "security.protocol=SSL\nssl.truststore.location=/etc/kafka/truststore.jks\n"
                "ssl.truststore.password=changeit\n")
    rc, out, err = ctx.lagtop("--describe", "--group", "payments", "--command-config", jks)
    ok(rc == 2 and out == "" and lagtop_message(err) and "ssl.truststore.location (line 2): a JKS truststore has no "
       "librdkafka equivalent" in err and "ssl.ca.location" in err and "changeit" not in err,
       "%s: a JKS truststore: one line naming the key and what to use instead, exit 2" % ctx.label, err)
    odd = write("odd.properties", "security.protocol=PLAINTEXT\nfetch.max.bytes=1024\n")
    rc, out, err = ctx.lagtop("--describe", "--group", "payments", "--command-config", odd)
    ok(rc == 2 and lagtop_message(err) and "fetch.max.bytes (line 2): no librdkafka equivalent" in err,
       "%s: a key with no librdkafka equivalent: one line naming it" % ctx.label, err)
    rc, out, err = ctx.lagtop("--describe", "--group", "payments", "--command-config", os.path.join(TMP, "none"))
    ok(rc == 2 and lagtop_message(err) and "No such file" in err, "%s: a missing file: one line" % ctx.label, err)
    # precedence: the file < -b < -X (lagtop -X dump shows the effective properties, secrets masked)
    prec = write("prec.properties", "bootstrap.servers=cc-host:1\nclient.id=from-file\nsocket.keepalive.enable=x\n"
                 .replace("socket.keepalive.enable=x\n", "request.timeout.ms=7000\n"))
    p = subprocess.run([LAGTOP, "-X", "dump", "--command-config", prec, "-X", "client.id=from-x", "-b", "b-host:2",
                        "-X", "sasl.password=hunter2"], capture_output=True, text=True, env=ctx.env, timeout=60)
    dump = p.stdout
    ok(p.returncode == 0 and re.search(r"^client.id = from-x$", dump, re.M)
       and re.search(r"^(bootstrap.servers|metadata.broker.list) = b-host:2$", dump, re.M)
       and re.search(r"^socket.timeout.ms = 7000$", dump, re.M) and "hunter2" not in dump,
       "%s: precedence: --command-config, then -b, then -X (-X dump)" % ctx.label, dump[:3000] + p.stderr)


# ------------------------------------------------------------------ one Kafka line

def wait_stable(ctx, groups, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rc, out, err = ctx.tool("--list", "--state")
        states = dict(ln.split()[:2] for ln in out.splitlines()[1:] if len(ln.split()) >= 2)
        if all(states.get(g) == "Stable" for g in groups):
            return True
        time.sleep(0.5)
    return False


def run_line(line, cg):
    t0 = time.monotonic()
    listeners = [("SASL_SSL", "SASL_SSL", {})]
    if line == "4":
        listeners.append(("MTLS", "SSL", {"client_auth": "required"}))
    sec = K.Security(scram={"alice": PASSWORD}, listeners=listeners)
    kc = K.KafkaCluster(line, security=sec)
    try:
        kc.start()
    except (RuntimeError, K.Unavailable) as e:
        ok(False, "Kafka %s with a SASL_SSL listener starts" % line, e)
        return
    members = []
    try:
        ctx = Ctx(kc, cg)
        b = kc.bootstrap
        note("%s started in %.1f s" % (ctx.label, kc.started_in))
        K.create_topic(b, "orders", 2, 10)
        K.create_topic(b, "audit", 1, 5)
        commit(b, "payments", {("orders", 0): 3, ("orders", 1): 5})
        commit(b, "payments-ledger", {("orders", 0): 10, ("audit", 0): 2})
        commit(b, "ahead", {("audit", 0): 15})  # past the log end (5): the tool prints LAG -10
        commit(b, "exec-a", {("orders", 0): 7, ("orders", 1): 8})
        commit(b, "exec-b", {("orders", 0): 9})
        K.create_topic(b, "names", 1, 3)
        commit(b, UNICODE_GROUP, {("names", 0): 0})
        commit(b, DOTTED_GROUP, {("names", 0): 1})
        members.append(K.Member(kc, "kafka-python", "live", ["orders", "audit"], client_id="cli-live"))
        members.append(K.Member(kc, "java", "static", ["audit"], client_id="cli-static",
                                extra={"group.instance.id": "inst-1"}))
        stable = ["live", "static"]
        if line == "4":
            members.append(K.Member(kc, "java", "kip848", ["orders"], protocol="consumer", client_id="cli-kip"))
            stable.append("kip848")
        for m in members:
            m.wait_assigned()
        for m in members:  # each has consumed and committed what there is
            m.wait_for("committed", timeout=30)
        ok(wait_stable(ctx, stable), "%s: the groups with members are Stable" % ctx.label)
        note("%s: groups ready after %.1f s" % (ctx.label, time.monotonic() - t0))
        describe_cases(ctx)
        bad_input_cases(ctx)
        timeout_cases(ctx)
        command_config_cases(ctx)
        reset_cases(ctx)
        note("%s: %d lagtop runs, %d tool runs; wall time %.1f s" % (ctx.label, ctx.runs, cg.runs,
                                                                      time.monotonic() - t0))
    finally:
        for m in members:
            m.stop()
        kc.stop()


def main():
    require_programs("java", "mvn", "openssl", hint="./autogen.sh --install-deps installs it")
    kt.require_kafka_python()
    from kafka_tool_batch import ToolBatch
    only = os.environ.get("LT_KAFKA_KCG_ONLY", "")
    for line in ("4", "3.9"):
        if only and only != line:
            continue
        cg = kt.available(ToolBatch, line)
        try:
            run_line(line, cg)
        finally:
            cg.close()
    plan()
    shutil.rmtree(TMP, ignore_errors=True)
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
