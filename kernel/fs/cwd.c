/*
 * Working directories. One thread may chdir() while another walks a path
 * from the old directory: the lock makes taking a reference to it and
 * putting the last one never cross. It is held for a few instructions, so
 * one lock serves every process.
 */
#include "kernel/fs/cwd.h"
#include "kernel/fs/ramfs/ramfs.h"
#include "kernel/task/process.h"
#include "kernel/spinlock.h"

static struct spinlock lock = SPINLOCK_INIT("cwd");

struct inode *cwd_get(struct process *proc)
{
	spin_lock(&lock);
	struct inode *dir = inode_get(proc->cwd);
	spin_unlock(&lock);
	return dir;
}

void cwd_set(struct process *proc, struct inode *dir)
{
	spin_lock(&lock);
	struct inode *old = proc->cwd;
	proc->cwd = dir;
	spin_unlock(&lock);
	inode_put(old);
}
