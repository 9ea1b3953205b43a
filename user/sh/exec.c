/*
 * Running a tree: lists, and-or lists, pipelines, redirections and the
 * search of PATH. A pipeline's stages are children of the shell in one job
 * (jobs.c); a built-in alone in the foreground runs in the shell itself, so
 * that cd and exit act on it, its redirections undone afterwards.
 */
#define _GNU_SOURCE  /* pipe2() */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sh.h"

static bool interrupted;  /* a foreground job died of Ctrl-C: drop the rest of the line */

struct expanded {
	struct strv assigns;  /* NAME=value */
	struct strv args;
};

/* For a built-in run in the shell: the descriptors 0..9 as they were
 * before their first redirection (a copy, or -1: closed), to put back. */
struct saved_fds {
	bool saved[10];
	int copy[10];
};

static void expand_command(const struct command *c, struct expanded *e)
{
	*e = (struct expanded){ 0 };
	for (int i = 0; i < c->words.n; i++) {
		if (i < c->nassigns)
			strv_push(&e->assigns, expand_string(c->words.v[i]));
		else
			expand_fields(c->words.v[i], &e->args);
	}
}

static void free_expanded(struct expanded *e)
{
	strv_free(&e->assigns);
	strv_free(&e->args);
}

/* The descriptor `from` becomes `to` (and stays open across exec). */
static bool move_fd(int from, int to)
{
	if (from == to)
		return fcntl(to, F_SETFD, 0) == 0;
	bool ok = dup2(from, to) == to;
	close(from);
	return ok;
}

static bool redirect(const struct redir *r, const char *target)
{
	static const int flags[] = {
		[REDIR_IN] = O_RDONLY,
		[REDIR_OUT] = O_WRONLY | O_CREAT | O_TRUNC,
		[REDIR_APPEND] = O_WRONLY | O_CREAT | O_APPEND,
	};
	if (r->op == REDIR_DUP_IN || r->op == REDIR_DUP_OUT) {
		if (strcmp(target, "-") == 0)
			return close(r->fd) == 0 || errno == EBADF;
		if (target[0] < '0' || target[0] > '9' || target[1]) {
			warn("%s: bad file descriptor", target);
			return false;
		}
		if (target[0] - '0' == r->fd || dup2(target[0] - '0', r->fd) >= 0)
			return true;
	} else {
		int fd = open(target, flags[r->op] | O_CLOEXEC, 0666);
		if (fd >= 0 && move_fd(fd, r->fd))
			return true;
	}
	warn("%s: %s", target, strerror(errno));
	return false;
}

/* Applies a command's redirections in order, first saving what they
 * change if `saved`. */
static bool apply_redirs(const struct redir *r, struct saved_fds *saved)
{
	for (; r; r = r->next) {
		if (saved && !saved->saved[r->fd]) {
			saved->saved[r->fd] = true;
			saved->copy[r->fd] = fcntl(r->fd, F_DUPFD_CLOEXEC, FIRST_SHELL_FD);
		}
		char *target = expand_string(r->word);
		bool ok = redirect(r, target);
		free(target);
		if (!ok)
			return false;
	}
	return true;
}

static void restore_fds(const struct saved_fds *saved)
{
	fflush(stdout);
	for (int fd = 0; fd < 10; fd++) {
		if (saved->saved[fd] && saved->copy[fd] >= 0)
			move_fd(saved->copy[fd], fd);
		else if (saved->saved[fd])
			close(fd);
	}
}

/* A built-in, or assignments and redirections alone, in the shell. Their
 * assignments stay: POSIX's rule for special built-ins, taken for all. */
static int run_in_shell(const struct command *c, struct expanded *e, builtin_fn *builtin)
{
	struct saved_fds saved = { 0 };
	int status = 1;
	if (apply_redirs(c->redirs, &saved)) {
		for (int i = 0; i < e->assigns.n; i++)
			var_assign(e->assigns.v[i], false);
		status = builtin ? builtin(e->args.n, e->args.v) : 0;
	}
	restore_fds(&saved);
	return status;
}

/* execve(), and a file that is no program is a script for this shell. */
static void try_exec(const char *path, char **args, char **env)
{
	execve(path, args, env);
	if (errno == ENOEXEC)
		run_script(path, args + 1);
}

