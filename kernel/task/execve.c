/*
 * execve(): the calling process runs another program. Its path, arguments
 * and environment are copied out of the old address space first, the new
 * one is built beside it (exec_load), and only when that has succeeded
 * does the old one go: a failed execve returns its error to a program
 * that is still intact, as on Linux. Then the descriptors marked
 * close-on-exec close, and the thread enters the new program.
 */
#include "kernel/task/process.h"
#include "kernel/task/exec.h"
#include "kernel/fs/fdtable.h"
#include "kernel/fs/cwd.h"
#include "kernel/fs/ramfs/ramfs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/errno.h"
#include "kernel/mm/vmm.h"
#include "sched/api.h"
#include "sched/preempt.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/user.h"
#include "arch/x86_64/fpu.h"
#include "lib/path.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/util.h"

/* The strings copied in from user memory, one after another. */
struct exec_strings {
	char *buf;
	size_t used, size;
};

/* The NUL-terminated string at user address `from`, appended to s: where it
 * went, or NULL with *err set (-EFAULT, or -E2BIG once s is full). */
static const char *copy_string(struct exec_strings *s, uint64_t from, int *err)
{
	const char *start = s->buf + s->used;
	for (;;) {
		/* Up to the end of the page: if the string's first byte there
		 * is mapped, so is the rest of the page. */
		size_t n = MIN(PAGE_SIZE - from % PAGE_SIZE, s->size - s->used);
		if (n == 0) {
			*err = -E2BIG;
			return NULL;
		}
		if (copy_from_user(s->buf + s->used, (const void *)from, n) < 0) {
			*err = -EFAULT;
			return NULL;
		}
		size_t len = strnlen(s->buf + s->used, n);
		s->used += len;
		from += len;
		if (len < n) {
			s->buf[s->used++] = '\0';
			return start;
		}
	}
}

/* A NULL-terminated array of string pointers at user address `from` (0: an
 * empty one, which Linux also accepts), copied: 0 and *out, or an error. */
static int copy_vector(struct exec_strings *s, uint64_t from, const char ***out)
{
	size_t count = 0;
	uint64_t ptr = 0;
	while (from) {
		if (count >= EXEC_ARGS_MAX / sizeof(ptr))
			return -E2BIG;
		if (copy_from_user(&ptr, (const void *)(from + count * sizeof(ptr)), sizeof(ptr)) < 0)
			return -EFAULT;
		if (!ptr)
			break;
		count++;
	}
	const char **v = kmalloc((count + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	int err = 0;
	for (size_t i = 0; i < count && !err; i++) {
		if (copy_from_user(&ptr, (const void *)(from + i * sizeof(ptr)), sizeof(ptr)) < 0)
			err = -EFAULT;
		else
			v[i] = copy_string(s, ptr, &err);
	}
	if (err) {
		kfree(v);
		return err;
	}
	v[count] = NULL;
	*out = v;
	return 0;
}

/* The new program's first state: no FS base, x87 and SSE as after a reset. */
static void reset_thread_state(struct task *me)
{
	me->fs_base = 0;
	arch_set_fs_base(0);
	preempt_disable();                /* the registers are ours only while we run */
	fpu_state_init(me->fpu);
	fpu_restore(me->fpu);
	preempt_enable();
}

/* Leave the old program for the new one in mm. */
static void __attribute__((noreturn)) switch_program(struct mm *mm, const char *path, char *cmdline,
							size_t cmdline_len)
{
	struct task *me = current();
	struct process *proc = me->process;
	uint64_t flags = irq_save();
	struct mm *old = proc->mm;
	proc->mm = mm;
	mm_activate(mm);
	irq_restore(flags);
	mm_destroy(old);
	fdtable_close_on_exec(proc->files);
	signals_exec(&proc->signals, me->thread);
	process_note_exec(cmdline, cmdline_len);
	strlcpy(me->name, process_name_of(path), sizeof(me->name));
	kstack_rename(me->kstack_top, me->name);
	reset_thread_state(me);
	arch_enter_user(mm->entry, mm->start_stack);
}

long process_execve(uint64_t upath, uint64_t uargv, uint64_t uenvp)
{
	struct exec_strings s = { .buf = kmalloc(PATH_MAX + EXEC_ARGS_MAX), .size = PATH_MAX + EXEC_ARGS_MAX };
	const char **argv = NULL, **envp = NULL;
	if (!s.buf)
		return -ENOMEM;
	int err = 0;
	const char *path = copy_string(&s, upath, &err);
	if (path && s.used > PATH_MAX)
		err = -ENAMETOOLONG;
	if (!err)
		err = copy_vector(&s, uargv, &argv);
	if (!err)
		err = copy_vector(&s, uenvp, &envp);
	struct mm *mm = NULL;
	if (!err) {
		struct inode *cwd = cwd_get(current()->process);
		err = exec_load(cwd, path, argv, envp, &mm);
		inode_put(cwd);
	}
	char name[TASK_NAME_LEN], *cmdline = NULL;
	size_t cmdline_len = 0;
	if (!err) {
		strlcpy(name, process_name_of(path), sizeof(name));
		cmdline = cmdline_make(argv, &cmdline_len);
	}
	kfree(argv);
	kfree(envp);
	kfree(s.buf);
	if (err)
		return err;
	/* The point of no return: the other threads go, then the old program. */
	if (!process_become_single_threaded()) {
		mm_destroy(mm);
		kfree(cmdline);
		process_exit(0);          /* an exit_group() came first: it says the status */
	}
	switch_program(mm, name, cmdline, cmdline_len);
}
