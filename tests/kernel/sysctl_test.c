/* ktest=sysctl: the tests of kernel/sysctl.c, through its public interface. */
#include "kernel/sysctl.h"
#include "kernel/errno.h"
#include "kernel/debug/ktest.h"

static int64_t ktest_knob = 5;
SYSCTL_INT("ktest_knob", ktest_knob, 1, 10, "a tunable for the sysctl tests");

KTEST(sysctl, get_set_and_refuse_out_of_range)
{
	int64_t v = 0;
	KEXPECT_EQ(t, sysctl_get("ktest_knob", &v), 0);
	KEXPECT_EQ(t, v, 5);
	KEXPECT_EQ(t, sysctl_set("ktest_knob", 7), 0);
	KEXPECT_EQ(t, ktest_knob, 7);
	KEXPECT_EQ(t, sysctl_set("ktest_knob", 11), -EINVAL);
	KEXPECT_EQ(t, sysctl_set("ktest_knob", 0), -EINVAL);
	KEXPECT_EQ(t, ktest_knob, 7);
	KEXPECT_EQ(t, sysctl_get("no_such_knob", &v), -ENOENT);
	KEXPECT_EQ(t, sysctl_get("hz", &v), -ENOENT);        /* a boot-only parameter */
	sysctl_set("ktest_knob", 5);
}
