"""simtest.py — what the Python tests against lagtop-sim share: TAP output, the rule for a missing
prerequisite, one simulated cluster per `Sim` (started, read for its request counts, always stopped),
running lagtop, and finding a group or a partition in `--once --format json`.

A test file puts this folder on sys.path (`sys.path.insert(0, <tests>/lib)`) and imports it; the folder
is found from the test's own path, so VPATH builds (`.ci/run`'s second stage) read it from the source
tree. The environment the harness gives every test: LAGTOP (the binary), LAGTOP_SIM (the simulator),
CI (`true` makes a missing prerequisite a failure)."""
import importlib
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

LAGTOP = os.environ.get("LAGTOP", "lagtop")
SIM = os.environ.get("LAGTOP_SIM", "lagtop-sim")

# ---------------------------------------------------------------------------------------------- TAP

results = []
# tests that check from several threads (a watcher beside the main run) print whole lines
_out_lock = threading.Lock()


def ok(cond, name, diag=None, diag_lines=30, todo=None, skip=None):
    """One TAP line; on failure, the first diag_lines lines of diag (a string or a list of lines) as
    comments. skip="why" prints a passing line with a SKIP directive (the case cannot run here); todo="why"
    marks a known failure: the line carries a TODO directive and does not fail the file."""
    with _out_lock:
        directive = ""
        if skip:
            cond, directive = True, " # SKIP " + skip
        elif todo:
            directive = " # TODO " + todo
        results.append(bool(cond) or bool(todo))
        print("%s %d - %s%s" % ("ok" if cond else "not ok", len(results), name, directive))
        if not cond and diag:
            lines = diag if isinstance(diag, list) else str(diag).splitlines()
            for line in lines[:diag_lines]:
                print("# " + str(line))
        sys.stdout.flush()
    return bool(cond)


def skip(name, why):
    """A case that cannot run here: one passing line with a SKIP directive naming why."""
    ok(True, name, skip=why)


def note(text):
    """TAP comment lines (timings, what a run saw), one per line of text."""
    with _out_lock:
        for line in str(text).splitlines():
            print("# " + line)
        sys.stdout.flush()


def plan(n=None):
    """The TAP plan line: n cases announced up front, or (n None) the count so far, printed at the end."""
    print("1..%d" % (len(results) if n is None else n))
    sys.stdout.flush()


def exit_status():
    """0 when every case passed (the value for sys.exit at the end of main)."""
    return 0 if all(results) else 1


def missing_prereq(what):
    """The whole file cannot run: under CI=true that is a failure, elsewhere a skip, each in one line
    naming what is missing. Does not return."""
    if os.environ.get("CI") == "true":
        print("1..1\nnot ok 1 - prerequisite missing: %s" % what)
        sys.exit(1)
    print("1..0 # SKIP missing: %s" % what)
    sys.exit(0)


def require_programs(*progs, hint=""):
    """Each of progs on PATH, or missing_prereq naming the first one that is not (hint: how to get it)."""
    for prog in progs:
        if not shutil.which(prog):
            missing_prereq("%s not found%s" % (prog, " (%s)" % hint if hint else ""))


