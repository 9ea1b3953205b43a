/*
 * Jobs. Each pipeline is one: its children share a process group of their
 * own when the shell has job control (interactive, on its controlling
 * terminal). The foreground job gets the terminal, and the shell takes it
 * back with its settings when the job ends or stops. Children are reaped
 * with waitpid(WUNTRACED | WCONTINUED); what became of the background
 * jobs is told before the next prompt, as bash does.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include "sh.h"

struct process {
	pid_t pid;
	int status;  /* from waitpid */
	bool done, stopped;
};

struct job {
	struct job *next;
	int id;                  /* %id */
	pid_t pgid;              /* the first child's pid */
	char *text;
	bool reported;           /* its stop has been told */
	bool has_tmodes;         /* the terminal as the job left it when it stopped */
	struct termios tmodes;
	int nprocs;
	struct process procs[];
};

static struct job *jobs;  /* by id */
static bool job_control;
static pid_t shell_pgid;
static struct termios shell_tmodes;

/* Ignored by an interactive shell, the default again in its children. */
static const int terminal_signals[] = { SIGINT, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU };

static void set_terminal_signals(void (*action)(int))
{
	for (size_t i = 0; i < sizeof terminal_signals / sizeof terminal_signals[0]; i++)
		signal(terminal_signals[i], action);
}

void jobs_init(void)
{
	pid_t foreground;
	while ((foreground = tcgetpgrp(0)) >= 0 && foreground != getpgrp())
		kill(0, SIGTTIN);  /* started in the background: wait to be brought forward */
	set_terminal_signals(SIG_IGN);
	if (foreground < 0) {
		warn("no job control: %s", strerror(errno));
		return;
	}
	setpgid(0, 0);  /* fails for a session leader, which leads its group already */
	shell_pgid = getpgrp();
	job_control = tcsetpgrp(0, shell_pgid) == 0 && tcgetattr(0, &shell_tmodes) == 0;
}

static bool job_done(const struct job *j)
{
	for (int i = 0; i < j->nprocs; i++)
		if (!j->procs[i].done)
			return false;
	return true;
}

/* Stopped: some process is, and the others are done. */
static bool job_stopped(const struct job *j)
{
	bool any = false;
	for (int i = 0; i < j->nprocs; i++) {
		if (!j->procs[i].done && !j->procs[i].stopped)
			return false;
		any |= j->procs[i].stopped;
	}
	return any;
}

/* As $?: the last process's. */
static int job_status(const struct job *j)
{
	int status = j->procs[j->nprocs - 1].status;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	if (WIFSTOPPED(status))
		return 128 + WSTOPSIG(status);
	return WEXITSTATUS(status);
}

/* The current job, %+: the newest stopped one, or else the newest. */
static struct job *current_job(void)
{
	struct job *current = NULL;
	for (struct job *j = jobs; j; j = j->next)
		if (!current || job_stopped(j) || !job_stopped(current))
			current = j;
	return current;
}

static void job_print(FILE *f, const struct job *j)
{
	char exit_state[16];
	const char *state = job_stopped(j) ? "Stopped" : job_done(j) ? "Done" : "Running";
	int status = j->procs[j->nprocs - 1].status;
	if (job_done(j) && WIFSIGNALED(status))
		state = strsignal(WTERMSIG(status));
	else if (job_done(j) && WEXITSTATUS(status)) {
		snprintf(exit_state, sizeof exit_state, "Exit %d", WEXITSTATUS(status));
		state = exit_state;
	}
	fprintf(f, "[%d]%c  %-24s%s\n", j->id, j == current_job() ? '+' : ' ', state, j->text);
}

struct job *job_start(const char *text, size_t textlen, int nprocs)
{
	struct job *j = xcalloc(1, sizeof *j + nprocs * sizeof j->procs[0]), **tail = &jobs;
	j->id = 1;
	for (; *tail; tail = &(*tail)->next)
		j->id = (*tail)->id + 1;
	*tail = j;
	j->text = xstrndup(text, textlen);
	return j;
}

static void job_remove(struct job *j)
{
	struct job **slot = &jobs;
	while (*slot != j)
		slot = &(*slot)->next;
	*slot = j->next;
	free(j->text);
	free(j);
}

