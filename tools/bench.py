#!/usr/bin/env python3
"""make bench: run the workloads at -smp 4, N times, and compare them with Linux 6.1.

  tools/bench.py [--runs N] [--elf build/leftmost.elf] [--cmdline 'BOOT PARAMETERS']
                 [--out DIR/bench.md] [--log RUNLOG]... [--linux-log FILE]
  tools/bench.py --emu bochs [--elf ...] [--cmdline ...] [--out DIR/bench-exact.md] [--log RUNLOG]

A run is three boots, each a run= list of the workload programs
(user/workloads/) with the parameters of the Linux peer suite
(../shared/peer/initramfs/suite.sh); the third boot runs those the peer's
own suite does not (schedcost, the 2007 attack programs, hackbench). The
boots of run R are logged one after the other in DIR/bench.log.R, DIR being
the ELF's directory. For every figure the table gives leftmost's median and
range over the runs and how many runs measured it; each goal is judged on
the median. The figures are printed, never asserted: absolute times depend
on the host.

Linux 6.1: when the peer's cache holds its kernel and busybox,
run-linux-peer.sh --runs N --bins DIR/user/workloads --suite DIR/bench.suite
boots it now with the very same binaries and lists (its output goes to
DIR/bench.linux.log) and the table gives its median and range too;
otherwise it quotes ../shared/reference/linux-baseline.md (the best of runs
A-D and the published range).

--log RUNLOG, once per run, reads existing run logs instead of booting;
--linux-log FILE reads run-linux-peer.sh's output (or its
cache/linux-results.txt). With --log and no --linux-log, nothing boots and
Linux's figures are the reference ones.

make bench then runs tools/bench_ring3.py: the ring-3 programs of
user/bench/, the same binaries on leftmost and on Linux, in a section of
DIR/bench.md of their own.

--emu bochs (make bench EMU=bochs): the scheduling-quality figures measured
exactly, in Bochs's virtual time at 2 CPUs, each next to its ideal, its
error and the goal, in DIR/bench-exact.md; the boots are logged in
DIR/bench-exact.log.1. One run: Bochs runs the same boot the same way every
time (docs/emulators.md).
"""
import argparse
import collections
import glob
import os
import statistics
import subprocess
import sys

TOOLS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TOOLS)
PEER = os.path.join(os.path.dirname(ROOT), "shared", "peer")
sys.path.insert(0, TOOLS)
import results  # noqa: E402

# Three boots a run, each a run= list of the programs in user/workloads/
# with their arguments; Linux runs the very same binaries and lists
# (run-linux-peer.sh --bins build/user/workloads --suite FILE).
BOOTS = [
    [
        "pingpong cpu_a=0 cpu_b=0 rounds=50000",
        "pingpong cpu_a=0 cpu_b=1 rounds=20000",
        "fairness cpu=0 hogs=4 ms=5000",
        "fairness cpu=0 hogs=2 nice_last=5 ms=5000",
        "smpbalance hogs=5 ms=10000",
        "smpbalance hogs=8 ms=10000",
    ],
    [
        "wakeup hogs_per_cpu=0 samples=1000",
        "wakeup hogs_per_cpu=1 hog_cpus=1 samples=3000",
        "wakeup hogs_per_cpu=1 hog_cpus=1 samples=3000 fifo=1 rt_prio=50",
        "massive_intr procs=10 ms=10000",
        "spawn count=2000",
    ],
    [
        "schedcost",
        "fiftyp",
        "thud",
        "chew",
        "ring_test",
        "hackbench",
    ],
]

