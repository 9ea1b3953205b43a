/*
 * fuzz's scratch directory, /tmp/fuzz/W for worker W, and the threads
 * that work in it while the others make random calls (user/bin/fuzz.c
 * includes this; it uses fuzz.c's random stream and traced calls):
 *
 *   writer  writes its files (write, pwrite, writev) from memory no one
 *           has touched yet, from memory just unmapped, and from a
 *           mapping of the very file it writes;
 *   mapper  maps, unmaps, moves and truncates the same files, and reads
 *           directories (getdents64) into pages no one has touched;
 *   tree    builds a chain of hundreds to thousands of directories, keeps
 *           a descriptor open in its deepest and moves there (fchdir),
 *           then removes the chain from the bottom up;
 *   closer  opens pipes and files and closes them again while the random
 *           threads read, write and poll them.
 *
 * What these threads change they reach only through descriptors of their
 * own, numbered OWN_FD and up, which the random threads' dup2, dup3 and
 * close never touch (sanitize()); a descriptor is made theirs only after
 * checking it is the file they opened (own_at()). So another thread's
 * dup2 onto a number in between cannot turn a mkdirat or unlinkat toward
 * a directory outside the scratch one.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>

#define OWN_FD        200                 /* the descriptors the scratch threads keep: up to 255 */
#define SCRATCH_FILES 4
#define TREE_NAME     "fuzz-d"

static int dir_fd = -1;                   /* /tmp/fuzz/W, an own descriptor */
static int file_fd[SCRATCH_FILES];        /* its files f0..f3, open for reading and writing */
static char dir_path[32];


/* The mapper's mappings, which the writer also writes from: racy by design. */
struct mapping {
	uint64_t addr, len;
};
static struct mapping maps[4];

/* name in directory at as an own descriptor (or -1), checked to be the
 * file that was opened there: the same inode as fstatat finds by name. */
static int own_at(int at, const char *name, int flags, int mode)
{
	int fd = (int)traced(SYS_openat, (uint64_t)at, (uint64_t)name, (uint64_t)flags, (uint64_t)mode, 0, 0);
	if (fd < 0)
		return -1;
	int own = (int)traced(SYS_fcntl, (uint64_t)fd, F_DUPFD, OWN_FD, 0, 0, 0);
	traced(SYS_close, (uint64_t)fd, 0, 0, 0, 0, 0);
	struct stat mine, named;
	if (own >= 0 && (traced(SYS_fstat, (uint64_t)own, (uint64_t)&mine, 0, 0, 0, 0) != 0 ||
			 traced(SYS_newfstatat, (uint64_t)at, (uint64_t)name, (uint64_t)&named, AT_SYMLINK_NOFOLLOW, 0, 0) != 0 ||
			 mine.st_ino != named.st_ino || mine.st_dev != named.st_dev)) {
		traced(SYS_close, (uint64_t)own, 0, 0, 0, 0, 0);
		return -1;
	}
	return own;
}

/* Remove the tree at path, however deep: a loop down to a directory with
 * no directories in it, emptied and removed from its parent, and again. */
static bool entry_named(int dir, uint64_t ino, bool want_dir, char *name)
{
	char buf[2048];
	int scan = openat(dir, ".", O_RDONLY | O_DIRECTORY);
	long n;
	bool found = false;
	while (scan >= 0 && !found && (n = syscall(SYS_getdents64, scan, buf, sizeof(buf))) > 0)
		for (long off = 0; off < n && !found;) {
			struct dirent *d = (struct dirent *)(buf + off);
			off += d->d_reclen;
			if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
				continue;
			if (want_dir ? d->d_type == DT_DIR && (!ino || d->d_ino == ino) : d->d_type != DT_DIR) {
				snprintf(name, NAME_MAX + 1, "%s", d->d_name);
				found = true;
			}
		}
	if (scan >= 0)
		close(scan);
	return found;
}

static void remove_tree(const char *path)
{
	struct stat top, here;
	char name[NAME_MAX + 1];
	int fd = open(path, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || fstat(fd, &top) != 0)
		goto out;
	for (;;) {
		while (entry_named(fd, 0, false, name))
			if (unlinkat(fd, name, 0) != 0)
				goto out;
		if (entry_named(fd, 0, true, name)) {
			int down = openat(fd, name, O_RDONLY | O_DIRECTORY);
			if (down < 0)
				goto out;
			close(fd);
			fd = down;
			continue;
		}
		if (fstat(fd, &here) != 0 || (here.st_ino == top.st_ino && here.st_dev == top.st_dev))
			break;
		int up = openat(fd, "..", O_RDONLY | O_DIRECTORY);
		if (up < 0 || !entry_named(up, here.st_ino, true, name) || unlinkat(up, name, AT_REMOVEDIR) != 0) {
			if (up >= 0)
				close(up);
			goto out;
		}
		close(fd);
		fd = up;
	}
out:
	if (fd >= 0)
		close(fd);
	rmdir(path);
}

