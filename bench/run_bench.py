#!/usr/bin/python3
"""make bench: scale and cost of lagtop against a kafka-python peer, on the simulated cluster (doc/PERFORMANCE.md).

For each scenario a `lagtop-sim --scenario scale` process is started (so the simulator's CPU and memory are
not lagtop's), then, against it:
  - bench/lagtop-bench refresh: one cold and N warm refreshes through the collector in one process
    (wall, CPU, peak RSS, requests per API per refresh from the simulator's counters, simulator CPU);
  - `lagtop --once` run R times as a whole process (wall, CPU, max RSS);
  - bench/peer_kafka_python.py run P times (wall, CPU);
then once: bench/bench_ui_draw (the dashboard's offscreen draw, 100,000 partition rows) and, with tmux,
the CPU of an idle dashboard at a 2 s interval on scenario M.
Prints one table (metrics x scenarios, with the targets and whether they are met); then the same
measures of `--once` on a real Kafka 4.x broker against the real kafka-consumer-groups and the peer
(bench/real_kafka.py; --real-kafka S,M by default, or none); last, the scale targets of both, met or
missed (print_targets).
"""
import argparse
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

# name, groups, partitions per group (= per topic), topics, brokers
SCENARIOS = {
    "T": (5, 2, 1, 3),  # the smoke test's tiny one
    "S": (100, 16, 10, 3),
    "M": (1000, 32, 100, 3),
    "L": (5000, 64, 500, 3),
}
# runs of `lagtop --once` and of the peer per scenario (medians are taken)
RUNS = {"T": 1, "S": 3, "M": 3, "L": 1}
# runs of `lagtop --once` each way (with and without the commit stream, interleaved): short, noisy runs
ONCE_RUNS = {"T": 1, "S": 7, "M": 7, "L": 2}
REFRESHES = {"T": 2, "S": 7, "M": 7, "L": 5}
# the APIs listed one per row (others, if any, show up in the total)
APIS = ["Metadata", "ListGroups", "FindCoordinator", "DescribeGroups", "OffsetFetch", "ListOffsets", "ApiVersions"]


# Kafka's API keys, by the names the sim and Kafka's documentation use (others show as "api <key>")
API_KEYS = {0: "Produce", 1: "Fetch", 2: "ListOffsets", 3: "Metadata", 8: "OffsetCommit", 9: "OffsetFetch",
            10: "FindCoordinator", 11: "JoinGroup", 12: "Heartbeat", 13: "LeaveGroup", 14: "SyncGroup",
            15: "DescribeGroups", 16: "ListGroups", 17: "SaslHandshake", 18: "ApiVersions", 19: "CreateTopics",
            21: "DeleteRecords", 32: "DescribeConfigs", 36: "SaslAuthenticate", 42: "DeleteGroups",
            47: "OffsetDelete", 60: "DescribeCluster", 68: "ConsumerGroupHeartbeat", 69: "ConsumerGroupDescribe",
            71: "GetTelemetrySubscriptions", 72: "PushTelemetry"}


def rdk_requests(path):
    """librdkafka's count of the requests one lagtop process wrote to brokers, every handle's
    (LAGTOP_RDKAFKA_REQUESTS=path, src/kafka/client.c): {API: n, ..., "total": n}, or None without it."""
    try:
        with open(path) as f:
            by_key = json.load(f)
    except (OSError, ValueError):
        return None
    out = {"total": 0}
    for key, n in by_key.items():
        api = API_KEYS.get(int(key), "api %s" % key)
        out[api] = out.get(api, 0) + n
        out["total"] += n
    return out


def counted_run(argv, tmp, timeout=600):
    """Runs argv (a lagtop) with LAGTOP_RDKAFKA_REQUESTS; returns (rc, stdout, stderr, rdk_requests or None)."""
    path = os.path.join(tmp, "requests.json")
    if os.path.exists(path):
        os.remove(path)
    rc, out, _, err = run_timed(argv, timeout=timeout, env=dict(os.environ, LAGTOP_RDKAFKA_REQUESTS=path))
    return rc, out, err, rdk_requests(path)


def api_split(counts):
    """"Metadata 3, OffsetFetch 1000, ..." of a request count dict (APIs with none left out)."""
    if not counts:
        return "-"
    names = [k for k in counts if k != "total"]
    names.sort(key=lambda k: (-counts[k], k))
    return ", ".join("%s %d" % (k, counts[k]) for k in names)


def median(v):
    v = sorted(v)
    if not v:
        return None
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def run_timed(argv, stdout=subprocess.PIPE, timeout=600, env=None):
    """Runs argv; returns (rc, stdout, wall_ms, stderr)."""
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.PIPE, env=env)
    out, err = b"", b""
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    wall = (time.monotonic() - t0) * 1000
    return p.returncode, (out or b"").decode(errors="replace"), wall, (err or b"").decode(errors="replace")


