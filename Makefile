# leftmost: `make run` boots the kernel in QEMU, `make test` runs every test.
# Both first install whatever the host is missing (tools/deps.sh).

SHELL   := bash
BUILD   ?= build
CC      ?= gcc
LD      := ld
NASM    := nasm
PYTHON  := python3

# What `make run` boots (see README.md).
EMU     ?= qemu
SMP     ?= 4
MEM     ?= 512M
ACCEL   ?= auto
MACHINE ?= pc
UEFI    ?= 0
CMDLINE ?=
OPT     ?= -O2

# Quiet build lines ("CC kernel/entry/main.c"); `make V=1` shows whole commands.
ifeq ($(V),1)
Q :=
msg = @:
else
Q := @
msg = @printf '  %-6s %s\n' $(1) $(2)
endif

ifeq ($(origin CC),default)
CC := gcc
endif
ifneq ($(findstring clang,$(CC)),)
TARGET_FLAGS := --target=x86_64-unknown-none-elf
endif

# A freestanding kernel: no libc, no red zone (interrupts would clobber it),
# no SSE (its registers are not saved), the kernel code model for the top
# 2 GiB, frame pointers in every function and no tail calls (so our own
# backtraces miss no caller), and no assuming that
# address 0 can never be accessed (a kernel must see such bugs happen).
KERNEL_CFLAGS := $(TARGET_FLAGS) -std=gnu11 $(OPT) -g -Wall -Wextra -Werror \
	-ffreestanding -fno-builtin -nostdlib -fno-pic -fno-pie -mcmodel=kernel \
	-mno-red-zone -mgeneral-regs-only -fno-stack-protector -fcf-protection=none \
	-fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-optimize-sibling-calls \
	-fno-asynchronous-unwind-tables -fno-delete-null-pointer-checks \
	-I. -MMD -MP
# The 32-bit boot code and its data share one RWX segment, on purpose.
LDFLAGS := --no-warn-rwx-segments -n -nostdlib -static -z max-page-size=0x1000 -z noexecstack -T linker.ld
NASMFLAGS := -f elf64 -g -F dwarf -I.

