/*
 * What a CPU runs when it has nothing to run: it watches for work for a
 * while (halt polling), then halts until an interrupt.
 */
#pragma once

void idle_loop(void) __attribute__((noreturn));   /* what an idle task runs */
