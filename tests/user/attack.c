/*
 * What an attacker in ring 3 would try, case by case: touch the kernel's
 * memory, run code from the stack and the heap, run privileged
 * instructions, hand the kernel its own addresses, return from a signal
 * handler through a forged frame, nest handlers with no end, aim a system
 * call's return at the edge of user space. Each attempt runs in a child,
 * and the line says how the child ended: "attack: what: killed by signal
 * N", "attack: what: ERROR" (the call failed, with that errno), or
 * "attack: what: succeeded". The same binary runs on the host's Linux and
 * on leftmost, and the lines must be the same (tests/user/cases.h); the
 * kernel says itself whether its code changed meanwhile (docs/userspace.md,
 * "Attacks, the fuzzer and the leak test").
 *
 * The kernel addresses tried are leftmost's and Linux's, each a kernel
 * address on both kernels: every address above user space is the
 * kernel's, mapped or not. The vsyscall page (0xffffffffff600000) is left
 * out: Linux emulates calls into it for old programs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define CASES_NAME "attack"
#include "cases.h"

#define PAGE 4096UL
#define USER_TOP 0x0000800000000000ULL      /* the first non-canonical address */
#define KERNEL_CS 0x08                      /* leftmost's and Linux's */
#define KERNEL_DS 0x10
#define CLONE_SETTLS 0x80000
#define ARCH_SET_FS 0x1002
#define FUTEX_WAIT 0
#define FUTEX_WAKE 1

struct place {
	const char *name;
	uint64_t addr;
};

static const struct place kernel_places[] = {
	{ "leftmost's kernel text", 0xffffffff80100000ULL },
	{ "leftmost's direct map", 0xffff800000100000ULL },
	{ "Linux's kernel text", 0xffffffff81000000ULL },
	{ "Linux's direct map", 0xffff888000100000ULL },
	{ "the last page of all", 0xfffffffffffff000ULL },
	{ "the first non-canonical address", USER_TOP },
	{ "the top bit alone", 0x8000000000000000ULL },
};
#define NPLACES (sizeof(kernel_places) / sizeof(kernel_places[0]))

/* Run attempt(arg) in a child and say how the child ended. The attempt
 * returns what a system call returns (-1 with errno set for an error);
 * the child passes the errno on as its exit status. */
static void attempt(const char *what, const char *where, long (*fn)(uint64_t arg), uint64_t arg)
{
	pid_t pid = fork();
	if (pid == 0) {
		long ret = fn(arg);
		_exit(ret == -1 ? errno : 0);
	}
	int status;
	if (waitpid(pid, &status, 0) != pid)
		printf("attack: %s %s: waitpid failed: %s\n", what, where, strerror(errno));
	else if (WIFSIGNALED(status))
		printf("attack: %s %s: killed by signal %d\n", what, where, WTERMSIG(status));
	else if (WEXITSTATUS(status))
		printf("attack: %s %s: %s\n", what, where, strerror(WEXITSTATUS(status)));
	else
		printf("attack: %s %s: succeeded\n", what, where);
}

/* Ring 3 touches kernel memory. */

static long read_byte(uint64_t addr)
{
	return *(volatile uint8_t *)addr;
}

static long write_byte(uint64_t addr)
{
	*(volatile uint8_t *)addr = 0x90;
	return 0;
}

static long call_address(uint64_t addr)
{
	((void (*)(void))addr)();
	return 0;
}

static void kernel_memory(void)
{
	for (size_t i = 0; i < NPLACES; i++) {
		const struct place *p = &kernel_places[i];
		attempt("read", p->name, read_byte, p->addr);
		attempt("write", p->name, write_byte, p->addr);
		attempt("execute", p->name, call_address, p->addr);
	}
}

/* Code where there should be none: the bytes of `ret`, copied to memory
 * that is writable, then called. Only a mapping asked executable runs it. */

static const uint8_t just_ret[] = { 0xc3 };

static long call_copy(uint64_t where)
{
	memcpy((void *)where, just_ret, sizeof(just_ret));
	return call_address(where);
}

