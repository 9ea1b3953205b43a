; Ring 3 in and out: the system call entry and exit, and the first entry
; into a program. docs/userspace.md tells the story; arch/x86_64/user.c
; sets the MSRs that point `syscall` here.
;
; Both ways into the kernel from ring 3, `syscall` and an interrupt, leave
; the user's registers in the same place: a struct trap_frame (user.h calls
; it struct user_regs) at the top of the task's kernel stack. An interrupt
; gets there through TSS.RSP0; the system call entry switches to the same
; stack itself, because `syscall` changes no stack.

%include "arch/x86_64/trap_frame.inc"

bits 64
section .text
extern syscall_dispatch, return_to_user, syscall_exits_by_iretq

USER_RSP     equ 16                   ; struct arch_cpu's field (percpu.h): the user's rsp while it is switched
USER_DS      equ 0x1b                 ; gdt.h
USER_CS      equ 0x23
VEC_SYSCALL  equ 0x100                ; trap.h: not a vector, a system call's frame
RFLAGS_IF    equ 1 << 9
RFLAGS_FIXED equ 1 << 1               ; always set
RFLAGS_USER  equ 0x240cd5             ; ID AC OF DF SF ZF AF PF CF: a program's own

; The CPU arrives with rip in rcx, rflags in r11, interrupts off (FMASK),
; and everything else as the user left it: GS and rsp too.
global syscall_entry
syscall_entry:
	swapgs
	mov [gs:USER_RSP], rsp            ; interrupts are off: no other entry uses the slot meanwhile
	mov rsp, [gs:KERNEL_STACK]
	push USER_DS                      ; the frame an interrupt from ring 3 would have pushed
	push qword [gs:USER_RSP]
	push r11
	push USER_CS
	push rcx
	push 0                            ; error code
	push VEC_SYSCALL
	PUSH_GPRS
	mov rdi, rsp
	xor ebp, ebp                      ; a backtrace ends here, not in the user's frames
	sti
	call syscall_dispatch             ; bool syscall_dispatch(struct user_regs *): rax is in the frame
	cli                               ; (it is off already) until sysretq or iretq: the exit switches GS and stacks
	test al, al
	jnz .sysret
	lock inc qword [rel syscall_exits_by_iretq]   ; tests/kernel/sysret_test.c counts them
	jmp return_to_user                ; isr.asm
.sysret:
	POP_GPRS                          ; then rcx and r11 give sysretq rip and rflags
	mov rcx, [rsp + TF_RIP - TF_VECTOR]
	mov r11, [rsp + TF_RFLAGS - TF_VECTOR]
	mov rsp, [rsp + TF_RSP - TF_VECTOR]
	; From here to sysretq the CPU is in ring 0 with the user's rsp and, after swapgs,
	; the user's GS: only an NMI or machine check can arrive (isr_paranoid copes).
	swapgs
	o64 sysret

; void arch_enter_user(uint64_t rip, uint64_t rsp): a program's first entry
; into ring 3. Build at the top of the kernel stack the frame a system call
; would have left, all registers 0, and leave through the iretq exit: the
; stack below, this call's included, is abandoned.
global arch_enter_user
arch_enter_user:
	cli
	mov rsp, [gs:KERNEL_STACK]
	push USER_DS
	push rsi
	push RFLAGS_IF | RFLAGS_FIXED
	push USER_CS
	push rdi
	push 0
	push VEC_SYSCALL
	xor eax, eax
%rep 15
	push rax
%endrep
	jmp return_to_user

; void arch_resume_user(const struct user_regs *regs): into ring 3 with these
; registers (a forked child's first return). Copy them to the top of the
; kernel stack, where return_to_user expects the frame. regs may be a local
; of the caller, just below the top, so copy from the last word down: the
; frame never lies below its source.
global arch_resume_user
arch_resume_user:
	cli
	mov rdx, [gs:KERNEL_STACK]
	lea rsi, [rdi + TF_SIZE - 8]
	lea rdi, [rdx - 8]
	mov ecx, TF_SIZE / 8
	std
	rep movsq
	cld
	lea rsp, [rdx - TF_SIZE]
	mov qword [rsp + TF_CS], USER_CS  ; whatever regs says: ring 3, interrupts on, and
	mov qword [rsp + TF_SS], USER_DS  ; of the flags only those a program may set itself
	and qword [rsp + TF_RFLAGS], RFLAGS_USER
	or qword [rsp + TF_RFLAGS], RFLAGS_IF | RFLAGS_FIXED
	jmp return_to_user
