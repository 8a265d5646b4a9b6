#!/usr/bin/python3
"""test_deb_root.py — the Debian package (make deb) installed where nothing else is: a minimal Debian 12 root
(mmdebstrap --variant=minbase bookworm, from Debian's packages), into which `apt-get install ./lagtop_*.deb`
brings only what the package's Depends name. Inside that root (chroot shares this machine's network, so
127.0.0.1 reaches the host's brokers):
  - lagtop --version names the bundled librdkafka, linked statically;
  - no compiler and no -dev package came with it;
  - lagtop --once logs in with SCRAM-SHA-512 (SASL_PLAINTEXT and SASL_SSL) to a real Kafka 4.x broker on
    127.0.0.1 and reads a group's committed offset (tests/lib/kafka_cluster.py starts it);
  - lagtop --demo draws its dashboard in tmux at 80x24 (tmux is installed in the root for this test only).

Run by `make check-deb` after `make deb` (LAGTOP_DEB names the package; else the build tree's
lagtop_*.deb). The root is cached as a tarball per ISO week in LAGTOP_ROOT_CACHE (default
/var/cache/lagtop-test), and so are the .debs apt fetches into it. Needs root (chroot, mounts)."""
import datetime
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

SRC = os.environ.get("LT_SRCDIR") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
BUILD = os.environ.get("LT_BUILDDIR") or SRC
sys.path.insert(0, os.path.join(SRC, "tests", "lib"))
sys.path.insert(0, os.path.join(SRC, "tests", "lib"))
from simtest import ok, exit_status, missing_prereq, results  # noqa: E402

SUITE = os.environ.get("LAGTOP_ROOT_SUITE", "bookworm")
CACHE = os.environ.get("LAGTOP_ROOT_CACHE", "/var/cache/lagtop-test")
PASSWORD = "s3cret-Root-4k"
GROUP, TOPIC = "deb-g", "deb-t"


def run(cmd, timeout=600, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL, **kw)
    return p.returncode, p.stdout, p.stderr


def in_root(root, *cmd, timeout=300):
    """A command inside the root, with a plain environment (what a login there would have)."""
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root", "TERM": "xterm", "LANG": "C.UTF-8",
           "DEBIAN_FRONTEND": "noninteractive"}
    return run(["chroot", root] + list(cmd), timeout=timeout, env=env)


def the_deb():
    deb = os.environ.get("LAGTOP_DEB")
    if deb:
        return deb if os.path.isfile(deb) else None
    found = sorted(glob.glob(os.path.join(BUILD, "lagtop_*_*.deb")))
    return found[-1] if found else None


def cached_root_tarball():
    """The minbase root of this ISO week, made once (older weeks' tarballs are removed)."""
    year, week, _ = datetime.date.today().isocalendar()
    tarball = os.path.join(CACHE, "%s-minbase-%d-w%02d.tar" % (SUITE, year, week))
    if os.path.isfile(tarball):
        return tarball, "cached"
    os.makedirs(CACHE, exist_ok=True)
    for old in glob.glob(os.path.join(CACHE, "%s-minbase-*.tar" % SUITE)):
        os.unlink(old)
    tmp = tarball + ".part"
    rc, out, err = run(["mmdebstrap", "--quiet", "--variant=minbase", "--format=tar", SUITE, tmp], timeout=900)
    if rc != 0:
        raise RuntimeError("mmdebstrap --variant=minbase %s failed: %s" % (SUITE, (out + err)[-2000:]))
    os.rename(tmp, tarball)
    return tarball, "made"


class Root:
    """The root unpacked in a temporary directory, with /proc, /dev/pts and apt's archive cache mounted;
    unmounted and removed by close()."""

    def __init__(self, tarball):
        self.dir = tempfile.mkdtemp(prefix="lagtop-deb-root.")
        self.mounts = []
        rc, out, err = run(["tar", "-xf", tarball, "-C", self.dir])
        if rc != 0:
            raise RuntimeError("unpacking %s: %s" % (tarball, err))
        shutil.copy("/etc/resolv.conf", os.path.join(self.dir, "etc", "resolv.conf"))
        archives = os.path.join(CACHE, "apt-archives-" + SUITE)
        os.makedirs(os.path.join(archives, "partial"), exist_ok=True)
        self.mount(["-t", "proc", "proc"], "proc")
        self.mount(["--bind", "/dev/pts"], "dev/pts")
        self.mount(["--bind", archives], "var/cache/apt/archives")

    def mount(self, how, where):
        target = os.path.join(self.dir, where)
        os.makedirs(target, exist_ok=True)
        rc, out, err = run(["mount"] + how + [target])
        if rc != 0:
            raise RuntimeError("mount %s %s: %s" % (" ".join(how), where, err.strip()))
        self.mounts.append(target)

    def path(self, p):
        return os.path.join(self.dir, p.lstrip("/"))

    def close(self):
        for m in reversed(self.mounts):
            run(["umount", "-l", m])
        if all(not os.path.ismount(m) for m in self.mounts):
            shutil.rmtree(self.dir, ignore_errors=True)


