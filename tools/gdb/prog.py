"""Programs: lm-prog [NAME], the symbols of a ring-3 program.

A program's code is not in build/leftmost.elf: GDB knows its functions
only once its own file is loaded beside the kernel's. The files are the
static binaries the initial RAM disk was made from (the Makefile's
INITRD: /bin from build/user/bin, /tests, /bench, /peer), linked at fixed
addresses, so `add-symbol-file FILE` needs no offset. (A static-PIE
program, hello-pie, is loaded wherever its process's mmap put it: not
here.) The breakpoints then work in any process that runs that code.
"""

import os

import gdb

from utils import NotReady, cpu_current, selected_cpu, task_name

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLACES = ["build/user/bin", "build/user/tests", "build/user/bench", "build/peer"]


def program_file(name):
    """The build's file of the program called name, or None."""
    for place in PLACES:
        path = os.path.join(ROOT, place, name)
        if os.path.isfile(path):
            return path
    return None


def running_program():
    """The name of the program the selected CPU runs (its task's comm)."""
    task = cpu_current(selected_cpu())
    if int(task["process"]) == 0:
        raise gdb.GdbError(f"cpu {selected_cpu()} runs {task_name(task)}, a kernel task: "
                           "name the program (lm-prog NAME)")
    return task_name(task)


class LmProg(gdb.Command):
    """Load a ring-3 program's symbols: the one the selected CPU runs, or NAME.
Usage: lm-prog [NAME]    (NAME as in /bin/NAME, /tests/NAME, ...)
Then `break main`, `break sched_yield` (the C library's) and `bt` in ring 3
work; `stepi` over its `syscall` goes on into the kernel's syscall_entry."""

    def __init__(self):
        super().__init__("lm-prog", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        try:
            name = arg.strip() or running_program()
        except NotReady as e:
            raise gdb.GdbError(str(e))
        path = program_file(name)
        if not path:
            raise gdb.GdbError(f"no program '{name}' in {', '.join(PLACES)} (make builds them)")
        gdb.execute(f"add-symbol-file {path}", to_string=True)
        gdb.write(f"lm-prog: {name}'s symbols from {os.path.relpath(path, ROOT)}\n")


LmProg()
