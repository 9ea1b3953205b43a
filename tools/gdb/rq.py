"""Runqueues and classes: lm-rq [CPU], lm-class.

One struct rq per CPU (runqueues[] in sched/core.c) holds the CPU's
runnable tasks, split by class: rq->rt (a queue per priority and a bitmap
of the non-empty ones) and the normal class's part, which depends on the
class chosen at boot (sched=): rq->cfs (CFS's timeline, see lm-tree),
rq->sd (Staircase Deadline's staircase of slots) or rq->o1 (the O(1)
scheduler's active and expired arrays). The other two parts sit unused.
"""

import gdb

from utils import (bitmap40, container_of, cpu_rq, describe_task, key_delta, ms,
                   normal_name, parse_cpu, sched_classes, symbol)


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


def cfs_lines(rq):
    """CFS's part: its clock, its running task and the timeline's leftmost."""
    cfs = rq["cfs"]
    left = leftmost_task(cfs)
    return [f"  fair       : {int(cfs['nr_running'])} runnable, load {int(cfs['load'])}, "
            f"fair_clock {ms(cfs['fair_clock'])} ms",
            f"  fair curr  : {describe_task(cfs['curr'])}",
            "  leftmost   : " + ("-" if left is None else
                                 f"{describe_task(left)}, key {ms(left['se']['vruntime'])} ms "
                                 f"({ms(key_delta(left['se']['vruntime'], cfs['fair_clock']), True)} "
                                 "from fair_clock)")]


def arrays_line(label, part):
    """The active and expired prio_arrays of rq->sd or rq->o1, in one line."""
    active, expired = part["active"], part["expired"]
    return (f"  {label:<11}: active {int(active['nr_active'])} queued, bitmap {bitmap40(active)}; "
            f"expired {int(expired['nr_active'])} queued, bitmap {bitmap40(expired)}")


def sd_lines(rq):
    """Staircase Deadline's part: where the staircase stands, and its arrays."""
    sd = rq["sd"]
    slot = int(sd["slot"])
    quota = sd["slot_quota"]
    # slot is 40 once every level of this rotation has closed.
    left = f"{ms(quota[slot])} ms" if slot <= quota.type.range()[1] else "- (every slot closed)"
    return [f"  sd         : {int(sd['nr_running'])} runnable, staircase at slot {slot} "
            f"(level quota left {left}), prio_rotation {int(sd['prio_rotation'])}",
            arrays_line("sd arrays", sd)]


def o1_lines(rq):
    """The O(1) scheduler's part: its arrays and how long the expired tasks wait."""
    o1 = rq["o1"]
    return [f"  o1         : {int(o1['nr_running'])} runnable, "
            f"expired_timestamp {expired_since(o1)}, best_expired_prio {best_expired(o1)}",
            arrays_line("o1 arrays", o1)]


def expired_since(o1):
    """expired_timestamp, where 0 means that no task expired this round."""
    stamp = int(o1["expired_timestamp"])
    return f"{ms(stamp)} ms" if stamp else "0 (none expired yet)"


def best_expired(o1):
    """best_expired_prio, where MAX_PRIO (140, sched/task.h: a macro, not in the
    debug information) means none."""
    prio = int(o1["best_expired_prio"])
    return f"{prio} (none)" if prio >= 140 else str(prio)


# The normal class's part of struct rq, by the class's name field.
NORMAL_LINES = {"fair": cfs_lines, "sd": sd_lines, "o1": o1_lines}


def normal_lines(rq):
    name = normal_name()
    if name not in NORMAL_LINES:
        return [f"  {name:<11}: lm-rq does not know this class's part of the runqueue"]
    return NORMAL_LINES[name](rq)


class LmRq(gdb.Command):
    """Show a CPU's runqueue: tasks, load, clock, current, RT bitmap, the normal class's part.

Usage: lm-rq [CPU]      (default: the CPU of GDB's selected thread)
The normal class's part is the one chosen at boot (sched=): CFS's fair_clock,
running task and leftmost; SD's staircase slot, prio_rotation and arrays;
O(1)'s expired_timestamp, best_expired_prio and arrays. lm-tree shows
the tasks in them."""

    def __init__(self):
        super().__init__("lm-rq", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        cpu = parse_cpu(arg)
        rq = cpu_rq(cpu)
        rt = rq["rt"]
        curr = rq["curr"]
        prios = rt_priorities(rt)
        out = [f"cpu{cpu} runqueue: (struct rq *) {int(rq):#x}",
               f"  nr_running : {int(rq['nr_running'])} (the running task counts; idle does not)",
               f"  load       : {int(rq['load'])}",
               f"  clock      : {ms(rq['clock'])} ms",
               f"  current    : {describe_task(curr)}, class {curr['sched_class']['name'].string()}",
               f"  switches   : {int(rq['nr_switches'])}",
               f"  rt         : {int(rt['nr_running'])} runnable, bitmap {bitmap_hex(rt)}"
               + (f" (prio {', '.join(map(str, prios))})" if prios else "")
               + f", throttled {'yes' if rt['throttled'] else 'no'}"]
        out += normal_lines(rq)
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
The core tries the classes in this order on every pick (sched/core.c): the
array sched_classes[] (sched/select.c), rt, then the normal class chosen at
boot by sched=cfs|sd|o1 (fair, sd or o1), then idle."""

    def __init__(self):
        super().__init__("lm-class", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        for rank, cls in enumerate(sched_classes(), 1):
            gdb.write(f"{rank}. {cls['name'].string()} ({symbol_at(cls)})\n")
            for field in cls.dereference().type.strip_typedefs().fields():
                if field.type.strip_typedefs().code == gdb.TYPE_CODE_PTR and \
                        field.type.strip_typedefs().target().code == gdb.TYPE_CODE_FUNC:
                    gdb.write(f"     {field.name:<20} {symbol_at(cls[field.name])}\n")
        # sched= is read during boot, before the first runqueue is set up:
        # until then sched_classes[1] is the default whatever the command line says.
        if not int(symbol("runqueues")[0]["idle"]):
            gdb.write(f"(the scheduler has not started: the boot parameters may not be read yet, "
                      f"and sched= may still replace {normal_name()})\n")


LmRq()
LmClass()
