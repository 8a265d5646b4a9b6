/* test_explain_acl.c — authorization errors named with the ACL they need (explain_authorization), as
 * librdkafka words them ("Broker: Group authorization failed") or carries them inside a longer text. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "kafka/explain.h"
#include "../lib/cmocka_main.h"

static void names_the_acl_per_request(void **state)
{
	(void)state;
	char out[200];
	assert_true(explain_authorization("DescribeGroups", "Broker: Group authorization failed", out, sizeof out));
	assert_string_equal(out, "not authorized to describe the group (ACL: Describe on the Group)");
	assert_true(explain_authorization(
		"OffsetFetch",
		"LISTCONSUMERGROUPOFFSETS worker failed: response failure: Broker: Topic authorization failed", out,
		sizeof out));
	assert_string_equal(out, "not authorized to read the group's committed offsets (ACL: Describe on its Topics)");
	assert_true(explain_authorization("ListGroups", "Broker: Cluster authorization failed", out, sizeof out));
	assert_string_equal(out, "not authorized on the cluster (ACL: Describe on the Cluster)");
	assert_true(explain_authorization("DeleteGroups", "Broker: Group authorization failed", out, sizeof out));
	assert_string_equal(out, "not authorized to delete the group (ACL: Delete on the Group)");
}

static void leaves_other_errors_alone(void **state)
{
	(void)state;
	char out[64] = "untouched";
	assert_false(explain_authorization("DescribeGroups", "Broker: Coordinator not available", out, sizeof out));
	assert_false(explain_authorization("DescribeGroups", NULL, out, sizeof out));
	assert_string_equal(out, "untouched");
	/* an unknown request still says what was denied */
	assert_true(explain_authorization("Frobnicate", "Broker: Group authorization failed", out, sizeof out));
	assert_string_equal(out, "not authorized (ACL on the Group)");
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(names_the_acl_per_request),
	cmocka_unit_test(leaves_other_errors_alone),
};

LT_TEST_MAIN(NULL, NULL)
