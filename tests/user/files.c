/*
 * The file system calls, case by case: one line per case, "files: what =
 * result", compared line for line with the same binary's output on the
 * host's Linux (tests/user/cases.h). Everything happens in a scratch
 * directory, SCRATCH, made at the start and removed at the end (but for
 * deep_directories(), in one of its own), so that both kernels see the
 * same tree; only names, sizes, contents, modes, results and errors are
 * printed, never inode numbers or times (and nothing whose answer depends
 * on the host's file system: a directory's size, a file's exact st_blocks).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define CASES_NAME "files"
#include "cases.h"

#define SCRATCH "/tmp/leftmost-files-test"
#define SHM_NAME "/leftmost-files-test"
#define PAGE 4096
#define BAD ((void *)8)                   /* a pointer to nothing */

/* open()'s result: a descriptor (which, is not printed), or its error. */
static int show_open(const char *what, int fd)
{
	if (fd < 0)
		printf("files: %s = -1 (%s)\n", what, strerror(errno));
	else
		printf("files: %s = a descriptor\n", what);
	return fd;
}

/* What a read gave: its count and its bytes, a NUL shown as '0'. */
static void show_read(const char *what, long n, const char *buf)
{
	if (n < 0) {
		show(what, n);
		return;
	}
	char text[64];
	for (long i = 0; i < n && i < 63; i++)
		text[i] = buf[i] ? buf[i] : '0';
	text[n < 63 ? n : 63] = '\0';
	printf("files: %s = %ld \"%s\"\n", what, n, text);
}

static void show_pread(const char *what, int fd, size_t n, off_t at)
{
	char buf[64];
	show_read(what, pread(fd, buf, n, at), buf);
}

/* A file's type and permission bits, or stat's error. */
static void show_mode(const char *what, const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0) {
		show(what, -1);
		return;
	}
	const char *type = S_ISDIR(st.st_mode) ? "directory" : S_ISREG(st.st_mode) ? "regular" :
			   S_ISCHR(st.st_mode) ? "character device" : "other";
	printf("files: %s = %s, mode %o\n", what, type, st.st_mode & 07777);
}

static void show_size(const char *what, int fd)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		show(what, -1);
	else
		printf("files: %s = %lld bytes, %lu links\n", what, (long long)st.st_size, (unsigned long)st.st_nlink);
}

static void show_nlink(const char *what, const char *path)
{
	struct stat st;
	show(what, stat(path, &st) < 0 ? -1 : (long)st.st_nlink);
}

static int make_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		printf("files: cannot make %s: %s\n", path, strerror(errno));
	return close(fd);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory's entries by getdents64, in a small buffer so that it takes
 * several calls: "name/type" each (d directory, f file), sorted. */
static void show_listing(const char *what, const char *path)
{
	struct entry {
		uint64_t ino;
		int64_t next;
		unsigned short reclen;
		unsigned char type;
		char name[];
	};
	char buf[96], names[32][80], *sorted[32], line[1024] = "";
	int fd = open(path, O_RDONLY | O_DIRECTORY), count = 0;
	long n;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long at = 0; at < n && count < 32; count++) {
			struct entry *e = (struct entry *)(buf + at);
			snprintf(names[count], sizeof(names[count]), "%s/%c", e->name,
				 e->type == DT_DIR ? 'd' : e->type == DT_REG ? 'f' : '?');
			sorted[count] = names[count];
			at += e->reclen;
		}
	}
	close(fd);
	if (n < 0) {
		show(what, n);
		return;
	}
	qsort(sorted, count, sizeof(*sorted), compare_names);
	for (int i = 0; i < count; i++)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), " %s", sorted[i]);
	printf("files: %s =%s\n", what, line);
}

/* Remove path and all below it; what rmdir or unlink said last. */
static int remove_tree(const char *path)
{
	DIR *dir = opendir(path);
	if (!dir)
		return unlink(path);
	struct dirent *e;
	while ((e = readdir(dir))) {
		char below[512];
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(below, sizeof(below), "%s/%s", path, e->d_name);
			remove_tree(below);
		}
	}
	closedir(dir);
	return rmdir(path);
}