static long on_the_stack(uint64_t unused)
{
	(void)unused;
	volatile uint8_t code[16];
	return call_copy((uint64_t)code);
}

static long map_and_call(uint64_t prot)
{
	void *p = mmap(NULL, PAGE, (int)prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? -1 : call_copy((uint64_t)p);
}

static long write_own_code(uint64_t unused)
{
	(void)unused;
	return write_byte((uint64_t)write_own_code);
}

static void executable_data(void)
{
	attempt("execute code on", "the stack", on_the_stack, 0);
	attempt("execute code on", "the heap (malloc)", call_copy, (uint64_t)malloc(64));
	attempt("execute code in", "a read-write mapping", map_and_call, PROT_READ | PROT_WRITE);
	attempt("execute code in", "a read-write-execute mapping", map_and_call, PROT_READ | PROT_WRITE | PROT_EXEC);
	attempt("write", "the program's own code", write_own_code, 0);
}

/* Instructions only the kernel may run, and the ways into it that only
 * the kernel may use: each run from an executable page, then `ret`. */

struct instruction {
	const char *name;
	uint8_t len;
	uint8_t bytes[4];
};

static const struct instruction privileged[] = {
	{ "cli", 1, { 0xfa } },
	{ "hlt", 1, { 0xf4 } },
	{ "in al, 0x64 (the keyboard controller)", 2, { 0xe4, 0x64 } },
	{ "out 0xf4, al (QEMU's exit port)", 2, { 0xe6, 0xf4 } },
	{ "rdmsr", 2, { 0x0f, 0x32 } },
	{ "wrmsr", 2, { 0x0f, 0x30 } },
	{ "mov cr3, rax", 3, { 0x0f, 0x22, 0xd8 } },
	{ "mov rax, cr0", 3, { 0x0f, 0x20, 0xc0 } },
	{ "lgdt [rax]", 3, { 0x0f, 0x01, 0x10 } },
	{ "invlpg [rax]", 3, { 0x0f, 0x01, 0x38 } },
	{ "wbinvd", 2, { 0x0f, 0x09 } },
	{ "clts", 2, { 0x0f, 0x06 } },
	{ "swapgs", 3, { 0x0f, 0x01, 0xf8 } },
	{ "sysretq", 3, { 0x48, 0x0f, 0x07 } },
	{ "int 0x20 (a device's vector)", 2, { 0xcd, 0x20 } },
	{ "int 0xff (the spurious vector)", 2, { 0xcd, 0xff } },
	{ "int 0x0e (the page fault's vector)", 2, { 0xcd, 0x0e } },
	{ "int3", 1, { 0xcc } },
	{ "ud2", 2, { 0x0f, 0x0b } },
};

static long run_instruction(uint64_t index)
{
	const struct instruction *in = &privileged[index];
	uint8_t *page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return -1;
	memcpy(page, in->bytes, in->len);
	page[in->len] = 0xc3;
	register uint64_t rax __asm__("rax") = (uint64_t)page;   /* [rax]: a mapped user page */
	__asm__ volatile("call *%0" : "+r"(rax) : : "rcx", "rdx", "memory");
	return 0;
}

static void privileged_instructions(void)
{
	for (size_t i = 0; i < sizeof(privileged) / sizeof(privileged[0]); i++)
		attempt("run", privileged[i].name, run_instruction, i);
}

/* System calls given kernel addresses for their pointers: each must fail
 * with EFAULT (or EPERM, where Linux says so), touching nothing. A pipe
 * with a byte in it gives read() something to copy. */

static int pipe_with_a_byte(int fds[2])
{
	return pipe(fds) == 0 && write(fds[1], "x", 1) == 1 ? 0 : -1;
}

static long read_into(uint64_t addr)
{
	int fds[2];
	return pipe_with_a_byte(fds) ? -1 : syscall(SYS_read, fds[0], addr, 1);
}

static long write_from(uint64_t addr)
{
	int fds[2];
	return pipe(fds) ? -1 : syscall(SYS_write, fds[1], addr, 1);
}

static long readv_into(uint64_t addr)
{
	int fds[2];
	struct iovec v = { (void *)addr, 1 };
	return pipe_with_a_byte(fds) ? -1 : syscall(SYS_readv, fds[0], &v, 1);
}

static long writev_iovec_at(uint64_t addr)
{
	return syscall(SYS_writev, 1, addr, 1);
}

static long clock_gettime_into(uint64_t addr)
{
	return syscall(SYS_clock_gettime, CLOCK_MONOTONIC, addr);   /* not the vDSO's: the kernel's */
}

static long futex_wait_on(uint64_t addr)
{
	return syscall(SYS_futex, addr, FUTEX_WAIT, 0, NULL, NULL, 0);
}

static long futex_wake_on(uint64_t addr)
{
	return syscall(SYS_futex, addr, FUTEX_WAKE, 1, NULL, NULL, 0);
}

static long futex_timeout_at(uint64_t addr)
{
	uint32_t word = 0;
	return syscall(SYS_futex, &word, FUTEX_WAIT, 0, addr, NULL, 0);
}

static long nanosleep_from(uint64_t addr)
{
	return syscall(SYS_nanosleep, addr, NULL);
}

static long uname_into(uint64_t addr)
{
	return syscall(SYS_uname, addr);
}

static long sysinfo_into(uint64_t addr)
{
	return syscall(SYS_sysinfo, addr);
}

static long pipe_into(uint64_t addr)
{
	return syscall(SYS_pipe, addr);
}

static long sigaction_from(uint64_t addr)
{
	return syscall(SYS_rt_sigaction, SIGUSR1, addr, NULL, 8);
}

static long sigaction_old_into(uint64_t addr)
{
	return syscall(SYS_rt_sigaction, SIGUSR1, NULL, addr, 8);
}

static long sigprocmask_from(uint64_t addr)
{
	return syscall(SYS_rt_sigprocmask, SIG_BLOCK, addr, NULL, 8);
}

static long getrandom_into(uint64_t addr)
{
	return syscall(SYS_getrandom, addr, 16, 0);
}

static long open_path(uint64_t addr)
{
	return syscall(SYS_open, addr, 0);
}

static long execve_path(uint64_t addr)
{
	return syscall(SYS_execve, addr, NULL, NULL);
}

static long getrusage_into(uint64_t addr)
{
	return syscall(SYS_getrusage, 0, addr);
}

static long wait4_status_into(uint64_t addr)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	return syscall(SYS_wait4, pid, addr, 0, NULL);
}

