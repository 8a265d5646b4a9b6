/* cmocka_main.h — the main() every cmocka test program has, written once: its tests, run as one group
 * named "tests" with the group's setup and teardown (NULL for none). Included after <cmocka.h>, as
 * "../lib/cmocka_main.h"; used at the end of the file, without a semicolon:
 *     LT_TEST_MAIN(NULL, NULL, cmocka_unit_test(parses), cmocka_unit_test(rejects))
 * LT_FIXTURE_TEST(name) is a test run between the file's own functions named setup and teardown, for the
 * files whose every test wants a fresh fixture. */
#ifndef LAGTOP_TESTS_CMOCKA_MAIN_H
#define LAGTOP_TESTS_CMOCKA_MAIN_H

#define LT_TEST_MAIN(group_setup, group_teardown, ...)                                                                 \
	int main(void)                                                                                                 \
	{                                                                                                              \
		const struct CMUnitTest tests[] = { __VA_ARGS__ };                                                     \
		return cmocka_run_group_tests(tests, group_setup, group_teardown);                                     \
	}

#define LT_FIXTURE_TEST(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

#endif