class Children:
    """CPU and max RSS of the children reaped between start() and stop()."""

    def start(self):
        self.r0 = resource.getrusage(resource.RUSAGE_CHILDREN)

    def stop(self):
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (r.ru_utime + r.ru_stime - self.r0.ru_utime - self.r0.ru_stime) * 1000, r.ru_maxrss


def timed(argv, timeout=600):
    c = Children()
    c.start()
    rc, out, wall, err = run_timed(argv, timeout=timeout)
    cpu, _ = c.stop()
    return rc, out, wall, cpu, err


class Sim:
    def __init__(self, builddir, tmp, name, groups, parts, topics, brokers):
        self.log = os.path.join(tmp, "sim-%s.err" % name)
        self.errf = open(self.log, "w")
        self.p = subprocess.Popen([os.path.join(builddir, "lagtop-sim"), "--scenario", "scale", "--groups",
                                   str(groups), "--partitions", str(parts), "--topics", str(topics),
                                   "--brokers", str(brokers)], stdout=subprocess.PIPE, stderr=self.errf)
        line = self.p.stdout.readline().decode()
        m = re.match(r"ready bootstrap=(\S+)", line)
        if not m:
            self.stop()
            raise RuntimeError("lagtop-sim did not start: %r" % line)
        self.bootstrap = m.group(1)

    def counts(self):
        """Cumulative requests per API (the sim prints them as one JSON line on SIGUSR1), None if none came."""
        self.errf.flush()
        start = os.path.getsize(self.log)
        self.p.send_signal(signal.SIGUSR1)
        deadline = time.time() + 10
        while time.time() < deadline:
            with open(self.log) as f:
                f.seek(start)
                for line in f.read().splitlines():
                    if line.strip().startswith("{"):
                        return json.loads(line)
            time.sleep(0.05)
        return None

    def stop(self):
        if self.p.poll() is not None:
            with open(self.log) as f:
                tail = f.read().strip().splitlines()[-1:]
            sys.stderr.write("run_bench: lagtop-sim exited before the end of the scenario (status %d; last: %s)\n"
                             % (self.p.returncode, tail))
        else:
            self.p.send_signal(signal.SIGTERM)
            try:
                self.p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        self.errf.close()


def kv(text):
    d = {}
    for line in text.splitlines():
        k, sep, v = line.partition("=")
        if sep:
            try:
                d[k.strip()] = float(v)
            except ValueError:
                d[k.strip()] = v.strip()
    return d


def lower_bound(groups, brokers, leaders):
    """Fewest requests of one refresh with librdkafka 2.0.2's API: ListGroups per broker,
    DescribeGroups and FindCoordinator per group, OffsetFetch per group, two ListOffsets per leader, one
    Metadata."""
    return brokers + 3 * groups + 2 * leaders + 1


RECORD_ON_M = {}  # lagtop-bench refresh --record on scenario M (bench_scenario), printed by bench_record