/* The worker's directory, emptied of what an earlier worker in its slot
 * left, and its files, before any thread starts. */
static void make_scratch_dir(int slot)
{
	mkdir("/tmp/fuzz", 0755);
	snprintf(dir_path, sizeof(dir_path), "/tmp/fuzz/%d", slot);
	remove_tree(dir_path);
	if (mkdir(dir_path, 0755) != 0 || (dir_fd = own_at(AT_FDCWD, dir_path, O_RDONLY | O_DIRECTORY, 0)) < 0)
		_exit(102);
	for (int i = 0; i < SCRATCH_FILES; i++) {
		char name[4] = { 'f', (char)('0' + i), 0 };
		if ((file_fd[i] = own_at(dir_fd, name, O_RDWR | O_CREAT, 0644)) < 0)
			_exit(103);
	}
	chdir(dir_path);
}

/* An offset or size, at the edges of what a file may be. */
static uint64_t any_offset(void)
{
	static const uint64_t offsets[] = {
		0, 1, PAGE - 1, PAGE, PAGE + 1, 65536, 1ULL << 30, (1ULL << 30) - 1, (1ULL << 30) + 1,
		(uint64_t)-1, (uint64_t)-PAGE, 0x7fffffff, 0xffffffff80000000ULL, INT64_MAX, (uint64_t)INT64_MIN,
	};
	return one_in(2) ? PICK(offsets) : below(4 * PAGE);
}

static uint64_t fresh_map(uint64_t len, int fd)
{
	long at = traced(SYS_mmap, 0, len, PROT_READ | PROT_WRITE, fd < 0 ? MAP_PRIVATE | MAP_ANONYMOUS : MAP_SHARED,
			 (uint64_t)fd, 0);
	return at < 0 ? 0 : (uint64_t)at;
}

/* A buffer to write from: untouched (a new mapping, anonymous or of the
 * file written), just unmapped, or one of the mapper's. */
static void writer_step(void)
{
	int fd = file_fd[below(SCRATCH_FILES)];
	uint64_t len = one_in(4) ? any_length() : PAGE * (1 + below(4)) - below(2);
	uint64_t map_len = PAGE * (1 + below(4)), buf;
	int kind = (int)below(4);
	if (kind == 3) {
		struct mapping m = maps[below(4)];
		buf = m.addr;
		map_len = 0;
	} else {
		buf = fresh_map(map_len, kind == 1 ? fd : -1);
		if (kind == 2 && buf) {
			traced(SYS_munmap, buf, map_len, 0, 0, 0, 0);
			map_len = 0;
		}
	}
	if (kind == 1 && one_in(2))
		traced(SYS_ftruncate, (uint64_t)fd, map_len, 0, 0, 0, 0);
	switch (below(3)) {
	case 0:
		traced(SYS_write, (uint64_t)fd, buf, len, 0, 0, 0);
		break;
	case 1:
		traced(SYS_pwrite64, (uint64_t)fd, buf, len, any_offset(), 0, 0);
		break;
	default: {
		struct iovec iov[3] = { { (void *)buf, len }, { (void *)(buf + PAGE), PAGE }, { (void *)buf, 1 } };
		traced(SYS_writev, (uint64_t)fd, (uint64_t)iov, 1 + below(3), 0, 0, 0);
	}
	}
	if (buf && map_len)
		traced(SYS_munmap, buf, map_len, 0, 0, 0, 0);
}

static void mapper_step(void)
{
	struct mapping *m = &maps[below(4)];
	int fd = file_fd[below(SCRATCH_FILES)];
	switch (below(6)) {
	case 0:                                   /* a new mapping in place of the old */
		if (m->addr)
			traced(SYS_munmap, m->addr, m->len, 0, 0, 0, 0);
		m->len = PAGE * (1 + below(16));
		m->addr = fresh_map(m->len, one_in(4) ? -1 : fd);
		break;
	case 1: {                                 /* grown, shrunk or moved */
		uint64_t len = PAGE * (1 + below(32));
		long at = m->addr ? traced(SYS_mremap, m->addr, m->len, len, one_in(2) ? 1 : 0, 0, 0) : -1;
		if (at >= 0) {
			m->addr = (uint64_t)at;
			m->len = len;
		}
		break;
	}
	case 2:
		traced(SYS_ftruncate, (uint64_t)fd, one_in(2) ? below(8 * PAGE) : any_offset(), 0, 0, 0, 0);
		break;
	case 3: {                                 /* a directory into a page no one touched, or a mapping */
		uint64_t buf = one_in(2) ? m->addr : fresh_map(PAGE, -1);
		traced(SYS_getdents64, (uint64_t)(one_in(2) ? dir_fd : fd), buf, one_in(4) ? any_length() : PAGE, 0, 0, 0);
		if (buf && buf != m->addr)
			traced(SYS_munmap, buf, PAGE, 0, 0, 0, 0);
		break;
	}
	case 4:                                   /* a file read into a mapping of itself */
		traced(SYS_pread64, (uint64_t)fd, m->addr, m->len, any_offset(), 0, 0);
		break;
	default:
		if (m->addr)
			traced(SYS_munmap, m->addr, m->len, 0, 0, 0, 0);
		m->addr = 0;
	}
}

