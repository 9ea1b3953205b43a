/* lib/elf.c: a good program is described exactly; each defect is named. */
#include "tests/host/lib.h"
#include "lib/elf.h"
#include "tests/host/test.h"

#include <stdlib.h>
#include <string.h>

static const struct elf_bounds bounds = {
	.dyn_base = 0x555555554000, .low = 0x10000, .high = 0x7fff00000000,
};

/* A small static program as a linker lays it out: the headers in a
 * read-only segment, then text, then data with a bss tail, then the stack note. */
#define FILE_SIZE 0x2010
enum { SEG_HEADERS, SEG_TEXT, SEG_DATA, STACK_NOTE, NPHDRS };

struct program {
	uint8_t bytes[FILE_SIZE];
	struct elf64_header *h;
	struct elf64_phdr *ph;
};

static void make_program(struct program *p, uint16_t type, uint64_t base)
{
	memset(p->bytes, 0xcc, sizeof(p->bytes));
	p->h = (struct elf64_header *)p->bytes;
	p->ph = (struct elf64_phdr *)(p->bytes + sizeof(*p->h));
	*p->h = (struct elf64_header){
		.ident = { 0x7f, 'E', 'L', 'F', 2, 1, 1 },
		.type = type, .machine = EM_X86_64, .version = 1,
		.entry = base + 0x1010, .phoff = sizeof(*p->h),
		.ehsize = sizeof(*p->h), .phentsize = sizeof(*p->ph), .phnum = NPHDRS,
	};
	p->ph[SEG_HEADERS] = (struct elf64_phdr){ .type = PT_LOAD, .flags = PF_R, .offset = 0,
		.vaddr = base, .filesz = 0x200, .memsz = 0x200, .align = 0x1000 };
	p->ph[SEG_TEXT] = (struct elf64_phdr){ .type = PT_LOAD, .flags = PF_R | PF_X, .offset = 0x1000,
		.vaddr = base + 0x1000, .filesz = 0x800, .memsz = 0x800, .align = 0x1000 };
	p->ph[SEG_DATA] = (struct elf64_phdr){ .type = PT_LOAD, .flags = PF_R | PF_W, .offset = 0x1ff0,
		.vaddr = base + 0x2ff0, .filesz = 0x20, .memsz = 0x3000, .align = 0x1000 };
	p->ph[STACK_NOTE] = (struct elf64_phdr){ .type = PT_GNU_STACK, .flags = PF_R | PF_W };
}

static int parse(struct program *p, struct elf_image *img)
{
	return elf_parse(p->bytes, sizeof(p->bytes), &bounds, img);
}

/* Make the stack note a PT_INTERP naming path, which goes after the
 * program headers, in the first segment, as a linker puts it. */
#define INTERP_AT 0x180
static void add_interp(struct program *p, const char *path)
{
	size_t len = strlen(path) + 1;
	memcpy(p->bytes + INTERP_AT, path, len);
	p->ph[STACK_NOTE] = (struct elf64_phdr){ .type = PT_INTERP, .flags = PF_R, .offset = INTERP_AT,
		.vaddr = p->ph[SEG_HEADERS].vaddr + INTERP_AT, .filesz = len, .memsz = len, .align = 1 };
}

TEST(elf_static_program_is_described)
{
	struct program p;
	struct elf_image img;
	make_program(&p, ET_EXEC, 0x400000);
	EXPECT_EQ_INT(parse(&p, &img), ELF_OK);
	EXPECT_EQ_UINT(img.entry, 0x401010);
	EXPECT_EQ_UINT(img.load_bias, 0);
	EXPECT_EQ_UINT(img.phdr_addr, 0x400040);
	EXPECT_EQ_INT(img.phnum, NPHDRS);
	EXPECT_EQ_UINT(img.end, 0x402ff0 + 0x3000);
	EXPECT(!img.exec_stack);
	EXPECT_EQ_INT(img.nsegments, 3);
	EXPECT_EQ_UINT(img.segments[2].vaddr, 0x402ff0);
	EXPECT_EQ_UINT(img.segments[2].offset, 0x1ff0);
	EXPECT_EQ_UINT(img.segments[2].filesz, 0x20);
	EXPECT_EQ_UINT(img.segments[2].memsz, 0x3000);
	EXPECT_EQ_UINT(img.segments[2].flags, PF_R | PF_W);
	EXPECT_EQ_UINT(img.segments[1].flags, PF_R | PF_X);
}

