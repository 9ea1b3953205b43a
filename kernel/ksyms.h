/*
 * The kernel's own symbol table, for symbolised backtraces. tools/ksyms.py
 * generates it from the first link of the kernel; the final link includes it
 * (see the Makefile), so no debugger is needed to read a panic.
 */
#pragma once
#include <stdint.h>
#include <stddef.h>

struct ksym {
	uint64_t addr;
	const char *name;
};

extern const struct ksym ksyms[];    /* sorted by address */
extern const size_t ksyms_count;

/* The function containing addr, and addr's offset in it; NULL if unknown. */
const char *ksym_lookup(uint64_t addr, uint64_t *offset);
