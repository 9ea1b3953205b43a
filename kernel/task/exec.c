/*
 * exec: an ELF program from a file into a new address space, and the
 * initial stack the x86-64 System V ABI promises a new process. The file
 * is read whole into the kernel and checked (lib/elf.c) before anything
 * is mapped: one copy more than mapping the file's own pages would cost,
 * and no file can change under the check. The pages are filled through
 * the direct map, so the address space need not be the running one.
 *
 * A dynamically linked program names its interpreter (PT_INTERP), the
 * C library's dynamic loader, ld.so. That file is loaded the same way,
 * where mmap would put it, and the new process starts in it, not in the
 * program: the auxiliary vector on the stack tells it where the program's
 * headers are (AT_PHDR), where the program starts (AT_ENTRY) and where it
 * is itself (AT_BASE). ld.so then maps the libraries with mmap, relocates
 * them and the program, and jumps to AT_ENTRY (docs/userspace.md).
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
#include "kernel/task/signal/signal_frame.h"
#include "arch/x86_64/cpu.h"
#include "lib/elf.h"
#include "lib/string.h"

/* Where a position-independent program goes, static-pie or dynamic:
 * Linux's base for them with address randomization off, so that addresses
 * match a Linux session under `setarch -R`. */
#define DYN_BASE 0x555555554000ULL

#define STACK_MAPPED (16UL << 10)         /* the stack's top, mapped now; a fault below grows it */

/* The auxiliary vector's keys (Linux's <elf.h> values). */
enum {
	AT_NULL = 0, AT_PHDR = 3, AT_PHENT = 4, AT_PHNUM = 5, AT_PAGESZ = 6, AT_BASE = 7,
	AT_FLAGS = 8, AT_ENTRY = 9, AT_UID = 11, AT_EUID = 12, AT_GID = 13, AT_EGID = 14,
	AT_PLATFORM = 15, AT_HWCAP = 16, AT_CLKTCK = 17, AT_SECURE = 23, AT_RANDOM = 25,
	AT_HWCAP2 = 26, AT_EXECFN = 31, AT_SYSINFO_EHDR = 33, AT_MINSIGSTKSZ = 51,
};
#define AUXV_PAIRS 21                     /* the entries setup_stack() writes, AT_NULL included */

/* AT_PLATFORM: the machine's name, which ld.so's $PLATFORM expands to. */
static const char platform[] = "x86_64";

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
 * AT_EXECFN, the arguments, the environment, AT_PLATFORM's), AT_RANDOM's
 * 16 bytes, then from the stack pointer up: argc, argv[] and NULL, envp[]
 * and NULL, the auxiliary vector's (key, value) pairs ending with AT_NULL.
 * The ABI wants the stack pointer 16-byte aligned at the entry point;
 * padding between the pairs and the random bytes makes it so. interp_base
 * is where the interpreter was loaded (AT_BASE), 0 if none was.
 */
