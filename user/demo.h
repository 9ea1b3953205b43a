#pragma once

/* Start the demo chosen by demo= (user/demo.c); reports once a second, forever. */
void demo_run(void);
