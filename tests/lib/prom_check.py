"""prom_check.py — Prometheus output against lagtop's JSON, for the tests (test_once_monitoring.py, and
tests/kafka/test_kafka_describe.py on real Kafka): the samples the JSON implies, the real parser's view
(Debian's python3-prometheus-client), the text rules lagtop promises, and their differences."""

STATUS_CODE = {"OK": 1, "WARN": 2, "REWIND": 3, "STALL": 4, "STOP": 5, "ERR": 6}


def expected_samples(doc):
    """Every sample the Prometheus output must hold, from the JSON: {(metric, labels): value}."""
    want = {}
    c = doc["cluster"]

    def put(name, labels, value):
        if value is None:
            return  # unknown: must be absent, never 0
        want[(name, tuple(sorted(labels.items())))] = float(value)

    put("lagtop_brokers_up", {"cluster_name": c}, doc["brokers_up"])
    put("lagtop_brokers", {"cluster_name": c}, doc["brokers_total"])
    put("lagtop_refresh_timestamp_seconds", {"cluster_name": c}, doc["taken_at_ms"] / 1000)
    put("lagtop_refresh_duration_seconds", {"cluster_name": c}, doc["duration_ms"] / 1000)
    put("lagtop_commit_stream_state", {"cluster_name": c, "state": doc["commit_stream"]["state"]}, 1)
    put("lagtop_refresh_read", {"cluster_name": c}, 1 if doc["read"] else 0)
    put("lagtop_refresh_groups_unread", {"cluster_name": c}, doc["groups_unread"])
    for g in doc["groups"]:
        gl = {"cluster_name": c, "group": g["group"]}
        put("lagtop_consumergroup_state", dict(gl, state=g["state"], type=g["type"] or ""), 1)
        put("lagtop_consumergroup_members", gl, g["members"])
        put("lagtop_consumergroup_status", gl, STATUS_CODE.get(g["status"]))
        put("lagtop_consumergroup_status_complete", gl, 1 if g["complete"] else 0)
        put("lagtop_consumergroup_read", gl, 1 if g["read"] else 0)
        put("lagtop_consumergroup_last_commit_timestamp_seconds", gl,
            None if g["last_commit_ms"] is None else g["last_commit_ms"] / 1000)
        put("lagtop_consumergroup_commits_per_minute", gl, g["commits_per_min"])
        put("lagtop_consumergroup_offsets_expire_timestamp_seconds", gl,
            None if g["expires_at_ms"] is None else g["expires_at_ms"] / 1000)
        put("kafka_consumergroup_group_sum_lag", gl, g["lag"])
        put("kafka_consumergroup_group_max_lag", gl, g["max_lag"])
        put("kafka_consumergroup_group_max_lag_seconds", gl,
            None if g["max_time_lag_ms"] is None else g["max_time_lag_ms"] / 1000)
        topic_lag = {}
        for p in g["partitions"]:
            tl = {"cluster_name": c, "topic": p["topic"], "partition": str(p["partition"])}
            put("kafka_partition_earliest_offset", tl, p["log_start"])
            put("kafka_partition_latest_offset", tl, p["log_end"])
            pl = dict(tl, group=g["group"], member_host=p["host"] or "", consumer_id=p["consumer_id"] or "",
                      client_id=p["client_id"] or "")
            put("kafka_consumergroup_group_offset", pl, p["committed"])
            put("kafka_consumergroup_group_lag", pl, p["lag"])
            put("kafka_consumergroup_group_lag_seconds", pl,
                None if p["time_lag_ms"] is None else p["time_lag_ms"] / 1000)
            put("lagtop_consumergroup_partition_status", dict(tl, group=g["group"]), STATUS_CODE.get(p["status"]))
            if p["lag"] is not None:
                topic_lag[p["topic"]] = topic_lag.get(p["topic"], 0) + p["lag"]
        for t, v in topic_lag.items():
            put("kafka_consumergroup_group_topic_sum_lag", dict(gl, topic=t), v)
    return want


def parse(text):
    """Parsed by prometheus_client: {(metric, labels): value}, plus the list of every sample (duplicates kept)."""
    from prometheus_client.parser import text_string_to_metric_families
    got, every = {}, []
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            key = (s.name, tuple(sorted(s.labels.items())))
            every.append(key)
            got[key] = s.value
    return got, every


def text_rules(text):
    """Differences from the text format rules lagtop promises: sorted metrics, HELP+TYPE once, no NaN."""
    bad = []
    names, helped, typed = [], set(), set()
    for line in text.splitlines():
        if line.startswith("# HELP "):
            n = line.split()[2]
            if n in helped:
                bad.append("second HELP for " + n)
            helped.add(n)
        elif line.startswith("# TYPE "):
            n, t = line.split()[2:4]
            if n in typed or t != "gauge" or n not in helped:
                bad.append("TYPE line: " + line)
            typed.add(n)
        else:
            n = line.split("{", 1)[0].split(" ", 1)[0]
            if n not in typed:
                bad.append("sample before its TYPE: " + line)
            if not names or names[-1] != n:
                names.append(n)
            if line.rsplit(" ", 1)[1] in ("NaN", "+Inf", "-Inf"):
                bad.append("not a number: " + line)
    if names != sorted(names) or len(names) != len(set(names)):
        bad.append("metrics not sorted or split: %s" % names)
    return bad


def compare(want, got, tolerance=None):
    """Differences between expected and parsed samples; tolerance: {metric: seconds} for clock-bound values."""
    tolerance = tolerance or {}
    diffs = []
    for k in sorted(set(want) | set(got)):
        if k not in got:
            diffs.append("missing %s" % (k,))
        elif k not in want:
            diffs.append("extra %s = %s" % (k, got[k]))
        elif abs(want[k] - got[k]) > tolerance.get(k[0], 0) + 1e-9 * max(1, abs(want[k])):
            diffs.append("%s: %s vs JSON %s" % (k, got[k], want[k]))
    return diffs
