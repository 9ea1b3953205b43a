#!/usr/bin/env python3
"""Check that every #include in the kernel's sources respects the layers.

The layers, bottom-up (docs/architecture.md):

    lib/  <  arch/x86_64/  <  kernel/  <  sched/

A file may include headers from its own layer and the layers below it.
Inside kernel/, each folder is a subsystem, and the subsystems are layers
too, in the order of KERNEL_ORDER (kernel/README.md): a subsystem includes
its own headers and those of the subsystems below it; going up is allowed
only for the system calls (SYSCALL_FILES) and the crossings CROSSINGS
names, each with its reason. A header named *_internal.h belongs to its
folder: nobody outside it may include it.
A test in tests/kernel/included/ is #included at the end of the source it
tests (for that file's static functions): it is checked as part of that
source's layer. Other tests sit above every layer and may include anything.
user/ holds ring-3 programs: ordinary Linux programs that include none of
the kernel's headers (their way in is the system calls); so does tests/user/,
whose programs are checked as part of user/.
Going up is allowed only where the tables below name the header, each for
a stated reason; sched/ also goes down only through its platform (so it
builds on the host), and nobody outside sched/ sees its internals. Any
other include prints one line naming the file, the line, the header and
the rule, and the script exits 1.

It also checks that no two sources of lib/, arch/, kernel/ and sched/ share
a base name (two smp.c, two percpu.h): a name means one file, in a
backtrace, a debugger's breakpoint or a reader's head.

Usage: tools/layers.py [ROOT]    (default: the repository this file is in)
"""
import os
import re
import sys

LAYERS = ["lib", "arch", "kernel", "sched", "user"]

# Where each layer lives (boot/ holds only assembly, checked by NASM).
DIRS = {"lib": "lib", "arch": "arch/x86_64", "kernel": "kernel", "sched": "sched", "user": "user"}

# Headers a lower layer (or kernel/ subsystem) may include from a higher
# one, and why.
SERVICES = {
    # The kernel's services every layer uses, as Linux's arch code uses
    # printk and early_param: printing, dying, boot parameters, tests,
    # locks and error numbers.
    "kernel/printk.h", "kernel/panic.h", "kernel/params.h", "kernel/debug/ktest.h",
    "kernel/spinlock.h", "kernel/errno.h",
    # The lock-order checker's types and hooks (a task holds its mutexes'
    # records; a user copy tells it it may fault).
    "kernel/debug/lockdep.h",
}
# The kernel calls the scheduler through its public headers only, and
# implements sched/platform.h (its trace points and debug dump included).
SCHED_PUBLIC = {
    "sched/api.h", "sched/task.h", "sched/wait.h", "sched/preempt.h",
    "sched/platform.h", "sched/trace.h", "sched/debug.h", "sched/check.h",
}
# sched/ depends on the rest only through the platform: these are the
# kernel headers sched/platform.h stands for (the simulator provides them
# on the host).
SCHED_PLATFORM = {"kernel/time/timer.h", "kernel/sysctl.h"}
# ...and what the platform header alone includes in the kernel's build (not
# the simulator's): kernel/percpu.h, for the inline sched_current(), which
# is current() there.
PLATFORM_KERNEL_ONLY = {"kernel/percpu.h"}

