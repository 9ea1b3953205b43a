/*
 * Expansion of a raw word, in one pass: ~ at its start, $parameters,
 * quote removal, then (for a command's words) field splitting of what an
 * unquoted $ gave, on blanks, and pathname expansion of a field with an
 * unquoted * ? or [. The parser has checked the quotes, so this cannot fail.
 */
#include <ctype.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sh.h"

struct expansion {
	bool fields;         /* split and glob (a command's words), or one string */
	struct buf text;     /* the field so far */
	struct buf pattern;  /* the same for glob(), its quoted * ? [ \ escaped */
	bool started;        /* a field is there, if only "" */
	bool glob;           /* it has an unquoted * ? [ */
	struct strv *out;
};

static void add(struct expansion *e, char c, bool quoted)
{
	buf_add(&e->text, c);
	if (e->fields) {
		if (quoted && strchr("*?[\\", c))
			buf_add(&e->pattern, '\\');
		buf_add(&e->pattern, c);
		e->glob |= !quoted && strchr("*?[", c);
	}
	e->started = true;
}

/* The field is complete: out it goes, or the names it matches. */
static void end_field(struct expansion *e)
{
	if (!e->started)
		return;
	glob_t g;
	if (e->glob && glob(e->pattern.s, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++)
			strv_push(e->out, xstrdup(g.gl_pathv[i]));
		globfree(&g);
		free(buf_take(&e->text));
	} else
		strv_push(e->out, buf_take(&e->text));
	free(buf_take(&e->pattern));
	e->started = e->glob = false;
}

/* A parameter's value: unquoted, its blanks separate fields. */
static void add_value(struct expansion *e, const char *value, bool quoted)
{
	for (; *value; value++) {
		if (!quoted && e->fields && strchr(" \t\n", *value))
			end_field(e);
		else
			add(e, *value, quoted);
	}
}

/* Where the parameter named at `name` ends (`name` if none is). */
const char *param_end(const char *name, bool braced)
{
	const char *p = name;
	if (isdigit((unsigned char)*p)) {
		if (!braced)
			return p + 1;  /* $10 is ${1}0 */
		while (isdigit((unsigned char)*p))
			p++;
	} else if (*p && strchr("?$!#@*", *p))
		p++;
	else if (isalpha((unsigned char)*p) || *p == '_')
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
	return p;
}

static void add_number(struct expansion *e, long n, bool quoted)
{
	char digits[24];
	snprintf(digits, sizeof digits, "%ld", n);
	add_value(e, digits, quoted);
}

static void expand_param(struct expansion *e, const char *name, size_t len, bool quoted)
{
	if (len == 1 && (*name == '@' || *name == '*')) {
		for (int i = 0; i < nparams; i++) {
			if (i > 0 && quoted && *name == '@' && e->fields) {
				end_field(e);  /* "$@": a field per parameter, if empty */
				e->started = true;
			} else if (i > 0)
				add_value(e, " ", quoted);
			add_value(e, params[i], quoted);
		}
	} else if (len == 1 && *name == '?')
		add_number(e, last_status, quoted);
	else if (len == 1 && *name == '$')
		add_number(e, shell_pid, quoted);
	else if (len == 1 && *name == '#')
		add_number(e, nparams, quoted);
	else if (len == 1 && *name == '!') {
		if (last_background)
			add_number(e, last_background, quoted);
	} else if (isdigit((unsigned char)*name)) {
		long n = 0;
		for (size_t i = 0; i < len && n <= nparams; i++)
			n = 10 * n + name[i] - '0';
		if (n == 0)
			add_value(e, arg0, quoted);
		else if (n <= nparams)
			add_value(e, params[n - 1], quoted);
	} else {
		char *var = xstrndup(name, len);
		const char *value = var_get(var);
		free(var);
		if (value)
			add_value(e, value, quoted);
	}
}

/* After a $: the parameter, or a plain $ if none is named. */
static const char *expand_dollar(struct expansion *e, const char *w, bool quoted)
{
	bool braced = *w == '{';
	const char *name = w + braced, *end = param_end(name, braced);
	if (end == name || (braced && *end != '}')) {
		add(e, '$', quoted);
		return w;
	}
	expand_param(e, name, end - name, quoted);
	return end + braced;
}

/* After a ": within, \ quotes only $ ` " \ and newline. */
static const char *expand_double(struct expansion *e, const char *w)
{
	e->started = true;
	while (*w && *w != '"') {
		char c = *w++;
		if (c == '\\' && *w && strchr("$`\"\\\n", *w)) {
			if (*w != '\n')
				add(e, *w, true);
			w++;
		} else if (c == '$')
			w = expand_dollar(e, w, true);
		else
			add(e, c, true);
	}
	return *w ? w + 1 : w;
}

static void expand(struct expansion *e, const char *w)
{
	const char *home = var_get("HOME");
	if (w[0] == '~' && (w[1] == '/' || !w[1]) && home) {
		add_value(e, home, true);
		w++;
	}
	while (*w) {
		char c = *w++;
		if (c == '\'') {
			e->started = true;
			while (*w && *w != '\'')
				add(e, *w++, true);
			w += *w != '\0';
		} else if (c == '"')
			w = expand_double(e, w);
		else if (c == '\\' && *w == '\n')
			w++;  /* a line continued */
		else if (c == '\\' && *w)
			add(e, *w++, true);
		else if (c == '$')
			w = expand_dollar(e, w, false);
		else
			add(e, c, false);
	}
}

/* The fields of a command's word, added to `out`. */
void expand_fields(const char *word, struct strv *out)
{
	if (nparams == 0 && strcmp(word, "\"$@\"") == 0)
		return;  /* "$@" with no parameters is no field at all, not "" */
	struct expansion e = { .fields = true, .out = out };
	expand(&e, word);
	end_field(&e);
}

/* A word as one string, neither split nor globbed (assignments, redirections). */
char *expand_string(const char *word)
{
	struct expansion e = { .fields = false };
	expand(&e, word);
	return buf_take(&e.text);
}
