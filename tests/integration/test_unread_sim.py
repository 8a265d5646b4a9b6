"""test_unread_sim.py — a cluster that fails to answer never looks empty or fine (doc/lagtop.1, ONE-SHOT OUTPUT).

Against lagtop-sim with its group coordinator requests failing (--error-rate, all of them or a share), held
back past --timeout, denied for want of an ACL (GROUP_AUTHORIZATION_FAILED), and a cluster of thousands of
groups with a short --timeout: --once (table and JSON), --list and --describe print what they read, say on
stderr what they did not read — one line per cause, with a count and the first names — and exit 1; the JSON
marks each group ("read", "read_error") and the refresh ("read", "groups_unread", "unread"). A group that
could not be read is never "does not exist"; a denied one is named as not authorized, with the ACL it needs,
also by --delete (which used to report it as GroupNotEmptyException).
"""
import json
import os
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from simtest import Sim, lagtop, ok, exit_status  # noqa: E402

TESTS = 35
FIXTURE = ["fx-empty", "fx-kip848", "fx-rebalancing", "fx-stable"]  # src/sim/sim.h
CAUSE = re.compile(r"^lagtop: (\d+) groups? not read \(([^)]*)\): (.+)$")
LISTS = re.compile(r"^lagtop: the group lists? of (\d+) brokers? not read \(([^)]*)\): (.+)$")


def causes(err, pattern=CAUSE):
    """The "not read" lines of stderr: [(count, names shown, cause)]."""
    out = []
    for line in err.splitlines():
        m = pattern.match(line)
        if m:
            out.append((int(m.group(1)), m.group(2), m.group(3)))
    return out


def load(out):
    try:
        return json.loads(out)
    except ValueError:
        return None


def every_coordinator_failing():
    """--error-rate 1: ListGroups, DescribeGroups, OffsetFetch, FindCoordinator all answer an error."""
    with Sim("--scenario", "fixture", "--error-rate", "1") as sim:
        b = sim.bootstrap
        rc, out, err = lagtop("-b", b, "--describe", "-g", "fx-empty", "--timeout", "5s")
        ok(rc == 1, "all failing, --describe -g: exits 1", (rc, out, err))
        ok("does not exist" not in out + err, "all failing, --describe -g: never 'does not exist'", out)
        c = causes(err)
        ok(len(c) == 1 and c[0][0] == 1 and c[0][1] == "fx-empty" and c[0][2].startswith("DescribeGroups: "),
           "all failing, --describe -g: one line names the group and why it was not read", err)
        ok(any("ListGroups: Broker: Coordinator not available" in x[2] for x in causes(err, LISTS)),
           "all failing, --describe -g: the brokers' lists that failed are said, with the broker's error", err)

        rc, out, err = lagtop("-b", b, "--list", "--timeout", "5s")
        lists = causes(err, LISTS)
        ok(rc == 1, "all failing, --list: exits 1 (an empty list would read as 'no groups')", (rc, out, err))
        ok(len(lists) == 1 and lists[0][0] == 3 and lists[0][1] == "broker 1, broker 2, broker 3"
           and "Coordinator not available" in lists[0][2],
           "all failing, --list: one line for the one cause, counting the 3 brokers", err)

        rc, out, err = lagtop("-b", b, "--once", "--timeout", "5s")
        ok(rc == 1 and len(causes(err, LISTS)) == 1, "all failing, --once (table): exits 1 with the cause line",
           (rc, err))

        rc, out, err = lagtop("-b", b, "--once", "--format", "json", "--timeout", "5s")
        d = load(out)
        ok(rc == 1 and d is not None and d["read"] is False and d["groups"] == [],
           "all failing, --once json: exits 1, \"read\": false", (rc, out, err))
        ok(d is not None and sorted(u["broker"] for u in d["unread"]) == [1, 2, 3]
           and all(u["group"] is None and "Coordinator not available" in u["reason"] for u in d["unread"]),
           "all failing, --once json: \"unread\" lists each broker's list with its reason", out)

        rc, out, err = lagtop("-b", b, "--once", "--format", "prometheus", "--timeout", "5s")
        ok(rc == 1 and re.search(r"^lagtop_refresh_read\{[^}]*\} 0$", out, re.M)
           and re.search(r"^lagtop_refresh_groups_unread\{[^}]*\} 0$", out, re.M),
           "all failing, --once prometheus: exits 1, lagtop_refresh_read 0", (rc, out[-1500:], err))


