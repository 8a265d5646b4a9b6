"""test_reset_outcome_sim.py — a reset's (and a delete's) outcome is never misreported, against lagtop-sim's
fixture (group fx-empty: Empty, fx-orders-0 committed at 10 (log start 100), fx-orders-2 at 20):
 1. a commit whose answer never comes (OffsetCommit held back 1.5 s, the sim stopped with SIGSTOP from the
    moment the backup exists until after lagtop's 3 s wait) is reported "outcome unknown", then settled by
    reading the offsets back: applied, exit 0; the audit log has "intent" before the commit and
    "applied" after;
 2. the same with the sim stopped past every read-back: exit 5, "outcome unknown", audit result=unknown;
    a delete of offsets, and of a group, whose answer never comes is settled the same way;
 3. a lagtop killed mid-commit leaves the intent in the audit log, and --undo finds that change;
    an audit log that cannot be written (audit.log is a directory: fails for root too): nothing is
    committed, one clear line, non-zero exit;
 4. 20 concurrent --execute runs of one group are serialised by the group's lock: the others are refused
    naming the holder's pid; every run that committed reads back as planned and backed up what the one
    before it committed; --undo --backup of the first backup restores the original offset;
 5. --undo names the backup it applies and when it was taken; an undo of an undo says so; when the newest
    change's backup is missing, --undo refuses and --backup FILE applies an older one;
 6. an --execute refused in planning is audited (result=not-planned).
Every run is bounded; every process started is stopped."""
import os
import re
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import simtest  # noqa: E402
from simtest import ok  # noqa: E402


class Fixture(simtest.StateDir):
    """lagtop-sim's fixture with a state directory (backups, audit log, locks) of its own."""

    def __init__(self, *sim_args):
        super().__init__("lagtop-outcome.")
        self.sim = simtest.Sim("--brokers", "1", "--scenario", "fixture", *sim_args, tmp=self.state)
        self.boot = self.sim.bootstrap

    def close(self):
        if self.sim.p.poll() is None:
            self.sim.p.send_signal(signal.SIGCONT)
        self.sim.stop()
        super().close()

    def args(self, *args, timeout="10s"):
        return [simtest.LAGTOP] + list(args) + ["-b", self.boot, "--timeout", timeout]

    def lagtop(self, *args, timeout="10s"):
        p = subprocess.run(self.args(*args, timeout=timeout), capture_output=True, text=True, env=self.env,
                           timeout=90, stdin=subprocess.DEVNULL)
        return p.returncode, p.stdout, p.stderr

    def popen(self, *args, timeout="10s"):
        return subprocess.Popen(self.args(*args, timeout=timeout), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=self.env, stdin=subprocess.DEVNULL)

    def committed(self, group="fx-empty"):
        rc, out, err = self.lagtop("--describe", "-g", group, "--offsets")
        got = {}
        for ln in out.splitlines():
            f = ln.split()
            if len(f) >= 4 and f[0] == group and f[2].isdigit():
                got[(f[1], int(f[2]))] = None if f[3] == "-" else int(f[3])
        return got

    def backups(self, group="fx-empty"):
        return super().backups(group)

    def audit_results(self, group="fx-empty"):
        """The result= of each audit line about group, in order."""
        return [result_of(ln) for ln in lines_of(self.audit(), group)]

    def run_held(self, pause_s, *args, timeout="10s"):
        """lagtop with args, the sim stopped for pause_s as soon as lagtop wrote its backup (so the change that
        follows goes unanswered that long): (stopped, exit code, stdout, stderr)."""
        p = self.popen(*args, timeout=timeout)
        stopped = self.stop_sim_when_backed_up(p, 0, pause_s)
        return (stopped,) + wait(p)

    def stop_sim_when_backed_up(self, proc, n_before, pause_s):
        """SIGSTOPs the sim as soon as a new backup exists (the commit follows it at once and its answer is
        held back), keeps it stopped pause_s, then SIGCONTs it. False if no backup appeared in 20 s."""
        deadline = time.monotonic() + 20
        while len(self.backups()) <= n_before:
            if time.monotonic() > deadline or proc.poll() is not None:
                return False
            time.sleep(0.005)
        self.sim.p.send_signal(signal.SIGSTOP)
        try:
            time.sleep(pause_s)
        finally:
            self.sim.p.send_signal(signal.SIGCONT)
        return True


def wait(proc, timeout=60):
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        return None, out, err
    return proc.returncode, out, err


def lines_of(audit, group="fx-empty"):
    return [ln for ln in audit if " group=%s " % group in ln]


def result_of(line):
    m = re.search(r" result=(\S+)", line)
    return m.group(1) if m else None


