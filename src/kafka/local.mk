## src/kafka — the only code that includes rdkafka.h: client, collector, reset executor.
liblagtop_a_SOURCES += \
	src/kafka/client.c src/kafka/client.h \
	src/kafka/collector.c src/kafka/collector.h \
	src/kafka/refresh.c src/kafka/refresh.h \
	src/kafka/xmodes.c

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_collector
TESTS += tests/unit/test_collector
tests_unit_test_collector_SOURCES = tests/unit/test_collector.c
tests_unit_test_collector_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_collector_LDADD = $(UNIT_LDADD)
endif
