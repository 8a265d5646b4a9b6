## bench — scale and cost benchmarks (`make bench`), not part of `make check` (doc/PERFORMANCE.md).
## The measuring program is built on demand only (EXTRA_PROGRAMS): by `make bench`, and by the smoke
## test, which checks that it still builds and that a tiny scenario prints the table's columns.
EXTRA_PROGRAMS = bench/lagtop-bench
bench_lagtop_bench_SOURCES = bench/lagtop_bench.c
bench_lagtop_bench_LDADD = $(LT_LIBS)
CLEANFILES += bench/lagtop-bench$(EXEEXT)
EXTRA_DIST += bench/run_bench.py bench/peer_kafka_python.py

## BENCH_ARGS: e.g. `make bench BENCH_ARGS='--scenarios S,M'` (see bench/run_bench.py --help).
bench: lagtop$(EXEEXT) lagtop-sim$(EXEEXT) bench/lagtop-bench$(EXEEXT) bench/bench_ui_draw$(EXEEXT)
	$(DEBIAN_PYTHON) $(srcdir)/bench/run_bench.py --builddir '$(abs_top_builddir)' --tmux '$(TMUX)' $(BENCH_ARGS)
.PHONY: bench

TESTS += tests/bench/test_bench_smoke.sh
EXTRA_DIST += tests/bench/test_bench_smoke.sh
