; The 32-bit entry point. GRUB leaves us in flat protected mode with paging
; off, no usable stack, GDT or IDT. We check that this is a multiboot2 boot on a
; 64-bit CPU, build the boot page tables, switch on long mode and jump to
; kmain() in the higher half. Everything here runs at its physical address.

%include "boot/layout.inc"

MB2_BOOT_MAGIC equ 0x36d76289
COM1           equ 0x3f8

PTE_PRESENT    equ 1 << 0
PTE_WRITE      equ 1 << 1
PTE_HUGE       equ 1 << 7

section .boot.text
bits 32
global _start32
_start32:
	cli
	cld
	mov esp, boot32_stack_top
	mov edi, ebx                      ; multiboot2 info (physical); edi survives below

	cmp eax, MB2_BOOT_MAGIC
	jne .not_multiboot

	; CPUID leaf 0x80000001 EDX bit 29 = long mode.
	mov eax, 0x80000000
	cpuid
	cmp eax, 0x80000001
	jb .no_long_mode
	mov eax, 0x80000001
	cpuid
	test edx, 1 << 29
	jz .no_long_mode
	mov [boot_efer_nx], edx           ; bit 20 says whether NX exists

	call build_page_tables

	mov eax, cr4
	or eax, (1 << 5) | (1 << 7)       ; PAE, global pages
	mov cr4, eax
	mov eax, boot_pml4
	mov cr3, eax

	mov ecx, 0xc0000080               ; IA32_EFER
	rdmsr
	or eax, 1 << 8                    ; LME: long mode enable
	test dword [boot_efer_nx], 1 << 20
	jz .no_nx
	or eax, 1 << 11                   ; NXE: lets page tables use the no-execute bit
.no_nx:
	wrmsr

	mov eax, cr0
	or eax, (1 << 31) | (1 << 16) | 1 ; paging, write-protect, protected mode
	mov cr0, eax                      ; now in 32-bit compatibility mode

	lgdt [boot_gdt_ptr]
	jmp BOOT_CODE64:long_mode_entry

.not_multiboot:
	mov esi, msg_not_multiboot
	jmp die32
.no_long_mode:
	mov esi, msg_no_long_mode
	jmp die32

; Map physical [0, 4 GiB) with 2 MiB pages three times over: identity (so the
; code that turns paging on keeps running; removed once all CPUs are up), at
; DIRECT_MAP (the direct map of physical memory), and the first 2 GiB at
; KERNEL_VMA, where the kernel is linked.
build_page_tables:
	mov ecx, 0
.next_2m:                                   ; boot_pd[i] = i * 2 MiB, for i < 2048
	mov eax, ecx
	shl eax, 21
	or eax, PTE_PRESENT | PTE_WRITE | PTE_HUGE
	mov [boot_pd + ecx * 8], eax
	mov dword [boot_pd + ecx * 8 + 4], 0
	inc ecx
	cmp ecx, 2048
	jb .next_2m

	mov ecx, 0
.next_1g:                                   ; boot_pdpt_low[i] -> the i-th page directory
	mov eax, ecx
	shl eax, 12
	add eax, boot_pd + (PTE_PRESENT | PTE_WRITE)
	mov [boot_pdpt_low + ecx * 8], eax
	inc ecx
	cmp ecx, 4
	jb .next_1g

	mov eax, boot_pd + (PTE_PRESENT | PTE_WRITE)
	mov [boot_pdpt_high + 510 * 8], eax
	add eax, 4096
	mov [boot_pdpt_high + 511 * 8], eax

	mov eax, boot_pdpt_low + (PTE_PRESENT | PTE_WRITE)
	mov [boot_pml4 + 0 * 8], eax
	mov [boot_pml4 + DIRECT_MAP_PML4_INDEX * 8], eax
	mov eax, boot_pdpt_high + (PTE_PRESENT | PTE_WRITE)
	mov [boot_pml4 + 511 * 8], eax
	ret

; Print the zero-terminated string at esi on COM1 and stop. GRUB has set the
; port up already (its menu runs on it), so polled writes suffice.
die32:
	mov dx, COM1 + 5
.wait:
	in al, dx
	test al, 0x20                     ; transmitter holding register empty
	jz .wait
	lodsb
	test al, al
	jz .halt
	mov dx, COM1
	out dx, al
	jmp die32
.halt:
	hlt
	jmp .halt

bits 64
long_mode_entry:
	mov ax, BOOT_DATA
	mov ds, ax
	mov es, ax
	mov ss, ax
	xor ax, ax
	mov fs, ax
	mov gs, ax
	mov edi, edi                      ; zero-extend the multiboot info address
	mov rax, higher_half_entry
	jmp rax

section .boot.data
align 8
boot_gdt:
	dq 0
	dq 0x00af9a000000ffff             ; 64-bit code, DPL 0
	dq 0x00cf92000000ffff             ; data, DPL 0
boot_gdt_ptr:
	dw boot_gdt_ptr - boot_gdt - 1
	dd boot_gdt
boot_efer_nx:
	dd 0
msg_not_multiboot:
	db "leftmost: not started by a multiboot2 boot loader (use GRUB's multiboot2 command)", 13, 10, 0
msg_no_long_mode:
	db "leftmost: this CPU has no 64-bit long mode; leftmost needs an x86-64 CPU", 13, 10, 0

section .boot.bss nobits alloc write
alignb 4096
global boot_pml4
boot_pml4:      resb 4096
boot_pdpt_low:  resb 4096
boot_pdpt_high: resb 4096
boot_pd:        resb 4 * 4096
boot32_stack:   resb 1024
boot32_stack_top:

; From here on we run at the kernel's linked (higher-half) addresses.
section .text
extern kmain
higher_half_entry:
	mov rsp, boot_stack_top
	xor ebp, ebp                      ; a zero frame pointer ends every backtrace
	call kmain                        ; kmain(multiboot_info_phys) never returns
.hang:
	cli
	hlt
	jmp .hang

section .bss
alignb 16
global boot_stack, boot_stack_top
boot_stack:     resb 16384
boot_stack_top:
