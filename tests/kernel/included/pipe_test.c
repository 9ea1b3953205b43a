/* ktest=pipe: the tests of kernel/fs/pipe.c, #included at its end for its static functions and data. */
#include "kernel/debug/ktest.h"
#include "kernel/task/kthread.h"

/* The tests, in kernel tasks, with kernel buffers. */

/* A moment for the test's own task to go to sleep first. */
#define SETTLE_NS 20000000ULL

static void write_hello_later(void *write_end)
{
	sleep_ns(SETTLE_NS);
	kernel_write(write_end, "hello", 5);
}

static void close_later(void *end)
{
	sleep_ns(SETTLE_NS);
	file_put(end);
}

KTEST(pipe, a_waiting_reader_is_woken_by_a_writer)
{
	struct file *r, *w;
	KASSERT(t, pipe_create(0, &r, &w) == 0);
	struct task *writer = task_spawn("pipe-writer", write_hello_later, w);
	KASSERT(t, writer != NULL);
	char buf[16];
	KEXPECT_EQ(t, kernel_read(r, buf, sizeof(buf)), 5);
	KEXPECT(t, memcmp(buf, "hello", 5) == 0);
	task_join(writer);
	file_put(r);
	file_put(w);
}

KTEST(pipe, readers_find_the_end_when_the_writer_closes)
{
	struct file *r, *w;
	KASSERT(t, pipe_create(0, &r, &w) == 0);
	char buf[16];
	KEXPECT_EQ(t, kernel_write(w, "abc", 3), 3);
	struct task *closer = task_spawn("pipe-closer", close_later, w);
	KASSERT(t, closer != NULL);
	KEXPECT_EQ(t, kernel_read(r, buf, sizeof(buf)), 3);       /* what was written first */
	KEXPECT_EQ(t, kernel_read(r, buf, sizeof(buf)), 0);       /* waits, woken by the close */
	KEXPECT_EQ(t, kernel_read(r, buf, sizeof(buf)), 0);       /* and stays at the end */
	task_join(closer);
	file_put(r);
}

KTEST(pipe, writers_get_epipe_when_the_reader_closes)
{
	static char full[PIPE_SIZE];
	struct file *r, *w;
	KASSERT(t, pipe_create(0, &r, &w) == 0);
	KEXPECT_EQ(t, kernel_write(w, full, sizeof(full)), PIPE_SIZE);
	struct task *closer = task_spawn("pipe-closer", close_later, r);
	KASSERT(t, closer != NULL);
	KEXPECT_EQ(t, kernel_write(w, "x", 1), -EPIPE);           /* waits for room, woken by the close */
	task_join(closer);
	file_put(w);
}

KTEST(pipe, nonblocking_ends_say_eagain_instead_of_waiting)
{
	static char lots[PIPE_SIZE + 1];
	struct file *r, *w;
	KASSERT(t, pipe_create(O_NONBLOCK, &r, &w) == 0);
	char buf[4];
	KEXPECT_EQ(t, kernel_read(r, buf, sizeof(buf)), -EAGAIN);
	KEXPECT_EQ(t, kernel_write(w, lots, sizeof(lots)), PIPE_SIZE);    /* as much as fits */
	KEXPECT_EQ(t, kernel_write(w, "x", 1), -EAGAIN);
	KEXPECT_EQ(t, kernel_read(r, buf, sizeof(buf)), sizeof(buf));
	file_put(w);
	file_put(r);
}

KTEST(pipe, small_writes_go_in_whole_or_not_at_all)
{
	static char lots[PIPE_SIZE];
	struct file *r, *w;
	KASSERT(t, pipe_create(O_NONBLOCK, &r, &w) == 0);
	KEXPECT_EQ(t, kernel_write(w, lots, PIPE_SIZE - 100), PIPE_SIZE - 100);
	KEXPECT_EQ(t, kernel_write(w, lots, PIPE_BUF), -EAGAIN);          /* 100 bytes of room: none go */
	KEXPECT_EQ(t, kernel_write(w, lots, PIPE_BUF + 1), 100);          /* larger: what fits */
	file_put(w);
	file_put(r);
}

/* Two writers push blocks of PIPE_BUF bytes, one of 'a's and one of 'b's,
 * into a pipe they keep full, while the test reads in odd-sized pieces:
 * every block must arrive unmixed. */
#define BLOCKS_EACH 32

struct block_writer {
	struct file *w;
	char block[PIPE_BUF];
};

static void write_blocks(void *arg)
{
	struct block_writer *bw = arg;
	for (int i = 0; i < BLOCKS_EACH; i++)
		kernel_write(bw->w, bw->block, sizeof(bw->block));
}

KTEST(pipe, concurrent_small_writes_never_mix)
{
	static struct block_writer writers[2];
	struct file *r, *w;
	KASSERT(t, pipe_create(0, &r, &w) == 0);
	struct task *tasks[2];
	for (int i = 0; i < 2; i++) {
		writers[i].w = w;
		memset(writers[i].block, 'a' + i, PIPE_BUF);
		tasks[i] = task_spawn("pipe-blocks", write_blocks, &writers[i]);
		KASSERT(t, tasks[i] != NULL);
	}
	size_t at = 0, mixed = 0;
	char piece[1000], block_byte = 0;
	while (at < 2 * BLOCKS_EACH * PIPE_BUF) {
		long n = kernel_read(r, piece, sizeof(piece));
		KASSERT(t, n > 0);
		for (long i = 0; i < n; i++, at++) {
			if (at % PIPE_BUF == 0)
				block_byte = piece[i];
			mixed += piece[i] != block_byte;
		}
	}
	KEXPECT_EQ(t, mixed, 0);
	for (int i = 0; i < 2; i++)
		task_join(tasks[i]);
	file_put(w);
	KEXPECT_EQ(t, kernel_read(r, piece, sizeof(piece)), 0);   /* nothing more: the end */
	file_put(r);
}