/* The program copies itself into SCRATCH/copy, to run it from there. */
static void copy_self(const char *self)
{
	char buf[PAGE];
	int from = open(self, O_RDONLY), to = open(SCRATCH "/copy", O_WRONLY | O_CREAT | O_EXCL, 0755);
	long n, total = 0;
	while ((n = read(from, buf, sizeof(buf))) > 0)
		total += write(to, buf, n);
	struct stat st;
	fstat(from, &st);
	yes("copy this program into the scratch directory", total == st.st_size && total > 0);
	close(from);
	close(to);
	int copy = open(SCRATCH "/copy", O_RDONLY);
	yes("the copy starts with \\177ELF", pread(copy, buf, 4, 0) == 4 && memcmp(buf, "\177ELF", 4) == 0);
	close(copy);
}

static void directories(void)
{
	show("mkdir(d)", mkdir("d", 0755));
	show("mkdir(d) again", mkdir("d", 0755));
	show("mkdir(e/) with a slash", mkdir("e/", 0700));
	show("mkdir(nothing/x)", mkdir("nothing/x", 0755));
	show("mkdir(.)", mkdir(".", 0755));
	show("mkdir(/)", mkdir("/", 0755));
	show("mkdir(bad pointer)", syscall(SYS_mkdir, BAD, 0755));
	char long_name[300];
	memset(long_name, 'n', 256);
	long_name[256] = '\0';
	show("mkdir(a 256-character name)", mkdir(long_name, 0755));
	long_name[255] = '\0';
	show("mkdir(a 255-character name)", mkdir(long_name, 0755));
	show("rmdir(it)", rmdir(long_name));
	static char long_path[5000];
	for (int i = 0; i < 4999; i++)
		long_path[i] = i % 2 ? '/' : 'a';
	show("mkdir(a 4999-character path)", mkdir(long_path, 0755));
	show_mode("stat(d)", "d");
	show_mode("stat(e)", "e");
	show_nlink("d's links", "d");
	show("mkdirat(AT_FDCWD, d/sub)", mkdirat(AT_FDCWD, "d/sub", 0755));
	show_nlink("d's links with a subdirectory", "d");
	int d = show_open("open(d, O_DIRECTORY)", open("d", O_RDONLY | O_DIRECTORY));
	show("mkdirat(d's descriptor, sub2)", mkdirat(d, "sub2", 0755));
	show_nlink("d's links with two", "d");
	show("rmdir(d/sub2/)", rmdir("d/sub2/"));
	show("rmdir(d/sub2) again", rmdir("d/sub2"));
	show("rmdir(e)", rmdir("e"));
	show("rmdir(.)", rmdir("."));
	show("rmdir(d/..)", rmdir("d/.."));
	show("rmdir(d), not empty", rmdir("d"));
	show_mode("stat(/tmp)", "/tmp");
	show_mode("stat(/dev/shm)", "/dev/shm");
	close(d);
}