def bench_scenario(a, tmp, name):
    groups, parts, topics, brokers = SCENARIOS[name]
    res = {"size": "%dx%d" % (groups, parts), "brokers": brokers, "topics": topics}
    sim = Sim(a.builddir, tmp, name, groups, parts, topics, brokers)
    try:
        # the in-process refresh measure
        rc, out, _, _, err = timed([os.path.join(a.builddir, "bench", "lagtop-bench"), "refresh", "-b",
                                    sim.bootstrap, "-n", str(REFRESHES[name]), "--sim-pid", str(sim.p.pid),
                                    "--sim-log", sim.log])
        r = kv(out)
        if rc != 0:
            sys.stderr.write("run_bench: lagtop-bench refresh on %s failed (%d): %s\n" % (name, rc, err.strip()))
        res.update({"wall": r.get("wall_ms"), "cpu": r.get("cpu_ms"), "cold_wall": r.get("cold_wall_ms"),
                    "rss": r.get("rss_kb", 0) / 1024.0 if r.get("rss_kb") else None, "rows": r.get("rows"),
                    "cold_rss": r.get("cold_rss_kb", 0) / 1024.0 if r.get("cold_rss_kb") else None,
                    "groups": r.get("groups"), "sim_cpu": r.get("sim_cpu_ms"), "complete": r.get("complete"),
                    "records_asked": r.get("records_asked"), "records_ms": r.get("records_ms"),
                    "cold_records": r.get("cold_records_asked"), "cold_records_ms": r.get("cold_records_ms")})
        for api in APIS + ["total"]:
            res["req_" + api] = r.get("req_" + api, 0.0)
            res["cold_req_" + api] = r.get("cold_req_" + api, 0.0)
        # the steady refresh: the same with the commit stream's reader live (committed offsets from the
        # stream, DescribeGroups/OffsetFetch only for changed groups and the sweep's slice)
        rc, out, _, _, err = timed([os.path.join(a.builddir, "bench", "lagtop-bench"), "refresh", "-b",
                                    sim.bootstrap, "-n", str(REFRESHES[name]), "--sim-pid", str(sim.p.pid),
                                    "--sim-log", sim.log, "--commit-stream"])
        r = kv(out)
        if rc != 0:
            sys.stderr.write("run_bench: lagtop-bench refresh --commit-stream on %s failed (%d): %s\n"
                             % (name, rc, err.strip()))
        # the steady refreshes' own peak (VmHWM reset after the cold refresh and the history load); the
        # process's lifetime peak where /proc cannot reset it
        st_kb = r.get("steady_rss_kb") if r.get("steady_rss_kb", -1) > 0 else r.get("rss_kb")
        res.update({"st_wall": r.get("wall_ms"), "st_cpu": r.get("cpu_ms"),
                    "st_rss": st_kb / 1024.0 if st_kb else None,
                    "st_life_rss": r.get("rss_kb", 0) / 1024.0 if r.get("rss_kb") else None})
        for api in APIS + ["total"]:
            res["st_req_" + api] = r.get("req_" + api, 0.0)
        if name == "M":
            # the same without the time lag's record reads: what the rest of the steady refresh costs (the
            # sim's M reads 32 records a refresh for its first ~1,000 refreshes: none stands still)
            rc, out, _, _ = run_timed([os.path.join(a.builddir, "bench", "lagtop-bench"), "refresh", "-b",
                                       sim.bootstrap, "-n", str(REFRESHES[name]), "--commit-stream"],
                                      env=dict(os.environ, LT_BENCH_NO_RECORD_READS="1"))
            res["st_cpu_noreads"] = kv(out).get("cpu_ms") if rc == 0 else None
            # and with the log starts carried, as the dashboard does (src/kafka/log_starts.h): at -i 2 it asks
            # for them one refresh in five, so its mean is (4 carried + 1 asked) / 5
            rc, out, _, _ = run_timed([os.path.join(a.builddir, "bench", "lagtop-bench"), "refresh", "-b",
                                       sim.bootstrap, "-n", str(REFRESHES[name]), "--commit-stream"],
                                      env=dict(os.environ, LT_BENCH_LOG_START_MAX_AGE_MS="10000"))
            carried = kv(out).get("cpu_ms") if rc == 0 else None
            res["st_cpu_carried"] = carried
            if carried is not None and res.get("st_cpu") is not None:
                res["st_cpu_dashboard"] = (4 * carried + res["st_cpu"]) / 5
            # the same refreshes again, each also appended to a recording: the writer's CPU beside the refresh's
            # (enough refreshes for whole keyframe intervals: reaching a moment is measured on this file)
            rec = os.path.join(tmp, "m.lrec")
            rc, out, _, _, err = timed([os.path.join(a.builddir, "bench", "lagtop-bench"), "refresh", "-b",
                                        sim.bootstrap, "-n", str(a.record_refreshes), "--record", rec])
            if rc == 0:
                RECORD_ON_M.update(kv(out))
                RECORD_ON_M["file"] = rec
            else:
                sys.stderr.write("run_bench: lagtop-bench refresh --record failed (%d): %s\n" % (rc, err.strip()))
        leaders = min(brokers, topics * parts)  # the sim spreads leaders round robin
        res["lb"] = lower_bound(groups, brokers, leaders)

        # whole `lagtop --once` runs
        walls, cpus, rsss = [], [], []
        cs_walls, cs_cpus = [], []
        def requests(before):
            # one --once's requests from the sim's counters (the commit stream's Fetches apart)
            after = sim.counts()
            if before is None or after is None:
                return None, None
            d = {k: after.get(k, 0) - before.get(k, 0) for k in after if k != "total"}
            return sum(d.values()), sum(v for k, v in d.items() if k != "Fetch")

        # one --once's requests each way, in a run of its own, counted by the sim and by librdkafka
        # (LAGTOP_RDKAFKA_REQUESTS): on a real broker only the latter can count
        once_argv = [os.path.join(a.builddir, "lagtop"), "--once", "--format", "csv", "-b", sim.bootstrap,
                     "--timeout", "120s"]
        for key, extra in (("once", ["--no-commit-stream"]), ("once_cs", [])):
            before = sim.counts()
            rc, out, err, rdk = counted_run(once_argv + extra, tmp)
            if rc != 0:
                sys.stderr.write("run_bench: lagtop --once %s on %s failed (%d): %s\n"
                                 % (" ".join(extra), name, rc, err.strip()))
                continue
            # without the stream every request; with it, the stream's Fetches apart
            res[key + "_req"] = requests(before)[0 if extra else 1]
            res[key + "_rdk_apis"] = rdk
            if rdk:
                res[key + "_rdk"] = rdk["total"] - (0 if extra else rdk.get("Fetch", 0))

        for _ in range(ONCE_RUNS[name]):
            c = Children()
            c.start()
            # the polled table, like the peer's: without the commit stream's reader (--no-commit-stream), which
            # makes --once wait for the __consumer_offsets history
            rc, out, wall, err = run_timed([os.path.join(a.builddir, "lagtop"), "--once", "--format", "csv",
                                            "--no-commit-stream", "-b", sim.bootstrap, "--timeout", "120s"])
            cpu, _ = c.stop()
            lines = out.count("\n")
            if rc != 0 or lines < 2:
                sys.stderr.write("run_bench: lagtop --once on %s failed (%d): %s\n" % (name, rc, err.strip()))
                continue
            walls.append(wall)
            cpus.append(cpu)
            # the same with the commit stream (the default), interleaved: --once also reads the
            # __consumer_offsets history up to its end at the start
            c = Children()
            c.start()
            rc, out, wall, err = run_timed([os.path.join(a.builddir, "lagtop"), "--once", "--format", "csv", "-b",
                                            sim.bootstrap, "--timeout", "120s"])
            cpu, _ = c.stop()
            if rc == 0:
                cs_walls.append(wall)
                cs_cpus.append(cpu)
        res["once_wall"], res["once_cpu"] = median(walls), median(cpus)
        res["once_cs_wall"], res["once_cs_cpu"] = median(cs_walls), median(cs_cpus)
        if res["once_wall"] and res["once_cs_wall"]:
            res["once_cs_ratio"] = res["once_cs_wall"] / res["once_wall"]

        # the peer
        walls, cpus, inner = [], [], []
        if not a.no_peer:
            for _ in range(RUNS[name]):
                rc, out, wall, cpu, err = timed([a.python, os.path.join(a.srcdir, "bench", "peer_kafka_python.py"),
                                                 sim.bootstrap], timeout=1800)
                if rc != 0:
                    sys.stderr.write("run_bench: peer on %s failed (%d): %s\n" % (name, rc, err.strip()[-400:]))
                    continue
                peer = json.loads(out.strip().splitlines()[-1])
                inner.append(peer["wall_ms"])
                if peer["rows"] != res["rows"]:
                    sys.stderr.write("run_bench: peer on %s saw %s rows, lagtop %s\n" % (name, peer["rows"], res["rows"]))
                walls.append(wall)
                cpus.append(cpu)
        res["peer_wall"], res["peer_cpu"], res["peer_inner"] = median(walls), median(cpus), median(inner)
        if res["peer_wall"] and res["wall"]:
            res["speedup"] = res["peer_inner"] / res["wall"]
            res["speedup_once"] = res["peer_wall"] / res["once_wall"] if res["once_wall"] else None

        # the idle dashboard (scenario M only)
        if name == "M" and not a.no_idle:
            res["idle"] = idle_dashboard(a, sim.bootstrap, ["--no-commit-stream"])
            res["idle_cs"] = idle_dashboard(a, sim.bootstrap, [], res)
    finally:
        sim.stop()
    return res


