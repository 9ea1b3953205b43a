"""Runqueues and classes: lm-rq [CPU], lm-class.

One struct rq per CPU (runqueues[] in sched/core.c) holds the CPU's
runnable tasks, split by class: rq->rt (a queue per priority and a bitmap
of the non-empty ones) and rq->cfs (the timeline, see lm-tree).
"""

import gdb

from utils import container_of, cpu_rq, describe_task, key_delta, ms, parse_cpu, symbol


def rt_priorities(rt_rq):
    """The RT priorities with queued tasks, from the bitmap (most urgent first)."""
    words = rt_rq["bitmap"]
    bits = words.type.target().sizeof * 8
    count = words.type.range()[1] + 1
    return [w * bits + b for w in range(count) for b in range(bits) if int(words[w]) >> b & 1]


def bitmap_hex(rt_rq):
    """The bitmap as one hex number, as sched/debug.c prints it."""
    words = rt_rq["bitmap"]
    return "".join(f"{int(words[i]):016x}" for i in reversed(range(words.type.range()[1] + 1)))


def leftmost_task(cfs):
    """The fair task first in line (the tree's cached leftmost), or None."""
    node = cfs["timeline"]["leftmost"]
    return container_of(node, "struct task", "se.run_node") if int(node) else None


class LmRq(gdb.Command):
    """Show a CPU's runqueue: tasks, load, clock, current, RT bitmap, fair position.

Usage: lm-rq [CPU]      (default: the CPU of GDB's selected thread)"""

    def __init__(self):
        super().__init__("lm-rq", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        cpu = parse_cpu(arg)
        rq = cpu_rq(cpu)
        cfs, rt = rq["cfs"], rq["rt"]
        curr = rq["curr"]
        left = leftmost_task(cfs)
        prios = rt_priorities(rt)
        out = [f"cpu{cpu} runqueue: (struct rq *) {int(rq):#x}",
               f"  nr_running : {int(rq['nr_running'])} (the running task counts; idle does not)",
               f"  load       : {int(rq['load'])}",
               f"  clock      : {ms(rq['clock'])} ms",
               f"  current    : {describe_task(curr)}, class {curr['sched_class']['name'].string()}",
               f"  switches   : {int(rq['nr_switches'])}",
               f"  rt         : {int(rt['nr_running'])} runnable, bitmap {bitmap_hex(rt)}"
               + (f" (prio {', '.join(map(str, prios))})" if prios else "")
               + f", throttled {'yes' if rt['throttled'] else 'no'}",
               f"  fair       : {int(cfs['nr_running'])} runnable, load {int(cfs['load'])}, "
               f"fair_clock {ms(cfs['fair_clock'])} ms",
               f"  fair curr  : {describe_task(cfs['curr'])}",
               "  leftmost   : " + ("-" if left is None else
                                    f"{describe_task(left)}, key {ms(left['se']['vruntime'])} ms "
                                    f"({ms(key_delta(left['se']['vruntime'], cfs['fair_clock']), True)} "
                                    "from fair_clock)")]
        gdb.write("\n".join(out) + "\n")


def symbol_at(pointer):
    """The ELF symbol a pointer points at ("pick_next_task_fair"), or '-' for NULL.

    From the symbol table, not the debug blocks: a method that is a small
    function inlined elsewhere still has its own symbol."""
    if not int(pointer):
        return "-"
    return gdb.execute(f"info symbol {int(pointer)}", to_string=True).split()[0]


class LmClass(gdb.Command):
    """List the scheduling classes in priority order, with each method's function.

Usage: lm-class
The core tries the classes in this order on every pick (sched/core.c)."""

    def __init__(self):
        super().__init__("lm-class", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        # sched_class_highest is a macro (no debug information): it names this one.
        cls = symbol("rt_sched_class").address
        rank = 1
        while int(cls):
            gdb.write(f"{rank}. {cls['name'].string()} ({symbol_at(cls)})\n")
            for field in cls.dereference().type.strip_typedefs().fields():
                if field.type.strip_typedefs().code == gdb.TYPE_CODE_PTR and \
                        field.type.strip_typedefs().target().code == gdb.TYPE_CODE_FUNC:
                    gdb.write(f"     {field.name:<20} {symbol_at(cls[field.name])}\n")
            cls, rank = cls["next"], rank + 1


LmRq()
LmClass()
