/* ktest=fdtable: the tests of kernel/fs/fdtable.c, through its public interface. */
#include "kernel/fs/fdtable.h"
#include "kernel/fs/file.h"
#include "kernel/fs/pipe.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/pmm.h"
#include "kernel/debug/ktest.h"

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
