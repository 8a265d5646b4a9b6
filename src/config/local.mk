## src/config — the configuration file (libconfig) and the connection type. See src/config/config_file.h.
## (How the file combines with the command line is src/cli/target.c's job: config/ never includes cli/.)
liblagtop_a_SOURCES += \
	src/config/config_file.c src/config/config_file.h \
	src/config/schema.c src/config/schema.h \
	src/config/load.c src/config/save_columns.c \
	src/config/search_path.c \
	src/config/duration.c src/config/duration.h \
	src/config/secrets.c src/config/secrets.h \
	src/config/connection.c src/config/connection.h \
	src/config/jprops.c src/config/jprops.h \
	src/config/command_config.c src/config/command_config.h

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_config
TESTS += tests/unit/test_config
tests_unit_test_config_SOURCES = tests/unit/test_config.c
tests_unit_test_config_CFLAGS = $(UNIT_CFLAGS) -DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_unit_test_config_LDADD = $(UNIT_LDADD)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_command_config
TESTS += tests/unit/test_command_config
tests_unit_test_command_config_SOURCES = tests/unit/test_command_config.c
tests_unit_test_command_config_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_command_config_LDADD = $(UNIT_LDADD)
endif

## the include graph of doc/ARCHITECTURE.md: config/ and kafka/ (and everything but src/cli) never include cli/
TESTS += tests/unit/test_include_rules.sh
EXTRA_DIST += tests/unit/test_include_rules.sh
