"""test_position_sim.py — consumers' own positions from position sources, against lagtop-sim.

A small HTTP server in this process (127.0.0.1) plays the consumers' metrics endpoints: a Prometheus page
in the Micrometer names, librdkafka statistics, and every kind of bad source (unreachable, slow, HTTP 500,
garbage, a 100 MB body, wrong labels, stale, a client id in no group). Checks: positions land on the
partitions their client owns, with source and age; every bad source says why in `position_sources` and
none holds the refresh past its --timeout; a statistics file; the configuration file's names and labels;
and "not committing" over several samples while the fixture's committed offsets stand still.
"""
import http.server
import json
import os
import socketserver
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from simtest import Sim, lagtop, ok, results  # noqa: E402


LEAD = "kafka_consumer_fetch_manager_records_lead"
LAG = "kafka_consumer_fetch_manager_records_lag"
hits = {"moving": 0}


def page(path):
    """(status, body) for a path; the fixture group fx-stable: fx-c1 owns fx-orders 0 and 1, fx-c2 owns 2;
    log start 100 on partition 0, 0 elsewhere; log end 1000."""
    now_ms = int(time.time() * 1000)
    if path == "/good":
        return 200, ("# HELP %s lead\n# TYPE %s gauge\n" % (LEAD, LEAD) +
                     '%s{client_id="fx-c1",kafka_version="3.9.0",partition="0",topic="fx-orders",} 450.0\r\n' % LEAD +
                     '%s{client_id="fx-c1",partition="1",topic="fx-orders"} 350\n' % LAG +
                     '%s{client_id="fx-c1",partition="2",topic="fx-orders"} 1\n' % LEAD +  # not fx-c1's
                     '%s{client_id="fx-c1",partition="1",topic="fx-orders"} NaN\n' % "jvm_other")
    if path == "/stats":
        return 200, json.dumps({"name": "fx-c2#consumer-1", "client_id": "fx-c2", "type": "consumer",
                                "time": int(time.time()), "topics": {"fx-orders": {"partitions": {
                                    "2": {"partition": 2, "desired": True, "app_offset": 720, "committed_offset": 700},
                                    "-1": {"partition": -1, "app_offset": -1001}}}}})
    if path == "/slow":
        time.sleep(6)
        return 200, ""
    if path == "/500":
        return 500, "oops"
    if path == "/garbage":
        return 200, "<html><body>It works!</body></html>\n"
    if path == "/labels":
        return 200, '%s{clientid="fx-c1",partition="0",topic="fx-orders"} 1\n' % LEAD
    if path == "/stale":
        return 200, '%s{client_id="fx-c1",partition="0",topic="fx-orders"} 1 %d\n' % (LEAD, now_ms - 600000)
    if path == "/ghost":
        return 200, '%s{client_id="nobody",partition="0",topic="fx-orders"} 1\n' % LEAD
    if path == "/custom":
        return 200, 'my_lead{cid="fx-c1",topic="fx-orders",partition="0"} 11\n'
    if path == "/moving":
        hits["moving"] += 1
        return 200, ('%s{client_id="fx-c1",partition="0",topic="fx-orders"} %d\n' % (LEAD, 400 + 10 * hits["moving"]) +
                     '%s{client_id="fx-c1",partition="1",topic="fx-orders"} 300\n' % LEAD)
    return 404, "not found"


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        try:
            if self.path == "/big":  # 100 MB, sent until the client hangs up
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(100 << 20))
                self.end_headers()
                chunk = (b"# padding padding padding padding padding padding padding padding\n" * 1024)
                sent = 0
                while sent < (100 << 20):
                    self.wfile.write(chunk)
                    sent += len(chunk)
                return
            if self.path == "/big-chunked":  # no Content-Length: the limit must hold while it arrives
                self.send_response(200)
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                chunk = b"# padding\n" * 6000
                for _ in range((100 << 20) // len(chunk)):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.write(b"0\r\n\r\n")
                return
            status, body = page(self.path)
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/plain; version=0.0.4")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def partitions(doc, group="fx-stable"):
    for g in doc["groups"]:
        if g["group"] == group:
            return {p["partition"]: p for p in g["partitions"]}, g
    return {}, None


def main():
    print("1..22")
    srv = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d" % srv.server_address[1]
    sim = Sim("--brokers", "1", "--scenario", "fixture", tmp=TMP)
    bs = sim.bootstrap
    try:
        statsfile = os.path.join(TMP, "stats.json")
        with open(statsfile, "w") as f:
            f.write(page("/stats")[1] + "\n")
        srcs = ["/good", "/stats", "/slow", "/500", "/garbage", "/big", "/big-chunked", "/labels", "/stale", "/ghost"]
        args = ["--once", "--format", "json", "-b", bs, "--timeout", "3s", "--no-commit-stream", "-g", "fx-stable"]
        for s in srcs:
            args += ["--position-source", base + s]
        args += ["--position-source", "http://127.0.0.1:1/metrics", "--position-source", statsfile]
        t0 = time.time()
        rc, out, err = lagtop(*args)
        took = time.time() - t0
        doc = json.loads(out) if rc == 0 else {}
        ok(rc == 0, "--once with eleven sources, most of them bad: exit 0", err)
        # the slow source costs its timeout (the refresh's 3 s), never more
        ok(took < 5.5 and doc.get("duration_ms", 99999) <= 3500,
           "the refresh ends within its deadline (%.1f s, duration_ms %s)" % (took, doc.get("duration_ms")))
        st = {s["location"].replace(base, ""): s for s in doc.get("position_sources", [])}
        want = {
            "/good": (True, "ok: 3 positions, 2 used; 1 for partitions their client does not own"),
            "/stats": (True, "ok: 1 position, 1 used"),
            "/slow": (False, "timeout after "),
            "/500": (False, "HTTP 500"),
            "/garbage": (False, "parse error: line 1: "),
            "/big": (False, "too large: over 16777216 bytes"),
            "/big-chunked": (False, "too large: over 16777216 bytes"),
            "/labels": (False, "wrong labels: 1 position samples without a usable 'client_id' label"),
            "/stale": (False, "stale: newest report 60"),
            "/ghost": (False, "client id in none of the groups read: nobody"),
            "http://127.0.0.1:1/metrics": (False, "unreachable: "),
        }
        bad = [(k, st.get(k)) for k, (good, text) in want.items()
               if not st.get(k) or st[k]["ok"] != good or not st[k]["status"].startswith(text)]
        ok(not bad, "every source's status says how it went", bad)
        # the file and /stats report the same partition: the newer one is used, the other is superseded
        ok(statsfile in st and st[statsfile]["reports"] == 1 and
           (st[statsfile]["ok"] or st[statsfile]["status"].endswith("1 superseded by newer reports of another source")),
           "a statistics file is read", st.get(statsfile))
        parts, g = partitions(doc)
        p0, p1, p2 = parts.get(0, {}), parts.get(1, {}), parts.get(2, {})
        ok(p0.get("position") == 550 and p0.get("uncommitted") == 50 and p0.get("position_source") == base + "/good",
           "Micrometer records-lead: position = log start 100 + lead 450, uncommitted 50", p0)
        ok(p1.get("position") == 650 and p1.get("uncommitted") == 50, "records-lag: position = log end 1000 - lag 350", p1)
        ok(p2.get("position") == 720 and p2.get("uncommitted") == 20 and
           p2.get("position_source") in (base + "/stats", statsfile),
           "librdkafka app_offset for fx-c2's partition, not fx-c1's report for it", p2)
        ok(all(0 <= p.get("position_age_ms", -1) < 5000 for p in (p0, p1, p2)), "ages are the reports'",
           [p.get("position_age_ms") for p in (p0, p1, p2)])
        ok(g is not None and g["not_committing"] is None and p0.get("not_committing") is None and
           not any(p["not_committing"] for p in parts.values()),
           "one sample: not committing is unknown (null), not false, for a consumer ahead of its commit",
           (g and g["not_committing"], [p["not_committing"] for p in parts.values()]))

        # without any position source nothing is known: CSV leaves not_committing empty, never "false"
        rc, out, err = lagtop("--once", "--format", "csv", "-b", bs, "--no-commit-stream", "-g", "fx-stable")
        rows = [l for l in out.splitlines()[1:] if l.startswith("fx-stable,")]
        ok(rc == 0 and rows and all(l.endswith(",") and not l.endswith("false") for l in rows),
           "CSV without a position source: not_committing empty (unknown)", out[-300:])

        # CSV carries the same fields at the end
        rc, out, err = lagtop("--once", "--format", "csv", "-b", bs, "--no-commit-stream", "-g", "fx-stable",
                                 "--position-source", base + "/good")
        lines = out.splitlines()
        ok(rc == 0 and lines and lines[0].endswith(",position,uncommitted,position_source,position_age_ms,not_committing")
           and any(l.startswith("fx-stable,Stable,fx-orders,0,100,500,1000,500,") and
                   (",550,50,%s/good," % base) in l for l in lines),
           "CSV: position, uncommitted, position_source, position_age_ms, not_committing", out)

        # the table: POSITION at the end, only with sources
        rc, out, err = lagtop("--once", "-b", bs, "--no-commit-stream", "-g", "fx-stable",
                                 "--position-source", base + "/good")
        rows = [l.split() for l in out.splitlines()]
        ok(rc == 0 and rows and rows[0][-2:] == ["STATUS", "POSITION"] and
           [r[-1] for r in rows[1:]] == ["550", "650", "-"], "table: a POSITION column at the end", out)
        rc, out, err = lagtop("--once", "-b", bs, "--no-commit-stream", "-g", "fx-stable")
        ok(rc == 0 and out.splitlines()[0].split()[-1] == "STATUS" and
           not any(l.endswith(" ") for l in out.splitlines()), "table: none without sources, no trailing blanks", out)

        # no sources: the fields are null and the list empty (nothing changes for who does not use it)
        rc, out, err = lagtop("--once", "--format", "json", "-b", bs, "--no-commit-stream", "-g", "fx-stable")
        d = json.loads(out)
        parts, _ = partitions(d)
        ok(d["position_sources"] == [] and all(p["position"] is None and p["uncommitted"] is None
                                              for p in parts.values()), "without sources: null positions")

        # the configuration file: the cluster's sources, a metric and a label of its own
        conf = os.path.join(TMP, "lagtop.conf")
        with open(conf, "w") as f:
            f.write('clusters = { fx = { bootstrap_servers = "%s"; position_sources = [ "%s/custom" ];\n'
                    '  lead_metric = "my_lead"; client_id_label = "cid"; position_timeout = "1s";\n'
                    '  position_max_age = "30s"; }; };\n' % (bs, base))
        rc, out, err = lagtop("--config", conf, "-c", "fx", "--once", "--format", "json", "--no-commit-stream",
                                 "-g", "fx-stable")
        parts, _ = partitions(json.loads(out) if rc == 0 else {"groups": []})
        ok(parts.get(0, {}).get("position") == 111, "config: position_sources, lead_metric, client_id_label", err or out[:500])
        with open(conf, "w") as f:
            f.write('clusters = { fx = { bootstrap_servers = "%s"; position_sources = "%s/custom"; }; };\n' % (bs, base))
        rc, out, err = lagtop("--config", conf, "-c", "fx", "--once")
        ok(rc == 2 and "'position_sources' in cluster 'fx' must be a list of strings" in err and err.count("\n") == 1,
           "config: a bad position_sources is one line naming it", err)

        # not committing: fx-c1's position on partition 0 moves each refresh, the fixture commits nothing;
        # partition 1's stays put (idle, not flagged)
        with open(conf, "w") as f:
            f.write('clusters = { fx = { bootstrap_servers = "%s"; position_sources = [ "%s/moving" ];\n'
                    '  not_committing_after = "1s"; }; };\n' % (bs, base))
        rc, out, err = lagtop("--config", conf, "-c", "fx", "--once", "--format", "json", "--no-commit-stream",
                                 "-g", "fx-stable", "--samples", "3", "--interval", "0.6")
        d = json.loads(out) if rc == 0 else {"groups": []}
        parts, g = partitions(d)
        ok(parts.get(0, {}).get("not_committing") is True and "not_committing" in parts.get(0, {}).get("flags", []),
           "a position moving over the window while the commit stands still: not committing", parts.get(0))
        ok(parts.get(1, {}).get("not_committing") is False, "a position standing still: not flagged", parts.get(1))
        ok(g is not None and g["not_committing"] is True, "the group says so too")
    finally:
        sim.stop()

    # the sim's own endpoint: the demo's consumers publish their positions in the JMX exporter's names, and
    # invoice-mailer reads on without committing
    demo = Sim("--brokers", "1", "--scenario", "demo", "--metrics-port", "0", tmp=TMP, name="demo")
    dbs = demo.bootstrap
    try:
        conf = os.path.join(TMP, "demo.conf")
        with open(conf, "w") as f:
            f.write('clusters = { d = { bootstrap_servers = "%s"; position_sources = [ "%s" ];\n'
                    '  not_committing_after = "1s"; }; };\n' % (dbs, demo.metrics))
        rc, out, err = lagtop("--config", conf, "-c", "d", "--once", "--format", "json", "--no-commit-stream",
                                 "-G", "^(invoice-mailer|orders-processor)$", "--samples", "3", "--interval", "1")
        d = json.loads(out) if rc == 0 else {"groups": [], "position_sources": []}
        src = (d["position_sources"] or [{}])[0]
        ok(src.get("ok") and "bad line" not in src.get("status", "") and src.get("used", 0) >= 24,
           "lagtop-sim --metrics-port: every line of its page is read, positions used", src)
        groups = {g["group"]: g for g in d["groups"]}
        inv, proc = groups.get("invoice-mailer", {}), groups.get("orders-processor", {})
        ok(inv.get("not_committing") is True and all(p["uncommitted"] and p["uncommitted"] > 0
                                                     for p in inv.get("partitions", [])),
           "demo: invoice-mailer reads without committing", inv.get("partitions", [])[:2])
        ok(proc.get("not_committing") is False and all(p["position"] is not None and p["uncommitted"] >= 0
                                                       for p in proc.get("partitions", [])),
           "demo: orders-processor commits what it reads", proc.get("partitions", [])[:2])
    finally:
        demo.stop()
        srv.shutdown()
        srv.server_close()
    return 0 if all(results) else 1


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="lagtop-test.") as TMP:
        sys.exit(main())
