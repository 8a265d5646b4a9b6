## src/sim — the simulated Kafka cluster (Kafka wire protocol on 127.0.0.1); see doc/ARCHITECTURE.md.
## Everything but main.c is in the library, so lagtop --demo and the tests run the sim in-process.
liblagtop_a_SOURCES += \
	src/sim/wire.c src/sim/wire.h \
	src/sim/strmap.c src/sim/strmap.h \
	src/sim/cluster.c src/sim/cluster.h \
	src/sim/server.c src/sim/server.h \
	src/sim/api.h src/sim/api_table.c \
	src/sim/api_versions.c src/sim/api_metadata.c src/sim/api_find_coordinator.c \
	src/sim/api_groups.c src/sim/api_list_groups.c src/sim/api_consumer_group_describe.c src/sim/api_offsets.c src/sim/api_list_offsets.c src/sim/api_create_topics.c src/sim/api_delete_records.c \
	src/sim/control.c src/sim/control_consumer.c src/sim/control.h \
	src/sim/scenario.c src/sim/scenario.h \
	src/sim/metrics.c src/sim/metrics.h \
	src/sim/sim.c src/sim/sim.h

bin_PROGRAMS += lagtop-sim
lagtop_sim_SOURCES = src/sim/main.c
lagtop_sim_LDADD = $(LT_LIBS)

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_sim_cluster
TESTS += tests/unit/test_sim_cluster
tests_unit_test_sim_cluster_SOURCES = tests/unit/test_sim_cluster.c
tests_unit_test_sim_cluster_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_sim_cluster_LDADD = $(UNIT_LDADD)
check_PROGRAMS += tests/integration/test_sim_admin
TESTS += tests/integration/test_sim_admin
tests_integration_test_sim_admin_SOURCES = tests/integration/test_sim_admin.c
tests_integration_test_sim_admin_CFLAGS = $(UNIT_CFLAGS)
tests_integration_test_sim_admin_LDADD = $(UNIT_LDADD)
check_PROGRAMS += tests/integration/test_sim_garbage
TESTS += tests/integration/test_sim_garbage
tests_integration_test_sim_garbage_SOURCES = tests/integration/test_sim_garbage.c
tests_integration_test_sim_garbage_CFLAGS = $(UNIT_CFLAGS)
tests_integration_test_sim_garbage_LDADD = $(UNIT_LDADD)
endif

TESTS += tests/interop/test_sim_kafka_python.py
EXTRA_DIST += tests/interop/test_sim_kafka_python.py

## ---- sim-groups (real clients): record batches, group membership, Produce/Fetch, JoinGroup & co. ----
liblagtop_a_SOURCES += src/sim/records.c src/sim/records.h \
	src/sim/membership.c src/sim/membership.h \
	src/sim/record_store.c src/sim/record_store.h \
	src/sim/offsets_expiry.c src/sim/offsets_expiry.h src/sim/housekeeping.c src/sim/housekeeping.h \
	src/sim/api_produce.c src/sim/api_fetch.c src/sim/api_group_membership.c

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
check_PROGRAMS += tests/unit/test_sim_record_store tests/unit/test_sim_housekeeping
TESTS += tests/unit/test_sim_housekeeping
tests_unit_test_sim_housekeeping_SOURCES = tests/unit/test_sim_housekeeping.c
tests_unit_test_sim_housekeeping_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_sim_housekeeping_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_sim_record_store
tests_unit_test_sim_record_store_SOURCES = tests/unit/test_sim_record_store.c
tests_unit_test_sim_record_store_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_sim_record_store_LDADD = $(UNIT_LDADD)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/integration/test_sim_consumers
TESTS += tests/integration/test_sim_consumers
tests_integration_test_sim_consumers_SOURCES = tests/integration/test_sim_consumers.c
tests_integration_test_sim_consumers_CFLAGS = $(UNIT_CFLAGS)
tests_integration_test_sim_consumers_LDADD = $(UNIT_LDADD)
check_PROGRAMS += tests/integration/test_sim_fetch
TESTS += tests/integration/test_sim_fetch
tests_integration_test_sim_fetch_SOURCES = tests/integration/test_sim_fetch.c
tests_integration_test_sim_fetch_CFLAGS = $(UNIT_CFLAGS)
tests_integration_test_sim_fetch_LDADD = $(UNIT_LDADD)
check_PROGRAMS += tests/integration/test_sim_group_wire
TESTS += tests/integration/test_sim_group_wire
tests_integration_test_sim_group_wire_SOURCES = tests/integration/test_sim_group_wire.c
tests_integration_test_sim_group_wire_CFLAGS = $(UNIT_CFLAGS)
tests_integration_test_sim_group_wire_LDADD = $(UNIT_LDADD)
check_PROGRAMS += tests/integration/test_sim_group_churn
TESTS += tests/integration/test_sim_group_churn
tests_integration_test_sim_group_churn_SOURCES = tests/integration/test_sim_group_churn.c
tests_integration_test_sim_group_churn_CFLAGS = $(UNIT_CFLAGS)
tests_integration_test_sim_group_churn_LDADD = $(UNIT_LDADD)
endif
TESTS += tests/interop/test_sim_groups_kafka_python.py
EXTRA_DIST += tests/interop/test_sim_groups_kafka_python.py

## ---- sim4x: consumer-protocol (KIP-848) groups and Kafka 4.x's API versions (KIP-896) ----
if HAVE_CMOCKA
check_PROGRAMS += tests/integration/test_sim_kip848
TESTS += tests/integration/test_sim_kip848
tests_integration_test_sim_kip848_SOURCES = tests/integration/test_sim_kip848.c tests/lib/lagtop_test.h
tests_integration_test_sim_kip848_CFLAGS = $(UNIT_CFLAGS)
tests_integration_test_sim_kip848_LDADD = $(UNIT_LDADD)
check_PROGRAMS += tests/integration/test_sim_versions
TESTS += tests/integration/test_sim_versions
tests_integration_test_sim_versions_SOURCES = tests/integration/test_sim_versions.c tests/lib/lagtop_test.h
tests_integration_test_sim_versions_CFLAGS = $(UNIT_CFLAGS)
tests_integration_test_sim_versions_LDADD = $(UNIT_LDADD)
endif
