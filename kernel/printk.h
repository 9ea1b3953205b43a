/*
 * The kernel log. Every line goes out as "[seconds.micros] cpuN: text" on
 * the serial console, whole (a lock keeps lines from different CPUs apart),
 * and into a ring buffer that debuggers can read (lm-log).
 */
#pragma once
#include <stddef.h>

enum log_level { LOG_EMERG, LOG_ERR, LOG_WARN, LOG_INFO, LOG_DEBUG };   /* EMERG: panics */

void printk(enum log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define pr_emerg(...) printk(LOG_EMERG, __VA_ARGS__)
#define pr_err(...)   printk(LOG_ERR, __VA_ARGS__)
#define pr_warn(...)  printk(LOG_WARN, __VA_ARGS__)
#define pr_info(...)  printk(LOG_INFO, __VA_ARGS__)
#define pr_debug(...) printk(LOG_DEBUG, __VA_ARGS__)

/* Raw bytes, a program's output: no prefix, even when quiet, and not into
 * the ring buffer, which is the kernel's log (as Linux's dmesg). Whole,
 * between the kernel's lines. */
void console_write(const char *s, size_t len);

/* The panic path: prints even if a stopped CPU held the console lock. */
void console_take_over(void);

extern char log_buf[];            /* the ring buffer, for tools/gdb */
extern size_t log_buf_head;       /* total bytes ever written; wraps at LOG_BUF_SIZE */
#define LOG_BUF_SIZE (64 * 1024)