/* A chain of directories: built, entered and kept open at its deepest,
 * then removed from the bottom while the descriptor and the working
 * directory still hold the deepest. */
static void tree_step(void)
{
	static const int depths[] = { 10, 100, 500, 1000, 2000, 5000 };
	int want = depths[below(sizeof(depths) / sizeof(depths[0]))], depth_now = 0;
	int cur = dir_fd;
	while (depth_now < want) {
		traced(SYS_mkdirat, (uint64_t)cur, (uint64_t)TREE_NAME, 0755, 0, 0, 0);   /* or there already */
		int down = own_at(cur, TREE_NAME, O_RDONLY | O_DIRECTORY, 0);
		if (down < 0)
			break;
		if (cur != dir_fd)
			traced(SYS_close, (uint64_t)cur, 0, 0, 0, 0, 0);
		cur = down;
		depth_now++;
	}
	if (cur == dir_fd)
		return;
	int inside = (int)traced(SYS_fcntl, (uint64_t)cur, F_DUPFD, OWN_FD, 0, 0, 0);
	traced(SYS_fchdir, (uint64_t)cur, 0, 0, 0, 0, 0);
	if (one_in(2)) {
		int f = own_at(cur, "f", O_RDWR | O_CREAT, 0644);
		if (f >= 0) {
			uint64_t buf = fresh_map(PAGE, -1);
			traced(SYS_write, (uint64_t)f, buf, PAGE, 0, 0, 0);
			if (buf)
				traced(SYS_munmap, buf, PAGE, 0, 0, 0, 0);
			traced(SYS_unlinkat, (uint64_t)cur, (uint64_t)"f", 0, 0, 0, 0);
			traced(SYS_close, (uint64_t)f, 0, 0, 0, 0, 0);
		}
	}
	while (cur != dir_fd) {
		int up = depth_now == 1 ? dir_fd : own_at(cur, "..", O_RDONLY | O_DIRECTORY, 0);
		traced(SYS_close, (uint64_t)cur, 0, 0, 0, 0, 0);
		if (up < 0 || traced(SYS_unlinkat, (uint64_t)up, (uint64_t)TREE_NAME, AT_REMOVEDIR, 0, 0, 0) != 0) {
			if (up >= 0 && up != dir_fd)
				traced(SYS_close, (uint64_t)up, 0, 0, 0, 0, 0);
			break;
		}
		cur = up;
		depth_now--;
	}
	traced(SYS_fchdir, (uint64_t)dir_fd, 0, 0, 0, 0, 0);
	if (inside >= 0)
		traced(SYS_close, (uint64_t)inside, 0, 0, 0, 0, 0);
}

/* Pipes and a file, open a moment for the random threads, then closed
 * (in any order) whatever they are doing with them. */
static void closer_step(void)
{
	int p[2];
	if (traced(SYS_pipe2, (uint64_t)p, 0, 0, 0, 0, 0) != 0)
		return;
	race_fd[0] = p[0];
	race_fd[1] = p[1];
	race_fd[2] = (int)traced(SYS_openat, (uint64_t)dir_fd, (uint64_t)"f0", O_RDWR, 0, 0, 0);
	struct timespec pause = { 0, (long)below(2000000) };
	traced(SYS_nanosleep, (uint64_t)&pause, 0, 0, 0, 0, 0);
	int first = (int)below(3);
	for (int i = 0; i < 3; i++) {
		int fd = race_fd[(first + i) % 3];
		race_fd[(first + i) % 3] = -1;
		if (fd >= 0)
			traced(SYS_close, (uint64_t)fd, 0, 0, 0, 0, 0);
	}
}

/* A random thread's call on what the closer has open: read, write, poll. */
static void race_step(void)
{
	int fd = race_fd[below(3)];
	switch (below(3)) {
	case 0:
		traced(SYS_read, (uint64_t)fd, scratch_at(0), below(2 * PAGE), 0, 0, 0);
		break;
	case 1:
		traced(SYS_write, (uint64_t)fd, scratch_at(0), below(2 * PAGE), 0, 0, 0);
		break;
	default: {
		struct pollfd { int fd; short events, revents; } fds[2] = { { fd, 1 | 4, 0 }, { race_fd[0], 1, 0 } };
		traced(SYS_poll, (uint64_t)fds, 2, one_in(2) ? (uint64_t)-1 : below(20), 0, 0, 0);
	}
	}
}