/* pwrite, on a file of its own: "hello", then written at offsets. */
static void pwrites(void)
{
	int fd = open("d/pw", O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(fd, "hello", 5);
	show("pwrite(XY at 1)", pwrite(fd, "XY", 2, 1));
	show("lseek(0, SEEK_CUR): pwrite left the offset", lseek(fd, 0, SEEK_CUR));
	show_pread("pread(0, 10) after it", fd, 10, 0);
	show("pwrite(at 8: past the end)", pwrite(fd, "e", 1, 8));
	show_size("fstat", fd);
	show_pread("pread(0, 10): the gap reads as zeros", fd, 10, 0);
	show("pwrite(at -1)", pwrite(fd, "x", 1, -1));
	show("pwrite(bad pointer)", pwrite(fd, BAD, 4, 0));
	int appending = open("d/pw", O_WRONLY | O_APPEND);
	show("pwrite(at 0, an O_APPEND descriptor): at the end all the same", pwrite(appending, "A", 1, 0));
	close(appending);
	show_size("fstat", fd);
	int p[2];
	pipe(p);
	show("pwrite(a pipe)", pwrite(p[1], "x", 1, 0));
	close(p[0]);
	close(p[1]);
	close(fd);
	unlink("d/pw");
}

static void regular_files(void)
{
	char buf[64];
	int fd = show_open("open(d/f, O_CREAT | O_WRONLY, 0644)", open("d/f", O_CREAT | O_WRONLY, 0644));
	show("write(hello)", write(fd, "hello", 5));
	show_size("fstat", fd);
	show_mode("stat(d/f)", "d/f");
	struct stat st;
	fstat(fd, &st);
	yes("it takes blocks", st.st_blocks > 0);
	show("read(it, opened write-only)", read(fd, buf, 1));
	close(fd);
	show_open("open(d/f, O_CREAT | O_EXCL)", open("d/f", O_CREAT | O_EXCL | O_WRONLY, 0644));
	show_open("open(d/f/)", open("d/f/", O_RDONLY));
	show_open("open(d/f/x)", open("d/f/x", O_RDONLY));
	show_open("open(d, O_WRONLY)", open("d", O_WRONLY));
	show_open("open(d, O_CREAT)", open("d", O_RDONLY | O_CREAT, 0644));
	show_open("open(d/new/, O_CREAT)", open("d/new/", O_WRONLY | O_CREAT, 0644));
	show_open("open(d/f, O_DIRECTORY)", open("d/f", O_RDONLY | O_DIRECTORY));
	show_open("open(missing)", open("missing", O_RDONLY));
	show_open("open(\"\")", open("", O_RDONLY));
	show_open("open(O_CREAT | O_DIRECTORY)", open("d/g", O_RDONLY | O_CREAT | O_DIRECTORY, 0644));
	show("open(bad pointer)", syscall(SYS_open, BAD, O_RDONLY));
	close(show_open("open(./d//../d/./f) relative, with dots", open("./d//../d/./f", O_RDONLY)));
	close(show_open("open(SCRATCH/d/f) absolute", open(SCRATCH "/d/f", O_RDONLY)));
	int dir = open("d", O_RDONLY | O_DIRECTORY);
	show("read(a directory)", read(dir, buf, sizeof(buf)));
	fd = show_open("openat(d's descriptor, f)", openat(dir, "f", O_RDWR));
	show_read("read(it)", read(fd, buf, sizeof(buf)), buf);
	show_open("openat(a file's descriptor, x)", openat(fd, "x", O_RDONLY));
	show_open("openat(99, x)", openat(99, "x", O_RDONLY));
	close(show_open("openat(99, absolute path)", openat(99, SCRATCH "/d/f", O_RDONLY)));
	close(fd);
	close(dir);

	/* Appending, truncating, and holes */
	fd = open("d/f", O_WRONLY | O_APPEND);
	printf("files: fcntl(an O_APPEND file, F_GETFL) = 0%o\n", fcntl(fd, F_GETFL));
	show("write(, world) appends", write(fd, ", world", 7));
	show("lseek(SEEK_CUR) is at the end", lseek(fd, 0, SEEK_CUR));
	close(fd);
	fd = open("d/f", O_RDWR);
	show_pread("pread(0, 12)", fd, 12, 0);
	show("ftruncate(8192)", ftruncate(fd, 8192));
	show_size("fstat", fd);
	show_pread("pread(8180, 20): the hole reads as zeros", fd, 20, 8180);
	show("lseek(20000)", lseek(fd, 20000, SEEK_SET));
	show("write(z) past the end", write(fd, "z", 1));
	show_size("fstat", fd);
	fstat(fd, &st);
	yes("the holes take no blocks", st.st_blocks < st.st_size / 512);
	show_pread("pread(19998, 8)", fd, 8, 19998);
	show("lseek(0, SEEK_END)", lseek(fd, 0, SEEK_END));
	show("ftruncate(3)", ftruncate(fd, 3));
	show("ftruncate(6): grows over what was cut", ftruncate(fd, 6));
	show_pread("pread(0, 10)", fd, 10, 0);
	show("ftruncate(-1)", ftruncate(fd, -1));
	show("ftruncate(99, 0)", ftruncate(99, 0));
	show("write(bad pointer)", write(fd, BAD, 4));
	show("read(into a bad pointer)", pread(fd, BAD, 4, 0));
	show("fsync", fsync(fd));
	show("fdatasync", fdatasync(fd));
	close(fd);
	fd = open("d/f", O_RDONLY);
	show("ftruncate(a read-only descriptor)", ftruncate(fd, 0));
	show("write(a read-only descriptor)", write(fd, "x", 1));
	show("pwrite(a read-only descriptor)", pwrite(fd, "x", 1, 0));
	pwrites();
	close(fd);
	dir = open("d", O_RDONLY);
	show("ftruncate(a directory)", ftruncate(dir, 0));
	show("fsync(a directory)", fsync(dir));
	close(dir);
	int p[2];
	pipe(p);
	show("ftruncate(a pipe)", ftruncate(p[1], 0));
	show("fsync(a pipe)", fsync(p[1]));
	show("fsync(99)", fsync(99));
	close(p[0]);
	close(p[1]);
	show("truncate(d/f, 2)", truncate("d/f", 2));
	show("truncate(d)", truncate("d", 0));
	fd = open("d/f", O_RDWR | O_TRUNC);
	show_size("open(d/f, O_TRUNC), fstat", fd);
	close(fd);
	fd = open("d/f", O_WRONLY | O_CLOEXEC);
	show("fcntl(O_CLOEXEC file, F_GETFD)", fcntl(fd, F_GETFD));
	close(fd);
	struct iovec iov[] = { { "ve", 2 }, { "ct", 2 }, { "or", 2 } };
	fd = open("d/v", O_RDWR | O_CREAT, 0600);
	show("writev(three pieces)", writev(fd, iov, 3));
	show_pread("pread(0, 6)", fd, 6, 0);
	char first[2], rest[4];
	struct iovec into[] = { { first, sizeof(first) }, { NULL, 0 }, { rest, sizeof(rest) } };
	lseek(fd, 0, SEEK_SET);
	show("readv(2, 0 and 4 bytes)", readv(fd, into, 3));
	yes("readv spread it over the buffers", memcmp(first, "ve", 2) == 0 && memcmp(rest, "ctor", 4) == 0);
	show("lseek(-1)", lseek(fd, -1, SEEK_SET));
	show("lseek(whence 7)", lseek(fd, 0, 7));
	close(fd);
	pipe(p);
	show("lseek(a pipe)", lseek(p[0], 0, SEEK_SET));
	close(p[0]);
	close(p[1]);
}

static void stat_calls(void)
{
	struct stat st;
	show("lstat(d/v), no links here: as stat", syscall(SYS_lstat, "d/v", &st));
	printf("files: its size = %lld\n", (long long)st.st_size);
	show("stat(missing)", stat("missing", &st));
	show("stat(d/v/)", stat("d/v/", &st));
	show("stat(into a bad pointer)", syscall(SYS_stat, "d", BAD));
	show("stat(bad pointer)", syscall(SYS_stat, BAD, &st));
	int dir = open("d", O_RDONLY | O_DIRECTORY), fd = open("d/v", O_RDONLY);
	show("fstatat(d's descriptor, v)", fstatat(dir, "v", &st, 0));
	printf("files: its size = %lld\n", (long long)st.st_size);
	show("fstatat(a file's descriptor, \"\", AT_EMPTY_PATH)", fstatat(fd, "", &st, AT_EMPTY_PATH));
	printf("files: its size = %lld\n", (long long)st.st_size);
	show("fstatat(AT_FDCWD, \"\", AT_EMPTY_PATH)", fstatat(AT_FDCWD, "", &st, AT_EMPTY_PATH));
	yes("it is the working directory", S_ISDIR(st.st_mode));
	show("fstatat(AT_FDCWD, \"\", 0)", fstatat(AT_FDCWD, "", &st, 0));
	show("fstatat(d, v, bad flags)", fstatat(dir, "v", &st, 0x4));
	show("fstatat(a file's descriptor, v)", fstatat(fd, "v", &st, 0));
	struct stat a, b;
	stat("d/v", &a);
	stat("d", &b);
	yes("two files have two inode numbers", a.st_ino != b.st_ino);
	fstat(fd, &b);
	yes("a file and its descriptor have one", a.st_ino == b.st_ino);
	close(fd);
	close(dir);

	show("access(d/v, F_OK)", access("d/v", F_OK));
	show("access(d/v, R_OK | W_OK)", access("d/v", R_OK | W_OK));
	show("access(d/v 0600, X_OK)", access("d/v", X_OK));
	show("access(d, X_OK)", access("d", X_OK));
	show("access(copy 0755, X_OK)", access("copy", X_OK));
	show("access(missing, F_OK)", access("missing", F_OK));
	show("access(d/v, mode 8)", access("d/v", 8));
	dir = open("d", O_RDONLY | O_DIRECTORY);
	show("faccessat(d's descriptor, v, R_OK)", faccessat(dir, "v", R_OK, 0));
	close(dir);

	show("umask(077): the old one, 022", umask(077));
	int fd2 = open("masked", O_CREAT | O_WRONLY, 0666);
	close(fd2);
	show_mode("a file made 0666 under it", "masked");
	mkdir("masked-dir", 0777);
	show_mode("a directory made 0777 under it", "masked-dir");
	umask(022);
	rmdir("masked-dir");
	unlink("masked");

	show_mode("stat(/dev/null)", "/dev/null");
	stat("/dev/null", &st);
	printf("files: /dev/null's device = %u:%u\n", major(st.st_rdev), minor(st.st_rdev));
	stat("/dev/zero", &st);
	printf("files: /dev/zero's device = %u:%u\n", major(st.st_rdev), minor(st.st_rdev));
	char buf[8] = "xxxxxxx";
	int null = open("/dev/null", O_RDWR), zero = open("/dev/zero", O_RDWR);
	show("write(/dev/null, 5)", write(null, "12345", 5));
	show("read(/dev/null)", read(null, buf, sizeof(buf)));
	show_read("read(/dev/zero, 4)", read(zero, buf, 4), buf);
	show("write(/dev/zero, 3)", write(zero, "abc", 3));
	close(null);
	close(zero);
}

static void removing_and_renaming(void)
{
	int fd = open("u", O_RDWR | O_CREAT, 0644);
	write(fd, "still here", 10);
	show("unlink(u), open", unlink("u"));
	struct stat st;
	show("stat(u)", stat("u", &st));
	show_size("fstat(its descriptor)", fd);
	show_pread("pread(it)", fd, 10, 0);
	close(fd);
	show("unlink(u) again", unlink("u"));
	show("unlink(d)", unlink("d"));
	show("unlink(d/v/)", unlink("d/v/"));
	show("unlink(.)", unlink("."));
	show("rmdir(d/v)", rmdir("d/v"));
	show("unlinkat(AT_FDCWD, d/sub, AT_REMOVEDIR)", unlinkat(AT_FDCWD, "d/sub", AT_REMOVEDIR));
	int dir = open("d", O_RDONLY | O_DIRECTORY);
	make_file("d/w", "w");
	show("unlinkat(d's descriptor, w, 0)", unlinkat(dir, "w", 0));
	show("unlinkat(d, v, bad flags)", unlinkat(dir, "v", 0x100));
	show("unlinkat(99, v, 0)", unlinkat(99, "v", 0));
	close(dir);

	make_file("a", "from a");
	make_file("b", "from b");
	show("rename(a, b): over b", rename("a", "b"));
	show("stat(a)", stat("a", &st));
	fd = open("b", O_RDONLY);
	char buf[16];
	show_read("read(b)", read(fd, buf, sizeof(buf)), buf);
	close(fd);
	show("rename(b, b)", rename("b", "b"));
	show("rename(missing, x)", rename("missing", "x"));
	show("rename(b, d): a file over a directory", rename("b", "d"));
	mkdir("e", 0755);
	show("rename(e, b): a directory over a file", rename("e", "b"));
	show("rename(e, d): over a directory not empty", rename("e", "d"));
	show("rename(d, d/x): into itself", rename("d", "d/x"));
	show("rename(d/f, d): over the directory it is in", rename("d/f", "d"));
	show("rename(., x)", rename(".", "x"));
	show("rename(b, b/)", rename("b", "b/"));
	mkdir("f", 0755);
	show("rename(e, f): over an empty directory", rename("e", "f"));
	show_mode("stat(f)", "f");
	show("rename(f, d/f2): a directory moves", rename("f", "d/f2"));
	show_nlink("d's links with it", "d");
	show("renameat(AT_FDCWD, d/f2, AT_FDCWD, g)", renameat(AT_FDCWD, "d/f2", AT_FDCWD, "g"));
	show_nlink("d's links without it", "d");
	make_file("c", "c");
	show("renameat2(c, b, RENAME_NOREPLACE)", syscall(SYS_renameat2, AT_FDCWD, "c", AT_FDCWD, "b", 1));
	show("renameat2(c, h, RENAME_NOREPLACE)", syscall(SYS_renameat2, AT_FDCWD, "c", AT_FDCWD, "h", 1));
	show("renameat2(h, b, NOREPLACE | EXCHANGE)", syscall(SYS_renameat2, AT_FDCWD, "h", AT_FDCWD, "b", 3));
	show("rename(bad pointer, x)", syscall(SYS_rename, BAD, "x"));
	show_listing("getdents64(.)", ".");
	show_listing("getdents64(d)", "d");
	rmdir("g");
	unlink("b");
	unlink("h");
	show_listing("getdents64(.) after removals", ".");
}

static void listing_errors(void)
{
	char buf[512];
	int dir = open("d", O_RDONLY | O_DIRECTORY), fd = open("d/v", O_RDONLY);
	show("getdents64(a 10-byte buffer)", syscall(SYS_getdents64, dir, buf, 10));
	show("getdents64(a bad pointer)", syscall(SYS_getdents64, dir, BAD, sizeof(buf)));
	show("getdents64(a file)", syscall(SYS_getdents64, fd, buf, sizeof(buf)));
	show("getdents64(99)", syscall(SYS_getdents64, 99, buf, sizeof(buf)));
	while (syscall(SYS_getdents64, dir, buf, sizeof(buf)) > 0)
		;
	show("getdents64(at the end)", syscall(SYS_getdents64, dir, buf, sizeof(buf)));
	show("lseek(a directory, 0)", lseek(dir, 0, SEEK_SET));
	yes("getdents64 lists it again", syscall(SYS_getdents64, dir, buf, sizeof(buf)) > 0);
	close(fd);
	close(dir);
	DIR *d = opendir("d");
	int entries = 0;
	while (readdir(d))
		entries++;
	closedir(d);
	show("readdir(d): entries, . and .. too", entries);
}

static void working_directory(void)
{
	char buf[256];
	printf("files: getcwd = %s\n", getcwd(buf, sizeof(buf)));
	show("getcwd's system call: the length with the NUL", syscall(SYS_getcwd, buf, sizeof(buf)));
	show("getcwd(a 5-byte buffer)", getcwd(buf, 5) ? 0 : -1);
	show("getcwd(a bad pointer)", syscall(SYS_getcwd, BAD, sizeof(buf)));
	show("chdir(d)", chdir("d"));
	printf("files: getcwd = %s\n", getcwd(buf, sizeof(buf)));
	show("chdir(..)", chdir(".."));
	show("chdir(missing)", chdir("missing"));
	show("chdir(d/v)", chdir("d/v"));
	int dir = open("d", O_RDONLY | O_DIRECTORY), fd = open("d/v", O_RDONLY);
	show("fchdir(d's descriptor)", fchdir(dir));
	printf("files: getcwd = %s\n", getcwd(buf, sizeof(buf)));
	show("fchdir(a file)", fchdir(fd));
	show("fchdir(99)", fchdir(99));
	pid_t pid = fork();
	if (pid == 0) {
		int same = strcmp(getcwd(buf, sizeof(buf)), SCRATCH "/d") == 0;
		chdir("/");
		_exit(same);
	}
	show_status("a child starts in its parent's directory (1: yes), then leaves it", pid);
	printf("files: the parent's getcwd = %s\n", getcwd(buf, sizeof(buf)));
	show("chdir(/)", chdir("/"));
	printf("files: getcwd = %s\n", getcwd(buf, sizeof(buf)));
	chdir(SCRATCH);
	close(fd);
	close(dir);

	mkdir("gone", 0755);
	chdir("gone");
	show("rmdir(the working directory)", rmdir(SCRATCH "/gone"));
	show("getcwd(in a removed directory)", getcwd(buf, sizeof(buf)) ? 0 : -1);
	show_open("open(x, O_CREAT) there", open("x", O_CREAT | O_WRONLY, 0644));
	show("mkdir(x) there", mkdir("x", 0755));
	show("chdir(..) from there", chdir(".."));
	printf("files: getcwd = %s\n", getcwd(buf, sizeof(buf)));
}

static void mappings(void)
{
	const int rw = PROT_READ | PROT_WRITE;
	int fd = open("m", O_RDWR | O_CREAT, 0644);
	ftruncate(fd, 2 * PAGE);
	char *s = mmap(NULL, 2 * PAGE, rw, MAP_SHARED, fd, 0);
	yes("mmap(a file, MAP_SHARED)", s != MAP_FAILED);
	memcpy(s, "through the map", 15);
	show_pread("pread sees the mapping's write", fd, 15, 0);
	lseek(fd, PAGE, SEEK_SET);
	write(fd, "by write", 8);
	printf("files: the mapping sees the write = %.8s\n", s + PAGE);
	pid_t pid = fork();
	if (pid == 0) {
		memcpy(s + 100, "child", 5);
		_exit(0);
	}
	show_status("a child writes into the shared mapping", pid);
	printf("files: the parent sees = %.5s\n", s + 100);
	show("munmap", munmap(s, 2 * PAGE));

	char *p = mmap(NULL, 2 * PAGE, rw, MAP_PRIVATE, fd, 0);
	yes("mmap(the file, MAP_PRIVATE)", p != MAP_FAILED);
	printf("files: it reads the file = %.15s\n", p);
	p[0] = 'T';
	show_pread("the private write stays private", fd, 15, 0);
	lseek(fd, PAGE, SEEK_SET);
	write(fd, "changed", 7);
	printf("files: a page it never wrote follows the file = %.7s\n", p + PAGE);
	if ((pid = fork()) == 0) {
		p[1] = 'H';
		_exit(0);
	}
	show_status("a child writes into the private mapping", pid);
	printf("files: the parent's copy = %.4s\n", p);
	munmap(p, 2 * PAGE);
	char *second = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, PAGE);
	printf("files: mmap at offset 4096 = %.7s\n", second == MAP_FAILED ? "failed" : second);
	munmap(second, PAGE);

	int ro = open("m", O_RDONLY), wo = open("m", O_WRONLY), pipes[2], dir = open(".", O_RDONLY);
	pipe(pipes);
	const struct { const char *what; int fd, prot, flags; off_t offset; } bad[] = {
		{ "mmap(read-only file, MAP_SHARED, PROT_WRITE)", ro, rw, MAP_SHARED, 0 },
		{ "mmap(read-only file, MAP_PRIVATE, PROT_WRITE)", ro, rw, MAP_PRIVATE, 0 },
		{ "mmap(write-only file, MAP_SHARED)", wo, PROT_WRITE, MAP_SHARED, 0 },
		{ "mmap(a pipe)", pipes[0], PROT_READ, MAP_PRIVATE, 0 },
		{ "mmap(a directory)", dir, PROT_READ, MAP_PRIVATE, 0 },
		{ "mmap(99)", 99, PROT_READ, MAP_PRIVATE, 0 },
		{ "mmap(offset 100)", ro, PROT_READ, MAP_PRIVATE, 100 },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		void *m = mmap(NULL, PAGE, bad[i].prot, bad[i].flags, bad[i].fd, bad[i].offset);
		show(bad[i].what, m == MAP_FAILED ? -1 : 0);
		if (m != MAP_FAILED)
			munmap(m, PAGE);
	}
	int zero = open("/dev/zero", O_RDWR);
	char *z = mmap(NULL, PAGE, rw, MAP_PRIVATE, zero, 0);
	yes("mmap(/dev/zero) is zeroed memory", z != MAP_FAILED && z[0] == 0 && z[PAGE - 1] == 0);
	munmap(z, PAGE);
	close(zero);
	close(ro);
	close(wo);
	close(pipes[0]);
	close(pipes[1]);
	close(dir);
	close(fd);

	shm_unlink(SHM_NAME);                 /* a run that crashed may have left it */
	int shm = show_open("shm_open(O_CREAT | O_EXCL)", shm_open(SHM_NAME, O_RDWR | O_CREAT | O_EXCL, 0600));
	show("ftruncate(it, 4096)", ftruncate(shm, PAGE));
	volatile int *counter = mmap(NULL, PAGE, rw, MAP_SHARED, shm, 0);
	yes("mmap(it, MAP_SHARED)", counter != MAP_FAILED);
	*counter = 1;
	if ((pid = fork()) == 0) {
		int seen = *counter;
		*counter = 2;
		_exit(seen);
	}
	show_status("the child sees the parent's 1, and writes 2", pid);
	printf("files: the parent then sees = %d\n", *counter);
	int again = shm_open(SHM_NAME, O_RDWR, 0);
	int *other = mmap(NULL, PAGE, rw, MAP_SHARED, again, 0);
	printf("files: opened and mapped again, it holds = %d\n", *other);
	show("shm_unlink", shm_unlink(SHM_NAME));
	show_open("shm_open(it, no O_CREAT)", shm_open(SHM_NAME, O_RDWR, 0));
	show("shm_unlink again", shm_unlink(SHM_NAME));
	printf("files: the mappings keep the memory = %d\n", *other + *counter);
	close(again);
	close(shm);
}

