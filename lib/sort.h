/* Insertion sort for the handful of samples calibration and tests take. */
#pragma once
#include <stddef.h>
#include <stdint.h>

static inline void sort_u64(uint64_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint64_t x = v[i];
		size_t j = i;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}
