#!/usr/bin/env python3
"""Read the kernel's scheduler trace (docs/tracing.md): ftrace text.

  tools/tracefile.py LOG [-o TRACE.txt]

With a serial log, pulls out the text the kernel printed between
"trace: begin" and "trace: end" (the "[s.us] cpuN: " prefixes removed) and
writes it to TRACE.txt (or stdout): a file ui.perfetto.dev opens as it is.

Importable (tools/trace2svg, tools/schedstat, tools/tracecheck.py):
read(path) gives a Trace; timeline(trace) the per-CPU slices of who ran
when, and what in the switches does not add up.
"""

import argparse
import re
import sys
from dataclasses import dataclass, field

sys.path.insert(0, __import__("os").path.dirname(__file__))
import ktap  # noqa: E402

LINE = re.compile(r"^\s*(?P<comm>.+)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+\S{4}\s+"
                  r"(?P<sec>\d+)\.(?P<frac>\d{1,9}):\s+(?P<event>\w+):\s*(?P<args>.*)$")
LOST = re.compile(r"^# lost cpu=(\d+) events=(\d+)$")
RUNTIME = re.compile(r"^# runtime pid=(\d+) ns=(\d+) comm=(.*)$")
CPUS = re.compile(r"#P:(\d+)")


@dataclass
class Event:
    ts: int             # ns since boot
    cpu: int            # the CPU that recorded it
    comm: str           # the task running there then
    pid: int
    name: str           # sched_switch, sched_wakeup, ...
    args: dict          # its key=value fields, values as strings


@dataclass
class Trace:
    events: list = field(default_factory=list)      # by time (ties: file order)
    ncpus: int = 0
    lost: dict = field(default_factory=dict)        # cpu -> events overwritten
    runtime: dict = field(default_factory=dict)     # pid -> ns the kernel charged (exited tasks too)
    names: dict = field(default_factory=dict)       # pid -> comm

    @property
    def start(self):
        return self.events[0].ts if self.events else 0

    @property
    def end(self):
        return self.events[-1].ts if self.events else 0


@dataclass
class Slice:
    cpu: int
    start: int
    end: int
    pid: int
    comm: str


def extract(log):
    """The ftrace text in a serial log (the last complete dump)."""
    found, block = None, None
    for raw in log.splitlines():
        line = ktap.strip_prefix(raw)
        if line.startswith("trace: begin"):
            block = []
        elif line == "trace: end" and block is not None:
            found, block = block, None
        elif block is not None and (line.startswith("#") or LINE.match(line)):
            block.append(line)           # (other messages printed meanwhile are left out)
    if found is None:
        raise ValueError("no complete 'trace: begin' ... 'trace: end' block in the log")
    return "\n".join(found) + "\n"


def parse_args(text):
    """'a=1 b=x ==> c=2' -> {'a': '1', 'b': 'x', 'c': '2'}"""
    return dict(tok.split("=", 1) for tok in text.split() if "=" in tok)


def parse(text):
    """A Trace from ftrace text. Raises ValueError on a line it cannot read."""
    t = Trace()
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("#"):
            if m := LOST.match(line):
                t.lost[int(m.group(1))] = int(m.group(2))
            elif m := RUNTIME.match(line):
                t.runtime[int(m.group(1))] = int(m.group(2))
                t.names[int(m.group(1))] = m.group(3)
            elif m := CPUS.search(line):
                t.ncpus = int(m.group(1))
            continue
        if not line.strip():
            continue
        m = LINE.match(line)
        if not m:
            raise ValueError(f"line {n}: not an ftrace event: {line}")
        ns = int(m.group("sec")) * 10**9 + int(m.group("frac").ljust(9, "0"))
        e = Event(ns, int(m.group("cpu")), m.group("comm").strip(), int(m.group("pid")),
                  m.group("event"), parse_args(m.group("args")))
        t.events.append(e)
        if e.name == "sched_process_exit" and "runtime_ns" in e.args:
            t.runtime[int(e.args["pid"])] = int(e.args["runtime_ns"])
        for prefix in ("prev_", "next_", ""):
            if prefix + "pid" in e.args and prefix + "comm" in e.args:
                t.names[int(e.args[prefix + "pid"])] = e.args[prefix + "comm"]
    t.events.sort(key=lambda e: e.ts)            # stable: ties keep the file's order
    t.ncpus = max([t.ncpus] + [e.cpu + 1 for e in t.events])
    return t


