/* Asking another CPU, or every CPU, to run a function (kernel/smp_call.c). */
#pragma once

void smp_init_ipis(void);            /* before any CPU calls another */

/* Run fn(arg) on `cpu` from its interrupt handler, and wait until it has.
 * Call with interrupts enabled: two CPUs calling each other must be able to
 * take each other's request while they wait. */
void smp_call_on_cpu(int cpu, void (*fn)(void *), void *arg);
void smp_call_on_each_cpu(void (*fn)(void *), void *arg);   /* this one too */
