"""test_kafka_groups_current.py — Kafka 4.x groups as lagtop shows them, by the librdkafka lagtop runs on,
judged by the real kafka-consumer-groups.

On a one-node Apache Kafka 4.x: a consumer-protocol (KIP-848) group with two real members (a Java
kafka-clients consumer and a confluent-kafka one, group.protocol=consumer) and a classic group with a
Java member, over one topic whose partition 0 was trimmed with DeleteRecords. Then:
 1. with librdkafka 2.10 or later (`lagtop --version` names KIP-848-describe): the consumer-protocol group
    in `lagtop --once` has the state, the members (consumer ids, client ids, hosts) and the assignments of
    `kafka-consumer-groups --describe --members --verbose`, type consumer as in `--list --type`; with
    librdkafka 2.0.2: its state (from ListGroups), type consumer, and the honest "members cannot be read"
    form (members null, no member list, owners "?" in the table);
 2. the classic group beside it: type classic, its member, with both;
 3. the guard refuses to reset the consumer-protocol group while it has members, with both (exit 3,
    nothing committed, no backup written), naming the members where they can be read;
 4. where lagtop has rd_kafka_ListOffsets, the log offsets it reads equal those read through
    rd_kafka_offsets_for_times (LAGTOP_LOG_OFFSETS) and the real log start and end; a skipped case elsewhere.
Which librdkafka the binary loads is read from `ldd` (or, bundled, `lagtop --version`'s "built in" line)
and from `lagtop --version`'s runtime line (they must agree).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import kafkatest as kt  # noqa: E402
from kafkatest import K  # noqa: E402
import simtest  # noqa: E402
from simtest import ok, skip  # noqa: E402

BUILD = os.environ.get("LT_BUILDDIR") or os.path.dirname(os.path.dirname(HERE))
LAGTOP = os.environ.get("LAGTOP") or os.path.join(BUILD, "lagtop")
DELETE_RECORDS = "org.apache.kafka.tools.DeleteRecordsCommand"
TOPIC = "cur-orders"
PARTS = 4
RECORDS = 30
G848 = "cur-848"
GCLASSIC = "cur-classic"
G848_NC, GCLASSIC_NC = "cur-848-nocommit", "cur-classic-nocommit"  # members that never commit


def lagtop(*args, env=None, timeout=120):
    e = dict(os.environ)
    e.pop("LAGTOP_LOG_OFFSETS", None)
    e.update(env or {})
    return simtest.lagtop(*args, env=e, timeout=timeout)


def librdkafka_of_lagtop():
    """(version of the librdkafka the binary loads, version and newer APIs from `lagtop --version`). The one it
    loads: the shared library ldd names (its rd_kafka_version_str()), or, for the bundled build, the one
    linked in, which `lagtop --version`'s third line names ("built in: V (bundled, linked statically)")."""
    import ctypes
    out = subprocess.run(["ldd", LAGTOP], capture_output=True, text=True, timeout=30).stdout
    m = re.search(r"librdkafka\.so\S*\s+=>\s+(\S+)", out)
    rc, vout, err = lagtop("--version")
    built = re.search(r"^librdkafka built in: (\S+) \((.*)\)$", vout, re.M)
    loaded = None
    if m:
        lib = ctypes.CDLL(m.group(1))
        lib.rd_kafka_version_str.restype = ctypes.c_char_p
        loaded = lib.rd_kafka_version_str().decode()
    elif built and built.group(2) == "bundled, linked statically":
        loaded = built.group(1)
    m = re.search(r"^librdkafka (\S+); newer APIs: (.*)$", vout, re.M)
    return loaded, (m.group(1) if m else None), (m.group(2).split() if m else [])


def describe_members(kc, group):
    """kafka-consumer-groups --describe --members --verbose: {consumer id: (host, client id, assignment)}
    and whether every member's current assignment is its target (the group has reconciled)."""
    rc, out, err = kc.consumer_groups("--describe", "--group", group, "--members", "--verbose")
    lines = out.splitlines()
    hdr = next((l for l in lines if l.split()[:1] == ["GROUP"]), None)
    if rc != 0 or hdr is None:
        return None, False, out + err
    cols = hdr.split()
    members, settled = {}, True
    for l in lines:
        w = l.split()
        if not w or w[0] != group or len(w) != len(cols):
            continue
        row = dict(zip(cols, w))

        def parts(s):
            got = set()
            for chunk in ("" if s == "-" else s).split(";"):
                if chunk:
                    t, ps = chunk.rsplit(":", 1)
                    got |= {(t, int(p)) for p in ps.split(",") if p}
            return frozenset(got)
        cur = parts(row.get("CURRENT-ASSIGNMENT", row.get("ASSIGNMENT", "-")))
        if "TARGET-ASSIGNMENT" in row and parts(row["TARGET-ASSIGNMENT"]) != cur:
            settled = False
        members[row["CONSUMER-ID"]] = (row["HOST"], row["CLIENT-ID"], cur)
    return members, settled, out + err


def describe_state(kc, group):
    rc, out, err = kc.consumer_groups("--describe", "--group", group, "--state")
    for l in out.splitlines():
        w = l.split()
        if w and w[0] == group:
            return w[-2], int(w[-1])  # ... STATE #MEMBERS
    return None, None


def offset_rows(text, group):
    """--describe's offsets rows of group, each as its words, sorted (the tool prints them in hash order)."""
    return sorted(tuple(l.split()) for l in text.splitlines() if l.split()[:1] == [group])


def list_types(kc):
    rc, out, err = kc.consumer_groups("--list", "--type")
    return {l.split()[0]: l.split()[1].lower() for l in out.splitlines()[1:] if len(l.split()) >= 2}


def committed(kc, group):
    rc, out, err = kc.consumer_groups("--describe", "--group", group, "--offsets")
    got = {}
    for l in out.splitlines():
        w = l.split()
        if len(w) >= 4 and w[0] == group and w[1] == TOPIC and w[2].isdigit():
            got[int(w[2])] = None if w[3] == "-" else int(w[3])
    return got


def wait_for(what, fn, timeout=90):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = fn()
        if last[0]:
            return last
        time.sleep(1)
    return last


