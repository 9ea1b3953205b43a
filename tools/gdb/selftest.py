"""The checks tools/debug_test.py runs inside GDB (make debug-test).

Loaded after tools/gdb/gdbinit and `lm-connect PORT`, so GDB is stopped in
kmain. Prints one "ok N - what" or "not ok N - what: detail" line per
check (TAP style) and a final "debug-test: P passed, F failed" line;
debug_test.py judges by those lines.
"""

import re

import gdb

from checks import check, error_of, run, summary, value

MIN_QUEUED = 3          # wait for a timeline this busy before looking at it
MAX_PICKS = 400         # picks on CPU 1 to wait through for that


def refuses_clearly(command, phrase):
    """A helper run too early fails with a message, not a Python traceback."""
    err = error_of(command)
    check(err is not None and phrase in err and "Python" not in err,
          f"before initialisation, {command} says: {phrase}", repr(err))


def before_init():
    for command, phrase in [("lm-tasks", "not up yet"), ("lm-rq 1", "not up yet"),
                            ("lm-tree 0", "not up yet"), ("lm-log", "log is empty"),
                            ("print $lm_current(0)", "not up yet")]:
        refuses_clearly(command, phrase)
    text = run("lm-class")
    classes = re.findall(r"^\d+\. (\w+) \((\w+)\)", text, re.M)
    check([c[0] for c in classes] == ["rt", "fair", "idle"], "lm-class lists rt, fair, idle in order",
          repr(classes))
    check(re.search(r"^ +pick_next_task +pick_next_task_fair$", text, re.M),
          "lm-class names fair's pick_next_task method", text)


TREE_LINE = re.compile(r"^(?P<shape>[ |]*(?:\.-- |`-- )?)(?P<colour>red|black) +(?P<key>\d+\.\d{6}) "
                       r"\((?P<delta>[+-]\d+\.\d{6})\) (?P<name>\S+) \(pid (?P<pid>\d+)\)"
                       r"(?P<leftmost>  <- leftmost)?$")


def ns(text):
    """'+1.500000' ms as ns."""
    return int(text.replace(".", ""))


def tree_nodes(cpu):
    text = run(f"lm-tree {cpu}")
    nodes = [m for m in map(TREE_LINE.match, text.splitlines()[1:]) if m]
    return text, nodes


DEMO_TASKS = {"hog", "interactive", "fifo-periodic"}


def task_names():
    return {m["name"] for m in map(TASK_ROW.match, run("lm-tasks").splitlines()) if m}


def wait_for_busy_pick(cpu):
    """Continue through picks on cpu until the fair class picks with MIN_QUEUED
    others waiting, once /bin/demo has started all its kinds of task (it
    forks them one by one, and each names itself after the fork)."""
    stops = []
    for _ in range(MAX_PICKS):
        out = run("continue")
        stops.append((value("$_thread"), value("rq->cpu"), value("$lm_cpu()"), out))
        nodes = tree_nodes(cpu)[1]
        # Keys that differ, so that the order check can tell a wrong order.
        if ("class fair picked" in out and len(nodes) >= MIN_QUEUED and len({m["key"] for m in nodes}) > 1
                and DEMO_TASKS <= task_names()):
            break
    return stops


def check_tree(cpu, label):
    text, nodes = tree_nodes(cpu)
    cfs = f"runqueues[{cpu}].cfs"
    queued = value(f"{cfs}.nr_running") - (value(f"{cfs}.curr") != 0)
    check(len(nodes) == queued and len(text.splitlines()) == queued + 1,
          f"{label}: lm-tree {cpu} draws every queued task ({queued})", text)
    deltas = [ns(m["delta"]) for m in nodes]
    check(deltas == sorted(deltas), f"{label}: lm-tree {cpu} lines are in key order", text)
    marked = [i for i, m in enumerate(nodes) if m["leftmost"]]
    leftmost_pid = value(f"((struct task *)((char *){cfs}.timeline.leftmost - "
                         "(unsigned long)&((struct task *)0)->se.run_node))->pid")
    check(marked == [0] and int(nodes[0]["pid"]) == leftmost_pid,
          f"{label}: the first line is the leftmost, the kernel's cached one (pid {leftmost_pid})", text)
    roots = [m for m in nodes if not m["shape"]]
    check(len(roots) == 1 and roots[0]["colour"] == "black", f"{label}: one root, and it is black", text)
    return text


