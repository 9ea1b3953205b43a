#include "arch/x86_64/lapic.h"
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/time.h"
#include "arch/x86_64/trap.h"
#include "arch/x86_64/cpu_area.h"
#include "arch/x86_64/memlayout.h"
#include "arch/x86_64/hooks.h"
#include "kernel/printk.h"
#include "kernel/params.h"
#include "kernel/spinlock.h"
#include "lib/sort.h"
#include "lib/time_units.h"

/* Register offsets in xAPIC MMIO; x2APIC MSR = 0x800 + offset / 16. */
enum {
	LAPIC_ID = 0x20, LAPIC_VERSION = 0x30, LAPIC_TPR = 0x80, LAPIC_EOI = 0xb0,
	LAPIC_SVR = 0xf0, LAPIC_ESR = 0x280, LAPIC_ICR_LOW = 0x300, LAPIC_ICR_HIGH = 0x310,
	LAPIC_LVT_TIMER = 0x320, LAPIC_LVT_LINT0 = 0x350, LAPIC_LVT_LINT1 = 0x360,
	LAPIC_LVT_ERROR = 0x370, LAPIC_TIMER_INIT = 0x380, LAPIC_TIMER_CURRENT = 0x390,
	LAPIC_TIMER_DIVIDE = 0x3e0, LAPIC_ISR = 0x100, LAPIC_IRR = 0x200,
};

#define SVR_ENABLE          (1u << 8)
#define LVT_MASKED          (1u << 16)
#define LVT_TIMER_DEADLINE  (2u << 17)
#define ICR_DELIVERY_NMI    (4u << 8)
#define ICR_DELIVERY_INIT   (5u << 8)
#define ICR_DELIVERY_START  (6u << 8)
#define ICR_PENDING         (1u << 12)
#define ICR_ASSERT          (1u << 14)
#define ICR_ALL_BUT_SELF    (3u << 18)
#define ICR_SHORTHAND_MASK  (3u << 18)      /* any shorthand: the destination field is ignored */
#define TIMER_DIVIDE_BY_1   0xb

static volatile uint32_t *mmio;
static bool x2apic;
static bool ready;
static bool tsc_deadline;
static uint64_t timer_hz;

#define ICR_HIGH_UNKNOWN 0xffffffffu      /* never written: the low 24 bits are reserved */

static struct lapic_shadow *my_shadow(void)
{
	assert_irqs_off();                        /* see lapic.h */
	return &this_arch_cpu()->lapic;
}

static bool use_x2apic = true;
BOOT_PARAM_BOOL("x2apic", use_x2apic, "use x2APIC mode when the CPU offers it");

static uint32_t lapic_read(uint32_t reg)
{
	return x2apic ? (uint32_t)rdmsr(0x800 + reg / 16) : mmio[reg / 4];
}

static void lapic_write(uint32_t reg, uint32_t value)
{
	if (x2apic)
		wrmsr(0x800 + reg / 16, value);
	else
		mmio[reg / 4] = value;
}

static void enable_mode_on_this_cpu(void)
{
	uint64_t base = rdmsr(MSR_APIC_BASE) | (1u << 11);        /* global enable */
	if (x2apic)
		base |= 1u << 10;                                  /* EXTD: x2APIC */
	wrmsr(MSR_APIC_BASE, base);
}

void lapic_init_bsp(void)
{
	struct cpuid id = cpuid(1, 0);
	x2apic = use_x2apic && (id.ecx & (1u << 21));
	tsc_deadline = id.ecx & (1u << 24);
	if (!x2apic)   /* without a MADT, the CPU's own MSR says where the registers are */
		mmio = ioremap(acpi.have_madt ? acpi.lapic_phys : rdmsr(MSR_APIC_BASE) & ~0xfffULL, PAGE_SIZE);
	enable_mode_on_this_cpu();
	pr_info("lapic: %s mode%s, TSC-deadline timer %s", x2apic ? "x2APIC" : "xAPIC (MMIO)",
		x2apic ? "" : (id.ecx & (1u << 21) ? " (x2APIC present, disabled by x2apic=off)" : ""),
		tsc_deadline ? "available" : "not available");
}

void lapic_init_cpu(void)
{
	enable_mode_on_this_cpu();
	lapic_write(LAPIC_TPR, 0);                                  /* accept every priority */
	lapic_write(LAPIC_LVT_ERROR, VEC_LAPIC_ERROR);
	lapic_write(LAPIC_ESR, 0);
	lapic_write(LAPIC_LVT_TIMER, LVT_MASKED);
	lapic_write(LAPIC_SVR, SVR_ENABLE | VEC_SPURIOUS);
	lapic_write(LAPIC_EOI, 0);
	*my_shadow() = (struct lapic_shadow){ .timer_mode = LAPIC_TIMER_MASKED, .icr_high = ICR_HIGH_UNKNOWN };
	ready = true;
}

bool lapic_ready(void) { return ready; }

/* The highest vector in this CPU's ISR (in service) or IRR (requested), or
 * 0 if none (no interrupt has a vector below 32): a panic reports them, to tell an interrupt never sent from one that
 * waits behind another still in service. */
int lapic_highest_vector(bool in_service)
{
	uint32_t base = in_service ? LAPIC_ISR : LAPIC_IRR;
	for (int i = 7; i >= 0; i--) {
		uint32_t bits = lapic_read(base + 0x10 * (uint32_t)i);
		if (bits)
			return 32 * i + 31 - __builtin_clz(bits);
	}
	return 0;
}
bool lapic_x2apic_mode(void) { return x2apic; }

uint32_t lapic_id(void)
{
	return x2apic ? lapic_read(LAPIC_ID) : lapic_read(LAPIC_ID) >> 24;
}