static long arch_prctl_fs(uint64_t addr)
{
	return syscall(SYS_arch_prctl, ARCH_SET_FS, addr);
}

/* A new process whose thread pointer (FS base) is addr. */
static long clone_tls(uint64_t addr)
{
	long pid = syscall(SYS_clone, SIGCHLD | CLONE_SETTLS, 0, NULL, NULL, addr);
	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid((pid_t)pid, NULL, 0);
	return pid;
}

static long mmap_fixed_at(uint64_t addr)
{
	void *p = mmap((void *)addr, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	return p == MAP_FAILED ? -1 : 0;
}

static long munmap_at(uint64_t addr)
{
	return munmap((void *)addr, PAGE);
}

static long mprotect_at(uint64_t addr)
{
	return mprotect((void *)addr, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC);
}

/* The thread id written and a futex woken there when the process ends. */
static long clear_tid_at_exit(uint64_t addr)
{
	syscall(SYS_set_tid_address, addr);
	syscall(SYS_exit, 0);
	return 0;
}

struct pointer_call {
	const char *name;
	long (*fn)(uint64_t addr);
};

static const struct pointer_call pointer_calls[] = {
	{ "read() into", read_into },
	{ "write() from", write_from },
	{ "readv() into", readv_into },
	{ "writev() with its iovec at", writev_iovec_at },
	{ "clock_gettime() into", clock_gettime_into },
	{ "futex(WAIT) on", futex_wait_on },
	{ "futex(WAKE) on", futex_wake_on },
	{ "futex(WAIT) with its timeout at", futex_timeout_at },
	{ "nanosleep() from", nanosleep_from },
	{ "uname() into", uname_into },
	{ "sysinfo() into", sysinfo_into },
	{ "pipe() into", pipe_into },
	{ "rt_sigaction() from", sigaction_from },
	{ "rt_sigaction() old action into", sigaction_old_into },
	{ "rt_sigprocmask() from", sigprocmask_from },
	{ "getrandom() into", getrandom_into },
	{ "open() a path at", open_path },
	{ "execve() a path at", execve_path },
	{ "getrusage() into", getrusage_into },
	{ "wait4() a status into", wait4_status_into },
	{ "arch_prctl(SET_FS) to", arch_prctl_fs },
	{ "clone(SETTLS) with its thread pointer at", clone_tls },
	{ "mmap(FIXED) at", mmap_fixed_at },
	{ "munmap()", munmap_at },
	{ "mprotect(RWX)", mprotect_at },
	{ "set_tid_address(), then exit, to", clear_tid_at_exit },
};

static void kernel_pointers(void)
{
	static const size_t places[] = { 0, 3, 5 };   /* text, a direct map, non-canonical */
	for (size_t c = 0; c < sizeof(pointer_calls) / sizeof(pointer_calls[0]); c++)
		for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++)
			attempt(pointer_calls[c].name, kernel_places[places[i]].name, pointer_calls[c].fn,
				kernel_places[places[i]].addr);
}

