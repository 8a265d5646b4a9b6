## tests — the frame: TAP helpers. Each module's tests are listed in that module's fragment
## (unit) or below (integration, interop, tui), one line per test.

## what the Python tests share (TAP, prerequisites, Sim, running lagtop): tests/lib/simtest.py; beside it
## what the tests against real Kafka share (prerequisites, a cluster started, lagtop beside the real tool)
EXTRA_DIST += tests/lib/simtest.py tests/lib/kafkatest.py tests/lib/lagtop_test.h

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
