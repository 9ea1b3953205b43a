/*
 * A checksum of the kernel's code and read-only data: .text up to the
 * end of the tables after .rodata (linker.ld's __readonly_end). Nothing
 * writes them once the kernel runs, yet nothing stops the kernel itself:
 * its image is mapped writable (the boot's 2 MiB pages, the direct map),
 * so a bug that lets a program steer a kernel write could change a byte
 * of code. init= takes the checksum before its program starts and after
 * it ends (kernel/entry/main.c), and says whether it moved: what the attack
 * test (tests/user/attack.c) needs to show that nothing did.
 *
 * FNV-1a, a word at a time: about 300 KiB, a millisecond even under TCG.
 */
#include "kernel/debug/image_checksum.h"
#include "arch/x86_64/memlayout.h"

uint64_t image_checksum(void)
{
	const uint64_t *word = (const uint64_t *)__text_start, *end = (const uint64_t *)__readonly_end;
	uint64_t hash = 0xcbf29ce484222325ULL;    /* FNV's offset basis and prime */
	for (; word < end; word++)
		hash = (hash ^ *word) * 0x100000001b3ULL;
	return hash;
}