/* A child for the job. It starts as the shell's job-control children
 * must: in the job's group, which has the terminal if foreground, and
 * with the signals' default actions. */
pid_t fork_child(struct job *job, bool foreground)
{
	fflush(NULL);  /* or the child would write the shell's buffered output again */
	pid_t pid = fork();
	if (pid < 0)
		warn("fork: %s", strerror(errno));
	if (pid > 0) {
		job->procs[job->nprocs++] = (struct process){ .pid = pid };
		if (!job->pgid)
			job->pgid = pid;
		if (job_control)
			setpgid(pid, job->pgid);  /* as the child does: whichever runs first */
	}
	if (pid != 0)
		return pid;
	if (job_control) {
		setpgid(0, job->pgid);
		if (foreground)
			tcsetpgrp(0, job->pgid ? job->pgid : getpid());  /* while SIGTTOU is ignored */
	}
	if (interactive)
		set_terminal_signals(SIG_DFL);
	if (!job_control && !foreground) {
		signal(SIGINT, SIG_IGN);  /* POSIX: Ctrl-C is for the foreground */
		signal(SIGQUIT, SIG_IGN);
	}
	interactive = job_control = false;
	while (jobs)
		job_remove(jobs);
	return 0;
}

/* One child has changed: which, and how. False when none is left, or none
 * has changed and `block` is false, or a signal came (EINTR). */
static bool reap(bool block)
{
	int status;
	pid_t pid = waitpid(-1, &status, WUNTRACED | WCONTINUED | (block ? 0 : WNOHANG));
	if (pid <= 0)
		return false;
	for (struct job *j = jobs; j; j = j->next) {
		for (int i = 0; i < j->nprocs; i++) {
			struct process *p = &j->procs[i];
			if (p->pid != pid)
				continue;
			if (WIFCONTINUED(status))
				j->reported = false;  /* it may stop again */
			else
				p->status = status;
			p->stopped = WIFSTOPPED(status);
			p->done = WIFEXITED(status) || WIFSIGNALED(status);
		}
	}
	return true;
}

/* Until the job ends or stops: false if that was not seen. */
static bool wait_for(struct job *j)
{
	while (!job_done(j) && !job_stopped(j))
		if (!reap(true))
			return false;
	return true;
}

static void job_continue(struct job *j)
{
	kill(-j->pgid, SIGCONT);
	for (int i = 0; i < j->nprocs; i++)
		j->procs[i].stopped = false;
	j->reported = false;
}

/* A foreground job's death by a signal is told, as bash does, but for
 * Ctrl-C (whose ^C the terminal has shown) and a broken pipe. */
static void report_death(const struct job *j)
{
	int status = j->procs[j->nprocs - 1].status;
	if (!WIFSIGNALED(status) || WTERMSIG(status) == SIGPIPE)
		return;
	if (WTERMSIG(status) == SIGINT) {
		if (interactive)
			fputc('\n', stderr);
	} else
		fprintf(stderr, "%s%s\n", strsignal(WTERMSIG(status)), WCOREDUMP(status) ? " (core dumped)" : "");
}

static int job_foreground(struct job *j, bool cont)
{
	if (job_control) {
		tcsetpgrp(0, j->pgid);
		if (cont && j->has_tmodes)
			tcsetattr(0, TCSADRAIN, &j->tmodes);
	}
	if (cont)
		job_continue(j);
	wait_for(j);
	bool stopped = job_stopped(j);
	if (job_control) {
		tcsetpgrp(0, shell_pgid);
		j->has_tmodes = stopped && tcgetattr(0, &j->tmodes) == 0;
		tcsetattr(0, TCSADRAIN, &shell_tmodes);
	}
	int status = job_status(j);
	if (stopped) {
		fputc('\n', stderr);
		job_print(stderr, j);
		j->reported = true;
	} else {
		report_death(j);
		job_remove(j);
	}
	return status;
}

/* The job's children are all forked (or as many as could be): wait for it
 * in the foreground, or let it run. The status for $?. */
int job_launched(struct job *j, bool background)
{
	if (j->nprocs == 0) {
		job_remove(j);
		return 1;
	}
	if (!background)
		return job_foreground(j, false);
	last_background = j->procs[j->nprocs - 1].pid;
	if (interactive)
		fprintf(stderr, "[%d] %d\n", j->id, (int)last_background);
	return 0;
}

