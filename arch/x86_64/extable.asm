; Instructions that are allowed to fault. Each entry of the `extable` section
; pairs a faulting instruction with the place to resume at; trap.c looks the
; faulting RIP up there before it declares a fault fatal. Copying from and
; to user memory uses the same mechanism.

bits 64
section .text

; int safe_read_u64(const void *addr, uint64_t *out): 0, or -EFAULT (-14)
; when addr is not mapped. Backtraces use it so a corrupt frame pointer
; cannot take the panic path down with it.
global safe_read_u64
safe_read_u64:
.load:
	mov rax, [rdi]
	mov [rsi], rax
	xor eax, eax
	ret
.fault:
	mov eax, -14
	ret

; int probe_invalid_opcode(void): executes ud2; returns -EFAULT once the
; trap handler has resumed it. Used by the exception-path test.
global probe_invalid_opcode
probe_invalid_opcode:
.ud:
	ud2
.fault:
	mov eax, -14
	ret

; int copy_or_fault(void *dst, const void *src, size_t n): 0, or -EFAULT
; (-14) when a page on either side is missing. copy_from_user and
; copy_to_user (user.c) check the range and open SMAP around it.
global copy_or_fault
copy_or_fault:
	mov rcx, rdx
.copy:
	rep movsb
	xor eax, eax
	ret
.fault:
	mov eax, -14
	ret

section extable progbits alloc noexec nowrite align=8
align 8
	dq safe_read_u64.load, safe_read_u64.fault
	dq probe_invalid_opcode.ud, probe_invalid_opcode.fault
	dq copy_or_fault.copy, copy_or_fault.fault
