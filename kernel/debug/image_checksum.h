/*
 * A checksum of the kernel's code and read-only data (kernel/debug/image_checksum.c).
 */
#pragma once
#include <stdint.h>

uint64_t image_checksum(void);
