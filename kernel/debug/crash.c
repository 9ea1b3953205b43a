/*
 * Deliberate crashes, to show (and test) what a kernel bug looks like:
 * `crash=null`, `crash=stack` or `crash=ud` on the command line.
 */
#include <stdint.h>
#include "kernel/debug/crash.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/task/kthread.h"
#include "sched/api.h"
#include "sched/preempt.h"
#include "arch/x86_64/cpu.h"

static const char *const crash_kinds[] = { "none", "null", "stack", "ud", "lockup", NULL };
enum { CRASH_NONE, CRASH_NULL, CRASH_STACK, CRASH_UD, CRASH_LOCKUP };
static int crash_kind = CRASH_NONE;
BOOT_PARAM_CHOICE("crash", crash_kind, crash_kinds,
		  "crash on purpose after boot: null dereference, stack overflow, invalid opcode, or a soft lockup");

/* Volatile, so the compiler cannot see the NULL and drop or rewrite the store. */
static volatile uintptr_t null_address;

static void __attribute__((noinline)) crash_null(void)
{
	*(volatile uint64_t *)null_address = 1;
}

/* Each call puts a page on the stack; the guard page below the stack stops it.
 * (The limit is volatile so the compiler cannot prove the recursion endless.) */
static volatile uint64_t stack_crash_limit = UINT64_MAX;

static uint64_t __attribute__((noinline)) crash_stack(uint64_t depth)
{
	volatile uint8_t frame[4096];
	frame[0] = (uint8_t)depth;
	if (depth == stack_crash_limit)
		return 0;
	return crash_stack(depth + 1) + frame[0];
}

static void __attribute__((noinline)) crash_ud(void)
{
	__builtin_trap();                 /* ud2 */
}

static void wait_forever(void *arg)
{
	(void)arg;
	for (;;)
		cpu_relax();
}

/* Hog this CPU with preemption off while another task waits for it: the
 * scheduler's soft-lockup watchdog must notice and panic. */
static void __attribute__((noinline)) crash_lockup(void)
{
	cpumask_t here = 1ULL << sched_this_cpu();
	sched_setaffinity(0, here);
	struct task *waiter = task_create("waiter", wait_forever, NULL);
	if (!waiter)
		return;
	waiter->cpus_allowed = here;
	task_start(waiter);
	preempt_disable();
	for (;;)
		cpu_relax();
}

bool crash_requested(void)
{
	return crash_kind != CRASH_NONE;
}

void crash_now(void)
{
	pr_info("crash: crashing on purpose (crash=%s)", crash_kinds[crash_kind]);
	switch (crash_kind) {
	case CRASH_NULL:  crash_null(); break;
	case CRASH_STACK: crash_stack(0); break;
	case CRASH_UD:    crash_ud(); break;
	case CRASH_LOCKUP: crash_lockup(); break;
	}
}
