/*
 * Keys typed on the serial console act at once, like Linux's SysRq: `h`
 * lists them. They run in the serial interrupt handler.
 */
#pragma once

void debugkeys_poll(void);            /* handle every key waiting in the serial ring */
