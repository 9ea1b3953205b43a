"""The normal class's queue, drawn: lm-tree [CPU].

What it draws depends on the class chosen at boot (sched=cfs|sd|o1):

CFS (sched=cfs, the default): each runqueue's fair tasks that wait to run
are in a red-black tree (rq->cfs.timeline, lib/rbtree.h) ordered by
vruntime, their key. The tree caches its leftmost node: the smallest key,
the task CFS runs next. The running task is not in the tree (sched/fair.c
takes it out when picked). The tree is drawn on its side, one node a line,
in key order: the top line is the leftmost, each node's left subtree is
above it and its right subtree below, indented one step per level. A
student can 'continue', run lm-tree again and see where the last task went
back in and how the tree rebalanced.

Staircase Deadline (sched=sd) and O(1) (sched=o1): rq->sd and rq->o1 each
have two priority arrays, active and expired (sched/prio_array.h), of 40
lists and a bitmap of the non-empty ones. Each non-empty list is shown,
most urgent first, with its tasks in list order: the pick takes the head
of the first list of the active array. The running task stays at the head
of its list in both classes, so it is drawn there, marked.
"""

import gdb

from rq import best_expired, expired_since
from utils import (bitmap40, container_of, cpu_rq, describe_task, enum_name, is_normal, key_delta, ms,
                   normal_name, parse_cpu, prio_array_tasks)


# CFS ---------------------------------------------------------------------

def draw(node, fair_clock, leftmost, lines, prefix="", side=None):
    """Append the lines of node's subtree to lines. side: 'left', 'right' or None (root)."""
    if not int(node):
        return
    # The vertical line to the parent passes this node's inner subtree.
    draw(node["left"], fair_clock, leftmost, lines, prefix + ("|   " if side == "right" else "    "), "left")
    task = container_of(node, "struct task", "se.run_node")
    key = task["se"]["vruntime"]
    connector = {None: "", "left": ".-- ", "right": "`-- "}[side]
    mark = "  <- leftmost" if int(node) == int(leftmost) else ""
    lines.append(f"{prefix}{connector}{enum_name(node['color'], 'RB_').lower():<5} "
                 f"{ms(key)} ({ms(key_delta(key, fair_clock), True)}) {describe_task(task)}{mark}")
    draw(node["right"], fair_clock, leftmost, lines, prefix + ("|   " if side == "left" else "    "), "right")


def show_cfs(cpu, rq):
    cfs = rq["cfs"]
    timeline = cfs["timeline"]
    lines = []
    draw(timeline["root"]["node"], cfs["fair_clock"], timeline["leftmost"], lines)
    gdb.write(f"cpu{cpu} timeline: {len(lines)} queued, fair_clock {ms(cfs['fair_clock'])} ms, "
              f"running (not in the tree): {describe_task(cfs['curr'])}\n")
    gdb.write("\n".join(lines) + "\n" if lines else "(empty: no fair task waits on this CPU)\n")


# SD and O(1): two priority arrays -----------------------------------------

def running_normal(rq):
    """The runqueue's running task if it is the normal class's, else None."""
    curr = rq["curr"]
    return curr if int(curr) and is_normal(curr) else None


def array_lines(title, array, member, level_title, task_text, running):
    """One prio_array: a title line, then each non-empty list's line and its tasks.

    level_title(level) heads a list; task_text(task) describes one task."""
    lines = [f"{title}: {int(array['nr_active'])} queued, bitmap {bitmap40(array)}"]
    last = None
    for level, task in prio_array_tasks(array, member):
        if level != last:
            lines.append(f"  {level_title(level)}")
            last = level
        mark = "  <- running" if running is not None and int(task) == int(running) else ""
        lines.append(f"    {describe_task(task)} {task_text(task)}{mark}")
    if last is None:
        lines.append("  (empty)")
    return lines


