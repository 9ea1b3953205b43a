; The application-processor (AP) start-up code. arch/x86_64/smp.c copies the
; bytes between trampoline_start and trampoline_end to TRAMPOLINE_BASE, fills
; in the data slots at the end, and sends INIT-SIPI-SIPI: the AP begins here
; in 16-bit real mode at TRAMPOLINE_BASE. It switches straight to long mode
; (no 32-bit stop is needed), using the kernel's page tables (which still
; identity-map low memory while APs start), then calls ap_main() on its own
; stack.

%include "boot/layout.inc"

; The address a trampoline label has once copied.
%define T(label) (TRAMPOLINE_BASE + (label) - trampoline_start)

section .rodata
bits 16
global trampoline_start, trampoline_end
global trampoline_cr3, trampoline_efer, trampoline_stack, trampoline_entry
trampoline_start:
	cli
	cld
	xor ax, ax
	mov ds, ax
	lgdt [T(tr_gdt_ptr)]

	mov eax, cr4
	or eax, (1 << 5) | (1 << 7)       ; PAE, global pages
	mov cr4, eax
	mov eax, [T(trampoline_cr3)]
	mov cr3, eax

	mov ecx, 0xc0000080               ; IA32_EFER: same bits as the boot CPU's
	mov eax, [T(trampoline_efer)]
	xor edx, edx
	wrmsr

	mov eax, cr0
	or eax, (1 << 31) | (1 << 16) | 1 ; paging, write-protect, protected mode
	mov cr0, eax
	jmp dword BOOT_CODE64:T(tr_long_mode)

bits 64
tr_long_mode:
	mov ax, BOOT_DATA
	mov ds, ax
	mov es, ax
	mov ss, ax
	xor eax, eax
	mov fs, ax
	mov gs, ax
	mov rsp, [T(trampoline_stack)]
	xor ebp, ebp
	mov rax, [T(trampoline_entry)]
	call rax                          ; ap_main() never returns
.hang:
	cli
	hlt
	jmp .hang

align 8
tr_gdt:
	dq 0
	dq 0x00af9a000000ffff             ; 64-bit code
	dq 0x00cf92000000ffff             ; data
tr_gdt_ptr:
	dw tr_gdt_ptr - tr_gdt - 1
	dd T(tr_gdt)
align 8
trampoline_cr3:   dq 0
trampoline_efer:  dq 0
trampoline_stack: dq 0
trampoline_entry: dq 0
trampoline_end:
