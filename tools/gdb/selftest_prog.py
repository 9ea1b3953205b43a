"""The second GDB session of tools/debug_test.py: a ring-3 program.

The kernel boots init="/bin/yield ...", which calls sched_yield() in a
loop (user/bin/yield.c). The session follows docs/debugging.md's "From a
program into the pick": stop in the kernel's sys_sched_yield, load the
program's symbols (lm-prog), stop in the C library's sched_yield in ring
3, step into the kernel's entry, and on into the fair class's pick.
Output as tools/gdb/selftest.py's.
"""

import gdb

from checks import check, run, summary, value

USER_TOP = 0x0000800000000000


def current_name():
    return gdb.parse_and_eval("$lm_current()->name").string()


def main():
    try:
        run("break sys_sched_yield")
        run("continue")
        check(current_name() == "yield" and value("$lm_current()->process") != 0,
              "break sys_sched_yield stops in the program's system call", current_name())
        out = run("lm-prog")
        check("yield's symbols from build/user/bin/yield" in out, "lm-prog loads the running program's symbols", out)
        check(0 < value("(long)&main") < USER_TOP, "the program's main is known, at a user address")
        run("delete")

        # Two places: the C library's, in ring 3, and the kernel's, which
        # the system call stopped in calls next.
        run("break sched_yield")
        for _ in range(3):
            run("continue")
            if value("$cs") & 3 == 3:
                break
        check(value("$cs") & 3 == 3 and value("$pc") < USER_TOP,
              "break sched_yield stops in ring 3 too, in the C library", hex(value("$pc")))
        run("delete")
        steps = 0
        while value("$cs") & 3 == 3 and steps < 50:
            run("stepi")
            steps += 1
        where = run("info symbol $pc")
        check(where.startswith("syscall_entry in section"),
              f"stepi goes from ring 3 into syscall_entry ({steps} steps)", where)

        run("tbreak pick_next_task_fair")
        run("continue")
        frame = gdb.selected_frame().name()
        check(frame == "pick_next_task_fair" and current_name() == "yield",
              "the yield goes on into the fair class's pick, the program still current", f"{frame} {current_name()}")
        bt = run("bt")
        check("sys_sched_yield" in bt and "syscall_dispatch" in bt,
              "its backtrace runs back through sys_sched_yield to syscall_dispatch", bt)
    except gdb.error as e:
        check(False, "the session ran to its end", str(e))
    summary()


main()
