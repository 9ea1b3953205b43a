/*
 * What the boot loader tells us, copied out of the multiboot2 information
 * structure early, before its memory can be reused.
 */
#pragma once
#include <stdint.h>
#include <stdbool.h>

enum mem_type { MEM_USABLE = 1, MEM_RESERVED = 2, MEM_ACPI_RECLAIMABLE = 3, MEM_ACPI_NVS = 4, MEM_BAD = 5 };

struct mem_region {
	uint64_t base, length;
	uint32_t type;
};

#define MAX_MEM_REGIONS 128

/* A file the loader put in memory for us (GRUB's module2 command). */
struct boot_module {
	uint64_t start, end;          /* physical; end is one past the last byte */
	char name[64];                /* the words after the file in module2: "initrd" */
};

#define MAX_BOOT_MODULES 8

struct boot_info {
	char cmdline[2048];           /* as Linux's COMMAND_LINE_SIZE */
	bool cmdline_cut;             /* the loader's was longer, and lost its end */
	char loader[64];
	struct mem_region mem[MAX_MEM_REGIONS];
	int nmem;
	uint8_t rsdp[36];             /* ACPI 1.0 (20 bytes) or 2.0+ (36 bytes) RSDP copy */
	int rsdp_len;                 /* 0: the loader gave none */
	bool uefi;                    /* the loader says firmware is UEFI */
	struct boot_module modules[MAX_BOOT_MODULES];
	int nmodules;
};

extern struct boot_info boot_info;

void multiboot_parse(uint64_t info_phys);
void multiboot_print_memory_map(void);
