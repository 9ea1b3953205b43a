#include "lib/cmdline.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/util.h"

#include <stdarg.h>

struct parser {
	cmdline_warn_fn warn;
	int warnings;
};

/*
 * Report a problem. The message is formatted here first so that counting,
 * a NULL warn function and the length limit are all handled in one place.
 */
__attribute__((format(__printf__, 2, 3)))
static void complain(struct parser *ps, const char *fmt, ...)
{
	char msg[CMDLINE_MAX_WORD + 128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (ps->warn)
		ps->warn("%s", msg);
	ps->warnings++;
}

/* snprintf onto the end of buf; *pos stays inside buf so calls can chain. */
__attribute__((format(__printf__, 4, 5)))
static void append(char *buf, size_t size, size_t *pos, const char *fmt, ...)
{
	va_list ap;

	if (*pos >= size)	/* only when size is 0 */
		return;
	va_start(ap, fmt);
	int n = vsnprintf(buf + *pos, size - *pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		*pos = MIN(*pos + n, size - 1);
}

static void append_choices(char *buf, size_t size, size_t *pos, const struct param *p)
{
	for (size_t i = 0; p->choices[i]; i++)
		append(buf, size, pos, "%s%s", i ? "|" : "", p->choices[i]);
}

/* Show the variable's value as the command line would spell it. False for
 * PARAM_CALL, which has no variable. */
static bool format_value(const struct param *p, char *buf, size_t size)
{
	size_t pos = 0;

	switch (p->type) {
	case PARAM_INT:
		append(buf, size, &pos, "%lld", (long long)*(int64_t *)p->var);
		return true;
	case PARAM_BOOL:
		append(buf, size, &pos, "%s", *(bool *)p->var ? "on" : "off");
		return true;
	case PARAM_STRING:
		/* The precision guards against a buffer that lacks its NUL. */
		append(buf, size, &pos, "\"%.*s\"", (int)p->size, (char *)p->var);
		return true;
	case PARAM_CHOICE: {
		int index = *(int *)p->var;
		const char *name = "?";

		for (int i = 0; p->choices[i]; i++) {
			if (i == index)
				name = p->choices[i];
		}
		append(buf, size, &pos, "%s", name);
		return true;
	}
	case PARAM_CALL:
		break;
	}
	return false;
}

/* Store value into p's variable, or return false with the reason in err. */
static bool set_value(const struct param *p, const char *value, char *err, size_t errlen)
{
	size_t pos = 0;

	switch (p->type) {
	case PARAM_INT: {
		int64_t v;
		int rc = parse_i64(value, strlen(value), &v);

		if (rc == PARSE_INVALID) {
			append(err, errlen, &pos, "not a number");
			return false;
		}
		if (rc != 0 || v < p->min || v > p->max) {
			append(err, errlen, &pos, "out of range %lld..%lld",
			       (long long)p->min, (long long)p->max);
			return false;
		}
		*(int64_t *)p->var = v;
		return true;
	}
	case PARAM_BOOL: {
		static const char *const words[][2] = {	/* { false, true } */
			{ "0", "1" }, { "off", "on" }, { "no", "yes" }, { "false", "true" },
		};

		for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
			for (int truth = 0; truth < 2; truth++) {
				if (strcmp(value, words[i][truth]) == 0) {
					*(bool *)p->var = truth;
					return true;
				}
			}
		}
		append(err, errlen, &pos, "expected 1/0, on/off, yes/no or true/false");
		return false;
	}
	case PARAM_STRING: {
		size_t len = strlen(value);

		if (len >= p->size) {
			append(err, errlen, &pos, "too long (at most %zu characters)", p->size - 1);
			return false;
		}
		memcpy(p->var, value, len + 1);
		return true;
	}
	case PARAM_CHOICE:
		for (int i = 0; p->choices[i]; i++) {
			if (strcmp(value, p->choices[i]) == 0) {
				*(int *)p->var = i;
				return true;
			}
		}
		append(err, errlen, &pos, "expected one of ");
		append_choices(err, errlen, &pos, p);
		return false;
	case PARAM_CALL:
		err[0] = '\0';
		if (p->set(value, err, errlen) == 0)
			return true;
		if (!err[0])
			append(err, errlen, &pos, "invalid value");
		return false;
	}
	return false;
}

/* Apply one word (quotes already removed); word is modified. */
static void apply_word(struct parser *ps, char *word, const struct param *params, size_t nparams)
{
	char *eq = strchr(word, '=');
	const char *value = NULL;
	const struct param *p = NULL;

	if (eq) {
		*eq = '\0';
		value = eq + 1;
	}
	if (!word[0]) {
		complain(ps, "ignoring '%s%s': no parameter name", eq ? "=" : "", eq ? value : "");
		return;
	}
	for (size_t i = 0; i < nparams && !p; i++) {
		if (strcmp(params[i].name, word) == 0)
			p = &params[i];
	}
	if (!p) {
		complain(ps, "unknown boot parameter '%s' (ignored)", word);
		return;
	}

	char err[128], current[CMDLINE_MAX_WORD];

	if (!value && p->type == PARAM_BOOL)
		value = "1";
	if (!value)
		strlcpy(err, "needs a value", sizeof(err));
	else if (set_value(p, value, err, sizeof(err)))
		return;

	if (format_value(p, current, sizeof(current)))
		complain(ps, "%s%s%s: %s, keeping default %s", p->name,
			 value ? "=" : "", value ? value : "", err, current);
	else
		complain(ps, "%s%s%s: %s", p->name, value ? "=" : "", value ? value : "", err);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

enum word_status { WORD_OK, WORD_TOO_LONG, WORD_UNTERMINATED };

/*
 * Copy the word at *pos into word (size bytes, always NUL-terminated),
 * dropping double quotes; spaces inside quotes belong to the word. *pos is
 * left just past the word, even if it did not fit.
 */
static enum word_status next_word(const char **pos, char *word, size_t size)
{
	const char *s = *pos;
	size_t n = 0;
	bool quoted = false, too_long = false;

	for (; *s && (quoted || !is_space(*s)); s++) {
		if (*s == '"')
			quoted = !quoted;
		else if (n + 1 < size)
			word[n++] = *s;
		else
			too_long = true;
	}
	word[n] = '\0';
	*pos = s;
	if (quoted)
		return WORD_UNTERMINATED;
	return too_long ? WORD_TOO_LONG : WORD_OK;
}

int cmdline_parse(const char *cmdline, const struct param *params, size_t nparams,
		  cmdline_warn_fn warn)
{
	struct parser ps = { .warn = warn, .warnings = 0 };
	const char *pos = cmdline ? cmdline : "";
	char word[CMDLINE_MAX_WORD];

	for (;;) {
		while (is_space(*pos))
			pos++;
		if (!*pos)
			break;

		switch (next_word(&pos, word, sizeof(word))) {
		case WORD_OK:
			apply_word(&ps, word, params, nparams);
			break;
		case WORD_TOO_LONG:
			complain(&ps, "ignoring '%.32s...': longer than %d characters",
				 word, CMDLINE_MAX_WORD - 1);
			break;
		case WORD_UNTERMINATED:
			complain(&ps, "ignoring '%s': unterminated quote", word);
			break;
		}
	}
	return ps.warnings;
}

void cmdline_describe(const struct param *p, char *buf, size_t len)
{
	char current[CMDLINE_MAX_WORD];
	size_t pos = 0;

	if (len > 0)
		buf[0] = '\0';
	append(buf, len, &pos, "%s", p->name);
	switch (p->type) {
	case PARAM_INT:
		append(buf, len, &pos, "=<%lld..%lld>", (long long)p->min, (long long)p->max);
		break;
	case PARAM_BOOL:
		append(buf, len, &pos, "[=<bool>]");
		break;
	case PARAM_STRING:
		append(buf, len, &pos, "=<string>");
		break;
	case PARAM_CHOICE:
		append(buf, len, &pos, "=<");
		append_choices(buf, len, &pos, p);
		append(buf, len, &pos, ">");
		break;
	case PARAM_CALL:
		append(buf, len, &pos, "=<value>");
		break;
	}
	if (format_value(p, current, sizeof(current)))
		append(buf, len, &pos, " (default %s)", current);
	if (p->help)
		append(buf, len, &pos, ": %s", p->help);
}
