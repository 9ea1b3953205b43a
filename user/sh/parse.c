/*
 * The grammar, by recursive descent over a lexer that keeps one token:
 *
 *   list      = { andor ( ";" | "&" | newline ) } [ andor ]
 *   andor     = pipeline { ( "&&" | "||" ) pipeline }
 *   pipeline  = command { "|" command }
 *   command   = "(" list ")" { redir } | { word | redir }
 *   redir     = [digit] ( "<" | ">" | ">>" | "<&" | ">&" ) word
 *
 * Words are kept raw, quotes and all: expand.c reads them again when the
 * command runs. The lexer only checks that quotes and ${ } are closed, so
 * that expansion cannot fail.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sh.h"

#define MAX_NESTING 64  /* ( ) inside each other: the parser recurses there */

enum token { T_WORD, T_REDIR, T_AND_IF, T_OR_IF, T_PIPE, T_AMP, T_SEMI, T_LPAREN, T_RPAREN, T_NEWLINE, T_END };

/* Longest first, where one is the start of another. */
static const struct operator {
	const char *text;
	enum token token;
	enum redir_op op;
} operators[] = {
	{ "&&", T_AND_IF, 0 }, { "||", T_OR_IF, 0 }, { ">>", T_REDIR, REDIR_APPEND },
	{ ">&", T_REDIR, REDIR_DUP_OUT }, { "<&", T_REDIR, REDIR_DUP_IN }, { ">", T_REDIR, REDIR_OUT },
	{ "<", T_REDIR, REDIR_IN }, { "&", T_AMP, 0 }, { "|", T_PIPE, 0 }, { ";", T_SEMI, 0 },
	{ "(", T_LPAREN, 0 }, { ")", T_RPAREN, 0 }, { "\n", T_NEWLINE, 0 },
};

struct parser {
	const char *p;            /* where the lexer goes on */
	enum token tok;           /* the current token */
	const char *start, *end;  /* its text */
	const char *last_end;     /* the end of the token before it */
	char *word;               /* T_WORD: its raw text, until taken */
	enum redir_op op;         /* T_REDIR: which, and on which fd (-1: the default) */
	int fd;
	int depth;                /* of ( ) */
	const char *error;        /* the first error; then the token is T_END */
	char message[80];
};

/* The first error counts; the token becomes the end, so parsing stops. */
static void fail(struct parser *ps, const char *error)
{
	if (!ps->error)
		ps->error = error;
	ps->tok = T_END;
}

static void unexpected(struct parser *ps)
{
	if (ps->error)
		return;
	if (ps->tok == T_END)
		fail(ps, "unexpected end of input");
	else if (ps->tok == T_NEWLINE)
		fail(ps, "unexpected newline");
	else {
		int len = ps->end - ps->start > 20 ? 20 : (int)(ps->end - ps->start);
		snprintf(ps->message, sizeof ps->message, "unexpected '%.*s'", len, ps->start);
		fail(ps, ps->message);
	}
}

bool is_name(const char *s, size_t len)
{
	if (len == 0 || isdigit((unsigned char)*s))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

static bool is_assignment(const char *word)
{
	const char *eq = strchr(word, '=');
	return eq && is_name(word, eq - word);
}

/* Past a $ and what it names: ${...} must hold a name and be closed. */
static const char *skip_dollar(struct parser *ps, const char *p)
{
	if (p[1] != '{')
		return p + 1;
	const char *end = param_end(p + 2, true);
	if (end == p + 2 || *end != '}') {
		fail(ps, "bad substitution");
		return p + strlen(p);
	}
	return end + 1;
}

static const char *skip_quoted(struct parser *ps, const char *p)
{
	char quote = *p++;
	while (*p && *p != quote) {
		if (quote == '"' && *p == '\\' && p[1])
			p += 2;
		else if (quote == '"' && *p == '$')
			p = skip_dollar(ps, p);
		else
			p++;
	}
	if (!*p) {
		fail(ps, "unterminated quote");
		return p;
	}
	return p + 1;
}

static const char *scan_word(struct parser *ps, const char *p)
{
	const char *start = p;
	while (*p && !strchr(" \t\n;&|<>()", *p)) {
		if (*p == '\\')
			p += p[1] ? 2 : 1;
		else if (*p == '\'' || *p == '"')
			p = skip_quoted(ps, p);
		else if (*p == '$')
			p = skip_dollar(ps, p);
		else
			p++;
	}
	ps->tok = T_WORD;
	ps->word = xstrndup(start, p - start);
	return p;
}

static const char *scan_operator(struct parser *ps, const char *p)
{
	for (size_t i = 0; i < sizeof operators / sizeof operators[0]; i++) {
		size_t len = strlen(operators[i].text);
		if (strncmp(p, operators[i].text, len) == 0) {
			ps->tok = operators[i].token;
			ps->op = operators[i].op;
			return p + len;
		}
	}
	return NULL;
}

static void next(struct parser *ps)
{
	free(ps->word);
	ps->word = NULL;
	ps->last_end = ps->end;
	const char *p = ps->p;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '#')
		p += strcspn(p, "\n");
	ps->start = p;
	ps->fd = -1;
	const char *after;
	if (!*p)
		ps->tok = T_END;
	else if (isdigit((unsigned char)*p) && (p[1] == '<' || p[1] == '>')) {
		ps->fd = *p - '0';  /* only one digit: 12>f writes "12" to f, as in dash */
		p = scan_operator(ps, p + 1);
	} else if ((after = scan_operator(ps, p)))
		p = after;
	else
		p = scan_word(ps, p);
	ps->end = ps->p = p;
	if (ps->error)
		ps->tok = T_END;
}

