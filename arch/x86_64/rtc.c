/*
 * The PC's real-time clock (the MC146818 in the chipset, "CMOS"): the date
 * and time of day, to the second, kept by a battery while the machine is
 * off. Read once at boot, to tell the wall-clock time (CLOCK_REALTIME).
 * Its registers are behind two ports: write an index to 0x70, read 0x71.
 */
#include "arch/x86_64/time.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/cpu.h"

enum {
	RTC_INDEX = 0x70, RTC_DATA = 0x71,
	REG_SECONDS = 0x00, REG_MINUTES = 0x02, REG_HOURS = 0x04, REG_DAY = 0x07, REG_MONTH = 0x08,
	REG_YEAR = 0x09, REG_STATUS_A = 0x0a, REG_STATUS_B = 0x0b,
	STATUS_A_UPDATING = 0x80,         /* the clock is changing its registers now */
	STATUS_B_24H = 0x02, STATUS_B_BINARY = 0x04,
	HOURS_PM = 0x80,                  /* in 12-hour mode */
};

static uint8_t rtc_read(uint8_t reg)
{
	outb(RTC_INDEX, reg);             /* bit 7 clear: the NMI stays enabled */
	return inb(RTC_DATA);
}

struct rtc_time {
	uint8_t sec, min, hour, day, month, year;
};

static struct rtc_time rtc_read_all(void)
{
	return (struct rtc_time){ rtc_read(REG_SECONDS), rtc_read(REG_MINUTES), rtc_read(REG_HOURS),
				  rtc_read(REG_DAY), rtc_read(REG_MONTH), rtc_read(REG_YEAR) };
}

static bool same(struct rtc_time a, struct rtc_time b)
{
	return a.sec == b.sec && a.min == b.min && a.hour == b.hour && a.day == b.day &&
	       a.month == b.month && a.year == b.year;
}

static uint8_t from_bcd(uint8_t v)
{
	return (uint8_t)((v >> 4) * 10 + (v & 15));
}

/* Days from 1970-01-01 to the date (the proleptic Gregorian calendar). */
static int64_t days_since_epoch(int64_t year, int64_t month, int64_t day)
{
	/* Count years from March, so that February's leap day ends the year. */
	year -= month <= 2;
	int64_t era = year / 400, year_of_era = year - era * 400;
	int64_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
	int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
	return era * 146097 + day_of_era - 719468;
}

uint64_t rtc_epoch_seconds(void)
{
	/* Read until two reads agree, neither during an update: a read that
	 * straddles one could pair 12:59 with the next hour's 13. */
	struct rtc_time t, again;
	do {
		while (rtc_read(REG_STATUS_A) & STATUS_A_UPDATING)
			cpu_relax();
		t = rtc_read_all();
		again = rtc_read_all();
	} while (!same(t, again));

	uint8_t status = rtc_read(REG_STATUS_B);
	bool pm = t.hour & HOURS_PM;
	t.hour &= (uint8_t)~HOURS_PM;
	if (!(status & STATUS_B_BINARY)) {
		t.sec = from_bcd(t.sec), t.min = from_bcd(t.min), t.hour = from_bcd(t.hour);
		t.day = from_bcd(t.day), t.month = from_bcd(t.month), t.year = from_bcd(t.year);
	}
	if (!(status & STATUS_B_24H))
		t.hour = (uint8_t)(t.hour % 12 + (pm ? 12 : 0));
	/* Two digits of year: PCs of this century (the century register is
	 * not where ACPI says on every machine). */
	int64_t days = days_since_epoch(2000 + t.year, t.month, t.day);
	return (uint64_t)(days * 86400 + t.hour * 3600 + t.min * 60 + t.sec);
}
