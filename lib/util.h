/* Small helpers shared by lib/ and the kernel. */
#ifndef LIB_UTIL_H
#define LIB_UTIL_H

#include <stddef.h>

/* Recover the enclosing struct from a pointer to one of its members
 * (intrusive data structures embed their links inside the object). */
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Beware: these evaluate their arguments twice. */
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

#endif
