"""test_kafka_reset.py — lagtop's offset resets judged by the real kafka-consumer-groups, on Apache Kafka 4.x
and 3.9.x (and on lagtop-sim, with the 4.x tool).

Per cluster: topics whose records carry known CreateTime timestamps, the log start of orders-1 moved by
DeleteRecords, and inactive groups with commits on some partitions. Then:
 1. plans: every target and scope, lagtop's --dry-run --export against the tool's --dry-run table
    (same partitions, same NEW-OFFSET), and the tool's clamp/fallback warnings found in lagtop's;
 2. bad input: the tool's message in lagtop's where lagtop uses kafka-consumer-groups' wording; the few
    cases where the tool only leaks a Java exception text lagtop words on its own (named in the case);
 3. execute: lagtop --execute on one group, the tool --execute on a twin: the same offsets read back
    (kafka-consumer-groups --describe --offsets); on the sim, the tool's plans and commits are also
    compared with its plans and commits on Kafka 4.x (same data), which is what finds a sim difference;
 4. the guard on real groups: Java and kafka-python members in a classic group are refused
    (exit 3, state and members named, nothing committed, no backup) until they leave; a member that joins
    while lagtop is between its preview and its commit is refused by the second guard read (lagtop is
    held in its write of the plan by a full pipe); on 4.x a consumer-protocol (KIP-848) group is refused.
The tool runs in one JVM per Kafka line (ToolBatch.java) rather than one per run. Prints the wall time.
By hand: LT_KAFKA_RESET_ONLY=4|3.9|sim runs one cluster.
"""
import fcntl
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import kafkatest as kt  # noqa: E402
from kafkatest import K  # noqa: E402
import simtest  # noqa: E402
from simtest import exit_status, note, ok, plan  # noqa: E402

# Until lagtop's guard reads consumer-protocol groups (branch kip848: fail closed unless known Empty), a
# librdkafka older than 2.10 describes a live KIP-848 group as Dead (DescribeGroups below v6) and lagtop
# proceeds to a backup and a commit that the broker refuses. 2.10 and later describe it through
# ConsumerGroupDescribe, and the guard refuses it. Set to False when kip848 lands in main.
KIP848_PENDING = False


T_START = time.monotonic()


# ---------------------------------------------------------------------------------------------------------
# parsing both tools


def tool_plan(out):
    """{(topic, partition): new offset} from the tool's table (3.9 prints it on one line: read tokens)."""
    toks = out.split()
    try:
        i = toks.index("NEW-OFFSET") + 1
    except ValueError:
        return None
    plan = {}
    while i + 4 <= len(toks):
        _, topic, part, off = toks[i:i + 4]
        if not (part.isdigit() and off.lstrip("-").isdigit()):
            break
        plan[(topic, int(part))] = int(off)
        i += 4
    return plan


def lagtop_export(out):
    plan = {}
    for ln in out.splitlines():
        f = ln.split(",")
        if len(f) == 3 and f[1].isdigit():
            plan[(f[0], int(f[1]))] = int(f[2])
    return plan


def lagtop_table(out):
    plan, seen = {}, False
    for ln in out.splitlines():
        f = ln.split()
        if f[:4] == ["GROUP", "TOPIC", "PARTITION", "NEW-OFFSET"]:
            seen = True
        elif seen and len(f) >= 4 and f[2].isdigit():
            plan[(f[1], int(f[2]))] = int(f[3])
        elif seen:
            break
    return plan


def tool_warnings(out, err):
    """The tool's per-partition warnings, reduced to what lagtop must say too."""
    w = []
    for ln in (out + "\n" + err).splitlines():
        m = re.search(r"(New offset \(-?\d+\) is (higher|lower) than (latest|earliest) offset for topic partition "
                      r"\S+?\. Value will be set to \d+)", ln)
        if m:
            w.append(m.group(1))
        m = re.search(r"^Warn: Partition \d+ from topic \S+ is empty\. Falling back to latest known offset\.$", ln)
        if m:
            w.append("stdout: " + m.group(0))  # lagtop prints the tool's own line, on standard output
    return w


