## src/commitlog — pure C: __consumer_offsets records (decode, encode, partition of a group) and the
## commit-stream model (last commit, commit rate, unmoved offsets, offset-expiry forecast). No I/O.
liblagtop_a_SOURCES += \
	src/commitlog/record.h src/commitlog/decode.c src/commitlog/encode.c src/commitlog/partition.c \
	src/commitlog/stream.h src/commitlog/stream.c

## The reader of __consumer_offsets lives in src/kafka (it includes rdkafka.h) but is listed here so
## that this module's files stay in one fragment.
liblagtop_a_SOURCES += src/kafka/commitreader.c src/kafka/commitreader.h
## ... and the copy of its facts into each snapshot (called by the collector).
liblagtop_a_SOURCES += src/kafka/commit_snapshot.c src/kafka/commit_snapshot.h
## Likewise the simulated cluster's side: the records it writes to __consumer_offsets, and the
## DescribeConfigs API that serves offsets.retention.minutes.
liblagtop_a_SOURCES += src/sim/offsets_log.c src/sim/offsets_log.h src/sim/api_describe_configs.c

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_commitlog_decode tests/unit/test_commitlog_encode tests/unit/test_commitlog_stream \
	tests/unit/test_commitlog_reader tests/unit/test_commitlog_simlog tests/integration/test_commitlog_sim
TESTS += tests/unit/test_commitlog_decode tests/unit/test_commitlog_encode tests/unit/test_commitlog_stream \
	tests/unit/test_commitlog_reader tests/unit/test_commitlog_simlog tests/integration/test_commitlog_sim
tests_unit_test_commitlog_decode_SOURCES = tests/unit/test_commitlog_decode.c tests/lib/commitlog_fixtures.h
tests_unit_test_commitlog_decode_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_commitlog_decode_LDADD = $(UNIT_LDADD)
tests_unit_test_commitlog_encode_SOURCES = tests/unit/test_commitlog_encode.c tests/lib/commitlog_fixtures.h
tests_unit_test_commitlog_encode_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_commitlog_encode_LDADD = $(UNIT_LDADD)
tests_unit_test_commitlog_stream_SOURCES = tests/unit/test_commitlog_stream.c tests/lib/commitlog_fixtures.h
tests_unit_test_commitlog_stream_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_commitlog_stream_LDADD = $(UNIT_LDADD)
tests_unit_test_commitlog_reader_SOURCES = tests/unit/test_commitlog_reader.c tests/lib/commitlog_fixtures.h
tests_unit_test_commitlog_reader_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_commitlog_reader_LDADD = $(UNIT_LDADD)
tests_unit_test_commitlog_simlog_SOURCES = tests/unit/test_commitlog_simlog.c
tests_unit_test_commitlog_simlog_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_commitlog_simlog_LDADD = $(UNIT_LDADD)
tests_integration_test_commitlog_sim_SOURCES = tests/integration/test_commitlog_sim.c
tests_integration_test_commitlog_sim_CFLAGS = $(UNIT_CFLAGS)
tests_integration_test_commitlog_sim_LDADD = $(UNIT_LDADD)
endif

## End to end: kafka-python commits at known moments, `lagtop --once` reports them; off and denied.
TESTS += tests/integration/test_commitstream_sim.py
EXTRA_DIST += tests/integration/test_commitstream_sim.py
## --once knows where __consumer_offsets ends (its end at the start) and prints what a read to EOF prints
TESTS += tests/integration/test_once_commit_end.py
EXTRA_DIST += tests/integration/test_once_commit_end.py
## Offsets that really expire: the sim's expiry against lagtop's forecast, and the expired display.
TESTS += tests/integration/test_expiry_sim.py
EXTRA_DIST += tests/integration/test_expiry_sim.py
## ... and in the dashboard (tmux), on the fixture scenario and on a cluster that denies the topic.
TESTS += tests/tui/test_commitstream.sh
EXTRA_DIST += tests/tui/test_commitstream.sh
## offsets the broker expired, in the dashboard
TESTS += tests/tui/test_expired.sh
EXTRA_DIST += tests/tui/test_expired.sh