static noreturn void exec_program(char **args)
{
	char **env = var_environ();
	int error = ENOENT;
	if (strchr(args[0], '/')) {
		try_exec(args[0], args, env);
		error = errno;
	} else {
		const char *path = var_get("PATH");
		for (const char *dir = path ? path : "/bin"; ; dir++) {
			size_t len = strcspn(dir, ":");
			struct buf file = { 0 };
			for (size_t i = 0; i < len; i++)
				buf_add(&file, dir[i]);
			buf_adds(&file, len ? "/" : "./");  /* an empty directory is the current one */
			buf_adds(&file, args[0]);
			try_exec(file.s, args, env);
			free(file.s);
			if (errno != ENOENT && errno != ENOTDIR)
				error = errno;  /* remembered, but a later directory may have it */
			dir += len;
			if (!*dir)
				break;
		}
	}
	if (error == ENOENT) {
		warn("%s: not found", args[0]);
		exit(127);
	}
	warn("%s: %s", args[0], strerror(error));
	exit(126);
}

/* A stage, in its child: never returns. */
static noreturn void run_stage(const struct command *c, struct expanded *e)
{
	if (c->subshell)
		exit(apply_redirs(c->redirs, NULL) ? run_list(c->subshell) : 1);
	struct expanded here;
	if (!e) {
		expand_command(c, &here);
		e = &here;
	}
	for (int i = 0; i < e->assigns.n; i++)
		var_assign(e->assigns.v[i], true);
	if (!apply_redirs(c->redirs, NULL))
		exit(1);
	if (e->args.n == 0)
		exit(0);
	builtin_fn *builtin = find_builtin(e->args.v[0]);
	if (builtin)
		exit(builtin(e->args.n, e->args.v));
	exec_program(e->args.v);
}

/* The descriptor `from`, if any, becomes `to` (in a child). */
static void connect(int from, int to)
{
	if (from >= 0)
		move_fd(from, to);
}

/* A child for each stage, joined by pipes; the first stage may come
 * expanded already. */
static int launch(const struct pipeline *p, struct expanded *first, bool background)
{
	struct job *job = job_start(p->text, p->textlen, p->ncommands);
	int in = -1;  /* the read end of the pipe from the stage before */
	for (const struct command *c = p->commands; c; c = c->next) {
		int pipefd[2] = { -1, -1 };
		if (c->next && pipe2(pipefd, O_CLOEXEC) < 0) {
			warn("pipe: %s", strerror(errno));
			break;
		}
		pid_t pid = fork_child(job, !background);
		if (pid == 0) {
			connect(in, 0);
			connect(pipefd[1], 1);
			if (pipefd[0] >= 0)
				close(pipefd[0]);
			run_stage(c, c == p->commands ? first : NULL);
		}
		if (in >= 0)
			close(in);
		if (pipefd[1] >= 0)
			close(pipefd[1]);
		in = pipefd[0];
		if (pid < 0)
			break;
	}
	if (in >= 0)
		close(in);
	return job_launched(job, background);
}

static int run_pipeline(const struct pipeline *p, bool background)
{
	const struct command *c = p->commands;
	if (background || p->ncommands > 1 || c->subshell)
		return launch(p, NULL, background);
	struct expanded e;
	expand_command(c, &e);
	builtin_fn *builtin = e.args.n ? find_builtin(e.args.v[0]) : NULL;
	int status = builtin || e.args.n == 0 ? run_in_shell(c, &e, builtin) : launch(p, &e, false);
	free_expanded(&e);
	return status;
}

int run_andor(struct andor *a)
{
	for (struct pipeline *p = a->pipelines; p && !interrupted; p = p->next) {
		if ((p->when == RUN_IF_OK && last_status != 0) || (p->when == RUN_IF_FAILED && last_status == 0))
			continue;  /* and the status goes on to the next && or || */
		last_status = run_pipeline(p, false);
		interrupted = interactive && last_status == 128 + SIGINT;
	}
	return last_status;
}

/* A single pipeline is a job of its own; an and-or list runs in a child. */
static int run_background(struct andor *a)
{
	if (!a->pipelines->next)
		return run_pipeline(a->pipelines, true);
	struct job *job = job_start(a->text, a->textlen, 1);
	if (fork_child(job, false) == 0)
		exit(run_andor(a));
	return job_launched(job, true);
}

int run_list(struct andor *list)
{
	interrupted = false;
	for (struct andor *a = list; a && !interrupted; a = a->next)
		last_status = a->background ? run_background(a) : run_andor(a);
	return last_status;
}
