"""test_peek_sim.py — `lagtop --peek GROUP` against lagtop-sim: the record a group is stuck on, read-only.

kafka-python produces a hostile record (escape sequences, a bidi override, invalid UTF-8 and NUL in its key,
header name, header value and a 1000-byte value) between two plain ones, and commits groups at it, at the log
end, and at an offset that retention has deleted. --peek must print the record at the committed offset with
the timestamp kafka-python reads there, every byte of it terminal-safe (table and JSON), the value cut to its
first bytes with its whole size said; one line for the log end and for the deleted offset (with the log start);
and commit nothing (the groups' offsets are the same after).
"""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import simtest  # noqa: E402
from simtest import Sim, missing_prereq, ok, results  # noqa: E402

HOSTILE_KEY = b"k\x1b[31mred\xe2\x80\xaervs\xff\x00z"
HOSTILE_HEADER = ("h\x1b]0;t\x07", b"v\xc2\x9b\x0a\x1b[2J")
HOSTILE_VALUE = b"\x1b[2J" + b"v" * 996


def peek(bootstrap, group, fmt):
    """lagtop --peek: (rc, stdout bytes, stderr text)."""
    p = subprocess.run([simtest.LAGTOP, "--peek", group, "-b", bootstrap, "--timeout", "10s", "--format", fmt],
                       capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def unsafe_bytes(out):
    """What a terminal must not get raw: controls but newline, DEL, C1, bidi controls, invalid UTF-8."""
    bad = [b for b in out if (b < 0x20 and b != 0x0a) or b == 0x7f]
    try:
        text = out.decode("utf-8")
    except UnicodeDecodeError as e:
        return "invalid UTF-8: %s" % e
    bad += [c for c in text if 0x80 <= ord(c) < 0xa0 or ord(c) in (0x202a, 0x202b, 0x202c, 0x202d, 0x202e)]
    return bad


def offsets_of(admin, group):
    return {(tp.topic, tp.partition): om.offset for tp, om in admin.list_consumer_group_offsets(group).items()}


def main(tmp):
    try:
        from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
        from kafka.structs import OffsetAndMetadata
    except ImportError:
        missing_prereq("kafka-python (Debian package python3-kafka)")
    print("1..9")
    os.environ["HOME"] = tmp
    os.environ["XDG_CONFIG_HOME"] = os.path.join(tmp, "xdg")
    os.environ.pop("LAGTOP_CONFIG", None)
    with Sim("--brokers", "1", "--auto-create-partitions", "1", "--retention-bytes", "2000",
             "--log-retention-check-interval-ms", "1000", tmp=tmp) as sim:
        bs = sim.bootstrap
        prod = KafkaProducer(bootstrap_servers=bs, linger_ms=0)
        prod.send("peek-t", key=b"plain", value=b"first").get(timeout=10)
        prod.send("peek-t", key=HOSTILE_KEY, value=HOSTILE_VALUE,
                  headers=[(HOSTILE_HEADER[0], HOSTILE_HEADER[1])]).get(timeout=10)
        prod.send("peek-t", key=b"plain", value=b"last").get(timeout=10)
        for _ in range(40):  # retention by size (2000 bytes) deletes the oldest of these
            prod.send("peek-gone", value=b"x" * 80).get(timeout=10)
        prod.close()
        t, gone = TopicPartition("peek-t", 0), TopicPartition("peek-gone", 0)
        reader = KafkaConsumer(bootstrap_servers=bs, enable_auto_commit=False, consumer_timeout_ms=5000)
        reader.assign([t])
        reader.seek(t, 1)
        hostile = next(iter(reader))
        deadline = time.time() + 15
        while reader.beginning_offsets([gone])[gone] == 0 and time.time() < deadline:
            time.sleep(0.2)
        gone_start = reader.beginning_offsets([gone])[gone]
        reader.close()
        for group, offsets in (("stuck", {t: 1}), ("caught-up", {t: 3}), ("gone", {gone: 0})):
            c = KafkaConsumer(bootstrap_servers=bs, group_id=group, enable_auto_commit=False)
            c.commit({tp: OffsetAndMetadata(o, "") for tp, o in offsets.items()})
            c.close()
        admin = KafkaAdminClient(bootstrap_servers=bs)
        before = {g: offsets_of(admin, g) for g in ("stuck", "caught-up", "gone")}

        rc, out, err = peek(bs, "stuck", "json")
        doc = json.loads(out) if rc == 0 else {}
        rec = doc.get("partitions", [{}])[0].get("committed", {}) if rc == 0 else {}
        ok(rc == 0 and rec.get("status") == "ok" and rec.get("offset") == 1
           and rec.get("timestamp_ms") == hostile.timestamp and rec.get("timestamp_type") == "CreateTime",
           "the record at the committed offset, with the timestamp and type kafka-python reads", (rc, err, rec))
        ok(rc == 0 and rec.get("key") == "k\\x1b[31mred\\u202ervs\\xff\\x00z" and rec.get("key_size") == 18
           and rec.get("headers") == [{"name": "h\\x1b]0;t\\x07", "value": "v\\u009b\\x0a\\x1b[2J",
                                       "value_size": 8}],
           "JSON: key and headers sanitised by the one rule, sizes exact", rec)
        ok(rc == 0 and rec.get("value", "").startswith("\\x1b[2Jvvv") and rec.get("value_size") == 1000
           and len(rec.get("value", "")) < 300, "JSON: the value's first bytes only, its whole size said",
           (len(rec.get("value", "")), rec.get("value_size")))
        ok(not unsafe_bytes(out), "JSON output: not one unsafe byte", unsafe_bytes(out))

        rc, out, err = peek(bs, "stuck", "table")
        text = out.decode("utf-8", "replace")
        ok(rc == 0 and not unsafe_bytes(out) and "k\\x1b[31mred\\u202ervs\\xff\\x00z" in text
           and "(1000 bytes)" in text and "(CreateTime)" in text,
           "table: the record's lines, every byte terminal-safe, the value capped", text)

        rc, out, err = peek(bs, "caught-up", "json")
        rec = json.loads(out)["partitions"][0]["committed"] if rc == 0 else {}
        ok(rc == 0 and rec.get("status") == "at_log_end"
           and rec.get("message") == "offset 3 is the log end: nothing to read yet",
           "at the log end: one line, nothing to read yet", (rc, err, rec))

        rc, out, err = peek(bs, "gone", "table")
        want = "offset 0 was deleted by retention: the log now starts at %d" % gone_start
        ok(rc == 0 and gone_start > 0 and want in out.decode(), "deleted by retention: one line with the log start",
           (rc, err, out, gone_start))

        rc, out, err = peek(bs, "no-such-group", "table")
        ok(rc == 1 and err.count("\n") == 1 and "no-such-group" in err, "an unknown group: exit 1, one line",
           (rc, err))

        after = {g: offsets_of(admin, g) for g in ("stuck", "caught-up", "gone")}
        admin.close()
        ok(before == after, "read-only: every group's committed offsets unchanged", (before, after))
    return 0 if all(results) else 1


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="lagtop-test.") as TMP:
        sys.exit(main(TMP))
