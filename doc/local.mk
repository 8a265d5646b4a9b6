## doc — the man page and the written references.
dist_man_MANS += doc/lagtop.1
EXTRA_DIST += doc/ARCHITECTURE.md doc/PERFORMANCE.md doc/LIBRDKAFKA.md doc/SIM-VS-KAFKA.md \
	doc/RESET-SEMANTICS.md doc/PROTOCOL.md doc/RECORDING.md
## configuration reference and the example (tests/unit/test_config loads the example)
dist_doc_DATA += doc/CONFIG.md doc/lagtop.conf.example
## config examples for secured clusters (tests/kafka/test_kafka_secure.py loads them)
EXTRA_DIST += doc/examples/scram-tls.conf doc/examples/mtls.conf
