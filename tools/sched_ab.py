#!/usr/bin/env python3
"""make bench SCHED=all: the 2007 debate's A/B table, CFS against SD and O(1).

  tools/sched_ab.py [--sched all|cfs,sd,o1] [--runs N] [--elf build/leftmost.elf]
                    [--cmdline 'BOOT PARAMETERS'] [--out DIR/sched-ab.md]
                    [--log SCHED=RUNLOG]... [--linux-log [6.1|6.12=]FILE]...

For each scheduler a run boots bench.py's three lists, one more list for
this table alone (massive_intr procs=200: the 2007 report of 4 processes
of 200 taking 98% of a CPU under O(1)) and ktest=sched_cost (the class's
pick cost at 10 to 10,000 tasks), each with sched=NAME added; run R's boots
are logged in DIR/bench-NAME.log.R. DIR/sched-ab.md gets one row per
figure: each scheduler's median and range, Linux's, and a verdict made
from the figures; one RESULT name=sched_ab line per cell goes to stdout.

Linux: as bench.py, run-linux-peer.sh runs the same binaries and lists
(DIR/sched-ab.suite) when its cache has the kernel, 6.1 and, if cached,
6.12 (DIR/sched-ab.linux.log, DIR/sched-ab.linux-6.12.log); otherwise the
6.1 column quotes the reference figures and there is no 6.12 column.

--log SCHED=RUNLOG, once per run and scheduler, reads existing logs instead
of booting (the columns are then the schedulers named); --linux-log reads
run-linux-peer.sh's output (6.1 unless prefixed 6.12=).
"""
import argparse
import math
import os
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402
import results  # noqa: E402

SCHEDS = ("cfs", "sd", "o1")
AB_BOOTS = [["massive_intr procs=200 ms=10000"]]
KTEST = "ktest=sched_cost"
MANY = 200                                 # massive_intr's processes in AB_BOOTS
TOP4_GOAL = 4 / MANY * 1.5                 # the top 4 at most 1.5 times their fair share

Row = bench.Row
BY_ID = {row.id: row for row in bench.ROWS}
# The debate asks who starves, not how close the emulator lets a spread get
# to 1: both massive_intr rows take 1.5, the bound make test puts on it.
FAIRNESS_LINE = ("<=", 1.5)
ROWS = ([BY_ID[i] for i in ("fairness_4hogs", "fairness_nice5", "smpbalance_5hogs",
                            "wakeup_hog_p50", "wakeup_hog_p99")]
        + [BY_ID["massive_intr_spread"]._replace(label="massive_intr, 10 procs, spread", goal=FAIRNESS_LINE),
           Row("massive_intr200_spread", f"massive_intr, {MANY} procs, spread", "massive_intr",
               {"procs": str(MANY)}, "spread", None, None, FAIRNESS_LINE),
           # massive_intr prints min/avg/max rounds, not each process's: the
           # top 4 got at most 4 times the largest share, so that bounds them.
           Row("massive_intr200_max_share", f"massive_intr, {MANY} procs, largest share (top 4: at most 4x)",
               "massive_intr", {"procs": str(MANY)}, "max_share", None, None, ("<=", TOP4_GOAL / 4)),
           Row("massive_intr200_min_share", f"massive_intr, {MANY} procs, smallest share", "massive_intr",
               {"procs": str(MANY)}, "min_share", None, None, None)]
        + [BY_ID[i] for i in ("fiftyp_copy", "fiftyp_hog", "fiftyp_probe_max", "thud_stall",
                              "chew_out_max", "chew_out_avg", "ring_hog", "hackbench_ms")]
        + [Row("sched_cost_pick10", "sched_cost ktest, pick cycles at 10 tasks", "sched_cost", {}, "pick_10",
               None, None, None),
           Row("sched_cost_pick10000", "sched_cost ktest, pick cycles at 10,000 tasks", "sched_cost", {},
               "pick_10000", None, None, None),
           # the ktest's own assertion
           Row("sched_cost_ratio", "sched_cost ktest, pick at 10,000 / at 10", "sched_cost", {}, "ratio",
               None, None, ("<=", 3))])