/* Signal frames: the handler rewrites the frame it will return through,
 * as an attacker who controls the stack would. */

enum forgery { RIP, CS, SS, IOPL, TRAP_FLAG, RSP, FPSTATE, MXCSR };

static volatile enum forgery forgery;
static volatile uint64_t forged_value;

#define REG_SS_SHIFT 48                   /* sigcontext's cs, gs, fs, ss: one 16-bit word each */
#define RFLAGS_IOPL3 0x3000
#define RFLAGS_TF 0x100

static void forge(int sig, siginfo_t *si, void *ucv)
{
	(void)sig, (void)si;
	ucontext_t *uc = ucv;
	greg_t *r = uc->uc_mcontext.gregs;
	switch (forgery) {
	case RIP:       r[REG_RIP] = (greg_t)forged_value; break;
	case CS:        r[REG_CSGSFS] = (r[REG_CSGSFS] & ~0xffffLL) | KERNEL_CS; break;
	case SS:        r[REG_CSGSFS] = (r[REG_CSGSFS] & ~(0xffffLL << REG_SS_SHIFT)) |
				    ((greg_t)KERNEL_DS << REG_SS_SHIFT); break;
	case IOPL:      r[REG_EFL] |= RFLAGS_IOPL3; break;
	case TRAP_FLAG: r[REG_EFL] |= RFLAGS_TF; break;
	case RSP:       r[REG_RSP] = (greg_t)forged_value; break;
	case FPSTATE:   uc->uc_mcontext.fpregs = (fpregset_t)forged_value; break;
	case MXCSR:     uc->uc_mcontext.fpregs->mxcsr = 0xffffffff; break;
	}
}

/* The handler forges; then, if the return lands, `cli` must still fault
 * (IOPL stays 0) and the child exits 0. */
static long return_through_forged_frame(uint64_t which)
{
	forgery = (enum forgery)which;
	struct sigaction sa = { .sa_sigaction = forge, .sa_flags = SA_SIGINFO };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	if (which == IOPL)
		__asm__ volatile("cli");
	return 0;
}

static void forged_frame(const char *what, enum forgery which, uint64_t value)
{
	forged_value = value;
	attempt("a handler returns through a frame with", what, return_through_forged_frame, which);
}

/* rt_sigreturn with the stack pointer in the kernel: no frame to read.
 * With SIGSEGV blocked too, the kernel must still end the program. */
static long sigreturn_from(uint64_t addr)
{
	__asm__ volatile("mov %0, %%rsp\n\tmov $15, %%eax\n\tsyscall\n\tud2" : : "r"(addr) : "rax", "rcx", "r11", "memory");
	return 0;
}

