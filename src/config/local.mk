## src/config — the configuration file (libconfig) and cluster selection. See src/config/config.h.
liblagtop_a_SOURCES += \
	src/config/config.c src/config/config.h \
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
