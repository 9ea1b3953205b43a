/* The vDSO (kernel/mm/vdso.c): the clock read in ring 3, in every process. */
#pragma once
#include <stdint.h>

struct mm;

/* At boot, once the clock and the date are known. */
void vdso_init(void);
/* Map it into a new program's mm: where its code starts (the auxiliary
 * vector's AT_SYSINFO_EHDR), or a negative errno. */
int64_t vdso_map(struct mm *mm);
