## tests/faults — lagtop under faults and bad input (the tests live in tests/integration/).

if HAVE_CMOCKA
check_PROGRAMS += tests/integration/test_faults_collector
TESTS += tests/integration/test_faults_collector
tests_integration_test_faults_collector_SOURCES = tests/integration/test_faults_collector.c tests/lib/lagtop_test.h
tests_integration_test_faults_collector_CFLAGS = $(UNIT_CFLAGS)
tests_integration_test_faults_collector_LDADD = $(UNIT_LDADD)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/integration/test_faults_hostile
TESTS += tests/integration/test_faults_hostile
tests_integration_test_faults_hostile_SOURCES = tests/integration/test_faults_hostile.c tests/lib/hostile.h tests/lib/lagtop_test.h
tests_integration_test_faults_hostile_CFLAGS = $(UNIT_CFLAGS)
tests_integration_test_faults_hostile_LDADD = $(UNIT_LDADD)
endif
EXTRA_DIST += tests/integration/check_hostile.py

TESTS += tests/integration/test_faults_once.sh
EXTRA_DIST += tests/integration/test_faults_once.sh

TESTS += tests/integration/test_faults_badinput.sh
EXTRA_DIST += tests/integration/test_faults_badinput.sh

## nothing another user could write is trusted, nothing blocks (FIFOs, a 10 MB value, a zstd bomb), no core
TESTS += tests/integration/test_faults_trust.sh
EXTRA_DIST += tests/integration/test_faults_trust.sh

if HAVE_CMOCKA
check_PROGRAMS += tests/integration/test_faults_reset
TESTS += tests/integration/test_faults_reset
tests_integration_test_faults_reset_SOURCES = tests/integration/test_faults_reset.c tests/lib/lagtop_test.h
tests_integration_test_faults_reset_CFLAGS = $(UNIT_CFLAGS)
tests_integration_test_faults_reset_LDADD = $(UNIT_LDADD)
endif

## valgrind memcheck of --once and a dashboard session: skips itself in ASan builds (see the script).
TESTS += tests/valgrind.sh
EXTRA_DIST += tests/valgrind.sh

## The dashboard under faults and hostile names (tmux; tests/lib/tui.sh), against faults_fixture.
check_PROGRAMS += tests/tui/faults_fixture
tests_tui_faults_fixture_SOURCES = tests/tui/faults_fixture.c tests/lib/hostile.h
tests_tui_faults_fixture_LDADD = $(LT_LIBS)
TESTS += tests/tui/test_faults_tui.sh
EXTRA_DIST += tests/tui/test_faults_tui.sh
