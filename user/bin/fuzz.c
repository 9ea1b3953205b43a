/*
 * fuzz [seconds=60] [procs=0] [seed=0] [threads=127]: random system calls
 * from many processes and threads at once, on every CPU, to find what a
 * program can do to the kernel that it should not: a panic, a warning, a
 * hang, a task stuck in the kernel, a leak.
 *
 * The parent starts `procs` workers (0: two per CPU), each pinned to a
 * CPU at first, and restarts any that dies, counting how it died. A
 * worker is seven threads sharing its memory and descriptors (`threads`,
 * a mask by role, starts fewer), and its first thread, which sends each
 * its tick. Three make calls forever: mostly the calls leftmost has, with
 * arguments of the kind each takes, drawn from that kind's boundary
 * values (0, 1, the limit and one past, -1, INT_MAX, INT_MIN, LONG_MAX,
 * huge lengths, unmapped, misaligned and kernel addresses, closed
 * descriptors, 1 µs interval timers); sometimes any number at all; and
 * read, write and poll on what the closer thread opens and closes under
 * them. Their fork()s make children that fuzz for a while too, two
 * generations deep at most; their clone()s and vfork()s make tasks that
 * end at once. The other four work in the worker's scratch directory,
 * /tmp/fuzz/W (fuzz/scratch.h): writing files from untouched and unmapped
 * memory while they are mapped and truncated, and chains of thousands of
 * directories built, entered and removed. After `seconds` the parent
 * kills them all, removes the directories and checks that the kernel's
 * free memory and task count came back (user/bin/leakcheck.h):
 *
 *   fuzz: seed 1234: 8 processes of 7 threads for 60 s (again: /bin/fuzz seed=1234)
 *   fuzz: 310 restarts: 250 killed by signal 11, ...
 *   RESULT name=fuzz seed=1234 seconds=60 procs=8 threads=7 calls=N restarts=R stalled=S stuck=0 leaked_pages=0 ...
 *
 * Each thread shows the parent the call it is in, since when. One in the
 * same call for 5 s, not stopped (state T in /proc) and not deaf to its
 * tick (SigBlk or SigIgn: a pause() then waits for good, as on Linux), is
 * stuck: the parent prints "fuzz: stuck: pid P tid T in CALL(args) for
 * N s", its kernel stack (/proc/P/task/T/stack), and kills the worker. A worker
 * that makes no progress for 2 s with no call under way (looping in user
 * space) is killed quietly, as stalled. If a task or memory did not come
 * back, the processes /proc still lists follow, "fuzz: left over: " and
 * their stat lines.
 *
 * The seed decides every thread's calls, so seed=S makes the same calls
 * again (their timing, and so what they meet, differs). What a worker may
 * not do: harm the parent (it is never a target: not of kill() nor of
 * the scheduling and limit calls), write to the console (its 0, 1 and 2
 * are a pipe), change files outside its scratch directory (the paths it
 * fuzzes are opened read-only), starve its own threads (the scheduling
 * calls keep them at normal priority), or end itself too often (exit,
 * rt_sigreturn and its own memory are rare picks). A blocking call is
 * cut short by the thread's 20 ms SIGALRM.
 */
#include "../bench/bench.h"   /* key=value parameters, the clock, the CPUs */
#include <dirent.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "leakcheck.h"

#define MAX_PROCS      64
#define MAX_TASKS      200                /* system-wide: no fork beyond this many (sysinfo's procs) */
#define MAX_DEPTH      2                  /* a worker's children and grandchildren fuzz; no deeper */
#define SCRATCH_PAGES  16
#define SCRATCH        0x300000000ULL     /* far from the rest: a write that runs off its end faults */
#define SCRATCH_APART  0x1000000ULL       /* each thread's scratch pages are its own, this far apart */
#define PAGE           4096UL
#define USER_TOP       0x0000800000000000ULL
#define HOUSEKEEPING   64                 /* calls between a worker's checks of its own state */
#define TICK_NS        (20 * 1000 * 1000) /* the worker's SIGALRM: no blocking call lasts longer */
#define STALL_NS       (2000ULL * 1000 * 1000)
#define STUCK_NS       (5000ULL * 1000 * 1000) /* one call this long: a task stuck in the kernel */
#define TIMERS_TICKS   100                /* the supervisor disarms the interval timers this often */

/* A worker's threads: its first, the supervisor, makes no calls of its own
 * but sends each of the others its SIGALRM tick; they fuzz. */
enum role { RANDOM1, RANDOM2, RANDOM3, WRITER, MAPPER, TREE, CLOSER, THREADS };

/* What the parent sees of each worker (a page it shares with them all):
 * its calls, and the call each thread is in now, since when. */
struct thread_view {
	int tid;
	int busy;                                 /* in the call below */
	long nr;
	uint64_t a[6];
	uint64_t since_ns;
};
struct worker_view {
	uint64_t calls;
	struct thread_view t[THREADS];
};
enum { ARCH_SET_FS = 0x1002, ARCH_GET_FS = 0x1003 };

/* The random stream: splitmix64. Each thread has its own, derived from the seed. */
static __thread uint64_t rng;

static uint64_t mix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rnd(void) { return mix(&rng); }
static uint64_t below(uint64_t n) { return rnd() % n; }
static bool one_in(uint64_t n) { return below(n) == 0; }

/* What every fuzzing process knows. */
static pid_t fuzz_pid, fuzz_pgid;         /* the parent: never a target */
static pid_t me, my_parent;
static int depth;                          /* 0: a worker; 1, 2: the children its forks made */
static long budget = -1;                   /* calls a child has left (-1: a worker's are endless) */
static __thread uint8_t *scratch;          /* the thread's own pages: where pointers that work point */
static __thread uint64_t fs_base;          /* the C library's thread pointer, put back after arch_prctl */
static __thread struct thread_view *view;  /* where the thread shows its call (NULL in a fork's child) */
static struct worker_view *my_view;

