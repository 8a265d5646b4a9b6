"""test_delete_sim.py — lagtop --delete and --delete-offsets against lagtop-sim's fixture (sim.h): the guard
refuses active groups (a classic one with members, a consumer-protocol one) with exit 3 and touches nothing;
an Empty group's offsets are backed up before anything is deleted (no backup, no delete); every run leaves an
audit line; a partition the broker does not delete is reported in kafka-consumer-groups' table and fails the
run while the others are deleted; --undo puts deleted offsets and a deleted group back; the usage errors use
the tool's words. stdout is kafka-consumer-groups' text (tests/kafka/test_kafka_delete.py compares it with the
real tool on Kafka 3.9 and 4.x); lagtop's own lines go to stderr."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import simtest  # noqa: E402
from simtest import ok, results  # noqa: E402


class Sim(simtest.StateDir):
    """The fixture cluster and a state directory (backups, audit) of its own."""

    def __init__(self):
        super().__init__("lagtop-delete.")
        self.sim = simtest.Sim("--brokers", "1", "--scenario", "fixture", tmp=self.state)
        self.boot = self.sim.bootstrap

    def close(self):
        self.sim.stop()
        super().close()

    def lagtop(self, *args, env=None):
        return simtest.lagtop(*args, "-b", self.boot, "--timeout", "10s", env=env or self.env)

    def committed(self, group):
        """{(topic, partition): committed} of group, None when --once does not list it."""
        rc, out, err = self.lagtop("--once", "--format", "json", "-G", "^%s$" % group)
        groups = json.loads(out)["groups"] if rc == 0 else []
        for g in groups:
            if g["group"] == group:
                return {(p["topic"], p["partition"]): p["committed"] for p in g["partitions"]
                        if p["committed"] is not None}
        return None



def table(out):
    """kafka-consumer-groups' delete-offsets table: [(topic, partition, status)]."""
    rows, seen = [], False
    for ln in out.splitlines():
        m = re.match(r"^(\S+)\s+(-|\d+)\s+(.*?)\s*$", ln)
        if ln.split() == ["TOPIC", "PARTITION", "STATUS"]:
            seen = True
        elif seen and m:
            rows.append(m.groups())
    return rows


def check_guard(s):
    stable_before = s.committed("fx-stable")
    rc, out, err = s.lagtop("--delete", "--group", "fx-stable")
    ok(rc == 3 and "Group 'fx-stable' can only be deleted if it is inactive, but the current state is Stable." in err
       and "fx-c1" in err and "fx-c2" in err,
       "delete: an active classic group is refused (exit 3), the state and members named", "rc %d\n%s" % (rc, err))
    ok("* Group 'fx-stable' could not be deleted due to: "
       "org.apache.kafka.common.errors.GroupNotEmptyException: The group is not empty." in out,
       "delete: stdout says what kafka-consumer-groups says of a group that is not empty", out)
    rc, out, err = s.lagtop("--delete-offsets", "--group", "fx-stable", "--topic", "fx-orders")
    ok(rc == 3 and "Offsets of group 'fx-stable' can only be deleted if the group is inactive" in err and
       "\nError: The group is not empty.\n" in out and
       len(table(out)) == 3, "delete-offsets: an active classic group is refused (exit 3), the tool's table",
       "rc %d\n%s\n%s" % (rc, out, err))
    rc, out, err = s.lagtop("--delete", "--group", "fx-kip848")
    ok(rc == 3 and "Group 'fx-kip848' can only be deleted if it is inactive" in err,
       "delete: a live consumer-protocol (KIP-848) group is refused (exit 3)", "rc %d\n%s" % (rc, err))
    rc, out, err = s.lagtop("--delete-offsets", "--group", "fx-kip848", "--topic", "fx-orders:1")
    ok(rc == 3, "delete-offsets: a live consumer-protocol group is refused (exit 3)", "rc %d\n%s" % (rc, err))
    rc, out, err = s.lagtop("--delete", "--group", "fx-rebalancing")
    ok(rc == 3 and "current state is PreparingRebalance" in err,
       "delete: a rebalancing group is refused (exit 3)", "rc %d\n%s" % (rc, err))
    ok(s.committed("fx-stable") == stable_before and s.committed("fx-kip848") == {("fx-orders", 1): 650},
       "guard: nothing was deleted", "%s %s" % (s.committed("fx-stable"), s.committed("fx-kip848")))
    ok(s.backups("fx-stable") == [] and s.backups("fx-kip848") == [], "guard: no backup was written",
       os.listdir(s.state))
    audit = s.audit()
    refused = [ln for ln in audit if "result=refused" in ln]
    ok(len(refused) == 5 and any("group=fx-stable target=delete-group" in ln for ln in refused) and
       any("group=fx-stable target=delete-offsets%20fx-orders" in ln for ln in refused),
       "guard: every refusal is in the audit log", "\n".join(audit))