# kernel/'s subsystems, bottom-up: a folder's files are in the subsystem of
# its nearest listed ancestor (kernel/fs/ramfs/ is part of kernel/fs).
KERNEL_ORDER = [
    "kernel",             # core services: printk, panic, locks, per-CPU data, cross-CPU calls, parameters
    "kernel/time",        # timers, the tick, clocks, CPU time, load average
    "kernel/mm",          # pages, kmalloc, page tables, address spaces, the vDSO
    "kernel/fs",          # open files, descriptors, paths, the in-memory file system, pipes, poll
    "kernel/task",        # kernel tasks, processes, threads, fork, exec, signals, futexes
    "kernel/fs/proc",     # /proc: it reads every process
    "kernel/tty",         # the serial port and the console terminal (job control needs processes)
    "kernel/debug",       # crash=, debug keys, trace buffer, image checksum, lockdep, ktest
    "kernel/entry",       # boot, interrupts, system-call dispatch, idle: they call every subsystem
]
# A system call's file (kernel/*/sys_*.c) sits on top of its subsystem:
# only the table in kernel/entry/syscall.c calls it, and it acts for the
# calling process, through whatever subsystem the call needs (mmap of a
# file, poll's signals). It may include any kernel/ header but kernel/entry/'s.
SYSCALL_FILE = re.compile(r"^kernel/.*/sys_[a-z_]+\.c$")
# Includes up the subsystem order, each for a stated reason.
CROSSINGS = {
    ("kernel/printk.c", "kernel/tty/serial.h"):
        "the log's lines go out on the serial port",
    ("kernel/power.c", "kernel/debug/trace_buffer.h"):
        "a traced boot prints its trace before it powers off",
    ("kernel/time/cputime.c", "kernel/task/kthread.h"):
        "a tick that finds the idle task counts no task's time",
    ("kernel/mm/mm.c", "kernel/fs/file.h"):
        "a mapping of a file holds a reference to it",
    ("kernel/mm/mm.c", "kernel/task/thread.h"):
        "a fault that finds no page marks the running thread, for user_fault() to kill it",
    ("kernel/fs/cwd.c", "kernel/task/process.h"):
        "the working directory is the process's",
    ("kernel/fs/poll.c", "kernel/task/process.h"):
        "poll's table is the calling process's descriptors",
    ("tests/kernel/included/pipe_test.c", "kernel/task/kthread.h"):
        "the pipe's tests write and close from kernel tasks of their own",
    ("kernel/fs/fs.c", "kernel/fs/proc/procfs.h"):
        "the tree's /proc nodes are procfs's files",
    ("kernel/fs/path_walk.c", "kernel/fs/proc/procfs.h"):
        "walking into /proc fills it first",
    ("kernel/fs/dir_file.c", "kernel/fs/proc/procfs.h"):
        "listing a /proc directory fills it first",
    ("kernel/fs/fs.c", "kernel/tty/tty.h"):
        "/dev/console and /dev/tty open the terminal",
    ("kernel/task/process.c", "kernel/tty/tty.h"):
        "a process the kernel starts gets the console as its terminal",
    ("kernel/task/process_exit.c", "kernel/tty/tty.h"):
        "a session leader's end frees its terminal",
    ("kernel/tty/serial.c", "kernel/debug/debugkeys.h"):
        "Ctrl-T and a key typed on the serial port act at once",
}
PRIVATE = re.compile(r"_internal\.h$")
NAMED_DIRS = ["lib", "arch", "kernel", "sched"]   # where a base name means one file

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


INCLUDED_TESTS = "tests/kernel/included"
USER_TESTS = "tests/user"               # ring-3 programs: in the user layer
included_by = {}                 # an included test -> the source that includes it


def layer_of(path):
    """The layer of a repository-relative path, or None (tests, tools)."""
    path = included_by.get(path, path)
    if path.startswith(USER_TESTS + "/"):
        return "user"
    for name, d in DIRS.items():
        if path == d or path.startswith(d + "/"):
            return name
    return None


def subsystem_of(path):
    """The kernel subsystem (an entry of KERNEL_ORDER) of a path in kernel/."""
    folder = os.path.dirname(included_by.get(path, path))
    found = [s for s in KERNEL_ORDER if folder == s or folder.startswith(s + "/")]
    return max(found, key=len)