def show_sd(cpu, rq):
    """The staircase: the active slots with this rotation's level quotas, the
    expired ones with the next rotation's; each task's quota left at its slot."""
    sd = rq["sd"]
    staircase = int(sd["slot"])
    running = running_normal(rq)

    def quota_left(task):
        # The running task is charged at each tick (update_curr), so its quota
        # left may be up to a tick more than it really has left.
        return f"quota left {ms(task['sd']['quota'])} ms"

    def active_slot(level):
        closed = "  (closed: above the staircase)" if level < staircase else ""
        return f"slot {level:>2}  level quota {ms(sd['slot_quota'][level])} ms{closed}"

    def expired_slot(level):
        return f"slot {level:>2}  level quota {ms(sd['expired_quota'][level])} ms (next rotation)"

    lines = [f"cpu{cpu} staircase (sd): {int(sd['nr_running'])} runnable, the running one included; "
             f"staircase at slot {staircase}, prio_rotation {int(sd['prio_rotation'])}, "
             f"running: {describe_task(running) if running is not None else '-'}"]
    lines += array_lines("active array", sd["active"], "sd.run_list", active_slot, quota_left, running)
    lines += array_lines("expired array", sd["expired"], "sd.run_list", expired_slot, quota_left, running)
    gdb.write("\n".join(lines) + "\n")


def show_o1(cpu, rq):
    """The two arrays by priority (100 + level), each task's dynamic priority,
    timeslice left and sleep_avg (the interactivity estimator's input)."""
    o1 = rq["o1"]
    running = running_normal(rq)

    def prio(level):
        return f"prio {100 + level} (level {level})"

    def estimator(task):
        e = task["o1"]
        return (f"o1.prio {int(e['prio'])}, time_slice {ms(e['time_slice'])} ms, "
                f"sleep_avg {ms(e['sleep_avg'])} ms")

    lines = [f"cpu{cpu} O(1) arrays (o1): {int(o1['nr_running'])} runnable, the running one included; "
             f"expired_timestamp {expired_since(o1)}, best_expired_prio {best_expired(o1)}, "
             f"running: {describe_task(running) if running is not None else '-'}"]
    lines += array_lines("active array", o1["active"], "o1.run_list", prio, estimator, running)
    lines += array_lines("expired array", o1["expired"], "o1.run_list", prio, estimator, running)
    gdb.write("\n".join(lines) + "\n")


# The normal class's name field, and what draws its part of the runqueue.
SHOW = {"fair": show_cfs, "sd": show_sd, "o1": show_o1}


class LmTree(gdb.Command):
    """Draw the normal class's queue on a CPU: CFS's red-black tree, or SD's or O(1)'s arrays.

Usage: lm-tree [CPU]      (default: the CPU of GDB's selected thread)
Shows the structure of the class chosen at boot (sched=cfs|sd|o1):
 cfs: the timeline, one line a node: colour, key (vruntime in ms), its
      distance from the runqueue's fair_clock, task. Lines are in key
      order; the first is the leftmost, next to run. Each node's left
      subtree is above it, its right subtree below.
 sd:  the staircase position (slot) and prio_rotation, then the active and
      expired arrays (bitmaps in hex): each non-empty slot with its level
      quota (ms), and its tasks in list order with the quota they have left.
 o1:  expired_timestamp and best_expired_prio, then the active and expired
      arrays (bitmaps in hex): each non-empty list's prio (100 + level) and
      its tasks in list order with o1.prio, time_slice and sleep_avg (ms).
In sd and o1 the running task stays at the head of its list: marked there.
The pick takes the first task of the active array."""

    def __init__(self):
        super().__init__("lm-tree", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        cpu = parse_cpu(arg)
        rq = cpu_rq(cpu)
        name = normal_name()
        if name not in SHOW:
            raise gdb.GdbError(f"lm-tree knows the normal classes fair, sd and o1, not {name!r}")
        SHOW[name](cpu, rq)


LmTree()
