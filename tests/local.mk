## tests — the frame: TAP helpers. Each module's tests are listed in that module's fragment
## (unit) or below (integration, interop, tui), one line per test.

## tests/lib — what the tests share. Python: simtest.py (TAP, prerequisites, Sim, running lagtop) and
## kafkatest.py (the tests against real Kafka: prerequisites, a cluster started, lagtop beside the real tool);
## prom_check.py (Prometheus output against the JSON) is distributed with test_once_monitoring.py.
## C: lagtop_test.h (running lagtop, the raw sim client, fuzz inputs) and commitlog_fixtures.h (hand-built
## __consumer_offsets records).
EXTRA_DIST += tests/lib/simtest.py tests/lib/kafkatest.py tests/lib/lagtop_test.h tests/lib/commitlog_fixtures.h
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
