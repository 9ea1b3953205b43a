; Interrupt and exception entry. Each of the 256 vectors has a stub that
; pushes a uniform frame (an error code, 0 where the CPU pushes none, and the
; vector number) and jumps to isr_common, which saves the general registers
; as a struct trap_frame (arch/x86_64/trap.h) and calls trap_dispatch(frame).
;
; GS must hold this CPU's per-CPU base (percpu.h) while the kernel runs, and
; the user's while ring 3 runs: swapgs exchanges the two. isr_common swaps
; when the frame says it came from ring 3. The vectors that may arrive
; anywhere, NMI, double fault and machine check, go to isr_paranoid instead,
; which asks the CPU which base GS holds (see there); so does a debug trap
; taken in ring 0 (isr_debug).

%include "arch/x86_64/trap_frame.inc"

bits 64
section .text
extern trap_dispatch

; Vectors for which the CPU itself pushes an error code.
%define HAS_ERROR_CODE(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || (v) == 17 || (v) == 21 || (v) == 29 || (v) == 30)
%define IS_PARANOID(v) ((v) == 2 || (v) == 8 || (v) == 18)

%assign v 0
%rep 256
isr_ %+ v:
%if HAS_ERROR_CODE(v) == 0
	push 0
%endif
	push v
%if IS_PARANOID(v)
	jmp isr_paranoid
%elif (v) == 1
	jmp isr_debug
%else
	jmp isr_common
%endif
%assign v v + 1
%endrep

isr_common:
	PUSH_GPRS
	test byte [rsp + TF_CS], 3
	jnz .user_gs
	; One entry from ring 0 finds the user's GS too: a fault of the iretq
	; back to ring 3 itself (below), which trap.c blames on the program.
	lea rax, [rel iretq_to_user]
	cmp [rsp + TF_RIP], rax
	jne .kernel_gs
.user_gs:
	swapgs
.kernel_gs:
	CLEAR_AC
	mov rdi, rsp                      ; the CPU aligned rsp to 16; 22 quadwords keep it so
	cld
	call trap_dispatch
global trap_return
trap_return:
	test byte [rsp + TF_CS], 3
	jnz return_to_user
	POP_GPRS
	add rsp, 16                       ; vector and error code
	iretq

; Back to ring 3 from the struct trap_frame (or user_regs) at rsp, interrupts
; off. The system call exit comes here when sysretq cannot be used, and
; arch_enter_user for the first entry (syscall.asm).
global return_to_user
return_to_user:
	POP_GPRS
	add rsp, 16
	swapgs
global iretq_to_user
iretq_to_user:
	iretq

; The debug trap (#DB) has an IST stack of its own, because a program can
; make it arrive where no other stack is safe: a `syscall` made with the
; trap flag set traps after the instruction, at syscall_entry's first, in
; ring 0 with the user's rsp and GS (FMASK clears TF only for what
; follows). That one is isr_paranoid's. From ring 3 the trap becomes a
; SIGTRAP, whose delivery may sleep, which no task may do on this CPU's
; IST stack: the CPU's frame (with the vector and error code) moves to
; the top of the task's kernel stack, where an interrupt from ring 3 puts
; it, and goes on as any trap from ring 3.
isr_debug:
	test byte [rsp + 24], 3           ; the CS the CPU pushed, above vector and error code
	jz isr_paranoid
	swapgs                            ; the kernel's GS, for a moment
	push rax
	push rcx
	mov rax, [gs:KERNEL_STACK]
	swapgs
%assign i 6
%rep 7                                    ; ss, rsp, rflags, cs, rip, error code, vector
	mov rcx, [rsp + 16 + i * 8]
	mov [rax - 56 + i * 8], rcx
%assign i i - 1
%endrep
	sub rax, 56
	xchg rax, [rsp + 8]               ; rax back, its slot now the new stack pointer
	pop rcx
	pop rsp
	jmp isr_common

; NMI, double fault, machine check: they run on their own IST stacks and can
; arrive between any two instructions, also in the few at the system call's
; entry and exit where the CPU is in ring 0 but GS still holds the user's
; base (syscall.asm). CS cannot tell those apart, so read the GS base
; itself: the per-CPU areas are kernel addresses, whose top bit is set, and
; a user's base never is (the kernel sets it, to 0). rbx, callee-saved,
; remembers whether to swap back.
MSR_GS_BASE equ 0xc0000101
isr_paranoid:
	PUSH_GPRS
	mov ecx, MSR_GS_BASE
	rdmsr
	xor ebx, ebx
	test edx, edx
	js .kernel_gs
	swapgs
	mov ebx, 1
.kernel_gs:
	CLEAR_AC
	mov rdi, rsp
	cld
	call trap_dispatch
	test ebx, ebx
	jz .restore
	swapgs
.restore:
	POP_GPRS
	add rsp, 16
	iretq

section .rodata
global isr_stubs
align 8
isr_stubs:
%assign v 0
%rep 256
	dq isr_ %+ v
%assign v v + 1
%endrep
