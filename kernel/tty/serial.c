#include "kernel/tty/serial.h"
#include "arch/x86_64/ioapic.h"
#include "kernel/debug/debugkeys.h"
#include "kernel/tty/tty.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/trap.h"

#define COM1      0x3f8
#define COM1_IRQ  4        /* its ISA interrupt line */

enum {                     /* register offsets from the base port */
	UART_DATA = 0, UART_IER = 1, UART_FCR = 2, UART_LCR = 3,
	UART_MCR = 4, UART_LSR = 5,
};
#define LSR_DATA_READY  0x01
#define LSR_THR_EMPTY   0x20

static bool present;

void serial_init(void)
{
	outb(COM1 + UART_IER, 0x00);          /* no interrupts yet */
	outb(COM1 + UART_LCR, 0x80);          /* divisor latch access */
	outb(COM1 + UART_DATA, 1);            /* 115200 baud: 115200 / 1 */
	outb(COM1 + UART_IER, 0);
	outb(COM1 + UART_LCR, 0x03);          /* 8 data bits, no parity, 1 stop bit */
	outb(COM1 + UART_FCR, 0xc7);          /* FIFOs on and cleared, 14-byte trigger */

	/* Is there a UART at all? Loop a byte back to ourselves. Machines without
	 * COM1 get no console rather than a CPU spinning on a missing port. */
	outb(COM1 + UART_MCR, 0x1e);          /* loopback mode */
	outb(COM1 + UART_DATA, 0xae);
	present = inb(COM1 + UART_DATA) == 0xae;
	outb(COM1 + UART_MCR, 0x0b);          /* normal mode: DTR, RTS, OUT2 (IRQ gate) */
}

static void putc_raw(char c)
{
	/* Bounded wait: a wedged UART must not hang the kernel. */
	for (int spins = 0; !(inb(COM1 + UART_LSR) & LSR_THR_EMPTY) && spins < 100000; spins++)
		cpu_relax();
	outb(COM1 + UART_DATA, (uint8_t)c);
}

void serial_write(const char *s, size_t len)
{
	if (!present)
		return;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\n')
			putc_raw('\r');
		putc_raw(s[i]);
	}
}

/* Typed bytes go to the terminal, but for the debug keys. */
static void serial_irq(struct trap_frame *frame)
{
	(void)frame;
	while (inb(COM1 + UART_LSR) & LSR_DATA_READY) {
		uint8_t c = inb(COM1 + UART_DATA);
		if (!debugkeys_take(c))
			tty_receive(c);
	}
}

void serial_enable_rx_irq(void)
{
	if (!present)
		return;
	int vector = ioapic_route_isa_irq(COM1_IRQ);
	if (vector < 0)
		return;
	irq_register(vector, serial_irq);
	outb(COM1 + UART_IER, 0x01);          /* interrupt when data arrives */
}
