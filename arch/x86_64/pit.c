/*
 * The 8254 PIT, the reference clock of last resort: its rate (1.193182 MHz)
 * is fixed by the PC architecture. Channel 2 counts down in one-shot mode with
 * its gate in port 0x61, so we can poll it without any interrupt.
 */
#include "arch/x86_64/time.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/io.h"
#include "lib/sort.h"

#define PIT_HZ         1193182
#define PIT_CH2_DATA   0x42
#define PIT_COMMAND    0x43
#define PORT_B         0x61      /* bit 0: channel 2 gate, bit 1: speaker, bit 5: channel 2 output */

/* TSC ticks while the PIT counts down `count`; 0 if the PIT seems absent. */
static uint64_t tsc_over_pit_count(uint16_t count)
{
	outb(PORT_B, (inb(PORT_B) & ~0x02) | 0x01);      /* gate on, speaker off */
	outb(PIT_COMMAND, 0xb0);                          /* channel 2, lo/hi byte, mode 0 */
	outb(PIT_CH2_DATA, count & 0xff);
	outb(PIT_CH2_DATA, count >> 8);

	/* Writing the count restarts mode 0: output goes low until it expires. */
	uint64_t t0 = rdtsc();
	uint64_t spins = 0;
	while (!(inb(PORT_B) & 0x20))
		if (++spins > 100000000)
			return 0;
	return rdtsc() - t0;
}

uint64_t pit_measure_tsc_hz(void)
{
	enum { ROUNDS = 5, COUNT = 23864 };              /* 20 ms per round */
	uint64_t rate[ROUNDS];
	for (int r = 0; r < ROUNDS; r++)
		rate[r] = tsc_over_pit_count(COUNT) * PIT_HZ / COUNT;
	sort_u64(rate, ROUNDS);
	return rate[ROUNDS / 2];
}
