/*
 * Keys typed on the serial console that act at once, like Linux's SysRq,
 * whatever the programs do: Ctrl-T, then the key (Ctrl-T h lists them).
 * They run in the serial interrupt handler.
 */
#pragma once
#include <stdbool.h>
#include <stdint.h>

#define DEBUGKEYS_PREFIX 0x14         /* Ctrl-T; twice, it is typed as itself */

/* A typed byte: true if it was the debug keys' (the prefix, or the key
 * after it), false if it belongs to the terminal. */
bool debugkeys_take(uint8_t c);
