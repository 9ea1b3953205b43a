/*
 * The signal frame of Linux's x86-64 ABI: what the kernel writes on the
 * user's stack before it enters a handler, and reads back in
 * rt_sigreturn(). C libraries and debuggers know this layout (musl's
 * ucontext_t, glibc's, GDB's unwinder), so it is Linux's to the byte:
 *
 *   handler's rsp -> return address: the restorer (SA_RESTORER), which
 *                    calls rt_sigreturn
 *                    struct ucontext: flags, link, the alternate stack,
 *                      the registers (struct sigcontext), the blocked mask
 *                    siginfo_t (128 bytes)
 *                    ... then, 64-byte aligned, the x87/SSE state (fxsave)
 *
 * Nothing read back is trusted: the program may have changed any of it,
 * or forged the whole frame. As on Linux, the code and stack selectors are
 * taken with ring 3's privilege level, so that any but the user's (the
 * kernel's, say) and a non-canonical rip make iretq fault, in a way the
 * kernel blames on the program (docs/userspace.md); only the flags a
 * program may set itself are taken; and x87/SSE state with an MXCSR this
 * CPU refuses (fxrstor would fault on it in the kernel) refuses the frame.
 */
#include "kernel/task/signal/signal_frame.h"
#include "kernel/errno.h"
#include "sched/preempt.h"
#include "arch/x86_64/user.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/fpu.h"

struct sigcontext {
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
	uint64_t rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip, rflags;
	uint16_t cs, gs, fs, ss;
	uint64_t err, trapno, oldmask, cr2;
	uint64_t fpstate;                 /* user address of the x87/SSE state, or 0 */
	uint64_t reserved[8];
};

struct ucontext {
	uint64_t flags;
	uint64_t link;
	struct user_stack stack;
	struct sigcontext mcontext;
	sigset_t blocked;
};

struct user_siginfo {
	int32_t signo, errno_, code, pad;
	union {
		struct { int32_t pid, uid, status; } child;      /* kill(), SIGCHLD */
		uint64_t addr;                                   /* faults */
		uint8_t bytes[112];
	};
};

struct rt_sigframe {
	uint64_t return_address;
	struct ucontext uc;
	struct user_siginfo info;
};

_Static_assert(sizeof(struct sigcontext) == 256, "Linux's struct sigcontext");
_Static_assert(sizeof(struct ucontext) == 304, "Linux's struct ucontext");
_Static_assert(sizeof(struct user_siginfo) == 128, "Linux's siginfo_t");

#define RED_ZONE   128                    /* the ABI's: below rsp, the interrupted code's own */
#define RFLAGS_USER_CHANGEABLE 0x40dd5ULL /* AC OF DF TF SF ZF AF PF CF */

static void to_sigcontext(struct sigcontext *sc, const struct user_regs *r)
{
	*sc = (struct sigcontext){
		.r8 = r->r8, .r9 = r->r9, .r10 = r->r10, .r11 = r->r11, .r12 = r->r12, .r13 = r->r13,
		.r14 = r->r14, .r15 = r->r15, .rdi = r->rdi, .rsi = r->rsi, .rbp = r->rbp, .rbx = r->rbx,
		.rdx = r->rdx, .rax = r->rax, .rcx = r->rcx, .rsp = r->rsp, .rip = r->rip,
		.rflags = r->rflags, .cs = (uint16_t)r->cs, .ss = (uint16_t)r->ss,
		.err = r->error_code, .trapno = r->vector,
	};
}

