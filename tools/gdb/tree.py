"""The fair class's timeline: lm-tree [CPU].

Each runqueue's fair tasks that wait to run are in a red-black tree
(rq->cfs.timeline, lib/rbtree.h) ordered by vruntime, their key. The tree
caches its leftmost node: the smallest key, the task CFS runs next. The
running task is not in the tree (sched/fair.c takes it out when picked).

The tree is drawn on its side, one node a line, in key order: the top line
is the leftmost, each node's left subtree is above it and its right subtree
below, indented one step per level. A student can 'continue', run lm-tree
again and see where the last task went back in and how the tree rebalanced.
"""

import gdb

from utils import container_of, cpu_rq, describe_task, enum_name, key_delta, ms, parse_cpu


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


class LmTree(gdb.Command):
    """Draw a CPU's fair timeline (red-black tree): colour, key, task; leftmost marked.

Usage: lm-tree [CPU]      (default: the CPU of GDB's selected thread)
Lines are in key order (the key is vruntime in ms, then its distance from
the runqueue's fair_clock); the first line is the leftmost, next to run.
Each node's left subtree is above it, its right subtree below."""

    def __init__(self):
        super().__init__("lm-tree", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        cpu = parse_cpu(arg)
        cfs = cpu_rq(cpu)["cfs"]
        timeline = cfs["timeline"]
        lines = []
        draw(timeline["root"]["node"], cfs["fair_clock"], timeline["leftmost"], lines)
        gdb.write(f"cpu{cpu} timeline: {len(lines)} queued, fair_clock {ms(cfs['fair_clock'])} ms, "
                  f"running (not in the tree): {describe_task(cfs['curr'])}\n")
        gdb.write("\n".join(lines) + "\n" if lines else "(empty: no fair task waits on this CPU)\n")


LmTree()
