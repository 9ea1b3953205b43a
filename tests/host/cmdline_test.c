/* lib/cmdline.c: every parsing rule, the warning texts, and garbage input. */
#include "tests/host/lib.h"
#include "tests/host/test.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WARNINGS 8

static char warnings[MAX_WARNINGS][CMDLINE_MAX_WORD + 256];
static int nwarnings;

/* The warn function: keep the messages so tests can check their wording. */
__attribute__((format(printf, 1, 2)))
static void capture(const char *fmt, ...)
{
	va_list ap;

	if (nwarnings < MAX_WARNINGS) {
		va_start(ap, fmt);
		vsnprintf(warnings[nwarnings], sizeof(warnings[0]), fmt, ap);
		va_end(ap);
	}
	nwarnings++;
}

static int64_t hz;
static bool quiet;
static char root[16];
static int sched;
static char console[8];
static const char *const sched_names[] = { "fifo", "rr", "cfs", NULL };

static int set_console(const char *value, char *err, size_t errlen)
{
	if (strncmp(value, "tty", 3) != 0) {
		snprintf(err, errlen, "'%s' is not a tty", value);
		return -1;
	}
	if (strlen(value) >= sizeof(console))
		return -1;	/* no reason given: the parser supplies one */
	strcpy(console, value);
	return 0;
}

static const struct param params[] = {
	{ .name = "hz", .type = PARAM_INT, .var = &hz, .min = 100, .max = 10000,
	  .help = "timer ticks per second" },
	{ .name = "quiet", .type = PARAM_BOOL, .var = &quiet, .help = "fewer boot messages" },
	{ .name = "root", .type = PARAM_STRING, .var = root, .size = sizeof(root),
	  .help = "root device" },
	{ .name = "sched", .type = PARAM_CHOICE, .var = &sched, .choices = sched_names,
	  .help = "scheduling policy" },
	{ .name = "console", .type = PARAM_CALL, .set = set_console, .help = "console device" },
};

/* Reset every variable to its default, then parse. */
static int parse(const char *cmdline)
{
	hz = 1000;
	quiet = false;
	strcpy(root, "/dev/hda");
	sched = 2;
	strcpy(console, "none");
	nwarnings = 0;
	memset(warnings, 0, sizeof(warnings));
	int n = cmdline_parse(cmdline, params, ARRAY_SIZE(params), capture);

	EXPECT_EQ_INT(n, nwarnings);	/* the return value counts warnings */
	return n;
}

static bool defaults(void)
{
	return hz == 1000 && !quiet && !strcmp(root, "/dev/hda") && sched == 2 &&
	       !strcmp(console, "none");
}

TEST(cmdline_empty_inputs)
{
	EXPECT_EQ_INT(parse(""), 0);
	EXPECT_EQ_INT(parse("   \t \n "), 0);
	EXPECT_EQ_INT(parse(NULL), 0);
	EXPECT(defaults());
	EXPECT_EQ_INT(cmdline_parse("hz=5 foo", params, ARRAY_SIZE(params), NULL), 2);
	EXPECT_EQ_INT(cmdline_parse("foo", NULL, 0, capture), 1);
}

TEST(cmdline_sets_every_type)
{
	EXPECT_EQ_INT(parse("hz=250 quiet root=/dev/sdb1 sched=rr console=ttyS0"), 0);
	EXPECT_EQ_INT(hz, 250);
	EXPECT(quiet);
	EXPECT_EQ_STR(root, "/dev/sdb1");
	EXPECT_EQ_INT(sched, 1);
	EXPECT_EQ_STR(console, "ttyS0");
}

TEST(cmdline_spacing_and_order)
{
	EXPECT_EQ_INT(parse("  \thz=100\n\nsched=fifo   "), 0);
	EXPECT_EQ_INT(hz, 100);
	EXPECT_EQ_INT(sched, 0);
	EXPECT_EQ_INT(parse("hz=200 hz=300"), 0);	/* the last one wins */
	EXPECT_EQ_INT(hz, 300);
	EXPECT_EQ_INT(parse("hz=300 hz=5"), 1);	/* a bad repeat keeps the good one */
	EXPECT_EQ_INT(hz, 300);
}

TEST(cmdline_int_values)
{
	EXPECT_EQ_INT(parse("hz=0x100"), 0);
	EXPECT_EQ_INT(hz, 256);
	EXPECT_EQ_INT(parse("hz=8K"), 0);
	EXPECT_EQ_INT(hz, 8192);
	EXPECT_EQ_INT(parse("hz=100"), 0);	/* both ends of the range are allowed */
	EXPECT_EQ_INT(hz, 100);
	EXPECT_EQ_INT(parse("hz=10000"), 0);
	EXPECT_EQ_INT(hz, 10000);
}

