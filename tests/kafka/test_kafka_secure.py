"""test_kafka_secure.py — lagtop against secured real Kafka brokers (SASL, TLS), with the real binary.

Kafka 4.x, one node, beside the harness's PLAINTEXT admin listener: SASL_PLAINTEXT and SASL_SSL with
SCRAM-SHA-512, SSL (one-way TLS), SSL requiring a client certificate (mutual TLS), SSL serving a
certificate for another host, and the KRaft StandardAuthorizer (allow.everyone.if.no.acl.found=false).
Certificates come from openssl; ACLs from the real kafka-acls.

- SCRAM (config file of mode 0600 made from doc/examples/scram-tls.conf, and -X): on Kafka 4.x it needs
  librdkafka >= 2.6.1; with an older one lagtop must say so in one line. Kafka 3.9 (which librdkafka
  2.0.2 authenticates with) checks that the same config and -X properties connect.
- a wrong password / user: exit 1 within --timeout, one line naming the failure and the user, the
  password nowhere in stdout or stderr, also with LAGTOP_DEBUG=1.
- TLS: the test CA in ssl.ca.location works; without it, or against a certificate for another host, one
  line naming the cause; mutual TLS from doc/examples/mtls.conf works; without a client certificate,
  one line saying the broker wants one.
- ACLs, as the mTLS principal (User:lagtop-client): Describe on groups prefixed "app-" only (and on the
  cluster, so ListGroups lists every group): the others are counted once in the refresh-wide error, not
  shown; no Read on __consumer_offsets: the commit stream is "denied", polling only, with the reason; a
  topic without Describe: its log offsets are unknown and the refresh error says why; a reset without
  Read on the group is refused by the broker, reported so, the audit line says not-authorized, the
  backup line says it was not applied, and the offsets are unchanged (the real kafka-consumer-groups).
- --command-config: tested in test_kafka_kcg.py, where the real kafka-consumer-groups reads the same file
  (SCRAM over TLS on 3.9 and 4.x, mutual TLS on 4.x).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import kafkatest as kt  # noqa: E402
from kafkatest import K  # noqa: E402
from simtest import exit_status, ok, plan, require_built, require_programs  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
BUILD = os.environ.get("LT_BUILDDIR") or SRC
LAGTOP = os.environ.get("LAGTOP") or os.path.join(BUILD, "lagtop")
EXAMPLES = os.path.join(SRC, "doc", "examples")
TMP = tempfile.mkdtemp(prefix="lagtop-secure-")

PASSWORD = "s3cret-Alice-7q"        # alice's SCRAM password
WRONG = "not-the-Pa55word-x9"       # a wrong one: must never be printed either
TIMEOUT = 8                         # lagtop --timeout for the failing cases
CN = "lagtop-client"                # the client certificate's CN = the mTLS principal's name


def lagtop(*args, env_extra=None, timeout_s=TIMEOUT):
    """Runs lagtop; returns (rc, stdout, stderr, seconds)."""
    env = dict(os.environ, HOME=TMP, XDG_CONFIG_HOME=os.path.join(TMP, "xdg"),
               XDG_STATE_HOME=os.path.join(TMP, "state"))
    env.pop("LAGTOP_CONFIG", None)
    env.pop("LAGTOP_DEBUG", None)
    env.update(env_extra or {})
    t0 = time.monotonic()
    try:
        p = subprocess.run([LAGTOP] + list(args) + ["--timeout", "%ss" % timeout_s], capture_output=True, text=True,
                           timeout=timeout_s * 3 + 10, env=env, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return -1, "", "lagtop did not exit within %d s" % (timeout_s * 3 + 10), time.monotonic() - t0
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t0


def once(*args, **kw):
    rc, out, err, dt = lagtop("--once", "--format", "json", *args, **kw)
    try:
        doc = json.loads(out) if rc == 0 else None
    except ValueError:
        doc = None
    return rc, doc, out, err, dt


def example(name, subs):
    """doc/examples/NAME with its <PLACEHOLDERS> substituted, written at mode 0600; returns the path. Every
    placeholder must be substituted (the test fails loudly otherwise)."""
    with open(os.path.join(EXAMPLES, name)) as f:
        text = f.read()
    for k, v in subs.items():
        text = text.replace("<%s>" % k, v)
    left = re.findall(r"<[A-Z_]+>", "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("#")))
    if left:
        raise RuntimeError("%s: placeholders left: %s" % (name, left))
    path = os.path.join(TMP, name)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    return path


def scram_x(bootstrap, protocol, user, password, ca=None):
    a = ["-b", bootstrap, "-X", "security.protocol=" + protocol, "-X", "sasl.mechanism=SCRAM-SHA-512",
         "-X", "sasl.username=" + user, "-X", "sasl.password=" + password]
    return a + (["-X", "ssl.ca.location=" + ca] if ca else [])


def one_line(err):
    lines = [ln for ln in err.splitlines() if ln.strip()]
    return lines[0] if len(lines) == 1 else None


# ------------------------------------------------------------------ SCRAM

def check_scram_works(kc, tag):
    """Config file (the documented example) and -X, over SASL_PLAINTEXT and SASL_SSL: lagtop connects."""
    conf = example("scram-tls.conf", {"SASL_SSL_BOOTSTRAP": kc.listener("SASL_SSL"),
                                      "SASL_PLAINTEXT_BOOTSTRAP": kc.listener("SASL_PLAINTEXT"),
                                      "USER": "alice", "PASSWORD": PASSWORD, "CA_PEM": kc.tls.ca})
    # -g: Kafka 3.9 does not list a group that has only commits (never a member) to ListGroups v5, which
    # librdkafka 2.15.1 sends (the real kafka-consumer-groups --list of 3.9 lists none either; 2.0.2's v4
    # lists it); named, it is read on every version.
    for cluster, listener in (("scram-plain", "SASL_PLAINTEXT"), ("scram-tls", "SASL_SSL")):
        rc, doc, out, err, _ = once("--config", conf, "-c", cluster, "-g", "sec-g", timeout_s=20)
        ok(rc == 0 and doc and doc["error"] is None and [g["group"] for g in doc["groups"]] == ["sec-g"],
           "%s: SCRAM-SHA-512 over %s from doc/examples/scram-tls.conf (mode 0600) connects and reads the "
           "group" % (tag, listener), "rc=%s %s %s" % (rc, out[:600], err))
        ok("readable by others" not in err, "%s: no permissions warning at mode 0600" % tag,
           err)
        rc, doc, out, err, _ = once(*scram_x(kc.listener(listener), listener, "alice", PASSWORD,
                                             kc.tls.ca if listener == "SASL_SSL" else None), "-g", "sec-g",
                                    timeout_s=20)
        ok(rc == 0 and doc and [g["group"] for g in doc["groups"]] == ["sec-g"],
           "%s: SCRAM-SHA-512 over %s from -X properties connects" % (tag, listener),
           "rc=%s %s %s" % (rc, out[:600], err))


def check_scram_fails_clearly(kc, tag, old_librdkafka):
    """A wrong password, a wrong user: exit 1 within --timeout, one line, the user named, no password."""
    for what, user, pw in (("wrong password", "alice", WRONG), ("unknown user", "mallory", WRONG)):
        for listener in ("SASL_PLAINTEXT", "SASL_SSL"):
            args = scram_x(kc.listener(listener), listener, user, pw, kc.tls.ca if listener == "SASL_SSL" else None)
            rc, out, err, dt = lagtop("--once", "--format", "json", *args)
            line = one_line(err)
            ok(rc == 1 and dt < TIMEOUT + 3 and line and "authentication failed for user '%s'" % user in line
               and "SCRAM-SHA-512" in line,
               "%s: %s over %s: exit 1 in %.1f s (--timeout %d), one line naming the failure and the user"
               % (tag, what, listener, dt, TIMEOUT), "rc=%s err=%s" % (rc, err))
            ok(pw not in out + err and PASSWORD not in out + err,
               "%s: %s over %s: the password is not printed" % (tag, what, listener), err)
            if listener == "SASL_PLAINTEXT" and user == "alice":
                if old_librdkafka:
                    ok(line and "cannot do SCRAM with Kafka 4.x" in line,
                       "%s: with librdkafka < 2.6.1 the line says SCRAM cannot work with Kafka 4.x" % tag, err)
                rc, out, err, dt = lagtop("--once", "--format", "json", *args, env_extra={"LAGTOP_DEBUG": "1"})
                ok(rc == 1 and "authentication failed for user 'alice'" in err and "librdkafka log" in err
                   and pw not in out + err,
                   "%s: with LAGTOP_DEBUG=1 (librdkafka's log) the password is still never printed" % tag,
                   "rc=%s %s" % (rc, err[-1500:]))


def scram_cluster_39():
    sec = K.Security(scram={"alice": PASSWORD}, authorizer=False,
                     listeners=[("SASL_PLAINTEXT", "SASL_PLAINTEXT", {}), ("SASL_SSL", "SASL_SSL", {})])
    kc = K.KafkaCluster("3.9", security=sec)
    if not kt.start(kc, "Kafka 3.9 with SCRAM listeners starts"):
        return
    try:
        print("# Kafka %s with SCRAM listeners started in %.1f s" % (kc.version, kc.started_in))
        K.create_topic(kc.bootstrap, "sec-t", 1, 3)
        rc, out, err = kc.consumer_groups("--reset-offsets", "--group", "sec-g", "--topic", "sec-t", "--to-offset",
                                          "1", "--execute")
        ok(rc == 0, "Kafka 3.9: a group with a commit (real kafka-consumer-groups)", out + err)
        check_scram_works(kc, "Kafka 3.9")
        check_scram_fails_clearly(kc, "Kafka 3.9", old_librdkafka=False)
    finally:
        kc.stop()


# ------------------------------------------------------------------ TLS

def check_tls(kc):
    ca = kc.tls.ca
    rc, doc, out, err, _ = once("-b", kc.listener("TLS"), "-X", "security.protocol=SSL", "-X",
                                "ssl.ca.location=" + ca, timeout_s=20)
    ok(rc == 0 and doc and doc["brokers_up"] == 1,
       "TLS: ssl.ca.location = the test CA: lagtop verifies the broker (127.0.0.1 in its SAN) and connects",
       "rc=%s %s %s" % (rc, out[:400], err))
    rc, out, err, dt = lagtop("--once", "--format", "json", "-b", kc.listener("TLS"), "-X", "security.protocol=SSL")
    line = one_line(err)
    ok(rc == 1 and line and "TLS certificate verify failed" in line and "not trusted" in line
       and "ssl.ca.location" in line,
       "TLS: without ssl.ca.location (system CAs only) the broker is not trusted: one line naming the cause",
       "rc=%s %s" % (rc, err))
    rc, out, err, dt = lagtop("--once", "--format", "json", "-b", kc.listener("TLS"), "-X", "security.protocol=SSL",
                              "-X", "ssl.ca.location=" + kc.tls.other_ca)
    line = one_line(err)
    ok(rc == 1 and line and "TLS certificate verify failed" in line and "not trusted" in line,
       "TLS: a CA that did not sign the broker's certificate: one line naming the cause", "rc=%s %s" % (rc, err))
    rc, out, err, dt = lagtop("--once", "--format", "json", "-b", kc.listener("BADHOST"), "-X",
                              "security.protocol=SSL", "-X", "ssl.ca.location=" + ca)
    line = one_line(err)
    ok(rc == 1 and dt < TIMEOUT + 3 and line and "TLS certificate verify failed" in line and "does not match" in line,
       "TLS: a certificate for another host (signed by the trusted CA) is refused: one line naming the mismatch",
       "rc=%s %s" % (rc, err))
    rc, doc, out, err, _ = once("-b", kc.listener("BADHOST"), "-X", "security.protocol=SSL", "-X",
                                "ssl.ca.location=" + ca, "-X", "enable.ssl.certificate.verification=false",
                                timeout_s=20)
    ok(rc == 0 and doc, "TLS: enable.ssl.certificate.verification=false still turns verification off (lagtop's "
       "verification callback keeps the user's choice)", "rc=%s %s" % (rc, err))

    conf = example("mtls.conf", {"SSL_BOOTSTRAP": kc.listener("MTLS"), "CA_PEM": ca,
                                 "CLIENT_CERT_PEM": kc.tls.client_cert, "CLIENT_KEY_PEM": kc.tls.client_key})
    rc, doc, out, err, _ = once("--config", conf, timeout_s=20)
    ok(rc == 0 and doc and doc["brokers_up"] == 1,
       "mutual TLS: doc/examples/mtls.conf with the client certificate connects", "rc=%s %s %s" % (rc, out[:400], err))
    rc, out, err, dt = lagtop("--once", "--format", "json", "-b", kc.listener("MTLS"), "-X", "security.protocol=SSL",
                              "-X", "ssl.ca.location=" + ca)
    line = one_line(err)
    ok(rc == 1 and line and "requires a client certificate" in line,
       "mutual TLS: without a client certificate: one line saying the broker requires one", "rc=%s %s" % (rc, err))
    return conf


# ------------------------------------------------------------------ ACLs

def check_acls(kc, mtls_conf):
    K.create_topic(kc.bootstrap, "orders", 2, 5)
    K.create_topic(kc.bootstrap, "hidden", 1, 5)
    for g, topics in (("app-1", ["orders"]), ("app-2", ["orders"]), ("other-1", ["orders"]), ("other-2", ["orders"])):
        for t in topics:
            rc, out, err = kc.consumer_groups("--reset-offsets", "--group", g, "--topic", t, "--to-offset", "2",
                                              "--execute")
            ok(rc == 0, "ACLs: group %s has a commit on %s (kafka-consumer-groups as a super user)" % (g, t), out + err)
    me = "User:" + CN
    for acl in (["--operation", "Describe", "--group", "app-", "--resource-pattern-type", "prefixed"],
                ["--operation", "Describe", "--topic", "orders"],
                ["--operation", "Describe", "--cluster"]):
        rc, out, err = kc.acls("--add", "--allow-principal", me, *acl)
        ok(rc == 0, "ACLs: kafka-acls --add %s %s" % (me, " ".join(acl)), out + err)

    rc, doc, out, err, _ = once("--config", mtls_conf, timeout_s=20)
    names = [g["group"] for g in doc["groups"]] if doc else None
    ok(rc == 0 and names == ["app-1", "app-2"],
       "ACLs: Describe on groups prefixed app- only: lagtop shows app-1 and app-2", "rc=%s %s %s" % (rc, names, err))
    ok(doc and all(g["error"] is None for g in doc["groups"]),
       "ACLs: no row carries an authorization error", out[:800])
    # not authorized: other-1, other-2 and sec-g (alice's group, made by secure_cluster_4)
    ok(doc and doc["error"] and "3 groups not authorized" in doc["error"] and "other-1" in doc["error"],
       "ACLs: the refresh-wide error says once: 3 groups not authorized", doc and doc["error"])
    ok(err.count("not authorized (Describe on the group denied)") == 1 and "group other-1:" not in err,
       "ACLs: stderr says it in one line, not one warning per group", err)
    cs = (doc or {}).get("commit_stream") or {}
    ok(cs.get("state") == "denied" and "polling only" in (cs.get("reason") or "")
       and "not authorized" in (cs.get("reason") or ""),
       "ACLs: no Read on __consumer_offsets: commit_stream is denied, 'polling only', with the reason", cs)
    rc, doc2, out, err, _ = once("--config", mtls_conf, "--samples", "2", "-i", "0.5", timeout_s=20)
    ok(rc == 0 and doc2 and [g["group"] for g in doc2["groups"]] == ["app-1", "app-2"]
       and all(g["stale_ms"] == 0 for g in doc2["groups"]),
       "ACLs: a second refresh still shows them, nothing stale", "rc=%s %s" % (rc, out[:500]))

    # a group it may not describe, asked for by name: not authorized, with the ACL, never "does not exist";
    # and --delete reads its state first, so the denial is the answer (it was GroupNotEmptyException, exit 3)
    rc, out, err, _ = lagtop("--config", mtls_conf, "--describe", "-g", "other-1", timeout_s=20)
    ok(rc == 1 and "does not exist" not in out
       and re.search(r"^lagtop: 1 group not read \(other-1\): .*not authorized to describe the group "
                     r"\(ACL: Describe on the Group\)", err, re.M),
       "ACLs: --describe -g of a group without Describe: exit 1, not authorized with the ACL it needs",
       "rc=%s %s %s" % (rc, out, err))
    rc, out, err, _ = lagtop("--config", mtls_conf, "--delete", "-g", "other-1", timeout_s=20)
    ok(rc == 1 and "GroupNotEmptyException" not in out and "GroupAuthorizationException" in out
       and "not authorized to describe the group (ACL: Describe on the Group)" in err,
       "ACLs: --delete of a group without Describe: exit 1, named as an authorization failure, not GroupNotEmpty",
       "rc=%s %s %s" % (rc, out, err))

    # a topic without Describe: a live member (super user, PLAINTEXT) consumes it in a group we may describe
    rc, out, err = kc.acls("--add", "--allow-principal", me, "--operation", "Describe", "--group", "live-g")
    ok(rc == 0, "ACLs: Describe on group live-g", out + err)
    with K.Member(kc, "kafka-python", "live-g", ["orders", "hidden"]) as m:
        ok(m.wait_assigned(60), "ACLs: a kafka-python member of live-g is assigned orders and hidden", m.seen)
        rc, doc, out, err, _ = once("--config", mtls_conf, "-g", "live-g", timeout_s=20)
        parts = {(p["topic"], p["partition"]): p for g in (doc or {}).get("groups", []) for p in g["partitions"]}
        hidden = parts.get(("hidden", 0))
        ok(rc == 0 and hidden is not None and hidden["log_end"] is None and hidden["log_start"] is None,
           "ACLs: no Describe on topic hidden: its log offsets are unknown", "rc=%s %s" % (rc, out[:800]))
        ok(doc and doc["error"] and "log offsets unknown for 1 topic" in doc["error"] and "hidden" in doc["error"]
           and "not authorized" in doc["error"],
           "ACLs: ... and the refresh-wide error says why (not in the metadata: not authorized, or deleted)",
           doc and doc["error"])
        ok(parts.get(("orders", 0)) and parts[("orders", 0)]["log_end"] == 5,
           "ACLs: the topic it may describe has its log offsets", out[:600])

    # a reset without Read on the group: the broker refuses it
    before = kc.consumer_groups("--describe", "--group", "app-1")[1]
    rc, out, err, _ = lagtop("--config", mtls_conf, "--reset-offsets", "-g", "app-1", "--topic", "orders",
                             "--to-earliest", "--execute", timeout_s=20)
    ok(rc == 1 and "not authorized" in err and "Nothing was applied" in err,
       "ACLs: a reset without Read on the group: exit 1, the broker's refusal reported as not authorized",
       "rc=%s %s %s" % (rc, out, err))
    ok(re.search(r"backup of the previous offsets: \S+ \(the reset was not applied", err),
       "ACLs: the backup line says the reset was not applied", err)
    audit = ""
    try:
        with open(os.path.join(TMP, "state", "lagtop", "audit.log")) as f:
            audit = f.read()
    except OSError as e:
        audit = str(e)
    ok(re.search(r"group=app-1 .*result=not-authorized", audit), "ACLs: the audit line says result=not-authorized",
       audit)
    after = kc.consumer_groups("--describe", "--group", "app-1")[1]
    cur = lambda text: sorted(ln.split()[3] for ln in text.splitlines() if ln.startswith("app-1 "))  # noqa: E731
    ok(cur(before) == cur(after) == ["2", "2"], "ACLs: the offsets are unchanged (real kafka-consumer-groups)",
       before + after)


def secure_cluster_4():
    sec = K.Security(scram={"alice": PASSWORD}, authorizer=True, client_cn=CN,
                     listeners=[("SASL_PLAINTEXT", "SASL_PLAINTEXT", {}), ("SASL_SSL", "SASL_SSL", {}),
                                ("TLS", "SSL", {}), ("MTLS", "SSL", {"client_auth": "required"}),
                                ("BADHOST", "SSL", {"cert": "wrong-host"})])
    kc = K.KafkaCluster("4", security=sec)
    if not kt.start(kc, "Kafka 4.x with secured listeners starts"):
        return
    try:
        print("# Kafka %s with secured listeners started in %.1f s" % (kc.version, kc.started_in))
        ok(kc.version.startswith("4."), "Kafka %s: SASL_PLAINTEXT, SASL_SSL, SSL, mTLS listeners and the "
           "StandardAuthorizer start" % kc.version)
        K.create_topic(kc.bootstrap, "sec-t", 1, 3)
        rc, out, err = kc.consumer_groups("--reset-offsets", "--group", "sec-g", "--topic", "sec-t", "--to-offset",
                                          "1", "--execute")
        ok(rc == 0, "Kafka 4.x: a group with a commit (real kafka-consumer-groups)", out + err)
        rc, out, err = kc.acls("--add", "--allow-principal", "User:alice", "--operation", "Describe", "--group",
                               "sec-g")
        rc2, out2, err2 = kc.acls("--add", "--allow-principal", "User:alice", "--operation", "Describe", "--topic",
                                  "sec-t")
        ok(rc == 0 and rc2 == 0, "Kafka 4.x: alice may describe sec-g and sec-t", out + err + out2 + err2)
        v = K.lagtop_librdkafka(LAGTOP)
        old = v is not None and v < (2, 6, 1)
        print("# librdkafka %s" % (".".join(map(str, v)) if v else "?"))
        if old:
            # librdkafka < 2.6.1 cannot complete SCRAM with Kafka 4.x (its PR 4895): right credentials fail too,
            # and lagtop must say why in one line.
            rc, out, err, dt = lagtop("--once", "--format", "json",
                                      *scram_x(kc.listener("SASL_PLAINTEXT"), "SASL_PLAINTEXT", "alice", PASSWORD))
            line = one_line(err)
            ok(rc == 1 and line and "authentication failed for user 'alice'" in line
               and "cannot do SCRAM with Kafka 4.x brokers (fixed in 2.6.1)" in line and PASSWORD not in out + err,
               "Kafka 4.x + librdkafka %d.%d.%d: SCRAM cannot work; lagtop says so in one line (the right "
               "credentials; Kafka 3.9 below proves lagtop's SCRAM path)" % v, "rc=%s %s" % (rc, err))
        else:
            check_scram_works(kc, "Kafka 4.x")
        check_scram_fails_clearly(kc, "Kafka 4.x", old)
        mtls_conf = check_tls(kc)
        check_acls(kc, mtls_conf)
    finally:
        kc.stop()


def main():
    t0 = time.monotonic()
    require_programs("java", "mvn", "openssl", hint="./autogen.sh --install-deps installs a JDK, Maven and openssl")
    require_built(LAGTOP)
    kt.available(K.classpath, "4")
    kt.available(K.classpath, "3.9")
    try:
        secure_cluster_4()
        scram_cluster_39()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
    print("# wall time %.1f s" % (time.monotonic() - t0))
    plan()
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