def kernel_verdict(src, header):
    """None if src, in kernel/, may include header, in kernel/, else the rule."""
    if PRIVATE.search(header) and os.path.dirname(included_by.get(src, src)) != os.path.dirname(header):
        return "%s is private to %s/" % (header, os.path.dirname(header))
    mine, theirs = subsystem_of(src), subsystem_of(header)
    if KERNEL_ORDER.index(theirs) <= KERNEL_ORDER.index(mine) or header in SERVICES:
        return None
    if SYSCALL_FILE.match(included_by.get(src, src)) and theirs != "kernel/entry":
        return None
    if (src, header) in CROSSINGS or (included_by.get(src, src), header) in CROSSINGS:
        return None
    return "%s/ may not include %s/ (a higher subsystem: KERNEL_ORDER, CROSSINGS in tools/layers.py)" % (mine, theirs)


def verdict(src, header):
    """None if src may include header, else the rule it breaks."""
    mine, theirs = layer_of(src), layer_of(header)
    if mine == "kernel" and theirs == "kernel":
        return kernel_verdict(src, header)
    if mine is None or theirs is None:
        return None
    if mine == "user" or theirs == "user":
        return None if mine == theirs else \
            "user/ holds ring-3 programs: they and the kernel include nothing of each other's"
    if theirs == "sched" and mine != "sched" and header not in SCHED_PUBLIC:
        return "it is internal to sched/ (the public headers: SCHED_PUBLIC in tools/layers.py)"
    if mine == "sched" and theirs in ("arch", "kernel"):
        if header in SERVICES or header in SCHED_PLATFORM:
            return None
        if src == "sched/platform.h" and header in PLATFORM_KERNEL_ONLY:
            return None
        return "sched/ reaches the rest only through sched/platform.h (it also builds on the host)"
    if LAYERS.index(theirs) <= LAYERS.index(mine):
        return None
    if header in SERVICES:
        return None
    if mine == "kernel" and header in SCHED_PUBLIC:
        return None
    return "%s may not include %s (a higher layer)" % (mine, theirs)


def sources(root):
    for top in [DIRS[name] for name in LAYERS] + [USER_TESTS]:
        top = os.path.join(root, top)
        for dirpath, _, files in os.walk(top):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(dirpath, f), root)


def check(root):
    """[(src, line number, header, rule)] for every include that breaks a rule."""
    problems = []
    included_by.clear()
    srcs = sorted(sources(root))
    for src in srcs:
        with open(os.path.join(root, src), encoding="utf-8") as f:
            for line in f:
                m = INCLUDE.match(line)
                if m and m.group(1).startswith(INCLUDED_TESTS + "/"):
                    included_by[m.group(1)] = src
    seen = set()
    for src in srcs + sorted(included_by):
        with open(os.path.join(root, src), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if m:
                    seen.add((src, m.group(1)))
                    rule = verdict(src, m.group(1))
                    if rule:
                        problems.append((src, number, m.group(1), rule))
    # A crossing the code no longer makes goes from the table too.
    for src, header in sorted(CROSSINGS):
        if os.path.exists(os.path.join(root, src)) and (src, header) not in seen:
            problems.append((src, 0, header, "CROSSINGS in tools/layers.py names it, but it is gone: remove it there"))
    return problems


def shared_names(root):
    """[(base name, [paths])] for every base name two sources share."""
    paths = {}
    for top in NAMED_DIRS:
        for dirpath, _, files in os.walk(os.path.join(root, DIRS[top])):
            for f in files:
                if f.endswith((".c", ".h")):
                    paths.setdefault(f, []).append(os.path.relpath(os.path.join(dirpath, f), root))
    return sorted((name, sorted(p)) for name, p in paths.items() if len(p) > 1)


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    problems = check(root)
    for src, number, header, rule in problems:
        print("layers: %s:%d includes %s: %s" % (src, number, header, rule))
    shared = shared_names(root)
    for name, paths in shared:
        print("layers: %s names %d files (%s): give each a name of its own" % (name, len(paths), ", ".join(paths)))
    if problems:
        print("layers: %d include(s) point up a layer" % len(problems))
    if shared:
        print("layers: %d base name(s) shared" % len(shared))
    if not problems and not shared:
        print("layers: ok")
    return 1 if problems or shared else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