static void skip_newlines(struct parser *ps)
{
	while (ps->tok == T_NEWLINE)
		next(ps);
}

/* Each node is linked into the tree as soon as it is made, so that after
 * an error, freeing the tree frees all. */
void free_list(struct andor *a)
{
	for (struct andor *next_a; a; a = next_a) {
		next_a = a->next;
		for (struct pipeline *p = a->pipelines, *next_p; p; p = next_p) {
			next_p = p->next;
			for (struct command *c = p->commands, *next_c; c; c = next_c) {
				next_c = c->next;
				strv_free(&c->words);
				for (struct redir *r = c->redirs, *next_r; r; r = next_r) {
					next_r = r->next;
					free(r->word);
					free(r);
				}
				free_list(c->subshell);
				free(c);
			}
			free(p);
		}
		free(a);
	}
}

static void parse_redir(struct parser *ps, struct redir **slot)
{
	struct redir *r = *slot = xcalloc(1, sizeof *r);
	r->op = ps->op;
	r->fd = ps->fd >= 0 ? ps->fd : r->op == REDIR_IN || r->op == REDIR_DUP_IN ? 0 : 1;
	next(ps);
	if (ps->tok != T_WORD) {
		unexpected(ps);
		return;
	}
	r->word = ps->word;
	ps->word = NULL;
	next(ps);
}

static void parse_list(struct parser *ps, struct andor **tail);

static void parse_command(struct parser *ps, struct command **slot)
{
	struct command *c = *slot = xcalloc(1, sizeof *c);
	struct redir **redirs = &c->redirs;
	if (ps->tok == T_LPAREN) {
		if (++ps->depth > MAX_NESTING)
			fail(ps, "( ) nested too deeply");
		next(ps);
		parse_list(ps, &c->subshell);
		if (!c->subshell || ps->tok != T_RPAREN) {
			unexpected(ps);
			return;
		}
		ps->depth--;
		next(ps);
	}
	for (;;) {
		if (ps->tok == T_REDIR) {
			parse_redir(ps, redirs);
			redirs = &(*redirs)->next;
		} else if (ps->tok == T_WORD && !c->subshell) {
			if (c->words.n == c->nassigns && is_assignment(ps->word))
				c->nassigns++;
			strv_push(&c->words, ps->word);
			ps->word = NULL;
			next(ps);
		} else
			break;
	}
	if (!c->subshell && c->words.n == 0 && !c->redirs)
		unexpected(ps);
}

static void parse_pipeline(struct parser *ps, struct pipeline **slot)
{
	struct pipeline *p = *slot = xcalloc(1, sizeof *p);
	struct command **tail = &p->commands;
	p->text = ps->start;
	for (;;) {
		parse_command(ps, tail);
		tail = &(*tail)->next;
		p->ncommands++;
		if (ps->tok != T_PIPE)
			break;
		next(ps);
		skip_newlines(ps);
	}
	p->textlen = ps->last_end - p->text;
}

static void parse_andor(struct parser *ps, struct andor **slot)
{
	struct andor *a = *slot = xcalloc(1, sizeof *a);
	struct pipeline **tail = &a->pipelines;
	enum run_when when = RUN_ALWAYS;
	a->text = ps->start;
	for (;;) {
		parse_pipeline(ps, tail);
		(*tail)->when = when;
		tail = &(*tail)->next;
		if (ps->tok == T_AND_IF)
			when = RUN_IF_OK;
		else if (ps->tok == T_OR_IF)
			when = RUN_IF_FAILED;
		else
			break;
		next(ps);
		skip_newlines(ps);
	}
	a->textlen = ps->last_end - a->text;
}

/* Up to the end or a `)`, which the caller checks. */
static void parse_list(struct parser *ps, struct andor **tail)
{
	for (;;) {
		skip_newlines(ps);
		if (ps->tok == T_END || ps->tok == T_RPAREN)
			return;
		parse_andor(ps, tail);
		struct andor *a = *tail;
		tail = &a->next;
		if (ps->tok == T_AMP)
			a->background = true;
		else if (ps->tok != T_SEMI && ps->tok != T_NEWLINE)
			return;
		next(ps);
	}
}

/* The tree of `text` (NULL if it holds no command), or a message and *ok false. */
struct andor *parse(const char *text, bool *ok)
{
	struct parser ps = { .p = text, .end = text };
	struct andor *list = NULL;
	next(&ps);
	parse_list(&ps, &list);
	if (ps.tok != T_END)
		unexpected(&ps);
	free(ps.word);
	*ok = !ps.error;
	if (ps.error) {
		warn("syntax error: %s", ps.error);
		free_list(list);
		return NULL;
	}
	return list;
}