static long sigreturn_from_with_sigsegv_blocked(uint64_t addr)
{
	sigset_t segv;
	sigemptyset(&segv);
	sigaddset(&segv, SIGSEGV);
	sigprocmask(SIG_BLOCK, &segv, NULL);
	return sigreturn_from(addr);
}

/* A signal to a program whose stack pointer is in the kernel: the frame
 * cannot be written there. */
static void ignore(int sig)
{
	(void)sig;
}

static long signal_with_stack_at(uint64_t addr)
{
	signal(SIGUSR1, ignore);
	long ret = SYS_kill;
	__asm__ volatile("mov %%rsp, %%r12\n\tmov %[sp], %%rsp\n\tsyscall\n\tmov %%r12, %%rsp"
			 : "+a"(ret) : [sp] "r"(addr), "D"((long)getpid()), "S"((long)SIGUSR1)
			 : "rcx", "r11", "r12", "memory");
	return ret;
}

/* Handlers and restorers that are not the program's code. */
static long handler_at(uint64_t addr)
{
	struct sigaction sa = { .sa_handler = (void (*)(int))addr };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	return raise(SIGUSR1);
}

struct kernel_sigaction {
	uint64_t handler, flags, restorer, mask;
};
#define SA_RESTORER 0x04000000

static long restorer_at(uint64_t addr)
{
	struct kernel_sigaction ka = { (uint64_t)ignore, SA_RESTORER, addr, 0 };
	syscall(SYS_rt_sigaction, SIGUSR1, &ka, NULL, 8);
	return raise(SIGUSR1);
}

static long altstack_at(uint64_t addr)
{
	stack_t ss = { .ss_sp = (void *)addr, .ss_size = 65536 };
	if (sigaltstack(&ss, NULL))
		return -1;
	struct sigaction sa = { .sa_handler = ignore, .sa_flags = SA_ONSTACK };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	return raise(SIGUSR1);
}

/* Handlers that nest: each raises its own signal again (SA_NODEFER), so
 * frames pile up on the program's stack, never on the kernel's: the
 * kernel delivers one handler and returns to it. `depth` 0: with no end,
 * until the stack (1 MiB here, where Linux obeys the limit) runs out. */
static volatile int nested, nest_depth;

static void nest(int sig)
{
	if (nest_depth == 0 || ++nested < nest_depth)
		raise(sig);
}

static long nested_handlers(uint64_t depth)
{
	struct rlimit small = { 1 << 20, 1 << 20 };
	if (depth == 0 && setrlimit(RLIMIT_STACK, &small))
		return -1;
	nest_depth = (int)depth;
	struct sigaction sa = { .sa_handler = nest, .sa_flags = SA_NODEFER };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	return nested == nest_depth ? 0 : (errno = ERANGE, -1);
}

static void signals(void)
{
	const struct place *text = &kernel_places[0];
	forged_frame("rip in the kernel", RIP, text->addr);
	forged_frame("rip at the first non-canonical address", RIP, USER_TOP);
	forged_frame("rip with only the top bit", RIP, 0x8000000000000000ULL);
	forged_frame("the kernel's code segment", CS, 0);
	forged_frame("the kernel's stack segment", SS, 0);
	forged_frame("IOPL 3, then cli", IOPL, 0);
	forged_frame("the trap flag", TRAP_FLAG, 0);
	forged_frame("rsp in the kernel", RSP, text->addr);
	forged_frame("its x87/SSE state in the kernel", FPSTATE, text->addr);
	forged_frame("an MXCSR with reserved bits", MXCSR, 0);
	attempt("rt_sigreturn with rsp in", text->name, sigreturn_from, text->addr);
	attempt("rt_sigreturn, SIGSEGV blocked, with rsp in", text->name, sigreturn_from_with_sigsegv_blocked,
		text->addr);
	attempt("a signal arrives with rsp in", text->name, signal_with_stack_at, text->addr);
	attempt("a signal arrives with rsp at", "the first non-canonical address", signal_with_stack_at, USER_TOP);
	attempt("a signal's handler at", text->name, handler_at, text->addr);
	attempt("a signal's handler at", "the first non-canonical address", handler_at, USER_TOP);
	attempt("a signal's restorer at", text->name, restorer_at, text->addr);
	attempt("a signal's alternate stack at", text->name, altstack_at, text->addr);
	attempt("handlers nested 1000 deep", "on the program's stack", nested_handlers, 1000);
	attempt("handlers nested with no end", "on the program's stack", nested_handlers, 0);
}

