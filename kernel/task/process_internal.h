/*
 * What the process files of kernel/task/ share and nobody else may see
 * (tools/layers.py refuses it outside kernel/task/): the tree, how a wait
 * or a kill chooses processes, and the steps one file's work takes in
 * another's. process.h is the processes' interface to the rest.
 */
#pragma once
#include "kernel/task/process.h"
#include "sched/wait.h"

/* The process tree (process.c): the lock of the queue where parents wait
 * for a child guards every process's parent, children and state. */
extern struct wait_queue tree;
extern struct list_node all_processes;     /* every process not yet reaped */

/* Which processes a wait or a kill means: one pid, one process group, or all. */
enum which { ANY, ONE_PID, ONE_GROUP };
struct selection {
	enum which which;
	int id;
};
/* process.c */
struct selection select_by_pid(int pid);
bool selected(const struct process *proc, struct selection sel);
void release(struct process *proc);
void released(void);                       /* after release()s, with no lock held */

/* process_limits.c: a new process's limits when the kernel starts it. */
extern const struct rlimit default_rlimits[RLIM_NLIMITS];
/* process_cputime.c */
struct cputime cputime_sum(struct cputime a, struct cputime b);
/* process_group.c: under the tree lock, is group pgid orphaned (leaving not
 * counted), and the hang-up of the groups an ending process orphans. */
bool group_orphaned_locked(int pgid, const struct process *leaving);
void hang_up_orphaned_groups(struct process *proc);
/* process_kill.c */
int send_to_selected(struct selection sel, const struct process *skip, const struct sig_info *info);
