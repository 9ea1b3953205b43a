/*
 * The SYSRET hazard, for real (docs/userspace.md): a program whose
 * `syscall` is the last instruction below USER_TOP gets back a rip of
 * USER_TOP itself, which is not canonical. On Intel CPUs sysretq would
 * fault in ring 0 on the program's stack; the exit must take iretq instead,
 * whose fault is blamed on the program: it dies of a general protection
 * fault, and the kernel carries on.
 */
#include "kernel/debug/ktest.h"
#include "kernel/task/process.h"
#include "kernel/task/kthread.h"

/* mov eax, 39 (getpid); syscall */
static const uint8_t syscall_at_the_edge[] = { 0xb8, 39, 0, 0, 0, 0x0f, 0x05 };

static void enter_at_the_edge(void *arg)
{
	(void)arg;
	arch_enter_user(USER_TOP - sizeof(syscall_at_the_edge), USER_TOP - PAGE_SIZE);
}

KTEST(sysret, non_canonical_return_kills_only_the_program)
{
	struct mm *mm = mm_create();
	struct process *proc = mm ? process_create(mm, NULL) : NULL;   /* no descriptors: it needs none */
	KASSERT(t, proc);
	/* mm.c keeps programs off this page; the test maps it on purpose. */
	KASSERT(t, mm_map_anon(mm, USER_TOP - PAGE_SIZE, PAGE_SIZE, PROT_READ | PROT_EXEC) == 0);
	KASSERT(t, mm_write(mm, USER_TOP - sizeof(syscall_at_the_edge), syscall_at_the_edge,
			    sizeof(syscall_at_the_edge)) == 0);
	struct task *p;
	KASSERT(t, process_start(proc, NULL, "edge", enter_at_the_edge, NULL, &p) == 0);
	int pid = proc->pid, status = -1;
	uint64_t before = __atomic_load_n(&syscall_exits_by_iretq, __ATOMIC_RELAXED);
	task_start(p);
	KEXPECT_EQ(t, process_wait(pid, &status), pid);
	KEXPECT_EQ(t, wait_status_signal(status), 11);   /* SIGSEGV */
	/* Only the exit's choice tells: QEMU's TCG, unlike Intel CPUs, lets a
	 * sysretq or iretq to a non-canonical rip fault in ring 3 instead. */
	KEXPECT_EQ(t, __atomic_load_n(&syscall_exits_by_iretq, __ATOMIC_RELAXED), before + 1);
}