def require_module(module, what):
    """The Python module imported, or missing_prereq(what)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        missing_prereq(what)


def kafka_python(*names):
    """Debian's kafka-python, or missing_prereq: the named classes, from kafka or kafka.structs
    (KafkaConsumer, TopicPartition, OffsetAndMetadata, ...)."""
    kafka = require_module("kafka", "kafka-python (Debian package python3-kafka)")
    structs = importlib.import_module("kafka.structs")
    return tuple(getattr(kafka, n, None) or getattr(structs, n) for n in names)


def require_built(*paths):
    """Each path (lagtop, lagtop-sim) is an executable, or missing_prereq naming the first that is not built."""
    for path in paths:
        if not os.access(path, os.X_OK):
            missing_prereq("%s is not built" % path)


def now_ms():
    return int(time.time() * 1000)


# ---------------------------------------------------------------------------------------- the sim


class Sim:
    """lagtop-sim in its own process on 127.0.0.1 (free ports). Its stderr goes to a file (request
    counts, diagnostics); stop() always reaps it, also when used as a context manager."""

    def __init__(self, *args, tmp=None, name="sim", start_timeout=20):
        self.dir = tmp or tempfile.mkdtemp(prefix="lagtop-sim.")
        self.errpath = os.path.join(self.dir, name + ".err")
        self.errlog = open(self.errpath, "w+")
        self.args = list(args)
        self.p = subprocess.Popen([SIM, "--port", "0"] + self.args, stdout=subprocess.PIPE, stderr=self.errlog,
                                  stdin=subprocess.DEVNULL, text=True)
        self.bootstrap, self.metrics = None, None
        deadline = time.time() + start_timeout
        line = ""
        while time.time() < deadline:
            line = self.p.stdout.readline()
            if not line or line.startswith("ready bootstrap="):
                break
            if line.startswith("metrics url="):
                self.metrics = line.strip().split("=", 1)[1]
        if not line.startswith("ready bootstrap="):
            self.stop()
            raise RuntimeError("lagtop-sim %s did not start: %r" % (" ".join(self.args), line))
        self.bootstrap = line.strip().split("=", 1)[1]

    def counts(self):
        """Cumulative request counts per API name (the sim prints them as JSON on SIGUSR1)."""
        self.errlog.seek(0, io.SEEK_END)
        start = self.errlog.tell()
        self.p.send_signal(signal.SIGUSR1)
        deadline = time.time() + 10
        while time.time() < deadline:
            self.errlog.seek(start)
            for line in self.errlog.read().splitlines():
                if line.strip().startswith("{"):
                    return json.loads(line)
            time.sleep(0.05)
        raise RuntimeError("no request counts from lagtop-sim")

    def stderr_text(self):
        self.errlog.flush()
        with open(self.errpath) as f:
            return f.read()

    def stop(self):
        if self.p.poll() is None:
            self.p.terminate()
            try:
                self.p.wait(10)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        if not self.errlog.closed:
            self.errlog.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


# -------------------------------------------------------------------------------------- lagtop runs


def private_env(state, home=None, config=None, **extra):
    """os.environ for a lagtop that keeps to a test's folders: its state (backups, audit, history) in state,
    its configuration searched in config (default: state), HOME moved to home when given, no LAGTOP_CONFIG;
    extra variables on top."""
    env = dict(os.environ, XDG_STATE_HOME=state, XDG_CONFIG_HOME=config or state)
    if home:
        env["HOME"] = home
    env.pop("LAGTOP_CONFIG", None)
    env.update(extra)
    return env


class StateDir:
    """A state folder of a test's own (prefix names it) that lagtop keeps its backups, audit log and locks
    in (env: private_env), read back by the checks; close() (or leaving a with block) removes it."""

    def __init__(self, prefix):
        self.state = tempfile.mkdtemp(prefix=prefix)
        self.env = private_env(self.state)

    def close(self):
        shutil.rmtree(self.state, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def backups_dir(self):
        return os.path.join(self.state, "lagtop", "backups")

    def backups(self, group):
        """group's backup files (lagtop names them <group>.<time>.csv)."""
        d = self.backups_dir()
        return sorted(n for n in os.listdir(d) if n.startswith(group + ".")) if os.path.isdir(d) else []

    def backup_text(self, name):
        with open(os.path.join(self.backups_dir(), name)) as f:
            return f.read()

    def audit(self):
        """The audit log's lines ([] while there is none)."""
        try:
            with open(os.path.join(self.state, "lagtop", "audit.log")) as f:
                return f.read().splitlines()
        except (FileNotFoundError, IsADirectoryError):
            return []