def derive(found):
    """Add max_share and min_share (of all rounds) to massive_intr's RESULT
    dicts, from min, avg, max and procs; returns found."""
    for r in found:
        if r["name"] == "massive_intr" and all(k in r for k in ("min", "avg", "max", "procs")):
            total = float(r["avg"]) * float(r["procs"])
            if total > 0:
                r["max_share"] = repr(float(r["max"]) / total)
                r["min_share"] = repr(float(r["min"]) / total)
    return found


def figures(runs):
    """{row id: Stats} of ROWS over runs, each a list of RESULT dicts."""
    return bench.figures([derive(found) for found in runs], ROWS)


def cell(s):
    """A column's cell: median (min–max, when they differ), [n/runs] when a run lacked it."""
    if s.n == 0:
        return f"missing [0/{s.runs}]"
    text = bench.fmt(s.median) + (f" ({bench.fmt(s.lo)}–{bench.fmt(s.hi)})" if s.lo != s.hi else "")
    return text + (f" [{s.n}/{s.runs}]" if s.n < s.runs else "")


def pct(value):
    return f"{value:.1%}" if value < 0.1 else f"{value:.0%}"


def miss_text(row, name, value):
    """How far one scheduler's median misses the row's goal."""
    op, bound = row.goal
    if row.id == "massive_intr200_max_share":
        return f"{name} starves: top 4 of {MANY} got up to {pct(min(4 * value, 1))} (fair {pct(4 / MANY)})"
    if math.isinf(value):
        how = "a process made no round"
    elif op == "<=":
        how = f"{value / bound:.1f}x the bound"
    elif op == ">=":
        how = f"{value / bound:.0%} of the bound"
    else:
        how = f"{(value - bound) / bound:+.1%} off"
    return f"{name} fails: {bench.fmt(value)}, {how}"


def rank_text(row, have):
    """The best median by the goal's direction; without a goal, the lowest
    and highest (and how many times the lowest that is)."""
    if len(have) < 2:
        return ""
    if row.goal is None:
        lo, hi = min(have, key=have.get), max(have, key=have.get)
        if have[lo] == have[hi]:
            return f"all alike ({bench.fmt(have[lo])})"
        times = f", {have[hi] / have[lo]:.1f}x" if have[lo] > 0 and not math.isinf(have[hi]) else ""
        return f"lowest: {lo} ({bench.fmt(have[lo])}), highest: {hi} ({bench.fmt(have[hi])}{times})"
    op, bound = row.goal
    distance = {"<=": lambda v: v, ">=": lambda v: -v, "within": lambda v: abs(v - bound)}[op]
    top = min(distance(v) for v in have.values())
    best = [n for n in have if distance(have[n]) == top]      # a tie names them all
    return f"best: {', '.join(best)} ({bench.fmt(have[best[0]])})"


def verdict(row, cols):
    """The row's verdict from the schedulers' Stats {name: Stats}: who meets
    the goal, who fails it and by how much, who is best."""
    have = {name: s.median for name, s in cols.items() if s.median is not None}
    if not have:
        return "no figures"
    parts = []
    if row.goal is not None:
        ok = [n for n in have if bench.met(row.goal, have[n], {}) == "yes"]
        if len(ok) == len(cols):
            parts.append("all meet it")
        else:
            parts.append("meets it: " + ", ".join(ok) if ok else "none meets it")
        parts += [miss_text(row, n, have[n]) for n in have if n not in ok]
    parts.append(rank_text(row, have))
    missing = [n for n in cols if n not in have]
    if missing:
        parts.append("no figure: " + ", ".join(missing))
    return "; ".join(p for p in parts if p) or "—"


def linux_cell(row, linux):
    """A Linux column's cell: measured by the peer, or 6.1's reference figure;
    none for leftmost's own kernel test."""
    if row.name == "sched_cost":
        return "— (a leftmost ktest)"
    if linux is not None:
        return cell(linux[row.id])
    return bench.linux_text(row, None).replace(" (reference)", " (ref.)")


