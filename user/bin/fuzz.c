/*
 * fuzz [seconds=60] [procs=0] [seed=0]: random system calls from many
 * processes at once, on every CPU, to find what a program can do to the
 * kernel that it should not: a panic, a warning, a hang, a leak.
 *
 * The parent starts `procs` workers (0: two per CPU), each pinned to a
 * CPU at first, and restarts any that dies, counting how it died. A
 * worker makes calls forever: mostly the calls leftmost has, with
 * arguments of the kind each takes, biased toward the edges (0, -1, huge
 * lengths, unmapped, misaligned and kernel addresses, closed descriptors);
 * sometimes any number at all. Its fork()s make children that fuzz for a
 * while too, two generations deep at most; its clone()s and vfork()s make
 * tasks that end at once. After `seconds` the parent kills them all and
 * checks that the kernel's free memory and task count came back
 * (user/bin/leakcheck.h):
 *
 *   fuzz: seed 1234: 8 processes for 60 s (again: /bin/fuzz seed=1234)
 *   fuzz: 310 restarts: 250 killed by signal 11, ...
 *   RESULT name=fuzz seed=1234 seconds=60 procs=8 calls=N restarts=R stalled=S leaked_pages=0 ...
 *
 * If a task did not come back, the processes /proc still lists follow,
 * "fuzz: left over: " and their stat lines.
 *
 * The seed decides every worker's calls, so seed=S makes the same calls
 * again (their timing, and so what they meet, differs). What a worker may
 * not do: harm the parent (it is never a target: not of kill() nor of
 * the scheduling and limit calls), write to the console (its 0, 1 and 2
 * are a pipe), change the files (paths are a fixed few, opened read-only),
 * or end itself too often (exit, rt_sigreturn and its own memory are rare
 * picks). A blocking call is cut short by the worker's 20 ms SIGALRM, and
 * a worker that makes no progress for 2 s (stopped, or stuck) is killed.
 */
#include "../bench/bench.h"   /* key=value parameters, the clock, the CPUs */
#include <dirent.h>
#include <limits.h>
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
#define PAGE           4096UL
#define USER_TOP       0x0000800000000000ULL
#define HOUSEKEEPING   64                 /* calls between a worker's checks of its own state */
#define TICK_NS        (20 * 1000 * 1000) /* the worker's SIGALRM: no blocking call lasts longer */
#define STALL_NS       (2000ULL * 1000 * 1000)
enum { ARCH_SET_FS = 0x1002, ARCH_GET_FS = 0x1003 };

/* The random stream: splitmix64. Each process has its own, derived from the seed. */
static uint64_t rng;

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
static uint8_t *scratch;                   /* the worker's own pages: where pointers that work point */
static uint64_t fs_base;                   /* the C library's thread pointer, put back after arch_prctl */

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
	0, 1, 2, (uint64_t)-1, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ULL,
	INT64_MAX, (uint64_t)INT64_MIN, PAGE - 1, PAGE, PAGE + 1, USER_TOP, USER_TOP - PAGE,
	0xffffffff80100000ULL, 0xffff800000000000ULL,
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

static uint64_t any_length(void)
{
	static const uint64_t lengths[] = { 0, 1, 8, PAGE, PAGE + 1, 65536, 1ULL << 31, (uint64_t)-1, 1ULL << 62 };
	return one_in(3) ? PICK(lengths) : below(one_in(2) ? 64 : 2 * PAGE);
}

