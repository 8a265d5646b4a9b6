"""test_record_sim.py — recording and replay against lagtop-sim.

`lagtop --record FILE --headless --format json` records the sim's refreshes and prints each one as
--once prints it: that JSON is the oracle. Then `lagtop --replay FILE --once --at T --format json` for
every recorded time must print the same document, number by number (every field, the timestamps
included: a record keeps its snapshot's taken_at_ms, and --at with milliseconds names it exactly).
Also: the other --at forms, a file cut short, rotation, an existing file never overwritten, and the
one-line errors (missing file, not a recording, another version, a time outside the recording).
"""
import datetime
import json
import os
import shutil
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import simtest  # noqa: E402
from simtest import lagtop, ok, results  # noqa: E402


def Sim(*args):
    return simtest.Sim(*args, tmp=TMP)


def record(bootstrap, path, n, *extra, interval="2"):
    """Records headless until n refreshes were printed, then SIGTERM. Returns (rc, docs, stderr)."""
    return simtest.lagtop_headless(n, "-b", bootstrap, "--record", path, "-i", interval, *extra,
                                   limit_s=30 + 3 * n)


def iso(ms):
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + \
        "%03dZ" % (ms % 1000)


def diff(a, b, path="$", out=None, counts=None):
    """Paths where a and b differ; counts[0] += the numbers compared."""
    if out is None:
        out = []
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append("%s.%s: only in %s" % (path, k, "recorded" if k in a else "replayed"))
            else:
                diff(a[k], b[k], "%s.%s" % (path, k), out, counts)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append("%s: %d vs %d items" % (path, len(a), len(b)))
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, "%s[%d]" % (path, i), out, counts)
    else:
        if isinstance(a, (int, float)) and not isinstance(a, bool) and counts is not None:
            counts[0] += 1
        if a != b or type(a) != type(b):
            out.append("%s: recorded %r, replayed %r" % (path, a, b))
    return out


def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def frames(path):
    """(offset, type, length) of each frame after the 32-byte header."""
    data = open(path, "rb").read()
    off, out = 32, []
    while off + 24 <= len(data):
        kind = chr(data[off])
        stored = struct.unpack_from("<I", data, off + 4)[0]
        out.append((off, kind, 24 + stored))
        off += 24 + stored
        if kind == "X":
            break
    return out


def one_line_error(rc, out, err, needle):
    return rc == 2 and out == "" and len(err.splitlines()) == 1 and err.startswith("lagtop: ") and needle in err


