#!/usr/bin/python3
"""kafka_cluster.py — real Apache Kafka brokers for the test suite, on 127.0.0.1 only.

As a library (the tests):

    from kafka_cluster import KafkaCluster, prerequisite
    with KafkaCluster("4", nodes=1) as kc:        # "4" = the pinned 4.x line, "3.9" = the pinned 3.9.x
        kc.bootstrap                                # "127.0.0.1:P"
        rc, out, err = kc.consumer_groups("--describe", "--group", "g")   # the real kafka-consumer-groups
        kc.stop_node(2); kc.start_node(2)           # a broker outage (3-node clusters)

    # secured listeners beside the PLAINTEXT one (which the harness and the tools keep using as a super user)
    sec = Security(scram={"alice": "alice-pw"}, authorizer=True,
                   listeners=[("SASL_PLAINTEXT", "SASL_PLAINTEXT", {}), ("SASL_SSL", "SASL_SSL", {}),
                              ("MTLS", "SSL", {"client_auth": "required"}), ("BADHOST", "SSL", {"cert": "wrong-host"})])
    with KafkaCluster("4", security=sec) as kc:
        kc.listener("SASL_SSL")                     # "127.0.0.1:P" of that listener
        kc.tls.ca, kc.tls.client_cert, kc.tls.client_key   # PEM files made with openssl (Security.tls)
        kc.acls("--add", "--allow-principal", "User:alice", "--operation", "Describe", "--group", "app-",
                "--resource-pattern-type", "prefixed")     # the real kafka-acls, as a super user

As a script (by hand):

    tests/lib/kafka_cluster.py start [--line 4|3.9] [--nodes N] [--dir DIR]   # prints "ready bootstrap=..."
    tests/lib/kafka_cluster.py stop --dir DIR                                   # stops by pid, removes DIR
    tests/lib/kafka_cluster.py consumer-groups --line 4 -- --bootstrap-server B --list

The jars come from Maven Central through tests/kafka/pom.xml (versions pinned there, one profile per
line) and stay in Maven's local repository; the resolved class path is cached under LT_BUILDDIR (or
tests/kafka, beside the pom.xml and the Java clients) per pom.xml content. Each broker runs KRaft combined mode (broker and controller in one
JVM) in a temporary directory with free loopback ports and a small heap, and everything it leaves is
removed on stop.
"""
import base64
import fcntl
import hashlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# pom.xml, requirements.txt and the Java clients stay with the real-Kafka tests
KAFKA_DIR = os.path.join(os.path.dirname(HERE), "kafka")
POM = os.path.join(KAFKA_DIR, "pom.xml")
LINES = {"4": "kafka4", "3.9": "kafka39"}  # line -> Maven profile in pom.xml

# A small heap and a quick-starting JIT: the suite runs two brokers at once on a 2-core machine.
BROKER_JVM = ["-Xms128m", "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
              "-Djava.awt.headless=true"]
TOOL_JVM = ["-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
            "-Djava.awt.headless=true"]

# `make distcheck` (configure --disable-kafka-tests) checks a release tarball without brokers: every
# real-Kafka test, importing this file, skips in one line then, under CI=true too.
if os.environ.get("LAGTOP_KAFKA_TESTS") == "no" and __name__ != "__main__":
    print("1..0 # SKIP real-Kafka tests disabled (configure --disable-kafka-tests)")
    sys.exit(0)

START_TIMEOUT = 90  # seconds for a node to say it started (a cold JVM on a loaded 2-core machine)
# free_ports() closes its sockets before a node binds them: a test running beside may take one in between
# (seen once in CI: "Kafka 4 starts" failed on a BindException). A start that lost a port that way is
# tried again on new ports, at most this many times in all.
START_ATTEMPTS = 3


class Unavailable(Exception):
    """A prerequisite (java, mvn, the jars) is missing: the test skips, or fails under CI=true."""


def prerequisite(what):
    """Print TAP for a missing prerequisite and exit: a failure under CI=true, a skip elsewhere."""
    if os.environ.get("CI") == "true":
        print("1..1")
        print("not ok 1 - prerequisite: %s" % what)
        sys.exit(1)
    print("1..0 # SKIP %s" % what)
    sys.exit(0)


def lagtop_librdkafka(binary):
    """(major, minor, patch) of the librdkafka the lagtop binary runs on, from `lagtop --version`'s second
    line (rd_kafka_version_str() of the library in use: the bundled one is linked into the binary, so no
    ldd names it); None if it cannot be told."""
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30,
                             stdin=subprocess.DEVNULL).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"^librdkafka (\d+)\.(\d+)\.(\d+)\S*; newer APIs:", out, re.M)
    return tuple(int(x) for x in m.groups()) if m else None


def _cache_dir():
    base = os.environ.get("LT_BUILDDIR") or KAFKA_DIR
    d = os.path.join(base, "tests", "kafka", "cache") if os.environ.get("LT_BUILDDIR") else \
        os.path.join(KAFKA_DIR, "cache")
    os.makedirs(d, exist_ok=True)
    return d


