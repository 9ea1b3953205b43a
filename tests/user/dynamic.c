/*
 * Dynamically linked programs: execve() loads the program's interpreter
 * (PT_INTERP) beside it, and the interpreter (musl's or glibc's ld.so)
 * loads the C library and starts the program. This program itself is
 * static; it runs the dynamic ones of tests/user/dyn/, built with musl and
 * with the host's glibc, and prints each line they print, prefixed. Then
 * copies of a dynamic program whose PT_INTERP names a broken interpreter:
 * execve() must fail with Linux's error, and the caller goes on.
 *
 * The programs are in dyn/ beside this one: /tests/dyn/ on leftmost,
 * build/user/tests/dyn/ on the host; their interpreters and libraries at
 * their usual paths on both (the Makefile packs them into the initramfs).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CASES_NAME "dynamic"
#include "cases.h"

static char dyn[PATH_MAX];                /* the dyn/ folder */
static char scratch[] = "/tmp/dynXXXXXX";   /* short: its paths must fit in a PT_INTERP */
static char *const env[] = { "PATH=/bin", NULL };

/* An execve() error's name: musl's strerror() has no text for ELIBBAD. */
static const char *errno_name(int err)
{
	switch (err) {
	case ENOENT: return "ENOENT";
	case EACCES: return "EACCES";
	case ENOEXEC: return "ENOEXEC";
	case ELIBBAD: return "ELIBBAD";
	case ENOMEM: return "ENOMEM";
	case EINVAL: return "EINVAL";
	case EIO: return "EIO";
	default: return strerror(err);
	}
}

/* Run argv[0] with argv, its output and errors through a pipe: each line
 * it prints as "dynamic: LABEL: line", then how it ended. A failed
 * execve() is printed by the child that made it, which then exits 127. */
static void run(const char *label, char *const argv[])
{
	int p[2];
	if (pipe(p) < 0)
		return;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		close(p[1]);
		execve(argv[0], argv, env);
		printf("execve = -1 (%s)\n", errno_name(errno));
		fflush(stdout);
		_exit(127);
	}
	close(p[1]);
	FILE *out = fdopen(p[0], "r");
	char line[512];
	while (out && fgets(line, sizeof(line), out))
		printf(CASES_NAME ": %s: %s%s", label, line, strchr(line, '\n') ? "" : "\n");
	if (out)
		fclose(out);
	show_status(label, pid);
}

static void run_program(const char *label, const char *name, const char *arg)
{
	char path[PATH_MAX + 32], argument[PATH_MAX + 32];
	snprintf(path, sizeof(path), "%s/%s", dyn, name);
	snprintf(argument, sizeof(argument), "%s/%s", dyn, arg ? arg : "");
	char *argv[] = { path, arg ? argument : NULL, NULL };
	run(label, argv);
}

/* The interpreter run as a program, loading the program itself. */
static void run_through_interpreter(const char *label, const char *interp, const char *name)
{
	char path[PATH_MAX + 32];
	snprintf(path, sizeof(path), "%s/%s", dyn, name);
	char *argv[] = { (char *)interp, path, NULL };
	run(label, argv);
}

/* A whole file in memory: its bytes (free them) and *size, or NULL. */
static unsigned char *slurp(const char *path, size_t *size)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	unsigned char *buf = malloc(st.st_size ? st.st_size : 1);
	size_t got = 0;
	long n;
	while (buf && got < (size_t)st.st_size && (n = read(fd, buf + got, st.st_size - got)) > 0)
		got += n;
	close(fd);
	*size = got;
	return buf;
}

static int spill(const char *path, const void *bytes, size_t size, mode_t mode)
{
	unlink(path);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode);
	if (fd < 0)
		return -1;
	long n = write(fd, bytes, size);
	close(fd);
	return n == (long)size ? 0 : -1;
}

/* The program's PT_INTERP header, or NULL. */
static Elf64_Phdr *interp_header(unsigned char *file, size_t size)
{
	Elf64_Ehdr *h = (Elf64_Ehdr *)file;
	if (size < sizeof(*h) || h->e_phoff + h->e_phnum * sizeof(Elf64_Phdr) > size)
		return NULL;
	Elf64_Phdr *ph = (Elf64_Phdr *)(file + h->e_phoff);
	for (int i = 0; i < h->e_phnum; i++)
		if (ph[i].p_type == PT_INTERP && ph[i].p_offset + ph[i].p_filesz <= size)
			return &ph[i];
	return NULL;
}

