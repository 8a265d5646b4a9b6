#!/usr/bin/python3
"""bench/soak.py — long runs: the dashboard under churn, its memory, CPU, fds and threads over time.

    make bench-soak                                    # 5 minutes against the simulated cluster
    make bench-soak SOAK_ARGS='--duration 3600'        # the hour
    make bench-soak SOAK_ARGS='--target kafka --duration 180'   # real Kafka 4.x (tests/kafka/), shorter
    make bench-soak SOAK_ARGS='--target demo --duration 300'    # the demo scenario's memory (see below)

Targets:
  sim    bench/lagtop-sim-churn (scale scenario M: 1,000 groups x 32 partitions, 3 brokers, in its own process)
         with churn: records and commits every second, a member joining and leaving an Empty group every 5 s,
         broker 2 stopped for 10 s every 2 minutes; this driver resets an Empty group (scale-group-00010) with
         `lagtop --reset-offsets --to-earliest --execute` every --reset-every seconds. The sim runs with short
         retention (2 min, checked every 15 s; __consumer_offsets segments of 8 KiB) so that its own memory
         reaches its plateau within a few minutes.
  kafka  a one-node Kafka (tests/lib/kafka_cluster.py, --kafka-line 4 or 3.9): kafka-python members join and
         leave, a simple group commits every second, records are produced, an Empty group is reset, and the
         broker restarts once, half-way. Only lagtop is sampled (the broker is a JVM).
  demo   `lagtop-sim --scenario demo` with the dashboard on it (both sampled); --demo-args passes sim options,
         e.g. '--retention-ms 60000 --log-retention-check-interval-ms 10000' to reach the plateau in minutes
         (the demo's defaults: topics keep 45 min, checked every 5 min). --inprocess runs `lagtop --demo`
         instead (the sim inside the dashboard, one process).
The dashboard is the real `lagtop` in a detached tmux (200x50), refreshing every --refresh seconds. Every
--sample seconds each process's RSS (VmRSS), CPU share of one core since the last sample, open fds and
threads are read from /proc. The report gives per process the first and last values, and after --warmup the
min/max and the least-squares slope of RSS (KB per minute) and of fds and threads (per hour).
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

CLK = os.sysconf("SC_CLK_TCK")


def proc_sample(pid):
    """(rss_kb, cpu_seconds, fds, threads) of pid, or None when it is gone."""
    try:
        with open("/proc/%d/status" % pid) as f:
            st = dict(l.split(":", 1) for l in f if ":" in l)
        with open("/proc/%d/stat" % pid) as f:
            s = f.read()
        fields = s[s.rindex(")") + 2:].split()
        cpu = (int(fields[11]) + int(fields[12])) / CLK
        fds = len(os.listdir("/proc/%d/fd" % pid))
        return int(st["VmRSS"].split()[0]), cpu, fds, int(st["Threads"])
    except (OSError, KeyError, ValueError):
        return None


def slope(xs, ys):
    n = len(xs)
    if n < 2:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den if den else None


class Sampler:
    def __init__(self, procs, csv_path=None):
        self.procs = procs  # name -> pid
        self.csv = open(csv_path, "w") if csv_path else None  # every sample as it is taken
        if self.csv:
            self.csv.write("process,t_s,rss_kb,cpu_pct,fds,threads\n")
        self.rows = {n: [] for n in procs}  # name -> [(t_s, rss_kb, cpu_share, fds, threads)]
        self.last = {}
        self.t0 = time.monotonic()

    def sample(self):
        t = time.monotonic() - self.t0
        for name, pid in self.procs.items():
            s = proc_sample(pid)
            if s is None:
                continue
            rss, cpu, fds, thr = s
            prev = self.last.get(name)
            share = (cpu - prev[1]) / (t - prev[0]) * 100 if prev and t > prev[0] else None
            self.last[name] = (t, cpu)
            self.rows[name].append((t, rss, share, fds, thr))
            if self.csv:
                self.csv.write("%s,%.1f,%d,%s,%d,%d\n" % (name, t, rss, "" if share is None else "%.2f" % share,
                                                          fds, thr))
                self.csv.flush()

    def report(self, warmup, out):
        out.write("%-10s %8s %8s %9s %9s %11s %11s %7s %7s %9s %9s %9s\n" % (
            "process", "rss0 MB", "rss MB", "min MB*", "max MB*", "KB/min*", "KB/min 2/2", "cpu %*", "fds*", "fd/h*",
            "threads*", "thr/h*"))
        summary = {}
        for name, rows in self.rows.items():
            if not rows:
                out.write("%-10s (no samples)\n" % name)
                continue
            after = [r for r in rows if r[0] >= warmup] or rows
            xs = [r[0] / 60 for r in after]
            rs = slope(xs, [r[1] for r in after])
            half = after[len(after) // 2:]  # growth that slows down (caches filling) vs a leak
            rs2 = slope([r[0] / 60 for r in half], [r[1] for r in half])
            fs = slope(xs, [r[3] for r in after])
            ts = slope(xs, [r[4] for r in after])
            shares = [r[2] for r in after if r[2] is not None]
            cpu = sum(shares) / len(shares) if shares else None
            summary[name] = dict(rss0=rows[0][1], rss=rows[-1][1], slope_kb_min=rs, cpu=cpu)
            out.write("%-10s %8.1f %8.1f %9.1f %9.1f %11s %11s %7s %7s %9s %9s %9s\n" % (
                name, rows[0][1] / 1024, rows[-1][1] / 1024, min(r[1] for r in after) / 1024,
                max(r[1] for r in after) / 1024, "%.1f" % rs if rs is not None else "-",
                "%.1f" % rs2 if rs2 is not None else "-",
                "%.1f" % cpu if cpu is not None else "-",
                "%d-%d" % (min(r[3] for r in after), max(r[3] for r in after)),
                "%.2f" % (fs * 60) if fs is not None else "-",
                "%d-%d" % (min(r[4] for r in after), max(r[4] for r in after)),
                "%.2f" % (ts * 60) if ts is not None else "-"))
        out.write("* after the %d s warm-up; slopes by least squares over the samples (2/2: over the second half of "
                  "them); cpu: share of one core\n" % warmup)
        return summary



class Dashboard:
    """The real lagtop in a detached tmux; pid is the dashboard's process."""

    def __init__(self, tmux, argv, env):
        self.tm = [tmux, "-L", "lagtop-soak-%d" % os.getpid(), "-f", "/dev/null"]
        cmd = " ".join("'%s'" % a.replace("'", "'\\''") for a in argv)
        subprocess.run(self.tm + ["new-session", "-d", "-x", "200", "-y", "50", "exec env TERM=xterm-256color "
                                  + " ".join("%s='%s'" % kv for kv in sorted(env.items())) + " " + cmd],
                       check=True)
        self.pid = None
        for _ in range(50):
            out = subprocess.run(self.tm + ["list-panes", "-F", "#{pane_pid}"], capture_output=True,
                                 text=True).stdout.strip()
            if out and os.path.exists("/proc/%s" % out):
                self.pid = int(out)
                break
            time.sleep(0.1)
        if self.pid is None:
            raise RuntimeError("the dashboard did not start in tmux")

    def screen(self):
        return subprocess.run(self.tm + ["capture-pane", "-p"], capture_output=True, text=True).stdout

    def stop(self):
        subprocess.run(self.tm + ["send-keys", "q"], capture_output=True)
        time.sleep(1)
        subprocess.run(self.tm + ["kill-server"], capture_output=True)


