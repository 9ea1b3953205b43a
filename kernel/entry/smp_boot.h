/* Starting the other CPUs (kernel/entry/smp_boot.c). */
#pragma once

void smp_boot(void);                  /* start every CPU the MADT lists */
