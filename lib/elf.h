/*
 * ELF64 executables for x86-64: check one completely before anything is
 * loaded, and describe what to load where. Pure code, no memory is touched
 * but the file's own bytes (host-tested in tests/host/elf_test.c).
 *
 * A program is ET_EXEC (at its own addresses) or ET_DYN (position
 * independent, moved by a load bias). A dynamically linked one names its
 * interpreter, the dynamic loader, in PT_INTERP; the interpreter is an
 * ET_DYN file of its own, checked here too (elf_check_interpreter). The
 * file may sit at any alignment (an initramfs packs files on 4-byte
 * boundaries).
 */
#ifndef LIB_ELF_H
#define LIB_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The file's own structures, as the ELF-64 specification lays them out. */
struct elf64_header {
	uint8_t ident[16];                /* magic, class, data encoding, version, ABI */
	uint16_t type, machine;
	uint32_t version;
	uint64_t entry, phoff, shoff;
	uint32_t flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct elf64_phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, paddr, filesz, memsz, align;
};

enum { ET_EXEC = 2, ET_DYN = 3, EM_X86_64 = 62 };
enum { PT_LOAD = 1, PT_INTERP = 3, PT_PHDR = 6, PT_GNU_STACK = 0x6474e551 };
enum { PF_X = 1, PF_W = 2, PF_R = 4 };

#define ELF_PAGE_SIZE    4096ULL
#define ELF_MAX_PHDRS    64           /* more in one program is a broken file */
#define ELF_MAX_SEGMENTS 16           /* PT_LOADs: a linker makes four or five */
#define ELF_INTERP_PATH_MAX 4096      /* PT_INTERP's bytes, its NUL included (Linux's PATH_MAX) */
#define ELF_INTERP_MAX (16ULL << 20)  /* an interpreter's file and its memory image, at most:
                                         ld.so is 0.2 MiB (glibc's) to 0.7 MiB (musl's, all of libc) */

/* Where programs may go: the caller's address-space layout. */
struct elf_bounds {
	uint64_t dyn_base;                /* an ET_DYN program is loaded this much higher */
	uint64_t low, high;               /* every segment inside [low, high) */
};

/* One PT_LOAD, already moved by the load bias. */
struct elf_segment {
	uint64_t vaddr, memsz;            /* its memory: [vaddr, vaddr + memsz) */
	uint64_t offset, filesz;          /* the first filesz bytes come from the file at offset;
	                                     the rest is zero */
	uint32_t flags;                   /* PF_R, PF_W, PF_X */
};

struct elf_image {
	uint16_t type;                    /* ET_EXEC or ET_DYN */
	const char *interp;               /* PT_INTERP: the interpreter's path, NUL-terminated, in
	                                     the file's bytes; NULL for a static program */
	uint64_t entry;                   /* where it starts */
	uint64_t load_bias;               /* added to every address in the file (0 for ET_EXEC) */
	uint64_t phdr_addr;               /* its program headers in memory (for AT_PHDR); 0 if no
	                                     segment loads them */
	uint16_t phnum;
	uint64_t end;                     /* the first byte after the highest segment */
	bool exec_stack;                  /* PT_GNU_STACK asks for an executable stack */
	int nsegments;
	struct elf_segment segments[ELF_MAX_SEGMENTS];   /* in address order */
};

enum elf_error {
	ELF_OK = 0,
	ELF_TRUNCATED = -1,               /* shorter than its headers say */
	ELF_NOT_ELF = -2,                 /* no ELF magic */
	ELF_WRONG_KIND = -3,              /* not 64-bit little-endian x86-64, version 1 */
	ELF_WRONG_TYPE = -4,              /* neither ET_EXEC nor ET_DYN */
	ELF_BAD_PHDRS = -5,               /* program header table size or count */
	ELF_BAD_INTERP = -6,              /* PT_INTERP not 2 to ELF_INTERP_PATH_MAX bytes inside
	                                     the file ending in a NUL, or a second one */
	ELF_BAD_SEGMENT = -7,             /* filesz > memsz, outside the file, or vaddr and
	                                     offset differ within a page */
	ELF_OUT_OF_BOUNDS = -8,           /* a segment outside [low, high), or wrapping around */
	ELF_OVERLAP = -9,                 /* two segments share a page, or are out of order */
	ELF_BAD_ENTRY = -10,              /* the entry is not in an executable segment */
	ELF_NO_SEGMENTS = -11,            /* nothing to load, or more than ELF_MAX_SEGMENTS */
	/* elf_check_interpreter()'s: */
	ELF_INTERP_NOT_DYN = -12,         /* an interpreter must be position independent */
	ELF_INTERP_NESTED = -13,          /* it has a PT_INTERP of its own */
	ELF_INTERP_TOO_BIG = -14,         /* its segments span more than ELF_INTERP_MAX */
};

/* Check the size bytes at file and describe them in *img. ELF_OK, or the
 * first defect found (*img is then incomplete). */
int elf_parse(const void *file, size_t size, const struct elf_bounds *bounds, struct elf_image *img);

/* Can img, parsed as above, be a program's interpreter? An ET_DYN file
 * without PT_INTERP whose image spans ELF_INTERP_MAX at most: ELF_OK, or
 * ELF_INTERP_NOT_DYN, ELF_INTERP_NESTED, ELF_INTERP_TOO_BIG. */
int elf_check_interpreter(const struct elf_image *img);

/* The bytes from the first page of img's lowest segment to the end of the
 * page of its highest: the room it takes in an address space. */
uint64_t elf_span(const struct elf_image *img);

/* What an enum elf_error means, for a message. */
const char *elf_strerror(int error);

#endif
