/* The x86-64 signal frame (kernel/task/signal/signal_frame.c): written before a
 * handler runs, read back by rt_sigreturn(). */
#pragma once
#include <stdint.h>
#include "kernel/task/signal/signal.h"

struct user_regs;

struct signal_frame_args {
	uint64_t handler, restorer;
	uint64_t stack_top;               /* where the frame goes below: rsp, or the alternate stack's top */
	const struct sig_info *info;
	sigset_t blocked;                 /* the mask to restore on return */
	struct user_stack altstack;       /* as the handler is to see it */
};

/* Save regs and the x87/SSE state in a frame on the user's stack and set
 * regs to enter the handler: 0, or -EFAULT if the stack cannot take it. */
int signal_frame_push(struct user_regs *regs, const struct signal_frame_args *a);
/* rt_sigreturn: regs, the mask and the alternate stack back from the frame
 * at regs->rsp - 8: 0, or -EFAULT (it cannot be read) or -EINVAL (its
 * x87/SSE state is one the CPU would refuse). */
int signal_frame_pop(struct user_regs *regs, sigset_t *blocked, struct user_stack *altstack);
/* The most signal_frame_push() takes below the stack top it is given: the
 * auxiliary vector's AT_MINSIGSTKSZ, the least an alternate stack needs. */
uint64_t signal_frame_size(void);
