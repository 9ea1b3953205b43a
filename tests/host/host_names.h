/*
 * Host-test renaming. lib/ defines functions with the standard C names
 * (memcpy, snprintf, ...), which would clash with the host's libc. For the
 * host build, each lib/ source is compiled with -include tests/host/host_names.h,
 * so the very same source defines lm_memcpy, lm_snprintf, ... instead.
 * Names that libc does not have (rb_*, parse_i64, vformat, cmdline_*)
 * keep their own names. tests/host/lib.h gives the tests the lm_ declarations.
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

/* sched/api.c's calls share their names with the host libc's system-call
 * wrappers (and the sanitizers call sched_yield): rename them too. These
 * stay renamed in the tests, which never want libc's. */
#define sched_setscheduler	lm_sched_setscheduler
#define sched_getscheduler	lm_sched_getscheduler
#define sched_getparam		lm_sched_getparam
#define sched_setaffinity	lm_sched_setaffinity
#define sched_getaffinity	lm_sched_getaffinity
#define sched_yield		lm_sched_yield
#define sched_get_priority_max	lm_sched_get_priority_max
#define sched_get_priority_min	lm_sched_get_priority_min
