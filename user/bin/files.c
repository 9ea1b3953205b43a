/* A program reads its own file: open, read, lseek, pread, readv, fstat and
 * stat, and the errors Linux gives. Each line says what was tried and
 * whether it went as on Linux, where this program gives the same output. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

static int failures;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAILED", what);
	failures += !ok;
}

int main(int argc, char **argv)
{
	(void)argc;
	char magic[4], elf[3], first[2], rest[2];
	struct stat st, by_name;

	int fd = open(argv[0], O_RDONLY);
	check(fd == 3, "open the program's own file: descriptor 3");
	check(read(fd, magic, 4) == 4 && memcmp(magic, "\177ELF", 4) == 0, "it starts with \\177ELF");
	check(fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 4, "fstat: a regular file");
	check(stat(argv[0], &by_name) == 0 && by_name.st_size == st.st_size, "stat by name: the same size");
	check(lseek(fd, 0, SEEK_END) == st.st_size, "lseek to the end gives the size");
	check(read(fd, magic, 4) == 0, "a read there finds the end");
	check(pread(fd, elf, 3, 1) == 3 && memcmp(elf, "ELF", 3) == 0,
	      "pread at 1 reads ELF, wherever the offset is");
	lseek(fd, 0, SEEK_SET);
	struct iovec iov[] = { { first, sizeof(first) }, { NULL, 0 }, { rest, sizeof(rest) } };
	check(readv(fd, iov, 3) == 4 && memcmp(first, "\177E", 2) == 0 && memcmp(rest, "LF", 2) == 0,
	      "readv spreads the first 4 bytes over two buffers");
	check(read(fd, (void *)8, 4) == -1 && errno == EFAULT, "a read into a bad pointer says EFAULT");
	check(lseek(fd, -1, SEEK_SET) == -1 && errno == EINVAL, "lseek before the start says EINVAL");
	check(write(fd, "x", 1) == -1 && errno == EBADF, "writing to a file opened read-only says EBADF");
	close(fd);

	check(open("/bin/no-such-file", O_RDONLY) == -1 && errno == ENOENT, "a missing file says ENOENT");
	check(open(argv[0], O_CREAT | O_EXCL | O_WRONLY, 0644) == -1 && errno == EEXIST,
	      "O_CREAT | O_EXCL on it says EEXIST");
	check(lseek(1, 0, SEEK_CUR) == -1 && errno == ESPIPE, "the terminal cannot seek: ESPIPE");
	check(isatty(1), "stdout is a terminal");

	printf("files: %s\n", failures ? "FAILED" : "all passed");
	return failures != 0;
}
