/*
 * The vDSO: code the kernel maps into every process (kernel/mm/vdso.c), so
 * that reading the clock needs no system call, as on Linux. The C library
 * finds these functions by name in the ELF image that the auxiliary
 * vector's AT_SYSINFO_EHDR points at (musl: __vdsosym("LINUX_2.6",
 * "__vdso_clock_gettime")). They compute what the kernel's clock_ns()
 * computes, from the TSC and the page of parameters below this code.
 *
 * Built as a position-independent shared object with nothing to relocate
 * (arch/x86_64/vdso/vdso.lds), against no C library: its own system call
 * for the clocks it does not read here (the CPU-time ones).
 */
#include <stdint.h>
#include "arch/x86_64/vdso/vdso_data.h"

/* The data page, one page below the image (vdso.lds). */
extern const struct vdso_data vdso_data __attribute__((visibility("hidden")));

struct timespec {
	int64_t tv_sec, tv_nsec;
};
struct timeval {
	int64_t tv_sec, tv_usec;
};
struct timezone {
	int tz_minuteswest, tz_dsttime;
};

enum {                                    /* Linux's clock ids */
	CLOCK_REALTIME = 0, CLOCK_MONOTONIC = 1, CLOCK_MONOTONIC_RAW = 4,
	CLOCK_REALTIME_COARSE = 5, CLOCK_MONOTONIC_COARSE = 6, CLOCK_BOOTTIME = 7,
};
#define SYS_clock_gettime 228
#define NS_PER_S 1000000000ULL

static uint64_t monotonic_ns(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	uint64_t tsc = (uint64_t)hi << 32 | lo;
	return (uint64_t)(((unsigned __int128)(tsc - vdso_data.tsc_at_boot) * vdso_data.ns_mult) >> 32);
}

static long clock_gettime_syscall(long clock, struct timespec *ts)
{
	long ret;
	__asm__ volatile("syscall" : "=a"(ret) : "0"((long)SYS_clock_gettime), "D"(clock), "S"(ts)
			 : "rcx", "r11", "memory");
	return ret;
}

int __vdso_clock_gettime(int clock, struct timespec *ts)
{
	uint64_t ns;
	switch (clock) {
	case CLOCK_REALTIME:
	case CLOCK_REALTIME_COARSE:
		ns = vdso_data.realtime_at_clock_zero + monotonic_ns();
		break;
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_MONOTONIC_COARSE:
	case CLOCK_BOOTTIME:
		ns = monotonic_ns();
		break;
	default:                          /* CPU time, bad ids: the kernel says */
		return (int)clock_gettime_syscall(clock, ts);
	}
	ts->tv_sec = (int64_t)(ns / NS_PER_S);
	ts->tv_nsec = (int64_t)(ns % NS_PER_S);
	return 0;
}

int __vdso_gettimeofday(struct timeval *tv, struct timezone *tz)
{
	uint64_t ns = vdso_data.realtime_at_clock_zero + monotonic_ns();
	if (tv) {
		tv->tv_sec = (int64_t)(ns / NS_PER_S);
		tv->tv_usec = (int64_t)(ns % NS_PER_S / 1000);
	}
	if (tz)
		*tz = (struct timezone){ 0, 0 };
	return 0;
}

int64_t __vdso_time(int64_t *t)
{
	int64_t seconds = (int64_t)((vdso_data.realtime_at_clock_zero + monotonic_ns()) / NS_PER_S);
	if (t)
		*t = seconds;
	return seconds;
}

/* Linux's vDSO offers each under its plain name too. */
int clock_gettime(int, struct timespec *) __attribute__((weak, alias("__vdso_clock_gettime")));
int gettimeofday(struct timeval *, struct timezone *) __attribute__((weak, alias("__vdso_gettimeofday")));
int64_t time(int64_t *) __attribute__((weak, alias("__vdso_time")));
