/*
 * A dynamically linked program that uses what programs use: the auxiliary
 * vector its loader read, malloc, printf, threads with thread-local
 * storage, and dlopen(). Built with musl and with glibc; every line it
 * prints is the same on Linux and leftmost (tests/user/dynamic.c compares
 * them), so it prints facts and comparisons, never addresses.
 *
 * Usage: features PLUGIN (the shared object to dlopen).
 */
#define _GNU_SOURCE                     /* glibc's dl_iterate_phdr() */
#include <cpuid.h>
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef AT_MINSIGSTKSZ
#define AT_MINSIGSTKSZ 51
#endif

extern void _start(void);               /* the program's entry (crt1's) */

static const Elf64_auxv_t *auxv;

/* The auxiliary vector follows the environment's NULL on the first stack. */
static void find_auxv(char **envp)
{
	while (*envp)
		envp++;
	auxv = (const Elf64_auxv_t *)(envp + 1);
}

/* The value the kernel gave for key; *found says whether it gave one. */
static unsigned long aux(unsigned long key, int *found)
{
	for (const Elf64_auxv_t *a = auxv; a->a_type != AT_NULL; a++) {
		if (a->a_type == key) {
			*found = 1;
			return a->a_un.a_val;
		}
	}
	*found = 0;
	return 0;
}

static void yes(const char *what, int cond)
{
	printf("%s: %s\n", what, cond ? "yes" : "no");
}

struct object_search {
	const char *name;                 /* the interpreter's path (PT_INTERP) */
	unsigned long interp_base;        /* where the loader says it is */
	const void *main_phdr;            /* the program's headers (the first object) */
	int seen;
};

static int visit(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	struct object_search *s = arg;
	if (s->seen++ == 0)
		s->main_phdr = info->dlpi_phdr;
	else if (info->dlpi_name && strcmp(info->dlpi_name, s->name) == 0)
		s->interp_base = info->dlpi_addr;
	return 0;
}

static void auxiliary_vector(const char *path)
{
	static const struct { unsigned long key; const char *name; } keys[] = {
		{ AT_PHDR, "AT_PHDR" }, { AT_PHENT, "AT_PHENT" }, { AT_PHNUM, "AT_PHNUM" },
		{ AT_PAGESZ, "AT_PAGESZ" }, { AT_BASE, "AT_BASE" }, { AT_FLAGS, "AT_FLAGS" },
		{ AT_ENTRY, "AT_ENTRY" }, { AT_UID, "AT_UID" }, { AT_EUID, "AT_EUID" },
		{ AT_GID, "AT_GID" }, { AT_EGID, "AT_EGID" }, { AT_SECURE, "AT_SECURE" },
		{ AT_RANDOM, "AT_RANDOM" }, { AT_HWCAP, "AT_HWCAP" }, { AT_HWCAP2, "AT_HWCAP2" },
		{ AT_CLKTCK, "AT_CLKTCK" }, { AT_PLATFORM, "AT_PLATFORM" }, { AT_EXECFN, "AT_EXECFN" },
		{ AT_SYSINFO_EHDR, "AT_SYSINFO_EHDR" }, { AT_MINSIGSTKSZ, "AT_MINSIGSTKSZ" },
	};
	int found;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		aux(keys[i].key, &found);
		printf("%s is given: %s\n", keys[i].name, found ? "yes" : "no");
	}
	printf("AT_PAGESZ = %lu\n", aux(AT_PAGESZ, &found));
	printf("AT_PHENT = %lu\n", aux(AT_PHENT, &found));
	printf("AT_FLAGS = %lu\n", aux(AT_FLAGS, &found));
	printf("AT_CLKTCK = %lu\n", aux(AT_CLKTCK, &found));
	printf("AT_SECURE = %lu\n", aux(AT_SECURE, &found));
	printf("AT_PLATFORM = %s\n", (const char *)aux(AT_PLATFORM, &found));
	yes("AT_UID, AT_EUID, AT_GID, AT_EGID are getuid(), geteuid(), getgid(), getegid()",
	    aux(AT_UID, &found) == getuid() && aux(AT_EUID, &found) == geteuid() &&
	    aux(AT_GID, &found) == getgid() && aux(AT_EGID, &found) == getegid());
	yes("AT_EXECFN is the path execve() was given", strcmp((const char *)aux(AT_EXECFN, &found), path) == 0);
	yes("AT_ENTRY is the program's _start", aux(AT_ENTRY, &found) == (unsigned long)_start);
	unsigned a, b, c, d;
	__cpuid(1, a, b, c, d);
	unsigned long hwcap = aux(AT_HWCAP, &found);   /* a kernel may clear bits it does not offer */
	yes("AT_HWCAP is CPUID leaf 1's EDX, or some of it", hwcap != 0 && (hwcap & ~(unsigned long)d) == 0);
	yes("AT_HWCAP2 holds no bit but RING3MWAIT and FSGSBASE", (aux(AT_HWCAP2, &found) & ~3UL) == 0);
	yes("AT_MINSIGSTKSZ is not 0", aux(AT_MINSIGSTKSZ, &found) != 0);
	yes("AT_RANDOM is not NULL", aux(AT_RANDOM, &found) != 0);
	yes("AT_SYSINFO_EHDR is an ELF image", memcmp((const void *)aux(AT_SYSINFO_EHDR, &found), ELFMAG, SELFMAG) == 0);

	/* The loader's own view: the program's headers are at AT_PHDR, and the
	 * interpreter, known by the path in the program's PT_INTERP, at AT_BASE. */
	const Elf64_Phdr *ph = (const Elf64_Phdr *)aux(AT_PHDR, &found);
	unsigned long phnum = aux(AT_PHNUM, &found), bias = 0;
	const char *interp = NULL;
	for (unsigned long i = 0; i < phnum; i++)
		if (ph[i].p_type == PT_PHDR)
			bias = (unsigned long)ph - ph[i].p_vaddr;
	for (unsigned long i = 0; i < phnum; i++)
		if (ph[i].p_type == PT_INTERP)
			interp = (const char *)(bias + ph[i].p_vaddr);
	printf("PT_INTERP = %s\n", interp ? interp : "(none)");
	struct object_search s = { .name = interp ? interp : "" };
	dl_iterate_phdr(visit, &s);
	yes("AT_PHDR is where the loader found the program's headers", s.main_phdr == ph);
	yes("AT_BASE is not 0", aux(AT_BASE, &found) != 0);
	yes("AT_BASE is where the loader says the interpreter is", s.interp_base == aux(AT_BASE, &found));
}

