/* A shared object that tests/user/dyn/features.c loads with dlopen(): its
 * constructor runs, its symbols are found, and it calls back into the C
 * library the program already has. */
#include <stdio.h>

static int ready;

__attribute__((constructor)) static void plugin_init(void)
{
	ready = 1;
}

int plugin_answer(char *buf, size_t size, int x)
{
	return snprintf(buf, size, "plugin: ready %d, %d * 6 = %d", ready, x, x * 6);
}
