/* The built-in commands: those that must act on the shell itself. The
 * job-control ones are in jobs.c. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sh.h"

#define MAX_SOURCE_DEPTH 32  /* `.` within `.`: a file that sources itself stops here */

static int builtin_cd(int argc, char **argv)
{
	const char *home = var_get("HOME");
	const char *dir = argc > 1 ? argv[1] : home && *home ? home : "/";
	if (argc > 2) {
		warn("cd: too many arguments");
		return 1;
	}
	if (chdir(dir) < 0) {
		warn("cd: %s: %s", dir, strerror(errno));
		return 1;
	}
	char cwd[PATH_MAX];
	if (getcwd(cwd, sizeof cwd))
		var_set("PWD", cwd, false);  /* or children would inherit a stale one */
	return 0;
}

static int builtin_pwd(int argc, char **argv)
{
	(void)argc, (void)argv;
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd)) {
		warn("pwd: %s", strerror(errno));
		return 1;
	}
	puts(cwd);
	return 0;
}

/* A whole number in 0..255 (exit statuses are a byte), or -1. */
static int parse_status(const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);
	return *s && !*end && n >= 0 && n <= 255 ? (int)n : -1;
}

static int builtin_exit(int argc, char **argv)
{
	int status = argc > 1 ? parse_status(argv[1]) : last_status;
	if (status < 0) {
		warn("exit: %s: not a status (0..255)", argv[1]);
		status = 2;
	}
	sh_exit(status);
}

static int builtin_export(int argc, char **argv)
{
	int status = 0;
	if (argc == 1)
		var_print_exported();
	for (int i = 1; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		if (!is_name(argv[i], eq ? (size_t)(eq - argv[i]) : strlen(argv[i]))) {
			warn("export: %s: not a valid name", argv[i]);
			status = 1;
		} else if (eq)
			var_assign(argv[i], true);
		else
			var_set(argv[i], NULL, true);
	}
	return status;
}

static int builtin_unset(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		var_unset(argv[i]);
	return 0;
}

static int builtin_history(int argc, char **argv)
{
	(void)argc, (void)argv;
	history_print();
	return 0;
}

/* . FILE [ARG...]: FILE's commands in this shell, with the ARGs as $1... */
static int builtin_source(int argc, char **argv)
{
	static int depth;
	if (argc < 2) {
		warn("%s: usage: %s FILE [ARG...]", argv[0], argv[0]);
		return 2;
	}
	if (depth >= MAX_SOURCE_DEPTH) {
		warn("%s: %s: nested too deeply", argv[0], argv[1]);
		return 1;
	}
	int fd = open_high(argv[1]);
	if (fd < 0) {
		warn("%s: %s: %s", argv[0], argv[1], strerror(errno));
		return 1;
	}
	char **outer_params = params;
	int outer_nparams = nparams;
	if (argc > 2) {
		params = argv + 2;
		nparams = argc - 2;
	}
	depth++;
	int status = run_file(fd);
	depth--;
	params = outer_params;
	nparams = outer_nparams;
	close(fd);
	return status;
}

static int builtin_true(int argc, char **argv)
{
	(void)argc, (void)argv;
	return 0;
}

static int builtin_false(int argc, char **argv)
{
	(void)argc, (void)argv;
	return 1;
}

static const struct builtin {
	const char *name;
	builtin_fn *fn;
} builtins[] = {
	{ "cd", builtin_cd }, { "pwd", builtin_pwd }, { "exit", builtin_exit },
	{ "export", builtin_export }, { "unset", builtin_unset }, { "history", builtin_history },
	{ ".", builtin_source }, { "source", builtin_source }, { "jobs", builtin_jobs },
	{ "fg", builtin_fg }, { "bg", builtin_bg }, { "wait", builtin_wait },
	{ "true", builtin_true }, { ":", builtin_true }, { "false", builtin_false },
};

builtin_fn *find_builtin(const char *name)
{
	for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
		if (strcmp(builtins[i].name, name) == 0)
			return builtins[i].fn;
	return NULL;
}