TEST(cmdline_int_out_of_range_keeps_default)
{
	EXPECT_EQ_INT(parse("hz=50"), 1);
	EXPECT_EQ_INT(hz, 1000);
	EXPECT_EQ_STR(warnings[0], "hz=50: out of range 100..10000, keeping default 1000");
	EXPECT_EQ_INT(parse("hz=10001"), 1);
	EXPECT_CONTAINS(warnings[0], "hz=10001");
	EXPECT_EQ_INT(parse("hz=99999999999999999999"), 1);	/* overflow is out of range too */
	EXPECT_CONTAINS(warnings[0], "out of range 100..10000");
	EXPECT_EQ_INT(parse("hz=-1000"), 1);
	EXPECT_EQ_INT(hz, 1000);
}

TEST(cmdline_int_garbage_keeps_default)
{
	static const char *const bad[] = { "hz=abc", "hz=", "hz=12x", "hz=1.5", "hz==5", "hz=\"\"" };

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ_INT(parse(bad[i]), 1);
		EXPECT(defaults());
		EXPECT_CONTAINS(warnings[0], "not a number");
		EXPECT_CONTAINS(warnings[0], "keeping default 1000");
	}
	EXPECT_EQ_INT(parse("hz=abc"), 1);
	EXPECT_EQ_STR(warnings[0], "hz=abc: not a number, keeping default 1000");
}

TEST(cmdline_bare_key_needs_value)
{
	EXPECT_EQ_INT(parse("hz"), 1);
	EXPECT_EQ_STR(warnings[0], "hz: needs a value, keeping default 1000");
	EXPECT_EQ_INT(parse("root sched console"), 3);
	EXPECT(defaults());
	EXPECT_EQ_STR(warnings[0], "root: needs a value, keeping default \"/dev/hda\"");
	EXPECT_EQ_STR(warnings[1], "sched: needs a value, keeping default cfs");
	EXPECT_EQ_STR(warnings[2], "console: needs a value");
}

TEST(cmdline_bool_spellings)
{
	static const char *const yes[] = { "quiet", "quiet=1", "quiet=on", "quiet=yes", "quiet=true" };
	static const char *const no[] = { "quiet=0", "quiet=off", "quiet=no", "quiet=false" };

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		EXPECT_EQ_INT(parse(yes[i]), 0);
		EXPECT(quiet);
	}
	for (size_t i = 0; i < ARRAY_SIZE(no); i++) {
		EXPECT_EQ_INT(parse("quiet"), 0);
		EXPECT_EQ_INT(cmdline_parse(no[i], params, ARRAY_SIZE(params), capture), 0);
		EXPECT(!quiet);
	}
	EXPECT_EQ_INT(parse("quiet=maybe"), 1);
	EXPECT(!quiet);
	EXPECT_EQ_STR(warnings[0], "quiet=maybe: expected 1/0, on/off, yes/no or true/false, "
		      "keeping default off");
	EXPECT_EQ_INT(parse("quiet= quiet=ON quiet=2"), 3);
	EXPECT(!quiet);
}

TEST(cmdline_string_values)
{
	EXPECT_EQ_INT(parse("root=\"my disk\""), 0);
	EXPECT_EQ_STR(root, "my disk");
	EXPECT_EQ_INT(parse("\"root=a b c\""), 0);	/* quotes may wrap the whole word */
	EXPECT_EQ_STR(root, "a b c");
	EXPECT_EQ_INT(parse("root=x\"  \"y"), 0);	/* ... or any part of it */
	EXPECT_EQ_STR(root, "x  y");
	EXPECT_EQ_INT(parse("root="), 0);		/* an empty string is a value */
	EXPECT_EQ_STR(root, "");
	EXPECT_EQ_INT(parse("root=\"\""), 0);
	EXPECT_EQ_STR(root, "");
	EXPECT_EQ_INT(parse("root=a=b"), 0);		/* only the first '=' splits */
	EXPECT_EQ_STR(root, "a=b");
	EXPECT_EQ_INT(parse("root=123456789012345"), 0);	/* exactly fits (15 + NUL) */
	EXPECT_EQ_STR(root, "123456789012345");
}

TEST(cmdline_string_too_long_keeps_default)
{
	EXPECT_EQ_INT(parse("root=1234567890123456"), 1);
	EXPECT_EQ_STR(root, "/dev/hda");
	EXPECT_EQ_STR(warnings[0], "root=1234567890123456: too long (at most 15 characters), "
		      "keeping default \"/dev/hda\"");
}

