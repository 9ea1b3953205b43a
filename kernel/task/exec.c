/*
 * exec: a static ELF program from a file into a new address space, and
 * the initial stack the x86-64 System V ABI promises a new process. The
 * file is read whole into the kernel and checked (lib/elf.c) before
 * anything is mapped: one copy more than mapping the file's own pages
 * would cost, and no file can change under the check. The pages are
 * filled through the direct map, so the address space need not be the
 * running one.
 */
#include "kernel/task/exec.h"
#include "kernel/mm/vdso.h"
#include "kernel/random.h"
#include "kernel/fs/path_walk.h"
#include "kernel/fs/ramfs/ramfs.h"
#include "kernel/fs/ramfs/ramfs_file.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "arch/x86_64/cpu.h"
#include "lib/elf.h"
#include "lib/string.h"

/* Where a static-pie program goes: Linux's base for position-independent
 * programs with address randomization off, so that addresses match a Linux
 * session under `setarch -R`. */
#define DYN_BASE 0x555555554000ULL

#define STACK_MAPPED (16UL << 10)         /* the stack's top, mapped now; a fault below grows it */

/* The auxiliary vector's keys (Linux's <elf.h> values). */
enum {
	AT_NULL = 0, AT_PHDR = 3, AT_PHENT = 4, AT_PHNUM = 5, AT_PAGESZ = 6, AT_BASE = 7,
	AT_ENTRY = 9, AT_UID = 11, AT_EUID = 12, AT_GID = 13, AT_EGID = 14, AT_HWCAP = 16,
	AT_CLKTCK = 17, AT_SECURE = 23, AT_RANDOM = 25, AT_EXECFN = 31, AT_SYSINFO_EHDR = 33,
};
#define AUXV_PAIRS 17                     /* the entries setup_stack() writes, AT_NULL included */

static int prot_of(uint32_t flags)
{
	return (flags & PF_R ? PROT_READ : 0) | (flags & PF_W ? PROT_WRITE : 0) |
	       (flags & PF_X ? PROT_EXEC : 0);
}

/* Each segment on fresh zeroed pages, its file bytes copied in: the rest of
 * its pages, the bss included, stays zero. */
static int load_segments(struct mm *mm, const uint8_t *file, const struct elf_image *img)
{
	for (int i = 0; i < img->nsegments; i++) {
		const struct elf_segment *s = &img->segments[i];
		uint64_t start = PAGE_ALIGN_DOWN(s->vaddr), end = PAGE_ALIGN_UP(s->vaddr + s->memsz);
		int err = mm_map_anon(mm, start, end - start, prot_of(s->flags));
		if (!err)
			err = mm_write(mm, s->vaddr, file + s->offset, s->filesz);
		if (err)
			return err;
	}
	return 0;
}

/* The bytes the strings of v take, NULs included, and how many there are;
 * counting stops once past EXEC_ARGS_MAX. */
static size_t strings_size(const char *const v[], size_t *count)
{
	size_t bytes = 0, n = 0;
	while (v && v[n] && bytes <= EXEC_ARGS_MAX)
		bytes += strlen(v[n++]) + 1;
	*count = n;
	return bytes;
}

/* Writes into the new stack upward from `at`; the first failure sticks. */
struct stack_writer {
	struct mm *mm;
	uint64_t at;
	int err;
};

static uint64_t put(struct stack_writer *w, const void *src, size_t len)
{
	uint64_t addr = w->at;
	if (!w->err)
		w->err = mm_write(w->mm, addr, src, len);
	w->at += len;
	return addr;
}

static void put_word(struct stack_writer *w, uint64_t value)
{
	put(w, &value, sizeof(value));
}

static void put_strings(struct stack_writer *w, const char *const v[], size_t count)
{
	for (size_t i = 0; i < count; i++)
		put(w, v[i], strlen(v[i]) + 1);
}

/* Pointers to the strings put_strings() wrote from `first` on, then NULL. */
static void put_pointers(struct stack_writer *w, uint64_t first, const char *const v[], size_t count)
{
	for (size_t i = 0; i < count; i++) {
		put_word(w, first);
		first += strlen(v[i]) + 1;
	}
	put_word(w, 0);
}

/*
 * The stack a new process starts on, top down: the strings (the path for
 * AT_EXECFN, the arguments, the environment), AT_RANDOM's 16 bytes, then
 * from the stack pointer up: argc, argv[] and NULL, envp[] and NULL, the
 * auxiliary vector's (key, value) pairs ending with AT_NULL. The ABI wants
 * the stack pointer 16-byte aligned at the entry point; padding between the
 * pairs and the random bytes makes it so.
 */
