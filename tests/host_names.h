/*
 * Host-test renaming. lib/ defines functions with the standard C names
 * (memcpy, snprintf, ...), which would clash with the host's libc. For the
 * host build, each lib/ source is compiled with -include tests/host_names.h,
 * so the very same source defines lm_memcpy, lm_snprintf, ... instead.
 * Names that libc does not have (rb_*, parse_i64, vformat, cmdline_*)
 * keep their own names. tests/lib.h gives the tests the lm_ declarations.
 */
#define memset		lm_memset
#define memcpy		lm_memcpy
#define memmove		lm_memmove
#define memcmp		lm_memcmp
#define strlen		lm_strlen
#define strnlen		lm_strnlen
#define strcmp		lm_strcmp
#define strncmp		lm_strncmp
#define strchr		lm_strchr
#define strrchr		lm_strrchr
#define strlcpy		lm_strlcpy
#define vsnprintf	lm_vsnprintf
#define snprintf	lm_snprintf
