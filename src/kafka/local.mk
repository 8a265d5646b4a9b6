## src/kafka — the only code that includes rdkafka.h: client, collector, reset executor.
liblagtop_a_SOURCES += \
	src/kafka/client.c src/kafka/client.h \
	src/kafka/collector.c src/kafka/collector.h \
	src/kafka/refresh.c src/kafka/refresh.h \
	src/kafka/xmodes.c \
	src/kafka/model_pending.c
