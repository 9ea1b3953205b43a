/* ktest=syscall: the tests of kernel/entry/syscall_names.c, through its public interface. */
#include "kernel/entry/syscall.h"
#include "kernel/debug/ktest.h"
#include "lib/string.h"

KTEST(syscall, names_match_their_numbers)
{
	KEXPECT(t, strcmp(syscall_name(0), "read") == 0);
	KEXPECT(t, strcmp(syscall_name(60), "exit") == 0);
	KEXPECT(t, strcmp(syscall_name(158), "arch_prctl") == 0);
	KEXPECT(t, strcmp(syscall_name(231), "exit_group") == 0);
	KEXPECT(t, strcmp(syscall_name(334), "rseq") == 0);
	KEXPECT(t, strcmp(syscall_name(335), "unknown") == 0);
	KEXPECT(t, strcmp(syscall_name(435), "clone3") == 0);
	KEXPECT(t, strcmp(syscall_name(462), "mseal") == 0);
	KEXPECT(t, strcmp(syscall_name(999), "unknown") == 0);
	KEXPECT(t, strcmp(syscall_name(-1), "unknown") == 0);
}