# One row per figure: id (for RESULT name=bench lines and goals), label,
# workload, the RESULT fields that tell its line from the workload's other
# lines (Linux's suite runs more wakeup variants, in another order), key,
# Linux 6.1's best of runs A-D (None: Linux does not run it) and published
# range, goal as (op, value or the id of the figure whose median bounds it),
# or None.
Row = collections.namedtuple("Row", "id label name where key linux_best linux_range goal")
ROWS = [
    Row("pingpong_1cpu", "pingpong, one CPU", "pingpong", {"cpu_b": "0"}, "ns_per_roundtrip",
        66043, "66.0-67.6 us", ("<=", 66043 / 4)),
    Row("pingpong_2cpu", "pingpong, two CPUs", "pingpong", {"cpu_b": "1"}, "ns_per_roundtrip",
        130653, "131-143 us", ("<=", 131391 / 2)),
    Row("fairness_4hogs", "fairness, 4 hogs", "fairness", {"nice_last": "0"}, "max_dev",
        0.0045, "0.0045-0.0066", ("<=", 0.005)),
    Row("fairness_nice5", "fairness, nice 0 vs 5", "fairness", {"nice_last": "5"}, "ratio",
        3.058, "3.058-3.084 (ideal 3.057)", ("within", 3.057)),
    Row("smpbalance_5hogs", "smpbalance, 5 hogs", "smpbalance", {"hogs": "5"}, "max_dev",
        0.0293, "0.029-0.040", ("<=", 0.02)),
    Row("smpbalance_8hogs", "smpbalance, 8 hogs", "smpbalance", {"hogs": "8"}, "max_dev",
        0.0016, "0.0016-0.0034", ("<=", 0.005)),
    Row("wakeup_idle_p50", "wakeup, idle, p50 us", "wakeup", {"hogs_per_cpu": "0"}, "p50_us",
        77, "77-88", ("<=", 77)),
    Row("wakeup_hog_p50", "wakeup, hog on CPU 0, p50 us", "wakeup", {"hog_cpus": "1", "policy": "other"},
        "p50_us", 101, "101-109", ("<=", 101)),
    Row("wakeup_hog_p99", "wakeup, hog on CPU 0, p99 us", "wakeup", {"hog_cpus": "1", "policy": "other"},
        "p99_us", 229, "229-286", ("<=", 229)),
    Row("wakeup_fifo_p50", "wakeup FIFO, hog on CPU 0, p50 us", "wakeup", {"hog_cpus": "1", "policy": "fifo"},
        "p50_us", 97, "97-106", ("<=", "wakeup_hog_p50")),
    Row("massive_intr_spread", "massive_intr, spread", "massive_intr", {"procs": "10"}, "spread",
        1.051, "1.05-1.12", ("<=", 1.05)),
    Row("spawn_us", "spawn, us per spawn", "spawn", {}, "us_per_spawn",
        1726, "1726-2041", ("<=", 1726 / 10)),
    Row("schedcost_ratio", "schedcost, a switch beside 1000 runnable / beside none", "schedcost", {},
        "ratio", None, None, ("<=", 2)),
    Row("schedcost_switch", "schedcost, switch ns beside none", "schedcost", {"tasks": "0"}, "switch_ns",
        None, None, None),
    Row("fiftyp_copy", "fiftyp, largest copy / fair", "fiftyp", {}, "copy_ratio", None, None, ("<=", 1.05)),
    Row("fiftyp_hog", "fiftyp, smallest hog / fair", "fiftyp", {}, "hog_ratio", None, None, (">=", 0.95)),
    Row("fiftyp_probe_max", "fiftyp, probe max us", "fiftyp", {}, "probe_max_us", None, None, None),
    Row("thud_stall", "thud, probe max stall us", "thud", {}, "max_stall_us", None, None, None),
    Row("thud_share", "thud, child share / fair", "thud", {}, "share_ratio", None, None, ("within", 1.0)),
    Row("chew_out_avg", "chew, out avg us", "chew", {}, "out_avg_us", None, None, None),
    Row("chew_out_max", "chew, out max us", "chew", {}, "out_max_us", None, None, None),
    Row("ring_hops", "ring_test, hops per s", "ring_test", {}, "hops_per_s", None, None, None),
    Row("ring_hog", "ring_test, hog / fair", "ring_test", {}, "hog_ratio", None, None, (">=", 0.9)),
    Row("hackbench_ms", "hackbench, 400 tasks, ms", "hackbench", {}, "time_ms", None, None, None),
]