def start_ready(argv, errpath):
    err = open(errpath, "w")
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True)
    line = p.stdout.readline()
    if not line.startswith("ready bootstrap="):
        p.kill()
        raise RuntimeError("%s did not start: %r" % (argv[0], line))
    return p, line.strip().split("=", 1)[1].split()[0]


def stop_proc(p):
    if p.poll() is None:
        try:
            p.stdin.close()
        except OSError:
            pass
        p.terminate()
        try:
            p.wait(20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def reset_group(a, env, bootstrap, group):
    r = subprocess.run([os.path.join(a.builddir, "lagtop"), "--reset-offsets", "-g", group, "--all-topics",
                        "--to-earliest", "--execute", "-b", bootstrap, "--timeout", "20s"], capture_output=True,
                       text=True, env=env, timeout=120)
    return r.returncode


def run(a):
    tmp = tempfile.mkdtemp(prefix="lagtop-soak-")
    env = {"HOME": tmp, "XDG_CONFIG_HOME": os.path.join(tmp, "xdg"), "XDG_STATE_HOME": tmp}
    full_env = dict(os.environ, **env)
    full_env.pop("LAGTOP_CONFIG", None)
    lagtop = os.path.join(a.builddir, "lagtop")
    procs, cleanup = {}, []
    events = {"resets": 0, "reset_failures": 0, "restarts": 0}
    kc = None
    try:
        if a.target == "sim":
            sim, bootstrap = start_ready([os.path.join(a.builddir, "bench", "lagtop-sim-churn"),
                                          "--retention-ms", "120000", "--log-retention-check-interval-ms", "15000",
                                          "--offsets-segment-bytes", "8192",
                                          "--offsets-retention-check-interval-ms", "15000"],
                                         os.path.join(tmp, "sim.err"))
            cleanup.append(lambda: stop_proc(sim))
            procs["sim"] = sim.pid
            dash = Dashboard(a.tmux, [lagtop, "-b", bootstrap, "-i", str(a.refresh)], env)
        elif a.target == "demo":
            if a.inprocess:
                bootstrap = None
                dash = Dashboard(a.tmux, [lagtop, "--demo", "-i", str(a.refresh)], env)
            else:
                sim, bootstrap = start_ready([os.path.join(a.builddir, "lagtop-sim"), "--scenario", "demo"]
                                             + a.demo_args.split(), os.path.join(tmp, "sim.err"))
                cleanup.append(lambda: stop_proc(sim))
                procs["sim"] = sim.pid
                dash = Dashboard(a.tmux, [lagtop, "-b", bootstrap, "-i", str(a.refresh)], env)
        else:
            sys.path.insert(0, os.path.join(a.srcdir, "tests", "lib"))
            import kafka_cluster as K
            kc = K.KafkaCluster(a.kafka_line)
            kc.start()
            cleanup.append(kc.stop)
            bootstrap = kc.bootstrap
            K.create_topic(bootstrap, "soak", 4, per_partition=100)
            dash = Dashboard(a.tmux, [lagtop, "-b", bootstrap, "-i", str(a.refresh)], env)
        cleanup.insert(0, dash.stop)
        procs["lagtop"] = dash.pid
        smp = Sampler(procs, a.csv)
        t_end = time.monotonic() + a.duration
        next_sample = next_reset = time.monotonic()
        churn = KafkaChurn(kc, events) if kc else None
        restarted = False
        while time.monotonic() < t_end:
            now = time.monotonic()
            if now >= next_sample:
                smp.sample()
                next_sample += a.sample
            if a.target == "sim" and now >= next_reset + a.reset_every:
                next_reset = now
                rc = reset_group(a, full_env, bootstrap, "scale-group-00010")
                events["resets" if rc == 0 else "reset_failures"] += 1
            if churn:
                churn.tick()
                if now >= next_reset + a.reset_every:
                    next_reset = now
                    rc = reset_group(a, full_env, bootstrap, "soak-empty")
                    events["resets" if rc == 0 else "reset_failures"] += 1
                if not restarted and now >= t_end - a.duration / 2:
                    restarted = True
                    kc.stop_node(1)
                    time.sleep(5)
                    kc.start_node(1)
                    events["restarts"] += 1
            if dash.pid and not os.path.exists("/proc/%d" % dash.pid):
                raise RuntimeError("the dashboard exited")
            time.sleep(0.2)
        smp.sample()
        screen = dash.screen()
        if churn:
            churn.close()
        print("soak: target %s, %d s (warm-up %d s), dashboard refresh %d s, a sample every %d s; events %s" % (
            a.target + (" (lagtop --demo)" if a.target == "demo" and a.inprocess else "")
            + (" " + a.demo_args if a.target == "demo" and a.demo_args and not a.inprocess else ""),
            a.duration, a.warmup, a.refresh, a.sample, events))
        smp.report(a.warmup, sys.stdout)
        first = [l for l in screen.splitlines() if l.strip()][:2]
        print("dashboard at the end: %s" % " | ".join(l.strip()[:90] for l in first))
    finally:
        for fn in cleanup:
            try:
                fn()
            except Exception as e:  # noqa: BLE001 - cleanup goes on
                print("soak: cleanup: %s" % e, file=sys.stderr)
        try:
            with open(os.path.join(tmp, "sim.err")) as f:
                for line in f.read().splitlines()[-3:]:
                    print("sim: " + line)
        except OSError:
            pass
        shutil.rmtree(tmp, ignore_errors=True)


class KafkaChurn:
    """On a real broker: a simple group commits every second, members join and leave soak-members every 10 s."""

    def __init__(self, kc, events):
        from kafka import KafkaConsumer, KafkaProducer, TopicPartition
        from kafka.structs import OffsetAndMetadata
        self.kc, self.events = kc, events
        self.TP, self.OAM = TopicPartition, OffsetAndMetadata
        self.api = (2, 5, 0)
        self.prod = KafkaProducer(bootstrap_servers=kc.bootstrap, api_version=self.api)
        self.simple = KafkaConsumer(bootstrap_servers=kc.bootstrap, group_id="soak-simple", api_version=self.api,
                                    enable_auto_commit=False)
        self.simple.assign([TopicPartition("soak", p) for p in range(4)])
        empty = KafkaConsumer(bootstrap_servers=kc.bootstrap, group_id="soak-empty", api_version=self.api,
                              enable_auto_commit=False)
        empty.assign([TopicPartition("soak", 0)])
        empty.commit({TopicPartition("soak", 0): OffsetAndMetadata(50, "")})
        empty.close()
        self.member = None
        self.n = 0
        self.last = 0

    def tick(self):
        import kafka_cluster as K
        if time.monotonic() - self.last < 1:
            return
        self.last = time.monotonic()
        self.n += 1
        try:
            for p in range(4):
                self.prod.send("soak", b"x", partition=p)
            self.simple.commit({self.TP("soak", p): self.OAM(self.n, "") for p in range(4)})
        except Exception:  # noqa: BLE001 - a broker restart; the next tick tries again
            self.events["commit_failures"] = self.events.get("commit_failures", 0) + 1
        if self.n % 10 == 0:
            if self.member:
                self.member.stop()
                self.member = None
            else:
                self.member = K.Member(self.kc, "kafka-python", "soak-members", ["soak"])
                self.events["joins"] = self.events.get("joins", 0) + 1

    def close(self):
        if self.member:
            self.member.stop()
        self.simple.close()
        self.prod.close()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description="lagtop soak benchmark (make bench-soak)")
    ap.add_argument("--builddir", default=os.getcwd())
    ap.add_argument("--srcdir", default=os.path.dirname(here))
    ap.add_argument("--tmux", default="tmux")
    ap.add_argument("--target", choices=("sim", "kafka", "demo"), default="sim")
    ap.add_argument("--kafka-line", default="4", choices=("4", "3.9"))
    ap.add_argument("--duration", type=int, default=300, help="seconds (default 300; 3600 for the hour)")
    ap.add_argument("--warmup", type=int, default=None, help="seconds left out of the slopes (default a fifth)")
    ap.add_argument("--sample", type=int, default=5, help="seconds between samples")
    ap.add_argument("--refresh", type=int, default=2, help="the dashboard's refresh interval")
    ap.add_argument("--reset-every", type=int, default=30)
    ap.add_argument("--demo-args", default="", help="lagtop-sim options for --target demo")
    ap.add_argument("--inprocess", action="store_true", help="--target demo: run lagtop --demo")
    ap.add_argument("--csv", help="write every sample to this file")
    a = ap.parse_args()
    if a.warmup is None:
        a.warmup = a.duration // 5
    if a.target == "kafka":
        try:
            import kafka  # noqa: F401
        except ImportError:
            print("soak: --target kafka needs kafka-python (Debian's python3-kafka: run it with /usr/bin/python3, "
                  "as make bench-soak does)", file=sys.stderr)
            return 1
    if not shutil.which(a.tmux):
        print("soak: tmux not found: the dashboard needs a terminal (apt-get install tmux)", file=sys.stderr)
        return 1
    # a driver started in the background has SIGINT ignored: both signals end the run through its cleanup
    signal.signal(signal.SIGINT, lambda *_: sys.exit(130))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    run(a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
