/* Signals a program handles while it waits for keys or a timeout. */
#pragma once
#include <signal.h>
#include <stddef.h>

/* Handle each of sigs[0..n) with handler, and block them but while the
 * program waits (ppoll() or pselect() with *unblocked, the mask before),
 * so that none comes between a look at what the handler set and the wait. */
void catch_signals(const int *sigs, size_t n, void (*handler)(int), sigset_t *unblocked);
