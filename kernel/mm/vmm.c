#include "kernel/mm/vmm.h"
#include "kernel/mm/pmm.h"
#include "kernel/smp_call.h"
#include "kernel/spinlock.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "sched/preempt.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/hooks.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/trap.h"
#include "lib/string.h"

static uint64_t *pml4;                /* the kernel's top-level table, via the direct map */
static uint64_t nx_allowed = PTE_NX;  /* 0 on a CPU without no-execute pages */
static size_t table_pages;            /* page-table pages added since boot: kept */
static struct spinlock vmm_lock = SPINLOCK_INIT("vmm");

#define KERNEL_HALF_FIRST 256         /* the top-level entry of 0xffff800000000000 */

static void *table_page_alloc(void)
{
	void *page = page_alloc();
	if (page)
		table_pages++;
	return page;
}

static uint64_t *pte_lookup(uint64_t va, bool create)
{
	return paging_walk(pml4, va, PAGE_TABLE_LEVEL, create ? table_page_alloc : NULL);
}

/* The boot page tables direct-map the first 4 GiB; map the rest of RAM here,
 * in 2 MiB pages. */
static void direct_map_extend(void)
{
	uint64_t end = (pmm_max_phys() + HUGE_PAGE_SIZE - 1) & ~(HUGE_PAGE_SIZE - 1);
	for (uint64_t pa = 4ULL << 30; pa < end; pa += HUGE_PAGE_SIZE) {
		uint64_t *pde = paging_walk(pml4, DIRECT_MAP + pa, PAGE_DIRECTORY_LEVEL, table_page_alloc);
		if (!pde)
			panic("vmm: out of memory mapping RAM at 0x%llx", (unsigned long long)pa);
		*pde = pa | PTE_PRESENT | PTE_WRITE | PTE_HUGE | (PTE_NX & nx_allowed);
	}
	if (end > (4ULL << 30))
		pr_info("vmm: direct map extended to %llu MiB", (unsigned long long)(end >> 20));
}

/* Every top-level entry of the kernel half exists from boot on, so an
 * address space that copies them once (vmm_copy_kernel_half) shares every
 * kernel mapping made later too. At most 255 pages, once. */
static void kernel_half_populate(void)
{
	for (int i = KERNEL_HALF_FIRST; i < 512; i++) {
		if (pml4[i] & PTE_PRESENT)
			continue;
		void *table = table_page_alloc();
		if (!table)
			panic("vmm: out of memory for the kernel's page tables");
		pml4[i] = virt_to_phys(table) | PTE_PRESENT | PTE_WRITE;
	}
}

void vmm_init(void)
{
	pml4 = phys_to_virt((uint64_t)boot_pml4);
	if (!paging_nx_enabled())
		nx_allowed = 0;
	direct_map_extend();
	kernel_half_populate();
}

void vmm_copy_kernel_half(uint64_t *user_pml4)
{
	memcpy(&user_pml4[KERNEL_HALF_FIRST], &pml4[KERNEL_HALF_FIRST],
	       (512 - KERNEL_HALF_FIRST) * sizeof(pml4[0]));
}

uint64_t vmm_kernel_pml4_phys(void)
{
	return (uint64_t)boot_pml4;
}

int map_page(uint64_t va, uint64_t pa, uint64_t flags)
{
	uint64_t irq = spin_lock_irqsave(&vmm_lock);
	uint64_t *pte = pte_lookup(va, true);
	if (pte)
		*pte = (pa & PTE_ADDR_MASK) | (flags & ~(PTE_NX & ~nx_allowed)) | PTE_PRESENT;
	spin_unlock_irqrestore(&vmm_lock, irq);
	return pte ? 0 : -1;
}

void unmap_page(uint64_t va)
{
	uint64_t irq = spin_lock_irqsave(&vmm_lock);
	uint64_t *pte = pte_lookup(va, false);
	if (pte)
		*pte = 0;
	spin_unlock_irqrestore(&vmm_lock, irq);
	invlpg(va);
}

size_t vmm_table_pages(void) { return table_pages; }

bool is_mapped(uint64_t va)
{
	uint64_t value;
	return safe_read_u64((void *)(va & ~7ULL), &value) == 0;
}

/* Every online CPU drops its translations of [va, va + len). */
struct flush_range { uint64_t va; size_t len; };

static void flush_range_here(void *arg)
{
	const struct flush_range *r = arg;
	for (uint64_t va = r->va; va < r->va + r->len; va += PAGE_SIZE)
		invlpg(va);
}

static void tlb_shootdown(uint64_t va, size_t len)
{
	struct flush_range r = { va, len };
	smp_call_on_each_cpu(flush_range_here, &r);
}

/* Reloading CR3 drops every translation not marked global. */
static void flush_all_here(void *arg)
{
	(void)arg;
	write_cr3(read_cr3());
}

void identity_map_remove(void)
{
	pml4[0] = 0;
	smp_call_on_each_cpu(flush_all_here, NULL);
}

void *ioremap(uint64_t phys, size_t size)
{
	static uint64_t next = IOREMAP_AREA;
	uint64_t offset = phys & (PAGE_SIZE - 1);
	uint64_t pages = PAGE_ALIGN_UP(offset + size) / PAGE_SIZE;

	uint64_t irq = spin_lock_irqsave(&vmm_lock);
	uint64_t va = next;
	next += (pages + 1) * PAGE_SIZE;  /* and a hole, so an overrun faults */
	spin_unlock_irqrestore(&vmm_lock, irq);

	for (uint64_t i = 0; i < pages; i++)
		if (map_page(va + i * PAGE_SIZE, PAGE_ALIGN_DOWN(phys) + i * PAGE_SIZE,
			     PTE_WRITE | PTE_PCD | PTE_PWT | PTE_NX) < 0)
			panic("ioremap: out of memory for page tables");
	return (void *)(va + offset);
}

/* Kernel stacks: slot i spans [STACK_AREA + i * KSTACK_SLOT, + KSTACK_SLOT);
 * its top KSTACK_SIZE bytes are mapped and the rest is left unmapped as the
 * guard, so running off the bottom of a stack faults instead of corrupting
 * its neighbour. */
static char slot_owner[KSTACK_SLOTS][16];   /* like a task name: 15 characters */
static uint8_t slot_used[KSTACK_SLOTS / 8];

static uint64_t slot_base(size_t slot) { return STACK_AREA + slot * KSTACK_SLOT; }

/* Unmap [start, end) and give its pages back. Every CPU forgets the old
 * translations before a page can be reused. */
static void release_range(uint64_t start, uint64_t end)
{
	uint64_t phys[KSTACK_SIZE / PAGE_SIZE];
	size_t n = 0;

	uint64_t irq = spin_lock_irqsave(&vmm_lock);
	for (uint64_t va = start; va < end; va += PAGE_SIZE) {
		uint64_t *pte = pte_lookup(va, false);
		if (pte && (*pte & PTE_PRESENT)) {
			phys[n++] = *pte & PTE_ADDR_MASK;
			*pte = 0;
		}
	}
	spin_unlock_irqrestore(&vmm_lock, irq);

	tlb_shootdown(start, end - start);
	for (size_t i = 0; i < n; i++)
		page_free(phys_to_virt(phys[i]));
}

static void slot_release(size_t slot)
{
	uint64_t irq = spin_lock_irqsave(&vmm_lock);
	slot_used[slot / 8] &= (uint8_t)~(1u << (slot % 8));
	spin_unlock_irqrestore(&vmm_lock, irq);
}

/* Freed stacks wait here, still mapped, for the next kstack_alloc():
 * unmapping one costs a TLB shootdown (an interrupt to every CPU, waited
 * for), and a short task lives less long than that takes under emulation.
 * Linux keeps a few freed stacks per CPU for the same reason. 128 (2 MiB
 * of stacks) covers the stress run's bursts of creation and exit: with
 * 16, it overflowed into a shootdown per exit, and with four virtual CPUs
 * on two host cores those shootdowns queued behind each other for seconds
 * (docs/decisions.md). */
#define KSTACK_CACHE 128
static size_t cached_slots[KSTACK_CACHE];
static size_t nr_cached;

void *kstack_alloc(const char *owner)
{
	uint64_t irq = spin_lock_irqsave(&vmm_lock);
	if (nr_cached) {
		size_t slot = cached_slots[--nr_cached];
		spin_unlock_irqrestore(&vmm_lock, irq);
		strlcpy(slot_owner[slot], owner, sizeof(slot_owner[slot]));
		return (void *)(slot_base(slot) + KSTACK_SLOT);
	}
	size_t slot = 0;
	while (slot < KSTACK_SLOTS && (slot_used[slot / 8] & (1u << (slot % 8))))
		slot++;
	if (slot < KSTACK_SLOTS)
		slot_used[slot / 8] |= (uint8_t)(1u << (slot % 8));
	spin_unlock_irqrestore(&vmm_lock, irq);
	if (slot == KSTACK_SLOTS)
		return NULL;

	uint64_t top = slot_base(slot) + KSTACK_SLOT, bottom = top - KSTACK_SIZE;
	strlcpy(slot_owner[slot], owner, sizeof(slot_owner[slot]));
	for (uint64_t va = bottom; va < top; va += PAGE_SIZE) {
		void *page = page_alloc();
		if (!page || map_page(va, virt_to_phys(page), PTE_WRITE | PTE_NX) < 0) {
			if (page)
				page_free(page);
			release_range(bottom, va);
			slot_release(slot);
			return NULL;
		}
	}
	return (void *)top;
}

static size_t slot_of_top(void *top)
{
	uint64_t t = (uint64_t)top;
	if (t <= STACK_AREA || t > slot_base(KSTACK_SLOTS) || (t - STACK_AREA) % KSTACK_SLOT)
		panic("kstack: %p is not the top of a kernel stack", top);
	return (t - STACK_AREA) / KSTACK_SLOT - 1;
}

static void release_stack(size_t slot)
{
	uint64_t top = slot_base(slot) + KSTACK_SLOT;
	release_range(top - KSTACK_SIZE, top);
	slot_release(slot);
}

void kstack_free(void *top)
{
	size_t slot = slot_of_top(top);
	strlcpy(slot_owner[slot], "free stack", sizeof(slot_owner[slot]));
	uint64_t irq = spin_lock_irqsave(&vmm_lock);
	bool cached = nr_cached < KSTACK_CACHE;
	if (cached)
		cached_slots[nr_cached++] = slot;
	spin_unlock_irqrestore(&vmm_lock, irq);
	if (!cached)
		release_stack(slot);
}

size_t kstack_cached_pages(void)
{
	return __atomic_load_n(&nr_cached, __ATOMIC_RELAXED) * (KSTACK_SIZE / PAGE_SIZE);
}

void kstack_trim(void)
{
	size_t slots[KSTACK_CACHE], n;
	uint64_t irq = spin_lock_irqsave(&vmm_lock);
	n = nr_cached;
	memcpy(slots, cached_slots, n * sizeof(slots[0]));
	nr_cached = 0;
	spin_unlock_irqrestore(&vmm_lock, irq);
	for (size_t i = 0; i < n; i++)
		release_stack(slots[i]);
}

void kstack_rename(void *top, const char *owner)
{
	size_t slot = slot_of_top(top);
	strlcpy(slot_owner[slot], owner, sizeof(slot_owner[slot]));
}

const char *stack_guard_owner(uint64_t addr)
{
	if (addr < STACK_AREA || addr >= slot_base(KSTACK_SLOTS))
		return NULL;
	size_t slot = (addr - STACK_AREA) / KSTACK_SLOT;
	bool in_guard = addr < slot_base(slot) + KSTACK_SLOT - KSTACK_SIZE;
	if (!in_guard || !(slot_used[slot / 8] & (1u << (slot % 8))))
		return NULL;
	return slot_owner[slot];
}