/* Tells of the jobs done or newly stopped, or of `all`, and forgets
 * those done. */
static void report_jobs(FILE *f, bool all)
{
	for (struct job *j = jobs, *next; j; j = next) {
		next = j->next;
		if (all || job_done(j) || (job_stopped(j) && !j->reported))
			job_print(f, j);
		if (job_done(j))
			job_remove(j);
		else
			j->reported |= job_stopped(j);
	}
}

/* Before a prompt. A shell that is not interactive keeps the jobs done
 * until `wait` asks for them. */
void jobs_notify(void)
{
	while (reap(false))
		continue;
	if (interactive)
		report_jobs(stderr, false);
}

/* At exit: stopped jobs would wait for ever. */
void jobs_hangup(void)
{
	for (struct job *j = jobs; j; j = j->next) {
		if (job_control && job_stopped(j)) {
			kill(-j->pgid, SIGHUP);
			kill(-j->pgid, SIGCONT);
		}
	}
}

static bool job_has_pid(const struct job *j, long pid)
{
	for (int i = 0; i < j->nprocs; i++)
		if (j->procs[i].pid == pid)
			return true;
	return false;
}

/* %n, n, %% or %+ (none: the current job); for `wait`, n is a pid. */
static struct job *find_job(const char *cmd, const char *spec, bool by_pid)
{
	struct job *found = NULL;
	if (!spec || !strcmp(spec, "%%") || !strcmp(spec, "%+"))
		found = current_job();
	else {
		bool by_id = *spec == '%' || !by_pid;
		const char *digits = spec + (*spec == '%');
		char *end;
		long n = strtol(digits, &end, 10);
		for (struct job *j = jobs; j && *digits && !*end && !found; j = j->next)
			if (by_id ? j->id == n : job_has_pid(j, n))
				found = j;
	}
	if (!found)
		warn("%s: %s: no such job", cmd, spec ? spec : "current");
	return found;
}

static struct job *job_argument(int argc, char **argv)
{
	if (!job_control) {
		warn("%s: no job control", argv[0]);
		return NULL;
	}
	return find_job(argv[0], argc > 1 ? argv[1] : NULL, false);
}

int builtin_jobs(int argc, char **argv)
{
	(void)argc, (void)argv;
	while (reap(false))
		continue;
	report_jobs(stdout, true);
	return 0;
}

int builtin_fg(int argc, char **argv)
{
	struct job *j = job_argument(argc, argv);
	if (!j)
		return 1;
	fprintf(stderr, "%s\n", j->text);
	return job_foreground(j, true);
}

int builtin_bg(int argc, char **argv)
{
	struct job *j = job_argument(argc, argv);
	if (!j)
		return 1;
	job_continue(j);
	fprintf(stderr, "[%d]%c %s &\n", j->id, j == current_job() ? '+' : ' ', j->text);
	return 0;
}

static void on_sigint(int sig)
{
	(void)sig;  /* only to interrupt waitpid() */
}

/* Waits for a job and forgets it if done. False if Ctrl-C came first. */
static bool wait_job(struct job *j, int *status)
{
	bool seen = wait_for(j);
	if (!seen && errno == EINTR) {
		fputc('\n', stderr);  /* after the ^C the terminal has shown */
		*status = 128 + SIGINT;
		return false;
	}
	*status = job_status(j);
	if (job_done(j) || !seen)
		job_remove(j);
	return true;
}

/* wait [pid|%n]...: with none, for every job that is not stopped. */
int builtin_wait(int argc, char **argv)
{
	struct sigaction interrupt = { .sa_handler = on_sigint }, old;
	if (interactive)  /* the shell ignores Ctrl-C, but a wait ends on it */
		sigaction(SIGINT, &interrupt, &old);
	int status = 0;
	bool going = true;
	for (struct job *j = jobs, *next; argc == 1 && j && going; j = next) {
		next = j->next;
		if (!job_stopped(j))
			going = wait_job(j, &status);
	}
	if (argc == 1 && going)
		status = 0;
	for (int i = 1; i < argc && going; i++) {
		struct job *j = find_job("wait", argv[i], true);
		if (j)
			going = wait_job(j, &status);
		else
			status = 127;
	}
	if (interactive)
		sigaction(SIGINT, &old, NULL);
	return status;
}
