#!/usr/bin/env python3
"""make bench: run the workloads at -smp 4 and compare them with Linux 6.1.

  tools/bench.py [--elf build/leftmost.elf] [--log FILE] [--out build/bench.md]
                 [--cmdline 'BOOT PARAMETERS']

Boots the kernel once with the same workload list (and parameters) as the
Linux peer suite (../shared/peer/initramfs/suite.sh), reads the RESULT lines,
and writes a table: workload, figure, leftmost, Linux 6.1 (from
../shared/reference/linux-baseline.md, runs A-D), ratio, goal, met. The
figures are printed, never asserted: absolute times depend on the host.
With --log, reads RESULT lines from an existing log instead of booting.
Three boots, as a command-line word holds at most 255 characters. The
third runs the workloads Linux has no figures for (schedcost, the 2007
attack programs, hackbench): their Linux column is "—".
"""
import argparse
import os
import subprocess
import sys

TOOLS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TOOLS)
sys.path.insert(0, TOOLS)
import results  # noqa: E402

# Three boots: a kernel command-line word holds at most 255 characters.
RUNS = [";".join([
    "pingpong:cpu_a=0,cpu_b=0,rounds=50000",
    "pingpong:cpu_a=0,cpu_b=1,rounds=20000",
    "fairness:cpu=0,hogs=4,ms=5000",
    "fairness:cpu=0,hogs=2,nice_last=5,ms=5000",
    "smpbalance:hogs=5,ms=10000",
    "smpbalance:hogs=8,ms=10000",
]), ";".join([
    "wakeup:hogs_per_cpu=0,samples=1000",
    "wakeup:hogs_per_cpu=1,hog_cpus=1,samples=3000",
    "wakeup:hogs_per_cpu=1,hog_cpus=1,samples=3000,fifo=1,rt_prio=50",
    "massive_intr:procs=10,ms=10000",
    "spawn:count=2000",
]), ";".join([
    "schedcost",
    "fiftyp",
    "thud",
    "chew",
    "ring_test",
    "hackbench",
])]

# (label, workload, which of its RESULT lines, key, Linux 6.1 figure (best of
# runs A-D for the ratio; None: not measured), its range as published, goal
# as (op, value) or None)
ROWS = [
    ("pingpong, one CPU", "pingpong", 1, "ns_per_roundtrip", 66043, "66.0-67.6 us", ("<=", 66043 / 4)),
    ("pingpong, two CPUs", "pingpong", 2, "ns_per_roundtrip", 130653, "131-143 us", ("<=", 131391 / 2)),
    ("fairness, 4 hogs", "fairness", 1, "max_dev", 0.0045, "0.0045-0.0066", ("<=", 0.005)),
    ("fairness, nice 0 vs 5", "fairness", 2, "ratio", 3.058, "3.058-3.084 (ideal 3.057)", ("within", 3.057)),
    ("smpbalance, 5 hogs", "smpbalance", 1, "max_dev", 0.0293, "0.029-0.040", ("<=", 0.02)),
    ("smpbalance, 8 hogs", "smpbalance", 2, "max_dev", 0.0016, "0.0016-0.0034", ("<=", 0.005)),
    ("wakeup, idle, p50 us", "wakeup", 1, "p50_us", 77, "77-88", None),
    ("wakeup, hog on CPU 0, p50 us", "wakeup", 2, "p50_us", 101, "101-109", ("<=", 109)),
    ("wakeup, hog on CPU 0, p99 us", "wakeup", 2, "p99_us", 229, "229-286", ("<=", 341)),
    ("wakeup FIFO, hog on CPU 0, p50 us", "wakeup", 3, "p50_us", 97, "97-106", ("<=fair", None)),
    ("massive_intr, spread", "massive_intr", 1, "spread", 1.051, "1.05-1.12", ("<=", 1.05)),
    ("spawn, us per spawn", "spawn", 1, "us_per_spawn", 1726, "1726-2041", ("<=", 1726 / 10)),
    ("schedcost, pick at 10000 / at 10", "schedcost", 5, "ratio", None, "—", ("<=", 2)),
    ("schedcost, pick cycles at 10000", "schedcost", 4, "pick_cycles", None, "—", None),
    ("schedcost, switch ns", "schedcost", 5, "switch_ns", None, "—", None),
    ("fiftyp, largest copy / fair", "fiftyp", 1, "copy_ratio", None, "—", ("<=", 1.05)),
    ("fiftyp, smallest hog / fair", "fiftyp", 1, "hog_ratio", None, "—", (">=", 0.95)),
    ("fiftyp, probe max us", "fiftyp", 1, "probe_max_us", None, "—", None),
    ("thud, probe max stall us", "thud", 1, "max_stall_us", None, "—", None),
    ("thud, child share / fair", "thud", 1, "share_ratio", None, "—", ("within", 1.0)),
    ("chew, out avg us", "chew", 1, "out_avg_us", None, "—", None),
    ("chew, out max us", "chew", 1, "out_max_us", None, "—", None),
    ("ring_test, hops per s", "ring_test", 1, "hops_per_s", None, "—", None),
    ("ring_test, hog / fair", "ring_test", 1, "hog_ratio", None, "—", (">=", 0.9)),
    ("hackbench, 400 tasks, ms", "hackbench", 1, "time_ms", None, "—", None),
]


