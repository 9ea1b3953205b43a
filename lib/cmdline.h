/*
 * Kernel command line: "hz=250 quiet root=\"my disk\" sched=rr".
 *
 * Words are separated by spaces (or tabs/newlines). Each is key=value or a
 * bare key; double quotes may wrap any part of a word to include spaces and
 * are removed. A bare key means "1" for PARAM_BOOL and is an error for the
 * other types. Unknown keys and bad values produce a warning through the
 * caller's function; a bad value leaves the variable untouched, so it keeps
 * its default (which the warning shows). If a key repeats, each occurrence
 * is applied in turn.
 *
 * Parameters are declared next to the code that uses them:
 *
 *	static int64_t hz = 1000;
 *	BOOT_PARAM_INT("hz", hz, 100, 10000, "timer ticks per second");
 *
 * which places a struct param in the "boot_params" section; the kernel
 * passes the section (__start_boot_params up to __stop_boot_params,
 * symbols the GNU linker makes for sections named like C identifiers)
 * to cmdline_parse().
 */
#ifndef LIB_CMDLINE_H
#define LIB_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest word (key=value, after quote removal) accepted, NUL included. */
#define CMDLINE_MAX_WORD 2048

enum param_type {
	PARAM_INT,	/* var is int64_t *, value must lie in min..max */
	PARAM_BOOL,	/* var is bool *; 1/0 on/off yes/no true/false */
	PARAM_STRING,	/* var is char[size]; a value that does not fit is an error */
	PARAM_CHOICE,	/* var is int *, set to the index of the value in choices */
	PARAM_CALL,	/* set() decides */
};

struct param {
	const char *name;
	enum param_type type;
	void *var;
	const char *help;
	int64_t min, max;		/* PARAM_INT */
	size_t size;			/* PARAM_STRING */
	const char *const *choices;	/* PARAM_CHOICE, NULL-terminated */
	/* PARAM_CALL: return 0, or < 0 after writing the reason into err. */
	int (*set)(const char *value, char *err, size_t errlen);
	bool sysctl;			/* PARAM_INT: may also change at run time (kernel/sysctl.h) */
};

typedef void (*cmdline_warn_fn)(const char *fmt, ...) __attribute__((format(__printf__, 1, 2)));

/* Apply cmdline (NULL means empty) to params. warn may be NULL.
 * Returns the number of warnings. */
int cmdline_parse(const char *cmdline, const struct param *params, size_t nparams,
		  cmdline_warn_fn warn);

/*
 * One line of documentation, e.g.
 *	"hz=<100..10000> (default 1000): timer ticks per second"
 * The default shown is the variable's current value, so call this before
 * cmdline_parse(). Truncated to fit len bytes.
 */
void cmdline_describe(const struct param *p, char *buf, size_t len);

/* The registered parameters, in link order (see BOOT_PARAM below). */
extern const struct param __start_boot_params[], __stop_boot_params[];

/*
 * aligned(8) pins each entry to its natural alignment: otherwise the
 * compiler may over-align large objects, leaving gaps that would break
 * walking the section as an array. "used" keeps unreferenced entries.
 */
#define BOOT_PARAM(id, ...)						\
	static const struct param boot_param_##id			\
	__attribute__((used, section("boot_params"), aligned(8))) = { __VA_ARGS__ }

/* &var as a void *, but only if &var has type ptr_type: a mismatch is a compile error. */
#define BOOT_PARAM_VAR(var, ptr_type) _Generic(&(var), ptr_type: (void *)&(var))

/* var_ must be a plain variable name (it also names the table entry). */
#define BOOT_PARAM_INT(name_, var_, min_, max_, help_)			\
	BOOT_PARAM(var_, .name = name_, .type = PARAM_INT, .help = help_, \
		   .var = BOOT_PARAM_VAR(var_, int64_t *), .min = min_, .max = max_)

#define BOOT_PARAM_BOOL(name_, var_, help_)				\
	BOOT_PARAM(var_, .name = name_, .type = PARAM_BOOL, .help = help_, \
		   .var = BOOT_PARAM_VAR(var_, bool *))

/* var_ must be a char array; its size is the limit. */
#define BOOT_PARAM_STRING(name_, var_, help_)				\
	BOOT_PARAM(var_, .name = name_, .type = PARAM_STRING, .help = help_, \
		   .var = BOOT_PARAM_VAR(var_, char (*)[sizeof(var_)]), .size = sizeof(var_))

/* choices_: a NULL-terminated array of names; var_: an int index into it. */
#define BOOT_PARAM_CHOICE(name_, var_, choices_, help_)			\
	BOOT_PARAM(var_, .name = name_, .type = PARAM_CHOICE, .help = help_, \
		   .var = BOOT_PARAM_VAR(var_, int *), .choices = choices_)

/* fn: int fn(const char *value, char *err, size_t errlen) */
#define BOOT_PARAM_CALL(name_, fn, help_)				\
	BOOT_PARAM(fn, .name = name_, .type = PARAM_CALL, .help = help_, .set = fn)

#endif