/* A chain of directories as deep as a program cares to make, the deepest
 * kept (open, or a child's working directory), then removed from the
 * bottom up: when the deepest goes, they all go, each holding its parent
 * (".."). The kernel must walk such a chain with a loop, as every walk of
 * it here (getcwd, rename's "into itself"). It is made in a directory of
 * its own, not SCRATCH: remove_tree() could not remove it, and another run
 * of this program on the same host may be removing SCRATCH meanwhile. */
#define DEPTH 5000

static char deep_base[] = "/tmp/leftmost-files-deep-XXXXXX";

/* deep_base/chain/d/d/...: how many levels were made; ends in the deepest. */
static int make_chain(void)
{
	chdir(deep_base);
	show("mkdir(chain)", mkdir("chain", 0755));
	show("chdir(chain)", chdir("chain"));
	int made = 0;
	while (made < DEPTH && mkdir("d", 0755) == 0 && chdir("d") == 0)
		made++;
	show("mkdir(d) and chdir(d), 5000 times", made);
	return made;
}

/* From the deepest back up to SCRATCH, each level removed on the way. */
static void remove_chain(int made)
{
	int removed = 0;
	while (removed < made && chdir("..") == 0 && rmdir("d") == 0)
		removed++;
	show("chdir(..) and rmdir(d), 5000 times", removed);
}

