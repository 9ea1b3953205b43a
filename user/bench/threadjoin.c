/*
 * threadjoin: the life of a thread that does nothing. pthread_create()
 * maps a stack and clones a thread into the same address space
 * (CLONE_VM | CLONE_THREAD ...), the thread returns at once, and
 * pthread_join() waits for the kernel to say it has gone (the futex on
 * its tid, CLONE_CHILD_CLEARTID). Nothing is pinned.
 *
 *   threadjoin [iterations=N]
 *   RESULT name=threadjoin iterations=N ns_per_op=X cpus=C
 *
 * A kernel without threads makes pthread_create() fail: then the line is
 *   RESULT name=threadjoin iterations=N error=EAGAIN
 * and the program still exits 0, as the measurement itself worked.
 */
#include "result.h"

#include <errno.h>
#include <pthread.h>

static struct param params[] = {
	{ "iterations", 400, 1, 1000000000, "thread create + join timed" },
};

static void *nothing(void *arg)
{
	return arg;
}

/* 0, or the error of the first pthread_create() or pthread_join() that failed. */
static int loop(long n)
{
	for (long i = 0; i < n; i++) {
		pthread_t t;
		int err = pthread_create(&t, NULL, nothing, NULL);
		if (err == 0)
			err = pthread_join(t, NULL);
		if (err != 0)
			return err;
	}
	return 0;
}

static const char *error_name(int err)
{
	switch (err) {
	case EAGAIN: return "EAGAIN";
	case EINVAL: return "EINVAL";
	case ENOMEM: return "ENOMEM";
	case ENOSYS: return "ENOSYS";
	case EPERM: return "EPERM";
	case EDEADLK: return "EDEADLK";
	case ESRCH: return "ESRCH";
	default: return "other";
	}
}

int main(int argc, char **argv)
{
	params_parse("threadjoin", "ns per create + join of a thread that returns at once", argc,
		     argv, params, 1);
	long n = params[0].value;
	int err = loop(n / 10);
	uint64_t t0 = now_ns();
	if (err == 0)
		err = loop(n);
	uint64_t elapsed = now_ns() - t0;
	if (err != 0) {
		result_begin();
		result_add("iterations=%ld error=%s", n, error_name(err));
	} else {
		bench_result(n, elapsed, online_cpus());
	}
	result_end();
	return 0;
}
