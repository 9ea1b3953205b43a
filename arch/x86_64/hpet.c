/* The HPET, used only as a reference clock to measure the TSC against. */
#include "arch/x86_64/time.h"
#include "arch/x86_64/hooks.h"
#include "kernel/printk.h"

enum { HPET_CAPABILITIES = 0x000, HPET_CONFIG = 0x010, HPET_COUNTER = 0x0f0 };
#define HPET_ENABLE 1

static volatile uint64_t *regs;
static uint64_t period_fs;        /* femtoseconds per counter tick */

bool hpet_init(uint64_t phys)
{
	regs = ioremap(phys, 1024);
	period_fs = regs[HPET_CAPABILITIES / 8] >> 32;
	/* The specification caps the period at 100 ns; 0 or more means no usable HPET. */
	if (period_fs == 0 || period_fs > 100000000) {
		pr_warn("hpet: implausible period %llu fs, not using it", (unsigned long long)period_fs);
		regs = NULL;
		return false;
	}
	regs[HPET_CONFIG / 8] |= HPET_ENABLE;
	pr_info("hpet: %llu.%03llu MHz at 0x%llx", (unsigned long long)(1000000000ULL / period_fs),
		(unsigned long long)(1000000000000ULL / period_fs % 1000), (unsigned long long)phys);
	return true;
}

bool hpet_present(void) { return regs != NULL; }

uint64_t hpet_read_ns(void)
{
	uint64_t ticks = regs[HPET_COUNTER / 8];
	/* fs to ns, split so the product stays within 64 bits. */
	return ticks / 1000000 * period_fs + ticks % 1000000 * period_fs / 1000000;
}
