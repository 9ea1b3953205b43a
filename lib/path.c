#include "lib/path.h"

size_t path_next(const char **at, const char **name)
{
	const char *p = *at;
	while (*p == '/')
		p++;
	*name = p;
	while (*p && *p != '/')
		p++;
	*at = p;
	return (size_t)(p - *name);
}

enum path_kind path_kind(const char *name, size_t len)
{
	if (len == 1 && name[0] == '.')
		return PATH_DOT;
	if (len == 2 && name[0] == '.' && name[1] == '.')
		return PATH_DOTDOT;
	return PATH_NAME;
}
