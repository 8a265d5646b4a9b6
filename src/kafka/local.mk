## src/kafka — the only code that includes rdkafka.h: client, collector, reset executor.
liblagtop_a_SOURCES += \
	src/kafka/client.c src/kafka/client.h \
	src/kafka/explain.c src/kafka/explain.h \
	src/kafka/collector.c src/kafka/collector.h \
	src/kafka/refresh.c src/kafka/refresh.h \
	src/kafka/refresh_internal.h src/kafka/refresh_work.c src/kafka/refresh_steady.c \
	src/kafka/refresh_build.c src/kafka/refresh_send.c src/kafka/refresh_groups.c \
	src/kafka/log_offsets.c src/kafka/log_offsets.h src/kafka/log_starts.c src/kafka/log_starts.h \
	src/kafka/assignment.c src/kafka/assignment.h \
	src/kafka/group_batch.c src/kafka/group_batch.h \
	src/kafka/reset_exec.c src/kafka/reset_exec.h src/kafka/reset_preview.c \
	src/kafka/reset_store.c src/kafka/reset_store.h \
	src/kafka/reset_int.h \
	src/kafka/delete_exec.c src/kafka/delete_exec.h \
	src/kafka/record_peek.c src/kafka/record_peek.h

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_collector tests/integration/test_collector_sim tests/unit/test_reset_store
TESTS += tests/unit/test_collector tests/integration/test_collector_sim tests/unit/test_reset_store
tests_unit_test_collector_SOURCES = tests/unit/test_collector.c
tests_unit_test_collector_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_collector_LDADD = $(UNIT_LDADD)
tests_integration_test_collector_sim_SOURCES = tests/integration/test_collector_sim.c
tests_integration_test_collector_sim_CFLAGS = $(UNIT_CFLAGS)
tests_integration_test_collector_sim_LDADD = $(UNIT_LDADD)
tests_unit_test_reset_store_SOURCES = tests/unit/test_reset_store.c
tests_unit_test_reset_store_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_reset_store_LDADD = $(UNIT_LDADD)
## the log starts a dashboard carries between refreshes
check_PROGRAMS += tests/unit/test_log_starts
TESTS += tests/unit/test_log_starts
tests_unit_test_log_starts_SOURCES = tests/unit/test_log_starts.c
tests_unit_test_log_starts_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_log_starts_LDADD = $(UNIT_LDADD)
## the consumer assignment bytes of the batched DescribeGroups (hostile ones included)
check_PROGRAMS += tests/unit/test_assignment
TESTS += tests/unit/test_assignment
tests_unit_test_assignment_SOURCES = tests/unit/test_assignment.c
tests_unit_test_assignment_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_assignment_LDADD = $(UNIT_LDADD)
## how the batched describe reads rd_kafka_list_groups' answer (a group described twice, a partial answer)
check_PROGRAMS += tests/unit/test_group_batch
TESTS += tests/unit/test_group_batch
tests_unit_test_group_batch_SOURCES = tests/unit/test_group_batch.c
tests_unit_test_group_batch_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_group_batch_LDADD = $(UNIT_LDADD)
## deletes: a member joining between the guard and the delete (the broker refuses; the backup is there)
check_PROGRAMS += tests/unit/test_explain_acl
TESTS += tests/unit/test_explain_acl
tests_unit_test_explain_acl_SOURCES = tests/unit/test_explain_acl.c
tests_unit_test_explain_acl_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_explain_acl_LDADD = $(UNIT_LDADD)
check_PROGRAMS += tests/integration/test_delete_race_sim
TESTS += tests/integration/test_delete_race_sim
tests_integration_test_delete_race_sim_SOURCES = tests/integration/test_delete_race_sim.c
tests_integration_test_delete_race_sim_CFLAGS = $(UNIT_CFLAGS)
tests_integration_test_delete_race_sim_LDADD = $(UNIT_LDADD)
endif

## the two log-offsets paths (ListOffsets / offsets_for_times) and a broker before KIP-848
TESTS += tests/integration/test_log_offsets_sim.py
EXTRA_DIST += tests/integration/test_log_offsets_sim.py

## the steady refresh (committed offsets from the commit stream) against full polling
TESTS += tests/integration/test_steady_sim.py
EXTRA_DIST += tests/integration/test_steady_sim.py