def partial_failure():
    """Half of the DescribeGroups answers fail (a batch per coordinator): some groups read, some not."""
    groups = 30
    for seed in range(1, 9):
        with Sim("--scenario", "scale", "--groups", str(groups), "--partitions", "1", "--topics", "3",
                 "--error-api", "15", "--error-rate", "0.5", "--seed", str(seed)) as sim:
            rc, out, err = lagtop("-b", sim.bootstrap, "--once", "--format", "json", "--timeout", "5s",
                                  "--no-commit-stream")
            d = load(out)
            if d is None or not 0 < d.get("groups_unread", 0) < groups:
                continue
            unread = sorted(g["group"] for g in d["groups"] if not g["read"])
            ok(rc == 1, "partial: exits 1 when %d of %d groups were not read" % (len(unread), groups), (rc, err))
            ok(d["read"] is False and d["groups_unread"] == len(unread) and len(d["groups"]) == groups,
               "partial: \"read\": false, \"groups_unread\" counts the groups with \"read\": false", out)
            ok(all(g["read_error"] and g["read_error"] == g["error"] for g in d["groups"] if not g["read"])
               and all(g["read_error"] is None for g in d["groups"] if g["read"]),
               "partial: each unread group says why (\"read_error\"), the read ones null", out)
            c = causes(err)
            reasons = {g["read_error"] for g in d["groups"] if not g["read"]}
            ok(len(c) == len(reasons) and sum(n for n, _, _ in c) == len(unread)
               and {x[2] for x in c} == reasons,
               "partial: one stderr line per cause, the counts adding up to the unread groups", err)
            ok(all(len(x[1].split(", ")) <= 4 for x in c) and all(x[1].split(", ")[0] in unread for x in c),
               "partial: a cause's line shows its first few group names", err)
            ok(not any("warning: group scale-group" in line for line in err.splitlines()),
               "partial: no line per unread group", err)
            rc2, _, err2 = lagtop("-b", sim.bootstrap, "--once", "--timeout", "5s", "--no-commit-stream")
            ok(rc2 in (0, 1) and (rc2 == 1) == bool(causes(err2)),
               "partial, table: exits 1 exactly when a cause line says what was not read", (rc2, err2))
            rc3, out3, err3 = lagtop("-b", sim.bootstrap, "--describe", "--all-groups", "--timeout", "5s")
            ok((rc3 == 1) == bool(causes(err3)) and "does not exist" not in out3,
               "partial, --describe --all-groups: exits 1 exactly when a group was not read, none 'does not "
               "exist'", (rc3, err3))
            return
    for name in ["partial: a run with some groups not read"] + ["partial: (no such run)"] * 7:
        ok(False, name, "no seed made a partial failure")


def past_timeout():
    """DescribeGroups held back past --timeout: the listed groups are not read, and the output says so."""
    with Sim("--scenario", "fixture", "--latency-ms", "4000", "--latency-api", "15") as sim:
        rc, out, err = lagtop("-b", sim.bootstrap, "--once", "--format", "json", "--timeout", "1500ms",
                              "--no-commit-stream")
        d = load(out)
        ok(rc == 1 and d is not None and d["read"] is False,
           "past --timeout: --once json exits 1 with \"read\": false", (rc, out, err))
        # lagtop's own deadline ("no answer within the timeout (1.5 s, --timeout)"), or librdkafka's request
        # timeout, which lagtop sets to the same deadline ("Local: Timed out"), whichever comes first
        timed_out = re.compile(r"no answer within the timeout \(1\.5 s, --timeout\)|Local: Timed out")
        ok(d is not None and d["groups_unread"] == 4 and len(d["groups"]) == 4
           and all(not g["read"] and timed_out.search(g["read_error"]) for g in d["groups"]),
           "past --timeout: every group unread, the reason naming the timeout", out)
        c = causes(err)
        ok(1 <= len(c) <= 2 and sum(x[0] for x in c) == 4 and all(timed_out.search(x[2]) for x in c),
           "past --timeout: a line per cause, counting the 4 groups", err)
        rc, out, err = lagtop("-b", sim.bootstrap, "--list", "--timeout", "1500ms")
        ok(rc == 0 and out.split() == FIXTURE and not causes(err),
           "past --timeout for describes only: --list (which needs only the lists) lists all 4, exit 0",
           (rc, out, err))
        rc, out, err = lagtop("-b", sim.bootstrap, "--describe", "-g", "fx-stable", "--timeout", "1500ms")
        ok(rc == 1 and "does not exist" not in out and causes(err) and causes(err)[0][1] == "fx-stable",
           "past --timeout: --describe -g exits 1 naming the group", (rc, out, err))


def slow_broker():
    """One broker's DescribeGroups held back past --timeout: the batched describe (one DescribeGroups per
    broker) returns the other brokers' groups, which are read; the slow broker's groups, asked again one by
    one, are marked not read; the whole run stays within the timeout."""
    coords = {}
    with Sim("--brokers", "3", "--scenario", "scale", "--groups", "60", "--partitions", "2", "--topics", "6") as sim:
        rc, out, err = lagtop("-b", sim.bootstrap, "--once", "--format", "json", "--no-commit-stream")
        d = load(out) or {"groups": []}
        coords = {g["group"]: g.get("coordinator") for g in d["groups"]}
    with Sim("--brokers", "3", "--scenario", "scale", "--groups", "60", "--partitions", "2", "--topics", "6",
             "--fault-broker", "2", "--latency-ms", "8000", "--latency-api", "15") as sim:
        t0 = time.time()
        rc, out, err = lagtop("-b", sim.bootstrap, "--once", "--format", "json", "--no-commit-stream",
                              "--timeout", "3s")
        wall = time.time() - t0
        d = load(out) or {"groups": []}
        slow = sorted(n for n, c in coords.items() if c == 2)
        unread = sorted(g["group"] for g in d["groups"] if not g["read"])
        read = sorted(g["group"] for g in d["groups"] if g["read"])
        ok(rc == 1 and len(coords) == 60 and slow and unread == slow and d["groups_unread"] == len(slow),
           "slow broker: exactly its %d groups not read" % len(slow), (rc, unread, slow, err))
        ok(read == sorted(n for n, c in coords.items() if c != 2),
           "slow broker: every group of the other brokers read", (read, err))
        ok(wall < 3 + 2.5, "slow broker: --once ends within --timeout 3s (took %.1f s)" % wall, wall)


