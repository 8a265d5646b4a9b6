"""test_kafka_reset_outcome.py — a reset whose commit gets no answer, on a real Apache Kafka 4.x broker: the
broker is stopped (SIGSTOP) as soon as lagtop's backup exists, so the commit lagtop sends next waits past
lagtop's 3 s timeout; after 5 s the broker goes on (SIGCONT). lagtop must say "outcome unknown", settle it by
reading the offsets back, and report what the broker really did: the offset read afterwards is the one
lagtop reports (applied: the planned offset, exit 0; not applied: the previous one, exit 1), and the audit
log has "intent" then that result. A run in which the broker answered before it was stopped proves nothing
and is tried again (at most 4 runs). Every wait is bounded; the broker is always continued and stopped.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import kafkatest as kt  # noqa: E402
from kafkatest import K  # noqa: E402
import simtest  # noqa: E402
from simtest import exit_status, note, ok, plan  # noqa: E402


class Run:
    def __init__(self, kc):
        self.kc = kc
        self.state = tempfile.mkdtemp(prefix="lagtop-kafka-outcome.")
        self.env = dict(os.environ, XDG_STATE_HOME=self.state, XDG_CONFIG_HOME=self.state)
        self.env.pop("LAGTOP_CONFIG", None)

    def args(self, *args, timeout="20s"):
        return [os.environ["LAGTOP"], *args, "-b", self.kc.bootstrap, "--timeout", timeout]

    def lagtop(self, *args):
        return simtest.lagtop(*self.args(*args)[1:], env=self.env, timeout=120)

    def committed(self, group):
        """The committed offset of orders-0 (bounded retries: the broker may still be catching up)."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            rc, out, err = self.lagtop("--describe", "-g", group, "--offsets")
            for ln in out.splitlines():
                f = ln.split()
                if rc == 0 and len(f) >= 4 and f[0] == group and f[1] == "orders" and f[2] == "0":
                    return None if f[3] == "-" else int(f[3])
            time.sleep(1)
        return "unreadable"

    def backups(self):
        d = os.path.join(self.state, "lagtop", "backups")
        return os.listdir(d) if os.path.isdir(d) else []

    def audit(self, group):
        try:
            with open(os.path.join(self.state, "lagtop", "audit.log")) as f:
                return [re.search(r" result=(\S+)", ln).group(1) for ln in f.read().splitlines()
                        if " group=%s " % group in ln]
        except FileNotFoundError:
            return []


def stopped_commit(kc, run, group, target):
    """One reset of group to target with the broker stopped from the backup on: (rc, stderr, stopped)."""
    broker = kc.procs[1]
    n0 = len(run.backups())
    p = subprocess.Popen(run.args("--reset-offsets", "-g", group, "--topic", "orders:0", "--to-offset", str(target),
                                  "--execute", timeout="3s"),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=run.env,
                         stdin=subprocess.DEVNULL)
    stopped = False
    try:
        deadline = time.monotonic() + 60
        while len(run.backups()) <= n0 and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.001)
        if len(run.backups()) > n0:
            broker.send_signal(signal.SIGSTOP)
            stopped = True
            time.sleep(5)
    finally:
        if stopped:
            broker.send_signal(signal.SIGCONT)
    try:
        out, err = p.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        return None, err, stopped
    return p.returncode, err, stopped


def run_case(kc):
    K.create_topic(kc.bootstrap, "orders", 1, per_partition=2000)
    run = Run(kc)
    try:
        group = "outcome-g"
        deadline = time.monotonic() + 60
        while True:  # a new cluster's group coordinator may still be loading (NOT_COORDINATOR): bounded retries
            rc, out, err = run.lagtop("--reset-offsets", "-g", group, "--topic", "orders:0", "--to-offset", "100",
                                      "--execute")
            if rc == 0 or time.monotonic() > deadline:
                break
            time.sleep(1)
        ok(rc == 0 and run.committed(group) == 100, "setup: an Empty group committed at 100", err)
        previous = 100
        for attempt, target in enumerate((1900, 1800, 1700, 1600)):
            rc, err, stopped = stopped_commit(kc, run, group, target)
            if not stopped or "no answer within" not in err:
                note("run %d: the broker answered before it was stopped (or no backup): tried again\n%s"
                     % (attempt + 1, err))
                previous = run.committed(group)
                continue
            now = run.committed(group)
            applied = now == target
            note("run %d: the broker %s the commit (offset read afterwards: %s)"
                 % (attempt + 1, "applied" if applied else "did not apply", now))
            ok(now in (target, previous), "the offset afterwards is the planned or the previous one", now)
            ok("outcome unknown" in err, "the commit without an answer is reported as outcome unknown", err)
            if applied:
                ok(rc == 0 and "the reset was applied" in err and "not applied" not in err,
                   "lagtop reports it applied, as the broker did (exit %s)" % rc, err)
            else:
                ok(rc == 1 and "the reset was not applied" in err,
                   "lagtop reports it not applied, as the broker did (exit %s)" % rc, err)
            mine = run.audit(group)[-2:]
            ok(mine == ["intent", "applied" if applied else "not-applied"],
               "the audit log has intent, then the settled result", mine)
            return
        ok(False, "a commit was caught without its answer in 4 runs")
    finally:
        shutil.rmtree(run.state, ignore_errors=True)


def main():
    kt.require_jdk()
    kt.require_kafka_python()
    t = time.monotonic()
    kc = K.KafkaCluster(line="4")
    if not kt.start(kc):
        plan()
        return 1
    try:
        note("Kafka %s started in %.1f s" % (kc.version, kc.started_in))
        run_case(kc)
    finally:
        for p in kc.procs.values():
            if p.poll() is None:
                p.send_signal(signal.SIGCONT)
        kc.stop()
    note("wall time %.1f s" % (time.monotonic() - t))
    plan()
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
