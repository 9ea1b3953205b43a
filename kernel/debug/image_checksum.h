/*
 * A checksum of the kernel's code and read-only data (kernel/image_checksum.c).
 */
#pragma once
#include <stdint.h>

uint64_t image_checksum(void);