def _which(prog):
    p = shutil.which(prog)
    if not p:
        raise Unavailable("%s not found (Debian packages openjdk-17-jdk-headless and maven; "
                          "./autogen.sh --install-deps installs them)" % prog)
    return p


def classpath(line):
    """The class path of the pinned Kafka `line` ("4" or "3.9"), resolved once per pom.xml content.

    Resolution is serialised with a lock, since tests run in parallel and share the cache."""
    if line not in LINES:
        raise ValueError("unknown Kafka line %r (known: %s)" % (line, ", ".join(sorted(LINES))))
    with open(POM, "rb") as f:
        tag = hashlib.sha256(f.read()).hexdigest()[:12]
    cache = _cache_dir()
    out = os.path.join(cache, "classpath-%s-%s.txt" % (LINES[line], tag))
    with open(os.path.join(cache, "resolve.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(out):
            _mvn_classpath(["-P", LINES[line]], out, "Kafka %s" % line)
    with open(out) as f:
        return f.read().strip()


def _mvn_classpath(args, out, what):
    """Writes the class path of pom.xml's profile (args) to `out`. A download from Maven Central can fail
    for a moment (a dropped connection, another Maven writing the same artifact into ~/.m2): up to three
    tries, a few seconds apart; the error names what could not be resolved and Maven's own [ERROR] lines."""
    _which("java")
    mvn = _which("mvn")
    tmp = out + ".tmp"
    errors = []
    for attempt in range(3):
        if attempt:
            time.sleep(5 * attempt)
        p = subprocess.run([mvn, "-B", "--no-transfer-progress", "-f", POM] + args +
                           ["dependency:build-classpath", "-Dmdep.outputFile=" + tmp],
                           capture_output=True, text=True, timeout=900)
        if p.returncode == 0 and os.path.exists(tmp):
            os.replace(tmp, out)
            return
        # Debian's Maven colours its output whatever it is told: the escapes go before the lines are read
        lines = re.sub(r"\x1b\[[0-9;]*m", "", p.stdout + p.stderr).strip().splitlines()
        errors = [ln for ln in lines if ln.startswith("[ERROR]")][:3] or lines[-3:]
    raise Unavailable("Maven could not resolve %s (3 tries): %s" % (what, " | ".join(errors)))


def jmx_exporter_agent():
    """The path of the Prometheus JMX exporter's Java agent jar pinned in pom.xml (profile jmx-exporter),
    resolved once per pom.xml content."""
    with open(POM, "rb") as f:
        tag = hashlib.sha256(f.read()).hexdigest()[:12]
    cache = _cache_dir()
    out = os.path.join(cache, "jmx-exporter-%s.txt" % tag)
    with open(os.path.join(cache, "resolve.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(out):
            _mvn_classpath(["-P", "kafka4,jmx-exporter", "-DincludeArtifactIds=jmx_prometheus_javaagent"], out,
                           "the JMX exporter agent")
    with open(out) as f:
        jars = [j for j in f.read().strip().split(os.pathsep) if "jmx_prometheus_javaagent" in os.path.basename(j)]
    if len(jars) != 1 or not os.path.exists(jars[0]):
        raise Unavailable("the JMX exporter agent did not resolve to one jar (%r)" % jars)
    return jars[0]


def java_classes(line):
    """Compiles tests/kafka/*.java (the reference Java clients) against `line`'s jars; returns a class path
    with them in front."""
    cp = classpath(line)
    srcs = sorted(os.path.join(KAFKA_DIR, n) for n in os.listdir(KAFKA_DIR) if n.endswith(".java"))
    h = hashlib.sha256(cp.encode())
    for s in srcs:
        with open(s, "rb") as f:
            h.update(f.read())
    outdir = os.path.join(_cache_dir(), "classes-%s-%s" % (LINES[line], h.hexdigest()[:12]))
    with open(os.path.join(_cache_dir(), "javac.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.isdir(outdir):
            tmp = outdir + ".tmp"
            shutil.rmtree(tmp, ignore_errors=True)
            os.makedirs(tmp)
            p = subprocess.run([_which("javac"), "-nowarn", "-d", tmp, "-cp", cp] + srcs, capture_output=True,
                               text=True, timeout=300)
            if p.returncode != 0:
                raise RuntimeError("javac failed: " + p.stderr[-2000:])
            os.replace(tmp, outdir)
    return outdir + ":" + cp


def confluent_python():
    """The interpreter of a virtual environment with tests/kafka/requirements.txt installed (made once per
    requirements content, from Debian's python3 with its site packages: kafka-python is there too)."""
    req = os.path.join(KAFKA_DIR, "requirements.txt")
    with open(req, "rb") as f:
        tag = hashlib.sha256(f.read()).hexdigest()[:12]
    venv = os.path.join(_cache_dir(), "venv-" + tag)
    py = os.path.join(venv, "bin", "python")
    with open(os.path.join(_cache_dir(), "venv.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(os.path.join(venv, "ready")):
            shutil.rmtree(venv, ignore_errors=True)
            base = os.environ.get("DEBIAN_PYTHON") or "/usr/bin/python3"
            p = subprocess.run([base, "-m", "venv", "--system-site-packages", venv], capture_output=True,
                               text=True, timeout=300)
            if p.returncode != 0:
                raise Unavailable("cannot create a virtual environment (Debian package python3-venv): " +
                                  (p.stderr.strip().splitlines() or ["?"])[-1])
            p = subprocess.run([py, "-m", "pip", "install", "-q", "--disable-pip-version-check", "-r", req],
                               capture_output=True, text=True, timeout=900)
            if p.returncode != 0:
                raise Unavailable("pip could not install %s: %s" % (os.path.basename(req),
                                                                    (p.stderr.strip().splitlines() or ["?"])[-1]))
            open(os.path.join(venv, "ready"), "w").close()
    return py


def free_ports(n):
    """n distinct free TCP ports on 127.0.0.1 (held open together so they differ)."""
    socks = []
    try:
        for _ in range(n):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def _cluster_id():
    # Kafka's Uuid text form: 16 random bytes, URL-safe base64 without padding (22 characters). Like Kafka's
    # Uuid.randomUuid, never one that starts with '-': the storage tool would read it as an option
    # ("argument --cluster-id/-t: expected one argument", one start in 64).
    while True:
        text = base64.urlsafe_b64encode(os.urandom(16)).decode().rstrip("=")
        if not text.startswith("-"):
            return text


LOG4J1 = """log4j.rootLogger=INFO, file
log4j.appender.file=org.apache.log4j.FileAppender
log4j.appender.file.File={log}
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.org.apache.kafka.raft=WARN
log4j.logger.kafka.log.LogCleaner=WARN
"""

LOG4J2 = """status = warn
appender.file.type = File
appender.file.name = file
appender.file.fileName = {log}
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = info
rootLogger.appenderRef.file.ref = file
logger.raft.name = org.apache.kafka.raft
logger.raft.level = warn
"""

# Tools print only warnings and errors to stderr, like the shipped tools-log4j configuration.
TOOLS_LOG4J1 = """log4j.rootLogger=WARN, stderr
log4j.appender.stderr=org.apache.log4j.ConsoleAppender
log4j.appender.stderr.Target=System.err
log4j.appender.stderr.layout=org.apache.log4j.PatternLayout
log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n
"""

# follow = true: the appender writes to System.err as it is at each line, so a JVM that runs a tool many
# times with its own stderr each (kafka_tool_batch.py) gets every run's warnings in that run's stderr.
TOOLS_LOG4J2 = """status = warn
appender.stderr.type = Console
appender.stderr.name = stderr
appender.stderr.target = SYSTEM_ERR
appender.stderr.follow = true
appender.stderr.layout.type = PatternLayout
appender.stderr.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = warn
rootLogger.appenderRef.stderr.ref = stderr
"""

class Tls:
    """A test CA and certificates made with openssl (Debian's) in `d`, all PEM, keys unencrypted PKCS#8:
    ca (CA certificate), broker_keystore (key + chain for 127.0.0.1 and localhost), wrong_keystore (a
    certificate for wrong.invalid only, signed by the same CA), client_cert/client_key (CN=client_cn,
    for mutual TLS), other_ca (a CA nobody signed with)."""

    def __init__(self, d, client_cn="lagtop-client"):
        self.dir = d
        os.makedirs(d, exist_ok=True)
        self.openssl = shutil.which("openssl")
        if not self.openssl:
            raise Unavailable("openssl not found (Debian package openssl)")
        self.ca = self._ca("ca", "lagtop test CA")
        self.other_ca = self._ca("other-ca", "lagtop unrelated CA")
        self.broker_cert, self.broker_key = self._leaf("broker", "localhost",
                                                       "subjectAltName=IP:127.0.0.1,DNS:localhost")
        self.wrong_cert, self.wrong_key = self._leaf("wrong-host", "wrong.invalid",
                                                     "subjectAltName=DNS:wrong.invalid")
        self.client_cert, self.client_key = self._leaf("client", client_cn, None)
        self.broker_keystore = self._keystore("broker")
        self.wrong_keystore = self._keystore("wrong-host")

    def _run(self, *args):
        p = subprocess.run([self.openssl] + list(args), capture_output=True, text=True, timeout=60,
                           stdin=subprocess.DEVNULL)
        if p.returncode != 0:
            raise RuntimeError("openssl %s failed: %s" % (args[0], p.stderr[-1000:]))

    def _ca(self, name, cn):
        key, crt = os.path.join(self.dir, name + ".key"), os.path.join(self.dir, name + ".pem")
        self._run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", crt, "-days", "2",
                  "-subj", "/CN=" + cn, "-addext", "basicConstraints=critical,CA:TRUE",
                  "-addext", "keyUsage=critical,keyCertSign,cRLSign")
        return crt

    def _leaf(self, name, cn, san):
        key, csr, crt = (os.path.join(self.dir, name + ext) for ext in (".key", ".csr", ".pem"))
        ext = os.path.join(self.dir, name + ".ext")
        with open(ext, "w") as f:
            f.write("basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth,clientAuth\n")
            if san:
                f.write(san + "\n")
        self._run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr, "-subj",
                  "/CN=%s/O=lagtop tests" % cn)
        self._run("x509", "-req", "-in", csr, "-CA", self.ca, "-CAkey", os.path.join(self.dir, "ca.key"),
                  "-CAcreateserial", "-out", crt, "-days", "2", "-extfile", ext)
        os.chmod(key, 0o600)
        return crt, key

    def _keystore(self, name):
        """Kafka's PEM key store: the private key, then the certificate chain, in one file."""
        path = os.path.join(self.dir, name + "-keystore.pem")
        with open(path, "w") as out:
            for part in (name + ".key", name + ".pem", "ca.pem"):
                with open(os.path.join(self.dir, part)) as f:
                    out.write(f.read())
        os.chmod(path, 0o600)
        return path


class Security:
    """Secured listeners for a KafkaCluster, beside its PLAINTEXT listener (which inter-broker traffic, the
    harness and the real tools keep using; its principal, User:ANONYMOUS, is a super user).

    listeners: (NAME, PROTOCOL, options) with PROTOCOL one of SASL_PLAINTEXT, SASL_SSL, SSL; options:
      "client_auth": "none" | "requested" | "required" (SSL listeners; default none),
      "cert": "wrong-host" (serve the certificate for wrong.invalid instead of 127.0.0.1/localhost).
    scram: {user: password}, SCRAM-SHA-512 credentials written by the storage tool at format time
      (`format --add-scram 'SCRAM-SHA-512=[name=U,password=P]'`), so they exist before the first start.
    authorizer: the KRaft StandardAuthorizer with allow.everyone.if.no.acl.found=false; super users are
      User:ANONYMOUS (the PLAINTEXT and controller listeners) and `super_users`.
    SSL principals are the certificate's CN (ssl.principal.mapping.rules)."""

    def __init__(self, listeners=(), scram=None, authorizer=False, super_users=(), client_cn="lagtop-client"):
        self.listeners = [(n.upper(), proto.upper(), dict(opts or {})) for n, proto, opts in listeners]
        for n, proto, _ in self.listeners:
            if proto not in ("SASL_PLAINTEXT", "SASL_SSL", "SSL"):
                raise ValueError("listener %s: unknown protocol %s" % (n, proto))
            if n in ("PLAINTEXT", "CONTROLLER"):
                raise ValueError("listener name %s is the harness's own" % n)
        self.scram = dict(scram or {})
        self.authorizer = authorizer
        self.super_users = list(super_users)
        self.client_cn = client_cn

    def needs_tls(self):
        return any(proto in ("SASL_SSL", "SSL") for _, proto, _ in self.listeners)

    def broker_props(self, tls, addr):
        """Broker settings for these listeners; addr(name) -> "127.0.0.1:P"."""
        props = {}
        if any(proto.startswith("SASL") for _, proto, _ in self.listeners):
            props["sasl.enabled.mechanisms"] = "SCRAM-SHA-512"
        for name, proto, opts in self.listeners:
            pre = "listener.name.%s." % name.lower()
            if proto.startswith("SASL"):
                props[pre + "scram-sha-512.sasl.jaas.config"] = \
                    "org.apache.kafka.common.security.scram.ScramLoginModule required;"
            if proto in ("SASL_SSL", "SSL"):
                wrong = opts.get("cert") == "wrong-host"
                props[pre + "ssl.keystore.type"] = "PEM"
                props[pre + "ssl.keystore.location"] = tls.wrong_keystore if wrong else tls.broker_keystore
                props[pre + "ssl.truststore.type"] = "PEM"
                props[pre + "ssl.truststore.location"] = tls.ca
                props[pre + "ssl.client.auth"] = opts.get("client_auth", "none")
        if tls is not None:
            props["ssl.principal.mapping.rules"] = "RULE:^(.*,)?CN=([^,]+)(,.*)?$/$2/,DEFAULT"
        if self.authorizer:
            props["authorizer.class.name"] = "org.apache.kafka.metadata.authorizer.StandardAuthorizer"
            props["allow.everyone.if.no.acl.found"] = "false"
            props["super.users"] = ";".join(["User:ANONYMOUS"] + ["User:" + u for u in self.super_users])
        return props


class KafkaCluster:
    """N KRaft combined-mode nodes (broker + controller each) on 127.0.0.1.

    extra: broker settings added to (or replacing) the defaults, e.g. {"offsets.retention.minutes": "1"}.
    security: a Security (secured listeners, SCRAM users, the authorizer); None: PLAINTEXT only, as before.
    """

    def __init__(self, line="4", nodes=1, extra=None, workdir=None, keep_dir=False, security=None):
        if line not in LINES:
            raise ValueError("unknown Kafka line %r" % line)
        self.line = line
        self.nodes = nodes
        self.extra = dict(extra or {})
        self.cp = None
        self.dir = workdir
        self.keep_dir = keep_dir
        self.procs = {}   # node id -> Popen
        self.ports = {}   # node id -> (broker port, controller port)
        self.log_from = {}  # node id -> size of its server.log when it was last launched
        self.bootstrap = None
        self.cluster_id = _cluster_id()
        self.version = None
        self.started_in = None  # seconds from launch to every node ready
        self.security = security
        self.tls = None         # a Tls when a secured listener needs one
        self.sec_ports = {}     # node id -> {listener name: port}

    # ---- life cycle ----
    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def start(self):
        self.cp = classpath(self.line)
        self.version = self._version_from_classpath()
        if self.dir is None:
            self.dir = tempfile.mkdtemp(prefix="lagtop-kafka%s-" % self.line.replace(".", ""))
        t0 = time.monotonic()
        for attempt in range(1, START_ATTEMPTS + 1):
            try:
                self._start_nodes(time.monotonic())  # each attempt its own START_TIMEOUT
                break
            except RuntimeError:
                if attempt < START_ATTEMPTS and self._lost_a_port():
                    self._stop_nodes()
                    shutil.rmtree(self.dir, ignore_errors=True)  # a fresh start: formatted anew
                    os.makedirs(self.dir, exist_ok=True)
                    continue
                self.stop()
                raise
            except BaseException:
                self.stop()
                raise
        self.started_in = time.monotonic() - t0
        return self

    def _lost_a_port(self):
        """Whether a node failed to start because its port was taken (Kafka logs a BindException)."""
        for i in self.ports:
            for name in ("server.log", "stdout.log"):
                try:
                    with open(os.path.join(self.node_dir(i), name), errors="replace") as f:
                        if "Address already in use" in f.read():
                            return True
                except FileNotFoundError:
                    pass
        return False

    def _start_nodes(self, t0):
        """Picks the ports, writes and formats every node, launches them and waits until each started."""
        ports = free_ports(2 * self.nodes)
        for i in range(1, self.nodes + 1):
            self.ports[i] = (ports[2 * (i - 1)], ports[2 * (i - 1) + 1])
        self.bootstrap = ",".join("127.0.0.1:%d" % self.ports[i][0] for i in sorted(self.ports))
        if self.security is not None:
            names = [n for n, _, _ in self.security.listeners]
            extra_ports = free_ports(len(names) * self.nodes) if names else []
            for i in sorted(self.ports):
                self.sec_ports[i] = {n: extra_ports.pop(0) for n in names}
            if self.security.needs_tls():
                self.tls = Tls(os.path.join(self.dir, "tls"), self.security.client_cn)
        for i in sorted(self.ports):
            self._write_config(i)
            self._format(i)
        for i in sorted(self.ports):
            self._launch(i)
        for i in sorted(self.ports):
            self._wait_started(i, t0 + START_TIMEOUT)

    def stop(self):
        """Stops every node (SIGTERM to all at once, then SIGKILL to those still there after 30 s) and removes
        the directory. All at once: one by one, the last node of a 3-node quorum has lost its majority and
        waits out the whole 30 s (measured: 0.4 s, 0.3 s, 30 s one by one; 5 s together)."""
        self._stop_nodes()
        if self.dir and not self.keep_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    def _stop_nodes(self):
        procs = [self.procs.pop(i) for i in list(self.procs)]
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 30
        for p in procs:
            try:
                p.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()

    def stop_node(self, node, kill=False):
        p = self.procs.pop(node, None)
        if p is None:
            return
        if p.poll() is None:
            p.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()

    def start_node(self, node):
        """Starts a stopped node again (same ports, same data) and waits until it says it started."""
        if node in self.procs:
            return
        self._launch(node)
        self._wait_started(node, time.monotonic() + START_TIMEOUT)

    # ---- pieces ----
    def _version_from_classpath(self):
        for jar in self.cp.split(":"):
            base = os.path.basename(jar)
            if base.startswith("kafka_2.13-") and base.endswith(".jar"):
                return base[len("kafka_2.13-"):-len(".jar")]
        return "?"

    def node_dir(self, node):
        return os.path.join(self.dir, "node%d" % node)

    def log_path(self, node):
        return os.path.join(self.node_dir(node), "server.log")

    def _write_config(self, node):
        d = self.node_dir(node)
        os.makedirs(os.path.join(d, "data"), exist_ok=True)
        bport, cport = self.ports[node]
        voters = ",".join("%d@127.0.0.1:%d" % (i, self.ports[i][1]) for i in sorted(self.ports))
        rf = "1" if self.nodes == 1 else str(min(3, self.nodes))
        props = {
            "process.roles": "broker,controller",
            "node.id": str(node),
            "controller.quorum.voters": voters,
            "listeners": "PLAINTEXT://127.0.0.1:%d,CONTROLLER://127.0.0.1:%d" % (bport, cport),
            "advertised.listeners": "PLAINTEXT://127.0.0.1:%d" % bport,
            "controller.listener.names": "CONTROLLER",
            "inter.broker.listener.name": "PLAINTEXT",
            "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
            "log.dirs": os.path.join(d, "data"),
            "num.partitions": "1",
            "offsets.topic.replication.factor": rf,
            "offsets.topic.num.partitions": "10",
            "transaction.state.log.replication.factor": rf,
            "transaction.state.log.min.isr": "1",
            "group.initial.rebalance.delay.ms": "0",
            "num.network.threads": "2",
            "num.io.threads": "2",
            "log.segment.bytes": str(16 * 1024 * 1024),
        }
        if self.line != "3.9":
            props["share.coordinator.state.topic.replication.factor"] = rf
            props["share.coordinator.state.topic.min.isr"] = "1"
        if self.security is not None and self.security.listeners:
            sec = self.security.listeners
            mine = self.sec_ports[node]
            props["listeners"] += "".join(",%s://127.0.0.1:%d" % (n, mine[n]) for n, _, _ in sec)
            props["advertised.listeners"] += "".join(",%s://127.0.0.1:%d" % (n, mine[n]) for n, _, _ in sec)
            props["listener.security.protocol.map"] += "".join(",%s:%s" % (n, proto) for n, proto, _ in sec)
        if self.security is not None:
            props.update(self.security.broker_props(self.tls, self.listener))
        props.update(self.extra)
        with open(os.path.join(d, "server.properties"), "w") as f:
            for k in sorted(props):
                f.write("%s=%s\n" % (k, props[k]))
        with open(os.path.join(d, "log4j.properties"), "w") as f:
            f.write(LOG4J1.format(log=self.log_path(node)))
        with open(os.path.join(d, "log4j2.properties"), "w") as f:
            f.write(LOG4J2.format(log=self.log_path(node)))

    def _jvm(self, node, opts):
        d = self.node_dir(node)
        return [_which("java")] + opts + [
            "-Dlog4j.configuration=file:" + os.path.join(d, "log4j.properties"),
            "-Dlog4j2.configurationFile=" + os.path.join(d, "log4j2.properties"),
            "-Dkafka.logs.dir=" + d,
            "-cp", self.cp]

    def _format(self, node):
        d = self.node_dir(node)
        cmd = self._jvm(node, TOOL_JVM) + ["kafka.tools.StorageTool", "format", "-t", self.cluster_id,
                                           "-c", os.path.join(d, "server.properties"), "--ignore-formatted"]
        for user, password in sorted((self.security.scram if self.security else {}).items()):
            cmd += ["--add-scram", "SCRAM-SHA-512=[name=%s,password=%s]" % (user, password)]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            raise RuntimeError("formatting node %d failed: %s" % (node, (p.stdout + p.stderr)[-2000:]))

    def _launch(self, node):
        d = self.node_dir(node)
        # a restarted node appends to the same log: only what it writes from here on tells it started
        try:
            self.log_from[node] = os.path.getsize(self.log_path(node))
        except OSError:
            self.log_from[node] = 0
        out = open(os.path.join(d, "stdout.log"), "ab")
        self.procs[node] = subprocess.Popen(
            self._jvm(node, BROKER_JVM) + ["kafka.Kafka", os.path.join(d, "server.properties")],
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        out.close()
        with open(os.path.join(d, "pid"), "w") as f:
            f.write("%d\n" % self.procs[node].pid)

    def _wait_started(self, node, deadline):
        log = self.log_path(node)
        p = self.procs[node]
        while time.monotonic() < deadline:
            if p.poll() is not None:
                raise RuntimeError("node %d exited with %s during start: %s" % (node, p.returncode,
                                                                                 self._tail(node)))
            try:
                with open(log, "rb") as f:
                    start = self.log_from.get(node, 0)
                    f.seek(start if os.fstat(f.fileno()).st_size >= start else 0)  # (unless it was truncated)
                    if b"Kafka Server started" in f.read():
                        return
            except FileNotFoundError:
                pass
            time.sleep(0.2)
        raise RuntimeError("node %d did not start within %d s: %s" % (node, START_TIMEOUT, self._tail(node)))

    def _tail(self, node, n=15):
        text = ""
        for name in ("server.log", "stdout.log"):
            try:
                with open(os.path.join(self.node_dir(node), name), errors="replace") as f:
                    text += "\n".join(f.read().splitlines()[-n:]) + "\n"
            except FileNotFoundError:
                pass
        return text

    def listener(self, name):
        """The bootstrap list ("127.0.0.1:P,...") of a secured listener."""
        return ",".join("127.0.0.1:%d" % self.sec_ports[i][name.upper()] for i in sorted(self.sec_ports))

    # ---- the real tools ----
    def acls(self, *args, timeout=120):
        """The real kafka-acls (org.apache.kafka.tools.AclCommand in 4.x, kafka.admin.AclCommand in 3.9) through
        the PLAINTEXT listener, whose principal is a super user."""
        main = "kafka.admin.AclCommand" if self.line == "3.9" else "org.apache.kafka.tools.AclCommand"
        return self.tool(main, "--bootstrap-server", self.bootstrap, *args, timeout=timeout)

    def tool(self, main_class, *args, timeout=120):
        """Runs a Kafka tool's main class in its own JVM; returns (rc, stdout, stderr)."""
        return run_tool(self.line, main_class, *args, timeout=timeout)

    def consumer_groups(self, *args, timeout=120):
        """The real kafka-consumer-groups.sh against this cluster."""
        return self.tool("org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
                         "--bootstrap-server", self.bootstrap, *args, timeout=timeout)

    def java_client(self, main_class, *args, **popen):
        """Starts a reference Java client from tests/kafka/*.java (Popen, text mode)."""
        cp = java_classes(self.line)
        cmd = [_which("java")] + TOOL_JVM + ["-cp", cp, main_class, self.bootstrap] + list(args)
        popen.setdefault("stdin", subprocess.PIPE)
        popen.setdefault("stdout", subprocess.PIPE)
        popen.setdefault("text", True)
        return subprocess.Popen(cmd, **popen)


def create_topic(bootstrap, name, partitions, per_partition=0, timestamps=None, api_version=(2, 5, 0)):
    """Creates a topic with kafka-python (Debian's) and writes per_partition records to each partition,
    each send confirmed (a send right after creation can meet a partition without a leader yet: retried).
    timestamps(partition, i) -> ms gives CreateTime timestamps (None: the producer's clock)."""
    from kafka import KafkaAdminClient, KafkaProducer
    from kafka.admin import NewTopic
    admin = KafkaAdminClient(bootstrap_servers=bootstrap.split(","), api_version=api_version)
    try:
        admin.create_topics([NewTopic(name, partitions, 1)])
    finally:
        admin.close()
    if not per_partition:
        return
    prod = KafkaProducer(bootstrap_servers=bootstrap.split(","), api_version=api_version, retries=20,
                         retry_backoff_ms=100, acks=1, linger_ms=5)
    try:
        deadline = time.monotonic() + 30
        while (prod.partitions_for(name) or set()) != set(range(partitions)):
            if time.monotonic() > deadline:
                raise RuntimeError("topic %s: partitions never appeared in metadata" % name)
            time.sleep(0.1)
        futs = []
        for p in range(partitions):
            for i in range(per_partition):
                ts = timestamps(p, i) if timestamps else None
                futs.append(prod.send(name, b"r%d-%d" % (p, i), partition=p, timestamp_ms=ts))
        prod.flush(60)
        for f in futs:
            f.get(timeout=30)  # raises on a failed send
    finally:
        prod.close()


class EventProcess:
    """A client process that prints its events one a line on stdout and quits on "quit" on stdin (RefConsumer.java,
    kafka_member.py): its lines are read as they come; wait_for() waits for one, bounded; stop() reaps it."""

    def __init__(self, p, wait_timeout=60):
        import queue
        import threading
        self.p = p
        self.wait_timeout = wait_timeout
        self.lines = queue.Queue()
        self.seen = []

        def pump():
            for line in self.p.stdout:
                self.lines.put(line.strip())
            self.lines.put(None)

        threading.Thread(target=pump, daemon=True).start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    def wait_for(self, prefix, timeout=None):
        """The first new stdout line starting with prefix (None on timeout or exit)."""
        import queue
        deadline = time.monotonic() + (self.wait_timeout if timeout is None else timeout)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                return None
            self.seen.append(line)
            if line.startswith(prefix):
                return line

    def stop(self, timeout=30):
        """Asks it to close (it leaves the group), then kills it if it does not exit in time."""
        if self.p.poll() is None:
            try:
                self.p.stdin.write("quit\n")
                self.p.stdin.close()
            except (BrokenPipeError, ValueError):
                pass
            try:
                self.p.wait(timeout)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        return self.p.returncode

    def kill(self):
        """Dies without leaving the group (the broker notices at the session timeout)."""
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()


class Member(EventProcess):
    """A real group member in its own process: kind "java" (RefConsumer.java, kafka-clients of the cluster's
    line), "confluent" (confluent-kafka, a current librdkafka) or "kafka-python" (Debian's). protocol is
    "classic" or "consumer" (KIP-848; java and confluent only, Kafka 4.x).

        with Member(kc, "java", "g1", ["orders"], protocol="consumer") as m:
            m.wait_assigned()          # blocks until the group gave it partitions (bounded)
    Leaving the block closes the consumer cleanly (it leaves the group) and reaps the process."""

    def __init__(self, kc, kind, group, topics, protocol="classic", commit=True, client_id=None, extra=None):
        self.kind = kind
        if kind == "java":
            args = [group, protocol, ",".join(topics)] + ["%s=%s" % kv for kv in sorted((extra or {}).items())]
            if client_id:
                args.append("client.id=" + client_id)
            if not commit:
                raise ValueError("RefConsumer always commits")
            p = kc.java_client("RefConsumer", *args, stderr=subprocess.DEVNULL)
        else:
            py = confluent_python() if kind == "confluent" else (os.environ.get("DEBIAN_PYTHON") or "/usr/bin/python3")
            cmd = [py, os.path.join(HERE, "kafka_member.py"), "--client", kind, "--bootstrap", kc.bootstrap, "--group",
                   group, "--topics", ",".join(topics), "--protocol", protocol]
            if not commit:
                cmd.append("--no-commit")
            if client_id:
                cmd += ["--client-id", client_id]
            p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 text=True)
        super().__init__(p)

    def wait_assigned(self, timeout=60):
        return self.wait_for("assigned ", timeout)


def tool_log_args():
    """The JVM options that send a tool's logging (warnings and errors only) to its stderr."""
    logdir = _cache_dir()
    for name, text in (("tools-log4j.properties", TOOLS_LOG4J1), ("tools-log4j2-v2.properties", TOOLS_LOG4J2)):
        path = os.path.join(logdir, name)
        if not os.path.exists(path):
            with open(path + ".%d" % os.getpid(), "w") as f:
                f.write(text)
            os.replace(path + ".%d" % os.getpid(), path)
    return ["-Dlog4j.configuration=file:" + os.path.join(logdir, "tools-log4j.properties"),
            "-Dlog4j2.configurationFile=" + os.path.join(logdir, "tools-log4j2-v2.properties")]


def run_tool(line, main_class, *args, timeout=120):
    cp = classpath(line)
    cmd = [_which("java")] + TOOL_JVM + tool_log_args() + ["-cp", cp, main_class] + list(args)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


# ---- the script ----
def _main(argv):
    import argparse
    ap = argparse.ArgumentParser(prog="kafka_cluster.py", description="Real Kafka brokers for lagtop's tests")
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("start", help="start a cluster in the background; prints 'ready bootstrap=...'")
    s.add_argument("--line", default="4", choices=sorted(LINES))
    s.add_argument("--nodes", type=int, default=1)
    s.add_argument("--dir", help="working directory (default: a new temporary one)")
    t = sub.add_parser("stop", help="stop the cluster started in DIR and remove DIR")
    t.add_argument("--dir", required=True)
    c = sub.add_parser("consumer-groups", help="run the real kafka-consumer-groups")
    c.add_argument("--line", default="4", choices=sorted(LINES))
    c.add_argument("args", nargs=argparse.REMAINDER)
    r = sub.add_parser("classpath", help="print the resolved class path of a line")
    r.add_argument("--line", default="4", choices=sorted(LINES))
    a = ap.parse_args(argv)
    try:
        if a.cmd == "start":
            if a.dir:
                os.makedirs(a.dir, exist_ok=True)
            kc = KafkaCluster(a.line, nodes=a.nodes, workdir=a.dir, keep_dir=True)
            kc.start()
            with open(os.path.join(kc.dir, "bootstrap"), "w") as f:
                f.write(kc.bootstrap + "\n")
            kc.procs.clear()  # leave them running; `stop --dir` ends them by pid
            print("ready bootstrap=%s dir=%s version=%s started_in=%.1fs" % (kc.bootstrap, kc.dir, kc.version,
                                                                            kc.started_in))
            return 0
        if a.cmd == "stop":
            return _stop_dir(a.dir)
        if a.cmd == "consumer-groups":
            args = a.args[1:] if a.args[:1] == ["--"] else a.args
            rc, out, err = run_tool(a.line, "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand", *args)
            sys.stdout.write(out)
            sys.stderr.write(err)
            return rc
        if a.cmd == "classpath":
            print(classpath(a.line))
            return 0
    except Unavailable as e:
        print("kafka_cluster.py: %s" % e, file=sys.stderr)
        return 1
    return 2


def _stop_dir(d):
    if not os.path.isdir(d) or not os.path.exists(os.path.join(d, "bootstrap")):
        print("kafka_cluster.py: %s is not a cluster directory (no 'bootstrap' file)" % d, file=sys.stderr)
        return 2
    pids = []
    for name in sorted(os.listdir(d)):
        pidfile = os.path.join(d, name, "pid")
        if os.path.exists(pidfile):
            with open(pidfile) as f:
                pids.append(int(f.read().strip()))
    for pid in pids:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + 30
    for pid in pids:
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    shutil.rmtree(d, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
