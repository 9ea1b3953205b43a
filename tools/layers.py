#!/usr/bin/env python3
"""Check that every #include in the kernel's sources respects the layers.

The layers, bottom-up (docs/architecture.md):

    lib/  <  arch/x86_64/  <  kernel/  <  sched/

A file may include headers from its own layer and the layers below it.
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

Usage: tools/layers.py [ROOT]    (default: the repository this file is in)
"""
import os
import re
import sys

LAYERS = ["lib", "arch", "kernel", "sched", "user"]

# Where each layer lives (boot/ holds only assembly, checked by NASM).
DIRS = {"lib": "lib", "arch": "arch/x86_64", "kernel": "kernel", "sched": "sched", "user": "user"}

# Headers a lower layer may include from a higher one, and why.
SERVICES = {
    # The kernel's services every layer uses, as Linux's arch code uses
    # printk and early_param: printing, dying, boot parameters, tests,
    # locks and error numbers.
    "kernel/printk.h", "kernel/panic.h", "kernel/params.h", "kernel/ktest.h",
    "kernel/spinlock.h", "kernel/errno.h",
    # The lock-order checker's types and hooks (a task holds its mutexes'
    # records; a user copy tells it it may fault).
    "kernel/lockdep.h",
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
SCHED_PLATFORM = {"kernel/timer.h", "kernel/sysctl.h"}
# ...and what the platform header alone includes in the kernel's build (not
# the simulator's): kernel/percpu.h, for the inline sched_current(), which
# is current() there.
PLATFORM_KERNEL_ONLY = {"kernel/percpu.h"}

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


def verdict(src, header):
    """None if src may include header, else the rule it breaks."""
    mine, theirs = layer_of(src), layer_of(header)
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
    for src in srcs + sorted(included_by):
        with open(os.path.join(root, src), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if m:
                    rule = verdict(src, m.group(1))
                    if rule:
                        problems.append((src, number, m.group(1), rule))
    return problems


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    problems = check(root)
    for src, number, header, rule in problems:
        print("layers: %s:%d includes %s: %s" % (src, number, header, rule))
    print("layers: %d include(s) point up a layer" % len(problems) if problems else "layers: ok")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
