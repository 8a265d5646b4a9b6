## tests/fuzz — libFuzzer harnesses. The library is built with gcc, so each harness is compiled
## together with the sources it needs by $(CLANG) with -fsanitize=fuzzer,address,undefined. `make check`
## runs each briefly from its checked-in seed corpus (tests/fuzz/run_fuzz.sh; a TAP skip without clang's
## libFuzzer). Longer runs: doc/FUZZING.md.

FUZZ_NAMES = util config reset sim theme position record
FUZZ_SRC_UTIL = src/util/xalloc.c src/util/utf8.c src/util/sanitize.c src/util/json.c src/util/csv.c \
	src/util/timeutil.c src/util/regex.c src/util/errbuf.c src/util/prom.c src/util/file_trust.c src/util/strbuf.c \
	src/util/timeparse.c src/util/fileio.c
FUZZ_SRC_config = src/config/config_file.c src/config/schema.c src/config/load.c src/config/search_path.c \
	src/config/duration.c src/config/secrets.c src/config/connection.c src/config/command_config.c src/config/jprops.c \
	src/model/colset.c src/model/columns.c src/model/format.c src/model/snapshot.c src/model/status.c src/model/enrich.c \
	src/model/history.c src/model/lag.c src/model/rates.c src/model/timelag.c src/model/record_ts.c
FUZZ_SRC_record = src/record/codec.c src/record/file.c src/model/snapshot.c src/model/lag.c src/model/timelag.c src/model/status.c src/model/rates.c src/util/crc32c.c
FUZZ_SRC_position = src/position/report.c src/position/prom.c src/position/rdkstats.c
FUZZ_SRC_theme = src/ui/theme.c
FUZZ_SRC_reset = src/reset/plan.c src/reset/csv.c src/reset/render.c \
	src/model/snapshot.c
FUZZ_SRC_sim = src/sim/wire.c src/sim/strmap.c src/sim/cluster.c src/sim/server.c src/sim/api_table.c \
	src/sim/api_versions.c src/sim/api_metadata.c src/sim/api_find_coordinator.c src/sim/api_groups.c \
	src/sim/api_list_groups.c src/sim/api_consumer_group_describe.c src/sim/control_consumer.c \
	src/sim/api_offsets.c src/sim/api_list_offsets.c src/sim/api_create_topics.c src/sim/api_delete_records.c \
	src/sim/api_produce.c src/sim/metrics.c \
	src/sim/api_fetch.c src/sim/api_group_membership.c src/sim/membership.c src/sim/records.c \
	src/sim/record_store.c src/util/crc32c.c src/sim/control.c src/sim/scenario.c src/sim/sim.c \
	src/sim/offsets_log.c src/sim/offsets_expiry.c src/sim/housekeeping.c src/sim/api_describe_configs.c src/commitlog/encode.c src/commitlog/decode.c src/commitlog/partition.c

EXTRA_DIST += tests/fuzz/run_fuzz.sh tests/fuzz/make_sim_seeds.py $(FUZZ_NAMES:%=tests/fuzz/fuzz_%.c) \
	tests/fuzz/corpus doc/FUZZING.md
TESTS += tests/fuzz/run_fuzz.sh

if HAVE_FUZZ
FUZZ_BINS = $(FUZZ_NAMES:%=tests/fuzz/fuzz_%)
check_SCRIPTS = $(FUZZ_BINS)
CLEANFILES += $(FUZZ_BINS)
FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I$(top_srcdir)/src -I$(top_builddir) -DPKGDATADIR='"$(pkgdatadir)"' -DSYSCONFDIR='"$(sysconfdir)"' -pthread
FUZZ_LINK = $(AM_V_CCLD)$(MKDIR_P) tests/fuzz && $(CLANG) $(FUZZ_CFLAGS) -o $@

## One rule for every harness: its own file, the sources it needs (FUZZ_SRC_<name>) and util's, compiled with
## the flags (FUZZ_CFLAGS_<name>) and linked with the libraries (FUZZ_LIBS_<name>) those sources use.
FUZZ_CFLAGS_config = $(LIBCONFIG_CFLAGS)
FUZZ_LIBS_config = $(LIBCONFIG_LIBS)
FUZZ_CFLAGS_theme = $(LIBCONFIG_CFLAGS)
FUZZ_LIBS_theme = $(LIBCONFIG_LIBS)
FUZZ_CFLAGS_position = $(JANSSON_CFLAGS)
FUZZ_LIBS_position = $(JANSSON_LIBS)
FUZZ_CFLAGS_record = $(ZSTD_CFLAGS)
FUZZ_LIBS_record = $(ZSTD_LIBS)
.SECONDEXPANSION:
$(FUZZ_BINS): tests/fuzz/fuzz_%: $(top_srcdir)/tests/fuzz/fuzz_%.c $$(addprefix $(top_srcdir)/,$$(FUZZ_SRC_$$*)) \
		$(FUZZ_SRC_UTIL:%=$(top_srcdir)/%)
	$(FUZZ_LINK) $(FUZZ_CFLAGS_$*) $^ $(FUZZ_LIBS_$*) -lm
endif
