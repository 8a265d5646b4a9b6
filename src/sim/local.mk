## src/sim — see doc/ARCHITECTURE.md.

## ---- sim-groups (issue 4): record batches, group membership, Produce/Fetch, JoinGroup & co. ----
liblagtop_a_SOURCES += src/sim/crc32c.c src/sim/crc32c.h src/sim/records.c src/sim/records.h \
	src/sim/membership.c src/sim/membership.h

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_sim_records
TESTS += tests/unit/test_sim_records
tests_unit_test_sim_records_SOURCES = tests/unit/test_sim_records.c
tests_unit_test_sim_records_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_sim_records_LDADD = $(UNIT_LDADD)
check_PROGRAMS += tests/unit/test_sim_membership
TESTS += tests/unit/test_sim_membership
tests_unit_test_sim_membership_SOURCES = tests/unit/test_sim_membership.c
tests_unit_test_sim_membership_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_sim_membership_LDADD = $(UNIT_LDADD)
endif