def boot(elf, log, cmdline):
    """Boot each list in turn (cmdline: boot parameters added to each); the
    logs, one after the other."""
    text = ""
    for n, run in enumerate(RUNS, 1):
        iso = os.path.join(ROOT, "build", "iso", f"bench{n}.iso")
        part = f"{log}.{n}"
        os.makedirs(os.path.dirname(iso), exist_ok=True)
        subprocess.run([os.path.join(TOOLS, "mkiso.sh"), elf, iso, f"{cmdline} run={run}".strip()], check=True)
        print(f"bench: boot {n} of {len(RUNS)}: run={run}", flush=True)
        status = subprocess.call([sys.executable, os.path.join(TOOLS, "qemu.py"), "--iso", iso, "--smp", "4",
                                  "--timeout", "900", "--log", part], stdout=subprocess.DEVNULL)
        if status != 33:
            print(f"bench: boot {n} ended with status {status} (33 = every workload ran); see {part}")
        with open(part, errors="replace") as f:
            text += f.read()
    return text


def met(goal, value, found):
    if goal is None:
        return "-"
    op, bound = goal
    if op == "<=":
        return "yes" if value <= bound else "no"
    if op == ">=":
        return "yes" if value >= bound else "no"
    if op == "within":                     # within 1% of the ideal
        return "yes" if abs(value - bound) <= bound / 100 else "no"
    fair = results.select(found, "wakeup", 2)      # FIFO p50 no worse than the fair sleeper's
    return "yes" if fair and value <= float(fair["p50_us"]) else "no"


def goal_text(goal):
    if goal is None:
        return "report"
    op, bound = goal
    if op == "within":
        return f"within 1% of {bound}"
    if op == "<=fair":
        return "<= the fair sleeper's"
    return f"{op} {bound:g}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--elf", default=os.path.join(ROOT, "build", "leftmost.elf"))
    ap.add_argument("--log", help="read this log instead of booting")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench.md"))
    ap.add_argument("--cmdline", default="", help="boot parameters added to every boot")
    a = ap.parse_args()
    text = (open(a.log, errors="replace").read() if a.log
            else boot(a.elf, os.path.join(ROOT, "build", "bench.log"), a.cmdline))
    found = results.parse(text)

    lines = ["| workload | figure | leftmost | Linux 6.1 | leftmost / Linux | goal | met |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for label, name, index, key, linux, linux_range, goal in ROWS:
        r = results.select(found, name, index)
        if r is None or key not in r:
            lines.append(f"| {label} | {key} | missing | {linux_range} | - | {goal_text(goal)} | no |")
            continue
        value = float(r[key])
        ratio = "—" if linux is None else f"{value / linux:.2f}"
        lines.append(f"| {label} | {key} | {r[key]} | {linux_range} | {ratio} | "
                     f"{goal_text(goal)} | {met(goal, value, found)} |")
    table = "\n".join(lines) + "\n"
    with open(a.out, "w") as f:
        f.write("# leftmost vs Linux 6.1, same QEMU (TCG, -smp 4, 2 host cores)\n\n"
                f"Boot parameters added: {a.cmdline or 'none'}\n\n" + table)
    print(table, end="")
    print(f"(written to {os.path.relpath(a.out, ROOT)}; RESULT lines in the log)")
    for r in found:
        print("RESULT " + " ".join(f"{k}={v}" for k, v in r.items()))


if __name__ == "__main__":
    main()