def lagtop(*args, env=None, timeout=60):
    """Runs lagtop to its end: (exit code, stdout, stderr)."""
    p = subprocess.run([LAGTOP] + list(args), capture_output=True, text=True, env=env, timeout=timeout,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


def lagtop_timed(*args, env=None, timeout=60):
    """As lagtop(), with the wall clock in ms before and after: (rc, stdout, stderr, t0_ms, t1_ms)."""
    t0 = now_ms()
    rc, out, err = lagtop(*args, env=env, timeout=timeout)
    return rc, out, err, t0, now_ms()



def lagtop_headless(n, *args, limit_s=60, stop=signal.SIGTERM, env=None):
    """Runs `lagtop --headless --format json ARGS` until it printed n refreshes (one JSON document a line) or
    limit_s passed, then sends it stop: (exit code, the documents, stderr)."""
    with tempfile.TemporaryFile("w+") as err:
        p = subprocess.Popen([LAGTOP, "--headless", "--format", "json"] + list(args), stdout=subprocess.PIPE,
                             stderr=err, stdin=subprocess.DEVNULL, text=True, env=env)
        docs = []
        deadline = time.time() + limit_s
        try:
            while len(docs) < n and time.time() < deadline:
                line = p.stdout.readline()
                if not line:
                    break
                docs.append(json.loads(line))
        finally:
            p.send_signal(stop)
            try:
                rc = p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
                rc = p.wait()
            p.stdout.close()
        err.seek(0)
        return rc, docs, err.read()


def json_from(f):
    """The JSON document in the file object f (a run's stdout), read from its start; f is closed. {} when f
    holds no JSON document (the run failed or was cut short)."""
    f.seek(0)
    text = f.read()
    f.close()
    try:
        return json.loads(text)
    except ValueError:
        return {}


def find_group(doc, group):
    """The group named `group` in a --once JSON document, or None."""
    for g in doc.get("groups", []):
        if g["group"] == group:
            return g
    return None


def find_partition(group, topic, partition):
    """The row of topic/partition in a --once JSON group (None for no group or no row)."""
    for x in group["partitions"] if group else []:
        if x["topic"] == topic and x["partition"] == partition:
            return x
    return None


# ---------------------------------------------------------------------------------- JSON comparison

# --once JSON fields measured on the run's own clock (how long it took, when, how long ago): two runs on
# the same cluster differ there and nowhere else. The time lags too: besides the clock, a run reads at
# most 32 records for them (record_peek.h), and which 32 depends on the order the groups' answers came
# in, so one run has a partition's time lag exact and another has it estimated or unknown.
RUN_CLOCK = ("duration_ms", "taken_at_ms", "unmoved_ms", "time_lag_ms", "time_lag_estimated", "time_lag_high",
             "max_time_lag_ms", "max_time_lag_estimated")


def flat(x, path="", out=None):
    """A JSON document as {path: value}; groups and partitions keyed by name (group, topic:partition), so
    the order of lists does not matter."""
    if out is None:
        out = {}
    if isinstance(x, dict):
        for k, v in x.items():
            flat(v, path + "/" + k, out)
    elif isinstance(x, list):
        for i, v in enumerate(x):
            key = str(i)
            if isinstance(v, dict) and "group" in v:
                key = v["group"]
            elif isinstance(v, dict) and "topic" in v and "partition" in v:
                key = "%s:%s" % (v["topic"], v["partition"])
            flat(v, path + "/" + key, out)
    else:
        out[path] = x
    return out


# What two ways of reading a cluster (steady refreshes and full polling) must agree on: everything observed,
# and what is derived from it alone.
GROUP_KEYS = ("group", "state", "type", "members_readable", "members", "lag", "max_lag", "protocol_type",
              "protocol", "coordinator", "error", "stale_ms", "expired_partitions")
PART_KEYS = ("topic", "partition", "log_start", "committed", "log_end", "lag", "consumer_id", "client_id", "host",
             "metadata")


def group_numbers(doc):
    """{group: (its GROUP_KEYS, its members, its partitions' PART_KEYS)} of a --once JSON document."""
    out = {}
    for g in doc.get("groups", []):
        members = sorted(json.dumps(m, sort_keys=True) for m in g.get("member_list", []))
        parts = sorted(tuple(p.get(k) for k in PART_KEYS) for p in g.get("partitions", []))
        out[g["group"]] = (tuple(g.get(k) for k in GROUP_KEYS), tuple(members), tuple(parts))
    return out


def diff_by_key(a, b, names=("steady", "polled")):
    """The keys where dicts a and b differ, two lines each (named by names), or "equal"."""
    lines = []
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
            lines.append("%s: %s %r" % (key, names[0], a.get(key)))
            lines.append("%s: %s %r" % (key, names[1], b.get(key)))
    return "\n".join(lines) or "equal"


def json_differences(refs, others):
    """Two reference documents (refs) and others, read on the same cluster: the paths (flat()) where an other
    differs from refs[0], leaving out what differs between the two references or is measured on the run's
    own clock (RUN_CLOCK). Returns (differing paths, the volatile paths, the number of reference paths)."""
    ref = [flat(r) for r in refs]
    volatile = {k for k in set(ref[0]) | set(ref[1])
                if ref[0].get(k) != ref[1].get(k) or k.rsplit("/", 1)[-1] in RUN_CLOCK}
    diff = []
    for doc in others:
        a = flat(doc)
        diff += [k for k in sorted(set(a) | set(ref[0])) if k not in volatile and a.get(k) != ref[0].get(k)]
    return diff, volatile, len(ref[0])
