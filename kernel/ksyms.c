#include "kernel/ksyms.h"
#include "arch/x86_64/memlayout.h"

const char *ksym_lookup(uint64_t addr, uint64_t *offset)
{
	if (addr < (uint64_t)__text_start || addr >= (uint64_t)__text_end || ksyms_count == 0)
		return NULL;
	/* Binary search for the last symbol at or below addr. */
	size_t lo = 0, hi = ksyms_count;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (ksyms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (ksyms[lo].addr > addr)
		return NULL;
	*offset = addr - ksyms[lo].addr;
	return ksyms[lo].name;
}
