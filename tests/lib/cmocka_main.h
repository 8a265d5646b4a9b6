/* cmocka_main.h — the main() every cmocka test program has, written once: the file's tests[], run as one
 * group named "tests" with the group's setup and teardown (NULL for none). Included after <cmocka.h>, as
 * "../lib/cmocka_main.h"; at the end of the file, one test a line (adding one is a one-line change):
 *     static const struct CMUnitTest tests[] = {
 *             cmocka_unit_test(parses),
 *             cmocka_unit_test(rejects),
 *     };
 *
 *     LT_TEST_MAIN(NULL, NULL)
 * LT_FIXTURE_TEST(name) is a test run between the file's own functions named setup and teardown, for the
 * files whose every test wants a fresh fixture. */
#ifndef LAGTOP_TESTS_CMOCKA_MAIN_H
#define LAGTOP_TESTS_CMOCKA_MAIN_H

#define LT_TEST_MAIN(group_setup, group_teardown)                                                                      \
	int main(void)                                                                                                 \
	{                                                                                                              \
		return cmocka_run_group_tests(tests, group_setup, group_teardown);                                     \
	}

#define LT_FIXTURE_TEST(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

#endif
