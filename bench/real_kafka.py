"""make bench's real-Kafka section: scenario S (or M) on a real Kafka 4.x broker (doc/PERFORMANCE.md).

One broker of the pinned 4.x line (tests/lib/kafka_cluster.py, jars from Maven Central) on 127.0.0.1,
filled by bench/kafka_populate.py (confluent-kafka from the tests' virtual environment): the scenario's
topics with records, and every group's offsets committed for real (Empty groups: real members for
hundreds of groups would measure the machine, not the tools). Then, as whole processes, the median of
R runs each, interleaved:
  - `lagtop --once --format csv --no-commit-stream`, and the same with the commit stream (the default),
  - the real `kafka-consumer-groups --describe --all-groups` (its JVM start included), and the same tool
    warm: several runs in one JVM (tests/lib/kafka_tool_batch.py), the last ones timed,
  - bench/peer_kafka_python.py (kafka-python);
then one `--once` each way with LAGTOP_RDKAFKA_REQUESTS: librdkafka's count of the requests it wrote to
the broker, per API (src/kafka/client.c); and on M the steady dashboard with the commit stream (`lagtop -i 2`
in tmux, run_bench's idle measure: its CPU share over --real-idle-seconds after a warm-up).
Used by bench/run_bench.py (--real-kafka S,M by default; none to leave out); alone: real_kafka.py
--builddir DIR [--scenarios S,M]. T takes ~1 min, M ~7 min at a load of 20 on 2 cores (the broker up, 3,200
partitions filled and committed in ~2 min, the runs, the dashboard's 55 s).
"""
import json
import os
import re
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# name -> groups, partitions per group (= per topic), topics, records per partition
SCENARIOS = {"T": (5, 2, 1, 20), "S": (100, 16, 10, 100), "M": (1000, 32, 100, 40)}
RUNS = {"T": 1, "S": 5, "M": 3}
IDLE_ON = ("M",)  # the scenarios whose steady dashboard is measured (its target is M's)
IDLE_WARMUP_S = 15  # the history of __consumer_offsets loaded and the steady refreshes begun


