/*
 * Descriptor tables. The lock is held only to look at or change the
 * slots; a file is put after letting go of it, because the last put
 * releases the file, and that may sleep (a pipe wakes its other end).
 */
#include "kernel/fdtable.h"
#include "kernel/file.h"
#include "kernel/fs.h"
#include "kernel/pipe.h"
#include "kernel/kmalloc.h"
#include "kernel/errno.h"
#include "kernel/pmm.h"
#include "kernel/ktest.h"

static bool valid(int fd)
{
	return fd >= 0 && fd < FDTABLE_SIZE;
}

static void set_cloexec_locked(struct fdtable *t, int fd, bool cloexec)
{
	uint64_t bit = 1ULL << (fd % 64);
	if (cloexec)
		t->cloexec[fd / 64] |= bit;
	else
		t->cloexec[fd / 64] &= ~bit;
}

static bool cloexec_locked(const struct fdtable *t, int fd)
{
	return t->cloexec[fd / 64] & (1ULL << (fd % 64));
}

/* Empty slot fd and return its file, to be put once the lock is let go. */
static struct file *detach_locked(struct fdtable *t, int fd)
{
	struct file *f = t->file[fd];
	t->file[fd] = NULL;
	set_cloexec_locked(t, fd, false);
	return f;
}

static bool reserved_locked(const struct fdtable *t, int fd)
{
	return t->reserved[fd / 64] & (1ULL << (fd % 64));
}

/* The lowest descriptor >= lowest that is neither open nor reserved, or -EMFILE. */
static int free_locked(const struct fdtable *t, int lowest)
{
	for (int fd = lowest < 0 ? 0 : lowest; fd < FDTABLE_SIZE; fd++)
		if (!t->file[fd] && !reserved_locked(t, fd))
			return fd;
	return -EMFILE;
}

static int install_locked(struct fdtable *t, struct file *f, int lowest, bool cloexec)
{
	int fd = free_locked(t, lowest);
	if (fd >= 0) {
		t->file[fd] = f;
		set_cloexec_locked(t, fd, cloexec);
	}
	return fd;
}

struct fdtable *fdtable_create(void)
{
	struct fdtable *t = kzalloc(sizeof(*t));
	if (!t)
		return NULL;
	t->lock = (struct spinlock)SPINLOCK_INIT("fdtable");
	t->refs = 1;
	return t;
}

struct fdtable *fdtable_create_console(void)
{
	struct fdtable *t = fdtable_create();
	struct file *console = NULL;
	if (!t || fs_open(NULL, "/dev/console", O_RDWR, 0, &console) < 0) {
		fdtable_put(t);
		return NULL;
	}
	t->file[0] = console;
	t->file[1] = file_get(console);
	t->file[2] = file_get(console);
	return t;
}

struct fdtable *fdtable_fork(struct fdtable *t)
{
	struct fdtable *copy = fdtable_create();
	if (!copy)
		return NULL;
	spin_lock(&t->lock);
	for (int fd = 0; fd < FDTABLE_SIZE; fd++)
		if (t->file[fd])
			copy->file[fd] = file_get(t->file[fd]);
	for (int i = 0; i < FDTABLE_SIZE / 64; i++)
		copy->cloexec[i] = t->cloexec[i];
	spin_unlock(&t->lock);
	return copy;
}

void fdtable_put(struct fdtable *t)
{
	if (!t || __atomic_sub_fetch(&t->refs, 1, __ATOMIC_ACQ_REL) > 0)
		return;
	for (int fd = 0; fd < FDTABLE_SIZE; fd++)     /* nobody else sees it now: no lock */
		if (t->file[fd])
			file_put(t->file[fd]);
	kfree(t);
}

void fdtable_close_on_exec(struct fdtable *t)
{
	for (int fd = 0; fd < FDTABLE_SIZE; fd++) {
		spin_lock(&t->lock);
		struct file *f = cloexec_locked(t, fd) ? detach_locked(t, fd) : NULL;
		spin_unlock(&t->lock);
		if (f)
			file_put(f);
	}
}

int fd_install(struct fdtable *t, struct file *f, int lowest, bool cloexec)
{
	spin_lock(&t->lock);
	int fd = install_locked(t, f, lowest, cloexec);
	spin_unlock(&t->lock);
	return fd;
}

int fd_reserve(struct fdtable *t, int lowest)
{
	spin_lock(&t->lock);
	int fd = free_locked(t, lowest);
	if (fd >= 0)
		t->reserved[fd / 64] |= 1ULL << (fd % 64);
	spin_unlock(&t->lock);
	return fd;
}

void fd_fill(struct fdtable *t, int fd, struct file *f, bool cloexec)
{
	spin_lock(&t->lock);
	t->reserved[fd / 64] &= ~(1ULL << (fd % 64));
	t->file[fd] = f;
	set_cloexec_locked(t, fd, cloexec);
	spin_unlock(&t->lock);
}

