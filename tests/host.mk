# Host unit tests for lib/ and sched/ (tests/host/, tests/sim/): `make host-test` (from the top-level Makefile)
# or `make -f tests/host.mk host-test`. Override the compiler with HOSTCC=.
#
# HOST_LIB_SRCS, the scheduler (HOST_SCHED_SRCS) and the tests
# (HOST_TEST_SRCS) are linked into one sanitized binary (a crash or hang
# fails only its own test), whose last line is the total "N passed, N failed".
#
# Name clashes: lib/ defines memcpy, snprintf, ... like the host libc does.
# The lib objects are compiled from the unchanged sources with
# -include tests/host/host_names.h, which #defines each clashing name to an lm_
# one (memcpy -> lm_memcpy). Tests include tests/host/lib.h to get those lm_
# declarations, so they can compare lm_snprintf with the libc snprintf.
#
# Only HOST_-prefixed variables (and HOSTCC) are used, so that this file can
# sit inside the kernel Makefile without clashing with CC, CFLAGS, BUILD.

HOSTCC ?= cc
# One directory per compiler, so switching HOSTCC rebuilds everything.
HOST_BUILD := build/host/$(notdir $(firstword $(HOSTCC)))
HOST_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Werror \
	-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
	-I. -MMD -MP -DSCHED_SIMULATOR
HOST_LIB_SRCS := lib/string.c lib/printf.c lib/rbtree.c lib/cmdline.c lib/elf.c lib/cpio.c lib/path.c lib/ldisc.c
# The scheduler runs on the host inside a simulator (tests/sim/): its
# sources are built unchanged, with the simulator standing in for
# sched/platform.h.
HOST_SCHED_SRCS := $(wildcard sched/*.c) kernel/sysctl.c
# tests/host/: the runner and the tests of lib/; tests/sim/: the simulator
# and the scheduler's tests that run in it.
HOST_TEST_SRCS := $(wildcard tests/host/*.c) $(wildcard tests/sim/*.c)
HOST_OBJS := $(patsubst %.c,$(HOST_BUILD)/%.o,$(HOST_LIB_SRCS) $(HOST_SCHED_SRCS) $(HOST_TEST_SRCS))
HOST_BIN := $(HOST_BUILD)/run-tests

# Keep whatever default goal the including Makefile has (restored at the end).
HOST_SAVED_GOAL := $(.DEFAULT_GOAL)

.PHONY: host-test host-clean

host-test: $(HOST_BIN)
	@UBSAN_OPTIONS=print_stacktrace=1 $(HOST_BIN)

$(HOST_BIN): $(HOST_OBJS)
	$(HOSTCC) $(HOST_CFLAGS) -o $@ $(HOST_OBJS)

# lib/, sched/ and kernel/ sources, with the lm_ renames (the tests/ rule below wins for tests/).
$(HOST_BUILD)/%.o: %.c tests/host/host_names.h tests/host.mk
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) -include tests/host/host_names.h -c -o $@ $<

$(HOST_BUILD)/tests/%.o: tests/%.c tests/host.mk
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) -c -o $@ $<

host-clean:
	rm -rf build/host

-include $(HOST_OBJS:.o=.d)

.DEFAULT_GOAL := $(HOST_SAVED_GOAL)
