"""Tasks: lm-tasks, lm-task PID, $lm_task(pid), $lm_current([cpu]), $lm_cpu().

The kernel keeps every created task on one list (all_tasks in
kernel/task/kthread.c); the idle tasks are not on it, they sit in each CPU's
runqueue (rq->idle) and have pid 0.

What a task's class keeps of its place depends on the normal class chosen
at boot (sched=): CFS's vruntime, SD's slot and quota, O(1)'s dynamic
priority, timeslice and sleep_avg. The helpers show the chosen one's only.
"""

import gdb

from utils import (NotReady, cpu_current, cpu_rq, describe_task, enum_names, is_normal,
                   list_entries, ms, normal_name, nr_cpus, selected_cpu, symbol, task_name)


def idle_tasks():
    """Each started CPU's idle task, CPU 0 first."""
    for cpu in range(nr_cpus()):
        try:
            yield cpu_rq(cpu)["idle"]
        except NotReady:
            pass


def listed_tasks():
    """The tasks on the kernel's task list, in creation order."""
    return list_entries(symbol("all_tasks"), "struct task", "all_tasks")


def all_tasks():
    """Every task: the idle ones, then the list. Fails before the scheduler runs."""
    cpu_rq(0)
    yield from idle_tasks()
    yield from listed_tasks()


def find_task(pid):
    for task in all_tasks():
        if int(task["pid"]) == pid and (pid != 0 or int(task["cpu"]) == 0):
            return task
    raise gdb.GdbError(f"no task with pid {pid} (lm-tasks lists them; "
                       "the idle tasks all have pid 0: use $lm_current(cpu))")


def running_on_cpu(task):
    """True if some CPU runs task now (the kernel's cpus[].current).

    Every CPU is asked, not only task->cpu: a task whose affinity just
    changed still runs where it was while task->cpu names its new home."""
    cpus = symbol("cpus")
    return any(int(cpus[cpu]["current"]) == int(task) for cpu in range(nr_cpus()))


def state_name(task):
    """task->state is an int holding an enum task_state."""
    return enum_names("TASK_NEW", "TASK_").get(int(task["state"]), str(int(task["state"])))


def policy_name(task):
    return enum_names("SCHED_NORMAL", "SCHED_").get(int(task["policy"]), str(int(task["policy"])))


def tree_key(task, normal):
    """What the normal class orders a queued task of its own by, '-' for the others.

    CFS: its place on the timeline (vruntime, ms). Off the queue (asleep) a
    vruntime is kept relative to the fair_clock it left (sched/fair.c), so
    it is no place on any timeline. SD: the slot (priority level) it is
    queued at; O(1): its dynamic priority. The smallest runs next."""
    if not (is_normal(task) and task["on_rq"]):
        return "-"
    if normal == "fair":
        return ms(task["se"]["vruntime"])
    return {"sd": lambda: f"slot {int(task['sd']['slot'])}",
            "o1": lambda: f"prio {int(task['o1']['prio'])}"}.get(normal, lambda: "-")()


def sd_place(t):
    """SD: t's slot, its quota left there, and which major rotation it is for."""
    sd, rotation = t["sd"], int(symbol("runqueues")[int(t["cpu"])]["sd"]["prio_rotation"])
    mine = int(sd["rotation"])
    for_what = {rotation: "this one: the active array",
                rotation + 1: "the next: the expired array"}.get(mine, "an older one: it starts afresh when queued")
    return (f"  sd slot {int(sd['slot'])}, quota left {ms(sd['quota'])} ms, "
            f"rotation {mine} (its runqueue's is {rotation}; {for_what})\n")


def o1_place(t):
    """O(1): t's dynamic priority, timeslice left, sleep_avg and array."""
    o1, rq_o1 = t["o1"], symbol("runqueues")[int(t["cpu"])]["o1"]
    array = int(o1["array"])
    where = {int(rq_o1["active"]): "queued in the active array",
             int(rq_o1["expired"]): "queued in the expired array"}.get(
        array, "off the queue" + (" (it was expired)" if o1["expired"] else ""))
    return (f"  o1 prio {int(o1['prio'])}, time_slice {ms(o1['time_slice'])} ms, "
            f"sleep_avg {ms(o1['sleep_avg'])} ms, {where}\n")


def weight(t):
    """', weight N' under CFS: se.weight is the fair class's, 0 under the others."""
    return f", weight {int(t['se']['weight'])}" if normal_name() == "fair" else ""