def _median(v):
    v = sorted(x for x in v if x is not None)
    if not v:
        return None
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def bench(a, name, timed):
    """Runs the section; returns a dict of results or {"skipped": reason}. `timed(argv, timeout)` is
    run_bench's (rc, stdout, wall_ms, cpu_ms, stderr) of a whole child process."""
    sys.path.insert(0, os.path.join(a.srcdir, "tests", "lib"))
    # absolute: Maven resolves the class path file relative to tests/kafka/
    os.environ.setdefault("LT_BUILDDIR", os.path.abspath(a.builddir))
    try:
        import kafka_cluster as K
        from kafka_tool_batch import ToolBatch
    except ImportError as e:
        return {"skipped": "tests/kafka not importable: %s" % e}
    groups, parts, topics, records = SCENARIOS[name]
    try:
        py = K.confluent_python()
    except K.Unavailable as e:
        return {"skipped": str(e)}
    res = {"size": "%dx%d" % (groups, parts)}
    t0 = time.monotonic()
    try:
        kc = K.KafkaCluster("4", nodes=1, extra={"num.partitions": "1"})
        kc.start()
    except K.Unavailable as e:
        return {"skipped": str(e)}
    res["kafka"] = kc.version
    res["start_s"] = time.monotonic() - t0
    tb = None
    try:
        rc, out, _, _, err = timed([py, os.path.join(HERE, "kafka_populate.py"), kc.bootstrap, str(groups),
                                    str(parts), str(topics), str(records)], 900)
        if rc != 0:
            return {"skipped": "populating Kafka failed: %s" % err.strip()[-300:]}
        res["populate"] = json.loads(out.strip().splitlines()[-1])
        res["rows"] = res["populate"]["rows"]
        lagtop = os.path.join(a.builddir, "lagtop")
        kcg_argv = ["--bootstrap-server", kc.bootstrap, "--describe", "--all-groups"]
        tool_argv = [K._which("java")] + K.TOOL_JVM + K.tool_log_args() + [
            "-cp", K.classpath("4"), "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand"] + kcg_argv
        tb = ToolBatch("4")
        tb.run(*kcg_argv, timeout=300)  # the JVM's first run: class loading and JIT, not timed

        m = {k: [] for k in ("once", "once_cpu", "once_cs", "once_cs_cpu", "tool", "tool_cpu", "warm",
                             "peer", "peer_cpu", "peer_inner")}
        rows = {}
        for _ in range(RUNS[name]):
            rc, out, wall, cpu, err = timed([lagtop, "--once", "--format", "csv", "--no-commit-stream", "-b",
                                             kc.bootstrap, "--timeout", "120s"], 300)
            if rc == 0:
                m["once"].append(wall)
                m["once_cpu"].append(cpu)
                rows["lagtop"] = out.count("\n") - 1
            else:
                sys.stderr.write("real_kafka: lagtop --once failed (%d): %s\n" % (rc, err.strip()))
            rc, out, wall, cpu, err = timed([lagtop, "--once", "--format", "csv", "-b", kc.bootstrap,
                                             "--timeout", "120s"], 300)
            if rc == 0:
                m["once_cs"].append(wall)
                m["once_cs_cpu"].append(cpu)
            rc, out, wall, cpu, err = timed(tool_argv, 300)
            if rc == 0:
                m["tool"].append(wall)
                m["tool_cpu"].append(cpu)
                rows["tool"] = len(re.findall(r"^bench-group-\d+\s+bench-topic", out, re.M))
            else:
                sys.stderr.write("real_kafka: kafka-consumer-groups failed (%d): %s\n" % (rc, err.strip()[-300:]))
            t1 = time.monotonic()
            rc, out, _ = tb.run(*kcg_argv, timeout=300)
            if rc == 0:
                m["warm"].append((time.monotonic() - t1) * 1000)
            if not a.no_peer:
                rc, out, wall, cpu, err = timed([a.python, os.path.join(HERE, "peer_kafka_python.py"),
                                                 kc.bootstrap], 1800)
                if rc == 0:
                    peer = json.loads(out.strip().splitlines()[-1])
                    m["peer"].append(wall)
                    m["peer_cpu"].append(cpu)
                    m["peer_inner"].append(peer["wall_ms"])
                    rows["peer"] = peer["rows"]
                else:
                    sys.stderr.write("real_kafka: peer failed (%d): %s\n" % (rc, err.strip()[-300:]))
        for k, v in m.items():
            res[k] = _median(v)
        # one --once's requests each way, counted by librdkafka (a run of its own: the count is no timing)
        import run_bench
        once_argv = [lagtop, "--once", "--format", "csv", "-b", kc.bootstrap, "--timeout", "120s"]
        for key, extra in (("once", ["--no-commit-stream"]), ("once_cs", [])):
            rc, out, err, rdk = run_bench.counted_run(once_argv + extra, a.tmpdir)
            if rc != 0 or not rdk:
                sys.stderr.write("real_kafka: lagtop --once %s with LAGTOP_RDKAFKA_REQUESTS failed (%d, %s): %s\n"
                                 % (" ".join(extra), rc, "counted" if rdk else "no statistics", err.strip()))
                continue
            res[key + "_rdk_apis"] = rdk
            res[key + "_req"] = rdk["total"]
            res[key + "_req_nofetch"] = rdk["total"] - rdk.get("Fetch", 0)
        if name in IDLE_ON and not getattr(a, "no_idle", False):
            split = {}
            idle = run_bench.idle_dashboard(a, kc.bootstrap, [], split, warmup=IDLE_WARMUP_S,
                                            seconds=a.real_idle_seconds)
            res["idle_cs"] = idle
            res["idle_split"] = split.get("idle_split")
        res["rows_seen"] = rows
        for k in ("lagtop", "tool", "peer"):
            if k in rows and rows[k] != res["rows"]:
                sys.stderr.write("real_kafka: %s printed %d rows, %d committed\n" % (k, rows[k], res["rows"]))
    finally:
        if tb is not None:
            tb.close()
        kc.stop()
    return res


