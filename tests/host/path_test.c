/* lib/path.c: a path's components, whatever its slashes. */
#include "lib/path.h"
#include "tests/host/test.h"

/* The components of path, joined by '|'. */
static const char *pieces(const char *path)
{
	static char out[256];
	size_t used = 0, len;
	const char *at = path, *name;
	while ((len = path_next(&at, &name)) > 0) {
		if (used)
			out[used++] = '|';
		memcpy(out + used, name, len);
		used += len;
	}
	out[used] = '\0';
	return out;
}

TEST(path_components_skip_repeated_slashes)
{
	EXPECT(strcmp(pieces("/usr//lib/./x"), "usr|lib|.|x") == 0);
	EXPECT(strcmp(pieces("a"), "a") == 0);
	EXPECT(strcmp(pieces("///"), "") == 0);
	EXPECT(strcmp(pieces(""), "") == 0);
	EXPECT(strcmp(pieces("../a/b"), "..|a|b") == 0);
}

TEST(path_a_slash_after_the_last_component_is_left_to_see)
{
	const char *at = "dir//", *name;
	EXPECT_EQ_INT(path_next(&at, &name), 3);
	EXPECT(*at == '/');                       /* the caller sees the slash */
	EXPECT_EQ_INT(path_next(&at, &name), 0);  /* and then nothing more */
	EXPECT(*at == '\0');
}

TEST(path_kinds)
{
	EXPECT_EQ_INT(path_kind(".", 1), PATH_DOT);
	EXPECT_EQ_INT(path_kind("..", 2), PATH_DOTDOT);
	EXPECT_EQ_INT(path_kind("...", 3), PATH_NAME);
	EXPECT_EQ_INT(path_kind(".x", 2), PATH_NAME);
	EXPECT_EQ_INT(path_kind("../", 2), PATH_DOTDOT);  /* only the length counts */
}
