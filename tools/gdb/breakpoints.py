"""Stopping in the scheduler: lm-break-pick [CPU].

Every pick ends in sched_picked(rq, class, p) (sched/core.c), a function
that exists so that a debugger has one fixed place to stop with the three
in hand. lm-break-pick sets a breakpoint there whose Python stop() method
decides, on each hit, whether to stop (only on the CPU asked for) and
prints what was decided and why before GDB shows the stop. Why the normal
class chose its task depends on the class chosen at boot (sched=): the
smallest key for CFS, the head of the first non-empty slot or priority
list of the active array for Staircase Deadline and O(1).
"""

import gdb

from rq import leftmost_task, rt_priorities
from utils import (check_cpu_number, describe_task, is_normal, key_delta, ms, normal_class, normal_name,
                   parse_cpu, prio_array_tasks, symbol)

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
    if int(prev) != int(picked) and is_normal(prev) and prev["on_rq"]:
        lines.append(f"  prev       : {describe_task(prev)} key {ms(prev['se']['vruntime'])} ms "
                     f"({ms(key_delta(prev['se']['vruntime'], key), True)}), back in the tree")
    return lines


def runner_up(array, member, picked):
    """The first task but picked in the array's pick order (the next pick if
    picked went to sleep now), or None."""
    others = (task for _, task in prio_array_tasks(array, member) if int(task) != int(picked))
    return next(others, None)


def sd_reason(rq, picked, prev):
    """Why SD chose picked: the head of the active array's first non-empty slot."""
    sd, p = rq["sd"], picked["sd"]
    lines = [f"  picked slot: {int(p['slot'])}, quota left {ms(p['quota'])} ms: the head of the active "
             f"array's first non-empty slot (staircase at slot {int(sd['slot'])}, "
             f"prio_rotation {int(sd['prio_rotation'])})"]
    nxt = runner_up(sd["active"], "sd.run_list", picked)
    lines.append("  runner-up  : " + ("none in the active array" if nxt is None else
                                      f"{describe_task(nxt)} at slot {int(nxt['sd']['slot'])}"))
    return lines


def o1_reason(rq, picked, prev):
    """Why O(1) chose picked: the head of the active array's most urgent list."""
    o1, p = rq["o1"], picked["o1"]
    lines = [f"  picked prio: {int(p['prio'])} (static {int(picked['static_prio'])}), the head of the "
             f"active array's most urgent list; time_slice {ms(p['time_slice'])} ms, "
             f"sleep_avg {ms(p['sleep_avg'])} ms"]
    nxt = runner_up(o1["active"], "o1.run_list", picked)
    lines.append("  runner-up  : " + ("none in the active array" if nxt is None else
                                      f"{describe_task(nxt)} at prio {int(nxt['o1']['prio'])}"))
    return lines


# Why the normal class picked, by its name field.
NORMAL_REASON = {"fair": fair_reason, "sd": sd_reason, "o1": o1_reason}


def reason(rq, cls, picked, prev):
    """Lines saying why cls's pick won: the classes above it had nothing."""
    if int(cls) == int(normal_class()) and normal_name() in NORMAL_REASON:
        return NORMAL_REASON[normal_name()](rq, picked, prev)
    if int(cls) == int(symbol("rt_sched_class").address):
        prios = rt_priorities(rq["rt"])
        return [f"  RT goes before {normal_name()}; the most urgent RT priority queued is "
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