def check_read_only_cluster(s):
    conf = os.path.join(s.state, "ro.conf")
    with open(conf, "w") as f:
        f.write('clusters = { fx = { bootstrap_servers = "%s"; read_only = true; }; };\n' % s.boot)
    for args in (["--delete", "--group", "fx-empty"], ["--delete-offsets", "--group", "fx-empty", "--topic", "fx-orders"]):
        rc, out, err = simtest.lagtop(*args, "--config", conf, "-c", "fx", env=s.env)
        ok(rc == 2 and "deletes are disabled for cluster 'fx' (read_only = true in %s)" % conf in err,
           "%s: a read_only cluster has no delete path (exit 2)" % args[0], "rc %d\n%s" % (rc, err))
    ok(s.committed("fx-empty") == {("fx-orders", 0): 10, ("fx-orders", 2): 20}, "read_only: nothing deleted",
       s.committed("fx-empty"))


def check_dry_run(s):
    rc, out, err = s.lagtop("--delete-offsets", "--group", "fx-empty", "--topic", "fx-orders", "--dry-run")
    rows = table(out)
    ok(rc == 0 and ("fx-orders", "0", "Would delete offset 10") in rows and ("fx-orders", "1", "No committed offset")
       in rows and "nothing was deleted" in err, "delete-offsets --dry-run: says what would go",
       "rc %d\n%s\n%s" % (rc, out, err))
    rc, out, err = s.lagtop("--delete", "--group", "fx-empty", "--dry-run")
    ok(rc == 0 and "Group 'fx-empty' would be deleted, with its 2 committed offsets" in out,
       "delete --dry-run: says what would go", "rc %d\n%s\n%s" % (rc, out, err))
    ok(s.committed("fx-empty") == {("fx-orders", 0): 10, ("fx-orders", 2): 20} and s.backups("fx-empty") == [],
       "--dry-run: nothing deleted, no backup", "%s %s" % (s.committed("fx-empty"), s.backups("fx-empty")))


def check_no_backup_no_delete(s):
    blocked = os.path.join(s.state, "blocked")
    with open(blocked, "w") as f:
        f.write("a file where the state directory should be\n")
    env = dict(s.env, XDG_STATE_HOME=blocked)
    rc, out, err = s.lagtop("--delete-offsets", "--group", "fx-empty", "--topic", "fx-orders:2", env=env)
    ok(rc == 1 and "could not be taken, nothing was deleted" in err,
       "delete-offsets: a state directory that cannot be written stops the delete (exit 1)", "rc %d\n%s\n%s" % (rc, out, err))
    rc, out, err = s.lagtop("--delete", "--group", "fx-empty", env=env)
    ok(rc == 1 and "could not be taken, nothing was deleted" in err and
       "* Group 'fx-empty' could not be deleted due to:" in out,
       "delete: a state directory that cannot be written stops the delete (exit 1)", "rc %d\n%s\n%s" % (rc, out, err))
    ok(s.committed("fx-empty") == {("fx-orders", 0): 10, ("fx-orders", 2): 20},
       "no backup: nothing was deleted", s.committed("fx-empty"))


def check_partial_and_undo_offsets(s):
    rc, out, err = s.lagtop("--delete-offsets", "--group", "fx-empty", "--topic", "fx-orders:2,7", "--topic",
                            "nosuch")
    rows = table(out)
    ok(rc == 1 and "Error: Encountered some partition-level error, see the follow-up details." in out and
       rows == [("fx-orders", "2", "Successful"),
                ("fx-orders", "7", "Error: org.apache.kafka.common.errors.UnknownTopicOrPartitionException: "
                                   "This server does not host this topic-partition."),
                ("nosuch", "-", "Error: org.apache.kafka.common.errors.UnknownTopicOrPartitionException: "
                                           "This server does not host this topic-partition.")],
       "partial failure: per partition in the tool's table, exit 1", "rc %d\n%s\n%s" % (rc, out, err))
    ok(s.committed("fx-empty") == {("fx-orders", 0): 10}, "partial failure: the partition that could be deleted is",
       s.committed("fx-empty"))
    b = s.backups("fx-empty")
    ok(len(b) == 1 and s.backup_text(b[0]) == "fx-orders,2,20\n" and b[0] in err,
       "backup before the delete: the deleted offset, in the reset backup format, its path on stderr",
       "%s\n%s" % (b, err))
    audit = [ln for ln in s.audit() if "target=delete-offsets%20fx-orders:2,7%20nosuch" in ln]
    named = "backup=" + os.path.join(s.state, "lagtop", "backups", b[0])
    ok(len(audit) == 2 and "result=intent" in audit[0] and "result=partial" in audit[1] and
       all(named in ln for ln in audit),
       "audit: the intent, then the result partial, naming the backup", "\n".join(s.audit()))
    rc, out, err = s.lagtop("--undo", "fx-empty", "--execute")
    ok(rc == 0 and s.committed("fx-empty") == {("fx-orders", 0): 10, ("fx-orders", 2): 20},
       "--undo --execute puts the deleted offset back", "rc %d\n%s\n%s\n%s" % (rc, out, err, s.committed("fx-empty")))


