/*
 * A channel: a bounded FIFO of fixed-size messages between tasks, standing
 * in for a pipe or a socket until leftmost has them. A sender blocks while
 * it is full, a receiver while it is empty; each side wakes one task of the
 * other when it changes that. Any number of senders and receivers.
 */
#pragma once
#include <stddef.h>
#include <stdint.h>
#include "sched/wait.h"

struct channel {
	struct spinlock lock;             /* guards everything below */
	uint8_t *buf;                     /* capacity slots of size bytes */
	size_t size;
	unsigned capacity, head, count;   /* the oldest message is slot head */
	struct wait_queue not_full;       /* senders wait here */
	struct wait_queue not_empty;      /* receivers wait here */
};

/* 0, or -1 when out of memory. */
int channel_init(struct channel *ch, size_t size, unsigned capacity);
void channel_free(struct channel *ch);
void channel_send(struct channel *ch, const void *msg);    /* copies size bytes in */
void channel_receive(struct channel *ch, void *msg);       /* copies size bytes out */
