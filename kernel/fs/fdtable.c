/*
 * Descriptor tables. The lock is held only to look at or change the
 * slots; a file is put after letting go of it, because the last put
 * releases the file, and that may sleep (a pipe wakes its other end).
 */
#include "kernel/fs/fdtable.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/errno.h"

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