static int setup_stack(struct mm *mm, const struct elf_image *img, uint64_t vdso, const char *path,
		       const char *const argv[], const char *const envp[])
{
	size_t argc, envc;
	size_t path_bytes = strlen(path) + 1;
	size_t arg_bytes = strings_size(argv, &argc), env_bytes = strings_size(envp, &envc);
	if (path_bytes + arg_bytes + env_bytes > EXEC_ARGS_MAX)
		return -E2BIG;
	uint64_t strings = USER_STACK_TOP - path_bytes - arg_bytes - env_bytes;
	uint64_t random = (strings - 16) & ~15ULL;
	size_t words = 1 + (argc + 1) + (envc + 1) + 2 * AUXV_PAIRS;
	uint64_t sp = (random - 8 * words) & ~15ULL;
	if (USER_STACK_TOP - sp > EXEC_ARGS_MAX)
		return -E2BIG;

	int prot = PROT_READ | PROT_WRITE | (img->exec_stack ? PROT_EXEC : 0);
	uint64_t mapped = MAX(STACK_MAPPED, PAGE_ALIGN_UP(USER_STACK_TOP - sp));   /* what is written now */
	int err = mm_map(mm, USER_STACK_TOP - mapped, mapped, prot, MM_GROWSDOWN);
	if (err)
		return err;

	struct stack_writer w = { .mm = mm, .at = strings };
	uint64_t execfn = put(&w, path, path_bytes);
	put_strings(&w, argv, argc);
	put_strings(&w, envp, envc);
	uint8_t seed[16];
	random_fill(seed, sizeof(seed));
	w.at = random;
	put(&w, seed, sizeof(seed));

	const uint64_t auxv[AUXV_PAIRS][2] = {
		{ AT_PHDR, img->phdr_addr },     /* the C library finds its TLS template there */
		{ AT_PHENT, sizeof(struct elf64_phdr) },
		{ AT_PHNUM, img->phnum },
		{ AT_PAGESZ, PAGE_SIZE },
		{ AT_BASE, 0 },                  /* no interpreter was loaded */
		{ AT_ENTRY, img->entry },
		{ AT_UID, 0 }, { AT_EUID, 0 }, { AT_GID, 0 }, { AT_EGID, 0 },   /* everyone is root */
		{ AT_SECURE, 0 },
		{ AT_RANDOM, random },
		{ AT_HWCAP, cpuid(1, 0).edx },   /* as Linux: CPUID leaf 1's feature bits */
		{ AT_CLKTCK, 100 },              /* times()'s unit, Linux's USER_HZ, whatever hz= is */
		{ AT_EXECFN, execfn },
		{ AT_SYSINFO_EHDR, vdso },       /* the vDSO's ELF header: kernel/mm/vdso.c */
		{ AT_NULL, 0 },
	};
	w.at = sp;
	put_word(&w, argc);
	put_pointers(&w, execfn + path_bytes, argv, argc);
	put_pointers(&w, execfn + path_bytes + arg_bytes, envp, envc);
	put(&w, auxv, sizeof(auxv));
	mm->start_stack = sp;
	return w.err;
}

/* The program's bytes, read whole: 0 and *out (kfree it) with *size, or
 * -EACCES (not a regular file with an execute bit, as Linux), -ENOEXEC
 * (empty: no program), -ENOMEM. */
static int read_program(struct inode *inode, void **out, size_t *size)
{
	if (!inode_is_regular(inode) || !(inode->mode & 0111))
		return -EACCES;
	uint64_t pos = 0, want = ramfs_file_size(inode);
	if (want == 0)
		return -ENOEXEC;
	void *buf = kmalloc(want);
	if (!buf)
		return -ENOMEM;
	struct io_cursor c;
	io_cursor_kernel(&c, buf, want);
	long got = ramfs_file_read(inode, &c, &pos);   /* less if it shrank meanwhile */
	*out = buf;
	*size = got > 0 ? (size_t)got : 0;
	return 0;
}

/* The program in file, checked and loaded into a new address space. */
static int load(const char *path, const void *file, size_t size, const char *const argv[],
		const char *const envp[], struct mm **out)
{
	/* Programs and their heap stay below the stack and its guard gap. */
	static const struct elf_bounds bounds = { .dyn_base = DYN_BASE, .low = USER_BASE, .high = USER_HEAP_END };
	struct elf_image img;
	int err = elf_parse(file, size, &bounds, &img);
	if (err) {
		pr_info("exec: %s: %s", path, elf_strerror(err));
		return -ENOEXEC;
	}
	struct mm *mm = mm_create();
	if (!mm)
		return -ENOMEM;
	err = load_segments(mm, file, &img);
	int64_t vdso = err ? err : vdso_map(mm);
	if (vdso < 0)
		err = (int)vdso;
	else
		err = setup_stack(mm, &img, (uint64_t)vdso, path, argv, envp);
	if (err) {
		mm_destroy(mm);
		return err;
	}
	mm->entry = img.entry;
	mm->brk_start = mm->brk = mm->brk_mapped = PAGE_ALIGN_UP(img.end);
	*out = mm;
	return 0;
}

int exec_load(struct inode *start, const char *path, const char *const argv[], const char *const envp[],
	      struct mm **out)
{
	struct inode *inode;
	void *file = NULL;
	size_t size;
	int err = path_lookup(start, path, &inode);
	if (err)
		return err;
	err = read_program(inode, &file, &size);
	inode_put(inode);
	if (!err)
		err = load(path, file, size, argv, envp, out);
	kfree(file);
	return err;
}
