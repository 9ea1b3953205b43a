/* Channels: see channel.h. */
#include "user/channel.h"
#include "kernel/kmalloc.h"
#include "lib/string.h"

int channel_init(struct channel *ch, size_t size, unsigned capacity)
{
	*ch = (struct channel){ .lock = SPINLOCK_INIT("channel"), .size = size, .capacity = capacity };
	wait_queue_init(&ch->not_full, "channel-send");
	wait_queue_init(&ch->not_empty, "channel-recv");
	ch->buf = kmalloc(size * capacity);
	return ch->buf ? 0 : -1;
}

void channel_free(struct channel *ch)
{
	kfree(ch->buf);
	ch->buf = NULL;
}

/*
 * Both sides wait for their condition without the lock (wait_event re-checks
 * it after every wake-up), then take the lock and check again: another task
 * of the same side may have got there first.
 */
void channel_send(struct channel *ch, const void *msg)
{
	for (;;) {
		wait_event(&ch->not_full, __atomic_load_n(&ch->count, __ATOMIC_ACQUIRE) < ch->capacity);
		uint64_t flags = spin_lock_irqsave(&ch->lock);
		if (ch->count < ch->capacity) {
			memcpy(ch->buf + (size_t)((ch->head + ch->count) % ch->capacity) * ch->size, msg, ch->size);
			ch->count++;
			spin_unlock_irqrestore(&ch->lock, flags);
			wake_up_one(&ch->not_empty);
			return;
		}
		spin_unlock_irqrestore(&ch->lock, flags);
	}
}

void channel_receive(struct channel *ch, void *msg)
{
	for (;;) {
		wait_event(&ch->not_empty, __atomic_load_n(&ch->count, __ATOMIC_ACQUIRE) > 0);
		uint64_t flags = spin_lock_irqsave(&ch->lock);
		if (ch->count > 0) {
			memcpy(msg, ch->buf + (size_t)ch->head * ch->size, ch->size);
			ch->head = (ch->head + 1) % ch->capacity;
			ch->count--;
			spin_unlock_irqrestore(&ch->lock, flags);
			wake_up_one(&ch->not_full);
			return;
		}
		spin_unlock_irqrestore(&ch->lock, flags);
	}
}
