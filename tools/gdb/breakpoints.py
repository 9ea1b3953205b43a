"""Stopping in the scheduler: lm-break-pick [CPU].

Every pick ends in sched_picked(rq, class, p) (sched/core.c), a function
that exists so that a debugger has one fixed place to stop with the three
in hand. lm-break-pick sets a breakpoint there whose Python stop() method
decides, on each hit, whether to stop (only on the CPU asked for) and
prints what was decided and why before GDB shows the stop.
"""

import gdb

from rq import leftmost_task, rt_priorities
from utils import check_cpu_number, describe_task, fair_class, key_delta, ms, parse_cpu, symbol

PICK_HOOK = "sched_picked"


def fair_reason(rq, picked, prev):
    """Why the fair class chose picked: its key against the others'."""
    cfs = rq["cfs"]
    key = picked["se"]["vruntime"]
    lines = [f"  picked key : {ms(key)} ms, the smallest: it was the timeline's leftmost "
             f"(fair_clock {ms(cfs['fair_clock'])} ms)"]
    runner_up = leftmost_task(cfs)
    if runner_up is None:
        lines.append("  runner-up  : none, the timeline is now empty")
    else:
        lines.append(f"  runner-up  : {describe_task(runner_up)} key {ms(runner_up['se']['vruntime'])} ms "
                     f"({ms(key_delta(runner_up['se']['vruntime'], key), True)} after the pick), "
                     "now the leftmost")
    if int(prev) != int(picked) and int(prev["sched_class"]) == int(fair_class()) and prev["on_rq"]:
        lines.append(f"  prev       : {describe_task(prev)} key {ms(prev['se']['vruntime'])} ms "
                     f"({ms(key_delta(prev['se']['vruntime'], key), True)}), back in the tree")
    return lines


def reason(rq, cls, picked, prev):
    """Lines saying why cls's pick won: the classes above it had nothing."""
    if int(cls) == int(fair_class()):
        return fair_reason(rq, picked, prev)
    if int(cls) == int(symbol("rt_sched_class").address):
        prios = rt_priorities(rq["rt"])
        return [f"  RT goes before fair; the most urgent RT priority queued is "
                f"{prios[0] if prios else '-'}, this task's is {int(picked['prio'])}"]
    return [f"  no class above {cls['name'].string()} had a runnable task here"]


class PickBreakpoint(gdb.Breakpoint):
    """A breakpoint on the pick hook that stops only for one CPU's runqueue."""

    def __init__(self, cpu):
        super().__init__(PICK_HOOK)
        self.cpu = cpu

    def stop(self):
        frame = gdb.selected_frame()
        rq = frame.read_var("rq")
        cpu = int(rq["cpu"])                # the runqueue's CPU is the CPU picking
        if self.cpu is not None and cpu != self.cpu:
            return False
        cls, picked = frame.read_var("class"), frame.read_var("p")
        prev = rq["curr"]                   # not yet replaced: the core does that next
        gdb.write(f"lm-break-pick: cpu{cpu}: class {cls['name'].string()} picked "
                  f"{describe_task(picked)}; prev {describe_task(prev)}\n")
        gdb.write("\n".join(reason(rq, cls, picked, prev)) + "\n")
        return True


class LmBreakPick(gdb.Command):
    """Break in the pick path on one CPU and show which class picked which task, and why.

Usage: lm-break-pick [CPU]    (no CPU: stop on every CPU)
Each stop prints the class, the picked task, the task it replaces and the
keys compared. 'continue' goes to the next pick; 'delete N' removes it."""

    def __init__(self):
        super().__init__("lm-break-pick", gdb.COMMAND_BREAKPOINTS)

    def invoke(self, arg, from_tty):
        cpu = parse_cpu(arg) if arg.strip() else None
        if cpu is not None:
            check_cpu_number(cpu)   # it need not be up yet: set at kmain, it waits
        bp = PickBreakpoint(cpu)
        where = "every CPU" if cpu is None else f"cpu {cpu} only"
        gdb.write(f"breakpoint {bp.number} on {PICK_HOOK}(): stops on {where}\n")


LmBreakPick()
