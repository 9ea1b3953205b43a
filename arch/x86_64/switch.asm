; The context switch. Everything a task needs to resume is on its own
; stack: the callee-saved registers pushed here, and below them the return
; address into whatever called sched_switch_to (schedule(), or for a new
; task, task_entry_asm). Switching is saving the stack pointer of one task
; and loading that of another.

bits 64
section .text

; Offset of saved_rsp in struct task (sched/task.h): it is the first field.
TASK_SAVED_RSP equ 0

; struct task *sched_switch_to(struct task *prev, struct task *next)
; Returns in next's context with rax = prev: the task that ran on this CPU
; just before, which the resumed code must finish switching away from.
global sched_switch_to
sched_switch_to:
	push rbp
	push rbx
	push r12
	push r13
	push r14
	push r15
	mov [rdi + TASK_SAVED_RSP], rsp
	mov rsp, [rsi + TASK_SAVED_RSP]
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbx
	pop rbp
	mov rax, rdi                      ; rdi is not restored: it still names prev
	ret

; Where a new task's first switch "returns" to (kernel/task/kthread.c builds the
; stack): hand the previous task to task_entry(prev), which never returns.
extern task_entry
global task_entry_asm
task_entry_asm:
	mov rdi, rax
	xor ebp, ebp                      ; the first frame of a backtrace
	call task_entry
	ud2
