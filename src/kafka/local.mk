## src/kafka — the only code that includes rdkafka.h: client, collector, reset executor.