void lapic_eoi(void)
{
	lapic_write(LAPIC_EOI, 0);
}

/*
 * xAPIC: wait for the previous IPI to leave before writing the next, rather
 * than for our own to leave after writing it: the sender goes on at once,
 * and the wait is usually one read. It is inside the interrupts-off section
 * so that an interrupt handler's IPI cannot be still pending when we write.
 * The destination is rewritten only when it changes (a shorthand needs none).
 */
static void send_icr(uint32_t apic_id, uint32_t low)
{
	if (x2apic) {
		wrmsr(0x800 + LAPIC_ICR_LOW / 16, ((uint64_t)apic_id << 32) | low);
		return;
	}
	uint64_t flags = irq_save();
	while (lapic_read(LAPIC_ICR_LOW) & ICR_PENDING)
		cpu_relax();
	struct lapic_shadow *shadow = my_shadow();
	if (!(low & ICR_SHORTHAND_MASK) && shadow->icr_high != apic_id << 24) {
		shadow->icr_high = apic_id << 24;
		lapic_write(LAPIC_ICR_HIGH, shadow->icr_high);
	}
	lapic_write(LAPIC_ICR_LOW, low);
	irq_restore(flags);
}

void lapic_send_ipi(uint32_t apic_id, int vector)
{
	send_icr(apic_id, (uint32_t)vector);
}

void lapic_send_nmi_to_others(void)
{
	if (ready)
		send_icr(0, ICR_ALL_BUT_SELF | ICR_DELIVERY_NMI | ICR_ASSERT);
}

void lapic_send_init(uint32_t apic_id)
{
	send_icr(apic_id, ICR_DELIVERY_INIT | ICR_ASSERT);
}

void lapic_send_startup(uint32_t apic_id, uint32_t page_number)
{
	send_icr(apic_id, ICR_DELIVERY_START | page_number);
}

/* Count the timer down from its maximum for a while, measured by clock_ns().
 * The median of several rounds resists a host that preempts us mid-round. */
void lapic_timer_calibrate(void)
{
	enum { ROUNDS = 5 };
	uint64_t rate[ROUNDS];

	lapic_write(LAPIC_TIMER_DIVIDE, TIMER_DIVIDE_BY_1);
	lapic_write(LAPIC_LVT_TIMER, LVT_MASKED);
	my_shadow()->timer_mode = LAPIC_TIMER_MASKED;
	for (int r = 0; r < ROUNDS; r++) {
		lapic_write(LAPIC_TIMER_INIT, 0xffffffff);
		uint64_t t0 = clock_ns();
		uint32_t c0 = lapic_read(LAPIC_TIMER_CURRENT);
		while (clock_ns() - t0 < 10 * NS_PER_MS)
			cpu_relax();
		uint32_t c1 = lapic_read(LAPIC_TIMER_CURRENT);
		uint64_t t1 = clock_ns();
		rate[r] = (uint64_t)(c0 - c1) * NS_PER_S / (t1 - t0);
	}
	lapic_write(LAPIC_TIMER_INIT, 0);
	sort_u64(rate, ROUNDS);
	timer_hz = rate[ROUNDS / 2];
	pr_info("lapic: timer runs at %llu.%03llu MHz (median of %d rounds of 10 ms, range %llu..%llu kHz)",
		(unsigned long long)(timer_hz / 1000000), (unsigned long long)(timer_hz / 1000 % 1000), ROUNDS,
		(unsigned long long)(rate[0] / 1000), (unsigned long long)(rate[ROUNDS - 1] / 1000));
}

uint64_t lapic_timer_hz(void) { return timer_hz; }

/* The timer's divide and LVT, written only when this CPU's mode changes. */
static void timer_set_mode(enum lapic_timer_mode mode)
{
	struct lapic_shadow *shadow = my_shadow();
	if (shadow->timer_mode == mode)
		return;
	shadow->timer_mode = mode;
	if (mode == LAPIC_TIMER_ONESHOT) {
		lapic_write(LAPIC_TIMER_DIVIDE, TIMER_DIVIDE_BY_1);
		lapic_write(LAPIC_LVT_TIMER, VEC_LAPIC_TIMER);
		return;
	}
	lapic_write(LAPIC_LVT_TIMER, VEC_LAPIC_TIMER | LVT_TIMER_DEADLINE);
	/* The LVT write must land before the deadline is armed; xAPIC MMIO writes
	 * and the MSR write are not ordered against each other otherwise. */
	__asm__ volatile("mfence" : : : "memory");
}

bool lapic_timer_oneshot_ns(uint64_t ns)
{
	uint64_t count = ns * (timer_hz / 1000) / 1000000;   /* kHz first: no overflow for hours */
	timer_set_mode(LAPIC_TIMER_ONESHOT);
	lapic_write(LAPIC_TIMER_INIT, count == 0 ? 1 : count > 0xffffffff ? 0xffffffff : (uint32_t)count);
	return count <= 0xffffffff;
}

bool lapic_has_tsc_deadline(void) { return tsc_deadline; }

void lapic_timer_tsc_deadline(uint64_t tsc)
{
	timer_set_mode(LAPIC_TIMER_DEADLINE);
	wrmsr(MSR_TSC_DEADLINE, tsc);
}

void lapic_timer_stop(void)
{
	enum lapic_timer_mode mode = my_shadow()->timer_mode;
	if (mode == LAPIC_TIMER_DEADLINE)
		wrmsr(MSR_TSC_DEADLINE, 0);
	else if (mode == LAPIC_TIMER_ONESHOT)
		lapic_write(LAPIC_TIMER_INIT, 0);
}
