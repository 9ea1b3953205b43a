/*
 * The lib/ API as the tests see it: declared under the lm_ names of
 * tests/host/host_names.h, after which the standard names are released so the
 * tests can call the host libc too (lm_snprintf vs snprintf).
 * Include this before any system header.
 */
#ifndef TESTS_LIB_H
#define TESTS_LIB_H

#include "tests/host/host_names.h"

#include "lib/cmdline.h"
#include "lib/printf.h"
#include "lib/rbtree.h"
#include "lib/string.h"
#include "lib/util.h"

#undef memset
#undef memcpy
#undef memmove
#undef memcmp
#undef strlen
#undef strnlen
#undef strcmp
#undef strncmp
#undef strchr
#undef strrchr
#undef strlcpy
#undef vsnprintf
#undef snprintf

#endif