def table(ours, linuxes):
    """ours: {scheduler: {row id: Stats}}; linuxes: [(label, figures or None)]."""
    head = ["figure", "key", "goal", *ours, *(label for label, _ in linuxes), "verdict"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for row in ROWS:
        cells = [row.label, row.key, bench.goal_text(row.goal)]
        cells += [cell(figs[row.id]) for figs in ours.values()]
        cells += [linux_cell(row, linux) for _, linux in linuxes]
        cells.append(verdict(row, {name: figs[row.id] for name, figs in ours.items()}))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def result_lines(ours, linuxes):
    """RESULT name=sched_ab sched=NAME figure=ID median=V ... per cell (the
    measured Linux columns as sched=linux-6.1, linux-6.12); no median when
    no run gave the figure, as bench.py's lines."""
    columns = list(ours.items()) + [("linux-" + label.split()[-1], f) for label, f in linuxes if f]
    lines = []
    for name, figs in columns:
        for row in ROWS:
            s = figs[row.id]
            fields = {"sched": name, "figure": row.id}
            if s.n:
                fields.update(median=bench.fmt(s.median), min=bench.fmt(s.lo), max=bench.fmt(s.hi))
            fields.update(n=s.n, runs=s.runs)
            if name in ours:
                fields["met"] = bench.met(row.goal, s.median, {})
            lines.append("RESULT name=sched_ab " + " ".join(f"{k}={v}" for k, v in fields.items()))
    return lines


def sched_list(text):
    """--sched: all, or a comma list of cfs, sd, o1 (in that order, once each)."""
    names = SCHEDS if text == "all" else [n.strip() for n in text.split(",") if n.strip()]
    bad = [n for n in names if n not in SCHEDS]
    if bad or not names:
        raise argparse.ArgumentTypeError(f"{text!r}: give all or a comma list of {', '.join(SCHEDS)}")
    return [n for n in SCHEDS if n in names]


def pairs(items, default=None):
    """['cfs=a', 'cfs=b', 'sd=c'] -> {'cfs': ['a', 'b'], 'sd': ['c']}; an item
    without KEY= goes to default."""
    out = {}
    for item in items or []:
        key, path = item.split("=", 1) if "=" in item.split("/")[0] else (default, item)
        out.setdefault(key, []).append(path)
    return out


def cmdlines(cmdline, name):
    """One scheduler's boots of a run: bench.py's lists, AB_BOOTS, the ktest."""
    params = f"{cmdline} sched={name}".strip()
    return bench.run_cmdlines(params, bench.BOOTS + AB_BOOTS) + [f"{params} {KTEST}"]


def boot_all(a, names, outdir):
    """Boot every scheduler's lists a.runs times, one boot at a time: {name: logs}."""
    return {name: bench.boot(a.elf, a.runs, cmdlines(a.cmdline, name), outdir, f"bench-{name}")
            for name in names}


def linux_logs(a, given, outdir):
    """{kernel: log}: the given ones; when booting, the peer's for each series
    whose kernel it has cached (6.1, 6.12), with the same binaries and lists."""
    logs = {k: v[-1] for k, v in given.items()}
    if given or a.log:
        return logs
    for kernel in ("6.1", "6.12"):
        if bench.peer_ready(kernel):
            suite = bench.write_suite(bench.BOOTS + AB_BOOTS, os.path.join(outdir, "sched-ab.suite"))
            log = os.path.join(outdir, "sched-ab.linux.log" if kernel == "6.1" else f"sched-ab.linux-{kernel}.log")
            logs[kernel] = bench.boot_linux(a.runs, log, ["--bins", os.path.join(outdir, "user", "workloads"),
                                                          "--suite", suite], kernel=kernel)
    return logs


def linux_columns(logs):
    """[(label, figures or None)]: 6.1 always (the reference without a peer
    log), 6.12 only when measured; and a line on each's source."""
    columns, notes = [], []
    for kernel in ("6.1", "6.12"):
        runs = bench.peer_runs(bench.read(logs[kernel])) if kernel in logs else []
        if runs:
            columns.append((f"Linux {kernel}", figures(runs)))
            notes.append(f"Linux {kernel}: {len(runs)} run(s) of run-linux-peer.sh, "
                         f"{os.path.relpath(logs[kernel], bench.ROOT)} (same binaries and lists).")
        elif kernel == "6.1":
            columns.append(("Linux 6.1", None))
            why = f"no '# run' section in {logs[kernel]}" if kernel in logs else "the peer's cache is empty"
            notes.append(f"Linux 6.1: {why}; the reference figures of ../shared/reference/linux-baseline.md "
                         "(best of runs A-D, published range), where it has them.")
        else:
            notes.append("Linux 6.12: not measured (run-linux-peer.sh --kernel 6.12 needs it cached).")
    return columns, notes


def commands(a, logs, linux):
    """The commands that regenerate the table: by booting, and from these logs."""
    make = f"make bench SCHED={','.join(logs) if len(logs) < len(SCHEDS) else 'all'} RUNS={a.runs}"
    make += f" BENCH_CMDLINE={shlex.quote(a.cmdline)}" if a.cmdline else ""
    root = bench.ROOT
    again = ["tools/sched_ab.py"] + [f"--log={n}={os.path.relpath(p, root)}" for n, ps in logs.items() for p in ps]
    again += [f"--linux-log={k}={os.path.relpath(p, root)}" for k, p in linux.items()]
    return make, shlex.join(again)


def write(out, a, logs, linux, notes, text):
    make, again = commands(a, logs, linux)
    params = a.cmdline or "none"
    with open(out, "w") as f:
        f.write("# The 2007 debate's A/B: CFS, SD and O(1) on leftmost, next to Linux\n\n"
                f"Regenerate: `{make}` (boots), or from these logs: `{again}`\n\n"
                f"Each run, for each scheduler: bench.py's three lists, `{'; '.join(AB_BOOTS[0])}` and "
                f"`{KTEST}`, with `sched=NAME` added (other boot parameters: {params}); run R's boots are "
                "logged in build/bench-NAME.log.R. A cell is the median of the runs (min–max), "
                "[n/runs] when a run lacked the figure; goals are bench.py's, judged on the median; "
                f"massive_intr's spread <= 1.5 (the fairness line), its largest share <= {TOP4_GOAL / 4:g} "
                f"(the top 4 at most {TOP4_GOAL:g}: massive_intr prints no per-process rounds, so 4x the "
                "largest bounds them).\n\n" + "\n\n".join(notes) + "\n\n" + text)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sched", type=sched_list, default=list(SCHEDS), help="all, or a comma list of cfs,sd,o1")
    ap.add_argument("--runs", type=int, default=3, help="boot each scheduler's lists this many times (default 3)")
    ap.add_argument("--elf", default=os.path.join(bench.ROOT, "build", "leftmost.elf"))
    ap.add_argument("--cmdline", default="", help="boot parameters added to every boot")
    ap.add_argument("--out", help="the table (default: sched-ab.md next to the ELF)")
    ap.add_argument("--log", action="append", help="SCHED=RUNLOG to read instead of booting (once per run)")
    ap.add_argument("--linux-log", action="append", help="[6.1|6.12=]FILE: run-linux-peer.sh's output")
    a = ap.parse_args(argv)
    if a.runs < 1:
        ap.error("--runs must be at least 1")
    given = pairs(a.log)
    if any(n not in SCHEDS for n in given):
        ap.error(f"--log takes SCHED=RUNLOG, SCHED one of {', '.join(SCHEDS)}")
    outdir = os.path.dirname(os.path.abspath(a.elf))
    logs = {n: given[n] for n in SCHEDS if n in given} if given else boot_all(a, a.sched, outdir)
    if given:
        a.runs = max(len(v) for v in logs.values())
    ours = {name: figures([results.parse(bench.read(log)) for log in paths]) for name, paths in logs.items()}
    linux = linux_logs(a, pairs(a.linux_log, "6.1"), outdir)
    linuxes, notes = linux_columns(linux)
    text = table(ours, linuxes)
    out = a.out or os.path.join(outdir, "sched-ab.md")
    write(out, a, logs, linux, notes, text)
    print(text, end="")
    print(f"sched_ab: {', '.join(logs)}, {a.runs} run(s) each; written to {os.path.relpath(out, bench.ROOT)}")
    for line in result_lines(ours, linuxes):
        print(line)


if __name__ == "__main__":
    main()
