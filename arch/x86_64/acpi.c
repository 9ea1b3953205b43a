#include "arch/x86_64/acpi.h"
#include "arch/x86_64/memlayout.h"
#include "arch/x86_64/hooks.h"
#include "kernel/printk.h"
#include "lib/string.h"

struct acpi_info acpi;

struct rsdp {
	char signature[8];            /* "RSD PTR " */
	uint8_t checksum;             /* over the first 20 bytes */
	char oem_id[6];
	uint8_t revision;             /* 0: ACPI 1.0; 2: 2.0 and later, with the fields below */
	uint32_t rsdt;
	uint32_t length;
	uint64_t xsdt;
	uint8_t extended_checksum;
	uint8_t reserved[3];
} __attribute__((packed));

struct sdt_header {
	char signature[4];
	uint32_t length;
	uint8_t revision, checksum;
	char oem_id[6], oem_table_id[8];
	uint32_t oem_revision, creator_id, creator_revision;
} __attribute__((packed));

static bool checksum_ok(const void *p, size_t len)
{
	uint8_t sum = 0;
	for (size_t i = 0; i < len; i++)
		sum += ((const uint8_t *)p)[i];
	return sum == 0;
}

/* Tables live in firmware-reserved RAM; map them wherever that is. */
static const void *map_phys(uint64_t phys, size_t len)
{
	if (phys + len <= (4ULL << 30))
		return phys_to_virt(phys);
	return ioremap(phys, len);
}

static const struct rsdp *scan_for_rsdp(uint64_t start, uint64_t len)
{
	for (uint64_t p = start; p + 20 <= start + len; p += 16) {
		const struct rsdp *r = phys_to_virt(p);
		if (memcmp(r->signature, "RSD PTR ", 8) == 0 && checksum_ok(r, 20))
			return r;
	}
	return NULL;
}

static const struct rsdp *find_rsdp(const void *loader_copy, size_t len)
{
	if (len >= 20)
		return loader_copy;
	/* No copy from the loader: look where BIOSes put it, the first KiB of the
	 * extended BIOS data area, then the BIOS ROM area. */
	uint64_t ebda = (uint64_t)*(const uint16_t *)phys_to_virt(0x40e) << 4;
	const struct rsdp *r = ebda ? scan_for_rsdp(ebda, 1024) : NULL;
	return r ? r : scan_for_rsdp(0xe0000, 0x20000);
}

/* Map a table and check it; NULL (with a message) if it is damaged. */
static const struct sdt_header *map_table(uint64_t phys)
{
	const struct sdt_header *h = map_phys(phys, sizeof(*h));
	if (h->length < sizeof(*h) || h->length > (16u << 20)) {
		pr_warn("acpi: table at 0x%llx has an implausible length %u, skipped", (unsigned long long)phys,
			h->length);
		return NULL;
	}
	h = map_phys(phys, h->length);
	if (!checksum_ok(h, h->length)) {
		pr_warn("acpi: table %.4s at 0x%llx has a bad checksum, skipped", h->signature,
			(unsigned long long)phys);
		return NULL;
	}
	return h;
}

enum { MADT_LAPIC = 0, MADT_IOAPIC = 1, MADT_OVERRIDE = 2, MADT_LAPIC_ADDRESS = 5, MADT_X2APIC = 9 };
#define MADT_ENABLED 1

static void add_cpu(uint32_t apic_id, uint32_t uid, uint32_t flags, bool x2apic_entry)
{
	if (acpi.ncpus == ACPI_MAX_CPUS) {
		pr_warn("acpi: more than %d CPUs listed; ignoring the rest", ACPI_MAX_CPUS);
		return;
	}
	acpi.cpus[acpi.ncpus++] = (struct acpi_cpu){ apic_id, uid, flags & MADT_ENABLED, x2apic_entry };
}

static void parse_madt(const struct sdt_header *h)
{
	const uint8_t *p = (const uint8_t *)h + sizeof(*h);
	const uint8_t *end = (const uint8_t *)h + h->length;
	acpi.lapic_phys = *(const uint32_t *)p;
	acpi.legacy_pics = *(const uint32_t *)(p + 4) & 1;
	acpi.have_madt = true;

	/* Entries vary in length: step by the length each one gives. */
	for (p += 8; p + 2 <= end && p[1] >= 2 && p + p[1] <= end; p += p[1]) {
		switch (p[0]) {
		case MADT_LAPIC:            /* uid u8, apic id u8, flags u32 */
			add_cpu(p[3], p[2], *(const uint32_t *)(p + 4), false);
			break;
		case MADT_X2APIC:           /* reserved u16, x2apic id u32, flags u32, uid u32 */
			add_cpu(*(const uint32_t *)(p + 4), *(const uint32_t *)(p + 12), *(const uint32_t *)(p + 8), true);
			break;
		case MADT_IOAPIC:           /* id u8, reserved u8, address u32, gsi base u32 */
			if (acpi.nioapics < ACPI_MAX_IOAPICS)
				acpi.ioapics[acpi.nioapics++] = (struct acpi_ioapic){
					p[2], *(const uint32_t *)(p + 4), *(const uint32_t *)(p + 8) };
			break;
		case MADT_OVERRIDE:         /* bus u8, source irq u8, gsi u32, flags u16 */
			if (acpi.noverrides < ACPI_MAX_OVERRIDES)
				acpi.overrides[acpi.noverrides++] = (struct acpi_override){
					p[3], *(const uint32_t *)(p + 4), *(const uint16_t *)(p + 8) };
			break;
		case MADT_LAPIC_ADDRESS:    /* reserved u16, address u64 */
			acpi.lapic_phys = *(const uint64_t *)(p + 4);
			break;
		}
	}
}

