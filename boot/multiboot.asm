; The multiboot2 header: GRUB finds it in the first 32 KiB of the image and
; then loads us in 32-bit protected mode at _start32 (boot/entry.asm).
MB2_MAGIC    equ 0xe85250d6
MB2_ARCH_I386 equ 0

section .multiboot
align 8
mb2_header:
	dd MB2_MAGIC
	dd MB2_ARCH_I386
	dd mb2_header_end - mb2_header
	dd -(MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))
	; No optional tags: we log to the serial port only, so neither BIOS text
	; mode nor a UEFI framebuffer matters.
	dw 0, 0          ; end tag: type 0, flags 0
	dd 8             ; size 8
mb2_header_end:
