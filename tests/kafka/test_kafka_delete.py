"""test_kafka_delete.py — lagtop --delete and --delete-offsets judged by the real kafka-consumer-groups, on
Apache Kafka 4.x and 3.9.x (one single-node cluster per line).

Per cluster:
 1. twins: the same operation by lagtop on one group and by the tool on its twin (the same commits); the
    standard output must be the tool's, token for token (padding ignored, the group names mapped): a whole
    Empty group deleted, several groups with one unknown, offsets of an Empty group on two topics, a
    partition and a topic that do not exist (a partial failure), an unknown group;
    and what is left afterwards (the tool's --describe --offsets) is the same on both twins;
 2. lagtop backed up what it deleted (the reset backup store) and wrote an audit line; --undo --execute
    puts the offsets back: the tool's --describe shows them again, a deleted group included;
 3. the guard on real members: a classic group of a Java and a kafka-python member is refused by lagtop
    (exit 3, state and members named, no backup, nothing deleted) where the tool fails too (its
    delete answer equals lagtop's stdout); on 4.x a consumer-protocol (KIP-848) group of a Java member is
    refused as well.
Then the same on lagtop-sim with the 4.x tool, whose output there must equal its output on Kafka 4.x (a
differential test of the sim's DeleteGroups and OffsetDelete). The tool runs in one JVM per line (ToolBatch).
By hand: LT_KAFKA_DELETE_ONLY=4|3.9|sim runs one cluster.
"""
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import kafkatest as kt  # noqa: E402
from kafkatest import K  # noqa: E402
import simtest  # noqa: E402
from simtest import exit_status, note, ok, plan  # noqa: E402

T_START = time.monotonic()


def tokens(text, names):
    """The text's whitespace-separated tokens, each group name replaced by its role (padding ignored; the
    tool prints a 3.9 table on one line, which tokens also absorb)."""
    for real, role in sorted(names.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(real, role)
    return text.split()


def as_4x(text, topics=("orders", "other", "nosuch")):
    """The 3.9 tool's delete output in the 4.x tool's words, which lagtop prints. Kafka 4.0 changed them
    (ConsumerGroupCommand.deleteGroups/deleteOffsets): the group failures lost the
    "java.util.concurrent.ExecutionException: " prefix; the list of groups deleted when others failed became
    "'a', 'b'" (3.9: "'a'b', '"); "Request succeed for deleting offsets with topic T group G" became "Request
    succeeded for deleting offsets from group G."; a group-level error prints Kafka's message ("'G' does not
    exist." became "The group id does not exist.", "Deleting offsets of a consumer group 'G' is forbidden if
    the group is not empty." became "The group is not empty."); "Encounter some partition level error, see the
    follow-up details:" became "Encountered some partition-level error, see the follow-up details."; in the
    table "Not Provided" became "-" and "Error: :" "Error: ", and 3.9 printed every row on the header's line
    with nothing between them (a space is put before each topic name)."""
    text = text.replace("java.util.concurrent.ExecutionException: ", "")
    text = re.sub(r"deleted successfully: '(.*)', '$",
                  lambda m: "deleted successfully: " + ", ".join("'%s'" % g for g in m.group(1).split("'")), text,
                  flags=re.M)
    text = re.sub(r"^Request succeed for deleting offsets with topic .* group (\S+)$",
                  r"Request succeeded for deleting offsets from group \1.", text, flags=re.M)
    text = re.sub(r"^Error: '(\S+)' does not exist\.$", "Error: The group id does not exist.", text, flags=re.M)
    text = re.sub(r"^Error: Deleting offsets of a consumer group '(\S+)' is forbidden if the group is not empty\.$",
                  "Error: The group is not empty.", text, flags=re.M)
    text = text.replace("Error: Encounter some partition level error, see the follow-up details:",
                        "Error: Encountered some partition-level error, see the follow-up details.")
    text = text.replace("Not Provided", "-").replace("Error: :", "Error: ")
    for t in topics:
        text = re.sub(r"(?<=\S)(%s\s)" % re.escape(t), r" \1", text)
    return text


class Ctx(kt.ToolCtx):
    def __init__(self, label, line, kc, cg, sim=False):
        super().__init__(label, line, kc, cg, sim=sim, prefix="lagtop-kdelete-")

    def lagtop(self, *args):
        return simtest.lagtop(*args, "-b", self.bootstrap, "--timeout", "20s", env=self.env, timeout=90)

    def backup_rows(self, name):
        return sorted(tuple(ln.split(",")) for ln in self.backup_text(name).splitlines())


COMMITS = {("orders", 0): 5, ("orders", 1): 4, ("orders", 2): 7, ("other", 0): 2, ("other", 1): 3}


def twin_cases():
    """(name, lagtop's args, the tool's args, expected lagtop exit) with {L}/{T} for the twins' group ids."""
    return [
        ("delete an Empty group", ["--delete", "--group", "{L}"], ["--delete", "--group", "{T}"], 0),
        ("delete an Empty group and an unknown one", ["--delete", "--group", "{L}", "--group", "nosuch-{L}"],
         ["--delete", "--group", "{T}", "--group", "nosuch-{T}"], 1),
        ("delete an unknown group", ["--delete", "--group", "nosuch-{L}"], ["--delete", "--group", "nosuch-{T}"], 1),
        ("delete-offsets on two topics", ["--delete-offsets", "--group", "{L}", "--topic", "orders:0,2", "--topic",
                                          "other"],
         ["--delete-offsets", "--group", "{T}", "--topic", "orders:0,2", "--topic", "other"], 0),
        ("delete-offsets with an unknown topic", ["--delete-offsets", "--group", "{L}", "--topic", "orders:1",
                                                  "--topic", "nosuch"],
         ["--delete-offsets", "--group", "{T}", "--topic", "orders:1", "--topic", "nosuch"], 1),
        ("delete-offsets of an unknown group", ["--delete-offsets", "--group", "nosuch-{L}", "--topic", "orders"],
         ["--delete-offsets", "--group", "nosuch-{T}", "--topic", "orders"], 1),
    ]


def check_twins(ctx):
    cases = twin_cases()
    pairs, outputs = [], {}
    for i, _ in enumerate(cases):
        L, T = "d%d-lagtop" % i, "d%d-kcg" % i
        for g in (L, T):
            ctx.commit(g, COMMITS)
        pairs.append((L, T))
    for (name, largs, targs, want_rc), (L, T) in zip(cases, pairs):
        la = [a.format(L=L, T=T) for a in largs]
        ta = [a.format(L=L, T=T) for a in targs]
        rc_t, out_t, err_t = ctx.tool(*ta)
        rc_l, out_l, err_l = ctx.lagtop(*la)
        want = as_4x(out_t) if ctx.line == "3.9" else out_t
        outputs[name] = tokens(out_t, {L: "G", T: "G"})
        same = tokens(out_l, {L: "G", T: "G"}) == tokens(want, {L: "G", T: "G"})
        ok(same and rc_l == want_rc, "%s: %s: lagtop prints what kafka-consumer-groups prints%s (exit %d)"
           % (ctx.label, name, " (in 4.x's words)" if ctx.line == "3.9" else "", want_rc),
           "tool (rc %d):\n%s%s\nlagtop (rc %d):\n%s%s" % (rc_t, want, err_t[-400:], rc_l, out_l, err_l))
    if ctx.line == "4":
        check_sim_like_kafka(ctx, outputs)
    after, text = ctx.describe_offsets([g for p in pairs for g in p])
    for (name, _, _, _), (L, T) in zip(cases, pairs):
        ok(after[L] == after[T], "%s: %s: the same offsets are left on both twins" % (ctx.label, name),
           "lagtop's %s: %s\nthe tool's %s: %s" % (L, after[L], T, after[T]))
    return pairs, after


def check_backup_audit_undo(ctx, pairs, after):
    """After check_twins: d0 (group deleted) and d3 (offsets deleted) were backed up, audited and undone."""
    g_del, g_off = pairs[0][0], pairs[3][0]
    want_rows = sorted((t, str(p), str(o)) for (t, p), o in COMMITS.items())
    b = ctx.backups(g_del)
    ok(len(b) == 1 and ctx.backup_rows(b[0]) == want_rows and after[g_del] == {},
       "%s: delete: the group was gone, its offsets backed up first" % ctx.label,
       "%s %s %s" % (b, b and ctx.backup_rows(b[0]), after[g_del]))
    b2 = ctx.backups(g_off)
    deleted = {("orders", 0), ("orders", 2), ("other", 0), ("other", 1)}
    ok(len(b2) == 1 and ctx.backup_rows(b2[0]) == sorted((t, str(p), str(COMMITS[(t, p)])) for t, p in deleted),
       "%s: delete-offsets: exactly the deleted offsets were backed up" % ctx.label,
       "%s %s" % (b2, b2 and ctx.backup_rows(b2[0])))
    audit = ctx.audit()
    ok(any("group=%s target=delete-group" % g_del in ln and "result=executed" in ln for ln in audit) and
       any("group=%s target=delete-offsets%%20orders:0,2%%20other" % g_off in ln and "result=executed" in ln
           for ln in audit), "%s: both deletes are in the audit log" % ctx.label, "\n".join(audit))
    for g in (g_del, g_off):
        rc, out, err = ctx.lagtop("--undo", g, "--execute")
        ok(rc == 0, "%s: --undo %s --execute" % (ctx.label, g), out + err)
    back, text = ctx.describe_offsets([g_del, g_off])
    ok(back[g_del] == COMMITS and back[g_off] == COMMITS,
       "%s: after --undo the tool's --describe shows the deleted offsets back (a deleted group included)"
       % ctx.label, text)


def guard_case(ctx, g, kind, members_named):
    """With g active: lagtop refuses --delete and --delete-offsets; the tool's --delete fails the same way."""
    before = ctx.committed(g)
    rc, out, err = ctx.lagtop("--delete", "--group", g)
    ok(rc == 3 and ("Group '%s' can only be deleted if it is inactive" % g) in err and
       all(m in err for m in members_named), "%s: %s: lagtop refuses --delete (exit 3), the state%s named"
       % (ctx.label, kind, " and members" if members_named else ""), "rc %d\n%s\n%s" % (rc, out, err))
    rc_t, out_t, err_t = ctx.tool("--delete", "--group", g)
    ok(tokens(out, {}) == tokens(as_4x(out_t) if ctx.line == "3.9" else out_t, {}), "%s: %s: lagtop's --delete output is the tool's, which fails too"
       % (ctx.label, kind), "tool (rc %d):\n%s\nlagtop:\n%s" % (rc_t, out_t, out))
    rc, out, err = ctx.lagtop("--delete-offsets", "--group", g, "--topic", "orders")
    ok(rc == 3 and ("Offsets of group '%s' can only be deleted if the group is inactive" % g) in err,
       "%s: %s: lagtop refuses --delete-offsets (exit 3)" % (ctx.label, kind), "rc %d\n%s\n%s" % (rc, out, err))
    if kind.startswith("classic") and ctx.line == "4":
        # what the broker itself answers a Stable classic group: OffsetDelete refused on the topic it
        # subscribes to (GROUP_SUBSCRIBED_TO_TOPIC), allowed on another; the sim must answer the same
        outs = {}
        for topic in ("orders", "other"):
            rc_t, out_t, err_t = ctx.tool("--delete-offsets", "--group", g, "--topic", topic)
            outs["the tool's delete-offsets of an active group on %s" % topic] = tokens(out_t, {})
        check_sim_like_kafka(ctx, outs)
    after = ctx.committed(g)
    ok(before and after == before and ctx.backups(g) == [],
       "%s: %s: nothing was deleted by lagtop, no backup" % (ctx.label, kind), "%s -> %s, backups %s" %
       (before, after, ctx.backups(g)))


def after_members_left(ctx, g, args, kind):
    """Once the members left (the group Empty), the delete lagtop refused goes through, backed up, and --undo
    --execute brings the offsets back (read with the tool)."""
    before = ctx.committed(g)
    rc, out, err = ctx.lagtop_once_inactive(*args)
    gone = ctx.committed(g)
    ok(rc == 0 and before and gone == {} and len(ctx.backups(g)) == 1,
       "%s: %s: once its members left, lagtop deletes (exit 0), with a backup" % (ctx.label, kind),
       "rc %d, %s -> %s, backups %s\n%s%s" % (rc, before, gone, ctx.backups(g), out, err))
    rc, out, err = ctx.lagtop("--undo", g, "--execute")
    back = ctx.committed(g)
    ok(rc == 0 and back == before, "%s: %s: --undo --execute puts the offsets back" % (ctx.label, kind),
       "rc %d, %s\n%s" % (rc, back, err))


def check_guard(ctx):
    g = "active-classic"
    log_ends = {("orders", p): 10 for p in range(3)}
    with ctx.classic_members(g, "del", log_ends) as (st, n, got):
        ok(st == "Stable" and got == log_ends, "%s: a Java and a kafka-python member in classic group %s"
           % (ctx.label, g), "%s %s %s" % (st, n, got))
        guard_case(ctx, g, "classic group with members", ["del-java", "del-kafka-python"])
    after_members_left(ctx, g, ["--delete-offsets", "--group", g, "--topic", "orders"], "classic group")
    if ctx.line == "3.9" or ctx.sim:  # the sim's consumer-protocol members are synthetic: test_delete_sim.py
        return
    g = "active-kip848"
    with K.Member(ctx.kc, "java", g, ["orders"], protocol="consumer", client_id="del-kip848") as m:
        assigned = m.wait_assigned(60)
        got = ctx.wait_committed(g, log_ends)
        ok(assigned and got == log_ends, "%s: a Java member in consumer-protocol group %s" % (ctx.label, g),
           "%s %s" % (m.seen, got))
        guard_case(ctx, g, "consumer-protocol group", [])
    after_members_left(ctx, g, ["--delete", "--group", g], "consumer-protocol group")


# The tool's output of each twin case on Kafka 4.x, by case: on lagtop-sim it must print the same (the sim
# answers DeleteGroups and OffsetDelete as Kafka does).
REFERENCE = {}


def check_sim_like_kafka(ctx, outputs):
    if not ctx.sim:
        REFERENCE.update(outputs)
        return
    for name in sorted(outputs):
        ok(outputs[name] == REFERENCE.get(name), "%s: %s: kafka-consumer-groups prints on the sim what it prints "
           "on Kafka 4.x" % (ctx.label, name), "sim: %s\nKafka: %s" % (outputs[name], REFERENCE.get(name)))


def run_sim(cg):
    with kt.tool_ctx_on_sim(Ctx, cg) as ctx:
        if not ctx:
            return
        K.create_topic(ctx.bootstrap, "orders", 3, 10, api_version=(2, 0, 0))
        K.create_topic(ctx.bootstrap, "other", 2, 5, api_version=(2, 0, 0))
        t = time.monotonic()
        twins(ctx)
        check_guard(ctx)
        note("%s: in %.1f s" % (ctx.label, time.monotonic() - t))


def twins(ctx):
    pairs, after = check_twins(ctx)
    check_backup_audit_undo(ctx, pairs, after)


def run_line(line, cg):
    with kt.tool_ctx_on_kafka(Ctx, line, cg) as ctx:
        if not ctx:
            return
        K.create_topic(ctx.bootstrap, "orders", 3, 10)
        K.create_topic(ctx.bootstrap, "other", 2, 5)
        for check in (twins, check_guard):
            t = time.monotonic()
            kt.guarded(ctx.label, check, ctx)
            note("%s: %s in %.1f s" % (ctx.label, check.__name__, time.monotonic() - t))


def main():
    kt.require_jdk()
    kt.require_kafka_python()
    kt.each_line(os.environ.get("LT_KAFKA_DELETE_ONLY", ""), run_line, run_sim)
    plan()
    note("wall time %.1f s" % (time.monotonic() - T_START))
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