/* The system calls themselves, straight: no C library between. */
static long raw_syscall(long nr, const uint64_t a[6])
{
	register uint64_t r10 __asm__("r10") = a[3], r8 __asm__("r8") = a[4], r9 __asm__("r9") = a[5];
	long ret;
	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a[0]), "S"(a[1]), "d"(a[2]), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

/* clone() and vfork(): the new task, which may share this one's memory
 * and run on any stack, leaves at once, touching neither. */
static long spawn_and_leave(long nr, const uint64_t a[6])
{
	register uint64_t r10 __asm__("r10") = a[3], r8 __asm__("r8") = a[4], r9 __asm__("r9") = a[5];
	long ret;
	__asm__ volatile("syscall\n\t"
			 "test %%rax, %%rax\n\t"
			 "jnz 1f\n\t"
			 "mov $60, %%eax\n\t"             /* exit(0), in the new task */
			 "xor %%edi, %%edi\n\t"
			 "syscall\n"
			 "1:"
			 : "=a"(ret) : "a"(nr), "D"(a[0]), "S"(a[1]), "d"(a[2]), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

/* A handler's return, for the sigactions the fuzzer builds (SA_RESTORER). */
void fuzz_restorer(void);
__asm__(".text\nfuzz_restorer:\n\tmov $15, %eax\n\tsyscall\n\tud2\n");

static void nothing(int sig)
{
	(void)sig;
}

/* The values arguments are drawn from. */

static const uint64_t edges[] = {
	0, 1, 2, (uint64_t)-1, (uint64_t)-2, 0x7fffffff, 0x80000000, 0xffffffff80000000ULL /* INT_MIN */,
	0xffffffff, 0x100000000ULL, INT64_MAX, (uint64_t)INT64_MIN, PAGE - 1, PAGE, PAGE + 1, USER_TOP,
	USER_TOP - PAGE, 0xffffffff80100000ULL, 0xffff800000000000ULL,
};

static uint64_t pick(const uint64_t *pool, size_t n) { return pool[below(n)]; }
#define PICK(pool) pick(pool, sizeof(pool) / sizeof((pool)[0]))

static uint64_t any_number(void)
{
	switch (below(4)) {
	case 0:  return PICK(edges);
	case 1:  return below(64);
	case 2:  return rnd() & 0xffffffff;
	default: return rnd();
	}
}

static uint64_t scratch_at(uint64_t offset) { return (uint64_t)scratch + offset % (SCRATCH_PAGES * PAGE); }

/* A pointer: into the worker's scratch pages mostly (aligned or not, or
 * running off their end), else NULL, unmapped, read-only (the code),
 * kernel or non-canonical. */
static uint64_t any_pointer(void)
{
	static const uint64_t bad[] = {
		0, 0x10000, 0x3ff000, USER_TOP - PAGE, USER_TOP, 0x8000000000000000ULL,
		0xffffffff80100000ULL, 0xffff800000100000ULL, 0xffffffffffffffffULL,
	};
	switch (below(10)) {
	case 0: case 1: case 2: case 3: return scratch_at(below(SCRATCH_PAGES * PAGE) & ~7ULL);
	case 4:  return scratch_at(below(SCRATCH_PAGES * PAGE));
	case 5:  return (uint64_t)scratch + SCRATCH_PAGES * PAGE - 1 - below(64);
	case 6:  return (uint64_t)any_pointer;
	case 7:  return rnd();
	default: return PICK(bad);
	}
}

/* Sizes and counts: 0, 1, a page and either side, the limits (a file's
 * 1 GiB, INT_MAX, 2^31), negative, huge; or a small one. */
static uint64_t any_length(void)
{
	static const uint64_t lengths[] = {
		0, 1, 8, PAGE - 1, PAGE, PAGE + 1, 65536, 1ULL << 30, (1ULL << 30) + 1, 0x7fffffff, 1ULL << 31,
		(uint64_t)-1, (uint64_t)-PAGE, 0xffffffff80000000ULL, INT64_MAX, 1ULL << 62,
	};
	return one_in(3) ? PICK(lengths) : below(one_in(2) ? 64 : 2 * PAGE);
}

static volatile int race_fd[3];           /* the closer's (fuzz/scratch.h) */

/* A descriptor: 0, 1, the table's last (255) and one past, negative,
 * INT_MAX, INT_MIN, LONG_MAX; what the closer has open now, the scratch
 * files and directory (200 and up); or a small one. */
static uint64_t any_fd(void)
{
	static const uint64_t fds[] = {
		(uint64_t)-1, (uint64_t)-2, 254, 255, 256, 1024, 0x7fffffff, 0x80000000, 0xffffffff80000000ULL,
		INT64_MAX, (uint64_t)INT64_MIN,
	};
	switch (below(8)) {
	case 0:  return PICK(fds);
	case 1:  return (uint64_t)(int64_t)race_fd[below(3)];
	case 2:  return 200 + below(8);
	default: return below(one_in(2) ? 8 : 64);
	}
}

static uint64_t any_flags(void)
{
	switch (below(4)) {
	case 0:  return 0;
	case 1:  return 1ULL << below(32);
	case 2:  return rnd() & 0xffffffff;
	default: return rnd();
	}
}

static uint64_t any_signal(void)
{
	return one_in(8) ? PICK(edges) : below(66);
}

/* A small int: a clock, a "which", a resource, a command. */
static uint64_t any_small(void)
{
	return one_in(4) ? PICK(edges) : below(one_in(2) ? 4 : 20);
}

/* A pid: this process, its parent, none, a group, anyone. sanitize()
 * keeps the fuzzer's parent out of reach. */
static uint64_t any_pid(void)
{
	switch (below(6)) {
	case 0:  return 0;
	case 1:  return (uint64_t)me;
	case 2:  return (uint64_t)my_parent;
	case 3:  return 1 + below(500);
	case 4:  return (uint64_t)-(int64_t)(1 + below(500));
	default: return PICK(edges);
	}
}

/* A struct in the scratch pages, filled, or any pointer. */
static uint64_t scratch_struct(const void *value, size_t size)
{
	if (one_in(4))
		return any_pointer();
	uint64_t at = scratch_at(below(SCRATCH_PAGES * PAGE - size) & ~7ULL);
	memcpy((void *)at, value, size);
	return at;
}

/* A timespec (or timeval) of up to a millisecond, now and then a bad one. */
static uint64_t any_time(void)
{
	int64_t t[2] = { 0, (int64_t)below(1000000) };
	if (one_in(8))
		t[below(2)] = (int64_t)PICK(edges);
	return scratch_struct(t, sizeof(t));
}

/* An interval timer's setting (struct itimerval): often 1 µs, the least
 * there is, else 0, the edges of a microsecond count and of a second's,
 * or anything up to a millisecond. */
static uint64_t any_itimer(void)
{
	static const int64_t usecs[] = { 0, 1, 1, 1, 2, 999999, 1000000, -1, INT32_MAX, INT32_MIN, INT64_MAX };
	static const int64_t secs[] = { 0, 0, 0, 0, 1, -1, INT32_MAX, INT64_MAX, INT64_MIN };
	int64_t t[4];
	for (int i = 0; i < 4; i += 2) {
		t[i] = secs[below(sizeof(secs) / sizeof(secs[0]))];
		t[i + 1] = one_in(4) ? (int64_t)below(1000) : usecs[below(sizeof(usecs) / sizeof(usecs[0]))];
	}
	return scratch_struct(t, sizeof(t));
}

/* A path: the few there are, read-only (the scratch files too). Only a child may exec a program. */
static uint64_t any_path(void)
{
	static char long_path[5000];
	static const char *const paths[] = {
		"/nonexistent/x", "", "/", "/bin", "/bin/", "..", "/bin/exit42/x", long_path, "f1", "fuzz-d",
		"/tmp/fuzz", "/bin/exit42", "/bin/hello",
	};
	if (!long_path[0])
		memset(long_path, 'a', sizeof(long_path) - 1);
	if (one_in(4))
		return any_pointer();
	size_t n = sizeof(paths) / sizeof(paths[0]) - (depth ? 0 : 2);
	return (uint64_t)paths[below(n)];
}

/* argv or envp: two strings and NULL, or any pointer. */
static uint64_t any_vector(void)
{
	uint64_t v[3] = { any_path(), any_pointer(), one_in(4) ? any_pointer() : 0 };
	return scratch_struct(v, sizeof(v));
}

/* A struct sigaction, as the kernel reads it. */
static uint64_t any_sigaction(void)
{
	static const uint64_t flags[] = { 0x1, 0x4, 0x8000000, 0x10000000, 0x40000000, 0x80000000 };
	uint64_t handlers[] = { 0, 1, (uint64_t)nothing, any_pointer() };
	uint64_t sa[4] = { PICK(handlers), 0x04000000 | PICK(flags), (uint64_t)fuzz_restorer, any_flags() };
	return scratch_struct(sa, sizeof(sa));
}

/* Where a mapping goes: the scratch pages (which the worker maps again
 * afterwards), a place nothing is, an edge, or rarely the worker's own. */
static uint64_t any_map_address(void)
{
	switch (below(10)) {
	case 0: case 1: case 2: case 3: return scratch_at(below(SCRATCH_PAGES) * PAGE);
	case 4: case 5: return 0x200000000ULL + below(256) * PAGE;
	case 6:  return 0;
	case 7:  return one_in(8) ? (uint64_t)any_pointer & ~(PAGE - 1) : USER_TOP - PAGE;
	default: return PICK(edges);
	}
}

/* Where brk() moves the heap's end: within a megabyte of where it began
 * (the heap never gives pages back), or an edge. */
static uint64_t heap_start;

static uint64_t any_heap_end(void)
{
	return one_in(4) ? PICK(edges) : heap_start + below(1 << 20);
}

/* No more than a megabyte: every page of a mapping is allocated at once. */
static uint64_t any_map_length(void)
{
	static const uint64_t huge[] = { 1ULL << 47, 1ULL << 62, (uint64_t)-1, (uint64_t)-PAGE };
	return one_in(6) ? PICK(huge) : below(1 << 20);
}

/* A call as the parent sees it: which, with what, since when, until it
 * returns. Calls that may never return (rt_sigreturn, exit, execve)
 * are made untraced, so a thread they leave running in user space is
 * not taken for one stuck in the kernel. */
static uint64_t *calls_made;

static long traced_call(long nr, const uint64_t a[6], long (*how)(long, const uint64_t *))
{
	struct thread_view *v = view;
	if (v) {
		v->nr = nr;
		memcpy(v->a, a, sizeof(v->a));
		__atomic_store_n(&v->since_ns, bench_now_ns(), __ATOMIC_RELEASE);
		__atomic_store_n(&v->busy, 1, __ATOMIC_RELEASE);
	}
	long ret = how(nr, a);
	if (v)
		__atomic_store_n(&v->busy, 0, __ATOMIC_RELEASE);
	__atomic_fetch_add(calls_made, 1, __ATOMIC_RELAXED);
	return ret;
}

static long traced(long nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	const uint64_t a[6] = { a0, a1, a2, a3, a4, a5 };
	return traced_call(nr, a, raw_syscall);
}

#include "fuzz/scratch.h"

/* Each call's arguments, one letter each:
 *   f fd   p pointer   s path   v argv/envp   l length   n any number
 *   i pid  g signal    F flags  c small int   t timespec   A sigaction
 *   a mapping address  m mapping length   b the heap's end   z a signal set's size (8)
 *   I an itimerval     o a file offset or size */
struct call {
	short nr;
	const char *name, *args;
};

static const struct call calls[] = {
	{ 0, "read", "fpl" }, { 1, "write", "fpl" }, { 2, "open", "sFn" }, { 3, "close", "f" },
	{ 4, "stat", "sp" }, { 5, "fstat", "fp" }, { 7, "poll", "pln" }, { 8, "lseek", "foc" },
	{ 9, "mmap", "amcFfn" }, { 10, "mprotect", "amc" }, { 11, "munmap", "am" }, { 12, "brk", "b" },
	{ 13, "rt_sigaction", "gAAz" }, { 14, "rt_sigprocmask", "cppz" }, { 15, "rt_sigreturn", "" },
	{ 16, "ioctl", "fnp" }, { 17, "pread64", "fplo" }, { 18, "pwrite64", "fplo" },
	{ 19, "readv", "fpl" }, { 20, "writev", "fpl" }, { 21, "access", "sc" }, { 22, "pipe", "p" },
	{ 23, "select", "npppt" }, { 24, "sched_yield", "" }, { 25, "mremap", "ammFa" },
	{ 32, "dup", "f" }, { 33, "dup2", "ff" }, { 34, "pause", "" }, { 35, "nanosleep", "tp" },
	{ 36, "getitimer", "cp" }, { 37, "alarm", "n" }, { 38, "setitimer", "cIp" }, { 39, "getpid", "" },
	{ 56, "clone", "Fpppp" }, { 57, "fork", "" }, { 58, "vfork", "" }, { 59, "execve", "svv" },
	{ 60, "exit", "n" }, { 61, "wait4", "ipFp" }, { 62, "kill", "ig" }, { 63, "uname", "p" },
	{ 72, "fcntl", "fcn" }, { 77, "ftruncate", "fo" }, { 79, "getcwd", "pl" }, { 80, "chdir", "s" },
	{ 81, "fchdir", "f" }, { 96, "gettimeofday", "pp" }, { 97, "getrlimit", "cp" },
	{ 98, "getrusage", "cp" }, { 99, "sysinfo", "p" }, { 100, "times", "p" }, { 102, "getuid", "" },
	{ 104, "getgid", "" }, { 107, "geteuid", "" }, { 108, "getegid", "" }, { 109, "setpgid", "ii" },
	{ 110, "getppid", "" }, { 111, "getpgrp", "" }, { 112, "setsid", "" }, { 121, "getpgid", "i" },
	{ 124, "getsid", "i" }, { 127, "rt_sigpending", "pl" }, { 130, "rt_sigsuspend", "pz" },
	{ 131, "sigaltstack", "pp" }, { 140, "getpriority", "ci" }, { 141, "setpriority", "cin" },
	{ 142, "sched_setparam", "ip" }, { 143, "sched_getparam", "ip" },
	{ 144, "sched_setscheduler", "icp" }, { 145, "sched_getscheduler", "i" },
	{ 146, "sched_get_priority_max", "c" }, { 147, "sched_get_priority_min", "c" },
	{ 148, "sched_rr_get_interval", "ip" }, { 157, "prctl", "nnnnn" }, { 158, "arch_prctl", "cp" },
	{ 160, "setrlimit", "cp" }, { 186, "gettid", "" }, { 200, "tkill", "ig" }, { 201, "time", "p" },
	{ 202, "futex", "pcntpn" }, { 203, "sched_setaffinity", "ilp" },
	{ 204, "sched_getaffinity", "ilp" }, { 217, "getdents64", "fpl" },
	{ 218, "set_tid_address", "p" }, { 228, "clock_gettime", "cp" }, { 229, "clock_getres", "cp" },
	{ 230, "clock_nanosleep", "cFtp" }, { 231, "exit_group", "n" }, { 234, "tgkill", "iig" },
	{ 247, "waitid", "ciFpp" }, { 257, "openat", "fsFn" }, { 262, "newfstatat", "fspF" },
	{ 273, "set_robust_list", "pl" }, { 292, "dup3", "ffF" }, { 293, "pipe2", "pF" },
	{ 302, "prlimit64", "icpp" }, { 309, "getcpu", "ppp" }, { 314, "sched_setattr", "ipF" },
	{ 315, "sched_getattr", "iplF" }, { 318, "getrandom", "plF" }, { 324, "membarrier", "cFn" },
};

static uint64_t argument(char kind)
{
	switch (kind) {
	case 'f': return any_fd();
	case 'p': return any_pointer();
	case 's': return any_path();
	case 'v': return any_vector();
	case 'l': return any_length();
	case 'i': return any_pid();
	case 'g': return any_signal();
	case 'F': return any_flags();
	case 'c': return any_small();
	case 't': return any_time();
	case 'A': return any_sigaction();
	case 'a': return any_map_address();
	case 'm': return any_map_length();
	case 'b': return any_heap_end();
	case 'z': return one_in(8) ? any_length() : 8;
	case 'I': return any_itimer();
	case 'o': return any_offset();
	default:  return any_number();
	}
}

/* A number no call has, now and then: a few, so the kernel's note of a
 * missing call (once per program and number) stays short. */
static void any_call(long *nr, uint64_t a[6])
{
	static const uint64_t missing[] = { 6, 25, 41, 101, 169, 435, 1000, 1ULL << 32, (uint64_t)-1 };
	if (one_in(32)) {
		*nr = (long)PICK(missing);
		for (int i = 0; i < 6; i++)
			a[i] = any_number();
		return;
	}
	const struct call *c = &calls[below(sizeof(calls) / sizeof(calls[0]))];
	int described = (int)strlen(c->args);
	*nr = c->nr;
	for (int i = 0; i < 6; i++)
		a[i] = i < described ? argument(c->args[i]) : any_number();
}

/* pid as a target of kill() and the rest, kept off the fuzzer's parent:
 * -1 (everyone), its pid, its group. */
static uint64_t spare_parent(uint64_t pid, bool group_too)
{
	int p = (int)pid;
	if (p == -1 || p == fuzz_pid || (group_too && p == -fuzz_pgid))
		return (uint64_t)me;
	return pid;
}

/* A descriptor the scratch threads keep (fuzz/scratch.h) is not the
 * random threads' to close or replace. */
static uint64_t own_spared(uint64_t fd)
{
	return fd >= OWN_FD && fd < 256 ? fd - OWN_FD / 2 : fd;
}

/* A signal mask may not block SIGALRM, the tick that cuts blocking calls
 * short: the bit goes from a set in the scratch pages, and a set that is
 * readable elsewhere (the code) is not used. */
static bool alarm_spared(uint64_t *set)
{
	uint64_t lo = (uint64_t)scratch, hi = lo + SCRATCH_PAGES * PAGE;
	if (*set >= lo && *set + 8 <= hi) {
		uint64_t mask;
		memcpy(&mask, (void *)*set, 8);
		mask &= ~(1ULL << (SIGALRM - 1));
		memcpy((void *)*set, &mask, 8);
	} else if (*set && *set < USER_TOP) {
		*set = 0x10000;                   /* unmapped: EFAULT */
	}
	return true;
}

/* A worker's thread that is runnable but not run for 5 s would be taken
 * for one stuck in the kernel, and the real-time, idle and batch policies
 * and a nice of 19 among others of -20 starve it that long under TCG:
 * the scheduling calls keep every thread SCHED_OTHER (or ask for a policy
 * there is not: EINVAL), at a nice of 0 to 5. */
static uint64_t fair_policy(uint64_t policy)
{
	return policy < 7 ? 0 : policy;
}

/* Make the call one a worker may make; false to draw another. */
static bool sanitize(long nr, uint64_t a[6])
{
	/* fcntl.h's O_ACCMODE, O_CREAT, O_TRUNC, O_APPEND, O_TMPFILE (fuzz/scratch.h includes it) */
	switch (nr) {
	case SYS_kill:
		a[0] = spare_parent(a[0], true);
		return true;
	case SYS_tkill:
		a[0] = spare_parent(a[0], false);
		return true;
	case SYS_tgkill:
		a[0] = spare_parent(a[0], false);
		a[1] = spare_parent(a[1], false);
		return true;
	case SYS_setpgid:
		a[0] = spare_parent(a[0], false);
		if ((int)a[1] == fuzz_pgid)
			a[1] = 0;
		return true;
	case SYS_setpriority:
	case SYS_getpriority:
		if ((int)a[0] == 2)
			a[0] = 0;                 /* PRIO_USER would be every process: the parent too */
		if ((int)a[1] == fuzz_pid || (int)a[1] == fuzz_pgid)
			a[1] = 0;
		if (nr == SYS_setpriority)
			a[2] = below(6);          /* no thread starved by the others: see fair_policy() */
		return true;
	case SYS_sched_setparam: case SYS_sched_setscheduler: case SYS_sched_setaffinity:
	case SYS_sched_setattr: case SYS_prlimit64:
		if ((int)a[0] == fuzz_pid)
			a[0] = 0;
		if (nr == SYS_sched_setscheduler)
			a[1] = fair_policy(a[1]);
		if (nr == SYS_sched_setattr && a[1] >= (uint64_t)scratch && a[1] + 24 <= (uint64_t)scratch + SCRATCH_PAGES * PAGE) {
			uint32_t *attr = (uint32_t *)a[1];  /* size, policy, flags (2 words), nice */
			attr[1] = (uint32_t)fair_policy(attr[1]);
			attr[4] = (uint32_t)below(6);
		} else if (nr == SYS_sched_setattr) {
			a[1] = 0x10000;           /* unmapped: EFAULT */
		}
		if (nr == SYS_prlimit64 && a[1] == 7)
			a[1] = 8;
		return true;
	case SYS_prctl:
		if (a[0] == PR_SET_PDEATHSIG)
			a[0] = PR_GET_PDEATHSIG;  /* children must die with their parent */
		return true;
	case SYS_setrlimit:
		if (a[0] == 7)
			a[0] = 8;                 /* RLIMIT_NOFILE: the scratch threads' descriptors are 200 and up */
		return true;
	case SYS_close:
	case SYS_dup2:
	case SYS_dup3:
		a[nr == SYS_close ? 0 : 1] = own_spared(a[nr == SYS_close ? 0 : 1]);
		return true;
	case SYS_rt_sigprocmask:
	case SYS_rt_sigsuspend:
		return alarm_spared(&a[nr == SYS_rt_sigsuspend ? 0 : 1]);
	case SYS_open:
		a[1] &= ~(uint64_t)(O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND | O_TMPFILE);
		return true;
	case SYS_openat:
		a[2] &= ~(uint64_t)(O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND | O_TMPFILE);
		return true;
	case SYS_exit:
	case SYS_exit_group:
		return one_in(64);
	case SYS_rt_sigreturn:
		return one_in(16);                /* a frame of whatever the stack holds */
	case SYS_fork: {
		struct kernel_usage now = kernel_usage_now();
		return depth < MAX_DEPTH && now.tasks < MAX_TASKS;
	}
	default:
		return true;
	}
}

/* The tick's handler, without SA_RESTART: a blocked call ends. */
static void alarm_handler(void)
{
	struct sigaction sa = { .sa_handler = nothing };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
}

static void unblock_alarm(void)
{
	sigset_t alarm;
	sigemptyset(&alarm);
	sigaddset(&alarm, SIGALRM);
	pthread_sigmask(SIG_UNBLOCK, &alarm, NULL);
}

/* A fork's child, which is one thread, keeps its own state good: its
 * SIGALRM tick (which the calls may have stopped, blocked or taken
 * over) and its stopped children. */
static void housekeeping(void)
{
	alarm_handler();
	unblock_alarm();
	struct itimerval tick = { { 0, TICK_NS / 1000 }, { 0, TICK_NS / 1000 } };
	setitimer(ITIMER_REAL, &tick, NULL);
	kill(0, SIGCONT);
}

static void map_scratch(void)
{
	uint8_t *want = scratch;
	scratch = mmap(want, SCRATCH_PAGES * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (scratch == MAP_FAILED)
		_exit(100);
}

/* The new child of a fork() the fuzzer made: it fuzzes a while, and dies
 * with its parent. */
static void become_child(void)
{
	uint64_t seed = rnd();
	rng = seed;
	view = NULL;                              /* the parent watches its workers' threads only */
	my_parent = me;
	me = getpid();
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != my_parent)
		_exit(0);                         /* the parent ended before it could ask */
	depth++;
	budget = 100 + (long)below(200);
	housekeeping();                           /* an interval timer is not inherited */
}

/* Put right what the call changed of the thread's own: a child is born,
 * the scratch pages; and a new mapping goes again at once, so that
 * mappings do not pile up. */
static void after(long nr, const uint64_t a[6], long ret)
{
	if (nr == SYS_fork && ret == 0)
		become_child();
	if (nr == SYS_mmap && ret > 0 && (uint64_t)ret < USER_TOP)
		munmap((void *)ret, a[1]);
	if (nr == SYS_mmap || nr == SYS_munmap || nr == SYS_mprotect || nr == SYS_brk || nr == SYS_mremap)
		map_scratch();
}

static long spawn_call(long nr, const uint64_t a[6])
{
	return spawn_and_leave(nr, a);
}

static void one_call(void)
{
	long nr;
	uint64_t a[6];
	do
		any_call(&nr, a);
	while (!sanitize(nr, a));
	uint64_t fs = fs_base;                    /* read while the thread pointer is good */
	long ret;
	if (nr == SYS_clone || nr == SYS_vfork)
		ret = traced_call(nr, a, spawn_call);
	else if (nr == SYS_rt_sigreturn || nr == SYS_exit || nr == SYS_execve)
		ret = raw_syscall(nr, a);
	else
		ret = traced_call(nr, a, raw_syscall);
	if (nr == SYS_arch_prctl) {
		const uint64_t put_back[6] = { ARCH_SET_FS, fs };
		raw_syscall(SYS_arch_prctl, put_back);
	}
	after(nr, a, ret);
}

/* The descriptors 0, 1 and 2 become one pipe: what the calls write there
 * goes nowhere near the console. */
static void away_from_the_console(void)
{
	int fds[2];
	if (pipe(fds) != 0 || dup2(fds[0], 0) < 0 || dup2(fds[1], 1) < 0 || dup2(fds[1], 2) < 0)
		_exit(101);
	close(fds[0]);
	close(fds[1]);
}

static uint64_t worker_seed;
static long thread_mask;                          /* the threads a worker starts, by role */

/* A fuzzing thread: its stream from the worker's seed and its role, so
 * that the seed replays each thread's calls. */
static void *fuzz_thread(void *arg)
{
	int role = (int)(intptr_t)arg;
	uint64_t state = worker_seed ^ ((uint64_t)role << 40);
	rng = mix(&state);
	view = &my_view->t[role];
	view->tid = (int)syscall(SYS_gettid);
	scratch = (uint8_t *)(SCRATCH + role * SCRATCH_APART);
	map_scratch();
	syscall(SYS_arch_prctl, ARCH_GET_FS, &fs_base);
	for (uint64_t n = 0;; n++) {
		if (n % HOUSEKEEPING == 0) {
			unblock_alarm();
			if (budget >= 0)          /* a fork's child, on its own */
				housekeeping();
		}
		if (budget >= 0 && budget-- == 0)
			_exit(0);
		switch (role) {
		case WRITER: writer_step(); break;
		case MAPPER: mapper_step(); break;
		case TREE:   tree_step(); break;
		case CLOSER: closer_step(); break;
		default:
			if (one_in(8))
				race_step();
			else
				one_call();
		}
	}
	return NULL;
}

/* The worker: its scratch directory, its threads, and then their tick,
 * sent to each (an interval timer's signal would go to one thread only),
 * until the end. Interval timers the calls set (1 µs ones too) run a
 * while, then go. */
static void __attribute__((noreturn)) worker(int slot, uint64_t seed, struct worker_view *v, uint64_t end_ns)
{
	worker_seed = seed;
	rng = seed;
	me = getpid();
	my_parent = fuzz_pid;
	my_view = v;
	calls_made = &v->calls;
	for (int i = 0; i < 3; i++)
		race_fd[i] = -1;
	setpgid(0, 0);                            /* its own group: kill(0, ...) stays in it */
	bench_pin("fuzz", slot % bench_cpus());
	away_from_the_console();
	make_scratch_dir(slot);
	heap_start = (uint64_t)syscall(SYS_brk, 0);
	for (int sig = 1; sig < 65; sig++)        /* sent signals run a handler rather than kill */
		if (sig != SIGSEGV && sig != SIGBUS && sig != SIGILL && sig != SIGFPE && sig != SIGTRAP)
			signal(sig, nothing);
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (int role = 0; role < THREADS; role++) {
		pthread_t t;
		if ((thread_mask & (1L << role)) && pthread_create(&t, &attr, fuzz_thread, (void *)(intptr_t)role) != 0)
			_exit(104);
	}
	const struct timespec tick = { 0, TICK_NS };
	for (uint64_t n = 1;; n++) {
		nanosleep(&tick, NULL);
		if (bench_now_ns() >= end_ns)
			_exit(0);
		alarm_handler();
		for (int role = 0; role < THREADS; role++)
			if (v->t[role].tid)
				syscall(SYS_tgkill, me, v->t[role].tid, SIGALRM);
		if (n % TIMERS_TICKS == 0) {
			struct itimerval off = { { 0, 0 }, { 0, 0 } };
			for (int which = 0; which < 3; which++)
				setitimer(which, &off, NULL);
		}
		kill(0, SIGCONT);
	}
}

/* The parent's view of its workers. */
struct slot {
	pid_t pid;                                /* 0: none running */
	uint64_t generation;
	uint64_t last_progress, last_change_ns;
	bool killed_as_stalled, killed_as_stuck;
};

static struct slot slots[MAX_PROCS];
static struct worker_view *views;                 /* each worker's, shared */
static uint64_t seed, end_ns;
static long restarts, stalled, stuck, exited, killed_by[65];

static void start(int i)
{
	uint64_t state = seed ^ ((uint64_t)i << 48) ^ slots[i].generation++;
	uint64_t worker_seed = mix(&state);
	memset(&views[i].t, 0, sizeof(views[i].t));
	pid_t pid = fork();
	if (pid < 0)
		bench_fail("fuzz", "fork");
	if (pid == 0)
		worker(i, worker_seed, &views[i], end_ns);
	slots[i].pid = pid;
	slots[i].last_progress = views[i].calls;
	slots[i].last_change_ns = bench_now_ns();
	slots[i].killed_as_stalled = slots[i].killed_as_stuck = false;
}

static void count_end(struct slot *s, int status)
{
	if (s->killed_as_stuck)
		;                                 /* counted when found */
	else if (s->killed_as_stalled)
		stalled++;
	else if (WIFSIGNALED(status))
		killed_by[WTERMSIG(status) < 65 ? WTERMSIG(status) : 0]++;
	else
		exited++;
}

/* What /proc says of a thread: its state letter (R, S, T...; 0 if it is
 * gone), and whether it blocks or ignores SIGALRM, its tick. */
struct task_view {
	char state;
	bool deaf_to_tick;
};

static struct task_view task_view(pid_t pid, int tid)
{
	char path[64], text[2048];
	struct task_view v = { 0, false };
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	const char *paren = strrchr(read_text(path, text, sizeof(text)), ')');
	if (paren && paren[1] == ' ')
		v.state = paren[2];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid, tid);
	read_text(path, text, sizeof(text));
	for (const char *line = text, *end; *line; line = *end ? end + 1 : end) {
		end = line_end(line);
		if (strncmp(line, "SigBlk:", 7) == 0 || strncmp(line, "SigIgn:", 7) == 0)
			v.deaf_to_tick |= strtoull(line + 7, NULL, 16) >> (SIGALRM - 1) & 1;
	}
	return v;
}

static const char *call_name(long nr)
{
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (calls[i].nr == nr)
			return calls[i].name;
	switch (nr) {
	case SYS_mkdirat:  return "mkdirat";
	case SYS_unlinkat: return "unlinkat";
	default:           return "syscall";
	}
}

/* Is the thread still in the call it was in at since_ns? (It writes the
 * call, then since_ns, then busy; a call that ended or another that began
 * changes busy or since_ns.) */
static bool same_call(const struct thread_view *t, uint64_t since_ns)
{
	return __atomic_load_n(&t->busy, __ATOMIC_ACQUIRE) && __atomic_load_n(&t->since_ns, __ATOMIC_ACQUIRE) == since_ns;
}

/* A thread in one call for STUCK_NS, and not because it is stopped:
 * where it is in the kernel, said once, and the worker goes. Then (other)
 * the worker's other threads in a call, however long, are shown as well:
 * the one holding what the stuck one waits for is among them. */
static bool report_stuck(struct slot *s, const struct thread_view *t, bool other)
{
	uint64_t since = __atomic_load_n(&t->since_ns, __ATOMIC_ACQUIRE);
	if (!same_call(t, since) || (!other && bench_now_ns() - since < STUCK_NS))
		return false;
	struct thread_view v = *t;
	struct task_view seen = task_view(s->pid, v.tid);
	char state = seen.state;
	char path[64], stack[2048] = "", text[1536];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stack", s->pid, v.tid);
	read_text(path, text, sizeof(text));
	for (const char *line = text, *next; *line; line = next) {
		next = line_end(line);
		next += *next == '\n';
		if (strlen(stack) + (size_t)(next - line) + 9 < sizeof(stack))
			strncat(strcat(stack, "fuzz:   "), line, (size_t)(next - line));
	}
	if (!same_call(t, since))
		return false;
	if (!other && (state == 'T' || state == 0)) {
		kill(s->pid, SIGCONT);
		return false;
	}
	if (!other && seen.deaf_to_tick)
		return false;                     /* waits by its own choice: stalled, not stuck */
	printf("fuzz: %s: pid %d tid %d in %s(%#llx, %#llx, %#llx, %#llx, %#llx, %#llx) for %llu s (state %c)\n%s",
	       other ? "  and" : "stuck", s->pid, v.tid, call_name(v.nr), (unsigned long long)v.a[0], (unsigned long long)v.a[1],
	       (unsigned long long)v.a[2], (unsigned long long)v.a[3], (unsigned long long)v.a[4],
	       (unsigned long long)v.a[5], (unsigned long long)((bench_now_ns() - since) / 1000000000ULL), state, stack);
	if (!other)
		stuck++;
	return true;
}

/* Restart the workers that ended (those that end at the deadline are
 * done); report those with a thread stuck in the kernel, and kill
 * those that made no progress. */
static void tend(int procs)
{
	int status;
	pid_t pid;
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		for (int i = 0; i < procs; i++)
			if (slots[i].pid == pid) {
				slots[i].pid = 0;
				if (bench_now_ns() >= end_ns)
					continue;
				count_end(&slots[i], status);
				restarts++;
				start(i);
			}
	uint64_t now = bench_now_ns();
	for (int i = 0; i < procs; i++) {
		struct slot *s = &slots[i];
		if (!s->pid || s->killed_as_stalled || s->killed_as_stuck)
			continue;
		bool in_a_call = false;
		for (int t = 0; t < THREADS && !s->killed_as_stuck; t++) {
			in_a_call |= __atomic_load_n(&views[i].t[t].busy, __ATOMIC_ACQUIRE);
			if (report_stuck(s, &views[i].t[t], false)) {
				for (int o = 0; o < THREADS; o++)     /* what the others wait for, or hold */
					if (o != t)
						report_stuck(s, &views[i].t[o], true);
				kill(s->pid, SIGKILL);
				s->killed_as_stuck = true;
			}
		}
		if (s->killed_as_stuck)
			continue;
		if (views[i].calls != s->last_progress) {
			s->last_progress = views[i].calls;
			s->last_change_ns = now;
		} else if (now - s->last_change_ns > STALL_NS / 4) {
			kill(s->pid, SIGCONT);            /* stopped by a signal it sent itself? */
		}
		/* No progress and no call under way: looping in user space, say. */
		if (now - s->last_change_ns > STALL_NS && !in_a_call) {
			kill(s->pid, SIGKILL);
			s->killed_as_stalled = true;
		}
	}
}

static void print_ends(void)
{
	printf("fuzz: %ld restarts: %ld exited, %ld stalled, %ld stuck", restarts, exited, stalled, stuck);
	for (int sig = 0; sig < 65; sig++)
		if (killed_by[sig])
			printf(", %ld killed by signal %d", killed_by[sig], sig);
	printf("\n");
}

/* Every process /proc lists but this one: what a leaked task may be. */
static void print_leftovers(void)
{
	DIR *proc = opendir("/proc");
	struct dirent *e;
	while (proc && (e = readdir(proc))) {
		int pid = atoi(e->d_name);
		if (pid <= 0 || pid == getpid())
			continue;
		char path[64], line[256] = "";
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		FILE *stat = fopen(path, "r");
		if (!stat || !fgets(line, sizeof(line), stat))
			snprintf(line, sizeof(line), "%s unreadable\n", path);
		if (stat)
			fclose(stat);
		printf("fuzz: left over: %s", line);
	}
	if (proc)
		closedir(proc);
}

/* The parent's own pages, made present now: its stack below main's frame,
 * where the reports and the clean-up (remove_tree's 2 KiB directory
 * buffer) run, and its static data (slots[] and the counts are first
 * written after the first reading). What the kernel hands out from then on
 * must all come back. */
extern char __bss_start[], _end[];
static struct owners owners_before, owners_after;   /* /proc/page_owner, for a leak's report */

static void __attribute__((noinline)) touch_own_pages(void)
{
	volatile char below[32 * 1024];           /* volatile stores: a memset of it could be left out */
	for (size_t i = 0; i < sizeof(below); i += PAGE)
		below[i] = 0;
	for (volatile char *p = __bss_start; p < _end; p += PAGE)
		*p = *p;
}

int main(int argc, char **argv)
{
	struct bench_param params[] = {
		{ "seconds", 60, 1, 86400 },
		{ "procs", 0, 0, MAX_PROCS },
		{ "seed", 0, 0, LONG_MAX },
		{ "threads", (1 << THREADS) - 1, 1, (1 << THREADS) - 1 },
	};
	bench_params("fuzz", argc, argv, params, 4);
	thread_mask = params[3].value;
	setvbuf(stdout, NULL, _IONBF, 0);
	int procs = params[1].value ? (int)params[1].value : 2 * bench_cpus();
	seed = (uint64_t)params[2].value;
	while (!seed && getrandom(&seed, sizeof(seed), 0) == sizeof(seed))
		seed &= LONG_MAX;
	printf("fuzz: seed %llu: %d processes of %d threads for %ld s (again: /bin/fuzz seed=%llu)\n",
	       (unsigned long long)seed, procs, __builtin_popcountl(thread_mask), params[0].value, (unsigned long long)seed);

	fuzz_pid = fuzz_pgid = getpid();
	setpgid(0, 0);
	size_t views_size = (MAX_PROCS * sizeof(struct worker_view) + PAGE - 1) & ~(PAGE - 1);
	views = mmap(NULL, views_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (views == MAP_FAILED)
		bench_fail("fuzz", "mmap");
	touch_own_pages();
	memset(views, 0, views_size);            /* and the shared views' pages */
	owners_read(&owners_before);
	struct kernel_usage before = kernel_usage_now();
	end_ns = bench_now_ns() + (uint64_t)params[0].value * 1000000000ULL;
	for (int i = 0; i < procs; i++)
		start(i);
	const struct timespec pause = { 0, 100 * 1000 * 1000 };
	while (bench_now_ns() < end_ns) {
		nanosleep(&pause, NULL);
		tend(procs);
	}

	uint64_t total = 0;
	for (int i = 0; i < procs; i++) {
		if (slots[i].pid) {
			kill(slots[i].pid, SIGKILL);
			waitpid(slots[i].pid, NULL, 0);
		}
		total += views[i].calls;
	}
	for (int i = 0; i < procs; i++) {         /* the scratch directories, however deep */
		char path[32];
		snprintf(path, sizeof(path), "/tmp/fuzz/%d", i);
		remove_tree(path);
	}
	if (rmdir("/tmp/fuzz") != 0)
		printf("fuzz: /tmp/fuzz is still there\n");
	print_ends();
	struct kernel_usage after = kernel_usage_settled(before, 30);
	bool back = after.tasks == before.tasks && after.free_bytes == before.free_bytes;
	if (!back)
		owners_read(&owners_after);          /* at once: what is held now, not after the report */
	printf("RESULT name=fuzz seed=%llu seconds=%ld procs=%d threads=%d calls=%llu restarts=%ld stalled=%ld stuck=%ld",
	       (unsigned long long)seed, params[0].value, procs, __builtin_popcountl(thread_mask), (unsigned long long)total, restarts,
	       stalled, stuck);
	print_leaks(before, after);
	printf("\n");
	if (!back) {
		/* Slow or never? Asked before the list of processes below,
		 * whose reading takes memory of its own. */
		owners_print_changes("fuzz", &owners_before, &owners_after);
		struct kernel_usage later = kernel_usage_settled(before, 60);
		printf("fuzz: %s 60 s later\n",
		       later.tasks == before.tasks && later.free_bytes == before.free_bytes ? "all back" : "still not back");
		print_leftovers();
	}
	return 0;
}