static void from_sigcontext(struct user_regs *r, const struct sigcontext *sc)
{
	r->r8 = sc->r8, r->r9 = sc->r9, r->r10 = sc->r10, r->r11 = sc->r11, r->r12 = sc->r12;
	r->r13 = sc->r13, r->r14 = sc->r14, r->r15 = sc->r15, r->rdi = sc->rdi, r->rsi = sc->rsi;
	r->rbp = sc->rbp, r->rbx = sc->rbx, r->rdx = sc->rdx, r->rax = sc->rax, r->rcx = sc->rcx;
	r->rsp = sc->rsp, r->rip = sc->rip;
	r->rflags = (r->rflags & ~RFLAGS_USER_CHANGEABLE) | (sc->rflags & RFLAGS_USER_CHANGEABLE);
	r->cs = sc->cs | 3u;
	r->ss = sc->ss | 3u;
}

uint64_t signal_frame_size(void)
{
	/* As below: the red zone, the state, the frame, and their alignments at worst. */
	return RED_ZONE + sizeof(struct fpu_state) + 63 + sizeof(struct rt_sigframe) + 15 + 8;
}

int signal_frame_push(struct user_regs *regs, const struct signal_frame_args *a)
{
	/* The x87/SSE state first, at the top, 64-byte aligned; then the frame,
	 * placed so that rsp + 8 is 16-byte aligned at the handler's entry, as
	 * after a call instruction. */
	uint64_t sp = (a->stack_top - RED_ZONE - sizeof(struct fpu_state)) & ~63ULL;
	uint64_t fpstate = sp;
	uint64_t frame_addr = ((sp - sizeof(struct rt_sigframe)) & ~15ULL) - 8;

	struct fpu_state fpu;
	preempt_disable();                /* the registers are ours only while we run */
	fpu_save(&fpu);
	preempt_enable();
	int err = copy_to_user((void *)fpstate, &fpu, sizeof(fpu));

	struct rt_sigframe f = {
		.return_address = a->restorer,
		.uc = { .stack = a->altstack, .blocked = a->blocked },
		.info = { .signo = a->info->signo, .code = a->info->code },
	};
	to_sigcontext(&f.uc.mcontext, regs);
	f.uc.mcontext.fpstate = fpstate;
	if (a->info->fault) {
		f.uc.mcontext.cr2 = a->info->addr;
		f.info.addr = a->info->addr;
	} else
		f.info.child = (typeof(f.info.child)){ a->info->pid, a->info->uid, a->info->status };
	if (!err)
		err = copy_to_user((void *)frame_addr, &f, sizeof(f));
	if (err)
		return err;

	regs->rip = a->handler;
	regs->rsp = frame_addr;
	regs->rdi = (uint64_t)a->info->signo;
	regs->rsi = frame_addr + offsetof(struct rt_sigframe, info);
	regs->rdx = frame_addr + offsetof(struct rt_sigframe, uc);
	regs->rax = 0;
	regs->rflags &= ~(RFLAGS_DF | RFLAGS_TF | RFLAGS_RF);   /* the ABI's entry state */
	regs->cs = USER_CS;
	regs->ss = USER_DS;
	user_regs_rewritten(regs);
	return 0;
}

int signal_frame_pop(struct user_regs *regs, sigset_t *blocked, struct user_stack *altstack)
{
	/* The handler returned into the restorer, which popped the return address. */
	uint64_t frame_addr = regs->rsp - 8;
	struct rt_sigframe f;
	if (copy_from_user(&f, (const void *)frame_addr, sizeof(f)) < 0)
		return -EFAULT;
	struct fpu_state fpu;
	if (f.uc.mcontext.fpstate) {
		fpu_save(&fpu);               /* only to learn which MXCSR bits this CPU takes */
		uint32_t accepted = fpu_mxcsr_mask(&fpu);
		if (copy_from_user(&fpu, (const void *)f.uc.mcontext.fpstate, sizeof(fpu)) < 0)
			return -EFAULT;
		if (fpu_mxcsr(&fpu) & ~accepted)
			return -EINVAL;
		preempt_disable();
		fpu_restore(&fpu);
		preempt_enable();
	}
	from_sigcontext(regs, &f.uc.mcontext);
	user_regs_rewritten(regs);
	*blocked = f.uc.blocked;
	*altstack = f.uc.stack;
	return 0;
}