static void deep_directories(void)
{
	char buf[8192], top[64];
	yes("mkdtemp(/tmp/leftmost-files-deep-XXXXXX)", mkdtemp(deep_base) != NULL);
	snprintf(top, sizeof(top), "%s/chain", deep_base);
	int made = make_chain();
	int deepest = show_open("open(.) 5000 deep", open(".", O_RDONLY | O_DIRECTORY));
	show("getcwd 5000 deep: longer than a page", syscall(SYS_getcwd, buf, sizeof(buf)));
	show("rename(the chain's top, x): into itself", rename(top, "x"));
	make_file("f", "f");
	show("rename(f, the chain's top): over a directory it is in", rename("f", top));
	unlink("f");
	static char up[PATH_MAX];
	for (int i = 0; i < PATH_MAX / 3; i++)
		memcpy(up + 3 * i, "../", 3);
	up[PATH_MAX / 3 * 3 - 1] = '\0';
	show("chdir(1365 \"..\" components)", chdir(up));
	show("fchdir(the deepest)", fchdir(deepest));
	remove_chain(made);
	show("close(the deepest, removed)", close(deepest));
	show("chdir(..)", chdir(".."));
	show("rmdir(chain)", rmdir("chain"));

	made = make_chain();
	int go[2];
	pipe(go);
	pid_t pid = fork();
	if (pid == 0) {                       /* stays in the deepest until told */
		close(go[1]);
		_exit(read(go[0], buf, 1) == 0 ? 0 : 1);
	}
	close(go[0]);
	remove_chain(made);
	close(go[1]);
	show_status("a child working 5000 deep in the removed chain ends", pid);
	show("chdir(..)", chdir(".."));
	show("rmdir(chain)", rmdir("chain"));
	chdir("/");
	show("rmdir(the temporary directory)", rmdir(deep_base));
}

