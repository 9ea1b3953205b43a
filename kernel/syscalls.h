/*
 * The system calls' implementations, one file per group, each taking the
 * six argument registers (arg[0] is rdi, then rsi, rdx, r10, r8, r9) and
 * returning what the program gets in rax: a result, or -errno. The table
 * that maps Linux's numbers to them is in kernel/entry/syscall.c.
 */
#pragma once
#include <stdint.h>

/* kernel/fs/sys_file.c */
long sys_read(const uint64_t *arg);
long sys_write(const uint64_t *arg);
long sys_close(const uint64_t *arg);
long sys_fstat(const uint64_t *arg);
long sys_lseek(const uint64_t *arg);
long sys_ioctl(const uint64_t *arg);
long sys_pread64(const uint64_t *arg);
long sys_pwrite64(const uint64_t *arg);
long sys_readv(const uint64_t *arg);
long sys_writev(const uint64_t *arg);
long sys_pipe(const uint64_t *arg);
long sys_dup(const uint64_t *arg);
long sys_dup2(const uint64_t *arg);
long sys_fcntl(const uint64_t *arg);
long sys_dup3(const uint64_t *arg);
long sys_pipe2(const uint64_t *arg);
long sys_getdents64(const uint64_t *arg);
long sys_ftruncate(const uint64_t *arg);
long sys_fsync(const uint64_t *arg);

/* kernel/fs/sys_fs.c */
long sys_open(const uint64_t *arg);
long sys_openat(const uint64_t *arg);
long sys_truncate(const uint64_t *arg);
long sys_stat(const uint64_t *arg);
long sys_lstat(const uint64_t *arg);
long sys_newfstatat(const uint64_t *arg);
long sys_access(const uint64_t *arg);
long sys_faccessat(const uint64_t *arg);
long sys_faccessat2(const uint64_t *arg);
long sys_umask(const uint64_t *arg);
long sys_mkdir(const uint64_t *arg);
long sys_mkdirat(const uint64_t *arg);
long sys_rmdir(const uint64_t *arg);
long sys_unlink(const uint64_t *arg);
long sys_unlinkat(const uint64_t *arg);
long sys_rename(const uint64_t *arg);
long sys_renameat(const uint64_t *arg);
long sys_renameat2(const uint64_t *arg);
long sys_chdir(const uint64_t *arg);
long sys_fchdir(const uint64_t *arg);
long sys_getcwd(const uint64_t *arg);

/* kernel/mm/sys_mm.c */
long sys_mmap(const uint64_t *arg);
long sys_mprotect(const uint64_t *arg);
long sys_munmap(const uint64_t *arg);
long sys_brk(const uint64_t *arg);
long sys_mremap(const uint64_t *arg);
long sys_madvise(const uint64_t *arg);
long sys_membarrier(const uint64_t *arg);

/* kernel/task/sys_process.c */
long sys_fork(const uint64_t *arg);
long sys_clone(const uint64_t *arg);
long sys_exit_group(const uint64_t *arg) __attribute__((noreturn));
long sys_gettid(const uint64_t *arg);
long sys_execve(const uint64_t *arg);
long sys_wait4(const uint64_t *arg);
long sys_waitid(const uint64_t *arg);
long sys_setpgid(const uint64_t *arg);
long sys_getpgid(const uint64_t *arg);
long sys_getpgrp(const uint64_t *arg);
long sys_setsid(const uint64_t *arg);
long sys_getsid(const uint64_t *arg);
long sys_set_robust_list(const uint64_t *arg);
long sys_exit(const uint64_t *arg) __attribute__((noreturn));
long sys_kill(const uint64_t *arg);
long sys_getpid(const uint64_t *arg);
long sys_getppid(const uint64_t *arg);
long sys_set_tid_address(const uint64_t *arg);
long sys_prctl(const uint64_t *arg);
long sys_arch_prctl(const uint64_t *arg);

/* kernel/task/signal/sys_signal.c */
long sys_rt_sigaction(const uint64_t *arg);
long sys_rt_sigprocmask(const uint64_t *arg);
long sys_rt_sigreturn(const uint64_t *arg);
long sys_rt_sigpending(const uint64_t *arg);
long sys_rt_sigsuspend(const uint64_t *arg);
long sys_pause(const uint64_t *arg);
long sys_sigaltstack(const uint64_t *arg);
long sys_tkill(const uint64_t *arg);
long sys_tgkill(const uint64_t *arg);
long sys_setitimer(const uint64_t *arg);
long sys_getitimer(const uint64_t *arg);
long sys_alarm(const uint64_t *arg);

/* kernel/entry/sys_system.c */
long sys_uname(const uint64_t *arg);
long sys_reboot(const uint64_t *arg);
long sys_get_id(const uint64_t *arg);
long sys_getrandom(const uint64_t *arg);
long sys_sysinfo(const uint64_t *arg);
long sys_getrusage(const uint64_t *arg);
long sys_times(const uint64_t *arg);
long sys_getrlimit(const uint64_t *arg);
long sys_setrlimit(const uint64_t *arg);
long sys_prlimit64(const uint64_t *arg);

/* kernel/time/sys_time.c */
long sys_clock_gettime(const uint64_t *arg);
long sys_clock_getres(const uint64_t *arg);
long sys_clock_nanosleep(const uint64_t *arg);
long sys_nanosleep(const uint64_t *arg);
long sys_gettimeofday(const uint64_t *arg);
long sys_time(const uint64_t *arg);

/* kernel/task/sys_sched.c */
long sys_sched_setscheduler(const uint64_t *arg);
long sys_sched_getscheduler(const uint64_t *arg);
long sys_sched_setparam(const uint64_t *arg);
long sys_sched_getparam(const uint64_t *arg);
long sys_sched_get_priority_max(const uint64_t *arg);
long sys_sched_get_priority_min(const uint64_t *arg);
long sys_sched_yield(const uint64_t *arg);
long sys_sched_setaffinity(const uint64_t *arg);
long sys_sched_getaffinity(const uint64_t *arg);
long sys_setpriority(const uint64_t *arg);
long sys_getpriority(const uint64_t *arg);
long sys_getcpu(const uint64_t *arg);
long sys_sched_rr_get_interval(const uint64_t *arg);
long sys_sched_setattr(const uint64_t *arg);
long sys_sched_getattr(const uint64_t *arg);

/* kernel/task/sys_futex.c */
long sys_futex(const uint64_t *arg);

/* Shared by the groups: a struct timespec at uaddr, in ns (at most
 * FOREVER_NS): 0, -EFAULT, or -EINVAL if it is no time (kernel/time/sys_time.c). */
#define FOREVER_NS (1ULL << 62)           /* longer than any sleep needs (146 years), far from overflowing */
int get_timespec(uint64_t uaddr, uint64_t *ns);
int put_timespec(uint64_t uaddr, uint64_t ns);     /* 0 or -EFAULT */
long sys_poll(const uint64_t *arg);
long sys_ppoll(const uint64_t *arg);
long sys_select(const uint64_t *arg);
long sys_pselect6(const uint64_t *arg);
/* fstat() of the caller's descriptor fd into the struct stat at ubuf:
 * 0, -EBADF, -EFAULT (kernel/fs/sys_file.c). */
long fstat_to_user(int fd, uint64_t ubuf);
