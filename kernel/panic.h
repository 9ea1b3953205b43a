#pragma once
#include <stdint.h>
#include <stdbool.h>

struct trap_frame;

void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* As panic(), and also prints the registers and unwinds from the trapped frame. */
void panic_frame(const struct trap_frame *frame, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));

/* Prints the call chain from a trapped rip/rsp/rbp, or with all 0 the caller's. */
void backtrace_print(uint64_t rip, uint64_t rsp, uint64_t rbp);
/* The caller's chain saved as return addresses (0: an interrupt came in
 * there), and printed later as warnings, each line after indent. */
int backtrace_save(uint64_t *ips, int max);
void backtrace_print_saved(const char *indent, const uint64_t *ips, int n);

extern int panic_cpu;               /* -1, or the CPU that panicked (atomic) */
/* The NMI by which the panicking CPU stops the others: note where this one
 * was, for the report, and halt. */
void panic_nmi_stop(const struct trap_frame *frame) __attribute__((noreturn));
