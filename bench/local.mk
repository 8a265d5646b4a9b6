## bench — scale and cost benchmarks (`make bench`), not part of `make check` (doc/PERFORMANCE.md).
## The measuring program is built on demand only (EXTRA_PROGRAMS): by `make bench`, and by the smoke
## test, which checks that it still builds and that a tiny scenario prints the table's columns.
EXTRA_PROGRAMS = bench/lagtop-bench bench/lagtop-sim-churn
## recordings of scenario M: size, writer CPU, seek time (bench/bench_record.c)
EXTRA_PROGRAMS += bench/bench_record
bench_bench_record_SOURCES = bench/bench_record.c
bench_bench_record_LDADD = $(LT_LIBS)
CLEANFILES += bench/bench_record$(EXEEXT)
bench_lagtop_bench_SOURCES = bench/lagtop_bench.c
bench_lagtop_bench_LDADD = $(LT_LIBS)
## the soak benchmark's simulated cluster: scale scenario M plus churn, in its own process (bench/soak.py)
bench_lagtop_sim_churn_SOURCES = bench/sim_churn.c
bench_lagtop_sim_churn_LDADD = $(LT_LIBS)
CLEANFILES += bench/lagtop-bench$(EXEEXT) bench/lagtop-sim-churn$(EXEEXT)
EXTRA_DIST += bench/run_bench.py bench/peer_kafka_python.py bench/soak.py bench/real_kafka.py bench/kafka_populate.py

## BENCH_ARGS: e.g. `make bench BENCH_ARGS='--scenarios S,M'` (see bench/run_bench.py --help).
## `make bench` ends with the soak benchmark (below); SOAK=no leaves it out.
bench: lagtop$(EXEEXT) lagtop-sim$(EXEEXT) bench/lagtop-bench$(EXEEXT) bench/bench_ui_draw$(EXEEXT) bench/bench_record$(EXEEXT)
	$(DEBIAN_PYTHON) $(srcdir)/bench/run_bench.py --builddir '$(abs_top_builddir)' --tmux '$(TMUX_PROG)' $(BENCH_ARGS)
	test "$(SOAK)" = no || $(MAKE) $(AM_MAKEFLAGS) bench-soak
.PHONY: bench

## The soak benchmark: the dashboard under churn for --duration seconds (default 300), RSS, CPU,
## fds and threads sampled, slopes after the warm-up. `make bench-soak SOAK_ARGS='--duration 3600'`;
## `--target kafka` (real Kafka, tests/kafka/) and `--target demo` (bench/soak.py --help).
bench-soak: lagtop$(EXEEXT) lagtop-sim$(EXEEXT) bench/lagtop-sim-churn$(EXEEXT)
	$(DEBIAN_PYTHON) $(srcdir)/bench/soak.py --builddir '$(abs_top_builddir)' --srcdir '$(abs_top_srcdir)' \
		--tmux '$(TMUX_PROG)' $(SOAK_ARGS)
.PHONY: bench-soak

TESTS += tests/bench/test_bench_smoke.sh
EXTRA_DIST += tests/bench/test_bench_smoke.sh
