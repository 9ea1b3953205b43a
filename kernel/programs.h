/*
 * The demo built into the kernel (user/demo.c), which `make run` shows.
 * This header is how the kernel reaches it: the kernel includes nothing
 * from user/.
 */
#pragma once

/* user/demo.c: start the demo chosen by demo=; reports once a second, forever. */
void demo_run(void);