def at_pick():
    stops = wait_for_busy_pick(1)
    check(all(t == 2 and rq == 1 and cpu == 1 for t, rq, cpu, _ in stops),
          f"lm-break-pick 1 stopped only on cpu 1 (thread 2), {len(stops)} stops",
          repr([s[:3] for s in stops if s[:3] != (2, 1, 1)][:5]))
    out = stops[-1][3]
    picked = re.search(r"lm-break-pick: cpu1: class (\w+) picked (\S+) \(pid (\d+)\)", out)
    check(picked and int(picked[3]) == value("p->pid") and picked[1] == gdb.parse_and_eval(
          "class->name").string(), "lm-break-pick reports the class and task the kernel picked", out)
    runner_up = re.search(r"runner-up .*\(([+-]\d+\.\d{6}) after the pick\)", out)
    check(runner_up and ns(runner_up[1]) >= 0, "the fair pick had the smallest key (runner-up not before it)", out)

    rq_text = run("lm-rq 1")
    current = re.search(r"current +: (\S+) \(pid (\d+)\)", rq_text)
    kernel_pid = value("cpus[1].current->pid")
    gs_pid = value("((struct cpu *)$gs_base)->current->pid")
    check(current and int(current[2]) == kernel_pid == gs_pid
          and current[1] == gdb.parse_and_eval("cpus[1].current->name").string(),
          f"lm-rq 1's current is the kernel's cpus[1].current and %gs:current (pid {kernel_pid})", rq_text)
    check(f"nr_running : {value('runqueues[1].nr_running')} " in rq_text, "lm-rq 1 shows nr_running", rq_text)

    check_tree(1, "first stop")
    return kernel_pid


TASK_ROW = re.compile(r"^(?P<running>[> ]) +(?P<pid>\d+) (?P<name>\S+) +(?P<state>[A-Z]+) +(?P<cpu>\d+) "
                      r"(?P<cls>\S+)")


def tasks_and_functions(current_pid):
    text = run("lm-tasks")
    rows = [m for m in map(TASK_ROW.match, text.splitlines()) if m]
    total = re.search(r"^(\d+) tasks \((\d+) on the task list", text, re.M)
    nr_cpus, alive = value("nr_cpus"), value("alive")
    idle = [r for r in rows if r["pid"] == "0"]
    check(total and int(total[1]) == len(rows) and len(rows) - len(idle) == alive and len(idle) == nr_cpus,
          f"lm-tasks lists {alive} tasks (the kernel's count) and {nr_cpus} idle tasks", text)
    names = {r["name"] for r in rows}
    check({"init", "reaper"} | DEMO_TASKS <= names,
          "lm-tasks shows the demo's tasks", repr(sorted(names)))
    running = {value(f"cpus[{cpu}].current->pid") for cpu in range(nr_cpus)} - {0}
    marked = [int(r["pid"]) for r in rows if r["running"] == ">"]
    check(len(marked) == nr_cpus and running <= set(marked),
          "lm-tasks marks the task each CPU runs", text)
    check(any(r["pid"] == str(current_pid) and r["running"] == ">" for r in rows),
          "lm-tasks marks cpu 1's current task running", text)

    hog = next(r for r in rows if r["name"] == "hog")
    pid = int(hog["pid"])
    check(value(f"$lm_task({pid})->pid") == pid and
          gdb.parse_and_eval(f"$lm_task({pid})->name").string() == "hog", f"$lm_task({pid}) is that hog")
    detail = run(f"lm-task {pid}")
    check(f"hog (pid {pid})" in detail and "class fair" in detail, f"lm-task {pid} describes it", detail)
    err = error_of("print $lm_task(99999)")
    check(err and "no task with pid 99999" in err, "$lm_task of a bad pid says so", repr(err))
    check(value("$lm_current(1)") == value("cpus[1].current"), "$lm_current(1) is cpus[1].current")
    check(value("$lm_cpu()") == 1, "$lm_cpu() is 1 in thread 2")

    log = run("lm-log 0")
    check("leftmost: booting" in log and "CPUs online" in log, "lm-log shows the boot lines", log[-500:])
    last = run("lm-log 3").splitlines()
    check(len(last) == 3 and all(re.match(r"^\[ *\d+\.\d{6}\] cpu\d+: ", line) for line in last),
          "lm-log 3 prints the last 3 lines, each '[s.us] cpuN: ...'", repr(last))


def main():
    try:
        before_init()
        run("lm-break-pick 1")
        current_pid = at_pick()
        tasks_and_functions(current_pid)
        run("continue")                          # the next pick on cpu 1: the tree changed
        check_tree(1, "next stop")
    except gdb.error as e:
        check(False, "the session ran to its end", str(e))
    summary()


main()
