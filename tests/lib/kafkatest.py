"""kafkatest.py — what the tests against real Kafka brokers (tests/kafka) share beside simtest's TAP: their
prerequisites (a JDK and Maven, kafka-python, the pinned jars), one cluster started or the file skipped,
and the real kafka-consumer-groups read as tables.

The brokers themselves are started and stopped by kafka_cluster.py (in this folder; the pom.xml and
the Java clients it builds stay in tests/kafka); this module gives it as K.
Under CI=true every missing prerequisite is a failure, elsewhere the file skips with one line."""
import contextlib
import os
import time
import traceback

import simtest
from simtest import missing_prereq, ok

import kafka_cluster as K

JDK_HINT = "./autogen.sh --install-deps installs a JDK and Maven"


def require_jdk(hint=JDK_HINT):
    """java and mvn on PATH (Maven fetches the pinned Kafka jars)."""
    simtest.require_programs("java", "mvn", hint=hint)


def require_kafka_python(what="kafka-python not found (Debian package python3-kafka)"):
    simtest.require_module("kafka", what)


def require_lines(lines):
    """What a file that runs each Kafka line of lines needs before its plan: a JDK and Maven, each line's
    pinned jars, kafka-python."""
    require_jdk()
    for line in lines:
        available(K.java_classes, line)
    require_kafka_python()


def available(fn, *args, **kw):
    """fn(*args) — a class path, a tool batch, a Python client — or missing_prereq with the reason it
    is not available (kafka_cluster.Unavailable)."""
    try:
        return fn(*args, **kw)
    except K.Unavailable as e:
        missing_prereq(str(e))


def start(kc, name=None):
    """Starts kc: True. Jars or a JDK that are not there: missing_prereq. A cluster that does not come up:
    one failing TAP line (name, default "Kafka <line> starts") and False."""
    try:
        kc.start()
        return True
    except K.Unavailable as e:
        missing_prereq(str(e))
    except RuntimeError as e:
        ok(False, name or "Kafka %s starts" % kc.line, e)
        return False


def on_one_cluster(scenario, *args):
    """A one-node Kafka 4.x cluster for scenario(kc, *args): an exception in it is one failed case, the
    cluster is stopped after it and checked gone (one more case). Prints the plan; the file's exit status."""
    kc = K.KafkaCluster("4")
    if not start(kc):
        simtest.plan()
        return 1
    try:
        print("# Kafka %s started in %.1f s" % (kc.version, kc.started_in))
        scenario(kc, *args)
    except Exception:  # noqa: BLE001 - one failed case, and the cluster still stops
        ok(False, "the scenario ran to its end", traceback.format_exc())
    finally:
        pids = [p.pid for p in kc.procs.values()]
        kc.stop()
        alive = [pid for pid in pids if os.path.exists("/proc/%d" % pid)]
        ok(not alive, "the cluster stopped", alive)
    simtest.plan()
    return simtest.exit_status()


def describe_members(kc, group):
    """kafka-consumer-groups --describe --members for group: (rc, rows split on blanks, its output)."""
    rc, out, err = kc.consumer_groups("--describe", "--group", group, "--members")
    rows = [ln.split() for ln in out.splitlines() if ln.startswith(group + " ")]
    return rc, rows, out + err


def poll(fetch, done, timeout=60, step=0.3):
    """fetch() until done(its value) or timeout seconds passed: the last value fetched."""
    deadline = time.monotonic() + timeout
    value = fetch()
    while not done(value) and time.monotonic() < deadline:
        time.sleep(step)
        value = fetch()
    return value


def guarded(label, check, *args):
    """Runs one group of checks; an exception is one failed case, and the next group still runs."""
    try:
        check(*args)
    except Exception:  # noqa: BLE001 - reported as a failed case
        ok(False, "%s: %s ran to its end" % (label, getattr(check, "__name__", check)), traceback.format_exc())


# ------------------------------------------------------------------------- lagtop beside the real tool


