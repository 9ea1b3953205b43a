/* The 16550 UART on COM1: polled output, interrupt-driven input, for the
 * terminal (kernel/tty/tty.c) and the debug keys. */
#pragma once
#include <stddef.h>
#include <stdbool.h>

void serial_init(void);              /* early: output only */
void serial_enable_rx_irq(void);     /* once the IOAPIC is up */
void serial_write(const char *s, size_t len);
