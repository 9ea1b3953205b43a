#include "kernel/sysctl.h"
#include "kernel/errno.h"
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
