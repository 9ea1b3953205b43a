/*
 * Random bytes for programs (AT_RANDOM, getrandom): the TSC and a counter,
 * stirred with splitmix64's mixing. NOT cryptographic (the kernel has no
 * entropy source yet): only hard to guess from outside, and never the same
 * twice in one boot.
 */
#pragma once
#include <stddef.h>

void random_fill(void *buf, size_t len);
