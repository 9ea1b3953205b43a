#include "signals.h"

void catch_signals(const int *sigs, size_t n, void (*handler)(int), sigset_t *unblocked)
{
	struct sigaction action = { .sa_handler = handler };
	sigset_t blocked;
	sigemptyset(&blocked);
	for (size_t i = 0; i < n; i++) {
		sigaddset(&blocked, sigs[i]);
		sigaction(sigs[i], &action, NULL);
	}
	sigprocmask(SIG_BLOCK, &blocked, unblocked);
}
