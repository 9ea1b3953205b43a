/* The first ring-3 program: an ordinary static Linux program, built with
 * musl (as /bin/hello, and as /bin/hello-pie with -static-pie). Its printf
 * goes through musl's stdio to write(1) or writev(1). */
#include <stdio.h>

int main(int argc, char **argv)
{
	printf("hello, world from ring 3 (argc %d, argv[0] %s)\n", argc, argc > 0 ? argv[0] : "(none)");
	return 0;
}