TEST(elf_static_pie_is_moved_to_the_base)
{
	struct program p;
	struct elf_image img;
	make_program(&p, ET_DYN, 0);
	EXPECT_EQ_INT(parse(&p, &img), ELF_OK);
	EXPECT_EQ_UINT(img.load_bias, bounds.dyn_base);
	EXPECT_EQ_UINT(img.entry, bounds.dyn_base + 0x1010);
	EXPECT_EQ_UINT(img.phdr_addr, bounds.dyn_base + 0x40);
	EXPECT_EQ_UINT(img.segments[0].vaddr, bounds.dyn_base);
	EXPECT_EQ_UINT(img.segments[0].offset, 0);
}

TEST(elf_unaligned_file_is_read)
{
	static uint8_t shifted[FILE_SIZE + 1];
	struct program p;
	struct elf_image img;
	make_program(&p, ET_EXEC, 0x400000);
	memcpy(shifted + 1, p.bytes, sizeof(p.bytes));
	EXPECT_EQ_INT(elf_parse(shifted + 1, sizeof(p.bytes), &bounds, &img), ELF_OK);
	EXPECT_EQ_UINT(img.entry, 0x401010);
}

TEST(elf_stack_note_and_empty_segments)
{
	struct program p;
	struct elf_image img;
	make_program(&p, ET_EXEC, 0x400000);
	p.ph[STACK_NOTE].flags |= PF_X;
	p.ph[SEG_HEADERS].memsz = p.ph[SEG_HEADERS].filesz = 0;   /* nothing to load: skipped */
	EXPECT_EQ_INT(parse(&p, &img), ELF_OK);
	EXPECT(img.exec_stack);
	EXPECT_EQ_INT(img.nsegments, 2);
	EXPECT_EQ_UINT(img.phdr_addr, 0);                        /* no segment loads the headers */
}

/* Each defect, one at a time, in an otherwise good program. */
TEST(elf_header_defects)
{
	struct program p;
	struct elf_image img;

	make_program(&p, ET_EXEC, 0x400000);
	p.h->ident[1] = 'e';
	EXPECT_EQ_INT(parse(&p, &img), ELF_NOT_ELF);
	make_program(&p, ET_EXEC, 0x400000);
	p.h->ident[4] = 1;                                         /* 32-bit */
	EXPECT_EQ_INT(parse(&p, &img), ELF_WRONG_KIND);
	make_program(&p, ET_EXEC, 0x400000);
	p.h->ident[5] = 2;                                         /* big-endian */
	EXPECT_EQ_INT(parse(&p, &img), ELF_WRONG_KIND);
	make_program(&p, ET_EXEC, 0x400000);
	p.h->machine = 183;                                        /* AArch64 */
	EXPECT_EQ_INT(parse(&p, &img), ELF_WRONG_KIND);
	make_program(&p, ET_EXEC, 0x400000);
	p.h->version = 0;
	EXPECT_EQ_INT(parse(&p, &img), ELF_WRONG_KIND);
	make_program(&p, 1, 0x400000);                             /* ET_REL: an object file */
	EXPECT_EQ_INT(parse(&p, &img), ELF_WRONG_TYPE);
	make_program(&p, ET_EXEC, 0x400000);
	p.h->phentsize = 32;
	EXPECT_EQ_INT(parse(&p, &img), ELF_BAD_PHDRS);
	make_program(&p, ET_EXEC, 0x400000);
	p.h->phnum = 0;
	EXPECT_EQ_INT(parse(&p, &img), ELF_BAD_PHDRS);
	make_program(&p, ET_EXEC, 0x400000);
	p.h->phnum = ELF_MAX_PHDRS + 1;
	EXPECT_EQ_INT(parse(&p, &img), ELF_BAD_PHDRS);
	make_program(&p, ET_EXEC, 0x400000);
	p.h->phoff = FILE_SIZE - sizeof(struct elf64_phdr);
	EXPECT_EQ_INT(parse(&p, &img), ELF_TRUNCATED);
	make_program(&p, ET_EXEC, 0x400000);
	p.h->phoff = UINT64_MAX - 8;                               /* would wrap around */
	EXPECT_EQ_INT(parse(&p, &img), ELF_TRUNCATED);
}

