"""kafka_tool_batch.py — the real kafka-consumer-groups, many runs in one JVM (tests/kafka/ToolBatch.java).

    with ToolBatch("4") as cg:                        # the pinned 4.x line's tools
        rc, out, err = cg.run("--bootstrap-server", b, "--list")

Each run calls ConsumerGroupCommand.main in the same JVM with its own stdout/stderr and Kafka's Exit
procedure turned into a status, so the answers are the tool's own; only the ~1 s JVM start is shared.
Every run is bounded (timeout); a runner that does not answer in time is killed and the run raises.
"""
import subprocess
import threading

import kafka_cluster as K

CONSUMER_GROUPS = "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand"

class ToolBatch:
    def __init__(self, line, main_class=CONSUMER_GROUPS, start_timeout=120):
        cp = K.java_classes(line)
        # kafka_cluster's tool logging follows System.err, which ToolBatch swaps for each run
        cmd = [K._which("java")] + K.TOOL_JVM + K.tool_log_args() + ["-cp", cp, "ToolBatch", main_class]
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.runs = 0
        line = self._bounded(self.p.stdout.readline, start_timeout)
        if line != b"ready\n":
            self.close()
            raise RuntimeError("ToolBatch did not start: %r" % line)

    def _bounded(self, fn, timeout):
        box = {}

        def call():
            try:
                box["v"] = fn()
            except Exception as e:  # noqa: BLE001 - handed to the caller
                box["e"] = e

        t = threading.Thread(target=call, daemon=True)
        t.start()
        t.join(timeout)
        if t.is_alive():
            self.p.kill()
            raise RuntimeError("ToolBatch: no answer within %d s" % timeout)
        if "e" in box:
            raise box["e"]
        return box["v"]

    def run(self, *args, timeout=60):
        """(rc, stdout, stderr) of one run of the tool with args."""
        if any("\x1f" in a or "\n" in a for a in args):
            raise ValueError("an argument holds a separator")
        self.p.stdin.write(("\x1f".join(args) + "\n").encode())
        self.p.stdin.flush()
        self.runs += 1

        def read():
            head = self.p.stdout.readline().decode().split()
            if len(head) != 4 or head[0] != "result":
                raise RuntimeError("ToolBatch: unexpected answer %r" % head)
            rc, no, ne = int(head[1]), int(head[2]), int(head[3])
            return rc, self.p.stdout.read(no).decode(errors="replace"), self.p.stdout.read(ne).decode(errors="replace")

        return self._bounded(read, timeout)

    def close(self):
        if self.p.poll() is None:
            try:
                self.p.stdin.close()
            except (BrokenPipeError, OSError):
                pass
            try:
                self.p.wait(10)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