def check_install(root, deb):
    shutil.copy(deb, root.path("/tmp"))
    name = os.path.basename(deb)
    rc, out, err = in_root(root.dir, "apt-get", "update", "-q", timeout=600)
    ok(rc == 0, "apt-get update in the %s root" % SUITE, out + err)
    rc, out, err = in_root(root.dir, "apt-get", "install", "-y", "-q", "--no-install-recommends", "/tmp/" + name,
                           timeout=900)
    ok(rc == 0, "apt-get install ./%s: its dependencies resolve from Debian" % name, (out + err)[-3000:])
    rc, out, err = in_root(root.dir, "dpkg-query", "-W", "-f", "${Package}\n")
    pkgs = out.split()
    dev = [p for p in pkgs if p.endswith("-dev") or p in ("gcc", "cpp", "make", "binutils", "pkg-config")]
    ok("lagtop" in pkgs and not dev, "installed: lagtop, and no compiler or -dev package came with it", dev)
    rc, out, err = in_root(root.dir, "sh", "-c", "command -v lagtop-sim; ls /usr/share/lagtop/themes; "
                           "ls /usr/share/man/man1/lagtop.1.gz /usr/share/doc/lagtop/lagtop.conf.example")
    ok(rc == 0 and "lagtop-sim" not in out and "default.conf" in out,
       "the package holds the man page, themes and example configuration, and no lagtop-sim", out + err)
    rc, out, err = in_root(root.dir, "lagtop", "--version")
    print("# " + " | ".join(out.splitlines()))
    ok(rc == 0 and "librdkafka built in: " in out and "(bundled, linked statically)" in out
       and "KIP-848-describe" in out,
       "lagtop --version in the root: the bundled librdkafka, linked statically", out + err)
    return rc == 0


def check_scram(root):
    import kafka_cluster as K
    sec = K.Security(scram={"alice": PASSWORD}, authorizer=False,
                     listeners=[("SASL_PLAINTEXT", "SASL_PLAINTEXT", {}), ("SASL_SSL", "SASL_SSL", {})])
    kc = K.KafkaCluster("4", security=sec)
    try:
        kc.start()
    except K.Unavailable as e:
        missing_prereq(str(e))
    except RuntimeError as e:
        ok(False, "Kafka 4.x with SCRAM listeners starts", e)
        return
    try:
        print("# Kafka %s with SCRAM listeners on 127.0.0.1 started in %.1f s" % (kc.version, kc.started_in))
        K.create_topic(kc.bootstrap, TOPIC, 1, 5)
        rc, out, err = kc.consumer_groups("--reset-offsets", "--group", GROUP, "--topic", TOPIC, "--to-offset",
                                          "2", "--execute")
        ok(rc == 0, "a group with a commit (the real kafka-consumer-groups)", out + err)
        shutil.copy(kc.tls.ca, root.path("/tmp/ca.pem"))
        for listener, extra in (("SASL_PLAINTEXT", []), ("SASL_SSL", ["-X", "ssl.ca.location=/tmp/ca.pem"])):
            rc, out, err = in_root(root.dir, "lagtop", "--once", "--format", "json", "-g", GROUP,
                                   "-b", kc.listener(listener), "-X", "security.protocol=" + listener,
                                   "-X", "sasl.mechanism=SCRAM-SHA-512", "-X", "sasl.username=alice",
                                   "-X", "sasl.password=" + PASSWORD, *extra, timeout=120)
            lag = None
            try:
                doc = json.loads(out)
                g = next(g for g in doc["groups"] if g["group"] == GROUP)
                lag = g.get("lag")
            except (ValueError, KeyError, StopIteration, TypeError):
                pass
            ok(rc == 0 and lag == 3,
               "in the root, lagtop --once logs in to Kafka %s with SCRAM-SHA-512 over %s (lag 3)"
               % (kc.version, listener), "rc=%s lag=%r %s %s" % (rc, lag, out[-1500:], err[-1500:]))
    finally:
        kc.stop()


def check_demo(root):
    rc, out, err = in_root(root.dir, "apt-get", "install", "-y", "-q", "--no-install-recommends", "tmux",
                           timeout=600)
    ok(rc == 0, "tmux installed in the root (for this test only)", (out + err)[-2000:])
    sock = "/tmp/lagtop-deb-tmux.sock"
    rc, out, err = in_root(root.dir, "tmux", "-S", sock, "new-session", "-d", "-x", "80", "-y", "24",
                           "lagtop --demo")
    screen = ""
    try:
        deadline = time.monotonic() + 60
        while rc == 0 and time.monotonic() < deadline:
            _, screen, _ = in_root(root.dir, "tmux", "-S", sock, "capture-pane", "-p")
            if "GROUP" in screen and "demo" in screen.lower() and "LAG" in screen:
                break
            time.sleep(1)
        lines = screen.rstrip("\n").split("\n")
        ok(rc == 0 and "GROUP" in screen and "LAG" in screen and len(lines) <= 24
           and all(len(ln) <= 80 for ln in lines),
           "in the root, lagtop --demo draws its dashboard in tmux at 80x24", screen or err)
    finally:
        in_root(root.dir, "tmux", "-S", sock, "kill-server")


def main():
    if os.geteuid() != 0:
        missing_prereq("root (chroot and mounts)")
    for prog in ("mmdebstrap", "chroot", "mount"):
        if not shutil.which(prog):
            missing_prereq("%s (Debian package mmdebstrap; ./autogen.sh --install-deps installs it)" % prog)
    deb = the_deb()
    if not deb:
        missing_prereq("a lagtop_*.deb (make deb builds it; or set LAGTOP_DEB)")
    print("# package: %s (%d bytes)" % (deb, os.path.getsize(deb)))
    t0 = time.monotonic()
    try:
        tarball, how = cached_root_tarball()
    except (RuntimeError, subprocess.SubprocessError, OSError) as e:
        ok(False, "a minimal %s root (mmdebstrap)" % SUITE, e)
        print("1..1")
        return 1
    print("# %s root %s: %s (%.0f s)" % (SUITE, how, tarball, time.monotonic() - t0))
    try:
        root = Root(tarball)
    except (RuntimeError, OSError) as e:
        ok(False, "the %s root unpacked and mounted" % SUITE, e)
        print("1..%d" % len(results))
        return 1
    try:
        if check_install(root, deb):
            check_scram(root)
            check_demo(root)
    finally:
        root.close()
    print("1..%d" % len(results))
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