JAVA_EXC = re.compile(r"^(?:[a-z][a-z0-9_]*\.)+[A-Z][A-Za-z0-9_$]*(?:Exception|Error): ")


def tool_error(rc, out, err):
    """The tool's error message, without its wrapping ("Error: Executing consumer group command failed due
    to", Java exception class names); None when it reported no error."""
    for ln in out.splitlines():
        if ln.startswith("Error: "):
            msg = ln[len("Error: "):]
            msg = msg.replace("Executing consumer group command failed due to ", "", 1)
            while JAVA_EXC.match(msg):
                msg = JAVA_EXC.sub("", msg, count=1)
            return msg.strip()
    if rc != 0:
        for ln in err.splitlines():
            if ln.strip() and not re.match(r"^\[\d{4}-", ln):
                return ln.strip()
        return "exit status %d" % rc
    return None


def lagtop_errors(err):
    """lagtop's messages (not its warnings or the dry-run note), one string."""
    return "\n".join(ln[len("lagtop: "):] for ln in err.splitlines()
                     if ln.startswith("lagtop: ") and not ln.startswith("lagtop: warning: ")
                     and not ln.startswith("lagtop: dry run:"))


def norm(msg):
    # Kafka 4.x quotes the topic argument of "Invalid partition ..." with a stray second quote.
    return msg.replace("''", "'").rstrip(".")


# ---------------------------------------------------------------------------------------------------------
# one cluster


class Ctx(kt.ToolCtx):
    def __init__(self, label, line, kc, cg, sim=False):
        super().__init__(label, line, kc, cg, sim=sim, prefix="lagtop-kreset-")
        self.lagtop_runs = 0
        self.log_start_1 = 0  # orders-1's log start, once setup_data moved it

    def lagtop(self, group, *args, stdout=None, popen=False):
        cmd = [os.environ["LAGTOP"], "--reset-offsets", "-g", group] + list(args) + \
              ["-b", self.bootstrap, "--timeout", "20s"]
        self.lagtop_runs += 1
        if popen:
            return subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                    text=True, env=self.env)
        return simtest.lagtop(*cmd[1:], env=self.env, timeout=90)


