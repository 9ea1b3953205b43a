/* The saved machine state on interrupt or exception entry (see isr.asm). */
#pragma once
#include <stdint.h>

struct trap_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code;
	uint64_t rip, cs, rflags, rsp, ss;   /* pushed by the CPU */
};

/* Interrupt vectors. IOAPIC lines go to IRQ_BASE + GSI. */
enum {
	VEC_DEBUG          = 1,
	VEC_NMI            = 2,
	VEC_BREAKPOINT     = 3,
	VEC_OVERFLOW       = 4,
	VEC_DOUBLE_FAULT   = 8,
	VEC_PAGE_FAULT     = 14,
	VEC_MACHINE_CHECK  = 18,
	VEC_LEGACY_PIC     = 0x20,   /* 0x20..0x2f: the masked 8259s, only ever spurious */
	VEC_IRQ_BASE       = 0x30,
	VEC_LAPIC_TIMER    = 0xec,
	VEC_CALL_FUNCTION  = 0xfc,
	VEC_RESCHEDULE     = 0xfd,
	VEC_LAPIC_ERROR    = 0xfe,
	VEC_SPURIOUS       = 0xff,
	VEC_SYSCALL        = 0x100,  /* not a vector: the frame a system call saved (syscall.asm) */
};

/* What the last fault resumed through the exception table was (see extable.asm). */
struct fault_record {
	uint64_t vector, error_code, rip, cr2;
	uint64_t count;
};

typedef void (*irq_handler_fn)(struct trap_frame *frame);

void idt_init(void);
void idt_load(void);
void irq_register(int vector, irq_handler_fn handler);
void trap_dispatch(struct trap_frame *frame);
const char *exception_name(uint64_t vector);

int safe_read_u64(const void *addr, uint64_t *out);
int probe_invalid_opcode(void);