/* An AML integer: a ZeroOp, OneOp, or a Byte/Word/DWord prefix and value.
 * Returns the bytes consumed, 0 if it is none of these. */
static int aml_integer(const uint8_t *p, const uint8_t *end, uint16_t *value)
{
	if (p >= end)
		return 0;
	switch (p[0]) {
	case 0x00: *value = 0; return 1;
	case 0x01: *value = 1; return 1;
	case 0x0a: if (p + 2 > end) return 0; *value = p[1]; return 2;
	case 0x0b: if (p + 3 > end) return 0; *value = (uint16_t)(p[1] | p[2] << 8); return 3;
	case 0x0c: if (p + 5 > end) return 0; *value = (uint16_t)(p[1] | p[2] << 8); return 5;
	default: return 0;
	}
}

/* Find Name(_S5_, Package() { SLP_TYPa, SLP_TYPb, ... }) in the DSDT's AML
 * without an interpreter: the package is a constant in every firmware we
 * know of. */
static void find_s5(const struct sdt_header *dsdt)
{
	const uint8_t *p = (const uint8_t *)dsdt + sizeof(*dsdt), *end = (const uint8_t *)dsdt + dsdt->length;
	for (; p + 8 < end; p++) {
		if (memcmp(p, "_S5_", 4) != 0 || !(p[-1] == 0x08 || (p[-1] == '\\' && p[-2] == 0x08)))
			continue;
		const uint8_t *q = p + 4;
		if (*q++ != 0x12)                       /* PackageOp */
			continue;
		q += 1 + (*q >> 6);                     /* PkgLength: 1 to 4 bytes */
		q++;                                    /* NumElements */
		int n = aml_integer(q, end, &acpi.slp_typ_a);
		if (n && aml_integer(q + n, end, &acpi.slp_typ_b)) {
			acpi.have_s5 = true;
			return;
		}
	}
}

static void parse_fadt(const struct sdt_header *h)
{
	const uint8_t *f = (const uint8_t *)h;
	uint64_t dsdt = *(const uint32_t *)(f + 40);
	acpi.smi_cmd = *(const uint32_t *)(f + 48);
	acpi.acpi_enable = f[52];
	acpi.pm1a_cnt = *(const uint32_t *)(f + 64);
	acpi.pm1b_cnt = *(const uint32_t *)(f + 68);
	if (h->length >= 129 && (*(const uint32_t *)(f + 112) & (1u << 10))) {  /* RESET_REG_SUP */
		memcpy(&acpi.reset_reg, f + 116, sizeof(acpi.reset_reg));
		acpi.reset_value = f[128];
		acpi.have_reset_reg = true;
	}
	if (h->length >= 148 && *(const uint64_t *)(f + 140))
		dsdt = *(const uint64_t *)(f + 140);    /* X_DSDT */
	const struct sdt_header *d = dsdt ? map_table(dsdt) : NULL;
	if (d && memcmp(d->signature, "DSDT", 4) == 0)
		find_s5(d);
}

static void parse_table(const struct sdt_header *h)
{
	if (memcmp(h->signature, "APIC", 4) == 0)
		parse_madt(h);
	else if (memcmp(h->signature, "HPET", 4) == 0 && h->length >= 56)
		acpi.hpet_phys = *(const uint64_t *)((const uint8_t *)h + 44);   /* the GAS's address */
	else if (memcmp(h->signature, "FACP", 4) == 0 && h->length >= 116)
		parse_fadt(h);
}

void acpi_init(const void *rsdp_copy, size_t rsdp_len)
{
	const struct rsdp *rsdp = find_rsdp(rsdp_copy, rsdp_len);
	if (!rsdp || memcmp(rsdp->signature, "RSD PTR ", 8) != 0 || !checksum_ok(rsdp, 20)) {
		pr_warn("acpi: no valid RSDP found: running on the boot CPU only, without IOAPIC or HPET");
		return;
	}
	bool xsdt = rsdp->revision >= 2 && rsdp->xsdt && checksum_ok(rsdp, rsdp->length);
	const struct sdt_header *root = map_table(xsdt ? rsdp->xsdt : rsdp->rsdt);
	if (!root) {
		pr_warn("acpi: the %s is damaged: running on the boot CPU only", xsdt ? "XSDT" : "RSDT");
		return;
	}

	char names[128] = "";
	size_t entry_size = xsdt ? 8 : 4;
	size_t n = (root->length - sizeof(*root)) / entry_size;
	const uint8_t *entries = (const uint8_t *)root + sizeof(*root);
	for (size_t i = 0; i < n; i++) {
		uint64_t phys = xsdt ? *(const uint64_t *)(entries + i * 8) : *(const uint32_t *)(entries + i * 4);
		const struct sdt_header *h = phys ? map_table(phys) : NULL;
		if (!h)
			continue;
		size_t len = strlen(names);
		if (len + 6 < sizeof(names)) {
			memcpy(names + len, " ", 1);
			memcpy(names + len + 1, h->signature, 4);
			names[len + 5] = 0;
		}
		parse_table(h);
	}
	pr_info("acpi: revision %d, %s with%s", rsdp->revision, xsdt ? "XSDT" : "RSDT", names);
	if (!acpi.have_madt)
		pr_warn("acpi: no MADT: running on the boot CPU only");
	for (int i = 0; i < acpi.nioapics; i++)
		pr_info("acpi: IOAPIC id %u at 0x%x, interrupts from %u", acpi.ioapics[i].id, acpi.ioapics[i].phys,
			acpi.ioapics[i].gsi_base);
	for (int i = 0; i < acpi.noverrides; i++)
		pr_info("acpi: ISA IRQ %u -> GSI %u (flags 0x%x)", acpi.overrides[i].isa_irq, acpi.overrides[i].gsi,
			acpi.overrides[i].flags);
}
