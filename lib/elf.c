/*
 * ELF64 checks. Every number in the file is distrusted: each offset and
 * size is checked against the file's length, and each address against the
 * bounds, in a form that cannot overflow, before anything depends on it.
 */
#include "lib/elf.h"
#include "lib/string.h"
#include "lib/util.h"

enum { EI_CLASS = 4, EI_DATA = 5, EI_VERSION = 6 };
enum { ELFCLASS64 = 2, ELFDATA2LSB = 1, EV_CURRENT = 1 };

static uint64_t page_down(uint64_t addr) { return addr & ~(ELF_PAGE_SIZE - 1); }
static uint64_t page_up(uint64_t addr) { return page_down(addr + ELF_PAGE_SIZE - 1); }

/* Does [start, start + len) lie inside [0, size)? */
static bool inside(uint64_t start, uint64_t len, uint64_t size)
{
	return start <= size && len <= size - start;
}

static bool right_kind(const struct elf64_header *h)
{
	return h->ident[EI_CLASS] == ELFCLASS64 && h->ident[EI_DATA] == ELFDATA2LSB &&
	       h->ident[EI_VERSION] == EV_CURRENT && h->version == EV_CURRENT &&
	       h->machine == EM_X86_64;
}

/* A PT_LOAD, moved by the load bias, checked and appended to img->segments. */
static int add_segment(struct elf_image *img, const struct elf64_phdr *ph, size_t size,
		       const struct elf_bounds *bounds)
{
	if (ph->filesz > ph->memsz || !inside(ph->offset, ph->filesz, size) ||
	    ph->vaddr % ELF_PAGE_SIZE != ph->offset % ELF_PAGE_SIZE)
		return ELF_BAD_SEGMENT;
	if (ph->vaddr > UINT64_MAX - img->load_bias)
		return ELF_OUT_OF_BOUNDS;
	uint64_t start = ph->vaddr + img->load_bias;
	/* Whole pages are mapped, so the pages must be in bounds, not just the bytes. */
	if (start < bounds->low || start > bounds->high || ph->memsz > bounds->high - start ||
	    page_down(start) < bounds->low || page_up(start + ph->memsz) > bounds->high)
		return ELF_OUT_OF_BOUNDS;
	if (img->nsegments == ELF_MAX_SEGMENTS)
		return ELF_NO_SEGMENTS;
	if (img->nsegments > 0) {
		const struct elf_segment *prev = &img->segments[img->nsegments - 1];
		if (page_down(start) < page_up(prev->vaddr + prev->memsz))
			return ELF_OVERLAP;
	}
	img->segments[img->nsegments++] = (struct elf_segment){
		.vaddr = start, .memsz = ph->memsz, .offset = ph->offset, .filesz = ph->filesz,
		.flags = ph->flags,
	};
	img->end = start + ph->memsz;
	return ELF_OK;
}

static bool entry_executable(const struct elf_image *img)
{
	for (int i = 0; i < img->nsegments; i++) {
		const struct elf_segment *s = &img->segments[i];
		if ((s->flags & PF_X) && img->entry >= s->vaddr && img->entry - s->vaddr < s->memsz)
			return true;
	}
	return false;
}

/* PT_INTERP: a path and its NUL, two bytes at least (Linux's rule: the
 * path ends at its first NUL), inside the file; one PT_INTERP only. */
static int add_interp(struct elf_image *img, const struct elf64_phdr *ph, const uint8_t *bytes, size_t size)
{
	if (img->interp || ph->filesz < 2 || ph->filesz > ELF_INTERP_PATH_MAX ||
	    !inside(ph->offset, ph->filesz, size) || bytes[ph->offset + ph->filesz - 1] != '\0')
		return ELF_BAD_INTERP;
	img->interp = (const char *)bytes + ph->offset;
	return ELF_OK;
}

/* The address of the program header table, if a segment loads it from the file. */
static uint64_t phdr_address(const struct elf_image *img, uint64_t phoff)
{
	uint64_t len = (uint64_t)img->phnum * sizeof(struct elf64_phdr);
	for (int i = 0; i < img->nsegments; i++) {
		const struct elf_segment *s = &img->segments[i];
		if (phoff >= s->offset && inside(phoff - s->offset, len, s->filesz))
			return s->vaddr + (phoff - s->offset);
	}
	return 0;
}

