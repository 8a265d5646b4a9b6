## tests — the frame: TAP helpers. Each module's tests are listed in that module's fragment
## (unit) or below (integration, interop, tui), one line per test.

## tests/lib — what the tests share. Python: simtest.py (TAP, prerequisites, Sim, running lagtop),
## prom_check.py (Prometheus output against the JSON) and kafkatest.py (the tests against real Kafka:
## prerequisites, a cluster started, lagtop beside the real tool) over kafka_cluster.py (the brokers),
## kafka_member.py (a Python group member) and kafka_tool_batch.py (the real tool, many runs in one JVM);
## timelag.py (stopped groups' time lags over many refreshes, on the sim and real Kafka).
## Shell: tap.sh (TAP, prerequisites, cleanup), sim.sh (lagtop-sim in the background) and tui.sh (lagtop in a
## private tmux server).
## C: lagtop_test.h (running lagtop, the raw sim client, fuzz inputs) and commitlog_fixtures.h (hand-built
## __consumer_offsets records).
EXTRA_DIST += tests/lib/simtest.py tests/lib/prom_check.py tests/lib/kafkatest.py tests/lib/kafka_cluster.py \
	tests/lib/kafka_member.py tests/lib/kafka_tool_batch.py tests/lib/tap.sh tests/lib/sim.sh \
	tests/lib/tui.sh tests/lib/timelag.py tests/lib/lagtop_test.h tests/lib/commitlog_fixtures.h
## cmocka_main.h: the main() of a cmocka test program (LT_TEST_MAIN), written once.
EXTRA_DIST += tests/lib/cmocka_main.h

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_snapshot tests/unit/test_options
TESTS += tests/unit/test_snapshot tests/unit/test_options
tests_unit_test_snapshot_SOURCES = tests/unit/test_snapshot.c
tests_unit_test_snapshot_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_snapshot_LDADD = $(UNIT_LDADD)
tests_unit_test_options_SOURCES = tests/unit/test_options.c
tests_unit_test_options_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_options_LDADD = $(UNIT_LDADD)
endif

## integration: guarded resets against the in-process simulated cluster (and the lagtop binary)
if HAVE_CMOCKA
check_PROGRAMS += tests/integration/test_reset_sim
TESTS += tests/integration/test_reset_sim
tests_integration_test_reset_sim_SOURCES = tests/integration/test_reset_sim.c tests/lib/lagtop_test.h
tests_integration_test_reset_sim_CFLAGS = $(UNIT_CFLAGS)
tests_integration_test_reset_sim_LDADD = $(UNIT_LDADD)
endif
## integration: KIP-848 consumer-protocol groups through the collector, --once and resets
if HAVE_CMOCKA
check_PROGRAMS += tests/integration/test_kip848_sim
TESTS += tests/integration/test_kip848_sim
tests_integration_test_kip848_sim_SOURCES = tests/integration/test_kip848_sim.c tests/lib/lagtop_test.h
tests_integration_test_kip848_sim_CFLAGS = $(UNIT_CFLAGS)
tests_integration_test_kip848_sim_LDADD = $(UNIT_LDADD)
endif
TESTS += tests/integration/test_reset_consumers.py
EXTRA_DIST += tests/integration/test_reset_consumers.py
TESTS += tests/integration/test_reset_outcome_sim.py
EXTRA_DIST += tests/integration/test_reset_outcome_sim.py
TESTS += tests/integration/test_unread_sim.py
EXTRA_DIST += tests/integration/test_unread_sim.py
TESTS += tests/integration/test_group_batch_sim.py
EXTRA_DIST += tests/integration/test_group_batch_sim.py