void fd_unreserve(struct fdtable *t, int fd)
{
	spin_lock(&t->lock);
	t->reserved[fd / 64] &= ~(1ULL << (fd % 64));
	spin_unlock(&t->lock);
}

struct file *fd_get(struct fdtable *t, int fd)
{
	if (!valid(fd))
		return NULL;
	spin_lock(&t->lock);
	struct file *f = t->file[fd] ? file_get(t->file[fd]) : NULL;
	spin_unlock(&t->lock);
	return f;
}

int fd_close(struct fdtable *t, int fd)
{
	if (!valid(fd))
		return -EBADF;
	spin_lock(&t->lock);
	struct file *f = detach_locked(t, fd);
	spin_unlock(&t->lock);
	if (!f)
		return -EBADF;
	file_put(f);
	return 0;
}

int fd_dup(struct fdtable *t, int fd, int lowest, bool cloexec)
{
	if (!valid(fd))
		return -EBADF;
	spin_lock(&t->lock);
	struct file *f = t->file[fd];
	int copy = f ? install_locked(t, f, lowest, cloexec) : -EBADF;
	if (copy >= 0)
		file_get(f);
	spin_unlock(&t->lock);
	return copy;
}

int fd_dup_to(struct fdtable *t, int fd, int newfd, bool cloexec)
{
	if (!valid(fd) || !valid(newfd))
		return -EBADF;
	spin_lock(&t->lock);
	struct file *f = t->file[fd], *old = NULL;
	bool busy = f && reserved_locked(t, newfd);     /* Linux's answer: EBUSY */
	if (f && !busy) {
		old = detach_locked(t, newfd);
		t->file[newfd] = file_get(f);
		set_cloexec_locked(t, newfd, cloexec);
	}
	spin_unlock(&t->lock);
	if (old)
		file_put(old);
	return !f ? -EBADF : busy ? -EBUSY : newfd;
}

int fd_cloexec(struct fdtable *t, int fd)
{
	if (!valid(fd))
		return -EBADF;
	spin_lock(&t->lock);
	int ret = t->file[fd] ? cloexec_locked(t, fd) : -EBADF;
	spin_unlock(&t->lock);
	return ret;
}

int fd_set_cloexec(struct fdtable *t, int fd, bool cloexec)
{
	if (!valid(fd))
		return -EBADF;
	spin_lock(&t->lock);
	int ret = t->file[fd] ? 0 : -EBADF;
	if (!ret)
		set_cloexec_locked(t, fd, cloexec);
	spin_unlock(&t->lock);
	return ret;
}

/* The tests: pipes show when a file is really closed (its reader finds the end). */

/* A table with a pipe's reading end at 0 and writing end at 1. */
static struct fdtable *table_with_a_pipe(void)
{
	struct fdtable *files = fdtable_create();
	struct file *r, *w;
	if (!files || pipe_create(O_NONBLOCK, &r, &w) < 0) {
		fdtable_put(files);
		return NULL;
	}
	fd_install(files, r, 0, false);
	fd_install(files, w, 0, false);
	return files;
}

/* Has the pipe whose reading end is at fd 0 lost its writer? */
static bool writer_gone(struct fdtable *files)
{
	char byte;
	struct file *r = fd_get(files, 0);
	long n = kernel_read(r, &byte, 1);
	file_put(r);
	return n == 0;                    /* the end, where a live writer gives -EAGAIN */
}

KTEST(fdtable, new_descriptors_are_the_lowest_free)
{
	struct fdtable *files = table_with_a_pipe();
	KASSERT(t, files != NULL);
	KEXPECT_EQ(t, fd_dup(files, 0, 0, false), 2);
	KEXPECT_EQ(t, fd_dup(files, 0, 10, false), 10);
	KEXPECT_EQ(t, fd_close(files, 2), 0);
	KEXPECT_EQ(t, fd_close(files, 2), -EBADF);
	KEXPECT_EQ(t, fd_dup(files, 1, 0, false), 2);
	KEXPECT_EQ(t, fd_dup(files, 1, FDTABLE_SIZE, false), -EMFILE);
	KEXPECT_EQ(t, fd_dup(files, 5, 0, false), -EBADF);
	KEXPECT_EQ(t, fd_close(files, -1), -EBADF);
	KEXPECT(t, fd_get(files, FDTABLE_SIZE) == NULL);
	fdtable_put(files);
}

