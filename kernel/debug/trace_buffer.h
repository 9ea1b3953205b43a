/*
 * The scheduler trace (docs/tracing.md): per-CPU ring buffers that the trace
 * points of sched/trace.h fill, written out on the serial console as ftrace
 * text. Boot with trace=sched (and trace_size=KiB per CPU), or use the keys.
 */
#pragma once

void trace_init(void);        /* after the memory allocators: starts recording if trace=sched */
void trace_toggle(void);      /* console key: start recording afresh, or stop */
void trace_dump(void);        /* stop recording and print what was recorded */
/* For the console key: the same, from a new task. Printing takes seconds,
 * too long for an interrupt handler (its CPU would miss its ticks). */
void trace_dump_later(void);
