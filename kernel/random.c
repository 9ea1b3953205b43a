#include "kernel/random.h"
#include "arch/x86_64/cpu.h"
#include "lib/string.h"
#include "lib/util.h"

static uint64_t counter;          /* atomic: no two calls mix the same input */

static uint64_t splitmix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void random_fill(void *buf, size_t len)
{
	uint8_t *out = buf;
	while (len > 0) {
		uint64_t n = __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
		uint64_t z = splitmix64(rdtsc() + n * 0x9e3779b97f4a7c15ULL);
		size_t chunk = MIN(len, sizeof(z));
		memcpy(out, &z, chunk);
		out += chunk;
		len -= chunk;
	}
}
