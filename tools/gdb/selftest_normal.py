"""The GDB sessions of tools/debug_test.py under sched=sd and sched=o1.

The kernel boots demo=cfs with the normal class debug_test.py names in the
convenience variable $lm_expect ("sd" or "o1"); the helpers must show that
class's own structures, not CFS's. The session stops at picks on CPU 1
(lm-break-pick 1) until that class picks with others waiting, then checks
lm-class, lm-break-pick, lm-rq, lm-tree, lm-tasks and lm-task against the
kernel's variables. Cheap on purpose: selftest.py checks the rest with CFS.
Output as tools/gdb/selftest.py's.
"""

import re

import gdb

from checks import check, error_of, run, summary, value

MAX_PICKS = 400          # picks on CPU 1 to wait through for a busy one
DEMO_TASKS = {"hog", "interactive", "fifo-periodic"}
# What each class's lm-tree header and lm-break-pick reason say.
HEADER = {"sd": "cpu1 staircase (sd): ", "o1": "cpu1 O(1) arrays (o1): "}
REASON = {"sd": "  picked slot: ", "o1": "  picked prio: "}
PLACE = {"sd": "  sd slot ", "o1": "  o1 prio "}
TREE_TASK = re.compile(r"^    (?P<name>\S+) \(pid (?P<pid>\d+)\) ", re.M)
ARRAY = re.compile(r"^(active|expired) array: (\d+) queued, bitmap ([0-9a-f]{10})$", re.M)


def queued(part):
    """Tasks in both of cpu 1's arrays of the class (the running one is in one)."""
    rq = f"runqueues[1].{part}"
    return value(f"{rq}.active->nr_active + {rq}.expired->nr_active")


def task_names():
    return set(re.findall(r"^[> ] +\d+ (\S+)", run("lm-tasks"), re.M))


def wait_for_busy_pick(part):
    """Continue through cpu 1's picks until the class picks with two others
    queued, once /bin/demo has started all its kinds of task."""
    for _ in range(MAX_PICKS):
        out = run("continue")
        if f"class {part} picked" in out and queued(part) >= 3 and DEMO_TASKS <= task_names():
            return out
    return out


def check_classes(part):
    classes = re.findall(r"^\d+\. (\w+) \(", run("lm-class"), re.M)
    check(classes == ["rt", part, "idle"], f"lm-class lists rt, {part}, idle from sched_classes[]", repr(classes))


def check_pick(part, out):
    picked = re.search(r"lm-break-pick: cpu1: class (\w+) picked (\S+) \(pid (\d+)\)", out)
    check(picked and picked[1] == part and int(picked[3]) == value("p->pid"),
          f"lm-break-pick reports the {part} pick the kernel made", out)
    check(REASON[part] in out, f"lm-break-pick explains the {part} pick", out)


def check_rq(part):
    text = run("lm-rq 1")
    rq = f"runqueues[1].{part}"
    check(re.search(rf"^  {part} +: {value(rq + '.nr_running')} runnable", text, re.M),
          f"lm-rq 1 shows rq->{part}'s nr_running", text)
    bitmaps = (f"bitmap {value(rq + '.active->bitmap'):010x}; ", f"bitmap {value(rq + '.expired->bitmap'):010x}")
    check(all(b in text for b in bitmaps), f"lm-rq 1 shows rq->{part}'s two bitmaps", text)
    check("fair_clock" not in text and "leftmost" not in text, "lm-rq 1 shows nothing of CFS", text)


def check_tree(part):
    text = run("lm-tree 1")
    rq = f"runqueues[1].{part}"
    check(text.startswith(HEADER[part]), f"lm-tree 1 draws the {part} arrays", text)
    arrays = ARRAY.findall(text)
    kernel = [("active", value(f"{rq}.active->nr_active"), f"{value(rq + '.active->bitmap'):010x}"),
              ("expired", value(f"{rq}.expired->nr_active"), f"{value(rq + '.expired->bitmap'):010x}")]
    check([(a, int(n), b) for a, n, b in arrays] == kernel,
          "lm-tree 1's arrays have the kernel's counts and bitmaps", f"{arrays} != {kernel}\n{text}")
    tasks = TREE_TASK.findall(text)
    check(len(tasks) == queued(part), f"lm-tree 1 lists every queued task ({queued(part)})", text)
    check(tasks and int(tasks[0][1]) == value("p->pid"),
          "the active array's first task is the one just picked", text)
    if part == "sd":
        check(f"staircase at slot {value(rq + '.slot')}, prio_rotation {value(rq + '.prio_rotation')}" in text,
              "lm-tree 1 shows the staircase's slot and prio_rotation", text)
    else:
        check(re.search(rf"best_expired_prio {value(rq + '.best_expired_prio')}\b", text),
              "lm-tree 1 shows best_expired_prio", text)


def check_tasks(part):
    text = run("lm-tasks")
    key = {"sd": r"slot \d+", "o1": r"prio \d+"}[part]
    hogs = re.findall(rf"^[> ] +(\d+) hog +\S+ +\d+ {part}/NORMAL .* {key} +\d+\.\d{{6}}$", text, re.M)
    check(hogs, f"lm-tasks shows the hogs in class {part}, keyed by their {key.split()[0]}", text)
    if hogs:
        detail = run(f"lm-task {hogs[0]}")
        check(PLACE[part] in detail and "vruntime" not in detail,
              f"lm-task {hogs[0]} shows its {part} place, not a vruntime", detail)


def main():
    part = gdb.convenience_variable("lm_expect").string()
    try:
        run("lm-break-pick 1")
        out = wait_for_busy_pick(part)
        check_classes(part)
        check_pick(part, out)
        check_rq(part)
        check_tree(part)
        check_tasks(part)
        err = error_of("lm-tree 0")
        check(err is None, "lm-tree 0 works too", repr(err))
    except gdb.error as e:
        check(False, "the session ran to its end", str(e))
    summary()


main()