def print_table(results):
    """results: scenario name -> bench()'s dict, printed side by side like run_bench's table."""
    names = [n for n, r in results.items() if "skipped" not in r]
    for n, r in results.items():
        if "skipped" in r:
            print("real Kafka %s: not measured (%s)" % (n, r["skipped"]))
    if not names:
        return
    for n in names:
        r, p = results[n], results[n].get("populate", {})
        print("real Kafka %s, one broker on 127.0.0.1, scenario %s: %s, %d topics, %d records per partition, %d Empty "
              "groups with committed offsets (broker up in %.0f s, filled in %.0f s)"
              % (r.get("kafka"), n, r["size"], p.get("topics", 0), p.get("records", 0), p.get("groups", 0),
                 r.get("start_s", 0), p.get("create_s", 0) + p.get("produce_s", 0) + p.get("commit_s", 0)))

    def ms(r, k):
        return "-" if r.get(k) is None else "%.0f" % r[k]

    def ratio(r, x, y, spec="%.1fx"):
        return "-" if not r.get(x) or not r.get(y) else spec % (r[x] / r[y])

    def pct(r, k):
        v = r.get(k)
        return "-" if v is None else v if isinstance(v, str) else "%.1f" % v

    def num(r, k):
        return "-" if r.get(k) is None else "%d" % r[k]

    def apis(key):
        # every API either count names, in the sim table's order, then the others
        seen = set()
        for n in names:
            seen.update(k for k in (results[n].get(key) or {}) if k != "total")
        order = ["Metadata", "ListGroups", "FindCoordinator", "DescribeGroups", "ConsumerGroupDescribe",
                 "OffsetFetch", "ListOffsets", "Fetch", "ApiVersions"]
        return [x for x in order if x in seen] + sorted(seen - set(order))

    def api_row(key, api):
        return lambda r: "%d" % (r.get(key) or {}).get(api, 0) if r.get(key) else "-"

    def rows_seen(r):
        seen = r.get("rows_seen", {})
        return "%s/%s/%s/%s" % (r.get("rows"), seen.get("lagtop", "-"), seen.get("tool", "-"), seen.get("peer", "-"))

    rows = [
        ("lagtop --once wall ms", lambda r: ms(r, "once"), ""),
        ("lagtop --once CPU ms", lambda r: ms(r, "once_cpu"), ""),
        ("lagtop --once, commit stream, wall ms", lambda r: ms(r, "once_cs"), ""),
        ("lagtop --once, commit stream, CPU ms", lambda r: ms(r, "once_cs_cpu"), ""),
        ("  commit stream / no commit stream", lambda r: ratio(r, "once_cs", "once", "%.2fx"), "<= 1.3x"),
        ("kafka-consumer-groups --describe wall ms", lambda r: ms(r, "tool"), "(a JVM per run)"),
        ("kafka-consumer-groups CPU ms", lambda r: ms(r, "tool_cpu"), ""),
        ("kafka-consumer-groups, warm JVM, wall ms", lambda r: ms(r, "warm"), "(kafka_tool_batch)"),
        ("peer (kafka-python) process wall ms", lambda r: ms(r, "peer"), ""),
        ("peer (kafka-python) CPU ms", lambda r: ms(r, "peer_cpu"), ""),
        ("speed-up: tool process / --once", lambda r: ratio(r, "tool", "once"), ""),
        ("speed-up: tool warm / --once", lambda r: ratio(r, "warm", "once"), "M >= 30x",
         lambda r: r["warm"] / r["once"] >= 30 if r.get("warm") and r.get("once") else None),
        ("speed-up: peer process / --once", lambda r: ratio(r, "peer", "once"), "M >= 25x",
         lambda r: r["peer"] / r["once"] >= 25 if r.get("peer") and r.get("once") else None),
        ("requests per --once (no stream), librdkafka", lambda r: num(r, "once_req"), "M <= 100",
         lambda r: r["once_req"] <= 100 if r.get("once_req") is not None else None),
    ] + [("  " + api, api_row("once_rdk_apis", api), "") for api in apis("once_rdk_apis")] + [
        ("requests per --once, stream, librdkafka", lambda r: num(r, "once_cs_req"), ""),
        ("  Fetch apart", lambda r: num(r, "once_cs_req_nofetch"), "M <= 100",
         lambda r: r["once_cs_req_nofetch"] <= 100 if r.get("once_cs_req_nofetch") is not None else None),
    ] + [("  " + api, api_row("once_cs_rdk_apis", api), "") for api in apis("once_cs_rdk_apis")] + [
        ("steady dashboard, stream on, -i 2, % core", lambda r: pct(r, "idle_cs"), "M <= 2",
         lambda r: r["idle_cs"] <= 2 if isinstance(r.get("idle_cs"), float) else None),
        ("  UI / collector, reader / librdkafka", lambda r: r.get("idle_split") or "-", ""),
        ("rows: committed/lagtop/tool/peer", rows_seen, ""),
    ]
    cells = []
    for row in rows:
        label, f, t = row[:3]
        verdict = ""
        if len(row) > 3 and "M" in names:
            ok = row[3](results["M"])
            verdict = "" if ok is None else "met" if ok else "MISSED"
        cells.append((label, [f(results[n]) for n in names], t, verdict))
    w0 = max(len(c[0]) for c in cells)
    w = [max([len(n)] + [len(c[1][i]) for c in cells]) for i, n in enumerate(names)]
    wt = max(len(c[2]) for c in cells)
    head = "%-*s  %s  target" % (w0, "real Kafka 4.x", "  ".join("%*s" % (w[i], n) for i, n in enumerate(names)))
    print(head)
    print("-" * len(head))
    for label, vals, t, v in cells:
        print(("%-*s  %s  %-*s  %s" % (w0, label, "  ".join("%*s" % (w[i], x) for i, x in enumerate(vals)), wt, t,
                                       v)).rstrip())
    for n in names:
        if isinstance(results[n].get("idle_cs"), str):
            print("steady dashboard on real Kafka %s: not measured (%s)" % (n, results[n]["idle_cs"]))


def main():
    import argparse
    import run_bench
    ap = argparse.ArgumentParser(description="make bench's real-Kafka section alone")
    ap.add_argument("--builddir", default=os.getcwd())
    ap.add_argument("--srcdir", default=os.path.dirname(HERE))
    ap.add_argument("--scenarios", default="S", help="comma-separated: T, S, M")
    ap.add_argument("--python", default=os.environ.get("DEBIAN_PYTHON", "/usr/bin/python3"))
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--no-idle", action="store_true")
    ap.add_argument("--tmux", default="tmux")
    ap.add_argument("--real-idle-seconds", type=float, default=40)
    a = ap.parse_args()
    names = [n.strip() for n in a.scenarios.split(",") if n.strip()]
    if any(n not in SCENARIOS for n in names):
        sys.stderr.write("real_kafka: unknown scenario in '%s' (T, S, M)\n" % a.scenarios)
        return 2
    a.tmpdir = tempfile.mkdtemp(prefix="lagtop-bench.")
    try:
        results = {n: bench(a, n, run_bench.timed) for n in names}
    finally:
        shutil.rmtree(a.tmpdir, ignore_errors=True)
    print_table(results)
    return 0 if all("skipped" not in r for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