def thread_cpu_s(pid):
    """{thread: CPU seconds} of process pid: "ui" (the main thread), "librdkafka" (its rdk:* threads), "lagtop"
    (lagtop's other threads: the collector, the commit-stream reader)."""
    out = {"ui": 0.0, "librdkafka": 0.0, "lagtop": 0.0}
    for tid in os.listdir("/proc/%s/task" % pid):
        try:
            with open("/proc/%s/task/%s/stat" % (pid, tid)) as f:
                st = f.read()
        except OSError:
            continue  # the thread ended
        name = st[st.index("(") + 1:st.rindex(")")]
        fields = st[st.rindex(")") + 2:].split()
        key = "ui" if tid == str(pid) else "librdkafka" if name.startswith("rdk:") else "lagtop"
        out[key] += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


IDLE_CALLS = []  # idle_dashboard's calls, each with a tmux socket of its own


def idle_dashboard(a, bootstrap, extra, split=None, warmup=5, seconds=None):
    """CPU share of one core used by `lagtop -i 2` in a detached tmux over `seconds` (a.idle_seconds) after
    `warmup` seconds, or a reason string. With split (a dict), its "idle_split" is set to the shares of the
    UI thread, lagtop's other threads and librdkafka's (threads that ended during the measure are left out
    of it)."""
    seconds = a.idle_seconds if seconds is None else seconds
    if not a.tmux or not shutil.which(a.tmux):
        return "no tmux"
    # a socket of its own per call: a server just killed by the previous call may still hold the old one
    # ("server exited unexpectedly" for the second dashboard)
    IDLE_CALLS.append(extra)
    sock = "lagtop-bench-%d-%d" % (os.getpid(), len(IDLE_CALLS))
    tm = [a.tmux, "-L", sock, "-f", "/dev/null"]
    cmd = "%s %s -b %s -i 2" % (os.path.join(a.builddir, "lagtop"), " ".join(extra), bootstrap)
    subprocess.run(tm + ["new-session", "-d", "-x", "200", "-y", "50", "exec " + cmd], check=False)
    try:
        time.sleep(warmup)  # the first refreshes, and the dashboard up
        pid = subprocess.run(tm + ["list-panes", "-F", "#{pane_pid}"], capture_output=True, text=True).stdout.strip()
        if not pid or not os.path.exists("/proc/%s" % pid):
            return "no dashboard on this build"
        def cpu_s():
            with open("/proc/%s/stat" % pid) as f:
                s = f.read()
            fields = s[s.rindex(")") + 2:].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        c0, t0, th0 = cpu_s(), time.monotonic(), thread_cpu_s(pid)
        time.sleep(seconds)
        if not os.path.exists("/proc/%s" % pid):
            return "dashboard exited"
        c1, t1, th1 = cpu_s(), time.monotonic(), thread_cpu_s(pid)
        if split is not None:
            split["idle_split"] = "/".join("%.1f" % ((th1[k] - th0[k]) / (t1 - t0) * 100)
                                           for k in ("ui", "lagtop", "librdkafka"))
        return (c1 - c0) / (t1 - t0) * 100
    finally:
        subprocess.run(tm + ["kill-server"], check=False, capture_output=True)