def run(kc, whole, has_list_offsets):
    K.create_topic(kc.bootstrap, TOPIC, PARTS, RECORDS)
    spec = os.path.join(TMP, "delete.json")
    with open(spec, "w") as f:
        json.dump({"version": 1, "partitions": [{"topic": TOPIC, "partition": 0, "offset": 7}]}, f)
    rc, out, err = kc.tool(DELETE_RECORDS, "--bootstrap-server", kc.bootstrap, "--offset-json-file", spec, timeout=90)
    ok(rc == 0 and "low_watermark: 7" in out, "kafka-delete-records moves the log start of %s/0 to 7" % TOPIC,
       out + err)

    members = [K.Member(kc, "java", G848, [TOPIC], protocol="consumer", client_id="cur-java"),
               K.Member(kc, "confluent", G848, [TOPIC], protocol="consumer", client_id="cur-confluent"),
               K.Member(kc, "java", GCLASSIC, [TOPIC], client_id="cur-classic-java"),
               K.Member(kc, "confluent", G848_NC, [TOPIC], protocol="consumer", commit=False,
                        client_id="cur-nc-848"),
               K.Member(kc, "kafka-python", GCLASSIC_NC, [TOPIC], commit=False, client_id="cur-nc-classic")]
    try:
        assigned = [m.wait_assigned(90) for m in members]
        ok(all(assigned), "two consumer-protocol members (Java, confluent-kafka) and a classic one are assigned "
           "(and the two groups' members that never commit)",
           [m.seen for m in members])

        # a quiet picture: both members in, assignments reconciled, everything consumed and committed
        def settled():
            ms, done, text = describe_members(kc, G848)
            st, n = describe_state(kc, G848)
            offs = committed(kc, G848)
            quiet = (ms is not None and len(ms) == 2 and done and st == "Stable" and
                     sorted(p for m in ms.values() for p in m[2]) == [(TOPIC, p) for p in range(PARTS)] and
                     offs == {p: RECORDS for p in range(PARTS)})
            return quiet, ms, st, text
        quiet, ref_members, ref_state, text = wait_for("settled", settled)
        ok(quiet, "kafka-consumer-groups: %s is Stable, 2 members own the %d partitions, all committed"
           % (G848, PARTS), text)
        types = list_types(kc)
        ok(types.get(G848) == "consumer" and types.get(GCLASSIC) == "classic",
           "kafka-consumer-groups --list --type: consumer and classic", types)

        rc, out, err = lagtop("--once", "--format", "json", "-b", kc.bootstrap, "--no-commit-stream")
        doc = json.loads(out) if rc == 0 else {"groups": []}
        g = next((x for x in doc["groups"] if x["group"] == G848), None)
        ok(rc == 0 and g is not None, "lagtop --once sees %s" % G848, err)
        g = g or {}
        ok(g.get("state") == ref_state and g.get("type") == "consumer",
           "%s: state %s and type consumer, as the real tool" % (G848, ref_state),
           (g.get("state"), g.get("type"), ref_state))
        got_members = {m["consumer_id"]: (m["host"], m["client_id"],
                                          frozenset((a["topic"], a["partition"]) for a in m["assignment"]))
                       for m in g.get("member_list", [])}
        if whole:
            ok(g.get("members_readable") is True and g.get("members") == 2 and got_members == ref_members,
               "%s: members, client ids, hosts and assignments equal --describe --members --verbose" % G848,
               "lagtop: %s\ntool:   %s" % (got_members, ref_members))
            owners = {(p["topic"], p["partition"]): p["client_id"] for p in g.get("partitions", [])}
            want = {tp: m[1] for m in ref_members.values() for tp in m[2]}
            ok(owners == want, "%s: every partition's owner is the tool's" % G848, (owners, want))
        else:
            ok(g.get("members_readable") is False and g.get("members") is None and got_members == {},
               "%s: librdkafka 2.0.2 cannot read the members: members null, no member list" % G848, g)
            ok(all(p["client_id"] is None for p in g.get("partitions", [])) and
               "members need librdkafka 2.10+" in err,
               "%s: no owner claimed, and a warning says why" % G848, err)
        c = next((x for x in doc["groups"] if x["group"] == GCLASSIC), {})
        ok(c.get("type") == "classic" and c.get("state") == "Stable" and c.get("members") == 1 and
           [m["client_id"] for m in c.get("member_list", [])] == ["cur-classic-java"],
           "%s: type classic, Stable, its Java member" % GCLASSIC, c)
        rc, out, err = lagtop("--once", "-b", kc.bootstrap, "--no-commit-stream", "-g", G848)
        rows = [l.split() for l in out.splitlines()]
        col = {n: i for i, n in enumerate(rows[0])} if rows else {}
        cells = {(r[col["TYPE"]], r[col["CLIENT-ID"]]) for r in rows[1:]} if "TYPE" in col else set()
        want_cells = ({("consumer", "cur-java"), ("consumer", "cur-confluent")} if whole else {("consumer", "?")})
        ok(rc == 0 and cells == want_cells, "table: TYPE consumer, owners %s" % ("named" if whole else "'?'"),
           out)

        # the server assignor: ConsumerGroupDescribe names it (librdkafka 2.10+); 2.0.2 has no way to read it
        rc_t, out_t, err_t = kc.consumer_groups("--describe", "--group", G848, "--state")
        rc_l, out_l, err_l = lagtop("--describe", "--group", G848, "--state", "-b", kc.bootstrap)
        strategy = {}
        for who, text in (("tool", out_t), ("lagtop", out_l)):
            hdr = next((l for l in text.splitlines() if l.startswith("GROUP ")), "")
            row = next((l for l in text.splitlines() if l.startswith(G848 + " ")), "")
            at = hdr.find("ASSIGNMENT-STRATEGY")
            strategy[who] = row[at:].split()[0] if at >= 0 and len(row) > at else None
        want = strategy["tool"] if whole else "-"
        ok(rc_l == 0 and strategy["tool"] == "uniform" and strategy["lagtop"] == want,
           "%s --state: ASSIGNMENT-STRATEGY %s (the tool: %s)" % (G848, want, strategy["tool"]),
           "tool:\n%s\nlagtop:\n%s\n%s" % (out_t, out_l, err_l))

        # assigned partitions without a commit yet: the tool prints them with CURRENT-OFFSET and LAG "-";
        # lagtop does where it can read the members (a classic group always; a consumer-protocol one on 2.10+)
        for grp in (GCLASSIC_NC, G848_NC):
            name = "%s: assigned partitions without a commit appear as the tool prints them (- for CURRENT-OFFSET " \
                   "and LAG)" % grp
            if grp == G848_NC and not whole:
                skip(name, "librdkafka 2.0.2 cannot read a consumer-protocol group's members")
                continue

            def rows_now(grp=grp):
                t = offset_rows(kc.consumer_groups("--describe", "--group", grp)[1], grp)
                return len(t) == PARTS and all(r[3] == "-" for r in t), t
            settled, tool_rows = wait_for("%s assigned" % grp, rows_now)
            rc, out, err = lagtop("--describe", "--group", grp, "-b", kc.bootstrap)
            rc_j, out_j, err_j = lagtop("--once", "--format", "json", "-g", grp, "-b", kc.bootstrap)
            g = next((x for x in (json.loads(out_j) if rc_j == 0 else {"groups": []})["groups"]
                      if x["group"] == grp), {})
            rows_j = sorted((p["topic"], p["partition"], p["committed"], p["log_end"], p["client_id"])
                            for p in g.get("partitions", []))
            want_j = sorted((r[1], int(r[2]), None, int(r[4]), r[8]) for r in tool_rows)
            ok(settled and rc == 0 and offset_rows(out, grp) == tool_rows and rows_j == want_j, name + ", in "
               "--describe and --once", "tool: %s\nlagtop: %s\n%s\n--once: %s" % (tool_rows, offset_rows(out, grp),
                                                                           err, rows_j))

        # the guard, while the members are there
        state_home = tempfile.mkdtemp(prefix="state-", dir=TMP)
        before = committed(kc, G848)
        rc, out, err = lagtop("--reset-offsets", "-g", G848, "--topic", TOPIC, "--to-earliest", "--execute",
                              "-b", kc.bootstrap, env={"XDG_STATE_HOME": state_home, "XDG_CONFIG_HOME": state_home})
        after = committed(kc, G848)
        backups = os.path.join(state_home, "lagtop", "backups")
        backups = os.listdir(backups) if os.path.isdir(backups) else []
        ok(rc == 3 and after == before and backups == [],
           "guard: the live consumer-protocol group is refused (exit 3), nothing committed, no backup",
           "rc %d, %s -> %s, backups %s\n%s" % (rc, before, after, backups, err))
        if whole:
            ok("the current state is Stable" in err and "client-id cur-java" in err and "client-id cur-confluent" in err,
               "guard: the refusal names the state and both members", err)
        else:
            ok("the current state is Stable" in err and "cannot be read" in err,
               "guard: the refusal names the state and says the members cannot be read", err)

        # log offsets: ListOffsets and offsets_for_times against the real log
        name = "log offsets: ListOffsets equals offsets_for_times and the real log (start 7 on partition 0)"
        if not has_list_offsets:
            skip(name, "this lagtop's librdkafka has no rd_kafka_ListOffsets (>= 2.3.0)")
        else:
            def log_offsets(path):
                rc, out, err = lagtop("--once", "--format", "json", "-b", kc.bootstrap, "--no-commit-stream",
                                      env={"LAGTOP_LOG_OFFSETS": path} if path else None)
                d = json.loads(out) if rc == 0 else {"groups": []}
                return {(x["group"], p["partition"]): (p["log_start"], p["log_end"])
                        for x in d["groups"] if x["group"] in (G848, GCLASSIC)
                        for p in x["partitions"] if p["topic"] == TOPIC}
            a, b = log_offsets(None), log_offsets("offsets_for_times")
            want = {(grp, p): (7 if p == 0 else 0, RECORDS) for grp in (G848, GCLASSIC) for p in range(PARTS)}
            ok(a == want and b == want, name, "ListOffsets %s\noffsets_for_times %s\nwant %s" % (a, b, want))
    finally:
        for m in members:
            m.stop()


def main():
    kt.require_jdk()
    kt.available(K.confluent_python)
    loaded, version, apis = librdkafka_of_lagtop()
    print("# lagtop loads librdkafka %s (ldd, or bundled); it says %s, newer APIs: %s"
          % (loaded, version, " ".join(apis)))
    ok(version is not None and loaded == version,
       "lagtop --version names the librdkafka it loads (ldd's, or the bundled one linked in)",
       (loaded, version))
    return kt.on_one_cluster(run, "KIP-848-describe" in apis, "ListOffsets" in apis)


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="lagtop-groups-current.") as TMP:
        sys.exit(main())
