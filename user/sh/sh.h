/* What the files of the shell share (main.c says what the shell does). */
#ifndef SH_H
#define SH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdnoreturn.h>
#include <sys/types.h>

#define MAX_LINE 4096      /* bytes in an input line, without its newline */
#define FIRST_SHELL_FD 10  /* the shell's own descriptors are >= this: users name 0..9 */

/* main.c: the shell's state, and running text. */
extern bool interactive;       /* reading commands from a terminal */
extern int last_status;        /* $? */
extern pid_t shell_pid;        /* $$ */
extern pid_t last_background;  /* $!, 0 before the first */
bool run_text(const char *text);  /* false after a syntax error */
int run_file(int fd);
int open_high(const char *path);  /* read-only, close-on-exec, fd >= FIRST_SHELL_FD */
noreturn void run_script(const char *path, char **args);
noreturn void sh_exit(int status);

/* util.c: memory that never runs out (or the shell exits), and growing arrays. */
struct buf {  /* a string that grows */
	char *s;
	size_t len, cap;
};
struct strv {  /* an array of strings, always NULL-terminated */
	char **v;
	int n, cap;
};
void *xcalloc(size_t n, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
void buf_add(struct buf *b, char c);
void buf_adds(struct buf *b, const char *s);
char *buf_take(struct buf *b);
void strv_push(struct strv *sv, char *s);
void strv_free(struct strv *sv);
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* parse.c: a line of text to a syntax tree. Each level is a linked list,
 * so long lines are walked, not recursed: only ( ) nests. */
enum redir_op { REDIR_IN, REDIR_OUT, REDIR_APPEND, REDIR_DUP_IN, REDIR_DUP_OUT };
struct redir {  /* [fd]op word */
	struct redir *next;
	enum redir_op op;
	int fd;
	char *word;  /* raw, expanded when applied */
};
struct command {  /* a stage of a pipeline */
	struct command *next;   /* the stage that reads our output */
	struct strv words;      /* raw words: nassigns NAME=value, then the command */
	int nassigns;
	struct redir *redirs;
	struct andor *subshell; /* ( list ): run in a child instead of words */
};
enum run_when { RUN_ALWAYS, RUN_IF_OK, RUN_IF_FAILED };  /* after nothing, &&, || */
struct pipeline {
	struct pipeline *next;  /* the next in the and-or list */
	enum run_when when;     /* depending on the status before */
	struct command *commands;
	int ncommands;
	const char *text;       /* the source, for a job's name */
	size_t textlen;
};
struct andor {  /* an item of a list: pipelines joined by && and || */
	struct andor *next;
	struct pipeline *pipelines;
	bool background;        /* ended by & */
	const char *text;
	size_t textlen;
};
struct andor *parse(const char *text, bool *ok);
void free_list(struct andor *list);
bool is_name(const char *s, size_t len);

/* expand.c: raw words to strings. */
void expand_fields(const char *word, struct strv *out);  /* split and globbed */
char *expand_string(const char *word);                   /* one string */
const char *param_end(const char *name, bool braced);

/* var.c: variables and positional parameters. */
extern const char *arg0;  /* $0 */
extern char **params;     /* $1..., NULL-terminated */
extern int nparams;       /* $# */
const char *var_get(const char *name);
void var_set(const char *name, const char *value, bool export);
bool var_assign(const char *assignment, bool export);  /* "NAME=value" */
void var_unset(const char *name);
void var_import(char **env);
char **var_environ(void);
void var_print_exported(void);

/* exec.c: running trees. */
int run_list(struct andor *list);
int run_andor(struct andor *a);

/* jobs.c: children, process groups and the terminal. */
struct job;
void jobs_init(void);
struct job *job_start(const char *text, size_t textlen, int nprocs);
pid_t fork_child(struct job *job, bool foreground);
int job_launched(struct job *job, bool background);
void jobs_notify(void);
void jobs_hangup(void);
int builtin_jobs(int argc, char **argv);
int builtin_fg(int argc, char **argv);
int builtin_bg(int argc, char **argv);
int builtin_wait(int argc, char **argv);

/* builtin.c */
typedef int builtin_fn(int argc, char **argv);
builtin_fn *find_builtin(const char *name);

/* edit.c: the line editor and its history. */
bool edit_line(const char *prompt, char line[MAX_LINE + 1]);
void history_add(const char *line);
void history_print(void);

#endif