def fmt(v, spec="%.0f"):
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    return spec % v


def verdict(ok):
    return "" if ok is None else ("met" if ok else "MISSED")


def print_table(results, draw):
    names = list(results)
    rows = []

    def row(label, key, spec="%.0f", target="", check=None):
        vals = [fmt(results[n].get(key), spec) for n in names]
        ok = None
        if check:
            n, fn = check
            if n in results and results[n].get(key) is not None and not isinstance(results[n].get(key), str):
                ok = fn(results[n][key])
        rows.append((label, vals, target, verdict(ok)))

    row("groups x partitions", "size", "%s")
    row("rows (group, partition)", "rows")
    row("refresh wall ms (median)", "wall", "%.1f", "M <= 250, L <= 2000",
        ("M", lambda v: v <= 250) if "M" in results else ("L", lambda v: v <= 2000))
    if "M" in results and "L" in results:
        rows[-1] = rows[-1][:3] + (verdict(results["M"]["wall"] is not None and results["M"]["wall"] <= 250
                                           and results["L"]["wall"] is not None and results["L"]["wall"] <= 2000),)
    row("refresh CPU ms (median)", "cpu", "%.1f", "M <= 100", ("M", lambda v: v <= 100))
    row("first (cold) refresh wall ms", "cold_wall", "%.1f")
    row("  records read for the time lag, cold", "cold_records", "%.0f", "<= 32")
    row("  their wall ms, cold", "cold_records_ms", "%.0f")
    row("  records read per warm refresh", "records_asked", "%.1f", "<= 32")
    row("  their wall ms (median)", "records_ms", "%.0f")
    row("lagtop --once wall ms", "once_wall", "%.0f")
    row("lagtop --once CPU ms", "once_cpu", "%.0f")
    row("lagtop --once, commit stream, wall ms", "once_cs_wall", "%.0f")
    row("lagtop --once, commit stream, CPU ms", "once_cs_cpu", "%.0f")
    row("  commit stream / no commit stream", "once_cs_ratio", "%.2fx", "M <= 1.3x", ("M", lambda v: v <= 1.3))
    row("peer (kafka-python) process wall ms", "peer_wall", "%.0f")
    row("peer: the table alone (no startup) ms", "peer_inner", "%.0f")
    row("peer (kafka-python) CPU ms", "peer_cpu", "%.0f")
    row("speed-up: peer process / --once", "speedup_once", "%.1fx", "M >= 25x", ("M", lambda v: v >= 25))
    row("speed-up: peer table / refresh", "speedup", "%.1fx", "M >= 10x", ("M", lambda v: v >= 10))
    row("peak RSS MB (refreshing process)", "rss", "%.1f", "L <= 128", ("L", lambda v: v <= 128))
    row("  peak RSS MB after the cold refresh", "cold_rss", "%.1f")
    row("requests per refresh", "req_total", "%.0f")
    for api in APIS:
        row("  " + api, "req_" + api, "%.0f")
    row("lower bound (librdkafka 2.0.2)", "lb", "%.0f")
    for n in names:
        r = results[n]
        r["ratio"] = r["req_total"] / r["lb"] if r.get("lb") and r.get("req_total") else None
    row("requests / lower bound", "ratio", "%.2f", "L <= 1.10", ("L", lambda v: v <= 1.10))
    row("first refresh requests", "cold_req_total", "%.0f")
    row("requests per --once (no stream)", "once_req", "%.0f", "M <= 100", ("M", lambda v: v <= 100))
    row("  librdkafka's count", "once_rdk", "%.0f")
    row("requests per --once, stream (Fetch apart)", "once_cs_req", "%.0f", "M <= 100", ("M", lambda v: v <= 100))
    row("  librdkafka's count (Fetch apart)", "once_cs_rdk", "%.0f")
    row("simulator CPU ms per refresh", "sim_cpu", "%.1f")
    if "M" in results and "idle" in results["M"]:
        idle = results["M"]["idle"]
        if isinstance(idle, str):
            results["M"]["idle_cell"] = "n/a"
        else:
            results["M"]["idle_cell"] = idle
        row("idle dashboard, 2 s interval, % core", "idle_cell", "%.1f", "M <= 5", ("M", lambda v: v <= 5))
        idle_cs = results["M"].get("idle_cs")
        results["M"]["idle_cs_cell"] = "n/a" if isinstance(idle_cs, str) else idle_cs
        row("  the same with the commit stream on", "idle_cs_cell", "%.1f")

    # the steady refresh with the commit stream live (doc/PERFORMANCE.md)
    if any("st_wall" in results[n] for n in names):
        row("steady refresh, commit stream live:", "-", "%s")
        row("  wall ms (median)", "st_wall", "%.1f", "L <= 600", ("L", lambda v: v <= 600))
        row("  CPU ms (median)", "st_cpu", "%.1f")
        row("    without the record reads", "st_cpu_noreads", "%.1f")
        row("    with the log starts carried", "st_cpu_carried", "%.1f")
        row("    the dashboard's mean at -i 2", "st_cpu_dashboard", "%.1f", "M <= 50", ("M", lambda v: v <= 50))
        row("  peak RSS MB (history, stream)", "st_rss", "%.1f", "L <= 96", ("L", lambda v: v <= 96))
        row("  peak RSS MB, the whole process", "st_life_rss", "%.1f")
        row("  requests per refresh", "st_req_total", "%.0f", "L <= 1000", ("L", lambda v: v <= 1000))
        for api in APIS:
            row("    " + api, "st_req_" + api, "%.0f")
        if "M" in results and "idle_cs_cell" in results["M"]:
            row("  idle dashboard, 2 s interval, % core", "idle_cs_cell", "%.1f", "M <= 2", ("M", lambda v: v <= 2))
            row("    UI / collector, reader / librdkafka", "idle_split", "%s")

    w0 = max(len(r[0]) for r in rows + [("draw: rebuild 100000 partition rows, ms", 0)])
    w = [max([len(n)] + [len(r[1][i]) for r in rows]) for i, n in enumerate(names)]
    wt = max(len(r[2]) for r in rows)
    line = "%-*s  %s  %-*s  %s" % (w0, "metric", "  ".join("%*s" % (w[i], n) for i, n in enumerate(names)),
                                   wt, "target", "")
    print(line.rstrip())
    print("-" * len(line.rstrip()))
    for label, vals, target, v in rows:
        print(("%-*s  %s  %-*s  %s" % (w0, label, "  ".join("%*s" % (w[i], x) for i, x in enumerate(vals)),
                                        wt, target, v)).rstrip())
    if draw:
        rows_n = int(draw.get("draw_rows", 0))
        note = ("  (curses into /dev/null, 200x60)" if draw.get("draw_curses")
                else "  (model rows + formatting only: the dashboard's draw is not on this build)")
        fm = draw.get("draw_frame_ms")
        print("%-*s  %s  <= 5  %s%s" % (w0, "draw: frame, %d partition rows, ms" % rows_n, fmt(fm, "%.3f"),
                                        verdict(fm <= 5 if fm is not None else None), note))
        print("%-*s  %s  (rows_build + rows_sort, once per new snapshot)" % (
            w0, "draw: rebuild %d partition rows, ms" % rows_n, fmt(draw.get("draw_rebuild_ms"), "%.2f")))
        if "draw_g_frame_ms" in draw:
            print("%-*s  %s  (frame), %s (rebuild)" % (w0, "draw: %d groups pane, ms" % rows_n,
                                                       fmt(draw["draw_g_frame_ms"], "%.3f"),
                                                       fmt(draw["draw_g_rebuild_ms"], "%.2f")))
        if "draw_t_frame_ms" in draw:
            print("%-*s  %s  (frame), %s (rebuild: the topic view of %d rows, %d topics)" % (
                w0, "draw: topics pane, ms", fmt(draw["draw_t_frame_ms"], "%.3f"),
                fmt(draw["draw_t_rebuild_ms"], "%.2f"), rows_n, int(draw["draw_t_topics"])))
    for n in names:
        for key, what in (("once_rdk_apis", "no stream"), ("once_cs_rdk_apis", "stream on")):
            if results[n].get(key):
                print("requests per --once on %s, %s, librdkafka's count by API: %s"
                      % (n, what, api_split(results[n][key])))
    for n in names:
        if isinstance(results[n].get("idle"), str):
            print("idle dashboard on %s: not measured (%s)" % (n, results[n]["idle"]))


