"""kafka_member.py — a real group member for the tests, with a Python client; speaks like RefConsumer.java.

    PYTHON kafka_member.py --client confluent|kafka-python --bootstrap B --group G --topics T1,T2
                     [--protocol classic|consumer] [--no-commit] [--client-id ID] [--max N]
                     [--stats FILE] [--batch N] [--poll-sleep-ms MS] [--pause-after N]

confluent (confluent-kafka, a current librdkafka; run it with kafka_cluster.confluent_python()) can join
consumer-protocol (KIP-848) groups; kafka-python (Debian's, /usr/bin/python3) only classic ones. It polls
and, unless --no-commit, commits synchronously after each batch. stdout, one line per event:
    assigned TOPIC:P,...   when its assignment changes (sorted)
    committed N            after a commit, N = records consumed so far
    consumed N             instead, with --no-commit
    paused TOPIC:P=POS,... when it paused (--pause-after N: once N records were consumed it pauses every
                           partition and goes on polling, so it stays in the group, its position still)
    closed                 after it left the group
--stats FILE (confluent): statistics.interval.ms=500, each document written to FILE (replaced whole).
--batch N: at most N records per poll; --poll-sleep-ms: sleep after each poll (a slow consumer).
It stops at end of input or "quit" on stdin (and after --max records if given), closing cleanly so
the group sees it leave.
"""
import argparse
import sys
import threading
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--client", required=True, choices=["confluent", "kafka-python"])
    ap.add_argument("--bootstrap", required=True)
    ap.add_argument("--group", required=True)
    ap.add_argument("--topics", required=True)
    ap.add_argument("--protocol", default="classic", choices=["classic", "consumer"])
    ap.add_argument("--no-commit", action="store_true")
    ap.add_argument("--client-id", default=None)
    ap.add_argument("--max", type=int, default=0)
    ap.add_argument("--stats", default=None)
    ap.add_argument("--batch", type=int, default=500)
    ap.add_argument("--poll-sleep-ms", type=int, default=0)
    ap.add_argument("--pause-after", type=int, default=0)
    a = ap.parse_args()
    topics = a.topics.split(",")

    stop = threading.Event()

    def read_stdin():
        for line in sys.stdin:
            if line.strip() == "quit":
                break
        stop.set()

    threading.Thread(target=read_stdin, daemon=True).start()

    def say(s):
        print(s, flush=True)

    last = [None]

    def note_assignment(parts):
        cur = ",".join(sorted("%s:%d" % (t, p) for t, p in parts))
        if cur != last[0] and cur:
            last[0] = cur
            say("assigned " + cur)

    consumed = 0
    if a.client == "confluent":
        from confluent_kafka import Consumer
        conf = {"bootstrap.servers": a.bootstrap, "group.id": a.group, "enable.auto.commit": False,
                "auto.offset.reset": "earliest", "group.protocol": a.protocol}
        if a.protocol == "classic":
            conf["session.timeout.ms"] = 6000
        if a.client_id:
            conf["client.id"] = a.client_id
        if a.stats:
            import os

            def write_stats(doc):
                tmp = a.stats + ".tmp"
                with open(tmp, "w") as f:
                    f.write(doc)
                os.replace(tmp, a.stats)
            conf["statistics.interval.ms"] = 500
            conf["stats_cb"] = write_stats
        c = Consumer(conf)
        c.subscribe(topics)
        paused = False
        while not stop.is_set():
            msgs = c.consume(num_messages=a.batch, timeout=0.2)
            note_assignment([(tp.topic, tp.partition) for tp in c.assignment()])
            good = [m for m in msgs if m.error() is None]
            if good:
                consumed += len(good)
                if a.no_commit:
                    say("consumed %d" % consumed)
                else:
                    c.commit(asynchronous=False)
                    say("committed %d" % consumed)
            if a.pause_after and not paused and consumed >= a.pause_after:
                parts = c.assignment()
                c.pause(parts)
                paused = True
                say("paused " + ",".join(sorted("%s:%d=%d" % (tp.topic, tp.partition, tp.offset)
                                                 for tp in c.position(parts))))
            if a.poll_sleep_ms:
                time.sleep(a.poll_sleep_ms / 1000.0)
            if a.max and consumed >= a.max:
                break
        c.close()
    else:
        if a.protocol != "classic":
            sys.exit("kafka_member.py: kafka-python speaks only the classic group protocol")
        from kafka import KafkaConsumer
        kw = dict(bootstrap_servers=a.bootstrap.split(","), group_id=a.group, enable_auto_commit=False,
                  auto_offset_reset="earliest", session_timeout_ms=6000, heartbeat_interval_ms=1000,
                  api_version=(2, 5, 0))
        if a.client_id:
            kw["client_id"] = a.client_id
        c = KafkaConsumer(**kw)
        c.subscribe(topics)
        while not stop.is_set():
            batch = c.poll(timeout_ms=200)
            note_assignment([(tp.topic, tp.partition) for tp in c.assignment()])
            n = sum(len(v) for v in batch.values())
            if n:
                consumed += n
                if a.no_commit:
                    say("consumed %d" % consumed)
                else:
                    c.commit()
                    say("committed %d" % consumed)
            if a.max and consumed >= a.max:
                break
        c.close()
    say("closed")
    time.sleep(0.05)


if __name__ == "__main__":
    main()
