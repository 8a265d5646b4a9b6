#!/usr/bin/python3
# check_hostile.py FORMAT FILE — checks lagtop --once output of test_faults_hostile.c's hostile cluster:
# json: valid JSON whose names are exactly what the cluster sent (invalid UTF-8 bytes as U+FFFD);
# csv: RFC 4180, every row as many fields as the header, each name in its text-cell form (below);
# prometheus: parsed by prometheus_client, each name label in its terminal-safe form (below).
# The text-cell form (doc/lagtop.1, ONE-SHOT OUTPUT) is computed here on its own, from the rule, not from lagtop's
# code: the terminal-safe form (a byte that is not UTF-8, a C0 control or DEL as \xNN; a C1 control, a bidi
# control or a line/paragraph separator as \uXXXX), then a single quote in front of a cell starting with
# = + - @ TAB CR or a quote. Exit 0 when fine, else 1 and why.
# Keep the names in step with tests/lib/hostile.h.
import csv
import io
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from prom_check import parse  # noqa: E402
from simtest import find_group  # noqa: E402

G_OSC = b"evil\x1b]0;pwned\x07\x1b[2J"
G_UTF8 = b"bad\xff\xfe\xc3-utf8"
G_C1 = b"c1\xc2\x9b31mred"
G_BIDI = b"bidi\xe2\x80\xaecod.exe"
G_LINES = b'line1\nline2\tx\rcr,"q"'
T_ESC = b"t\x1b[1mopic"
C_ESC = b"\x1b[31mclient"
H_OSC8 = b"/\x1b]8;;http://example.invalid\x07link"
BIG_GROUP = b"G" * (10300 - 20) + b"\x1b[31mEND"
BIG_TOPIC = b"T" * (10100 - 1)
BIG_CLIENT = b"C" * (10300 - 20) + b"\x1b[31mEND"
GROUPS = {G_OSC: T_ESC, G_UTF8: b"plain", G_C1: b"plain", G_BIDI: BIG_TOPIC, G_LINES: b"plain", BIG_GROUP: b"plain"}
CLIENTS = {G_OSC: C_ESC, G_UTF8: b"ok", G_C1: G_C1, G_BIDI: G_BIDI, G_LINES: G_LINES, BIG_GROUP: BIG_CLIENT}
HOSTS = {G_OSC: H_OSC8, G_LINES: G_LINES}


BIDI_AND_SEPARATORS = {0x061C, 0x200E, 0x200F, 0x2028, 0x2029}
BIDI_AND_SEPARATORS |= set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))


def next_char(b, i):
    """The character at b[i] and its length in bytes, or (None, 1) when b[i] does not start valid UTF-8."""
    for k in (1, 2, 3, 4):
        try:
            ch = b[i : i + k].decode("utf-8")
        except UnicodeDecodeError:
            continue
        return ch, k
    return None, 1


def safe(b):
    """The terminal-safe form of the bytes b, as text."""
    out, i = [], 0
    while i < len(b):
        ch, k = next_char(b, i)
        cp = ord(ch) if ch is not None else None
        if cp is None or cp < 0x20 or cp == 0x7F:
            out.append("\\x%02x" % b[i])
        elif 0x80 <= cp < 0xA0 or cp in BIDI_AND_SEPARATORS:
            out.append("\\u%04x" % cp)
        else:
            out.append(ch)
        i += k
    return "".join(out)


def cell(b):
    """The CSV text cell of the bytes b: safe, then formula-guarded."""
    s = safe(b)
    return "'" + s if s[:1] in ("=", "+", "-", "@", "\t", "\r", "'") else s


def fail(msg):
    sys.stderr.write(msg + "\n")
    sys.exit(1)


def as_json_text(b):
    return b.decode("utf-8", errors="replace")


def check_json(data):
    try:
        doc = json.loads(data.decode("utf-8"))  # strict: the bytes must be UTF-8 too
    except (ValueError, UnicodeDecodeError) as e:
        fail("invalid JSON: %s" % e)
    for gid, topic in GROUPS.items():
        g = find_group(doc, as_json_text(gid))
        if g is None:
            fail("group %r missing from JSON (have %r)" % (gid[:40], [x["group"][:40] for x in doc["groups"]]))
        if g.get("error"):
            fail("group %r has an error: %s" % (gid[:40], g["error"]))
        topics = {p["topic"] for p in g["partitions"]}
        if as_json_text(topic) not in topics:
            fail("group %r: topic %r missing (have %r)" % (gid[:40], topic[:40], [t[:40] for t in topics]))
        clients = {m["client_id"] for m in g["member_list"]}
        if as_json_text(CLIENTS[gid]) not in clients:
            fail("group %r: client id %r missing" % (gid[:40], CLIENTS[gid][:40]))
        if gid in HOSTS and as_json_text(HOSTS[gid]) not in {m["host"] for m in g["member_list"]}:
            fail("group %r: host %r missing" % (gid[:40], HOSTS[gid]))


def check_csv(data):
    rows = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
    if not rows or rows[0][0] != "group":
        fail("no CSV header")
    for r in rows:
        if len(r) != len(rows[0]):
            fail("row with %d fields: %r" % (len(r), r[:3]))
    seen = {r[0]: r for r in rows[1:]}
    for gid, topic in GROUPS.items():
        r = seen.get(cell(gid))
        if r is None:
            fail("group %r missing from CSV as %r" % (gid[:40], cell(gid)[:60]))
        if r[2] != cell(topic):
            fail("group %r: topic %r, want %r" % (gid[:40], r[2][:40], cell(topic)[:40]))
        if r[12] != cell(CLIENTS[gid]):
            fail("group %r: client id %r, want %r" % (gid[:40], r[12][:40], cell(CLIENTS[gid])[:40]))
        if gid in HOSTS and r[11] != cell(HOSTS[gid]):
            fail("group %r: host %r, want %r" % (gid[:40], r[11], cell(HOSTS[gid])))


def check_prometheus(data):
    try:
        got, _ = parse(data.decode("utf-8"))
    except Exception as e:  # the parser's own errors have no common base class
        fail("prometheus_client cannot parse the text: %s" % e)
    series = [dict(labels) for (name, labels) in got if name == "kafka_consumergroup_group_offset"]
    by_group = {}
    for lab in series:
        by_group.setdefault(lab.get("group"), []).append(lab)
    for gid, topic in GROUPS.items():
        labs = by_group.get(safe(gid))
        if not labs:
            fail("group %r missing from the offset series as %r (have %r)"
                 % (gid[:40], safe(gid)[:60], list(by_group)[:8]))
        if safe(topic) not in {lab.get("topic") for lab in labs}:
            fail("group %r: topic %r missing" % (gid[:40], safe(topic)[:40]))
        if safe(CLIENTS[gid]) not in {lab.get("client_id") for lab in labs}:
            fail("group %r: client id %r missing" % (gid[:40], safe(CLIENTS[gid])[:40]))
        if gid in HOSTS and safe(HOSTS[gid]) not in {lab.get("member_host") for lab in labs}:
            fail("group %r: host %r missing" % (gid[:40], safe(HOSTS[gid])))


fmt, path = sys.argv[1], sys.argv[2]
with open(path, "rb") as f:
    data = f.read()
{"json": check_json, "csv": check_csv, "prometheus": check_prometheus}[fmt](data)