def read(path):
    """A Trace from a trace file or from a serial log that holds one."""
    with open(path, errors="replace") as f:
        text = f.read()
    return parse(extract(text) if "trace: begin" in text else text)


def timeline(trace):
    """(slices, problems): who ran on each CPU from its first switch on, and
    where the switches do not pair up: a switch whose prev is not what ran
    on that CPU, or a task switched in while it runs on another CPU. A task
    running at the end gets a slice up to the last event. pid 0 is each
    CPU's own idle task. A slice ends at sched_idle_balance if the CPU
    balanced on its way to the switch: from there to the switch the CPU
    was in the balancer (the kernel charges nobody), not in the task."""
    slices, problems = [], []
    running = {}                                  # cpu -> (pid, comm, since; None while balancing)
    where = {}                                    # pid -> cpu, for pid != 0
    switches = [e for e in trace.events if e.name in ("sched_switch", "sched_idle_balance")]
    i = 0
    while i < len(switches):
        # Everything at one instant leaves before anything arrives, so two
        # CPUs' switches stamped alike are not taken for an overlap.
        j = i
        while j < len(switches) and switches[j].ts == switches[i].ts:
            j += 1
        group = switches[i:j]
        for e in group:
            if e.cpu in running and running[e.cpu][2] is not None:
                pid, comm, since = running[e.cpu]
                slices.append(Slice(e.cpu, since, e.ts, pid, comm))
                running[e.cpu] = (pid, comm, None)
            if e.name != "sched_switch":
                continue
            prev = int(e.args["prev_pid"])
            if e.cpu in running and running[e.cpu][0] != prev:
                pid, comm, _ = running[e.cpu]
                problems.append(f"{e.ts / 1e9:.9f} cpu{e.cpu}: switch from {e.args['prev_comm']}-{prev}, "
                                f"but {comm}-{pid} was running there")
            if prev and where.get(prev) == e.cpu:
                del where[prev]
        for e in (e for e in group if e.name == "sched_switch"):
            nxt = int(e.args["next_pid"])
            if nxt and nxt in where:
                problems.append(f"{e.ts / 1e9:.9f} cpu{e.cpu}: {e.args['next_comm']}-{nxt} switched in "
                                f"while running on cpu{where[nxt]}")
            if nxt:
                where[nxt] = e.cpu
            running[e.cpu] = (nxt, e.args["next_comm"], e.ts)
        i = j
    for cpu, (pid, comm, since) in sorted(running.items()):
        if since is not None:
            slices.append(Slice(cpu, since, trace.end, pid, comm))
    return slices, problems


def running_at_end(trace):
    """pids on a CPU when the trace ends (their kernel totals lag behind)."""
    last = {}
    for e in trace.events:
        if e.name == "sched_switch":
            last[e.cpu] = int(e.args["next_pid"])
    return {pid for pid in last.values() if pid}


def wakeup_delays(trace):
    """pid -> [(ns from a wake-up (sched_wakeup/_new) to running, when it ran)]."""
    delays, woken, on_cpu = {}, {}, set()
    for e in trace.events:
        if e.name in ("sched_wakeup", "sched_wakeup_new"):
            pid = int(e.args["pid"])
            if pid not in on_cpu:
                woken.setdefault(pid, e.ts)
        elif e.name == "sched_switch":
            on_cpu.discard(int(e.args["prev_pid"]))
            pid = int(e.args["next_pid"])
            on_cpu.add(pid)
            if pid in woken:
                delays.setdefault(pid, []).append((e.ts - woken.pop(pid), e.ts))
    return delays


def main(argv=None):
    ap = argparse.ArgumentParser(description="Pull the ftrace text out of a serial log.")
    ap.add_argument("log", help="serial log of a traced boot")
    ap.add_argument("-o", "--output", help="write the trace here (default stdout)")
    a = ap.parse_args(argv)
    with open(a.log, errors="replace") as f:
        try:
            text = extract(f.read())
        except ValueError as e:
            raise SystemExit(f"tracefile: {a.log}: {e}")
    if a.output:
        with open(a.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