KTEST(fdtable, dup2_onto_an_open_descriptor_closes_it)
{
	struct fdtable *files = table_with_a_pipe();
	KASSERT(t, files != NULL);
	KEXPECT_EQ(t, fd_dup(files, 0, 0, false), 2);
	KEXPECT(t, !writer_gone(files));
	KEXPECT_EQ(t, fd_dup_to(files, 2, 1, false), 1);     /* the writer's only descriptor */
	KEXPECT(t, writer_gone(files));
	KEXPECT_EQ(t, fd_dup_to(files, 7, 1, false), -EBADF);
	KEXPECT_EQ(t, fd_dup_to(files, 0, FDTABLE_SIZE, false), -EBADF);
	fdtable_put(files);
}

KTEST(fdtable, exec_closes_only_the_close_on_exec_descriptors)
{
	struct fdtable *files = table_with_a_pipe();
	KASSERT(t, files != NULL);
	KEXPECT_EQ(t, fd_set_cloexec(files, 1, true), 0);
	KEXPECT_EQ(t, fd_dup(files, 1, 0, true), 2);
	KEXPECT_EQ(t, fd_cloexec(files, 1), 1);
	KEXPECT_EQ(t, fd_cloexec(files, 0), 0);
	KEXPECT_EQ(t, fd_cloexec(files, 3), -EBADF);
	fdtable_close_on_exec(files);
	KEXPECT(t, writer_gone(files));
	KEXPECT_EQ(t, fd_close(files, 1), -EBADF);
	KEXPECT_EQ(t, fd_close(files, 2), -EBADF);
	KEXPECT_EQ(t, fd_cloexec(files, 0), 0);
	fdtable_put(files);
}

KTEST(fdtable, a_reserved_descriptor_names_nothing_until_filled)
{
	struct fdtable *files = table_with_a_pipe();
	KASSERT(t, files != NULL);
	KEXPECT_EQ(t, fd_reserve(files, 0), 2);
	KEXPECT(t, fd_get(files, 2) == NULL);
	KEXPECT_EQ(t, fd_close(files, 2), -EBADF);
	KEXPECT_EQ(t, fd_dup(files, 0, 0, false), 3);                /* passed over */
	KEXPECT_EQ(t, fd_dup_to(files, 0, 2, false), -EBUSY);
	struct fdtable *child = fdtable_fork(files);
	KASSERT(t, child != NULL);
	KEXPECT_EQ(t, fd_dup(child, 0, 0, false), 2);                /* a fork's copy is free there */
	fdtable_put(child);
	fd_fill(files, 2, fd_get(files, 1), true);
	KEXPECT_EQ(t, fd_cloexec(files, 2), 1);
	KEXPECT_EQ(t, fd_close(files, 2), 0);
	KEXPECT_EQ(t, fd_reserve(files, 0), 2);
	fd_unreserve(files, 2);
	KEXPECT_EQ(t, fd_dup(files, 0, 0, false), 2);
	fdtable_put(files);
}

/* Pages in use by anyone: kmalloc's slabs grow out of the free pages. */
static size_t pages_taken(void)
{
	return pmm_total_pages() - pmm_free_pages() - kmalloc_slab_pages();
}

KTEST(fdtable, forked_tables_share_files_and_the_last_put_frees_all)
{
	size_t blocks = kmalloc_live_blocks(), pages = pages_taken();
	struct fdtable *parent = table_with_a_pipe();
	KASSERT(t, parent != NULL);
	char bytes[8] = "8 bytes";
	struct file *r = fd_get(parent, 0), *w = fd_get(parent, 1);
	KEXPECT_EQ(t, kernel_write(w, bytes, sizeof(bytes)), 8);  /* the pipe takes its first page */
	KEXPECT_EQ(t, kernel_read(r, bytes, sizeof(bytes)), 8);   /* and keeps it, empty */
	file_put(r);
	file_put(w);
	KEXPECT_EQ(t, fd_set_cloexec(parent, 1, true), 0);
	struct fdtable *child = fdtable_fork(parent);
	KASSERT(t, child != NULL);
	KEXPECT_EQ(t, fd_cloexec(child, 1), 1);
	KEXPECT_EQ(t, fd_close(child, 1), 0);
	KEXPECT(t, !writer_gone(parent));          /* the parent's descriptor still names it */
	fdtable_put(parent);
	KEXPECT(t, writer_gone(child));
	fdtable_put(child);
	KEXPECT_EQ(t, kmalloc_live_blocks(), blocks);
	KEXPECT_EQ(t, pages_taken(), pages);
}

KTEST(fdtable, the_console_is_0_1_and_2)
{
	struct fdtable *files = fdtable_create_console();
	KASSERT(t, files != NULL);
	struct file *in = fd_get(files, 0), *out = fd_get(files, 1), *err = fd_get(files, 2);
	KEXPECT(t, in && in == out && out == err);
	KEXPECT_EQ(t, file_flags(in) & O_ACCMODE, O_RDWR);
	KEXPECT(t, fd_get(files, 3) == NULL);
	file_put(in);
	file_put(out);
	file_put(err);
	fdtable_put(files);
}
