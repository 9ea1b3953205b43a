/*
 * Linux x86-64's system call names by number, for the message about a call
 * that is not implemented (arch/x86/entry/syscalls/syscall_64.tbl in
 * Linux's tree is the reference). Each row starts at the number in its comment.
 */
#include "kernel/entry/syscall.h"
#include "lib/util.h"

static const char *const names[] = {
	/*   0 */ "read", "write", "open", "close", "stat", "fstat", "lstat", "poll", "lseek",
	/*   9 */ "mmap", "mprotect", "munmap", "brk", "rt_sigaction", "rt_sigprocmask",
	/*  15 */ "rt_sigreturn", "ioctl", "pread64", "pwrite64", "readv", "writev", "access",
	/*  22 */ "pipe", "select", "sched_yield", "mremap", "msync", "mincore", "madvise",
	/*  29 */ "shmget", "shmat", "shmctl", "dup", "dup2", "pause", "nanosleep", "getitimer",
	/*  37 */ "alarm", "setitimer", "getpid", "sendfile", "socket", "connect", "accept",
	/*  44 */ "sendto", "recvfrom", "sendmsg", "recvmsg", "shutdown", "bind", "listen",
	/*  51 */ "getsockname", "getpeername", "socketpair", "setsockopt", "getsockopt", "clone",
	/*  57 */ "fork", "vfork", "execve", "exit", "wait4", "kill", "uname", "semget", "semop",
	/*  66 */ "semctl", "shmdt", "msgget", "msgsnd", "msgrcv", "msgctl", "fcntl", "flock",
	/*  74 */ "fsync", "fdatasync", "truncate", "ftruncate", "getdents", "getcwd", "chdir",
	/*  81 */ "fchdir", "rename", "mkdir", "rmdir", "creat", "link", "unlink", "symlink",
	/*  89 */ "readlink", "chmod", "fchmod", "chown", "fchown", "lchown", "umask",
	/*  96 */ "gettimeofday", "getrlimit", "getrusage", "sysinfo", "times", "ptrace", "getuid",
	/* 103 */ "syslog", "getgid", "setuid", "setgid", "geteuid", "getegid", "setpgid",
	/* 110 */ "getppid", "getpgrp", "setsid", "setreuid", "setregid", "getgroups", "setgroups",
	/* 117 */ "setresuid", "getresuid", "setresgid", "getresgid", "getpgid", "setfsuid",
	/* 123 */ "setfsgid", "getsid", "capget", "capset", "rt_sigpending", "rt_sigtimedwait",
	/* 129 */ "rt_sigqueueinfo", "rt_sigsuspend", "sigaltstack", "utime", "mknod", "uselib",
	/* 135 */ "personality", "ustat", "statfs", "fstatfs", "sysfs", "getpriority",
	/* 141 */ "setpriority", "sched_setparam", "sched_getparam", "sched_setscheduler",
	/* 145 */ "sched_getscheduler", "sched_get_priority_max", "sched_get_priority_min",
	/* 148 */ "sched_rr_get_interval", "mlock", "munlock", "mlockall", "munlockall", "vhangup",
	/* 154 */ "modify_ldt", "pivot_root", "_sysctl", "prctl", "arch_prctl", "adjtimex",
	/* 160 */ "setrlimit", "chroot", "sync", "acct", "settimeofday", "mount", "umount2",
	/* 167 */ "swapon", "swapoff", "reboot", "sethostname", "setdomainname", "iopl", "ioperm",
	/* 174 */ "create_module", "init_module", "delete_module", "get_kernel_syms",
	/* 178 */ "query_module", "quotactl", "nfsservctl", "getpmsg", "putpmsg", "afs_syscall",
	/* 184 */ "tuxcall", "security", "gettid", "readahead", "setxattr", "lsetxattr",
	/* 190 */ "fsetxattr", "getxattr", "lgetxattr", "fgetxattr", "listxattr", "llistxattr",
	/* 196 */ "flistxattr", "removexattr", "lremovexattr", "fremovexattr", "tkill", "time",
	/* 202 */ "futex", "sched_setaffinity", "sched_getaffinity", "set_thread_area", "io_setup",
	/* 207 */ "io_destroy", "io_getevents", "io_submit", "io_cancel", "get_thread_area",
	/* 212 */ "lookup_dcookie", "epoll_create", "epoll_ctl_old", "epoll_wait_old",
	/* 216 */ "remap_file_pages", "getdents64", "set_tid_address", "restart_syscall",
	/* 220 */ "semtimedop", "fadvise64", "timer_create", "timer_settime", "timer_gettime",
	/* 225 */ "timer_getoverrun", "timer_delete", "clock_settime", "clock_gettime",
	/* 229 */ "clock_getres", "clock_nanosleep", "exit_group", "epoll_wait", "epoll_ctl",
	/* 234 */ "tgkill", "utimes", "vserver", "mbind", "set_mempolicy", "get_mempolicy",
	/* 240 */ "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify",
	/* 245 */ "mq_getsetattr", "kexec_load", "waitid", "add_key", "request_key", "keyctl",
	/* 251 */ "ioprio_set", "ioprio_get", "inotify_init", "inotify_add_watch",
	/* 255 */ "inotify_rm_watch", "migrate_pages", "openat", "mkdirat", "mknodat", "fchownat",
	/* 261 */ "futimesat", "newfstatat", "unlinkat", "renameat", "linkat", "symlinkat",
	/* 267 */ "readlinkat", "fchmodat", "faccessat", "pselect6", "ppoll", "unshare",
	/* 273 */ "set_robust_list", "get_robust_list", "splice", "tee", "sync_file_range",
	/* 278 */ "vmsplice", "move_pages", "utimensat", "epoll_pwait", "signalfd",
	/* 283 */ "timerfd_create", "eventfd", "fallocate", "timerfd_settime", "timerfd_gettime",
	/* 288 */ "accept4", "signalfd4", "eventfd2", "epoll_create1", "dup3", "pipe2",
	/* 294 */ "inotify_init1", "preadv", "pwritev", "rt_tgsigqueueinfo", "perf_event_open",
	/* 299 */ "recvmmsg", "fanotify_init", "fanotify_mark", "prlimit64", "name_to_handle_at",
	/* 304 */ "open_by_handle_at", "clock_adjtime", "syncfs", "sendmmsg", "setns", "getcpu",
	/* 310 */ "process_vm_readv", "process_vm_writev", "kcmp", "finit_module", "sched_setattr",
	/* 315 */ "sched_getattr", "renameat2", "seccomp", "getrandom", "memfd_create",
	/* 320 */ "kexec_file_load", "bpf", "execveat", "userfaultfd", "membarrier", "mlock2",
	/* 326 */ "copy_file_range", "preadv2", "pwritev2", "pkey_mprotect", "pkey_alloc",
	/* 331 */ "pkey_free", "statx", "io_pgetevents", "rseq",
	/* 335..423: none here; from 424 on, the numbers every architecture shares */
	[424] = "pidfd_send_signal", "io_uring_setup", "io_uring_enter", "io_uring_register",
	/* 428 */ "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick",
	/* 434 */ "pidfd_open", "clone3", "close_range", "openat2", "pidfd_getfd", "faccessat2",
	/* 440 */ "process_madvise", "epoll_pwait2", "mount_setattr", "quotactl_fd",
	/* 444 */ "landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self",
	/* 447 */ "memfd_secret", "process_mrelease", "futex_waitv", "set_mempolicy_home_node",
	/* 451 */ "cachestat", "fchmodat2", "map_shadow_stack", "futex_wake", "futex_wait",
	/* 456 */ "futex_requeue", "statmount", "listmount", "lsm_get_self_attr",
	/* 460 */ "lsm_set_self_attr", "lsm_list_modules", "mseal",
};

const char *syscall_name(long nr)
{
	if (nr < 0 || (unsigned long)nr >= ARRAY_SIZE(names) || !names[nr])
		return "unknown";
	return names[nr];
}
