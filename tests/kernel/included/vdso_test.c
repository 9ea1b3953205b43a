/* ktest=vdso: the tests of kernel/mm/vdso.c, #included at its end for its static functions and data. */
#include "kernel/debug/ktest.h"

KTEST(vdso, the_image_is_an_elf_file_and_the_data_the_kernel_clock)
{
	KEXPECT(t, memcmp(code_pages[0], "\177ELF", 4) == 0);
	const struct vdso_data *data = data_page;
	uint64_t tsc_at_boot, ns_mult;
	clock_parameters(&tsc_at_boot, &ns_mult);
	KEXPECT_EQ(t, data->tsc_at_boot, tsc_at_boot);
	KEXPECT_EQ(t, data->ns_mult, ns_mult);
	KEXPECT_EQ(t, data->realtime_at_clock_zero, realtime_at_clock_zero());
}