def print_targets(sim, real):
    """The scale and cost targets side by side, sim and real Kafka: now, target, met or missed (a target
    whose measure did not run says so)."""
    sm, sl, rm = sim.get("M", {}), sim.get("L", {}), (real or {}).get("M", {})

    def num(v):
        return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None

    def ratio(r, x, y):
        return r[x] / r[y] if num(r.get(x)) and num(r.get(y)) else None

    rows = [
        ("--once, sim M: kafka-python peer process / lagtop", num(sm.get("speedup_once")), "%.1fx", ">= 25x",
         lambda v: v >= 25),
        ("--once, real Kafka M: kafka-python peer process / lagtop", ratio(rm, "peer", "once"), "%.1fx", ">= 25x",
         lambda v: v >= 25),
        ("--once, real Kafka M: kafka-consumer-groups, warm JVM / lagtop", ratio(rm, "warm", "once"), "%.1fx",
         ">= 30x", lambda v: v >= 30),
        ("requests per --once, sim M, no stream", num(sm.get("once_req")), "%.0f", "<= 100", lambda v: v <= 100),
        ("requests per --once, sim M, stream (Fetch apart)", num(sm.get("once_cs_req")), "%.0f", "<= 100",
         lambda v: v <= 100),
        ("requests per --once, real Kafka M, no stream", num(rm.get("once_req")), "%.0f", "<= 100",
         lambda v: v <= 100),
        ("requests per --once, real Kafka M, stream (Fetch apart)", num(rm.get("once_cs_req_nofetch")), "%.0f",
         "<= 100", lambda v: v <= 100),
        ("steady refresh peak RSS, sim L, MB", num(sl.get("st_rss")), "%.1f", "<= 96", lambda v: v <= 96),
        ("idle dashboard, sim M, stream on, -i 2, % core", num(sm.get("idle_cs")), "%.1f", "<= 2",
         lambda v: v <= 2),
        ("idle dashboard, real Kafka M, stream on, -i 2, % core", num(rm.get("idle_cs")), "%.1f", "<= 2",
         lambda v: v <= 2),
    ]
    w0 = max(len(r[0]) for r in rows)
    print("%-*s  %9s  %-7s  %s" % (w0, "target", "now", "target", "verdict"))
    print("-" * (w0 + 30))
    for label, v, spec, target, check in rows:
        print("%-*s  %9s  %-7s  %s" % (w0, label, "-" if v is None else spec % v, target,
                                       "not measured" if v is None else verdict(check(v))))