TEST(elf_segment_defects)
{
	struct program p;
	struct elf_image img;

	make_program(&p, ET_EXEC, 0x400000);
	p.ph[SEG_DATA].filesz = p.ph[SEG_DATA].memsz + 1;
	EXPECT_EQ_INT(parse(&p, &img), ELF_BAD_SEGMENT);
	make_program(&p, ET_EXEC, 0x400000);
	p.ph[SEG_DATA].filesz = 0x21;                              /* one byte past the end */
	EXPECT_EQ_INT(parse(&p, &img), ELF_BAD_SEGMENT);
	make_program(&p, ET_EXEC, 0x400000);
	p.ph[SEG_DATA].offset = UINT64_MAX - 0x10;
	EXPECT_EQ_INT(parse(&p, &img), ELF_BAD_SEGMENT);
	make_program(&p, ET_EXEC, 0x400000);
	p.ph[SEG_DATA].vaddr += 8;                                 /* no longer page-compatible */
	EXPECT_EQ_INT(parse(&p, &img), ELF_BAD_SEGMENT);
	make_program(&p, ET_EXEC, 0x400000);
	p.ph[SEG_DATA].memsz = 0x7fff00000000 - 0x402ff0 + 1;      /* past the top */
	EXPECT_EQ_INT(parse(&p, &img), ELF_OUT_OF_BOUNDS);
	make_program(&p, ET_EXEC, 0x400000);
	p.ph[SEG_DATA].memsz = UINT64_MAX - 0x1000;                /* wraps around */
	EXPECT_EQ_INT(parse(&p, &img), ELF_OUT_OF_BOUNDS);
	make_program(&p, ET_EXEC, 0x1000);                         /* below the lowest address */
	EXPECT_EQ_INT(parse(&p, &img), ELF_OUT_OF_BOUNDS);
	make_program(&p, ET_EXEC, 0xffff800000000000);             /* the kernel's half */
	EXPECT_EQ_INT(parse(&p, &img), ELF_OUT_OF_BOUNDS);
	make_program(&p, ET_DYN, 0xfffffffffff00000);             /* wraps with the load bias */
	EXPECT_EQ_INT(parse(&p, &img), ELF_OUT_OF_BOUNDS);
	make_program(&p, ET_EXEC, 0x400000);
	p.ph[SEG_TEXT].memsz = 0x1ff8;                             /* into the data's first page */
	EXPECT_EQ_INT(parse(&p, &img), ELF_OVERLAP);
	make_program(&p, ET_EXEC, 0x400000);
	struct elf64_phdr text = p.ph[SEG_TEXT];                   /* out of address order */
	p.ph[SEG_TEXT] = p.ph[SEG_DATA];
	p.ph[SEG_DATA] = text;
	EXPECT_EQ_INT(parse(&p, &img), ELF_OVERLAP);
}

TEST(elf_dynamic_program_names_its_interpreter)
{
	struct program p;
	struct elf_image img;
	make_program(&p, ET_DYN, 0);
	add_interp(&p, "/lib/ld-musl-x86_64.so.1");
	EXPECT_EQ_INT(parse(&p, &img), ELF_OK);
	EXPECT_EQ_INT(img.type, ET_DYN);
	EXPECT_EQ_PTR(img.interp, p.bytes + INTERP_AT);        /* in the file's own bytes */
	EXPECT_EQ_STR(img.interp, "/lib/ld-musl-x86_64.so.1");
	EXPECT_EQ_UINT(img.entry, bounds.dyn_base + 0x1010);    /* the program's: exec starts the
	                                                           interpreter's, and passes this on */
	make_program(&p, ET_EXEC, 0x400000);
	add_interp(&p, "/lib64/ld-linux-x86-64.so.2");
	EXPECT_EQ_INT(parse(&p, &img), ELF_OK);
	EXPECT_EQ_INT(img.type, ET_EXEC);
	EXPECT_EQ_STR(img.interp, "/lib64/ld-linux-x86-64.so.2");
	make_program(&p, ET_EXEC, 0x400000);
	EXPECT_EQ_INT(parse(&p, &img), ELF_OK);
	EXPECT_EQ_PTR(img.interp, NULL);                        /* static */
	/* The path ends at its first NUL, as on Linux; only the last byte must be one. */
	make_program(&p, ET_EXEC, 0x400000);
	add_interp(&p, "/lib/ld.so");
	p.ph[STACK_NOTE].filesz += 4;
	memset(p.bytes + INTERP_AT + 11, 0, 4);
	EXPECT_EQ_INT(parse(&p, &img), ELF_OK);
	EXPECT_EQ_STR(img.interp, "/lib/ld.so");
}

