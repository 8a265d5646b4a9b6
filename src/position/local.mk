## src/position — consumers' own positions, from the metrics they publish: the report list and
## the two parsers (Prometheus text, librdkafka statistics JSON with jansson), pure; fetch.c, the only I/O here
## (libcurl and files, in the collector thread).
liblagtop_a_SOURCES += \
	src/position/report.c src/position/report.h \
	src/position/prom.c src/position/prom.h \
	src/position/rdkstats.c src/position/rdkstats.h \
	src/position/match.c src/position/match.h \
	src/position/commitwatch.c src/position/commitwatch.h \
	src/position/fetch.c src/position/fetch.h \
	src/position/sources.c src/position/sources.h

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_position_prom tests/unit/test_position_rdkstats tests/unit/test_position_match
TESTS += tests/unit/test_position_prom tests/unit/test_position_rdkstats tests/unit/test_position_match
tests_unit_test_position_prom_SOURCES = tests/unit/test_position_prom.c
tests_unit_test_position_prom_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_position_prom_LDADD = $(UNIT_LDADD)
tests_unit_test_position_rdkstats_SOURCES = tests/unit/test_position_rdkstats.c
tests_unit_test_position_rdkstats_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_position_rdkstats_LDADD = $(UNIT_LDADD)
tests_unit_test_position_match_SOURCES = tests/unit/test_position_match.c
tests_unit_test_position_match_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_position_match_LDADD = $(UNIT_LDADD)
endif
TESTS += tests/integration/test_position_sim.py
EXTRA_DIST += tests/integration/test_position_sim.py
TESTS += tests/tui/test_position.sh
EXTRA_DIST += tests/tui/test_position.sh
