/* Shell variables, exported or not, and the positional parameters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sh.h"

const char *arg0 = "sh";
static char *no_params[] = { NULL };
char **params = no_params;
int nparams;

struct var {
	struct var *next;
	char *name, *value;
	bool exported;
};
static struct var *vars;

static struct var **find(const char *name)
{
	struct var **v = &vars;
	while (*v && strcmp((*v)->name, name) != 0)
		v = &(*v)->next;
	return v;
}

const char *var_get(const char *name)
{
	struct var *v = *find(name);
	return v ? v->value : NULL;
}

/* A NULL value keeps the value (an exported variable may have none yet);
 * `export` false leaves an exported variable exported. */
void var_set(const char *name, const char *value, bool export)
{
	struct var **slot = find(name), *v = *slot;
	if (!v) {
		v = *slot = xcalloc(1, sizeof *v);
		v->name = xstrdup(name);
	}
	if (value) {
		char *copy = xstrdup(value);  /* value may be v->value itself */
		free(v->value);
		v->value = copy;
	}
	v->exported |= export;
}

bool var_assign(const char *assignment, bool export)
{
	const char *eq = strchr(assignment, '=');
	if (!eq || !is_name(assignment, eq - assignment))
		return false;
	char *name = xstrndup(assignment, eq - assignment);
	var_set(name, eq + 1, export);
	free(name);
	return true;
}

void var_unset(const char *name)
{
	struct var **slot = find(name), *v = *slot;
	if (v) {
		*slot = v->next;
		free(v->name);
		free(v->value);
		free(v);
	}
}

void var_import(char **env)
{
	for (; *env; env++)
		var_assign(*env, true);
}

/* The environment for execve(); only a child about to exec builds it. */
char **var_environ(void)
{
	struct strv env = { 0 };
	for (struct var *v = vars; v; v = v->next) {
		if (v->exported && v->value) {
			struct buf b = { 0 };
			buf_adds(&b, v->name);
			buf_add(&b, '=');
			buf_adds(&b, v->value);
			strv_push(&env, buf_take(&b));
		}
	}
	return env.v ? env.v : xcalloc(1, sizeof *env.v);
}

/* In single quotes, as the shell would read it back. */
static void print_quoted(const char *s)
{
	putchar('\'');
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", stdout);
		else
			putchar(*s);
	}
	putchar('\'');
}

/* As commands that would set them again: export NAME='value'. */
void var_print_exported(void)
{
	for (struct var *v = vars; v; v = v->next) {
		if (!v->exported)
			continue;
		printf("export %s", v->name);
		if (v->value) {
			putchar('=');
			print_quoted(v->value);
		}
		putchar('\n');
	}
}
