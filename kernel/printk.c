#include <stdarg.h>
#include <stdbool.h>
#include "kernel/printk.h"
#include "kernel/tty/serial.h"
#include "kernel/spinlock.h"
#include "kernel/percpu.h"
#include "kernel/params.h"
#include "arch/x86_64/time.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/time_units.h"

char log_buf[LOG_BUF_SIZE];
size_t log_buf_head;

static struct spinlock console_lock = SPINLOCK_INIT("console");

static bool quiet;
BOOT_PARAM_BOOL("quiet", quiet, "print only warnings and errors on the console");

static void emit(const char *s, size_t len, bool to_console)
{
	for (size_t i = 0; i < len; i++)
		log_buf[(log_buf_head + i) % LOG_BUF_SIZE] = s[i];
	log_buf_head += len;
	if (to_console)
		serial_write(s, len);
}

void printk(enum log_level level, const char *fmt, ...)
{
	static const char *const level_tag[] = { [LOG_ERR] = "ERROR: ", [LOG_WARN] = "WARNING: " };
	char text[512], prefix[40];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);

	uint64_t ns = clock_ns();
	int plen = snprintf(prefix, sizeof(prefix), "[%5llu.%06llu] cpu%d: ",
			    (unsigned long long)(ns / NS_PER_S), (unsigned long long)(ns % NS_PER_S / NS_PER_US),
			    this_cpu()->id);
	const char *tag = level == LOG_ERR || level == LOG_WARN ? level_tag[level] : "";
	bool to_console = !quiet || level <= LOG_WARN;

	uint64_t flags = spin_lock_irqsave(&console_lock);
	/* Each line of the message gets the prefix, so multi-line output stays attributable. */
	for (const char *line = text; *line; ) {
		const char *end = line;
		while (*end && *end != '\n')
			end++;
		emit(prefix, (size_t)plen, to_console);
		emit(tag, strlen(tag), to_console);
		emit(line, (size_t)(end - line), to_console);
		emit("\n", 1, to_console);
		line = *end ? end + 1 : end;
	}
	spin_unlock_irqrestore(&console_lock, flags);
}

void console_write(const char *s, size_t len)
{
	uint64_t flags = spin_lock_irqsave(&console_lock);
	serial_write(s, len);
	spin_unlock_irqrestore(&console_lock, flags);
}

void console_take_over(void)
{
	spin_force_unlock(&console_lock);
}
