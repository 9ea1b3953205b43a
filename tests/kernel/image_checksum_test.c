/* ktest=image_checksum: the tests of kernel/debug/image_checksum.c, through its public interface. */
#include "kernel/debug/image_checksum.h"
#include "kernel/debug/ktest.h"

/* A byte of read-only data flipped and flipped back: the checksum sees it. */
KTEST(image_checksum, sees_a_changed_byte)
{
	static const uint8_t in_rodata = 0x5a;   /* not volatile: that would put it in .data */
	volatile uint8_t *byte = (volatile uint8_t *)(uintptr_t)&in_rodata;
	uint64_t before = image_checksum();
	*byte ^= 0xff;
	uint64_t changed = image_checksum();
	*byte ^= 0xff;
	KEXPECT(t, changed != before);
	KEXPECT_EQ(t, image_checksum(), before);
}
