/* ktest=io_cursor: the tests of kernel/fs/io_cursor.c, through its public interface. */
#include "kernel/fs/io_cursor.h"
#include "kernel/mm/mm.h"
#include "kernel/debug/ktest.h"
#include "sched/preempt.h"
#include "lib/string.h"

KTEST(io_cursor, walks_segments_and_skips_empty_ones)
{
	char a[2], b[1], c[3];
	struct io_segment segs[] = {
		{ (uint64_t)a, sizeof(a) }, { (uint64_t)b, 0 }, { (uint64_t)c, sizeof(c) },
	};
	struct io_cursor cur;
	KEXPECT_EQ(t, io_cursor_init(&cur, segs, ARRAY_SIZE(segs), false), 0);
	KEXPECT_EQ(t, io_left(&cur), 5);
	KEXPECT_EQ(t, copy_to_cursor(&cur, "wxyz", 4), 4);
	KEXPECT_EQ(t, copy_to_cursor(&cur, "!?", 2), 1);           /* cut to what is left */
	KEXPECT_EQ(t, io_left(&cur), 0);
	KEXPECT(t, memcmp(a, "wx", 2) == 0 && memcmp(c, "yz!", 3) == 0);

	char back[5];
	io_cursor_init(&cur, segs, ARRAY_SIZE(segs), false);
	KEXPECT_EQ(t, copy_from_cursor(&cur, back, sizeof(back)), 5);
	KEXPECT(t, memcmp(back, "wxyz!", 5) == 0);

	io_cursor_init(&cur, segs, ARRAY_SIZE(segs), false);
	KEXPECT_EQ(t, zeros_to_cursor(&cur, 1000), 5);           /* cut to what is left */
	KEXPECT(t, a[0] == 0 && a[1] == 0 && c[2] == 0);
}

KTEST(io_cursor, user_buffers_outside_user_space_are_refused)
{
	char kernel_buf[8];
	struct io_cursor cur;
	KEXPECT_EQ(t, io_cursor_user(&cur, (uint64_t)kernel_buf, sizeof(kernel_buf)), -EFAULT);
	KEXPECT_EQ(t, io_cursor_user(&cur, 0, 0), 0);               /* nothing to move: no pointer to check */
	KEXPECT_EQ(t, io_cursor_user(&cur, USER_BASE, (size_t)-1), -EFAULT);
}

KTEST(io_cursor, a_copy_without_faults_stops_at_a_page_not_there_until_it_is_brought_in)
{
	struct mm *mm = mm_create();
	KASSERT(t, mm != NULL);
	KASSERT(t, mm_map_anon(mm, 0x400000, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE) == 0);
	KASSERT(t, mm_write(mm, 0x401000 - 8, "present", 8) == 0);   /* the first page only */
	char buf[16] = "";
	struct io_cursor c;
	preempt_disable();                /* a switch back to this task would load the kernel's tables */
	mm_activate(mm);
	io_cursor_user(&c, 0x401000 - 8, sizeof(buf));
	size_t first = copy_from_cursor_nofault(&c, buf, sizeof(buf));
	size_t ready = fault_in_cursor(&c, sizeof(buf));
	size_t left = io_left(&c);
	size_t rest = copy_from_cursor_nofault(&c, buf + first, sizeof(buf) - first);
	mm_activate(NULL);
	preempt_enable();
	KEXPECT_EQ(t, first, 8);                                    /* the untouched page stopped it */
	KEXPECT_EQ(t, ready, 8);                                    /* brought in, the cursor not moved */
	KEXPECT_EQ(t, left, 8);
	KEXPECT_EQ(t, rest, 8);
	KEXPECT(t, memcmp(buf, "present\0\0\0\0\0\0\0\0", 16) == 0);
	mm_destroy(mm);
}
