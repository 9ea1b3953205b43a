/* ktest=clock: the tests of arch/x86_64/time.c, through its public interface. */
#include "arch/x86_64/time.h"
#include "kernel/printk.h"
#include "kernel/debug/ktest.h"

KTEST(clock, agrees_with_reference_timer)
{
	if (!hpet_present())
		KSKIP(t, "no HPET to compare with");
	uint64_t c0 = clock_ns(), h0 = hpet_read_ns();
	delay_ns(200000000);
	uint64_t c1 = clock_ns(), h1 = hpet_read_ns();
	uint64_t c = c1 - c0, h = h1 - h0;
	pr_info("  # 200 ms: clock %llu ns, HPET %llu ns", (unsigned long long)c, (unsigned long long)h);
	KEXPECT(t, c * 100 >= h * 98 && c * 100 <= h * 102);     /* within 2% */
}
