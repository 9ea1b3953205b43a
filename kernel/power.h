/* Power off, reboot, and ending a test run under QEMU with a verdict. */
#pragma once
#include <stdbool.h>

void power_off(void) __attribute__((noreturn));
void power_reboot(void) __attribute__((noreturn));

/* Test mode: set when the command line asks for tests (ktest=, crash=). Only
 * then does the kernel write to QEMU's isa-debug-exit port, which real
 * hardware does not have. */
extern bool test_mode;
void power_test_exit(bool passed) __attribute__((noreturn));
void power_panic_exit(void) __attribute__((noreturn));