TEST(cmdline_choice)
{
	EXPECT_EQ_INT(parse("sched=fifo"), 0);
	EXPECT_EQ_INT(sched, 0);
	EXPECT_EQ_INT(parse("sched=cfs"), 0);
	EXPECT_EQ_INT(sched, 2);
	EXPECT_EQ_INT(parse("sched=fair"), 1);
	EXPECT_EQ_INT(sched, 2);
	EXPECT_EQ_STR(warnings[0], "sched=fair: expected one of fifo|rr|cfs, keeping default cfs");
	EXPECT_EQ_INT(parse("sched=RR sched=r sched=rrr sched="), 4);
	EXPECT(defaults());
}

TEST(cmdline_call)
{
	EXPECT_EQ_INT(parse("console=lp0"), 1);
	EXPECT_EQ_STR(console, "none");
	EXPECT_EQ_STR(warnings[0], "console=lp0: 'lp0' is not a tty");
	EXPECT_EQ_INT(parse("console=ttyUSB12"), 1);	/* set() gave no reason */
	EXPECT_EQ_STR(warnings[0], "console=ttyUSB12: invalid value");
	EXPECT_EQ_INT(parse("console=\"tty 1\""), 0);
	EXPECT_EQ_STR(console, "tty 1");
}

TEST(cmdline_unknown_keys_warned)
{
	EXPECT_EQ_INT(parse("foo=bar hz=200 baz HZ=300 hz_x=1"), 4);
	EXPECT_EQ_INT(hz, 200);
	EXPECT_EQ_STR(warnings[0], "unknown boot parameter 'foo' (ignored)");
	EXPECT_EQ_STR(warnings[1], "unknown boot parameter 'baz' (ignored)");
	EXPECT_EQ_STR(warnings[2], "unknown boot parameter 'HZ' (ignored)");	/* case matters */
	EXPECT_EQ_STR(warnings[3], "unknown boot parameter 'hz_x' (ignored)");
}

TEST(cmdline_malformed_words)
{
	EXPECT_EQ_INT(parse("="), 1);
	EXPECT_EQ_STR(warnings[0], "ignoring '=': no parameter name");
	EXPECT_EQ_INT(parse("=5 ==  \"\" \"=\""), 4);
	EXPECT_EQ_STR(warnings[0], "ignoring '=5': no parameter name");
	EXPECT_EQ_STR(warnings[1], "ignoring '==': no parameter name");
	EXPECT_EQ_STR(warnings[2], "ignoring '': no parameter name");
	EXPECT(defaults());
}

TEST(cmdline_unterminated_quote)
{
	EXPECT_EQ_INT(parse("hz=200 root=\"abc def"), 1);
	EXPECT_EQ_INT(hz, 200);
	EXPECT_EQ_STR(root, "/dev/hda");	/* not half-applied */
	EXPECT_EQ_STR(warnings[0], "ignoring 'root=abc def': unterminated quote");
	EXPECT_EQ_INT(parse("\""), 1);
	EXPECT_EQ_INT(parse("quiet \"hz=200"), 1);
	EXPECT(quiet);
	EXPECT_EQ_INT(hz, 1000);
}

TEST(cmdline_very_long_words)
{
	size_t len = 100000;
	char *s = malloc(len + 16);

	memset(s, 'a', len);
	s[len] = '\0';
	EXPECT_EQ_INT(parse(s), 1);
	EXPECT_CONTAINS(warnings[0], "longer than 2047 characters");

	memcpy(s, "root=", 5);		/* long value */
	EXPECT_EQ_INT(parse(s), 1);
	EXPECT(defaults());
	EXPECT_CONTAINS(warnings[0], "ignoring 'root=aaa");

	memcpy(s + len - 6, " hz=99", 6);	/* a good word after a long one */
	EXPECT_EQ_INT(parse(s), 2);
	EXPECT_CONTAINS(warnings[1], "hz=99: out of range");

	for (size_t i = 0; i < len; i++)	/* one long word of alternating quotes */
		s[i] = "\"= "[i % 3];
	parse(s);
	free(s);

	/* Longest accepted word: CMDLINE_MAX_WORD - 1 characters. */
	enum { MAX = CMDLINE_MAX_WORD - 1 };
	char word[CMDLINE_MAX_WORD + 8] = "console=tty";

	memset(word + 11, 'x', MAX - 11);
	word[MAX] = '\0';
	EXPECT_EQ_INT(parse(word), 1);	/* reaches set_console, which refuses */
	EXPECT_EQ_STR(warnings[0] + strlen(warnings[0]) - 13, "invalid value");
	word[MAX] = 'x';
	word[MAX + 1] = '\0';
	EXPECT_EQ_INT(parse(word), 1);
	EXPECT_CONTAINS(warnings[0], "longer than 2047");
}