# tests/kernel/ holds the in-kernel test suites (ktest=), linked into the image.
C_SRCS   := $(wildcard arch/x86_64/*.c kernel/*.c kernel/*/*.c kernel/*/*/*.c sched/*.c lib/*.c user/*.c tests/kernel/*.c)
ASM_SRCS := $(wildcard boot/*.asm arch/x86_64/*.asm)
OBJS     := $(C_SRCS:%.c=$(BUILD)/%.o) $(ASM_SRCS:%.asm=$(BUILD)/%.o) $(BUILD)/vdso/image.o
ELF      := $(BUILD)/leftmost.elf
ISO      := $(BUILD)/leftmost.iso

.PHONY: all run debug debug-test test test-matrix check host-test-build bench soak fuzz trace host-test tools-test layers clang-build deps clean
all: $(ISO)

deps:
	@tools/deps.sh

$(BUILD)/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(call msg,CC,$<)
	$(Q)$(CC) $(KERNEL_CFLAGS) -c $< -o $@

$(BUILD)/%.o: %.asm boot/layout.inc arch/x86_64/trap_frame.inc Makefile
	@mkdir -p $(dir $@)
	$(call msg,NASM,$<)
	$(Q)$(NASM) $(NASMFLAGS) $< -o $@

# The vDSO (arch/x86_64/vdso/): code for ring 3 that the kernel maps into
# every process, a shared object linked at 0 with nothing to relocate. Its
# file is its memory image; objcopy makes it data of the kernel's
# (_binary_vdso_so_start) for kernel/mm/vdso.c to copy into pages at boot.
# clang links it with GNU ld too (binutils), as the kernel: no lld needed.
VDSO_TARGET := $(if $(findstring clang,$(CC)),--target=x86_64-linux-gnu -fuse-ld=bfd)
VDSO_CFLAGS := $(VDSO_TARGET) -std=gnu11 -O2 -Wall -Wextra -Werror -I. -fPIC -fno-stack-protector \
	-fcf-protection=none -fno-asynchronous-unwind-tables -nostdlib -shared \
	-Wl,-T,arch/x86_64/vdso/vdso.lds -Wl,--hash-style=both -Wl,-soname=linux-vdso.so.1 \
	-Wl,--build-id=none -Wl,-z,noexecstack
$(BUILD)/vdso/vdso.so: arch/x86_64/vdso/vclock.c arch/x86_64/vdso/vdso_data.h arch/x86_64/vdso/vdso.lds Makefile
	@mkdir -p $(dir $@)
	$(call msg,VDSO,$@)
	$(Q)$(CC) $(VDSO_CFLAGS) -o $@ $<
$(BUILD)/vdso/image.o: $(BUILD)/vdso/vdso.so
	$(Q)cd $(dir $<) && objcopy -I binary -O elf64-x86-64 -B i386:x86-64 \
		--rename-section .data=.rodata.vdso,alloc,load,readonly,data,contents vdso.so image.o

# The symbol table for backtraces takes two links: the first (with an empty
# table) tells tools/ksyms.py every function's address; the second adds the
# table after all code, so no function moves, which the cmp checks.
$(BUILD)/ksyms-empty.c: tools/ksyms.py
	@mkdir -p $(BUILD)
	$(Q)$(PYTHON) tools/ksyms.py < /dev/null > $@
$(BUILD)/ksyms.c: $(BUILD)/leftmost.pass1.elf tools/ksyms.py
	$(call msg,KSYMS,$@)
	$(Q)nm -n $< | $(PYTHON) tools/ksyms.py > $@
$(BUILD)/ksyms.o $(BUILD)/ksyms-empty.o: $(BUILD)/%.o: $(BUILD)/%.c
	$(Q)$(CC) $(KERNEL_CFLAGS) -c $< -o $@
$(BUILD)/leftmost.pass1.elf: $(OBJS) $(BUILD)/ksyms-empty.o linker.ld
	$(call msg,LD,$@)
	$(Q)$(LD) $(LDFLAGS) -o $@ $(OBJS) $(BUILD)/ksyms-empty.o
$(ELF): $(OBJS) $(BUILD)/ksyms.o linker.ld
	$(call msg,LD,$@)
	$(Q)$(LD) $(LDFLAGS) -o $@ $(OBJS) $(BUILD)/ksyms.o
	@nm -n $(BUILD)/leftmost.pass1.elf | grep ' [Tt] ' > $(BUILD)/text-syms.pass1
	@nm -n $@ | grep ' [Tt] ' > $(BUILD)/text-syms.final
	@cmp -s $(BUILD)/text-syms.pass1 $(BUILD)/text-syms.final || \
		{ echo "ksyms: functions moved between the two links; see linker.ld"; exit 1; }
	@grub-file --is-x86-multiboot2 $@ || { echo "$@: GRUB finds no multiboot2 header"; exit 1; }

# The programs that run in ring 3, one .c file each in user/bin/: ordinary
# static Linux programs built with musl, not part of the kernel. The initrd
# packs them as /bin/NAME, and GRUB loads it as a module (docs/boot.md).
# What two or more of them share is in user/lib/, an archive each links.
MUSL_CC     := musl-gcc
MUSL_LIB    := /usr/lib/x86_64-linux-musl
USER_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror
USER_LIB    := $(BUILD)/user/lib/libuser.a
USER_LIB_OBJS := $(patsubst user/lib/%.c,$(BUILD)/user/lib/%.o,$(wildcard user/lib/*.c))
# user/sh/: the shell, several files, as /bin/sh.
SH_SRCS     := $(wildcard user/sh/*.c)
USER_BINS   := $(patsubst user/bin/%.c,$(BUILD)/user/bin/%,$(wildcard user/bin/*.c)) $(BUILD)/user/bin/hello-pie \
	       $(if $(SH_SRCS),$(BUILD)/user/bin/sh)
# user/workloads/: the scheduler workloads, one program each with what they
# share (workload.c, probe.c), also in /bin: the same binaries run on Linux
# (make bench; docs/workloads.md).
WORKLOAD_LIB_SRCS := $(wildcard user/workloads/workload.c user/workloads/probe.c)
WORKLOADS   := $(patsubst user/workloads/%.c,$(BUILD)/user/workloads/%,$(filter-out $(WORKLOAD_LIB_SRCS),$(wildcard user/workloads/*.c)))
# tests/user/: programs that print one line per system-call case, run on
# leftmost and on the host's Linux, whose outputs must match (/tests/NAME).
USER_TESTS  := $(patsubst tests/user/%.c,$(BUILD)/user/tests/%,$(wildcard tests/user/*.c))
# tests/user/*.sh: shell scripts that check the kernel alone (/tests/NAME.sh).
USER_SCRIPTS := $(wildcard tests/user/*.sh)
# user/bench/: a cost of the kernel's each (a system call, a pipe round trip,
# a fork, a thread), one RESULT line, the same binary on leftmost and on
# Linux (make bench; docs/userspace.md), as /bench/NAME.
USER_BENCH  := $(patsubst user/bench/%.c,$(BUILD)/user/bench/%,$(wildcard user/bench/*.c))
INITRD      := $(BUILD)/initrd.cpio

$(BUILD)/user/lib/%.o: user/lib/%.c $(wildcard user/lib/*.h) Makefile
	@mkdir -p $(dir $@)
	$(call msg,MUSL,$<)
	$(Q)$(MUSL_CC) $(USER_CFLAGS) -c -o $@ $<

$(USER_LIB): $(USER_LIB_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/user/bin/%: user/bin/%.c $(USER_LIB) $(wildcard user/lib/*.h) user/bin/leakcheck.h $(wildcard user/bin/fuzz/*.h) Makefile
	@mkdir -p $(dir $@)
	$(call msg,MUSL,$<)
	$(Q)$(MUSL_CC) $(USER_CFLAGS) -Iuser/lib -static -o $@ $< $(USER_LIB)

$(BUILD)/user/bin/sh: $(SH_SRCS) $(wildcard user/sh/*.h) Makefile
	@mkdir -p $(dir $@)
	$(call msg,MUSL,$@)
	$(Q)$(MUSL_CC) $(USER_CFLAGS) -static -o $@ $(SH_SRCS)

$(BUILD)/user/workloads/%: user/workloads/%.c $(WORKLOAD_LIB_SRCS) $(wildcard user/workloads/*.h) Makefile
	@mkdir -p $(dir $@)
	$(call msg,MUSL,$<)
	$(Q)$(MUSL_CC) $(USER_CFLAGS) -static -o $@ $< $(WORKLOAD_LIB_SRCS) -lm

$(BUILD)/user/bench/%: user/bench/%.c user/bench/result.h $(WORKLOAD_LIB_SRCS) $(wildcard user/workloads/*.h) Makefile
	@mkdir -p $(dir $@)
	$(call msg,MUSL,$<)
	$(Q)$(MUSL_CC) $(USER_CFLAGS) -static -o $@ $< user/workloads/workload.c -lm

# Built beside $(BUILD)/user/bin, as /tests sits beside /bin (tests/user/tools.c
# finds the tools at ../bin on either kernel).
$(BUILD)/user/tests/%: tests/user/%.c tests/user/cases.h Makefile
	@mkdir -p $(dir $@)
	$(call msg,MUSL,$<)
	$(Q)$(MUSL_CC) $(USER_CFLAGS) -static -o $@ $<

# tests/user/dyn/: dynamically linked programs for tests/user/dynamic.c,
# built twice, with musl (interpreter /lib/ld-musl-x86_64.so.1) and with the
# host's glibc (/lib64/ld-linux-x86-64.so.2): hello as an ordinary
# executable (ET_EXEC), features as a position-independent one, and the
# plugin that features loads with dlopen(). They go to /tests/dyn/, their
# interpreters and libraries to the paths they name (DYN_LIBS).
GLIBC_CC    := gcc
DYN_CFLAGS  := -std=gnu11 -O2 -g -Wall -Wextra -Werror -pthread
DYN_BINS    := $(foreach c,musl glibc,$(foreach p,hello features plugin.so,$(BUILD)/user/tests/dyn/$(c)-$(p)))
DYN_LIBS    := /lib/ld-musl-x86_64.so.1 /lib64/ld-linux-x86-64.so.2 /lib/x86_64-linux-gnu/libc.so.6
dyn_cc       = $(if $(filter musl-%,$(notdir $(1))),$(MUSL_CC),$(GLIBC_CC))

$(BUILD)/user/tests/dyn/musl-hello $(BUILD)/user/tests/dyn/glibc-hello: $(BUILD)/user/tests/dyn/%-hello: tests/user/dyn/hello.c Makefile
	@mkdir -p $(dir $@)
	$(call msg,DYN,$@)
	$(Q)$(call dyn_cc,$@) $(DYN_CFLAGS) -no-pie -o $@ $<
$(BUILD)/user/tests/dyn/musl-features $(BUILD)/user/tests/dyn/glibc-features: $(BUILD)/user/tests/dyn/%-features: tests/user/dyn/features.c Makefile
	@mkdir -p $(dir $@)
	$(call msg,DYN,$@)
	$(Q)$(call dyn_cc,$@) $(DYN_CFLAGS) -fpie -pie -o $@ $< -ldl
$(BUILD)/user/tests/dyn/musl-plugin.so $(BUILD)/user/tests/dyn/glibc-plugin.so: $(BUILD)/user/tests/dyn/%-plugin.so: tests/user/dyn/plugin.c Makefile
	@mkdir -p $(dir $@)
	$(call msg,DYN,$@)
	$(Q)$(call dyn_cc,$@) $(DYN_CFLAGS) -fPIC -shared -o $@ $<

# hello again, as a static PIE. Debian's musl-gcc (1.2.3) ignores
# -static-pie and links a dynamic PIE that needs musl's loader, so the link
# is spelled out: rcrt1.o relocates the program itself, no interpreter.
$(BUILD)/user/bin/hello-pie: user/bin/hello.c Makefile
	@mkdir -p $(dir $@)
	$(call msg,MUSL,$@)
	$(Q)$(MUSL_CC) $(USER_CFLAGS) -fpie -nostdlib -Wl,-static,-pie,--no-dynamic-linker,-z,text -o $@ \
		$(MUSL_LIB)/rcrt1.o $(MUSL_LIB)/crti.o $$($(MUSL_CC) -print-file-name=crtbeginS.o) \
		$< -lc -lgcc $$($(MUSL_CC) -print-file-name=crtendS.o) $(MUSL_LIB)/crtn.o

# The Linux peer's workloads (../shared/peer/README.md), built unmodified with
# musl as /peer/NAME: the very programs Linux's baseline figures come from.
# Where the peer's sources are not beside the tree, there are none (and the
# configuration that runs them is skipped, saying why).
PEER_SRC    ?= ../shared/peer/workloads
PEER_PROGS  := pingpong fairness smpbalance wakeup massive_intr spawn
PEER_BINS   := $(if $(wildcard $(PEER_SRC)/common.c),$(PEER_PROGS:%=$(BUILD)/peer/%))

$(BUILD)/peer/%: $(PEER_SRC)/%.c $(PEER_SRC)/common.c $(PEER_SRC)/common.h
	@mkdir -p $(dir $@)
	$(call msg,MUSL,$<)
	$(Q)$(MUSL_CC) $(USER_CFLAGS) -static -o $@ $< $(PEER_SRC)/common.c -lm

# make run PROGS='path/to/prog ...': your own Linux programs too, as
# /bin/NAME (then CMDLINE=init=/bin/NAME runs one). FILES='PATH=HOST ...':
# any host file HOST at any PATH of the initramfs, as tools/mkcpio.py takes
# them (a dynamic program's library: FILES=/lib/libz.so.1=/usr/lib/x86_64-linux-gnu/libz.so.1).
# The lists are kept in a file, so that the initrd is made again whenever
# they change.
PROGS       ?=
FILES       ?=
FILES_HOST  := $(foreach f,$(FILES),$(lastword $(subst =, ,$(f))))
PROGS_LIST  := $(BUILD)/progs.list
$(foreach f,$(FILES),$(if $(findstring =,$(f)),,$(error FILES: $(f): not PATH=HOST)))
$(foreach p,$(PROGS) $(FILES_HOST),$(if $(wildcard $(p)),,$(error PROGS or FILES: $(p): no such file)))

$(PROGS_LIST): FORCE
	@mkdir -p $(dir $@)
	@echo '$(abspath $(PROGS)) $(FILES)' | cmp -s - $@ 2>/dev/null || echo '$(abspath $(PROGS)) $(FILES)' > $@

$(INITRD): $(USER_BINS) $(WORKLOADS) $(USER_TESTS) $(USER_SCRIPTS) $(USER_BENCH) $(PEER_BINS) $(DYN_BINS) $(PROGS) \
		$(FILES_HOST) $(PROGS_LIST) tools/mkcpio.py
	$(call msg,CPIO,$@)
	$(Q)$(PYTHON) tools/mkcpio.py $@ $(foreach b,$(USER_BINS) $(WORKLOADS),bin/$(notdir $(b))=$(b)) \
		$(foreach b,$(USER_TESTS) $(USER_SCRIPTS),tests/$(notdir $(b))=$(b)) $(foreach b,$(USER_BENCH),bench/$(notdir $(b))=$(b)) \
		$(foreach b,$(PEER_BINS),peer/$(notdir $(b))=$(b)) \
		$(foreach b,$(DYN_BINS),tests/dyn/$(notdir $(b))=$(b)) $(foreach l,$(DYN_LIBS),$(l)=$(l)) \
		$(foreach b,$(PROGS),bin/$(notdir $(b))=$(abspath $(b))) \
		$(foreach f,$(FILES),$(firstword $(subst =, ,$(f)))=$(abspath $(lastword $(subst =, ,$(f)))))

# A text as one shell word, '...', whatever it holds; userword: the text
# of the variable NAME as the user typed it, so that CMDLINE='run="a b; c"'
# reaches mkiso.sh as run="a b; c", quotes, spaces, ; and $ untouched (a \"
# is a ", as in the older form CMDLINE='run=\"a b\"').
shellword = '$(subst ','"'"',$(1))'
userword  = $(call shellword,$(subst \",",$(value $(1))))

# The ISO carries the command line in its GRUB menu, and the initrd next to
# the kernel; mkiso.sh rebuilds it whenever either of them or CMDLINE changes.
$(ISO): $(ELF) $(INITRD) FORCE
	@tools/mkiso.sh $(ELF) $@ $(call userword,CMDLINE)
FORCE:

# EMU=bochs boots the same ISO in Bochs (docs/emulators.md): ACCEL, MACHINE
# and UEFI are QEMU's only.
run: deps $(ISO)
ifeq ($(EMU),bochs)
	@tools/deps.sh bochs
	@$(PYTHON) tools/bochs.py --iso $(ISO) --smp $(SMP) --mem $(MEM) --run-status
else
	@$(PYTHON) tools/qemu.py --iso $(ISO) --smp $(SMP) --mem $(MEM) --accel $(ACCEL) \
		--machine $(MACHINE) $(if $(filter 1,$(UEFI)),--uefi) --run-status
endif

# `make debug`: the same ISO, paused, under TCG (breakpoints and single
# steps behave alike on every machine), with GDB attached, tools/gdb/
# loaded and stopped in kmain. GDB=0 starts only QEMU and says how to
# attach. GDBPORT picks the port. docs/debugging.md is the guided tour.
GDB     ?= 1
GDBPORT ?= 1234
DEBUG_QEMU := $(PYTHON) tools/qemu.py --iso $(ISO) --smp $(SMP) --mem $(MEM) --accel tcg \
	--machine $(MACHINE) $(if $(filter 1,$(UEFI)),--uefi) --gdb $(GDBPORT) --paused
DEBUG_GDB := gdb -q $(ELF) -x tools/gdb/gdbinit -ex 'lm-connect $(GDBPORT)'

debug: deps $(ISO)
ifeq ($(GDB),0)
	@echo "debug: QEMU waits for GDB on port $(GDBPORT). In another terminal, in $(CURDIR):"
	@echo "    $(DEBUG_GDB)"
	@$(DEBUG_QEMU)
else
	@echo "debug: the kernel's serial output goes to $(BUILD)/debug-serial.log (lm-log shows its log)"
	@setsid $(DEBUG_QEMU) --log $(BUILD)/debug-serial.log </dev/null >/dev/null 2>&1 & qemu=$$!; \
		$(DEBUG_GDB); kill $$qemu 2>/dev/null; wait $$qemu; true
endif

# A scripted GDB session in batch mode checks every helper (make test runs it).
debug-test: deps $(ELF)
	@$(PYTHON) tools/debug_test.py --elf $(ELF)

include tests/host.mk

# The host tools' tests (tests/tools/), then those of the ring-3 programs,
# run on the host's Linux (tests/userland/); tests/README.md says which
# file tests what. The second folder runs even when the first fails.
tools-test: $(USER_BINS) $(WORKLOADS) $(USER_BENCH)
	@status=0; for dir in tests/tools tests/userland; do \
		$(PYTHON) -m unittest discover -s $$dir -p 'test_*.py' || status=1; \
	done; exit $$status

# Every #include respects the layers (docs/architecture.md).
layers:
	@$(PYTHON) tools/layers.py

# The same kernel must build with clang too.
clang-build:
	@$(MAKE) --no-print-directory CC=clang BUILD=$(BUILD)/clang $(BUILD)/clang/leftmost.elf

# make test: every stage (host-test, layers, clang-build, the build,
# tools-test, debug-test) even after one has failed, then every boot of
# tests/kernel-suites.txt's default suite, then one summary: each stage's
# and boot's seconds, the failed checks with their logs, and last
# "N passed, N failed" (tools/testall.py, docs/testing.md).
# JOBS=N: emulators at once (default 2 where the host has 2 cores; a
# configuration flagged alone runs by itself). ONLY=NAME[,NAME]: just
# these stages and configurations (and the build if a boot needs it).
JOBS ?=
ONLY ?=
TESTALL = $(PYTHON) tools/testall.py --elf $(ELF) --initrd $(INITRD) $(if $(JOBS),-j $(JOBS))

test: deps
	@tools/deps.sh browser || echo "deps: no chromium: the trace picture's render check will say SKIP"
	@tools/deps.sh bochs
	@$(TESTALL) $(if $(ONLY),--only $(ONLY))

test-matrix: deps
	@$(TESTALL) --suite matrix --boots-only $(if $(ONLY),--only $(ONLY))

# make test builds the host tests beside the kernel, then runs them alone.
host-test-build: $(HOST_BIN)

# The edit-compile-test loop: the host tests (and the simulator), the
# layers, and ktest=all at -smp 4; about 2 minutes on 2 cores.
check: deps
	@$(TESTALL) --only host-test,layers,smp4

# The workloads next to Linux's figures: build/bench.md, medians and ranges
# over RUNS runs (three boots each), then the ring-3 programs (user/bench/),
# the same binaries on leftmost and on Linux, one more boot a run. Both
# kernels run tickless (nohz is on by default, as Linux's NO_HZ_IDLE);
# BENCH_CMDLINE adds boot parameters (`make bench BENCH_CMDLINE=nohz=off`
# measures the periodic tick).
# EMU=bochs: build/bench-exact.md instead, one run in Bochs at 2 CPUs, every
# figure in virtual time next to its ideal (docs/emulators.md).
# SCHED=all (or a comma list of cfs,sd,o1): build/sched-ab.md instead, the
# 2007 debate's A/B table, the lists booted with each sched=NAME
# (tools/sched_ab.py, docs/workloads.md).
RUNS          ?= 3
BENCH_CMDLINE ?=
SCHED         ?=
BENCH_WORD     = $(call userword,BENCH_CMDLINE)
bench: deps $(ELF) $(INITRD)
ifeq ($(EMU),bochs)
	@tools/deps.sh bochs
	@$(PYTHON) tools/bench.py --emu bochs --elf $(ELF) --cmdline $(BENCH_WORD)
else ifneq ($(SCHED),)
	@$(PYTHON) tools/sched_ab.py --sched $(call userword,SCHED) --elf $(ELF) --runs $(RUNS) \
		--cmdline $(BENCH_WORD)
else
	@$(PYTHON) tools/bench.py --elf $(ELF) --runs $(RUNS) --cmdline $(BENCH_WORD)
	@$(PYTHON) tools/bench_ring3.py --elf $(ELF) --runs $(RUNS) --cmdline $(BENCH_WORD)
endif

# make soak MINUTES=N: ktest=stress churns tasks for N minutes (1..60) at
# -smp 4, plus SOAK_CMDLINE's boot parameters; not part of `make test`. The
# timeout allows a quarter more, plus 4 minutes for booting and the checks.
MINUTES      ?= 10
SOAK_CMDLINE ?=
SOAK_LOG      = $(BUILD)/soak.log
SOAK_WORD     = $(call userword,SOAK_CMDLINE)
# The system-call fuzzer of make test's `fuzz` configuration, for SECONDS
# instead of 60: the same checks (no panic, no warning, nothing leaked).
fuzz: deps $(ELF) $(INITRD)
	@test "$(SECONDS)" -ge 1 2>/dev/null || { echo "usage: make fuzz SECONDS=N"; exit 2; }
	@grep '^fuzz ' tests/kernel-suites.txt | sed -e 's/seconds=60/seconds=$(SECONDS)/' \
		-e 's/| run | [0-9]* |/| run | $(shell echo $$(($(SECONDS) + 120))) |/' > $(BUILD)/fuzz-suite.txt
	@$(PYTHON) tools/runtests.py --configs $(BUILD)/fuzz-suite.txt --only fuzz --elf $(ELF)

soak: deps $(ELF)
	@test "$(MINUTES)" -ge 1 -a "$(MINUTES)" -le 60 2>/dev/null || \
		{ echo "usage: make soak MINUTES=N (N from 1 to 60: stress_seconds is at most 3600)"; exit 2; }
	@mkdir -p $(BUILD)/iso
	@tools/mkiso.sh $(ELF) $(BUILD)/iso/soak.iso "ktest=stress stress_seconds=$$(($(MINUTES) * 60)) "$(SOAK_WORD)
	@echo "make soak: $(MINUTES) min of ktest=stress at -smp 4"$(if $(strip $(value SOAK_CMDLINE)),' with '$(SOAK_WORD))
	@$(PYTHON) tools/qemu.py --iso $(BUILD)/iso/soak.iso --smp 4 --mem $(MEM) --accel $(ACCEL) \
		--timeout $$(($(MINUTES) * 75 + 240)) --log $(SOAK_LOG) < /dev/null > /dev/null; \
		status=$$?; case $$status in \
		33) verdict=PASS ;; 35) verdict="FAIL: a test failed" ;; 37) verdict="FAIL: kernel panic" ;; \
		124) verdict="FAIL: timed out" ;; *) verdict="FAIL: QEMU exit status $$status" ;; esac; \
		echo "make soak: $$verdict ($(MINUTES) min, log $(SOAK_LOG))"; test $$status -eq 33

# make trace RUN='program key=value ...[; program ...]': boot with the
# scheduler trace on, run the programs (as run= does), and write
# build/trace/NAME.txt (ftrace text, for ui.perfetto.dev) and NAME.svg (a
# timeline for any browser), NAME being the first program's; then print
# tools/schedstat's per-task summary. docs/tracing.md explains it all.
TRACE_SIZE    ?= 4096
TRACE_TIMEOUT ?= 900
TRACE_OUT = $(BUILD)/trace/$(notdir $(firstword $(subst ;, ,$(value RUN))))
RUN_WORD  = $(call userword,RUN)
trace: deps $(ELF) $(INITRD)
	@test -n $(RUN_WORD) || { echo "usage: make trace RUN='program key=value ...[; program ...]' (docs/tracing.md)"; exit 2; }
	@mkdir -p $(BUILD)/trace
	@tools/mkiso.sh $(ELF) $(TRACE_OUT).iso $(call shellword,trace=sched trace_size=$(TRACE_SIZE) run="$(subst \",",$(value RUN))")
	@echo 'make trace: booting with run="'$(RUN_WORD)'"; the trace is printed at the end (slow under TCG)'
	@$(PYTHON) tools/qemu.py --iso $(TRACE_OUT).iso --smp $(SMP) --mem $(MEM) --accel $(ACCEL) \
		--machine $(MACHINE) --timeout $(TRACE_TIMEOUT) --log $(TRACE_OUT).log < /dev/null > /dev/null; \
		status=$$?; test $$status -eq 33 || echo "make trace: QEMU exit status $$status (33: every program exited 0); see $(TRACE_OUT).log"
	@$(PYTHON) tools/tracefile.py $(TRACE_OUT).log -o $(TRACE_OUT).txt
	@$(PYTHON) tools/trace2svg $(TRACE_OUT).txt -o $(TRACE_OUT).svg > /dev/null
	@echo "$(TRACE_OUT).txt: ftrace text; open it at ui.perfetto.dev"
	@echo "$(TRACE_OUT).svg: the timeline; open it in a browser"
	@$(PYTHON) tools/schedstat $(TRACE_OUT).txt

clean:
	rm -rf $(BUILD)

-include $(OBJS:.o=.d) $(BUILD)/ksyms.d $(BUILD)/ksyms-empty.d
