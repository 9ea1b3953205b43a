/*
 * A process's working directory (kernel/fs/cwd.c), where its relative paths
 * start. Its threads share it, as Linux's do with CLONE_FS (musl's threads
 * ask for it); a fork's child starts with a copy.
 */
#pragma once

struct inode;
struct process;

/* proc's working directory, with a reference. */
struct inode *cwd_get(struct process *proc);
/* chdir(): dir, whose reference proc takes over, is proc's working directory. */
void cwd_set(struct process *proc, struct inode *dir);
