/*
 * echo [-n] [-e] [-E] [arg...]: write the arguments, separated by spaces,
 * and a newline (not with -n). As coreutils' echo: -e interprets the
 * backslash escapes below, -E (the default) does not; options may be
 * combined (-ne), and the first argument that is not an option is text,
 * even if it begins with "-".
 *
 *   \a \b \e \f \n \r \t \v \\   the control character, the backslash
 *   \0NNN, \NNN                  the byte of octal value NNN (1 to 3 digits)
 *   \xHH                         the byte of hexadecimal value HH (1 or 2)
 *   \c                           nothing more, not even the newline
 *
 * Exit status: 0; 1 if the output could not be written. echo has no bad
 * options: they are text.
 */
#include <ctype.h>
#include <err.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Set the flags of an options argument ("-n", "-ne"); false if arg is text. */
static bool read_options(const char *arg, bool *newline, bool *escapes)
{
	if (arg[0] != '-' || arg[1] == '\0' || arg[strspn(arg + 1, "neE") + 1] != '\0')
		return false;
	for (const char *c = arg + 1; *c; c++) {
		if (*c == 'n')
			*newline = false;
		else
			*escapes = *c == 'e';
	}
	return true;
}

/* The value of up to `max` digits in `base` at *s, moving past them. */
static int read_digits(const char **s, int base, int max)
{
	int value = 0;
	for (int i = 0; i < max; i++, (*s)++) {
		int c = tolower((unsigned char)**s);
		int digit = isdigit(c) ? c - '0' : isxdigit(c) ? c - 'a' + 10 : base;
		if (digit >= base)
			break;
		value = value * base + digit;
	}
	return value;
}

/* Write s with its escapes interpreted; false if it said \c (stop). */
static bool put_escaped(const char *s)
{
	static const char letters[] = "abefnrtv\\", controls[] = "\a\b\033\f\n\r\t\v\\";
	while (*s) {
		if (*s != '\\' || !s[1]) {
			putchar(*s++);
			continue;
		}
		s++;                            /* to the letter after the backslash */
		const char *letter = strchr(letters, *s);
		if (*s == 'c') {
			return false;
		} else if (*s == '0') {
			s++;
			putchar(read_digits(&s, 8, 3));
		} else if (*s >= '1' && *s <= '7') {
			putchar(read_digits(&s, 8, 3));
		} else if (*s == 'x' && isxdigit((unsigned char)s[1])) {
			s++;
			putchar(read_digits(&s, 16, 2));
		} else if (letter) {
			putchar(controls[letter - letters]);
			s++;
		} else {                        /* not an escape: as it is */
			putchar('\\');
			putchar(*s++);
		}
	}
	return true;
}

int main(int argc, char **argv)
{
	bool newline = true, escapes = false;
	int i = 1;
	while (i < argc && read_options(argv[i], &newline, &escapes))
		i++;
	for (bool first = true; i < argc; i++, first = false) {
		if (!first)
			putchar(' ');
		if (!escapes)
			fputs(argv[i], stdout);
		else if (!put_escaped(argv[i])) {
			newline = false;
			break;
		}
	}
	if (newline)
		putchar('\n');
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "write error");
	return 0;
}