TEST(cmdline_garbage_never_crashes)
{
	static const char alphabet[] = "hz=quiet\"root sched=console\t1x\"= ";
	uint64_t seed = 6;
	char s[80];

	for (int iter = 0; iter < 20000; iter++) {
		size_t len = test_rand(&seed) % (sizeof(s) - 1);

		for (size_t i = 0; i < len; i++) {
			if (iter % 2)
				s[i] = alphabet[test_rand(&seed) % (sizeof(alphabet) - 1)];
			else
				s[i] = (char)(test_rand(&seed) % 255 + 1);	/* any byte but NUL */
		}
		s[len] = '\0';
		int n = parse(s);

		EXPECT(n >= 0 && (size_t)n <= len);
		EXPECT(hz >= 100 && hz <= 10000);
		EXPECT(sched >= 0 && sched <= 2);
		EXPECT(strlen(root) < sizeof(root));
		if (test_failed())
			break;
	}
}

TEST(cmdline_describe_lines)
{
	char buf[160];

	parse("");
	cmdline_describe(&params[0], buf, sizeof(buf));
	EXPECT_EQ_STR(buf, "hz=<100..10000> (default 1000): timer ticks per second");
	cmdline_describe(&params[1], buf, sizeof(buf));
	EXPECT_EQ_STR(buf, "quiet[=<bool>] (default off): fewer boot messages");
	cmdline_describe(&params[2], buf, sizeof(buf));
	EXPECT_EQ_STR(buf, "root=<string> (default \"/dev/hda\"): root device");
	cmdline_describe(&params[3], buf, sizeof(buf));
	EXPECT_EQ_STR(buf, "sched=<fifo|rr|cfs> (default cfs): scheduling policy");
	cmdline_describe(&params[4], buf, sizeof(buf));
	EXPECT_EQ_STR(buf, "console=<value>: console device");

	struct param no_help = params[0];

	no_help.help = NULL;
	cmdline_describe(&no_help, buf, sizeof(buf));
	EXPECT_EQ_STR(buf, "hz=<100..10000> (default 1000)");

	for (size_t len = 0; len < 20; len++) {	/* truncation is safe */
		memset(buf, '#', sizeof(buf));
		cmdline_describe(&params[3], buf, len);
		if (len)
			EXPECT_EQ_UINT(strlen(buf), len - 1);
		EXPECT(buf[len] == '#');
	}
}

/* The registration macros, through a real linker section. */
static int64_t macro_int = 5;
BOOT_PARAM_INT("m_int", macro_int, 0, 10, "an int");
static bool macro_bool;
BOOT_PARAM_BOOL("m_bool", macro_bool, "a bool");
static char macro_str[8] = "x";
BOOT_PARAM_STRING("m_str", macro_str, "a string");
static const char *const macro_names[] = { "a", "b", NULL };
static int macro_choice;
BOOT_PARAM_CHOICE("m_choice", macro_choice, macro_names, "a choice");
static char macro_seen[16];

static int macro_set(const char *value, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	snprintf(macro_seen, sizeof(macro_seen), "%s", value);
	return 0;
}
BOOT_PARAM_CALL("m_call", macro_set, "a call");

TEST(cmdline_boot_param_section)
{
	size_t n = __stop_boot_params - __start_boot_params, ours = 0;
	char buf[100];

	/* The section also holds the tunables of the scheduler linked in here. */
	for (size_t i = 0; i < n; i++)
		ours += !strncmp(__start_boot_params[i].name, "m_", 2);
	EXPECT_EQ_UINT(ours, 5);

	const struct param *p = __start_boot_params;

	while (p < __stop_boot_params && strcmp(p->name, "m_str"))
		p++;
	EXPECT(p < __stop_boot_params);
	cmdline_describe(p, buf, sizeof(buf));
	EXPECT_EQ_STR(buf, "m_str=<string> (default \"x\"): a string");

	nwarnings = 0;
	EXPECT_EQ_INT(cmdline_parse("m_int=7 m_bool m_str=1234567 m_choice=b m_call=hi",
				    __start_boot_params, n, capture), 0);
	EXPECT_EQ_INT(macro_int, 7);
	EXPECT(macro_bool);
	EXPECT_EQ_STR(macro_str, "1234567");
	EXPECT_EQ_INT(macro_choice, 1);
	EXPECT_EQ_STR(macro_seen, "hi");
	EXPECT_EQ_INT(cmdline_parse("m_str=12345678 m_int=11", __start_boot_params, n, capture), 2);
	EXPECT_EQ_STR(macro_str, "1234567");
}