# --emu bochs: shorter lists (Bochs runs about 5 s of wall time a virtual
# second at 2 CPUs), each figure that has an ideal next to it.
EXACT_BOOTS = [
    [
        "fairness hogs=2 ms=2000",
        "fairness hogs=3 ms=2000",
        "fairness hogs=4 ms=2000",
    ],
    [
        "fairness hogs=2 nice_last=1 ms=8000",
        "fairness hogs=2 nice_last=5 ms=8000",
        "fairness hogs=2 nice_last=10 ms=8000",
        "fairness hogs=2 nice_last=-5 ms=8000",
    ],
    [
        "smpbalance hogs=2 ms=3000",
        "smpbalance hogs=3 ms=10000",
        "smpbalance hogs=5 ms=10000",
        "massive_intr procs=10 ms=5000",
    ],
    [
        "wakeup hogs_per_cpu=0 samples=2000",
        "wakeup hogs_per_cpu=1 hog_cpus=1 samples=2000",
        "wakeup hogs_per_cpu=1 hog_cpus=1 samples=2000 fifo=1",
    ],
    [
        "fiftyp ms=4000",
        "thud rounds=2",
        "chew ms=3000",
        "ring_test ms=3000",
    ],
]

# ideal: a number, the RESULT key that holds it, or None (a figure to
# report). goal as in ROWS, or ("within", fraction of the ideal).
Exact = collections.namedtuple("Exact", "label name where key ideal goal")
SHARES, RATIOS = ("<=", 0.005), ("within", 0.005)   # the 0.5%
EXACT_ROWS = [
    Exact("fairness, 2 hogs: largest share error", "fairness", {"hogs": "2", "nice_last": "0"}, "max_dev", 0, SHARES),
    Exact("fairness, 3 hogs: largest share error", "fairness", {"hogs": "3", "nice_last": "0"}, "max_dev", 0, SHARES),
    Exact("fairness, 4 hogs: largest share error", "fairness", {"hogs": "4", "nice_last": "0"}, "max_dev", 0, SHARES),
    Exact("fairness, nice 0 vs 1: ratio", "fairness", {"nice_last": "1"}, "ratio", "ideal_ratio", RATIOS),
    Exact("fairness, nice 0 vs 5: ratio", "fairness", {"nice_last": "5"}, "ratio", "ideal_ratio", RATIOS),
    Exact("fairness, nice 0 vs 10: ratio", "fairness", {"nice_last": "10"}, "ratio", "ideal_ratio", RATIOS),
    Exact("fairness, nice 0 vs -5: ratio", "fairness", {"nice_last": "-5"}, "ratio", "ideal_ratio", RATIOS),
    Exact("smpbalance, 2 hogs on 2 CPUs: largest share error", "smpbalance", {"hogs": "2"}, "max_dev", 0, SHARES),
    Exact("smpbalance, 3 hogs on 2 CPUs: largest share error", "smpbalance", {"hogs": "3"}, "max_dev", 0, SHARES),
    Exact("smpbalance, 5 hogs on 2 CPUs: largest share error", "smpbalance", {"hogs": "5"}, "max_dev", 0, SHARES),
    Exact("massive_intr, 10 tasks: spread", "massive_intr", {}, "spread", 1, ("<=", 1.02)),
    Exact("wakeup, idle: p50 us", "wakeup", {"hogs_per_cpu": "0"}, "p50_us", None, None),
    Exact("wakeup, idle: max us", "wakeup", {"hogs_per_cpu": "0"}, "max_us", None, None),
    Exact("wakeup, next to a hog: p50 us", "wakeup", {"hog_cpus": "1", "policy": "other"}, "p50_us", None, None),
    Exact("wakeup, next to a hog: p99 us", "wakeup", {"hog_cpus": "1", "policy": "other"}, "p99_us", None, None),
    Exact("wakeup, next to a hog: max us", "wakeup", {"hog_cpus": "1", "policy": "other"}, "max_us", None,
          ("<=", 500)),
    Exact("wakeup FIFO, next to a hog: p50 us", "wakeup", {"hog_cpus": "1", "policy": "fifo"}, "p50_us", None, None),
    Exact("wakeup FIFO, next to a hog: max us", "wakeup", {"hog_cpus": "1", "policy": "fifo"}, "max_us", None, None),
    Exact("fiftyp: largest copy / fair", "fiftyp", {}, "copy_ratio", 1, ("<=", 1.005)),
    Exact("fiftyp: smallest hog / fair", "fiftyp", {}, "hog_ratio", 1, (">=", 0.995)),
    Exact("fiftyp: probe max us", "fiftyp", {}, "probe_max_us", None, None),
    Exact("thud: child share / fair", "thud", {}, "share_ratio", 1, RATIOS),
    Exact("thud: probe max stall us", "thud", {}, "max_stall_us", None, None),
    Exact("chew: out avg us", "chew", {}, "out_avg_us", None, None),
    Exact("chew: out max us", "chew", {}, "out_max_us", None, None),
    Exact("ring_test: hog / fair", "ring_test", {}, "hog_ratio", 1, (">=", 0.9)),
    Exact("ring_test: the ring's share", "ring_test", {}, "ring_share", None, None),
    Exact("ring_test: hops per s", "ring_test", {}, "hops_per_s", None, None),
]
LABELS = {row.id: row.label for row in ROWS}

