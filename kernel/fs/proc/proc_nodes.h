/* The parts of /proc that kernel/fs/proc/procfs.c puts together (kernel/fs/proc/procfs.h). */
#pragma once
#include <stdbool.h>

struct inode;
struct proc_node;

/* kernel/fs/proc/proc_system.c: the files always in /proc, and /proc/sys. */
extern const struct proc_node *const proc_root_files[];
bool proc_sys_init(struct inode *proc);
/* kernel/fs/proc/proc_pid.c: /proc/self, and a directory per process in /proc. */
extern const struct proc_node proc_self_node;
void proc_refresh_pids(struct inode *proc);
void proc_pid_init(void);                 /* /proc/PID goes as its process is released */