int elf_parse(const void *file, size_t size, const struct elf_bounds *bounds, struct elf_image *img)
{
	const uint8_t *bytes = file;
	struct elf64_header h;

	if (size < sizeof(h))
		return ELF_TRUNCATED;
	memcpy(&h, bytes, sizeof(h));     /* a copy: the file need not be aligned */
	if (memcmp(h.ident, "\177ELF", 4) != 0)
		return ELF_NOT_ELF;
	if (!right_kind(&h))
		return ELF_WRONG_KIND;
	if (h.type != ET_EXEC && h.type != ET_DYN)
		return ELF_WRONG_TYPE;
	if (h.phentsize != sizeof(struct elf64_phdr) || h.phnum == 0 || h.phnum > ELF_MAX_PHDRS)
		return ELF_BAD_PHDRS;
	if (!inside(h.phoff, (uint64_t)h.phnum * sizeof(struct elf64_phdr), size))
		return ELF_TRUNCATED;

	memset(img, 0, sizeof(*img));
	img->type = h.type;
	img->load_bias = h.type == ET_DYN ? bounds->dyn_base : 0;
	img->phnum = h.phnum;
	for (int i = 0; i < h.phnum; i++) {
		struct elf64_phdr ph;
		int err = ELF_OK;
		memcpy(&ph, bytes + h.phoff + i * sizeof(ph), sizeof(ph));
		if (ph.type == PT_INTERP)
			err = add_interp(img, &ph, bytes, size);
		if (ph.type == PT_GNU_STACK)
			img->exec_stack = ph.flags & PF_X;
		if (ph.type == PT_LOAD && ph.memsz > 0)
			err = add_segment(img, &ph, size, bounds);
		if (err)
			return err;
	}
	if (img->nsegments == 0)
		return ELF_NO_SEGMENTS;
	if (h.entry > UINT64_MAX - img->load_bias)
		return ELF_BAD_ENTRY;
	img->entry = h.entry + img->load_bias;
	if (!entry_executable(img))
		return ELF_BAD_ENTRY;
	img->phdr_addr = phdr_address(img, h.phoff);
	return ELF_OK;
}

uint64_t elf_span(const struct elf_image *img)
{
	return page_up(img->end) - page_down(img->segments[0].vaddr);
}

int elf_check_interpreter(const struct elf_image *img)
{
	if (img->type != ET_DYN)
		return ELF_INTERP_NOT_DYN;
	if (img->interp)
		return ELF_INTERP_NESTED;
	if (elf_span(img) > ELF_INTERP_MAX)
		return ELF_INTERP_TOO_BIG;
	return ELF_OK;
}

const char *elf_strerror(int error)
{
	static const char *const text[] = {
		[-ELF_OK] = "no error",
		[-ELF_TRUNCATED] = "shorter than its headers say",
		[-ELF_NOT_ELF] = "not an ELF file",
		[-ELF_WRONG_KIND] = "not a 64-bit little-endian x86-64 ELF file",
		[-ELF_WRONG_TYPE] = "neither an executable nor a position-independent one",
		[-ELF_BAD_PHDRS] = "bad program header table",
		[-ELF_BAD_INTERP] = "bad PT_INTERP (not one NUL-terminated path inside the file)",
		[-ELF_BAD_SEGMENT] = "bad segment (sizes, file range, or page offset)",
		[-ELF_OUT_OF_BOUNDS] = "a segment lies outside the user address space",
		[-ELF_OVERLAP] = "segments overlap or are out of order",
		[-ELF_BAD_ENTRY] = "the entry point is not in an executable segment",
		[-ELF_NO_SEGMENTS] = "no segment to load, or too many",
		[-ELF_INTERP_NOT_DYN] = "an interpreter must be position independent (ET_DYN)",
		[-ELF_INTERP_NESTED] = "an interpreter must not need an interpreter (PT_INTERP) itself",
		[-ELF_INTERP_TOO_BIG] = "an interpreter's segments span more than 16 MiB",
	};
	if (error > ELF_OK || error < ELF_INTERP_TOO_BIG)
		return "unknown error";
	return text[-error];
}
