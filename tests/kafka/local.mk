## tests/kafka — real Apache Kafka brokers (3.9.x and 4.x, pinned in pom.xml, from Maven Central) with the
## real kafka-consumer-groups as the reference. tests/lib/kafka_cluster.py starts and stops them; each test starts
## its own cluster on 127.0.0.1 and stops it. Without java/mvn the tests skip (and fail under CI=true).

KAFKA_TEST_FILES = tests/kafka/pom.xml tests/kafka/requirements.txt tests/kafka/RefConsumer.java \
	tests/kafka/ToolBatch.java
EXTRA_DIST += $(KAFKA_TEST_FILES)

TESTS += tests/kafka/test_kafka_harness.py
EXTRA_DIST += tests/kafka/test_kafka_harness.py
TESTS += tests/kafka/test_kafka_groups_current.py
EXTRA_DIST += tests/kafka/test_kafka_groups_current.py
## what lagtop shows against the real kafka-consumer-groups (offsets, members, state; sim, 3.9, 4.x, 3 nodes)
TESTS += tests/kafka/test_kafka_describe.py
EXTRA_DIST += tests/kafka/test_kafka_describe.py
## lagtop's resets against the real kafka-consumer-groups (plans, messages, executes, the guard)
TESTS += tests/kafka/test_kafka_reset.py
EXTRA_DIST += tests/kafka/test_kafka_reset.py
## a reset whose commit gets no answer (the broker SIGSTOPped mid-commit): settled by reading back
TESTS += tests/kafka/test_kafka_reset_outcome.py
EXTRA_DIST += tests/kafka/test_kafka_reset_outcome.py
## --delete / --delete-offsets against the real tool on twin groups; guard on real members; backup and undo
TESTS += tests/kafka/test_kafka_delete.py
EXTRA_DIST += tests/kafka/test_kafka_delete.py
## committed offsets that really expire (offsets.retention.minutes=1) vs lagtop's forecast; 3.9 and 4.x at once
TESTS += tests/kafka/test_kafka_expiry.py
EXTRA_DIST += tests/kafka/test_kafka_expiry.py
## --once knows where __consumer_offsets ends: transactional, aborted and open commits; the same JSON as a read to EOF
TESTS += tests/kafka/test_kafka_commit_end.py
EXTRA_DIST += tests/kafka/test_kafka_commit_end.py
## time lags read from records in large batches (librdkafka's 1 MB): every partition's, exact
TESTS += tests/kafka/test_kafka_timelag_batches.py
EXTRA_DIST += tests/kafka/test_kafka_timelag_batches.py
## secured clusters: SCRAM (SASL_PLAINTEXT, SASL_SSL), TLS, mutual TLS, ACLs (StandardAuthorizer); 4.x and 3.9
TESTS += tests/kafka/test_kafka_secure.py
EXTRA_DIST += tests/kafka/test_kafka_secure.py
## kafka-consumer-groups' command line (--list, --describe, several-group resets, --timeout, --command-config) against the real tool
TESTS += tests/kafka/test_kafka_kcg.py
EXTRA_DIST += tests/kafka/test_kafka_kcg.py

## class paths, compiled reference clients and the virtual environment live in the build tree
clean-local: clean-local-kafka
clean-local-kafka:
	rm -rf tests/kafka/cache
.PHONY: clean-local-kafka
## consumers' own positions: Java consumers with the JMX exporter agent, librdkafka statistics
TESTS += tests/kafka/test_kafka_position.py
EXTRA_DIST += tests/kafka/test_kafka_position.py
## the steady refresh (commit stream live) against full polling on real 4.x and 3.9: resets by lagtop and the
## real tool, a member joining and leaving, a deletion, the stream cut off by an ACL
TESTS += tests/kafka/test_kafka_steady.py
EXTRA_DIST += tests/kafka/test_kafka_steady.py