/* Each defect of a PT_INTERP, one at a time. */
TEST(elf_interp_defects)
{
	struct program p;
	struct elf_image img;

	make_program(&p, ET_EXEC, 0x400000);
	add_interp(&p, "/lib/ld.so");
	p.bytes[INTERP_AT + 10] = 'x';                          /* no NUL at its end */
	EXPECT_EQ_INT(parse(&p, &img), ELF_BAD_INTERP);
	make_program(&p, ET_EXEC, 0x400000);
	add_interp(&p, "");
	EXPECT_EQ_INT(parse(&p, &img), ELF_BAD_INTERP);         /* one byte: Linux wants two */
	make_program(&p, ET_EXEC, 0x400000);
	add_interp(&p, "/lib/ld.so");
	p.ph[STACK_NOTE].filesz = 0;
	EXPECT_EQ_INT(parse(&p, &img), ELF_BAD_INTERP);
	make_program(&p, ET_EXEC, 0x400000);
	add_interp(&p, "/lib/ld.so");
	p.ph[STACK_NOTE].offset = FILE_SIZE - 4;                /* runs past the end */
	p.bytes[FILE_SIZE - 1] = '\0';
	EXPECT_EQ_INT(parse(&p, &img), ELF_BAD_INTERP);
	make_program(&p, ET_EXEC, 0x400000);
	add_interp(&p, "/lib/ld.so");
	p.ph[STACK_NOTE].offset = UINT64_MAX - 4;               /* wraps around */
	EXPECT_EQ_INT(parse(&p, &img), ELF_BAD_INTERP);
	make_program(&p, ET_EXEC, 0x400000);
	add_interp(&p, "/lib/ld.so");
	p.ph[SEG_HEADERS].type = PT_INTERP;                     /* two of them */
	p.ph[SEG_HEADERS].offset = INTERP_AT, p.ph[SEG_HEADERS].filesz = 11;
	EXPECT_EQ_INT(parse(&p, &img), ELF_BAD_INTERP);

	/* The longest path Linux takes, and one byte more. */
	make_program(&p, ET_EXEC, 0x400000);
	p.ph[STACK_NOTE] = (struct elf64_phdr){ .type = PT_INTERP, .offset = 0x1000, .filesz = ELF_INTERP_PATH_MAX };
	p.bytes[0x1000 + ELF_INTERP_PATH_MAX - 1] = '\0';
	EXPECT_EQ_INT(parse(&p, &img), ELF_OK);
	p.ph[STACK_NOTE].filesz = ELF_INTERP_PATH_MAX + 1;
	p.bytes[0x1000 + ELF_INTERP_PATH_MAX] = '\0';
	EXPECT_EQ_INT(parse(&p, &img), ELF_BAD_INTERP);
}

/* An interpreter as ld.so is made: position independent, linked at 0. */
TEST(elf_interpreter_checks)
{
	static const struct elf_bounds at_zero = { .dyn_base = 0, .low = 0, .high = 0x7fff00000000 };
	struct program p;
	struct elf_image img;

	make_program(&p, ET_DYN, 0);
	EXPECT_EQ_INT(elf_parse(p.bytes, sizeof(p.bytes), &at_zero, &img), ELF_OK);
	EXPECT_EQ_INT(elf_check_interpreter(&img), ELF_OK);
	EXPECT_EQ_UINT(elf_span(&img), 0x6000);                 /* up to the bss's last page */
	make_program(&p, ET_EXEC, 0x400000);
	EXPECT_EQ_INT(parse(&p, &img), ELF_OK);
	EXPECT_EQ_UINT(elf_span(&img), 0x6000);
	EXPECT_EQ_INT(elf_check_interpreter(&img), ELF_INTERP_NOT_DYN);
	make_program(&p, ET_DYN, 0);
	add_interp(&p, "/lib/ld.so");
	EXPECT_EQ_INT(elf_parse(p.bytes, sizeof(p.bytes), &at_zero, &img), ELF_OK);
	EXPECT_EQ_INT(elf_check_interpreter(&img), ELF_INTERP_NESTED);
	make_program(&p, ET_DYN, 0);
	p.ph[SEG_DATA].memsz = ELF_INTERP_MAX - 0x2ff0;         /* ends on the limit */
	EXPECT_EQ_INT(elf_parse(p.bytes, sizeof(p.bytes), &at_zero, &img), ELF_OK);
	EXPECT_EQ_UINT(elf_span(&img), ELF_INTERP_MAX);
	EXPECT_EQ_INT(elf_check_interpreter(&img), ELF_OK);
	p.ph[SEG_DATA].memsz++;                                  /* a page past it */
	EXPECT_EQ_INT(elf_parse(p.bytes, sizeof(p.bytes), &at_zero, &img), ELF_OK);
	EXPECT_EQ_INT(elf_check_interpreter(&img), ELF_INTERP_TOO_BIG);
}

