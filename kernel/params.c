#include <stdarg.h>
#include "kernel/params.h"
#include "kernel/printk.h"
#include "lib/printf.h"


static void warn(const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pr_warn("cmdline: %s", msg);
}

void params_parse(const char *cmdline)
{
	cmdline_parse(cmdline, __start_boot_params, (size_t)(__stop_boot_params - __start_boot_params), warn);
}

void params_print_all(void)
{
	char line[256];
	pr_info("boot parameters:");
	for (const struct param *p = __start_boot_params; p < __stop_boot_params; p++) {
		cmdline_describe(p, line, sizeof(line));
		pr_info("  %s", line);
	}
}
