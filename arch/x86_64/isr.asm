; Interrupt and exception entry. Each of the 256 vectors has a stub that
; pushes a uniform frame (an error code, 0 where the CPU pushes none, and the
; vector number) and jumps to isr_common, which saves the general registers
; as a struct trap_frame (arch/x86_64/trap.h) and calls trap_dispatch(frame).

bits 64
section .text
extern trap_dispatch

; Vectors for which the CPU itself pushes an error code.
%define HAS_ERROR_CODE(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || (v) == 17 || (v) == 21 || (v) == 29 || (v) == 30)

%assign v 0
%rep 256
isr_ %+ v:
%if HAS_ERROR_CODE(v) == 0
	push 0
%endif
	push v
	jmp isr_common
%assign v v + 1
%endrep

isr_common:
	push rax
	push rbx
	push rcx
	push rdx
	push rsi
	push rdi
	push rbp
	push r8
	push r9
	push r10
	push r11
	push r12
	push r13
	push r14
	push r15
	mov rdi, rsp                      ; the CPU aligned rsp to 16; 22 quadwords keep it so
	cld
	call trap_dispatch
global trap_return
trap_return:
	pop r15
	pop r14
	pop r13
	pop r12
	pop r11
	pop r10
	pop r9
	pop r8
	pop rbp
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rbx
	pop rax
	add rsp, 16                       ; vector and error code
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