TEST(elf_entry_defects)
{
	struct program p;
	struct elf_image img;

	make_program(&p, ET_EXEC, 0x400000);
	p.h->entry = 0x403000;                                     /* in the data */
	EXPECT_EQ_INT(parse(&p, &img), ELF_BAD_ENTRY);
	make_program(&p, ET_EXEC, 0x400000);
	p.h->entry = 0x401800;                                     /* just past the text */
	EXPECT_EQ_INT(parse(&p, &img), ELF_BAD_ENTRY);
	make_program(&p, ET_DYN, 0);
	p.h->entry = UINT64_MAX;
	EXPECT_EQ_INT(parse(&p, &img), ELF_BAD_ENTRY);
}

TEST(elf_segment_count_defects)
{
	struct program p;
	struct elf_image img;

	make_program(&p, ET_EXEC, 0x400000);
	for (int i = 0; i < NPHDRS; i++)
		p.ph[i].type = 0;                                  /* PT_NULL */
	EXPECT_EQ_INT(parse(&p, &img), ELF_NO_SEGMENTS);

	/* One more PT_LOAD than allowed, each a page of its own. */
	static uint8_t big[0x1000];
	struct elf64_header *h = (struct elf64_header *)big;
	struct elf64_phdr *ph = (struct elf64_phdr *)(big + sizeof(*h));
	make_program(&p, ET_EXEC, 0x400000);
	*h = *p.h;
	h->phnum = ELF_MAX_SEGMENTS + 1;
	for (int i = 0; i < h->phnum; i++)
		ph[i] = (struct elf64_phdr){ .type = PT_LOAD, .flags = PF_R | PF_X,
			.vaddr = 0x400000 + 0x1000 * (uint64_t)i, .filesz = 0x10, .memsz = 0x10 };
	EXPECT_EQ_INT(elf_parse(big, sizeof(big), &bounds, &img), ELF_NO_SEGMENTS);
	h->phnum = ELF_MAX_SEGMENTS;
	h->entry = 0x400000;
	EXPECT_EQ_INT(elf_parse(big, sizeof(big), &bounds, &img), ELF_OK);
}

TEST(elf_every_truncation_is_refused)
{
	struct program p;
	struct elf_image img;
	make_program(&p, ET_EXEC, 0x400000);
	for (size_t size = 0; size < FILE_SIZE; size++) {
		/* A fresh heap copy of exactly size bytes: ASan catches any read past it. */
		uint8_t *copy = malloc(size ? size : 1);
		memcpy(copy, p.bytes, size);
		int err = elf_parse(copy, size, &bounds, &img);
		free(copy);
		if (err == ELF_OK)
			test_fail(__FILE__, __LINE__, "a file cut to %zu bytes was accepted", size);
	}
}

/* Random damage to the headers: never a crash, and whatever is accepted
 * lies inside the file and the bounds. */
TEST(elf_random_damage_is_contained)
{
	uint64_t seed = 12;
	struct program good, p;
	struct elf_image img;
	make_program(&good, ET_DYN, 0);
	add_interp(&good, "/lib/ld.so");
	for (int round = 0; round < 20000 && !test_failed(); round++) {
		p = good;
		p.h = (struct elf64_header *)p.bytes;
		int flips = 1 + (int)(test_rand(&seed) % 4);
		for (int i = 0; i < flips; i++) {
			size_t at = test_rand(&seed) % (sizeof(*p.h) + NPHDRS * sizeof(struct elf64_phdr));
			p.bytes[at] ^= (uint8_t)(1u << (test_rand(&seed) % 8));
		}
		if (parse(&p, &img) != ELF_OK)
			continue;
		for (int i = 0; i < img.nsegments; i++) {
			const struct elf_segment *s = &img.segments[i];
			EXPECT(s->filesz <= s->memsz);
			EXPECT(s->offset <= FILE_SIZE && s->filesz <= FILE_SIZE - s->offset);
			EXPECT(s->vaddr >= bounds.low && s->vaddr + s->memsz <= bounds.high);
		}
		if (img.interp) {                                   /* a string inside the file */
			const uint8_t *at = (const uint8_t *)img.interp;
			EXPECT(at >= p.bytes && at < p.bytes + FILE_SIZE);
			EXPECT(memchr(at, 0, (size_t)(p.bytes + FILE_SIZE - at)) != NULL);
		}
	}
}

TEST(elf_every_error_has_a_message)
{
	for (int e = ELF_OK; e >= ELF_INTERP_TOO_BIG; e--)
		EXPECT(strcmp(elf_strerror(e), "unknown error") != 0);
	EXPECT_EQ_STR(elf_strerror(1), "unknown error");
	EXPECT_EQ_STR(elf_strerror(-99), "unknown error");
}
