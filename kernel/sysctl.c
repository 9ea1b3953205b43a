#include "kernel/sysctl.h"
#include "kernel/errno.h"
#include "kernel/ktest.h"
#include "lib/string.h"

static const struct param *find(const char *name)
{
	for (const struct param *p = __start_boot_params; p < __stop_boot_params; p++)
		if (p->sysctl && strcmp(p->name, name) == 0)
			return p;
	return NULL;
}

int sysctl_get(const char *name, int64_t *value)
{
	const struct param *p = find(name);
	if (!p)
		return -ENOENT;
	*value = __atomic_load_n((int64_t *)p->var, __ATOMIC_RELAXED);
	return 0;
}

int sysctl_set(const char *name, int64_t value)
{
	const struct param *p = find(name);
	if (!p)
		return -ENOENT;
	if (value < p->min || value > p->max)
		return -EINVAL;           /* the caller's mistake, told to the caller alone */
	__atomic_store_n((int64_t *)p->var, value, __ATOMIC_RELAXED);
	return 0;
}

void sysctl_for_each(void (*fn)(const struct param *p, void *arg), void *arg)
{
	for (const struct param *p = __start_boot_params; p < __stop_boot_params; p++)
		if (p->sysctl)
			fn(p, arg);
}

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
