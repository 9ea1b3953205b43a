#include "kernel/multiboot.h"
#include "arch/x86_64/memlayout.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "lib/string.h"

struct boot_info boot_info;

/* Tag types of the multiboot2 boot information that we read. */
enum {
	TAG_END = 0, TAG_CMDLINE = 1, TAG_LOADER_NAME = 2, TAG_MODULE = 3, TAG_MEMORY_MAP = 6,
	TAG_EFI64 = 12, TAG_ACPI_OLD = 14, TAG_ACPI_NEW = 15,
};

struct tag { uint32_t type, size; };
struct mmap_tag { uint32_t type, size, entry_size, entry_version; };
struct mmap_entry { uint64_t base, length; uint32_t type, reserved; };
struct module_tag { uint32_t type, size, start, end; };   /* then the string */

/* The string that ends tag t, `skip` bytes after its header. */
/* False if the string had to be cut to fit. */
static bool copy_string(char *dst, size_t size, const struct tag *t, size_t skip)
{
	const char *src = (const char *)(t + 1) + skip;
	size_t len = strnlen(src, t->size - sizeof(*t) - skip);
	bool fits = len < size;
	if (!fits) {
		pr_warn("multiboot: string of %zu bytes cut to %zu", len, size - 1);
		len = size - 1;
	}
	memcpy(dst, src, len);
	dst[len] = '\0';
	return fits;
}

static void read_module(const struct module_tag *t)
{
	if (t->size < sizeof(*t) || t->end < t->start) {
		pr_warn("multiboot: a malformed module tag; ignoring it");
		return;
	}
	if (boot_info.nmodules == MAX_BOOT_MODULES) {
		pr_warn("multiboot: more than %d modules; ignoring the rest", MAX_BOOT_MODULES);
		return;
	}
	struct boot_module *m = &boot_info.modules[boot_info.nmodules++];
	m->start = t->start;
	m->end = t->end;
	copy_string(m->name, sizeof(m->name), (const void *)t, sizeof(*t) - sizeof(struct tag));
}

static void read_memory_map(const struct mmap_tag *t)
{
	const uint8_t *p = (const uint8_t *)(t + 1), *end = (const uint8_t *)t + t->size;
	for (; p + t->entry_size <= end; p += t->entry_size) {
		const struct mmap_entry *e = (const void *)p;
		if (boot_info.nmem == MAX_MEM_REGIONS) {
			pr_warn("multiboot: more than %d memory regions; ignoring the rest", MAX_MEM_REGIONS);
			return;
		}
		boot_info.mem[boot_info.nmem++] = (struct mem_region){ e->base, e->length, e->type };
	}
}

void multiboot_parse(uint64_t info_phys)
{
	const uint8_t *info = phys_to_virt(info_phys);
	uint32_t total = *(const uint32_t *)info;

	/* Tags follow an 8-byte header, each padded to 8 bytes. */
	for (uint32_t off = 8; off + sizeof(struct tag) <= total; ) {
		const struct tag *t = (const void *)(info + off);
		if (t->type == TAG_END || t->size < sizeof(*t))
			break;
		switch (t->type) {
		case TAG_CMDLINE:
			boot_info.cmdline_cut = !copy_string(boot_info.cmdline, sizeof(boot_info.cmdline), t, 0);
			break;
		case TAG_LOADER_NAME: copy_string(boot_info.loader, sizeof(boot_info.loader), t, 0); break;
		case TAG_MODULE:      read_module((const void *)t); break;
		case TAG_MEMORY_MAP:  read_memory_map((const void *)t); break;
		case TAG_EFI64:       boot_info.uefi = true; break;
		case TAG_ACPI_OLD:
		case TAG_ACPI_NEW: {
			/* Prefer the new (XSDT) RSDP when the loader gives both. */
			size_t len = t->size - sizeof(*t);
			if (len > sizeof(boot_info.rsdp))
				len = sizeof(boot_info.rsdp);
			if (t->type == TAG_ACPI_NEW || boot_info.rsdp_len == 0) {
				memcpy(boot_info.rsdp, t + 1, len);
				boot_info.rsdp_len = (int)len;
			}
			break;
		}
		}
		off += (t->size + 7) & ~7u;
	}
	if (boot_info.nmem == 0)
		panic("multiboot: the boot loader gave no memory map");
}

void multiboot_print_memory_map(void)
{
	static const char *const names[] = {
		[MEM_USABLE] = "usable", [MEM_RESERVED] = "reserved", [MEM_ACPI_RECLAIMABLE] = "ACPI data",
		[MEM_ACPI_NVS] = "ACPI NVS", [MEM_BAD] = "bad",
	};
	uint64_t usable = 0;
	pr_info("boot: loaded by %s, %s firmware", boot_info.loader[0] ? boot_info.loader : "an unnamed loader",
		boot_info.uefi ? "UEFI" : "BIOS");
	pr_info("boot: command line '%s'", boot_info.cmdline);
	for (int i = 0; i < boot_info.nmodules; i++) {
		const struct boot_module *m = &boot_info.modules[i];
		pr_info("boot: module '%s' %llu bytes at 0x%llx", m->name,
			(unsigned long long)(m->end - m->start), (unsigned long long)m->start);
	}
	for (int i = 0; i < boot_info.nmem; i++) {
		const struct mem_region *r = &boot_info.mem[i];
		const char *name = r->type <= MEM_BAD && names[r->type] ? names[r->type] : "unknown";
		pr_info("mem: [0x%012llx-0x%012llx] %s", (unsigned long long)r->base,
			(unsigned long long)(r->base + r->length - 1), name);
		if (r->type == MEM_USABLE)
			usable += r->length;
	}
	pr_info("mem: %llu MiB usable", (unsigned long long)(usable >> 20));
}