def many_groups():
    """Thousands of groups and a --timeout too short for them: lagtop finishes or says it did not."""
    groups = 5000
    with Sim("--scenario", "scale", "--groups", str(groups), "--partitions", "1", "--topics", "50",
             start_timeout=60) as sim:
        rc, out, err = lagtop("-b", sim.bootstrap, "--once", "--format", "json", "--timeout", "1s",
                              "--no-commit-stream", timeout=90)
        d = load(out)
        ok(d is not None, "%d groups, --timeout 1s: JSON printed" % groups, (rc, err[-2000:]))
        if d is None:
            for _ in range(3):
                ok(False, "%d groups: (no JSON)" % groups)
            return
        read_all = len(d["groups"]) == groups and all(g["read"] for g in d["groups"])
        ok(d["read"] == read_all and (rc == 0) == read_all,
           "%d groups, --timeout 1s: exit 0 and \"read\": true only when every group was read (rc %d, %d in the "
           "JSON, %d unread)" % (groups, rc, len(d["groups"]), d["groups_unread"]), err[-2000:])
        unk = [g for g in d["groups"] if g["state"] == "Unknown" and not g["partitions"]]
        ok(all(not g["read"] and g["read_error"] for g in unk),
           "%d groups: no group is Unknown with nothing known and \"read\": true" % groups, unk[:3])
        lines = causes(err) + causes(err, LISTS)
        ok(read_all or (lines and len(err.splitlines()) < 20),
           "%d groups: what was not read is said in a few lines (%d), not one per group" % (groups, len(lines)),
           err[-2000:])


def not_authorized(tmp):
    """DescribeGroups denied (GROUP_AUTHORIZATION_FAILED, as for a principal without Describe on the group)."""
    env = dict(os.environ, HOME=tmp, XDG_STATE_HOME=os.path.join(tmp, "state"), XDG_CONFIG_HOME=tmp)
    env.pop("LAGTOP_CONFIG", None)
    with Sim("--scenario", "fixture", "--error-api", "15", "--error-rate", "1", "--error-code",
             "GROUP_AUTHORIZATION_FAILED") as sim:
        b = sim.bootstrap
        rc, out, err = lagtop("-b", b, "--delete", "-g", "fx-empty", "--timeout", "5s", env=env)
        ok(rc == 1, "denied, --delete: exits 1 (a failure, not 3: no guard refused it)", (rc, out, err))
        ok("GroupNotEmptyException" not in out and "GroupAuthorizationException: Group authorization failed." in out,
           "denied, --delete: the tool's line names the authorization failure, not GroupNotEmpty", out)
        ok(re.search(r"^lagtop: group 'fx-empty': not authorized to describe the group \(ACL: Describe on the "
                     r"Group\)", err, re.M) and "no committed offsets" not in err,
           "denied, --delete: stderr names the ACL it needs", err)
        rc, out, err = lagtop("-b", b, "--describe", "-g", "fx-empty", "--timeout", "5s", env=env)
        c = causes(err)
        ok(rc == 1 and "does not exist" not in out and len(c) == 1 and c[0][1] == "fx-empty"
           and "not authorized to describe the group (ACL: Describe on the Group)" in c[0][2],
           "denied, --describe -g: exits 1, 'not authorized' with the ACL, never 'does not exist'", (rc, out, err))
        rc, out, err = lagtop("-b", b, "--once", "--format", "json", "-g", "fx-stable", "--timeout", "5s",
                              env=env)
        d = load(out)
        ok(rc == 1 and d is not None and any(u["group"] == "fx-stable" and "not authorized" in u["reason"]
                                             for u in d["unread"]),
           "denied, --once -g: exits 1, the group in \"unread\" as not authorized", (rc, out, err))


def main():
    print("1..%d" % TESTS)
    tmp = tempfile.mkdtemp(prefix="lagtop-unread.")
    every_coordinator_failing()
    partial_failure()
    past_timeout()
    slow_broker()
    many_groups()
    not_authorized(tmp)
    return 0 if exit_status() == 0 and len(__import__("simtest").results) == TESTS else 1


if __name__ == "__main__":
    sys.exit(main())