class ToolCtx(simtest.StateDir):
    """One cluster (a real one, or lagtop-sim lent the Java clients) with lagtop and the real
    kafka-consumer-groups side by side: lagtop runs with a private state and config folder (its backups
    and audit log), the tool through one ToolBatch JVM (cg), offsets committed admin-style."""

    def __init__(self, label, line, kc, cg, sim=False, prefix="lagtop-kafka-"):
        self.label, self.line, self.kc, self.cg, self.sim = label, line, kc, cg, sim
        self.bootstrap = kc.bootstrap
        self.api = (2, 0, 0) if sim else (2, 5, 0)
        super().__init__(prefix)

    def path(self, name):
        return os.path.join(self.state, name)

    def tool(self, *args):
        return self.cg.run("--bootstrap-server", self.bootstrap, *args)

    def commit(self, group, offsets):
        """Commits {(topic, partition): offset} for group (an admin-style commit: an Empty simple group)."""
        from kafka import KafkaConsumer, TopicPartition
        from kafka.structs import OffsetAndMetadata
        c = KafkaConsumer(bootstrap_servers=self.bootstrap.split(","), group_id=group, enable_auto_commit=False,
                          api_version=self.api)
        try:
            c.commit({TopicPartition(t, p): OffsetAndMetadata(o, None) for (t, p), o in offsets.items()})
        finally:
            c.close()

    def describe_offsets(self, groups):
        """({group: {(topic, partition): committed}}, the tool's output) from one --describe --offsets."""
        args = ["--describe", "--offsets"]
        for g in groups:
            args += ["--group", g]
        rc, out, err = self.tool(*args)
        res = {g: {} for g in groups}
        for ln in out.splitlines():
            f = ln.split()
            if len(f) >= 4 and f[0] in res and f[2].isdigit() and f[3].isdigit():
                res[f[0]][(f[1], int(f[2]))] = int(f[3])
        return res, out + err

    def committed(self, group):
        return self.describe_offsets([group])[0][group]

    def describe_state(self, group):
        """(state, members) of group as the tool prints them (-1 members when it prints no number)."""
        rc, out, err = self.tool("--describe", "--state", "--group", group)
        for ln in out.splitlines():
            f = ln.split()
            if f and f[0] == group and len(f) >= 2:
                # GROUP COORDINATOR (ID) ASSIGNMENT-STRATEGY STATE #MEMBERS: the last two
                return f[-2], int(f[-1]) if f[-1].isdigit() else -1
        return None, -1

    def wait_state(self, group, states, members=None, timeout=60):
        return poll(lambda: self.describe_state(group),
                    lambda sn: sn[0] in states and (members is None or sn[1] == members), timeout)

    def wait_committed(self, group, want, timeout=60):
        return poll(lambda: self.committed(group), lambda got: got == want, timeout)

    @contextlib.contextmanager
    def classic_members(self, group, client_prefix, log_ends):
        """A Java and a kafka-python member of classic group on topic orders (client ids PREFIX-java and
        PREFIX-kafka-python), waited for until the group is Stable with both and has committed log_ends:
        yields (state, members, committed) as last read; both members stop on leaving."""
        members = [K.Member(self.kc, "java", group, ["orders"], client_id=client_prefix + "-java"),
                   K.Member(self.kc, "kafka-python", group, ["orders"], client_id=client_prefix + "-kafka-python")]
        try:
            st, n = self.wait_state(group, ("Stable",), members=2)
            yield st, n, self.wait_committed(group, log_ends)
        finally:
            for m in members:
                m.stop()

    def lagtop_once_inactive(self, *args, timeout=30):
        """self.lagtop(*args) again every 0.5 s while it refuses an active group (exit 3), for at most
        timeout seconds (members leave synchronously, but the coordinator may take a moment): its last
        (rc, out, err)."""
        deadline = time.monotonic() + timeout
        while True:
            rc, out, err = self.lagtop(*args)
            if rc != 3 or time.monotonic() > deadline:
                return rc, out, err
            time.sleep(0.5)


@contextlib.contextmanager
def sim_for_tools(*sim_args):
    """lagtop-sim as a cluster for the Java clients and the real tool: a KafkaCluster("4") that is not
    started lends its clients (Member) and tools to the sim's address. sim_args: the sim's options (default
    one broker, no auto-created topics). None, after one failing line, when the sim does not start; the sim
    is stopped on leaving."""
    try:
        sim = simtest.Sim(*(sim_args or ("--brokers", "1", "--auto-create-partitions", "0")))
    except RuntimeError as e:
        ok(False, "lagtop-sim starts", e)
        yield None
        return
    try:
        shim = K.KafkaCluster("4")
        shim.bootstrap = sim.bootstrap
        yield shim
    finally:
        sim.stop()


@contextlib.contextmanager
def tool_ctx_on_kafka(ctx_class, line, cg):
    """A ctx_class (a ToolCtx) labelled "Kafka <version>" on a one-node cluster of line, started, with the
    line's tool batch cg; on leaving the ctx is closed and the cluster stopped. None when the cluster does
    not start (start() said why)."""
    kc = K.KafkaCluster(line)
    if not start(kc):
        yield None
        return
    try:
        ctx = ctx_class("Kafka %s" % kc.version, line, kc, cg)
        try:
            yield ctx
        finally:
            ctx.close()
    finally:
        kc.stop()


@contextlib.contextmanager
def tool_ctx_on_sim(ctx_class, cg):
    """A ctx_class (a ToolCtx) labelled lagtop-sim on sim_for_tools() with the 4.x tool batch cg, closed on
    leaving; None, after one failing line, when the sim does not start."""
    with sim_for_tools() as shim:
        if not shim:
            yield None
            return
        ctx = ctx_class("lagtop-sim", "4", shim, cg, sim=True)
        try:
            yield ctx
        finally:
            ctx.close()


def each_line(only, run_line, run_sim):
    """Both Kafka lines (4, then 3.9), each with one ToolBatch: run_line(line, cg), and on 4 run_sim(cg)
    (the sim compared with the 4.x tool). only ("4", "3.9" or "sim", by hand) runs one of them."""
    for line in ("4", "3.9"):
        if only and only not in (line, "sim" if line == "4" else ""):
            continue
        t = time.monotonic()
        from kafka_tool_batch import ToolBatch
        cg = available(ToolBatch, line)
        try:
            if not only or only == line:
                run_line(line, cg)
            if line == "4" and (not only or only == "sim"):
                run_sim(cg)
        finally:
            cg.close()
        simtest.note("Kafka line %s in %.1f s" % (line, time.monotonic() - t))