/* The SYSRET hazard: a `syscall` in the last two bytes of user space
 * would return to the first non-canonical address, and Intel's sysretq
 * faults on that in ring 0. User space ends a page early (Linux's
 * TASK_SIZE), so that page cannot be mapped; `syscall` at the end of the
 * page below returns to an unmapped, but canonical, address. On leftmost
 * that page is the top of the stack, so the attempt runs on another. */
static void syscall_at_the_edge(void)
{
	uint8_t *p = mmap((void *)(USER_TOP - 2 * PAGE), PAGE, PROT_READ | PROT_WRITE | PROT_EXEC,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (p == MAP_FAILED)
		_exit(errno);
	static const uint8_t getpid_syscall[] = { 0xb8, SYS_getpid, 0, 0, 0, 0x0f, 0x05 };   /* mov eax, 39; syscall */
	uint8_t *code = p + PAGE - sizeof(getpid_syscall);
	memcpy(code, getpid_syscall, sizeof(getpid_syscall));
	call_address((uint64_t)code);
}

static long on_a_heap_stack(uint64_t fn)
{
	enum { STACK = 65536 };
	uint8_t *stack = malloc(STACK);
	__asm__ volatile("mov %[top], %%rsp\n\tcall *%[fn]\n\tud2"
			 : : [top] "r"(stack + STACK), [fn] "r"(fn) : "memory");
	return 0;
}

static long munmap_everything(uint64_t unused)
{
	(void)unused;
	return munmap(NULL, USER_TOP - PAGE);
}

/* A `syscall` made with the trap flag set: the CPU takes the single step's
 * debug trap after the instruction, at the kernel's entry, in ring 0 but
 * with the program's stack and GS. The kernel must pass over it; the
 * program gets its SIGTRAP after the call returns. */
static volatile sig_atomic_t traps;

static void count_trap(int sig, siginfo_t *info, void *context)
{
	(void)sig;
	(void)info;
	traps++;
	((ucontext_t *)context)->uc_mcontext.gregs[REG_EFL] &= ~0x100L;   /* stop stepping */
}

static long syscall_with_trap_flag(uint64_t unused)
{
	(void)unused;
	struct sigaction sa = { .sa_sigaction = count_trap, .sa_flags = SA_SIGINFO };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTRAP, &sa, NULL);
	long ret = SYS_getpid;
	__asm__ volatile("pushf\n\torq $0x100, (%%rsp)\n\tpopf\n\tsyscall\n\tnop"
			 : "+a"(ret) : : "rcx", "r11", "memory", "cc");
	if (ret != getpid() || traps == 0) {
		errno = ret != getpid() ? EIO : ENOENT;
		return -1;
	}
	return 0;
}

static void edge_of_user_space(void)
{
	attempt("a system call with", "the trap flag set", syscall_with_trap_flag, 0);
	attempt("mmap(FIXED) the last page below", "the first non-canonical address", mmap_fixed_at, USER_TOP - PAGE);
	attempt("a syscall at the end of the page below", "that last page", on_a_heap_stack,
		(uint64_t)syscall_at_the_edge);
	attempt("jump to", "the first non-canonical address", call_address, USER_TOP);
	attempt("munmap() all of", "user space", munmap_everything, 0);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	kernel_memory();
	executable_data();
	privileged_instructions();
	kernel_pointers();
	signals();
	edge_of_user_space();
	printf("attack: done\n");
	return 0;
}