def bench_draw(a):
    """The dashboard's offscreen draw (bench/bench_ui_draw: curses into /dev/null, partitions pane of one
    group with a.draw_rows partitions); without it, the model's part only (lagtop-bench draw)."""
    ui = os.path.join(a.builddir, "bench", "bench_ui_draw")
    if os.access(ui, os.X_OK):
        rc, out, _, _, err = timed([ui, str(a.draw_rows)])
        m = re.search(r"^partitions pane.*rows=(\d+).*rebuild\(build\+sort\)=([0-9.]+) ms draw=([0-9.]+) ms/frame",
                      out, re.M)
        g = re.search(r"^groups pane.*rows=(\d+).*rebuild\(build\+sort\)=([0-9.]+) ms draw=([0-9.]+) ms/frame",
                      out, re.M)
        if rc != 0 or not m:
            sys.stderr.write("run_bench: bench_ui_draw failed (%d): %s\n" % (rc, err.strip()))
            return None
        d = {"draw_rows": float(m.group(1)), "draw_rebuild_ms": float(m.group(2)),
             "draw_frame_ms": float(m.group(3)), "draw_curses": 1}
        t = re.search(r"^topics pane.*rows=(\d+).*rebuild\(build\+sort\)=([0-9.]+) ms draw=([0-9.]+) ms/frame",
                      out, re.M)
        if g:
            d.update({"draw_g_rebuild_ms": float(g.group(2)), "draw_g_frame_ms": float(g.group(3))})
        if t:
            d.update({"draw_t_topics": float(t.group(1)), "draw_t_rebuild_ms": float(t.group(2)),
                      "draw_t_frame_ms": float(t.group(3))})
        return d
    rc, out, _, _, err = timed([os.path.join(a.builddir, "bench", "lagtop-bench"), "draw", "--rows",
                                str(a.draw_rows)])
    if rc != 0:
        sys.stderr.write("run_bench: lagtop-bench draw failed (%d): %s\n" % (rc, err.strip()))
    return kv(out)


