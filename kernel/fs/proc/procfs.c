/*
 * /proc's machinery (kernel/fs/proc/procfs.h): its directories in the tree, and
 * its files, whose text is written afresh by a read from the start (as
 * Linux's seq_file does) and handed out from there by the reads after it,
 * so a program reading in small pieces sees one consistent text. What the
 * files say is in kernel/fs/proc/proc_pid.c (the processes) and
 * kernel/fs/proc/proc_system.c (the scheduler and the machine).
 */
#include <stdarg.h>
#include "kernel/fs/proc/procfs.h"
#include "kernel/fs/proc/proc_nodes.h"
#include "kernel/fs/ramfs/ramfs.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/file.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/task/process.h"
#include "kernel/errno.h"
#include "kernel/sysctl.h"
#include "kernel/fs/path_walk.h"
#include "kernel/panic.h"
#include "sched/api.h"
#include "sched/platform.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/util.h"

void proc_write(struct proc_buf *out, const void *bytes, size_t len)
{
	size_t room = out->size - out->len;
	if (len > room) {
		out->overflow = true;
		len = room;
	}
	memcpy(out->data + out->len, bytes, len);
	out->len += len;
}

void proc_printf(struct proc_buf *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t room = out->size - out->len;
	int n = vsnprintf(out->data + out->len, room, fmt, ap);   /* room includes a byte for the NUL */
	va_end(ap);
	if (n < 0 || (size_t)n >= room) {
		out->overflow = true;
		out->len = out->size;
	} else {
		out->len += (size_t)n;
	}
}

static void sink_line(struct text_sink *sink, const char *text)
{
	proc_printf(container_of(sink, struct proc_sink, sink)->out, "%s\n", text);
}

struct proc_sink proc_sink(struct proc_buf *out)
{
	return (struct proc_sink){ { sink_line }, out };
}

int procfs_pid(const struct inode *inode)
{
	return inode->proc.pid ? inode->proc.pid : current()->process->pid;
}

struct inode *procfs_add(struct inode *dir, const struct proc_node *node, const char *name, int pid, int tid,
			 const void *data)
{
	struct inode *inode = inode_create(node->mode);
	struct dentry *d = inode ? dentry_create(name, strlen(name)) : NULL;
	if (!d) {
		if (inode)
			inode_put(inode);
		return NULL;
	}
	inode->proc.node = node;
	inode->proc.pid = pid;
	inode->proc.tid = tid;
	inode->proc.data = data;
	dir_insert(dir, d, inode);
	inode_put(inode);                 /* the name holds it */
	for (const struct proc_node *const *c = node->children; c && *c; c++) {
		if (!procfs_add(inode, *c, (*c)->name, pid, tid, NULL)) {
			procfs_remove(dir, d);
			return NULL;
		}
	}
	return inode;
}

void procfs_remove(struct inode *dir, struct dentry *d)
{
	struct inode *inode = d->inode;
	if (inode_is_dir(inode)) {
		while (!dir_is_empty(inode))
			procfs_remove(inode, dir_entry_from(inode, 0));
		inode->nlink = 0;         /* removed: an open listing of it finds nothing */
	}
	dir_remove(dir, d);
}

void procfs_refresh(struct inode *dir)
{
	if (dir->proc.node && dir->proc.node->refresh)
		dir->proc.node->refresh(dir);
}

static const struct proc_node proc_root = {
	.name = "proc", .mode = S_IFDIR | 0555, .children = proc_root_files, .refresh = proc_refresh_pids,
};

void procfs_init(void)
{
	tree_lock();
	struct inode *proc = procfs_add(fs_root(), &proc_root, "proc", 0, 0, NULL);
	if (!proc || !proc_sys_init(proc))
		panic("procfs: no memory for /proc");
	tree_unlock();
	proc_pid_init();
}

/* The open file: the text its last read from the start wrote. */

enum { TEXT_FIRST_SIZE = 4096, TEXT_MAX_SIZE = 1 << 20 };

static void text_free(struct proc_buf *b)
{
	if (b)
		kfree(b->data);
	kfree(b);
}

/* The inode's text, written into room that grows until it fits: 0 and
 * *out, or the node's error, or -ENOMEM. */
static int text_write(const struct inode *inode, struct proc_buf **out)
{
	for (size_t size = TEXT_FIRST_SIZE;; size *= 4) {
		struct proc_buf *b = kzalloc(sizeof(*b));
		if (b)
			b->data = kmalloc(size);
		if (!b || !b->data) {
			text_free(b);
			return -ENOMEM;
		}
		b->size = size;
		int err = inode->proc.node->show(inode, b);
		if (err || !b->overflow || size >= TEXT_MAX_SIZE) {
			if (err)
				text_free(b);
			else
				*out = b;
			return err;
		}
		text_free(b);
	}
}

static long copy_out(const struct proc_buf *b, struct io_cursor *to, uint64_t *pos)
{
	if (*pos >= b->len)
		return 0;
	size_t done = copy_to_cursor(to, b->data + *pos, MIN(io_left(to), b->len - *pos));
	*pos += done;
	return io_result(done, -EFAULT);
}

/* A read at the file's offset (one at a time: the file's pos_lock) keeps
 * its text for the reads after it; a pread() writes a text of its own. */
static long proc_read(struct file *f, struct io_cursor *to, uint64_t *pos)
{
	bool at_offset = pos == &f->pos;
	struct proc_buf *b = at_offset ? f->private : NULL;
	if (*pos == 0 || !b) {
		int err = text_write(f->inode, &b);
		if (err)
			return err;
		if (at_offset) {
			text_free(f->private);
			f->private = b;
		}
	}
	long ret = copy_out(b, to, pos);
	if (!at_offset)
		text_free(b);
	return ret;
}

/* A value is written whole, from the start, as `echo 5 > file` does. */
static long proc_store(struct file *f, struct io_cursor *from, uint64_t *pos)
{
	char text[64];
	size_t len = io_left(from);
	if (*pos != 0 || len >= sizeof(text))
		return -EINVAL;
	if (copy_from_cursor(from, text, len) != len)
		return -EFAULT;
	text[len] = '\0';
	int err = f->inode->proc.node->store(f->inode, text, len);
	if (err)
		return err;
	*pos += len;
	return (long)len;
}

static void proc_release(struct file *f)
{
	text_free(f->private);
}

const struct file_ops procfs_file_ops = {
	.seekable = true,
	.read = proc_read,
	.write = proc_store,
	.release = proc_release,
};