static void programs(char **envp)
{
	pid_t pid = fork();
	if (pid == 0) {
		char *argv[] = { "./copy", "exec-child", NULL };
		execve(argv[0], argv, envp);
		_exit(127);
	}
	show_status("execve(./copy, exec-child)", pid);
	char *argv[] = { "x", NULL };
	show("execve(a 0644 file)", execve("d/v", argv, envp));
	show("execve(a directory)", execve("d", argv, envp));
	show("execve(missing)", execve("missing", argv, envp));
	int fd = open("not-elf", O_WRONLY | O_CREAT, 0755);
	write(fd, "not a program\n", 14);
	close(fd);
	show("execve(an executable text file)", execve("not-elf", argv, envp));
}

int main(int argc, char **argv, char **envp)
{
	char buf[256];
	if (argc > 1 && strcmp(argv[1], "exec-child") == 0) {
		printf("files: exec'd from the copy, in %s\n", getcwd(buf, sizeof(buf)));
		return 3;
	}
	setvbuf(stdout, NULL, _IONBF, 0);     /* no buffered line may be copied by fork */
	umask(022);
	remove_tree(SCRATCH);                 /* a run that crashed may have left it */
	show("mkdir(" SCRATCH ")", mkdir(SCRATCH, 0755));
	copy_self(argv[0]);
	show("chdir(it)", chdir(SCRATCH));
	directories();
	regular_files();
	stat_calls();
	removing_and_renaming();
	listing_errors();
	working_directory();
	mappings();
	programs(envp);
	deep_directories();
	chdir("/");
	show("remove the scratch directory", remove_tree(SCRATCH));
	printf("files: done\n");
	return 0;
}