def setup_data(ctx):
    """Topics orders (3 x 10, a second apart) and recent (2 x 10, an hour apart, ending near now), the log
    start of orders-1 moved to 3, and group g-plan's commits. Returns the times the cases need."""
    now = int(time.time() * 1000)
    t0 = (now // 1000) * 1000 - 86400000          # orders: a day ago, on a whole second
    now_m = (now // 60000) * 60000
    K.create_topic(ctx.bootstrap, "orders", 3, 10, timestamps=lambda p, i: t0 + (2 * p + i) * 1000,
                   api_version=ctx.api)
    # recent-0 at now-10h ... now-1h; recent-1 the same 45 minutes later
    K.create_topic(ctx.bootstrap, "recent", 2, 10,
                   timestamps=lambda p, i: now_m - (10 - i) * 3600000 + p * 2700000, api_version=ctx.api)
    spec = ctx.path("delete-records.json")
    with open(spec, "w") as f:
        f.write('{"version":1,"partitions":[{"topic":"orders","partition":1,"offset":3}]}')
    rc, out, err = K.run_tool(ctx.line, "org.apache.kafka.tools.DeleteRecordsCommand", "--bootstrap-server",
                              ctx.bootstrap, "--offset-json-file", spec)
    moved = rc == 0 and "low_watermark: 3" in out
    ok(moved, "%s: DeleteRecords moves the log start of orders-1 to 3" % ctx.label, out + err)
    ctx.commit("g-plan", {("orders", 0): 5, ("orders", 1): 4, ("recent", 0): 2})
    ctx.log_start_1 = 3 if moved else 0
    return {"t0": t0, "moved": moved}


def iso(ms, zone_minutes=0):
    t = time.gmtime((ms + zone_minutes * 60000) // 1000)
    s = time.strftime("%Y-%m-%dT%H:%M:%S", t) + ".%03d" % (ms % 1000)
    if zone_minutes:
        s += "%s%02d:%02d" % ("+" if zone_minutes > 0 else "-", abs(zone_minutes) // 60, abs(zone_minutes) % 60)
    return s


def write_csv(ctx, name, rows):
    path = ctx.path(name)
    with open(path, "w") as f:
        f.write("".join(",".join(str(x) for x in r) + "\n" for r in rows))
    return path


def plan_cases(ctx, times):
    t0 = times["t0"]
    A, T, P = ["--all-topics"], ["--topic", "orders"], ["--topic", "orders:0,1"]
    cases = []
    for target in (["--to-earliest"], ["--to-latest"], ["--to-current"]):
        for scope in (A, T, P):
            cases.append((scope, target))
    cases += [
        (A, ["--to-offset", "5"]),                      # inside the log everywhere
        (T, ["--to-offset", "1"]),                      # below the log start of orders-1: clamped to 3
        (P, ["--to-offset", "50"]),                     # above the log end: clamped to 10
        (A, ["--shift-by", "-3"]),                      # orders-1 4-3 below its start; recent-0 2-3 below 0
        (A, ["--shift-by", "2"]),
        (P, ["--shift-by", "+7"]),                      # past the log end: clamped
        (T, ["--to-datetime", iso(t0 + 5000) + "Z"]),   # a record's exact time
        (P, ["--to-datetime", iso(t0 + 5500, 120)]),    # between two records, given in +02:00
        (A, ["--to-datetime", iso(t0 - 3600000)]),      # before every record
        (T, ["--to-datetime", iso(t0 + 3 * 86400000)]),  # after every record: log end, with a warning
        (["--topic", "recent"], ["--by-duration", "PT5H30M"]),
        (["--topic", "recent:1"], ["--by-duration", "P2D"]),
        (["--topic", "recent"], ["--by-duration", "PT0S"]),
        ([], ["--from-file", write_csv(ctx, "plan3.csv", [("orders", 0, 7), ("orders", 1, 0), ("orders", 2, 99),
                                                          ("recent", 1, 4)])]),
        ([], ["--from-file", write_csv(ctx, "plan4.csv", [("g-plan", "orders", 0, 6), ("g-other", "orders", 1, 1),
                                                          ("g-plan", "recent", 0, 4), ("g-plan", "orders", 1, 2)])]),
        (["--topic", "orders", "--topic", "recent:1"], ["--to-earliest"]),  # two --topic options
    ]
    return cases


# The tool's plans and the commits of its --execute on Kafka 4.x, by case: on the sim (same data, same times
# relative to the setup) the tool must find the same, orders-1 aside (the sim cannot move its log start).
REFERENCE = {"label": None, "plans": {}, "executed": {}}


def same_as_kafka(ctx, kind, mine):
    ref = REFERENCE[kind]
    if not ctx.sim or not ref:
        if ctx.line == "4" and not ctx.sim:
            REFERENCE[kind] = dict(mine)
            REFERENCE["label"] = ctx.label
        return
    strip = lambda plan: {k: v for k, v in (plan or {}).items() if k != ("orders", 1)}  # noqa: E731
    differ = ["%s: sim %s, Kafka %s" % (case, strip(mine.get(case)), strip(ref.get(case)))
              for case in sorted(ref) if strip(mine.get(case)) != strip(ref.get(case))]
    ok(not differ, "%s: kafka-consumer-groups %s on the sim what it %s on %s (orders-1 aside: its log start "
       "stays 0)" % (ctx.label, "plans" if kind == "plans" else "commits", "plans" if kind == "plans" else
                     "commits", REFERENCE["label"]), "\n".join(differ))


def check_plans(ctx, times):
    first = True
    plans = {}
    for scope, target in plan_cases(ctx, times):
        what = " ".join(a if not a.startswith("/") else os.path.basename(a) for a in target + scope)
        rc_t, out_t, err_t = ctx.tool("--reset-offsets", "--group", "g-plan", *(scope + target), "--dry-run")
        want = tool_plan(out_t)
        plans[len(plans)] = want
        rc_l, out_l, err_l = ctx.lagtop("g-plan", *(scope + target), "--dry-run", "--export")
        got = lagtop_export(out_l) if rc_l == 0 else None
        ok(want and got == want, "%s: plan %s: the same partitions and NEW-OFFSET as kafka-consumer-groups"
           % (ctx.label, what), "tool (rc %d): %s\n%s\nlagtop (rc %d): %s\n%s" % (rc_t, want, out_t + err_t[:600],
                                                                                rc_l, got, out_l + err_l))
        warns = tool_warnings(out_t, err_t)
        if warns:
            missing = [w for w in warns if not (w[len("stdout: "):] in out_l.splitlines() if w.startswith("stdout: ")
                                                else w in err_l)]
            ok(not missing, "%s: plan %s: lagtop gives the tool's %d warning%s" %
               (ctx.label, what, len(warns), "s" if len(warns) > 1 else ""),
               "missing: %s\nlagtop: %s" % (missing, err_l))
        if first:
            # the table, once: it says what --export says
            first = False
            rc, out, err = ctx.lagtop("g-plan", *(scope + target), "--dry-run")
            ok(rc == 0 and lagtop_table(out) == got, "%s: lagtop's dry-run table shows the plan its --export "
               "gives" % ctx.label, out + err)
            if times["moved"]:
                ok(want == {("orders", 0): 0, ("orders", 1): 3, ("recent", 0): 0},
                   "%s: the tool's earliest plan sees the moved log start (orders-1: 3)" % ctx.label, out_t)
    same_as_kafka(ctx, "plans", plans)


def check_errors(ctx):
    """(name, args, how to judge, needles): "same" = the tool's message appears in lagtop's (lagtop may add
    to it); "own" = the tool only leaks a Java or broker text here: lagtop refuses too, in its own words
    (needles); "stricter" = the tool accepts it, lagtop refuses (needles). Exit status 2 for lagtop."""
    none_csv = ctx.path("none.csv")
    other_csv = write_csv(ctx, "other.csv", [("g-other", "orders", 0, 1), ("g-other", "orders", 1, 1)])
    # 3.9's tool does not check that the partitions exist (4.x does): it spins in listOffsets until its
    # timeout. 4.x's message is the reference, lagtop gives it on every line.
    unknown_partition = ("own", ['The partitions "orders-7" do not exist']) if ctx.line == "3.9" else ("same", [])
    cases = [
        ("unknown topic", ["--topic", "nosuch", "--to-earliest"], "own", ['The topic "nosuch" does not exist']),
        ("unknown partition", ["--topic", "orders:7", "--to-earliest", "--timeout", "1500"]) + unknown_partition,
        ("bad partition", ["--topic", "orders:x", "--to-earliest"], "same", []),
        ("bad datetime", ["--topic", "orders", "--to-datetime", "2026-13-01T00:00:00.000"], "own",
         ["invalid datetime '2026-13-01T00:00:00.000'", "month 13"]),
        ("bad duration", ["--topic", "orders", "--by-duration", "PT6"], "own", ["invalid duration 'PT6'"]),
        ("bad offset", ["--topic", "orders", "--to-offset", "abc"], "same", []),
        ("bad shift", ["--topic", "orders", "--shift-by", "1.5"], "same", []),
        ("missing scope", ["--to-earliest"], "same", []),
        ("shift without a commit", ["--topic", "orders", "--shift-by", "-3"], "same", []),
        ("--dry-run with --execute", ["--topic", "orders", "--to-earliest", "--execute"], "same", []),
        ("two targets", ["--topic", "orders", "--to-earliest", "--to-latest"], "same", []),
        ("two scopes", ["--all-topics", "--topic", "orders", "--to-earliest"], "stricter",
         ["--all-topics and --topic cannot be used together"]),
        ("missing file", ["--from-file", none_csv], "same", []),
        ("file without the group", ["--from-file", other_csv], "same", []),
    ]
    for name, args, how, needles in cases:
        rc_t, out_t, err_t = ctx.tool("--reset-offsets", "--group", "g-plan", *args, "--dry-run")
        msg_t = tool_error(rc_t, out_t, err_t)
        short = msg_t and msg_t.replace(ctx.state, "TMP")
        short = short and (short if len(short) <= 90 else short[:87] + "...")
        largs = args if name != "--dry-run with --execute" else args + ["--dry-run"]
        largs = [a for a in largs if a not in ("--timeout", "1500")]
        rc_l, out_l, err_l = ctx.lagtop("g-plan", *largs, *([] if "--dry-run" in largs else ["--dry-run"]))
        msg_l = lagtop_errors(err_l)
        diag = "tool (rc %d): %s\nlagtop (rc %d): %s" % (rc_t, msg_t, rc_l, msg_l)
        if how == "same":
            good = msg_t is not None and rc_l == 2 and norm(msg_t) in norm(msg_l)
            ok(good, "%s: %s: lagtop says what kafka-consumer-groups says (%s)" % (ctx.label, name, short), diag)
        elif how == "own":
            good = msg_t is not None and rc_l == 2 and all(n in msg_l for n in needles)
            ok(good, "%s: %s: both refuse; lagtop in its own words (the tool: %s)" % (ctx.label, name, short), diag)
        else:
            good = msg_t is None and rc_l == 2 and all(n in msg_l for n in needles)
            ok(good, "%s: %s: the tool accepts it, lagtop refuses (%s)" % (ctx.label, name, msg_l), diag)


def check_execute(ctx, times):
    t0 = times["t0"]
    commits = {("orders", 0): 5, ("orders", 1): 4, ("recent", 0): 2}
    cases = [
        ("earliest", ["--all-topics", "--to-earliest"]),
        ("latest", ["--all-topics", "--to-latest"]),
        ("current", ["--topic", "orders", "--to-current"]),   # orders-2 has no commit: its log end
        ("offset", ["--all-topics", "--to-offset", "1"]),
        ("shift", ["--all-topics", "--shift-by", "-3"]),
        ("datetime", ["--topic", "orders", "--to-datetime", iso(t0 + 5500)]),
        ("duration", ["--topic", "recent", "--by-duration", "PT5H30M"]),
        ("file", ["--from-file", write_csv(ctx, "exec.csv", [("orders", 0, 7), ("orders", 1, 0), ("recent", 1, 99)])]),
    ]
    groups = []
    for name, _ in cases:
        for who in ("lagtop", "kcg"):
            g = "x-%s-%s" % (name, who)
            ctx.commit(g, commits)
            groups.append(g)
    for name, args in cases:
        rc, out, err = ctx.tool("--reset-offsets", "--group", "x-%s-kcg" % name, *args, "--execute")
        if tool_error(rc, out, err):
            note("%s: the tool's --execute %s: %s" % (ctx.label, name, tool_error(rc, out, err)))
        rc, out, err = ctx.lagtop("x-%s-lagtop" % name, *args, "--execute")
        if rc != 0 or "every offset reads back as planned" not in err:
            ok(False, "%s: lagtop --execute %s succeeds" % (ctx.label, name), out + err)
    after, text = ctx.describe_offsets(groups)
    same_as_kafka(ctx, "executed", {name: after["x-%s-kcg" % name] for name, _ in cases})
    for name, args in cases:
        a, b = after["x-%s-lagtop" % name], after["x-%s-kcg" % name]
        ok(a and a == b and a != commits, "%s: --execute %s: lagtop commits what kafka-consumer-groups commits"
           % (ctx.label, " ".join(args[:3]) if name != "file" else "--from-file"),
           "lagtop's group: %s\nthe tool's group: %s\n%s" % (a, b, text[:1500]))


# ---------------------------------------------------------------------------------------------------------
# the guard, with real members (Kafka only)


def check_guard_classic(ctx):
    g = "guard-classic"
    log_ends = {("orders", 0): 10, ("orders", 1): 10, ("orders", 2): 10}
    with ctx.classic_members(g, "ref", log_ends) as (st, n, before):
        ok(st == "Stable" and before == log_ends, "%s: a Java and a kafka-python member are in classic group %s "
           "and have committed everything" % (ctx.label, g), "state %s, %s members, committed %s" % (st, n, before))
        rc, out, err = ctx.lagtop(g, "--all-topics", "--to-earliest", "--execute")
        ok(rc == 3, "%s: guard: lagtop refuses the active classic group (exit 3)" % ctx.label, out + err)
        ok("the current state is Stable." in err and "ref-java" in err and "ref-kafka-python" in err,
           "%s: guard: the refusal names the state and both members' client ids" % ctx.label, err)
        rc_t, out_t, err_t = ctx.tool("--reset-offsets", "--group", g, "--all-topics", "--to-earliest", "--execute")
        msg_t = tool_error(rc_t, out_t, err_t) or ""
        ok(msg_t.startswith("Assignments can only be reset") and norm(msg_t) in norm(lagtop_errors(err)),
           "%s: guard: lagtop's refusal holds kafka-consumer-groups' sentence" % ctx.label,
           "tool: %s\nlagtop: %s" % (msg_t, err))
        after = ctx.committed(g)
        ok(after == before, "%s: guard: nothing was committed" % ctx.label, "%s -> %s" % (before, after))
        ok(ctx.backups(g) == [], "%s: guard: no backup was written" % ctx.label, ctx.backups(g))
    # once they left, the reset goes through
    rc, out, err = ctx.lagtop_once_inactive(g, "--all-topics", "--to-earliest", "--execute")
    after = ctx.committed(g)
    earliest = {("orders", 0): 0, ("orders", 1): ctx.log_start_1, ("orders", 2): 0}
    ok(rc == 0 and after == earliest and len(ctx.backups(g)) == 1,
       "%s: guard: after the members stopped the reset proceeds, with a backup" % ctx.label,
       "rc %d, %s, backups %s\n%s" % (rc, after, ctx.backups(g), err))


F_SETPIPE_SZ = 1031
FIONREAD = 0x541B


def check_guard_race(ctx):
    """A member joins while lagtop is between its preview and its commit: lagtop's plan table is larger than
    a one-page pipe nobody reads, so lagtop sits in the write of its preview (after the first guard read,
    before the second) until the member is in the group."""
    g, topic = "guard-race", "wide-" + "x" * 180
    parts = 40
    K.create_topic(ctx.bootstrap, topic, parts, 1, api_version=ctx.api)
    ctx.commit(g, {(topic, p): 1 for p in range(parts)})
    r, w = os.pipe()
    fcntl.fcntl(w, F_SETPIPE_SZ, 4096)
    size = fcntl.fcntl(w, 1032)  # F_GETPIPE_SZ
    state_before = ctx.backups(g)
    p = ctx.lagtop(g, "--topic", topic, "--to-earliest", "--execute", stdout=w, popen=True)
    os.close(w)
    member = None
    try:
        deadline, held = time.monotonic() + 30, 0
        import array
        buf = array.array("i", [0])
        while time.monotonic() < deadline and p.poll() is None:
            fcntl.ioctl(r, FIONREAD, buf, True)
            held = buf[0]
            if held >= size:
                break
            time.sleep(0.05)
        ok(held >= size and p.poll() is None, "%s: race: lagtop printed its preview and waits in its write (the "
           "first guard passed)" % ctx.label, "pipe holds %d of %d bytes, lagtop %s" % (held, size, p.poll()))
        member = K.Member(ctx.kc, "kafka-python", g, [topic], client_id="late-joiner")
        assigned = member.wait_assigned(60)
        st, n = ctx.wait_state(g, ("Stable",), members=1, timeout=30)
        ok(assigned and st == "Stable", "%s: race: a kafka-python member joined meanwhile" % ctx.label,
           "%s %s %s" % (assigned, st, member.seen))
        chunks = []
        while True:
            b = os.read(r, 65536)
            if not b:
                break
            chunks.append(b)
        rc = p.wait(60)
        err = p.stderr.read()
        out = b"".join(chunks).decode(errors="replace")
        ok(rc == 3 and "current state is Stable" in err and "late-joiner" in err,
           "%s: race: the second guard read refuses the commit (exit 3, state and member named)" % ctx.label,
           "rc %s\n%s\n%s" % (rc, out[-300:], err))
        after = ctx.committed(g)
        ok(after == {(topic, q): 1 for q in range(parts)} and ctx.backups(g) == state_before,
           "%s: race: nothing committed, no backup" % ctx.label, "%s\n%s" % (after, ctx.backups(g)))
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        os.close(r)
        if member:
            member.stop()
    if not ctx.sim:
        note("%s: a member joining after the second guard read, before the commit (the broker's UNKNOWN_MEMBER_ID) "
             "cannot be timed against a real broker: tests/integration/test_reset_sim.c "
             "member_joins_between_preview_and_commit covers it on lagtop-sim" % ctx.label)


def kip848_todo():
    v = K.lagtop_librdkafka(os.environ["LAGTOP"])
    if not KIP848_PENDING or (v and v >= (2, 10, 0)):
        return None
    return "kip848: with librdkafka %s lagtop takes a live consumer-protocol group for Dead" % (
        ".".join(map(str, v)) if v else "of unknown version")


def check_guard_kip848(ctx):
    g = "guard-kip848"
    log_ends = {("orders", 0): 10, ("orders", 1): 10, ("orders", 2): 10}
    backups_before = ctx.backups(g)
    with K.Member(ctx.kc, "java", g, ["orders"], protocol="consumer", client_id="kip848-java") as m:
        assigned = m.wait_assigned(60)
        before = ctx.wait_committed(g, log_ends)
        ok(assigned and before == log_ends, "%s: a Java member is in consumer-protocol group %s and has committed "
           "everything" % (ctx.label, g), "%s %s" % (m.seen, before))
        rc, out, err = ctx.lagtop(g, "--all-topics", "--to-earliest", "--execute")
        after = ctx.committed(g)
        ok(after == before, "%s: KIP-848 guard: nothing was committed" % ctx.label, "%s -> %s" % (before, after))
        rc_t, out_t, err_t = ctx.tool("--reset-offsets", "--group", g, "--all-topics", "--to-earliest", "--execute")
        msg_t = tool_error(rc_t, out_t, err_t) or ""
        ok(rc == 3 and ctx.backups(g) == backups_before and "backup" not in err and
           msg_t.startswith("Assignments can only be reset") and norm(msg_t) in norm(lagtop_errors(err)),
           "%s: KIP-848 guard: lagtop refuses before any backup or commit (exit 3), with the tool's sentence"
           % ctx.label, "rc %d, backups %s\ntool: %s\nlagtop: %s" % (rc, ctx.backups(g), msg_t, err),
           todo=kip848_todo())


# ---------------------------------------------------------------------------------------------------------


def check_cluster(ctx):
    times = setup_data(ctx)
    check_plans(ctx, times)
    check_errors(ctx)
    check_execute(ctx, times)


def guarded(ctx, check):
    kt.guarded(ctx.label, check, ctx)


def run_kafka(line, cg):
    with kt.tool_ctx_on_kafka(Ctx, line, cg) as ctx:
        if not ctx:
            return
        note("%s started in %.1f s" % (ctx.label, ctx.kc.started_in))
        # The batch runner answers as the tool in its own JVM does (one usage error, one plan).
        for args in (["--reset-offsets", "--group", "g", "--to-earliest"],):
            fresh = ctx.kc.consumer_groups(*args)
            batch = ctx.tool(*args)
            ok(fresh[0] == batch[0] and fresh[2].splitlines()[:1] == batch[2].splitlines()[:1] and
               fresh[1] == batch[1], "%s: ToolBatch answers as kafka-consumer-groups in its own JVM" % ctx.label,
               "fresh %r\nbatch %r" % (fresh, batch))
        for check in (check_cluster, check_guard_classic, check_guard_race) + \
                ((check_guard_kip848,) if line != "3.9" else ()):
            t = time.monotonic()
            guarded(ctx, check)
            note("%s: %s in %.1f s" % (ctx.label, check.__name__, time.monotonic() - t))


def run_sim(cg):
    with kt.tool_ctx_on_sim(Ctx, cg) as ctx:
        for check in (check_cluster, check_guard_classic, check_guard_race) if ctx else ():
            t = time.monotonic()
            guarded(ctx, check)
            note("%s: %s in %.1f s" % (ctx.label, check.__name__, time.monotonic() - t))


def main():
    kt.require_jdk()
    kt.require_kafka_python()
    kt.each_line(os.environ.get("LT_KAFKA_RESET_ONLY", ""), run_kafka, run_sim)  # by hand: "4", "3.9" or "sim"
    plan()
    note("wall time %.1f s" % (time.monotonic() - T_START))
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