static int setup_stack(struct mm *mm, const struct elf_image *img, uint64_t interp_base, uint64_t vdso,
		       const char *path, const char *const argv[], const char *const envp[])
{
	size_t argc, envc;
	size_t path_bytes = strlen(path) + 1;
	size_t arg_bytes = strings_size(argv, &argc), env_bytes = strings_size(envp, &envc);
	if (path_bytes + arg_bytes + env_bytes > EXEC_ARGS_MAX)
		return -E2BIG;
	uint64_t strings = USER_STACK_TOP - path_bytes - arg_bytes - env_bytes - sizeof(platform);
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
	uint64_t platform_at = put(&w, platform, sizeof(platform));
	uint8_t seed[16];
	random_fill(seed, sizeof(seed));
	w.at = random;
	put(&w, seed, sizeof(seed));

	/* In Linux's order, which /proc/self/auxv dumps show. */
	const uint64_t auxv[AUXV_PAIRS][2] = {
		{ AT_SYSINFO_EHDR, vdso },       /* the vDSO's ELF header: kernel/mm/vdso.c */
		{ AT_MINSIGSTKSZ, signal_frame_size() },   /* the least an alternate signal stack needs */
		{ AT_HWCAP, cpuid(1, 0).edx },   /* as Linux: CPUID leaf 1's feature bits */
		{ AT_PAGESZ, PAGE_SIZE },
		{ AT_CLKTCK, 100 },              /* times()'s unit, Linux's USER_HZ, whatever hz= is */
		{ AT_PHDR, img->phdr_addr },     /* the C library finds its TLS template there, and
		                                    ld.so the program's dynamic section */
		{ AT_PHENT, sizeof(struct elf64_phdr) },
		{ AT_PHNUM, img->phnum },
		{ AT_BASE, interp_base },
		{ AT_FLAGS, 0 },                 /* none are defined */
		{ AT_ENTRY, img->entry },        /* the program's: an interpreter jumps there when done */
		{ AT_UID, 0 }, { AT_EUID, 0 }, { AT_GID, 0 }, { AT_EGID, 0 },   /* everyone is root */
		{ AT_SECURE, 0 },                /* no set-user-ID programs: ld.so may trust LD_* */
		{ AT_RANDOM, random },
		{ AT_HWCAP2, 0 },                /* Linux's bits: MONITOR in ring 3, FSGSBASE; leftmost
		                                    enables neither */
		{ AT_EXECFN, execfn },
		{ AT_PLATFORM, platform_at },
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
 * (empty: no program), -EFBIG (more than max bytes), -ENOMEM. */
static int read_program(struct inode *inode, uint64_t max, void **out, size_t *size)
{
	if (!inode_is_regular(inode) || !(inode->mode & 0111))
		return -EACCES;
	uint64_t pos = 0, want = ramfs_file_size(inode);
	if (want == 0)
		return -ENOEXEC;
	if (want > max)
		return -EFBIG;
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

/* The interpreter's file, checked (the checks are Linux's where Linux has
 * them), and placed in mm where mmap would put a mapping of its size: top
 * down below the vDSO, above the program's end. 0 and *interp, moved to
 * its place; or -ELIBBAD (the file is no interpreter: not ELF, not
 * position independent, ...; Linux's answer for the first of these). */
static int place_interpreter(struct mm *mm, const char *path, const char *interp_path, const void *file,
			     size_t size, uint64_t floor, struct elf_image *interp)
{
	/* Parsed once as if at 0 to learn its span, then again where it goes. */
	static const struct elf_bounds at_zero = { .dyn_base = 0, .low = 0, .high = USER_HEAP_END };
	int bad = elf_parse(file, size, &at_zero, interp);
	if (!bad)
		bad = elf_check_interpreter(interp);
	if (!bad) {
		uint64_t low = PAGE_ALIGN_DOWN(interp->segments[0].vaddr), span = elf_span(interp);
		/* Not below its link address (ld.so's is 0): the load bias is never negative. */
		uint64_t at = mm_find_free(mm, span, MAX(floor, low), USER_HEAP_END);
		if (!at)
			return -ENOMEM;
		const struct elf_bounds here = { .dyn_base = at - low, .low = at, .high = at + span };
		bad = elf_parse(file, size, &here, interp);
	}
	if (bad) {
		pr_info("exec: %s: interpreter %s: %s", path, interp_path, elf_strerror(bad));
		return -ELIBBAD;
	}
	return 0;
}

/* The interpreter that img, the program at path, names, loaded into mm:
 * 0 and *interp, or the errors of a path lookup (-ENOENT, -ENOTDIR...),
 * -EACCES (no execute bit), -ELIBBAD (not an interpreter), -ENOMEM. */
static int load_interpreter(struct mm *mm, struct inode *start, const char *path, const struct elf_image *img,
			    struct elf_image *interp)
{
	struct inode *inode;
	void *file = NULL;
	size_t size;
	int err = path_lookup(start, img->interp, &inode);   /* relative to the caller's cwd, as Linux */
	if (err)
		return err;
	err = read_program(inode, ELF_INTERP_MAX, &file, &size);
	inode_put(inode);
	if (err == -ENOEXEC || err == -EFBIG) {
		pr_info("exec: %s: interpreter %s: %s", path, img->interp,
			err == -EFBIG ? "a file of more than 16 MiB" : "an empty file");
		return -ELIBBAD;
	}
	if (!err)
		err = place_interpreter(mm, path, img->interp, file, size, PAGE_ALIGN_UP(img->end), interp);
	if (!err)
		err = load_segments(mm, file, interp);
	kfree(file);
	return err;
}

/* The program in file, checked and loaded into a new address space, with
 * its interpreter if it names one. */
static int load(struct inode *start, const char *path, const void *file, size_t size, const char *const argv[],
		const char *const envp[], struct mm **out)
{
	/* Programs and their heap stay below the stack and its guard gap. */
	static const struct elf_bounds bounds = { .dyn_base = DYN_BASE, .low = USER_BASE, .high = USER_HEAP_END };
	struct elf_image img, interp = { 0 };
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
	if (!err && img.interp)
		err = load_interpreter(mm, start, path, &img, &interp);
	if (!err)
		err = setup_stack(mm, &img, interp.load_bias, (uint64_t)vdso, path, argv, envp);
	if (err) {
		mm_destroy(mm);
		return err;
	}
	mm->entry = img.interp ? interp.entry : img.entry;
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
	err = read_program(inode, UINT64_MAX, &file, &size);
	inode_put(inode);
	if (!err)
		err = load(start, path, file, size, argv, envp, out);
	kfree(file);
	return err;
}