def case_unanswered_commit_applied():
    with Fixture("--latency-ms", "1500", "--latency-api", "8") as f:
        stopped, rc, out, err = f.run_held(4.5, "--reset-offsets", "-g", "fx-empty", "--topic", "fx-orders:0",
                                           "--to-offset", "500", "--execute", timeout="3s")
        ok(stopped, "unanswered commit: the sim was stopped mid-commit (after the backup)", err)
        ok("outcome unknown" in err and "the reset was applied" in err and "not applied" not in err,
           "unanswered commit: reported as outcome unknown, then applied from the offsets read back", err)
        ok(rc == 0, "unanswered commit settled as applied: exit 0 (got %s)" % rc, err)
        got = f.committed()
        ok(got.get(("fx-orders", 0)) == 500, "unanswered commit: the broker did apply it (500)", got)
        mine = f.audit_results()
        ok(mine == ["intent", "applied"], "unanswered commit: the audit log has intent, then applied", mine)


def case_unanswered_commit_unknown():
    with Fixture("--latency-ms", "1500", "--latency-api", "8") as f:
        # 3 s for the commit, then 3 read-backs of 3 s each and two 0.3 s pauses: 12.6 s; stopped for 16 s
        stopped, rc, out, err = f.run_held(16, "--reset-offsets", "-g", "fx-empty", "--topic", "fx-orders:0",
                                           "--to-offset", "500", "--execute", timeout="3s")
        ok(stopped and rc == 5, "no answer and no read-back: exit 5, outcome unknown (got %s)" % rc, err)
        ok("outcome unknown" in err and "not applied" not in err and "could not be read back" in err,
           "no answer and no read-back: says the outcome is unknown, never 'not applied'", err)
        mine = f.audit_results()
        ok(mine == ["intent", "unknown"], "no answer and no read-back: audit intent, then result=unknown", mine)


def case_killed_mid_commit():
    with Fixture("--latency-ms", "1500", "--latency-api", "8") as f:
        p = f.popen("--reset-offsets", "-g", "fx-empty", "--topic", "fx-orders:2", "--to-offset", "500", "--execute")
        deadline = time.monotonic() + 20
        while not f.backups() and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(0.3)  # the commit is out, its answer held back 1.5 s
        p.kill()
        wait(p)
        mine = f.audit_results()
        ok(mine == ["intent"], "killed mid-commit: the audit log has the intent", mine)
        b = os.path.join(f.backups_dir(), f.backups()[0]) if f.backups() else "-"
        rc, out, err = f.lagtop("--undo", "fx-empty")
        ok(rc == 0 and ("applying backup %s" % b) in err and "newest change: to-offset 500" in err,
           "killed mid-commit: --undo finds that change and its backup", err)


def case_unanswered_delete():
    with Fixture("--latency-ms", "1500", "--latency-api", "47") as f:
        stopped, rc, out, err = f.run_held(4.5, "--delete-offsets", "--group", "fx-empty", "--topic", "fx-orders:2",
                                           timeout="3s")
        ok(stopped and rc == 0 and "outcome unknown" in err and "the delete was applied" in err,
           "unanswered delete-offsets: outcome unknown, settled by reading back as applied (exit %s)" % rc, err)
        got = f.committed()
        ok(("fx-orders", 2) not in got or got[("fx-orders", 2)] is None, "unanswered delete: the offset is gone",
           got)
        mine = f.audit_results()
        ok(mine == ["intent", "applied"], "unanswered delete: the audit log has intent, then applied", mine)


def case_unanswered_group_delete():
    with Fixture("--latency-ms", "1500", "--latency-api", "42") as f:
        stopped, rc, out, err = f.run_held(4.5, "--delete", "--group", "fx-empty", timeout="3s")
        ok(stopped and rc == 0 and "outcome unknown" in err and "the delete was applied" in err and
           "was successful" in out,
           "unanswered delete of a group: outcome unknown, settled by reading back as deleted (exit %s)" % rc,
           out + err)
        mine = f.audit_results()
        ok(mine == ["intent", "applied"], "unanswered group delete: the audit log has intent, then applied", mine)


def case_audit_unwritable():
    with Fixture() as f:
        os.makedirs(os.path.join(f.state, "lagtop", "audit.log"))
        rc, out, err = f.lagtop("--reset-offsets", "-g", "fx-empty", "--topic", "fx-orders:0", "--to-offset", "500",
                                "--execute")
        ok(rc != 0 and "the audit log could not be written, nothing was committed" in err,
           "unwritable audit log: nothing committed, said in one line, exit %s" % rc, err)
        got = f.committed()
        ok(got.get(("fx-orders", 0)) == 10, "unwritable audit log: the offset is still 10", got)
        rc, out, err = f.lagtop("--delete-offsets", "--group", "fx-empty", "--topic", "fx-orders:2")
        got = f.committed()
        ok(rc != 0 and "nothing was deleted" in err and got.get(("fx-orders", 2)) == 20,
           "unwritable audit log: a delete deletes nothing (exit %s)" % rc, err)