static void heap(void)
{
	enum { N = 2000 };
	static unsigned char *blocks[N];
	int good = 1;
	for (int i = 0; i < N; i++) {
		size_t size = 1 + (size_t)(i * 37) % 5000;
		blocks[i] = malloc(size);
		if (!blocks[i]) {
			good = 0;
			break;
		}
		memset(blocks[i], i & 0xff, size);
	}
	for (int i = 0; good && i < N; i++) {
		size_t size = 1 + (size_t)(i * 37) % 5000;
		for (size_t j = 0; j < size; j += 97)
			good &= blocks[i][j] == (i & 0xff);
		if (i % 2)
			free(blocks[i]), blocks[i] = NULL;
	}
	char *big = malloc(8 << 20);      /* beyond the heap's threshold: its own mapping */
	if (big) {
		memset(big, 1, 8 << 20);
		good &= big[(8 << 20) - 1] == 1;
	}
	free(big);
	for (int i = 0; i < N; i++)
		free(blocks[i]);
	yes("malloc: 2000 blocks and one of 8 MiB, written and read back", good && big);
}

static __thread int per_thread = 7;      /* thread-local: each thread has its own */

static void *worker(void *arg)
{
	long n = (long)arg;
	per_thread += (int)n;
	long sum = 0;
	for (long i = 1; i <= 1000 * n; i++)
		sum += i;
	return (void *)(sum + per_thread);
}

static void threads(void)
{
	pthread_t t[4];
	long total = 0;
	int made = 0;
	for (long i = 0; i < 4; i++)
		made += pthread_create(&t[i], NULL, worker, (void *)(i + 1)) == 0;
	for (int i = 0; i < made; i++) {
		void *ret;
		pthread_join(t[i], &ret);
		total += (long)ret;
	}
	printf("threads: %d made, their results sum to %ld, the main thread's variable is still %d\n",
	       made, total, per_thread);
}

static void plugin(const char *path)
{
	void *h = dlopen(path, RTLD_NOW);
	if (!h) {
		printf("dlopen: failed\n");
		return;
	}
	int (*answer)(char *, size_t, int) = (int (*)(char *, size_t, int))dlsym(h, "plugin_answer");
	char buf[80] = "";
	if (answer)
		answer(buf, sizeof(buf), 7);
	printf("dlopen: %s\n", answer ? buf : "no plugin_answer");
	printf("dlsym(no_such_symbol) is NULL: %s\n", dlsym(h, "no_such_symbol") ? "no" : "yes");
	printf("dlclose = %d\n", dlclose(h));
}

int main(int argc, char **argv, char **envp)
{
	find_auxv(envp);
	if (argc != 2) {
		fprintf(stderr, "usage: features PLUGIN\n");
		return 2;
	}
	auxiliary_vector(argv[0]);
	heap();
	printf("printf: [%5.2f] [%-6s] [%#x] [%+d] [%e]\n", 3.14159, "left", 255, 42, 12345.678);
	threads();
	plugin(argv[1]);
	return 0;
}