# A figure over the runs; n of runs measured it (median, lo, hi: None if none did).
Stats = collections.namedtuple("Stats", "median lo hi n runs")


def stats(values):
    """Stats of one figure's values, one per run, None where a run lacks it."""
    got = [v for v in values if v is not None]
    if not got:
        return Stats(None, None, None, 0, len(values))
    return Stats(statistics.median(got), min(got), max(got), len(got), len(values))


def figures(runs, rows=ROWS):
    """{row id: Stats} over runs, each run a list of RESULT dicts."""
    table = {}
    for row in rows:
        values = []
        for found in runs:
            r = results.find(found, row.name, row.key, row.where)
            values.append(None if r is None else float(r[row.key]))
        table[row.id] = stats(values)
    return table


def met(goal, median, medians):
    """yes or no: does the median meet the goal (a bound, or another figure's
    median from medians); - when there is no goal."""
    if goal is None:
        return "-"
    op, bound = goal
    if isinstance(bound, str):
        bound = medians.get(bound)
    if median is None or bound is None:
        return "no"
    ok = {"<=": median <= bound, ">=": median >= bound,
          "within": abs(median - bound) <= abs(bound) / 100}[op]    # within 1%
    return "yes" if ok else "no"


def verdicts(ours):
    """{row id: yes, no or -}: each goal judged on leftmost's median."""
    medians = {k: s.median for k, s in ours.items()}
    return {row.id: met(row.goal, ours[row.id].median, medians) for row in ROWS}


def goal_text(goal):
    if goal is None:
        return "report"
    op, bound = goal
    if isinstance(bound, str):
        return f"{op} the median of '{LABELS[bound]}'"
    if op == "within":
        return f"within 1% of {bound:g}"
    return f"{op} {bound:g}"


def fmt(value):
    """A figure without float noise or exponent: at most 4 decimals."""
    return f"{value:.4f}".rstrip("0").rstrip(".")


def spread(s):
    """min–max and how many runs measured the figure, e.g. 1.2–1.5 (2/3)."""
    span = "—" if s.n == 0 else f"{fmt(s.lo)}–{fmt(s.hi)}"
    return f"{span} ({s.n}/{s.runs})"


def median_text(s):
    return "missing" if s.median is None else fmt(s.median)


def linux_text(row, linux):
    """The Linux cell: the same program measured now on Linux by the peer,
    or else quoted from the reference (the peer's own programs)."""
    if linux is not None and linux[row.id].n:
        s = linux[row.id]
        return f"{median_text(s)}, {spread(s)} (peer)"
    if row.linux_best is None:
        return "—"
    return f"best {fmt(row.linux_best)}, {row.linux_range} (reference)"


