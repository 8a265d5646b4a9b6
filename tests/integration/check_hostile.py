#!/usr/bin/python3
# check_hostile.py FORMAT FILE — checks lagtop --once output of test_faults_hostile.c's hostile cluster:
# json: valid JSON whose names are exactly what the cluster sent (invalid UTF-8 bytes as U+FFFD);
# csv: RFC 4180 that parses back to the exact bytes, every row as many fields as the header. Exit 0 when fine, else 1 and why.
# Keep the names in step with tests/faults/hostile.h.
import csv
import io
import json
import sys

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
    groups = {g["group"]: g for g in doc["groups"]}
    for gid, topic in GROUPS.items():
        g = groups.get(as_json_text(gid))
        if g is None:
            fail("group %r missing from JSON (have %r)" % (gid[:40], [k[:40] for k in groups]))
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
    rows = list(csv.reader(io.StringIO(data.decode("utf-8", errors="surrogateescape"), newline="")))
    if not rows or rows[0][0] != "group":
        fail("no CSV header")
    for r in rows:
        if len(r) != len(rows[0]):
            fail("row with %d fields: %r" % (len(r), r[:3]))
    enc = lambda s: s.encode("utf-8", errors="surrogateescape")
    seen = {enc(r[0]): r for r in rows[1:]}
    for gid, topic in GROUPS.items():
        r = seen.get(gid)
        if r is None:
            fail("group %r missing from CSV" % gid[:40])
        if enc(r[2]) != topic:
            fail("group %r: topic %r, want %r" % (gid[:40], r[2][:40], topic[:40]))
        if enc(r[12]) != CLIENTS[gid]:
            fail("group %r: client id %r, want %r" % (gid[:40], r[12][:40], CLIENTS[gid][:40]))
        if gid in HOSTS and enc(r[11]) != HOSTS[gid]:
            fail("group %r: host %r, want %r" % (gid[:40], r[11], HOSTS[gid]))


fmt, path = sys.argv[1], sys.argv[2]
with open(path, "rb") as f:
    data = f.read()
{"json": check_json, "csv": check_csv}[fmt](data)