def main():
    os.environ["HOME"] = TMP
    os.environ["XDG_CONFIG_HOME"] = os.path.join(TMP, "xdg")
    os.environ.pop("LAGTOP_CONFIG", None)
    print("1..21")
    sim = Sim("--scenario", "demo")
    try:
        path = os.path.join(TMP, "night.lrec")
        rc, docs, err = record(sim.bootstrap, path, 6)
        others = [l for l in err.splitlines() if not l.startswith("lagtop: warning: ")]
        ok(rc == 0 and len(docs) == 6 and others == [],
           "--record --headless: 6 refreshes printed, SIGTERM ends it with exit 0, stderr only warnings",
           "rc %d, %d docs\n%s" % (rc, len(docs), err))
        times = [d["taken_at_ms"] for d in docs]
        ok(times == sorted(times) and len(set(times)) == 6 and sum(len(d["groups"]) for d in docs) > 0,
           "the refreshes are distinct, in order, with groups", times)

        # every recorded moment, replayed, is the document printed then
        bad, counts = [], [0]
        for d in docs:
            rc, out, err = lagtop("--replay", path, "--once", "--at", iso(d["taken_at_ms"]), "--format", "json")
            if rc != 0:
                bad.append("rc %d: %s" % (rc, err))
                continue
            bad += diff(d, json.loads(out), counts=counts)
        ok(bad == [] and counts[0] > 500,
           "--replay --once --at T --format json: each of the 6 moments equals the recorded JSON (%d numbers)"
           % counts[0], "\n".join(bad[:20]))
        rc, out, err = lagtop("--replay", path, "--once", "--format", "json")
        ok(rc == 0 and diff(docs[-1], json.loads(out)) == [], "--replay --once without --at: the last moment",
           err)
        # HH:MM:SS (UTC, whole seconds) and -Ns before the end name the record at or before them
        k = 2
        ceil_s = (times[k] + 999) // 1000 * 1000
        hms = datetime.datetime.fromtimestamp(ceil_s / 1000, datetime.timezone.utc).strftime("%H:%M:%S")
        rc, out, err = lagtop("--replay", path, "--once", "--at", hms, "--format", "json")
        ok(rc == 0 and json.loads(out)["taken_at_ms"] == times[k], "--at HH:MM:SS (UTC): the record at or before",
           "%s %s" % (hms, err))
        back = (times[-1] - times[k]) // 1000
        rc, out, err = lagtop("--replay", path, "--once", "--at", "-%ds" % back, "--format", "json")
        ok(rc == 0 and json.loads(out)["taken_at_ms"] == times[k], "--at -Ns: before the recording's end",
           "-%ds %s" % (back, err))
        rc, out, err = lagtop("--replay", path, "--once", "--at", iso(times[3]), "--format", "csv")
        ok(rc == 0 and len(out.splitlines()) > 1, "--format csv of a recorded moment", err)

        # errors: one line naming what was wrong, exit 2
        rc, out, err = lagtop("--replay", os.path.join(TMP, "absent.lrec"), "--once")
        ok(one_line_error(rc, out, err, "absent.lrec") and "No such file" in err, "a missing file", err)
        rc, out, err = lagtop("--replay", os.path.join(TMP, "sim.err"), "--once")
        ok(one_line_error(rc, out, err, "is not a lagtop recording"), "a file that is not a recording", err)
        other = os.path.join(TMP, "v3.lrec")
        data = bytearray(open(path, "rb").read())
        ok(struct.unpack_from("<H", data, 8)[0] == 3, "the recorder writes format version 3")
        ok(os.stat(path).st_mode & 0o777 == 0o600, "the recording is the owner's only (0600)",
           oct(os.stat(path).st_mode))
        for v in (2, 4):
            data[8] = v
            struct.pack_into("<I", data, 28, crc32c(bytes(data[:28])))
            open(other, "wb").write(data)
            rc, out, err = lagtop("--replay", other, "--once")
            ok(one_line_error(rc, out, err, "is a version %d recording; this lagtop reads version 3 only" % v),
               "version %d: refused, naming both versions" % v, err)
        rc, out, err = lagtop("--replay", path, "--once", "--at", "2020-01-01T00:00:00Z")
        ok(one_line_error(rc, out, err, "is outside the recording"), "a time outside the recording", err)
        rc, out, err = lagtop("-b", sim.bootstrap, "--record", "/dev/null", "--headless")
        ok(one_line_error(rc, out, err, "/dev/null is not a regular file") and os.path.exists("/dev/null")
           and not os.path.isfile("/dev/null"), "--record on a device: refused, the device left alone", err)
        rc, out, err = lagtop("--replay", path, "--once", "--at", "yesterday")
        ok(one_line_error(rc, out, err, "'yesterday'"), "a time that is no time", err)

        # cut short in the middle of the last record (a recorder killed while writing)
        fr = frames(path)
        recs = [f for f in fr if f[1] in "KD"]
        cut = os.path.join(TMP, "cut.lrec")
        shutil.copy(path, cut)
        with open(cut, "r+b") as f:
            f.truncate(recs[-1][0] + recs[-1][2] // 2)
        rc, out, err = lagtop("--replay", cut, "--once", "--format", "json")
        ok(rc == 0 and diff(docs[-2], json.loads(out)) == [] and "cut short" in err,
           "a file cut short replays up to its last complete record, and says so", err)

        # an existing file is rotated away, never overwritten
        before = open(path, "rb").read()
        rc, docs2, err = record(sim.bootstrap, path, 1)
        ok(rc == 0 and len(docs2) == 1 and open(path + ".1", "rb").read() == before,
           "an existing FILE becomes FILE.1, byte for byte", err)

        # rotation by size: one line per rotation; every file replays alone; --record-keep bounds them
        rot = os.path.join(TMP, "rot.lrec")
        rc, docs3, err = record(sim.bootstrap, rot, 8, "--record-max-size", "4K", "--record-keep", "2",
                                interval="0.5")
        lines = [l for l in err.splitlines() if "it is now" in l]
        files = sorted(f for f in os.listdir(TMP) if f.startswith("rot.lrec"))
        ok(rc == 0 and len(lines) >= 2 and files == ["rot.lrec", "rot.lrec.1", "rot.lrec.2"]
           and all(os.path.getsize(os.path.join(TMP, f)) <= 4096 for f in files),
           "--record-max-size 4K --record-keep 2: %d rotations said, FILE, FILE.1, FILE.2 each <= 4K"
           % len(lines), "%s\n%s" % (files, err))
        good = True
        for f in files:
            rc, out, err = lagtop("--replay", os.path.join(TMP, f), "--once", "--format", "json")
            good = good and rc == 0 and json.loads(out)["taken_at_ms"] in [d["taken_at_ms"] for d in docs3]
        ok(good, "each rotated file replays alone, ending on a recorded moment", err)
        # the newest file's moments are the last ones printed
        rc, out, err = lagtop("--replay", rot, "--once", "--format", "json")
        ok(rc == 0 and diff(docs3[-1], json.loads(out)) == [], "FILE holds the newest moment", err)
    finally:
        sim.stop()
    return 0 if all(results) else 1


if __name__ == "__main__":
    import tempfile
    with tempfile.TemporaryDirectory(prefix="lagtop-test.") as TMP:
        sys.exit(main())