static uint64_t any_fd(void)
{
	static const uint64_t fds[] = { (uint64_t)-1, 255, 256, 1024, 0x7fffffff, 0x80000000 };
	return one_in(4) ? PICK(fds) : below(one_in(2) ? 8 : 64);
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
	return one_in(8) ? PICK(edges) : below(one_in(2) ? 4 : 20);
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

/* A path: the few there are, read-only. Only a child may exec a program. */
static uint64_t any_path(void)
{
	static char long_path[5000];
	static const char *const paths[] = {
		"/nonexistent/x", "", "/", "/bin", "/bin/", "..", "/bin/exit42/x", long_path,
		"/bin/exit42", "/bin/hello",
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

/* Each call's arguments, one letter each:
 *   f fd   p pointer   s path   v argv/envp   l length   n any number
 *   i pid  g signal    F flags  c small int   t timespec   A sigaction
 *   a mapping address  m mapping length   b the heap's end   z a signal set's size (8) */
struct call {
	short nr;
	const char *args;
};

static const struct call calls[] = {
	{ 0, "fpl" }, { 1, "fpl" }, { 2, "sFn" }, { 3, "f" }, { 4, "sp" }, { 5, "fp" },
	{ 7, "pln" }, { 8, "fnc" }, { 9, "amcFfn" }, { 10, "amc" }, { 11, "am" }, { 12, "b" },
	{ 13, "gAAz" }, { 14, "cppz" }, { 15, "" }, { 16, "fnp" }, { 17, "fpln" }, { 18, "fpln" },
	{ 19, "fpl" }, { 20, "fpl" }, { 21, "sc" }, { 22, "p" }, { 23, "npppt" }, { 24, "" },
	{ 32, "f" }, { 33, "ff" }, { 34, "" }, { 35, "tp" }, { 36, "cp" }, { 37, "n" },
	{ 38, "ctp" }, { 39, "" }, { 56, "Fpppp" }, { 57, "" }, { 58, "" }, { 59, "svv" },
	{ 60, "n" }, { 61, "ipFp" }, { 62, "ig" }, { 63, "p" }, { 72, "fcn" }, { 79, "pl" },
	{ 80, "s" }, { 81, "f" }, { 96, "pp" }, { 97, "cp" }, { 98, "cp" }, { 99, "p" },
	{ 100, "p" }, { 102, "" }, { 104, "" }, { 107, "" }, { 108, "" }, { 109, "ii" },
	{ 110, "" }, { 111, "" }, { 112, "" }, { 121, "i" }, { 124, "i" }, { 127, "pl" },
	{ 130, "pz" }, { 131, "pp" }, { 140, "ci" }, { 141, "cin" }, { 142, "ip" }, { 143, "ip" },
	{ 144, "icp" }, { 145, "i" }, { 146, "c" }, { 147, "c" }, { 148, "ip" }, { 157, "nnnnn" },
	{ 158, "cp" }, { 160, "cp" }, { 186, "" }, { 200, "ig" }, { 201, "p" }, { 202, "pcntpn" },
	{ 203, "ilp" }, { 204, "ilp" }, { 217, "fpl" }, { 218, "p" }, { 228, "cp" }, { 229, "cp" },
	{ 230, "cFtp" }, { 231, "n" }, { 234, "iig" }, { 247, "ciFpp" }, { 257, "fsFn" },
	{ 262, "fspF" }, { 273, "pl" }, { 292, "ffF" }, { 293, "pF" }, { 302, "icpp" },
	{ 309, "ppp" }, { 314, "ipF" }, { 315, "iplF" }, { 318, "plF" },
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

/* Make the call one a worker may make; false to draw another. */
static bool sanitize(long nr, uint64_t a[6])
{
	enum { O_ACCMODE = 3, O_CREAT = 0x40, O_TRUNC = 0x200, O_APPEND = 0x400, O_TMPFILE = 0x410000 };
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
		return true;
	case SYS_sched_setparam: case SYS_sched_setscheduler: case SYS_sched_setaffinity:
	case SYS_sched_setattr: case SYS_prlimit64:
		if ((int)a[0] == fuzz_pid)
			a[0] = 0;
		return true;
	case SYS_prctl:
		if (a[0] == PR_SET_PDEATHSIG)
			a[0] = PR_GET_PDEATHSIG;  /* children must die with their parent */
		return true;
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

/* The worker's own state, made good again: its SIGALRM tick (which the
 * calls may have stopped, blocked or taken over) and its stopped children. */
static void housekeeping(void)
{
	struct sigaction sa = { .sa_handler = nothing };   /* no SA_RESTART: a blocked call ends */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	sigset_t alarm;
	sigemptyset(&alarm);
	sigaddset(&alarm, SIGALRM);
	sigprocmask(SIG_UNBLOCK, &alarm, NULL);
	struct itimerval tick = { { 0, TICK_NS / 1000 }, { 0, TICK_NS / 1000 } };
	setitimer(ITIMER_REAL, &tick, NULL);
	kill(0, SIGCONT);
}

static void map_scratch(void)
{
	scratch = mmap((void *)SCRATCH, SCRATCH_PAGES * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (scratch == MAP_FAILED)
		_exit(100);
}

/* The new child of a fork() the fuzzer made: it fuzzes a while, and dies
 * with its parent. */
static void become_child(void)
{
	uint64_t seed = rnd();
	rng = seed;
	my_parent = me;
	me = getpid();
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != my_parent)
		_exit(0);                         /* the parent ended before it could ask */
	depth++;
	budget = 100 + (long)below(200);
	housekeeping();                           /* an interval timer is not inherited */
}

/* Put right what the call changed of the worker's own: a child is born,
 * the thread pointer, the scratch pages; and a new mapping goes again at
 * once, so that mappings do not pile up. */
static void after(long nr, const uint64_t a[6], long ret)
{
	if (nr == SYS_fork && ret == 0)
		become_child();
	if (nr == SYS_arch_prctl)
		syscall(SYS_arch_prctl, ARCH_SET_FS, fs_base);
	if (nr == SYS_mmap && ret > 0 && (uint64_t)ret < USER_TOP)
		munmap((void *)ret, a[1]);
	if (nr == SYS_mmap || nr == SYS_munmap || nr == SYS_mprotect || nr == SYS_brk)
		map_scratch();
}

static void one_call(void)
{
	long nr;
	uint64_t a[6];
	do
		any_call(&nr, a);
	while (!sanitize(nr, a));
	long ret = nr == SYS_clone || nr == SYS_vfork ? spawn_and_leave(nr, a) : raw_syscall(nr, a);
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

static void __attribute__((noreturn)) worker(int slot, uint64_t seed, volatile uint64_t *progress, uint64_t end_ns)
{
	rng = seed;
	me = getpid();
	my_parent = fuzz_pid;
	setpgid(0, 0);                            /* its own group: kill(0, ...) stays in it */
	bench_pin("fuzz", slot % bench_cpus());
	away_from_the_console();
	map_scratch();
	heap_start = (uint64_t)syscall(SYS_brk, 0);
	syscall(SYS_arch_prctl, ARCH_GET_FS, &fs_base);
	for (int sig = 1; sig < 65; sig++)        /* sent signals run a handler rather than kill */
		if (sig != SIGSEGV && sig != SIGBUS && sig != SIGILL && sig != SIGFPE && sig != SIGTRAP)
			signal(sig, nothing);
	for (uint64_t n = 0;; n++) {
		if (n % HOUSEKEEPING == 0) {
			housekeeping();
			if (bench_now_ns() >= end_ns)
				_exit(0);
		}
		if (budget >= 0 && budget-- == 0)
			_exit(0);
		one_call();
		__atomic_fetch_add(progress, 1, __ATOMIC_RELAXED);
	}
}

/* The parent's view of its workers. */
struct slot {
	pid_t pid;                                /* 0: none running */
	uint64_t generation;
	uint64_t last_progress, last_change_ns;
	bool killed_as_stalled;
};

static struct slot slots[MAX_PROCS];
static volatile uint64_t *progress;               /* each worker's calls, shared */
static uint64_t seed, end_ns;
static long restarts, stalled, exited, killed_by[65];

static void start(int i)
{
	uint64_t state = seed ^ ((uint64_t)i << 48) ^ slots[i].generation++;
	uint64_t worker_seed = mix(&state);
	pid_t pid = fork();
	if (pid < 0)
		bench_fail("fuzz", "fork");
	if (pid == 0)
		worker(i, worker_seed, &progress[i], end_ns);
	slots[i].pid = pid;
	slots[i].last_progress = progress[i];
	slots[i].last_change_ns = bench_now_ns();
	slots[i].killed_as_stalled = false;
}

static void count_end(struct slot *s, int status)
{
	if (s->killed_as_stalled)
		stalled++;
	else if (WIFSIGNALED(status))
		killed_by[WTERMSIG(status) < 65 ? WTERMSIG(status) : 0]++;
	else
		exited++;
}

/* Restart the workers that ended (those that end at the deadline are
 * done); kill those that made no progress. */
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
		if (!slots[i].pid)
			continue;
		if (progress[i] != slots[i].last_progress) {
			slots[i].last_progress = progress[i];
			slots[i].last_change_ns = now;
		} else if (now - slots[i].last_change_ns > STALL_NS / 4) {
			kill(slots[i].pid, SIGCONT);          /* stopped by a signal it sent itself? */
		}
		if (now - slots[i].last_change_ns > STALL_NS && !slots[i].killed_as_stalled) {
			kill(slots[i].pid, SIGKILL);
			slots[i].killed_as_stalled = true;
		}
	}
}

static void print_ends(void)
{
	printf("fuzz: %ld restarts: %ld exited, %ld stalled", restarts, exited, stalled);
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

int main(int argc, char **argv)
{
	struct bench_param params[] = {
		{ "seconds", 60, 1, 86400 },
		{ "procs", 0, 0, MAX_PROCS },
		{ "seed", 0, 0, LONG_MAX },
	};
	bench_params("fuzz", argc, argv, params, 3);
	setvbuf(stdout, NULL, _IONBF, 0);
	int procs = params[1].value ? (int)params[1].value : 2 * bench_cpus();
	seed = (uint64_t)params[2].value;
	while (!seed && getrandom(&seed, sizeof(seed), 0) == sizeof(seed))
		seed &= LONG_MAX;
	printf("fuzz: seed %llu: %d processes for %ld s (again: /bin/fuzz seed=%llu)\n",
	       (unsigned long long)seed, procs, params[0].value, (unsigned long long)seed);

	fuzz_pid = fuzz_pgid = getpid();
	setpgid(0, 0);
	progress = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (progress == MAP_FAILED)
		bench_fail("fuzz", "mmap");
	/* From here on the parent holds what it will hold at the end (the
	 * page above, and its page table): the rest must all come back. */
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
		total += progress[i];
	}
	print_ends();
	struct kernel_usage after = kernel_usage_settled(before, 30);
	printf("RESULT name=fuzz seed=%llu seconds=%ld procs=%d calls=%llu restarts=%ld stalled=%ld",
	       (unsigned long long)seed, params[0].value, procs, (unsigned long long)total, restarts, stalled);
	print_leaks(before, after);
	printf("\n");
	if (after.tasks != before.tasks)
		print_leftovers();
	return 0;
}
