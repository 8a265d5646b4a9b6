"""Fills a real Kafka for `make bench`'s real-Kafka section (bench/real_kafka.py), with confluent-kafka.

  kafka_populate.py BOOTSTRAP GROUPS PARTITIONS TOPICS RECORDS

Creates TOPICS topics of PARTITIONS partitions (bench-topic-NNN), writes RECORDS records to every
partition, then commits offsets for GROUPS groups (bench-group-NNNNN; group g reads topic g % TOPICS,
like lagtop-sim's scale scenario) with the admin API: real OffsetCommits that go to __consumer_offsets,
a lag of 0..RECORDS/2 per partition. The groups are Empty (no members). Prints one JSON line with the
counts and the seconds each step took. Run with the tests' virtual environment
(tests/lib/kafka_cluster.py confluent_python()).
"""
import json
import sys
import time

from confluent_kafka import ConsumerGroupTopicPartitions, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

IN_FLIGHT = 200  # admin commit calls at once (each one group)


def main():
    if len(sys.argv) != 6:
        sys.stderr.write("usage: kafka_populate.py BOOTSTRAP GROUPS PARTITIONS TOPICS RECORDS\n")
        return 2
    bootstrap = sys.argv[1]
    groups, parts, topics, records = (int(x) for x in sys.argv[2:])
    out = {}
    t0 = time.monotonic()
    admin = AdminClient({"bootstrap.servers": bootstrap})
    names = ["bench-topic-%03d" % t for t in range(topics)]
    for f in admin.create_topics([NewTopic(n, parts, 1) for n in names], operation_timeout=120).values():
        f.result()
    out["create_s"] = round(time.monotonic() - t0, 2)

    t0 = time.monotonic()
    prod = Producer({"bootstrap.servers": bootstrap, "linger.ms": 50, "acks": 1,
                     "batch.num.messages": 10000, "queue.buffering.max.messages": 1000000})
    failed = []
    value = b"v" * 40
    for n in names:
        for q in range(parts):
            for _ in range(records):
                prod.produce(n, value, partition=q,
                             on_delivery=lambda err, _m: failed.append(err) if err else None)
            prod.poll(0)
    left = prod.flush(180)
    if left or failed:
        sys.stderr.write("kafka_populate: %d records not delivered, %d failed (%s)\n"
                         % (left, len(failed), failed[:1]))
        return 1
    out["produce_s"] = round(time.monotonic() - t0, 2)

    t0 = time.monotonic()
    want = {"bench-group-%05d" % g: [TopicPartition(names[g % topics], q, records - (g * 7 + q) % (records // 2 + 1))
                                     for q in range(parts)] for g in range(groups)}
    done = 0
    deadline = time.monotonic() + 300
    while want:
        # the first commits meet a coordinator that is still loading __consumer_offsets (Kafka creates it
        # on the first FindCoordinator): those groups are committed again
        retry = {}
        items = sorted(want.items())
        for i in range(0, len(items), IN_FLIGHT):
            futs = {g: admin.alter_consumer_group_offsets([ConsumerGroupTopicPartitions(g, tps)],
                                                          request_timeout=60)[g] for g, tps in items[i:i + IN_FLIGHT]}
            for g, f in futs.items():
                try:
                    res = f.result()
                    errs = [tp.error for tp in res.topic_partitions if tp.error]
                except Exception as e:  # noqa: BLE001 - a KafkaException with the broker's error
                    errs = [e]
                if not errs:
                    done += 1
                elif time.monotonic() < deadline:
                    retry[g] = want[g]
                else:
                    sys.stderr.write("kafka_populate: commit of %s failed: %s\n" % (g, errs[0]))
                    return 1
        want = retry
        if want:
            time.sleep(0.5)
    out["commit_s"] = round(time.monotonic() - t0, 2)
    out.update({"groups": done, "topics": topics, "partitions": parts, "records": records,
                "rows": done * parts})
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
