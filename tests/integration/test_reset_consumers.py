"""test_reset_consumers.py — guarded resets with a real consumer in the group (kafka-python, an independent
client) against lagtop-sim: refused while it is a member (exit 3, offsets unchanged, the member named);
executed once it left; a consumer started afterwards begins at the new offset."""
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from simtest import Sim, exit_status, kafka_python, lagtop, ok, private_env  # noqa: E402

TESTS = 7


def main():
    KafkaConsumer, KafkaProducer, TopicPartition = kafka_python("KafkaConsumer", "KafkaProducer", "TopicPartition")
    print("1..%d" % TESTS)
    state = tempfile.mkdtemp(prefix="lagtop-reset-py.")
    env = private_env(state)
    sim = Sim("--brokers", "1", tmp=state)
    consumer = None
    try:
        boot = sim.bootstrap

        def lagtop_run(*args):
            return lagtop(*args, "-b", boot, env=env, timeout=30)

        producer = KafkaProducer(bootstrap_servers=boot)
        for i in range(30):
            producer.send("orders", value=b"order-%d" % i, partition=0)
        producer.flush()
        producer.close()

        consumer = KafkaConsumer("orders", bootstrap_servers=boot, group_id="shipping", client_id="shipping-py-1",
                                 enable_auto_commit=False, auto_offset_reset="earliest", consumer_timeout_ms=10000)
        seen = 0
        for _ in consumer:
            seen += 1
            if seen == 20:
                consumer.commit()
                break
        tp = TopicPartition("orders", 0)
        ok(consumer.committed(tp) == 20, "a kafka-python consumer joined and committed 20", consumer.committed(tp))

        rc, out, err = lagtop_run("--reset-offsets", "-g", "shipping", "--all-topics", "--to-earliest", "--execute")
        ok(rc == 3, "refused (exit 3) while the consumer is a member", err)
        ok("current state is Stable." in err and "shipping-py-1" in err,
           "the refusal names the state and the member's client id", err)
        ok(consumer.committed(tp) == 20, "offsets unchanged after the refusal", consumer.committed(tp))

        consumer.close()
        consumer = None
        # Leaving is synchronous (LeaveGroup), but allow the coordinator a moment, bounded.
        rc, out, err = None, "", ""
        for _ in range(50):
            rc, out, err = lagtop_run("--reset-offsets", "-g", "shipping", "--all-topics", "--to-offset", "7",
                                      "--execute")
            if rc != 3:
                break
            time.sleep(0.1)
        ok(rc == 0 and "every offset reads back as planned" in err, "executed once the consumer left", out + err)

        backups = os.listdir(os.path.join(state, "lagtop", "backups"))
        ok(len(backups) == 1 and open(os.path.join(state, "lagtop", "backups", backups[0])).read() == "orders,0,20\n",
           "the backup holds the offsets from before the reset", backups)

        consumer = KafkaConsumer("orders", bootstrap_servers=boot, group_id="shipping", client_id="shipping-py-2",
                                 enable_auto_commit=False, auto_offset_reset="latest", consumer_timeout_ms=10000)
        first = next(iter(consumer), None)
        ok(first is not None and first.offset == 7, "a consumer started after the reset begins at the new offset",
           first)
    finally:
        if consumer is not None:
            consumer.close()
        sim.stop()
        shutil.rmtree(state, ignore_errors=True)
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