def table(ours, linux, verdict):
    """The markdown table of every figure."""
    lines = ["| figure | key | leftmost median | leftmost range (runs) | Linux 6.1 median, range | goal | met |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for row in ROWS:
        s = ours[row.id]
        lines.append(f"| {row.label} | {row.key} | {median_text(s)} | {spread(s)} | {linux_text(row, linux)} | "
                     f"{goal_text(row.goal)} | {verdict[row.id]} |")
    return "\n".join(lines) + "\n"


def result_lines(ours, linux, verdict):
    """RESULT name=bench lines, one per figure, for scripts comparing benches."""
    lines = []
    for row in ROWS:
        fields = {"figure": row.id, "key": row.key}
        sides = [("", ours[row.id])]
        if linux is not None and row.id in linux:
            sides.append(("linux_", linux[row.id]))
        for prefix, s in sides:
            fields.update({prefix + "runs": s.runs, prefix + "n": s.n})
            if s.n:
                fields.update({prefix + "median": fmt(s.median), prefix + "min": fmt(s.lo),
                               prefix + "max": fmt(s.hi)})
        fields["met"] = verdict[row.id]
        lines.append("RESULT name=bench " + " ".join(f"{k}={v}" for k, v in fields.items()))
    return lines


def exact_cells(row, found):
    """(value, ideal, error, met) of one EXACT_ROWS figure in a run's RESULT
    lines; error is relative to a nonzero ideal, the value itself for ideal 0."""
    r = results.find(found, row.name, row.key, row.where)
    if r is None:
        return None, None, None, "no" if row.goal else "-"
    value = float(r[row.key])
    ideal = float(r[row.ideal]) if isinstance(row.ideal, str) else row.ideal
    error = None if ideal is None else value if ideal == 0 else (value - ideal) / ideal
    if row.goal is None:
        return value, ideal, error, "-"
    op, bound = row.goal
    ok = abs(error) <= bound if op == "within" else value <= bound if op == "<=" else value >= bound
    return value, ideal, error, "yes" if ok else "no"


def exact_goal_text(goal):
    if goal is None:
        return "report"
    op, bound = goal
    return f"within {bound:.1%} of the ideal" if op == "within" else f"{op} {bound:g}"


def exact_table(found):
    """The markdown table of bench-exact.md, and how many goals were met of how many."""
    lines = ["| figure | key | value | ideal | error | goal | met |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    verdicts = []
    for row in EXACT_ROWS:
        value, ideal, error, verdict = exact_cells(row, found)
        if row.goal:
            verdicts.append(verdict)
        err = "—" if error is None else fmt(error) if ideal == 0 else f"{error:+.2%}"
        lines.append(f"| {row.label} | {row.key} | {'missing' if value is None else fmt(value)} | "
                     f"{'—' if ideal is None else fmt(ideal)} | {err} | {exact_goal_text(row.goal)} | {verdict} |")
    return "\n".join(lines) + "\n", verdicts.count("yes"), len(verdicts)


def boot(elf, runs, cmdlines, outdir, name, emu="qemu", qemu_args=()):
    """Boot each command line of cmdlines once per run, in Bochs or QEMU
    (with qemu_args added to its command line); run R's boots are logged
    one after the other in outdir/NAME.log.R. Returns the run logs."""
    # Bochs: 2 CPUs, as many as the host has cores, so that a run takes minutes.
    emulator = ["bochs.py", "--smp", "2", "--timeout", "3600"] if emu == "bochs" else \
        ["qemu.py", "--smp", "4", "--timeout", "900", *(["--", *qemu_args] if qemu_args else [])]
    isos = []
    for n, cmdline in enumerate(cmdlines, 1):
        iso = os.path.join(outdir, "iso", f"{name}{n}.iso")
        os.makedirs(os.path.dirname(iso), exist_ok=True)
        subprocess.run([os.path.join(TOOLS, "mkiso.sh"), elf, iso, cmdline], check=True)
        isos.append(iso)
    # The logs of an earlier bench with more runs would pass for runs of this one.
    for old in glob.glob(os.path.join(outdir, f"{name}.log.*")):
        os.remove(old)
    logs = []
    for run in range(1, runs + 1):
        log = os.path.join(outdir, f"{name}.log.{run}")
        for n, iso in enumerate(isos, 1):
            print(f"bench: run {run} of {runs}, boot {n} of {len(isos)}: {cmdlines[n - 1]}", flush=True)
            with open(log, "a") as f:
                status = subprocess.call([sys.executable, os.path.join(TOOLS, emulator[0]), "--iso", iso]
                                         + emulator[1:], stdin=subprocess.DEVNULL, stdout=f)
                note = f"bench: run {run}, boot {n} ended with status {status} (33: all of it ran)"
                f.write(f"\n{note}\n")
            if status != 33:
                print(f"{note}; see {log}")
        logs.append(log)
    return logs


def run_cmdlines(cmdline, lists):
    """A command line per list of programs: the added boot parameters and run=."""
    return [f'{cmdline} run="{"; ".join(programs)}"'.strip() for programs in lists]


def write_suite(lists, path):
    """The same programs as run-linux-peer.sh's suite: a 'run NAME ARGS' line each."""
    with open(path, "w") as f:
        f.write("# leftmost's workload programs, as tools/bench.py boots them (BOOTS)\n")
        for programs in lists:
            for command in programs:
                f.write(f"run {command}\n")
    return path


def peer_cache():
    """Where run-linux-peer.sh keeps its downloads: like the script, in a
    writable copy of itself when its own directory is read-only."""
    if os.access(PEER, os.W_OK):
        return os.path.join(PEER, "cache")
    work = os.environ.get("PEER_WORK") or os.path.join(os.environ.get("TMPDIR") or "/tmp", "leftmost-linux-peer")
    return os.path.join(work, "cache")


def peer_ready(kernel="6.1"):
    """Whether the peer has the kernel of that series (run-linux-peer.sh
    --kernel 6.1|6.12) and busybox, so that it runs without downloading anything."""
    cache = peer_cache()
    # "6.1[.-]": 6.1's directories, not 6.12's.
    kernels = glob.glob(os.path.join(cache, "kernel", f"linux-image-{kernel}[.-]*-amd64", "vmlinuz"))
    return (any(os.path.getsize(k) > 0 for k in kernels)
            and os.access(os.path.join(cache, "busybox"), os.X_OK))


def boot_linux(runs, log, extra=(), qemu_args=(), kernel="6.1"):
    """run-linux-peer.sh --runs N (and extra options; qemu_args to its QEMU,
    through QEMU_EXTRA; --kernel for a series other than its default 6.1),
    its output (the RESULT lines) into log."""
    series = [] if kernel == "6.1" else ["--kernel", kernel]
    command = [os.path.join(PEER, "run-linux-peer.sh"), "--runs", str(runs), *series, *extra]
    env = dict(os.environ, QEMU_EXTRA=" ".join(qemu_args)) if qemu_args else None
    print(f"bench: Linux {kernel}: {'QEMU_EXTRA=' + repr(' '.join(qemu_args)) + ' ' if qemu_args else ''}"
          f"{' '.join(command)}", flush=True)
    with open(log, "w") as f:
        status = subprocess.call(command, stdin=subprocess.DEVNULL, stdout=f, env=env)
    if status:
        print(f"bench: run-linux-peer.sh ended with status {status} (0: every boot ran the whole suite); see {log}")
    return log


def peer_runs(text):
    """The runs in run-linux-peer.sh's output: each starts with a line
    '# run R/N ...' followed by that boot's lines."""
    runs = []
    for line in text.splitlines():
        if line.startswith("# run "):
            runs.append([])
        elif runs:
            r = results.parse_line(line)
            if r is not None:
                runs[-1].append(r)
    return runs


def read(path):
    with open(path, errors="replace") as f:
        return f.read()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3, help="boot the three lists this many times (default 3)")
    ap.add_argument("--elf", default=os.path.join(ROOT, "build", "leftmost.elf"))
    ap.add_argument("--cmdline", default="", help="boot parameters added to every boot")
    ap.add_argument("--out", help="the table (default: bench.md next to the ELF)")
    ap.add_argument("--log", action="append", help="a run's log to read instead of booting (once per run)")
    ap.add_argument("--linux-log", help="run-linux-peer.sh's output to read Linux's figures from")
    ap.add_argument("--emu", choices=["qemu", "bochs"], default="qemu",
                    help="bochs: the exact figures, bench-exact.md (one run)")
    a = ap.parse_args(argv)
    if a.runs < 1:
        ap.error("--runs must be at least 1")
    outdir = os.path.dirname(os.path.abspath(a.elf))
    if a.emu == "bochs":
        return exact_main(a, outdir)
    out = a.out or os.path.join(outdir, "bench.md")

    logs = a.log or boot(a.elf, a.runs, run_cmdlines(a.cmdline, BOOTS), outdir, "bench")
    ours = figures([results.parse(read(log)) for log in logs])
    linux_log = a.linux_log
    if linux_log is None and not a.log and peer_ready():
        suite = write_suite(BOOTS, os.path.join(outdir, "bench.suite"))
        linux_log = boot_linux(a.runs, os.path.join(outdir, "bench.linux.log"),
                               ["--bins", os.path.join(outdir, "user", "workloads"), "--suite", suite])
    linux_runs = peer_runs(read(linux_log)) if linux_log else []
    if linux_log and not linux_runs:
        print(f"bench: no '# run' section in {linux_log}: Linux's figures are the reference ones")
    linux = figures(linux_runs) if linux_runs else None

    source = (f"{len(linux_runs)} run(s) of run-linux-peer.sh, {os.path.relpath(linux_log, ROOT)} (peer)" if linux
              else "../shared/reference/linux-baseline.md, best of runs A-D and published range (reference)")
    verdict = verdicts(ours)
    text = table(ours, linux, verdict)
    params = "see the logs (boot: command line)" if a.log else a.cmdline or "none"
    with open(out, "w") as f:
        f.write("# leftmost vs Linux 6.1, same QEMU (TCG, -smp 4, 2 host cores)\n\n"
                f"Boot parameters added: {params}\n\n"
                f"leftmost: {len(logs)} run(s) ({', '.join(os.path.relpath(log, ROOT) for log in logs)}); "
                "median, min–max and how many runs gave the figure; goals are judged on the median.\n\n"
                f"Linux 6.1: {source}.\n\n" + text)
    print(text, end="")
    goals = [verdict[row.id] for row in ROWS if row.goal is not None]
    short = sum(1 for s in ours.values() if s.n < s.runs)
    print(f"bench: {goals.count('yes')} of {len(goals)} goals met on the median; "
          f"{short} figures missing from some of the {len(logs)} run(s); written to {os.path.relpath(out, ROOT)}")
    for line in result_lines(ours, linux, verdict):
        print(line)


def exact_main(a, outdir):
    """--emu bochs: one run in Bochs, the figures next to their ideals."""
    out = a.out or os.path.join(outdir, "bench-exact.md")
    logs = a.log or boot(a.elf, 1, run_cmdlines(a.cmdline, EXACT_BOOTS), outdir, "bench-exact", emu="bochs")
    found = results.parse("".join(read(log) for log in logs))
    text, met_goals, goals = exact_table(found)
    params = "see the log (boot: command line)" if a.log else a.cmdline or "none"
    with open(out, "w") as f:
        f.write("# leftmost's scheduling figures, exact: Bochs, 2 CPUs, virtual time\n\n"
                "Bochs 2.7 (tools/bochs.py: corei7_sandy_bridge_2600k, 200 M instructions per virtual "
                "second, `clock: sync=none`, fixed time0); the same kernel and boot parameters give the "
                "same figures on every run and every host (docs/emulators.md).\n\n"
                f"Boot parameters added: {params}\n\n"
                f"Log: {', '.join(os.path.relpath(log, ROOT) for log in logs)}; the boots' workloads: "
                + "; ".join(f"`{c}`" for c in run_cmdlines("", EXACT_BOOTS)) + "\n\n"
                "Error: (value - ideal) / ideal, or the value itself where the ideal is 0 (a largest "
                "relative deviation of a share).\n\n" + text)
    print(text, end="")
    print(f"bench: {met_goals} of {goals} goals met; written to {os.path.relpath(out, ROOT)}")


if __name__ == "__main__":
    main()