def case_concurrent():
    with Fixture("--latency-ms", "300", "--latency-api", "8") as f:
        procs = [f.popen("--reset-offsets", "-g", "fx-empty", "--topic", "fx-orders:2", "--to-offset", str(300 + i),
                         "--execute") for i in range(20)]
        outs = [wait(p, 120) for p in procs]
        done = [(i, o) for i, o in enumerate(outs) if o[0] == 0]
        refused = [o for o in outs if o[0] == 3]
        pid_named = [o for o in refused if re.search(r"being changed by another lagtop \(pid \d+\)", o[2])]
        ok(len(done) >= 1 and len(done) + len(refused) == 20,
           "20 concurrent resets: each either committed or was refused (%d committed, %d refused)"
           % (len(done), len(refused)), "\n".join(o[2] for o in outs if o[0] not in (0, 3)))
        ok(refused and len(pid_named) == len(refused), "every refusal names the holder's pid",
           "\n".join(o[2] for o in refused))
        ok(all("every offset reads back as planned" in o[2] for _, o in done),
           "every committed run read back as planned", "\n".join(o[2] for _, o in done))
        # the backups, oldest first, chain: each holds what the commit before it left
        names = f.backups()
        values = []
        for n in names:
            with open(os.path.join(f.backups_dir(), n)) as fh:
                row = [r for r in fh.read().splitlines() if r.startswith("fx-orders,2,")]
            values.append(int(row[0].split(",")[2]) if row else None)
        planned = {}
        for i, o in done:
            m = re.search(r"backup of the previous offsets: (\S+)", o[2])
            if m:
                planned[os.path.basename(m.group(1))] = 300 + i
        chain = [20] + [planned.get(n) for n in names[:-1]]
        ok(len(names) == len(done) and values == chain,
           "the backups chain: each holds what the commit before it left (no two resets interleaved)",
           "backups %s\nexpected %s" % (values, chain))
        last = planned.get(names[-1]) if names else None
        ok(f.committed().get(("fx-orders", 2)) == last, "the offset is the last committed run's", last)
        first = os.path.join(f.backups_dir(), names[0]) if names else "-"
        rc, out, err = f.lagtop("--undo", "fx-empty", "--backup", first, "--execute")
        ok(rc == 0 and f.committed().get(("fx-orders", 2)) == 20,
           "--undo --backup <first backup> restores the original offset (20)", err)


def case_undo_naming():
    with Fixture() as f:
        rc, out, err = f.lagtop("--reset-offsets", "-g", "fx-empty", "--topic", "fx-orders:2", "--to-offset", "500",
                                "--execute")
        b1 = os.path.join(f.backups_dir(), f.backups()[0]) if f.backups() else "-"
        rc, out, err = f.lagtop("--undo", "fx-empty")
        m = re.search(r"applying backup (\S+) \(taken (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)\)", err)
        ok(rc == 0 and m and m.group(1) == b1 and "it undoes the group's newest change: to-offset 500" in err,
           "--undo names the backup it applies, when it was taken and the change it undoes", err)
        rc, out, err = f.lagtop("--undo", "fx-empty", "--execute")
        ok(rc == 0 and f.committed().get(("fx-orders", 2)) == 20, "--undo --execute restores 20", err)
        rc, out, err = f.lagtop("--undo", "fx-empty")
        ok(rc == 0 and "this undo of an undo re-applies what it reverted" in err,
           "an undo of an undo says so", err)
        # the newest change's backup is gone: --undo must not fall back to an older one on its own
        newest = sorted(f.backups())[-1]
        os.rename(os.path.join(f.backups_dir(), newest), os.path.join(f.state, "moved.csv"))
        rc, out, err = f.lagtop("--undo", "fx-empty", "--execute")
        ok(rc == 3 and "is missing" in err and "--backup FILE" in err and f.committed().get(("fx-orders", 2)) == 20,
           "the newest change's backup missing: --undo refuses (exit 3) and names --backup (got %s)" % rc, err)
        rc, out, err = f.lagtop("--undo", "fx-empty", "--backup", os.path.join(f.state, "moved.csv"), "--execute")
        ok(rc == 0 and f.committed().get(("fx-orders", 2)) == 500, "--backup FILE applies the backup named", err)
        rc, out, err = f.lagtop("--reset-offsets", "-g", "fx-empty", "--topic", "fx-orders:2", "--to-offset", "1",
                                "--backup", "x.csv")
        ok(rc == 2 and "--backup goes with --undo" in err, "--backup without --undo: a usage error", err)


def case_refused_in_planning_audited():
    with Fixture() as f:
        rc, out, err = f.lagtop("--reset-offsets", "-g", "fx-empty", "--topic", "nosuch", "--to-earliest",
                                "--execute")
        mine = f.audit_results()
        ok(rc == 2 and mine == ["not-planned"], "an --execute not planned is audited (result=not-planned)",
           "%s %s" % (mine, err))


def main():
    if not shutil.which(simtest.SIM) and not os.path.exists(simtest.SIM):
        simtest.missing_prereq("lagtop-sim")
    print("1..31")
    case_unanswered_commit_applied()
    case_unanswered_commit_unknown()
    case_killed_mid_commit()
    case_unanswered_delete()
    case_unanswered_group_delete()
    case_audit_unwritable()
    case_concurrent()
    case_undo_naming()
    case_refused_in_planning_audited()
    return simtest.exit_status()


if __name__ == "__main__":
    sys.exit(main())