def place(t):
    """The line saying what the normal class keeps of t's place ('' if none)."""
    name = normal_name()
    if name == "fair":
        # As before the other classes came: every task has a vruntime.
        relative = "" if t["on_rq"] else " (off the queue: relative to the fair_clock it left)"
        return f"  vruntime {ms(t['se']['vruntime'], signed=not t['on_rq'])} ms{relative}\n"
    if not is_normal(t):
        return ""
    return {"sd": sd_place, "o1": o1_place}.get(name, lambda t: "")(t)


class LmTasks(gdb.Command):
    """List every task: pid, name, state, CPU, class/policy, nice, key, runtime.

Usage: lm-tasks
'>' marks a task some CPU is running now. KEY is what the normal class orders
a queued task by, the smallest first: under CFS its place on its runqueue's
timeline (vruntime, ms), under sched=sd its slot, under sched=o1 its dynamic
priority (lm-tree shows their lists). Times in ms."""

    def __init__(self):
        super().__init__("lm-tasks", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        rows = list(all_tasks())
        normal = normal_name()
        gdb.write(f"  {'PID':>4} {'NAME':<15} {'STATE':<8} {'CPU':>3} {'CLASS/POLICY':<13} "
                  f"{'NICE':>4} {'PRIO':>4} {'KEY':>16} {'EXEC(ms)':>16}\n")
        for t in rows:
            cls = f"{t['sched_class']['name'].string()}/{policy_name(t)}"
            gdb.write(f"{'>' if running_on_cpu(t) else ' '} {int(t['pid']):>4} {task_name(t):<15} "
                      f"{state_name(t):<8} {int(t['cpu']):>3} {cls:<13} "
                      f"{int(t['nice']):>4} {int(t['prio']):>4} {tree_key(t, normal):>16} "
                      f"{ms(t['se']['sum_exec_runtime']):>16}\n")
        gdb.write(f"{len(rows)} tasks ({len(rows) - sum(1 for _ in idle_tasks())} on the task "
                  f"list, tasks_alive() = {int(symbol('alive'))})\n")


class LmTask(gdb.Command):
    """Show one task's scheduling state and statistics.

Usage: lm-task PID
The normal class's view of the task is the chosen class's (sched=): CFS's
vruntime, SD's slot, quota and rotation, O(1)'s prio, time_slice, sleep_avg.
For every field: print *$lm_task(PID)"""

    def __init__(self):
        super().__init__("lm-task", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        if not arg.strip():
            raise gdb.GdbError("usage: lm-task PID (lm-tasks lists the pids)")
        t = find_task(int(gdb.parse_and_eval(arg)))
        se, st = t["se"], t["stats"]
        gdb.write(f"{describe_task(t)} at {t.format_string(symbols=False)}\n"
                  f"  state {state_name(t)} on cpu {int(t['cpu'])}"
                  f"{' (running now)' if running_on_cpu(t) else ''}, "
                  f"allowed cpus mask {int(t['cpus_allowed']):#x}\n"
                  f"  class {t['sched_class']['name'].string()}, policy {policy_name(t)}, "
                  f"nice {int(t['nice'])}, prio {int(t['prio'])}{weight(t)}\n"
                  f"{place(t)}"
                  f"  exec runtime {ms(se['sum_exec_runtime'])} ms, "
                  f"waited {ms(st['sum_wait_runtime'])} ms (max {ms(st['wait_max'])})\n"
                  f"  switches {int(st['nr_switches'])}, preemptions {int(st['nr_preemptions'])}, "
                  f"wake-ups {int(st['nr_wakeups'])}, migrations {int(st['nr_migrations'])}\n")


class LmTaskFunction(gdb.Function):
    """$lm_task(PID): the struct task * with that pid (for print, ptype, watch)."""

    def __init__(self):
        super().__init__("lm_task")

    def invoke(self, pid):
        return find_task(int(pid))


class LmCurrentFunction(gdb.Function):
    """$lm_current([CPU]): the task running on CPU (default: the selected one)."""

    def __init__(self):
        super().__init__("lm_current")

    def invoke(self, cpu=None):
        return cpu_current(selected_cpu() if cpu is None else int(cpu))


class LmCpuFunction(gdb.Function):
    """$lm_cpu(): the CPU GDB's selected thread is (QEMU: thread N is CPU N-1)."""

    def __init__(self):
        super().__init__("lm_cpu")

    def invoke(self):
        return selected_cpu()


LmTasks()
LmTask()
LmTaskFunction()
LmCurrentFunction()
LmCpuFunction()
