/*
 * Paths, piece by piece: "/usr//lib/./x/" is the components "usr", "lib",
 * "." and "x", and a slash after the last. Pure code (host-tested in
 * tests/host/path_test.c); kernel/fs/path_walk.c follows the pieces through the
 * file system's tree.
 */
#ifndef LIB_PATH_H
#define LIB_PATH_H

#include <stdbool.h>
#include <stddef.h>

#define PATH_MAX 4096                 /* a whole path, with its NUL, as Linux's */
#define NAME_MAX 255                  /* one component, as Linux's */

/* What a component is: a name, or one of the two every directory has. */
enum path_kind { PATH_NAME, PATH_DOT, PATH_DOTDOT };

/* The next component at *at, slashes before it skipped: its length (0 when
 * none is left), its first character in *name; *at moves just past it. */
size_t path_next(const char **at, const char **name);

enum path_kind path_kind(const char *name, size_t len);

#endif
