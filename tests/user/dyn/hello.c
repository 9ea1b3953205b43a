/* The smallest dynamically linked program (tests/user/dynamic.c runs it):
 * its interpreter maps the C library, relocates it and the program, then
 * calls main. Built twice: with musl and with the host's glibc. */
#include <stdio.h>

int main(int argc, char **argv)
{
	(void)argv;
	printf("hello from a dynamically linked program (argc %d)\n", argc);
	return 0;
}
