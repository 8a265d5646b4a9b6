## src/kafka — the only code that includes rdkafka.h: client, collector, reset executor.
liblagtop_a_SOURCES += \
	src/kafka/reset_exec.c src/kafka/reset_exec.h \
	src/kafka/reset_store.c src/kafka/reset_store.h