enum damage { NONE, UNTERMINATED, EMPTY, LONGER_THAN_PATH_MAX };

/* scratch/prog: a copy of program whose PT_INTERP names scratch/ld,
 * damaged as asked; then run it. */
static void run_copy(const char *label, const unsigned char *program, size_t size, enum damage damage)
{
	unsigned char *copy = malloc(size);
	memcpy(copy, program, size);
	Elf64_Phdr *ph = interp_header(copy, size);
	char *path = (char *)copy + ph->p_offset;
	memset(path, 0, ph->p_filesz);
	snprintf(path, ph->p_filesz, "%s/ld", scratch);
	if (damage == UNTERMINATED)
		memset(path, 'x', ph->p_filesz);
	if (damage == EMPTY)
		ph->p_filesz = 1;
	if (damage == LONGER_THAN_PATH_MAX)
		ph->p_filesz = PATH_MAX + 1;
	char prog[64];
	snprintf(prog, sizeof(prog), "%s/prog", scratch);
	if (spill(prog, copy, size, 0755) == 0) {
		char *argv[] = { prog, NULL };
		run(label, argv);
	}
	free(copy);
}

/* The broken interpreters, one at a time at scratch/ld. */
static void broken_interpreters(void)
{
	char program_path[PATH_MAX + 32], ld[64];
	snprintf(program_path, sizeof(program_path), "%s/musl-hello", dyn);
	size_t size, ld_size;
	unsigned char *program = slurp(program_path, &size);
	Elf64_Phdr *ph = program ? interp_header(program, size) : NULL;
	unsigned char *real = ph ? slurp((char *)program + ph->p_offset, &ld_size) : NULL;
	if (!real || !mkdtemp(scratch)) {
		printf(CASES_NAME ": the program, its interpreter or a scratch directory is missing\n");
		free(program);
		return;
	}
	snprintf(ld, sizeof(ld), "%s/ld", scratch);

	run_copy("a missing interpreter", program, size, NONE);
	spill(ld, real, ld_size, 0755);
	run_copy("a copy of the interpreter", program, size, NONE);
	run_copy("PT_INTERP without its NUL", program, size, UNTERMINATED);
	run_copy("PT_INTERP empty", program, size, EMPTY);
	run_copy("PT_INTERP longer than PATH_MAX", program, size, LONGER_THAN_PATH_MAX);
	spill(ld, real, ld_size, 0644);
	run_copy("an interpreter without execute permission", program, size, NONE);
	unlink(ld);
	mkdir(ld, 0755);
	run_copy("an interpreter that is a directory", program, size, NONE);
	rmdir(ld);
	char text[256];
	memset(text, '#', sizeof(text));
	spill(ld, text, sizeof(text), 0755);
	run_copy("an interpreter that is not ELF", program, size, NONE);
	((Elf64_Ehdr *)real)->e_machine = EM_386;
	spill(ld, real, ld_size, 0755);
	run_copy("an interpreter for another machine", program, size, NONE);

	char prog[64];
	snprintf(prog, sizeof(prog), "%s/prog", scratch);
	unlink(prog);
	unlink(ld);
	show("rmdir(the scratch directory)", rmdir(scratch));
	free(real);
	free(program);
}

int main(int argc, char **argv)
{
	(void)argc;
	const char *slash = strrchr(argv[0], '/');
	snprintf(dyn, sizeof(dyn), "%.*s/dyn", slash ? (int)(slash - argv[0]) : 1, slash ? argv[0] : ".");

	run_program("musl hello", "musl-hello", NULL);
	run_program("musl features", "musl-features", "musl-plugin.so");
	run_program("glibc hello", "glibc-hello", NULL);
	run_program("glibc features", "glibc-features", "glibc-plugin.so");
	run_through_interpreter("musl's interpreter run as a program", "/lib/ld-musl-x86_64.so.1", "musl-hello");
	run_through_interpreter("glibc's interpreter run as a program", "/lib64/ld-linux-x86-64.so.2", "glibc-hello");
	broken_interpreters();
	return 0;
}