def bench_record(a):
    """Recordings. The targets are read on the sim's scenario M through the real collector (lagtop-bench
    refresh --record, refreshed back to back): bytes per refresh extrapolated to a day at 10 s, the writer's
    share of a refresh's CPU, and reaching moments of that file from a fresh reader (bench_record --read:
    40 at random and the record before each keyframe, the worst). bench/bench_record's synthetic day, whose
    every partition's lag moves randomly every refresh, is printed after it for information."""
    prog = os.path.join(a.builddir, "bench", "bench_record")
    if not os.access(prog, os.X_OK):
        print("recording: not measured (bench/bench_record is not built)")
        return
    if RECORD_ON_M.get("file"):
        rc, out, _, _, err = timed([prog, "--read", RECORD_ON_M["file"]])
        if rc != 0:
            sys.stderr.write("run_bench: bench_record --read failed (%d): %s\n" % (rc, err.strip()))
        r = kv(out)
        per = RECORD_ON_M.get("record_bytes_per_refresh")
        mb = per * 8640 / 1e6 if per is not None else None
        share, seek = RECORD_ON_M.get("record_share_pct"), r.get("seek_ms_max")
        print("recording (the sim's scenario M, %d refreshes; a day = 8,640 records at 10 s):" % int(r.get("read_records", 0)))
        print("  bytes per refresh              %s" % fmt(per, "%.0f"))
        print("  MB per day at 10 s             %s  <= 160  %s" % (fmt(mb, "%.1f"), verdict(mb <= 160 if mb is not None else None)))
        print("  reach a moment, ms (median)    %s  (CPU %s)" % (fmt(r.get("seek_ms_median"), "%.1f"),
                                                           fmt(r.get("seek_cpu_ms_median"), "%.1f")))
        print("  reach a moment, ms (max)       %s  <= 200  %s  (CPU %s)" % (
            fmt(seek, "%.1f"), verdict(seek <= 200 if seek is not None else None), fmt(r.get("seek_cpu_ms_max"), "%.1f")))
        print("  decode CPU ms per record       %s  (a replay playing)" % fmt(r.get("decode_cpu_ms_per_record"), "%.2f"))
        print("  writer: %s ms of a %s ms refresh = %s %%  <= 10 %%  %s" % (
            fmt(RECORD_ON_M.get("record_cpu_ms"), "%.1f"), fmt(RECORD_ON_M.get("cpu_ms"), "%.1f"), fmt(share, "%.1f"),
            verdict(share <= 10 if share is not None else None)))
    rc, out, _, _, err = timed([prog, str(a.record_records)])
    if rc != 0:
        sys.stderr.write("run_bench: bench_record failed (%d): %s\n" % (rc, err.strip()))
        return
    r = kv(out)
    print("recording, synthetic (bench_record: M, %d records, every lag moving randomly every refresh):" % int(r.get("records", 0)))
    print("  bytes per record %s, MB per day at 10 s %s, writer CPU ms per record %s, reach median / max ms %s / %s" % (
        fmt(r.get("bytes_per_record"), "%.0f"), fmt(r.get("mb_per_day"), "%.1f"), fmt(r.get("write_cpu_ms_per_record"), "%.2f"),
        fmt(r.get("seek_ms_median"), "%.1f"), fmt(r.get("seek_ms_max"), "%.1f")))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description="lagtop scale and cost benchmarks (make bench)")
    ap.add_argument("--builddir", default=os.getcwd())
    ap.add_argument("--srcdir", default=os.path.dirname(here))
    ap.add_argument("--scenarios", default="S,M,L", help="comma-separated: T (tiny), S, M, L")
    ap.add_argument("--python", default=os.environ.get("DEBIAN_PYTHON", "/usr/bin/python3"))
    ap.add_argument("--tmux", default="tmux")
    ap.add_argument("--idle-seconds", type=float, default=20)
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--no-idle", action="store_true")
    ap.add_argument("--no-draw", action="store_true")
    ap.add_argument("--draw-rows", type=int, default=100000)
    ap.add_argument("--real-kafka", default="S,M",
                    help="scenarios on a real Kafka 4.x broker, comma-separated (T, S, M; bench/real_kafka.py: "
                         "M ~7 min on a busy 2-core machine), or none")
    ap.add_argument("--real-idle-seconds", type=float, default=40,
                    help="seconds the steady dashboard on the real Kafka M is measured (after a 15 s warm-up)")
    ap.add_argument("--record-records", type=int, default=360, help="records of the synthetic recording benchmark")
    ap.add_argument("--record-refreshes", type=int, default=40,
                    help="refreshes of the sim's M recorded (the recording targets; at least two keyframe intervals)")
    ap.add_argument("--no-record", action="store_true")
    a = ap.parse_args()
    names = [n.strip() for n in a.scenarios.split(",") if n.strip()]
    for n in names:
        if n not in SCENARIOS:
            sys.stderr.write("run_bench: unknown scenario '%s' (T, S, M, L)\n" % n)
            return 2
    tmp = tempfile.mkdtemp(prefix="lagtop-bench.")
    a.tmpdir = tmp
    try:
        results = {}
        for n in names:
            results[n] = bench_scenario(a, tmp, n)
        draw = None
        if not a.no_draw:
            draw = bench_draw(a)
        print_table(results, draw)
        real = None
        if a.real_kafka != "none":
            import real_kafka
            print()
            real = {n.strip(): real_kafka.bench(a, n.strip(), timed)
                    for n in a.real_kafka.split(",") if n.strip() in real_kafka.SCENARIOS}
            real_kafka.print_table(real)
        if not a.no_record:
            bench_record(a)
        print()
        print_targets(results, real)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