def check_delete_groups_and_undo(s):
    rc, out, err = s.lagtop("--delete", "--group", "fx-empty", "--group", "fx-stable", "--group", "nosuch")
    want = ["", "Error: Deletion of some consumer groups failed:",
            "* Group 'fx-stable' could not be deleted due to: "
            "org.apache.kafka.common.errors.GroupNotEmptyException: The group is not empty.",
            "* Group 'nosuch' could not be deleted due to: "
            "org.apache.kafka.common.errors.GroupIdNotFoundException: The group id does not exist.",
            "", "These consumer groups were deleted successfully: 'fx-empty'"]
    ok(rc == 1 and out.splitlines() == want, "delete of three groups: one deleted, one refused, one unknown; "
       "kafka-consumer-groups' report, exit 1", "rc %d\n%s\n%s" % (rc, out, err))
    ok(not s.committed("fx-empty") and s.committed("fx-stable"), "delete: the Empty group is gone, the active "
       "one stays", "%s %s" % (s.committed("fx-empty"), s.committed("fx-stable")))
    newest = s.backups("fx-empty")[-1]
    ok(sorted(s.backup_text(newest).splitlines()) == ["fx-orders,0,10", "fx-orders,2,20"] and newest in err,
       "delete: the group's offsets were backed up first", "%s\n%s" % (s.backup_text(newest), err))
    audit = s.audit()
    ok(any("group=fx-empty target=delete-group partitions=2 result=executed" in ln for ln in audit) and
       any("group=nosuch target=delete-group" in ln and "result=failed" in ln for ln in audit),
       "delete: audit lines for the deleted group and the unknown one", "\n".join(audit[-4:]))
    rc, out, err = s.lagtop("--undo", "fx-empty", "--execute")
    got = s.committed("fx-empty")
    # fx-orders-0's log starts at 100: the restore is clamped as every --from-file reset is, with the tool's warning
    ok(rc == 0 and got == {("fx-orders", 0): 100, ("fx-orders", 2): 20} and
       "New offset (10) is lower than earliest offset for topic partition fx-orders-0. Value will be set to 100"
       in err, "--undo --execute brings the deleted group back with its offsets", "rc %d %s\n%s" % (rc, got, err))
    rc, out, err = s.lagtop("--delete", "--group", "fx-empty")
    ok(rc == 0 and out == "Deletion of requested consumer groups ('fx-empty') was successful.\n",
       "delete: the success line is kafka-consumer-groups'", "rc %d\n%r\n%s" % (rc, out, err))


def check_delete_all_groups(s):
    """--delete --all-groups (kafka-consumer-groups has it): every listed group, each guarded: the active
    ones refused (exit 3), the Empty one deleted after its backup."""
    rc, out, err = s.lagtop("--undo", "fx-empty", "--execute")
    ok(rc == 0 and s.committed("fx-empty"), "--all-groups: fx-empty is back for the test", "rc %d\n%s" % (rc, err))
    before = len(s.backups("fx-empty"))
    rc, out, err = s.lagtop("--delete", "--all-groups")
    ok(rc == 3 and "These consumer groups were deleted successfully: 'fx-empty'" in out and
       "* Group 'fx-stable' could not be deleted" in out and not s.committed("fx-empty") and
       s.committed("fx-stable") and len(s.backups("fx-empty")) == before + 1,
       "--delete --all-groups: the Empty group deleted (backed up first), the active ones refused, exit 3",
       "rc %d\n%s\n%s" % (rc, out, err))


def check_usage():
    cases = [
        (["--delete"], "Option [delete] takes one of these options: [all-groups], [group]"),
        (["--delete", "-g", "a", "--topic", "t"],
         "The consumer does not support topic-specific offset deletion from a consumer group."),
        (["--delete-offsets", "-g", "a"], "Option [delete-offsets] takes the following options: [group], [topic]"),
        (["--delete-offsets", "--topic", "t"], "Option [delete-offsets] takes the following options: [group], [topic]"),
        (["--delete-offsets", "-g", "a", "-g", "b", "--topic", "t"],
         "Found multiple arguments for option group, but you asked for only one"),
        (["--delete", "-g", "a", "--read-only"], "deletes are disabled by --read-only"),
        (["--delete", "-g", "a", "--dry-run", "--execute"], "Option [delete] only accepts one of [execute] and [dry-run]"),
        (["--delete", "-g", "a", "--to-earliest"], "--delete takes no reset target"),
        (["--delete", "-g", "a", "--reset-offsets"], "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, --delete-offsets"),
        (["--delete-offsets", "-g", "a", "--topic", "t:x"], None),
    ]
    for args, needle in cases:
        rc, out, err = simtest.lagtop(*args, "-b", "127.0.0.1:1", timeout=30)
        good = rc == 2 and out == "" and len(err.splitlines()) == 1 and (needle is None or needle in err)
        ok(good, "usage: %s: exit 2, one line%s" % (" ".join(args), (": " + needle) if needle else ""),
           "rc %d\n%s%s" % (rc, out, err))


def main():
    s = Sim()
    try:
        for check in (check_guard, check_read_only_cluster, check_dry_run, check_no_backup_no_delete, check_partial_and_undo_offsets,
                      check_delete_groups_and_undo, check_delete_all_groups):
            check(s)
    finally:
        s.close()
    check_usage()
    print("1..%d" % len(results))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
