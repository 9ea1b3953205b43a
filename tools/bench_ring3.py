#!/usr/bin/env python3
"""make bench, ring 3: the same static programs on leftmost and on Linux 6.1.

  tools/bench_ring3.py [--runs N] [--elf build/leftmost.elf] [--cmdline 'BOOT PARAMETERS']
                       [--out DIR/bench.md] [--log RUNLOG]... [--linux-log FILE]
                       [--linux-nomitig-log FILE]

The programs of user/bench/ (docs/userspace.md) each measure one cost of
the kernel's: a system call, a pipe round trip, a fork, a thread. Each run
boots leftmost once at -smp 4 with init="/bin/runlist ..." running them one
after another (logged in DIR/bench-ring3.log.R, DIR being the ELF's
directory). Linux 6.1 runs the very same binaries, in the same order, under
the same QEMU: ../shared/peer/run-linux-peer.sh --runs N --bins
DIR/user/bench --suite DIR/bench-ring3.suite.sh, twice: as it boots by
default, and with --append mitigations=off, which leaves out the
speculative-execution defences that make every entry into Linux's kernel
dearer (outputs in DIR/bench-ring3.linux.log and
DIR/bench-ring3.linux-nomitig.log). Without the peer's cached Linux the
section says why and shows leftmost alone.

The table, a section "## Ring 3" of DIR/bench.md (replacing an older one,
after bench.py's table), gives for each figure leftmost's median and range
over the runs, Linux's two medians, the ratios and the goal: at most a
fraction of Linux's cost, judged on the medians against each Linux. It also
prints one RESULT name=bench_ring3 line per figure.

Both kernels boot on one virtual CPU model, --cpu (default
qemu64,+smep,+smap: QEMU's default model, on which the peer script boots
Linux and linux-baseline.md was measured, with the two protections
leftmost turns on). Linux is at its best there: on -cpu max, what `make
run` gives leftmost, its figures were 1.4 to 20 times worse and far
noisier under TCG (a pipe round trip across CPUs 0.4-2 ms), while
leftmost's barely moved; a goal met against that would prove nothing.

--log RUNLOG (once per run), --linux-log and --linux-nomitig-log re-read
logs; with --log nothing boots.
"""
import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402
import results  # noqa: E402

HEADING = "## Ring 3: the same binaries on leftmost and on Linux"

# One row per program run: its id, label, program (user/bench/NAME.c), the
# arguments it runs with (they also pick its RESULT line: the programs echo
# them), and the goal: at most this fraction of Linux's ns_per_op, or None.
# Iteration counts are the programs' defaults: each runs 0.3-1 s under TCG.
Figure = collections.namedtuple("Figure", "id label program args goal")
FIGURES = [
    Figure("nullcall", "null system call, getpid()", "nullcall", "", 1 / 2),
    Figure("clockcall", "clock_gettime(CLOCK_MONOTONIC), vDSO", "clockcall", "syscall=0", None),
    Figure("clockcall_syscall", "clock_gettime(CLOCK_MONOTONIC), system call", "clockcall", "syscall=1", None),
    Figure("pipe_1cpu", "pipe round trip, one CPU", "pipepingpong", "cpu_a=0 cpu_b=0", 1 / 2),
    Figure("pipe_2cpu", "pipe round trip, two CPUs", "pipepingpong", "cpu_a=0 cpu_b=1", 1 / 2),
    Figure("forkwait", "fork + exit + wait", "forkwait", "", 1 / 4),
    Figure("threadjoin", "thread create + join", "threadjoin", "", 1 / 2),
]

CPU = "qemu64,+smep,+smap"

# The two ways Linux boots: the name in the table, the log's suffix, the
# peer script's options.
LINUXES = [("Linux 6.1", "linux", []),
           ("Linux 6.1 mitigations=off", "linux-nomitig", ["--append", "mitigations=off"])]


def where(figure):
    """The fields that pick a figure's RESULT line: its arguments."""
    return dict(word.split("=", 1) for word in figure.args.split())


def init_cmdline(cmdline=""):
    """The kernel command line of a leftmost run: runlist runs every program."""
    commands = " ; ".join(f"/bench/{f.program} {f.args}".strip() for f in FIGURES)
    return f'{cmdline} init="/bin/runlist {commands}"'.strip()


def suite():
    """The peer's suite file: the same programs, arguments and order."""
    return "# written by tools/bench_ring3.py\n" + "".join(f"run {f.program} {f.args}".strip() + "\n"
                                                        for f in FIGURES)


# One side's figure over the runs: bench.Stats of ns_per_op, and the error
# a program reported instead (threadjoin on a kernel without threads).
Side = collections.namedtuple("Side", "stats error")


def side(runs, figure):
    """A figure's Side over runs, each run a list of RESULT dicts."""
    values, error = [], None
    for found in runs:
        line = next((r for r in found if r["name"] == figure.program
                     and all(r.get(k) == v for k, v in where(figure).items())), None)
        if line is not None and "error" in line:
            error = error or line["error"]
        values.append(float(line["ns_per_op"]) if line is not None and "ns_per_op" in line else None)
    return Side(bench.stats(values), error)


def cell(s):
    """A side's cell: median, min–max and how many runs gave it, in whole
    ns; or why there is no figure."""
    if s is None:
        return "—"
    if s.stats.n == 0:
        return f"not supported ({s.error})" if s.error else f"missing (0/{s.stats.runs})"
    return f"{s.stats.median:.0f}, {s.stats.lo:.0f}–{s.stats.hi:.0f} ({s.stats.n}/{s.stats.runs})"


def ratio(ours, linux):
    """leftmost's median over Linux's, or None when either is missing."""
    if linux is None or ours.stats.median is None or not linux.stats.median:
        return None
    return ours.stats.median / linux.stats.median


def verdict(figure, linux, r):
    """yes or no against one Linux; - without a goal or without that Linux."""
    if figure.goal is None or linux is None:
        return "-"
    return "no" if r is None or r > figure.goal else "yes"


def rows(ours, linuxes):
    """(figure, our Side, its Linux Sides, ratios, verdicts) per figure;
    linuxes: a {figure id: Side}, or None, per entry of LINUXES."""
    out = []
    for f in FIGURES:
        theirs = [None if lx is None else lx[f.id] for lx in linuxes]
        ratios = [ratio(ours[f.id], t) for t in theirs]
        out.append((f, ours[f.id], theirs, ratios, [verdict(f, t, r) for t, r in zip(theirs, ratios)]))
    return out


def table(table_rows):
    """The markdown table of the rows."""
    names = [name for name, _, _ in LINUXES]
    lines = ["| figure, ns per operation | leftmost median, range (runs) | "
             + "".join(f"{n} median, range (runs) | " for n in names)
             + "leftmost / " + ", ".join(names) + " | goal | met |",
             "| --- | --- | " + "--- | " * len(names) + "--- | --- | --- |"]
    for f, ours, theirs, ratios, verdicts in table_rows:
        goal = "report" if f.goal is None else f"<= {f.goal:g} of Linux's"
        lines.append(f"| {f.label} | {cell(ours)} | " + "".join(f"{cell(t)} | " for t in theirs)
                     + ", ".join("—" if r is None else f"{r:.2f}" for r in ratios)
                     + f" | {goal} | {', '.join(verdicts)} |")
    return "\n".join(lines) + "\n"


def result_lines(table_rows):
    """RESULT name=bench_ring3 lines, one per figure, for scripts:
    median= (or error=), linux_median=, linux_nomitig_median=, met=."""
    lines = []
    for f, ours, theirs, ratios, verdicts in table_rows:
        fields = {"figure": f.id}
        prefixes = [""] + [tag.replace("-", "_") + "_" for _, tag, _ in LINUXES]
        for prefix, s in zip(prefixes, [ours] + theirs):
            if s is not None and s.stats.n:
                fields[prefix + "median"] = bench.fmt(s.stats.median)
            elif s is not None and s.error:
                fields[prefix + "error"] = s.error
        fields["met"] = ",".join(verdicts)
        lines.append("RESULT name=bench_ring3 " + " ".join(f"{k}={v}" for k, v in fields.items()))
    return lines


def linux_missing():
    """Why Linux cannot run here without downloading, or None."""
    if not os.path.exists(os.path.join(bench.PEER, "run-linux-peer.sh")):
        return f"no {os.path.relpath(bench.PEER, bench.ROOT)}/run-linux-peer.sh"
    if not bench.peer_ready():
        return ("the peer's cache has no Linux 6.1 kernel and busybox yet "
                "(../shared/peer/run-linux-peer.sh fetches them on its first run)")
    return None


def write_section(out, text):
    """Put the section into out: in place of an older one, or at the end."""
    old = bench.read(out) if os.path.exists(out) else ""
    head = old.split(HEADING)[0].rstrip("\n")
    with open(out, "w") as f:
        f.write((head + "\n\n" if head else "") + text)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3, help="boot each kernel this many times (default 3)")
    ap.add_argument("--elf", default=os.path.join(bench.ROOT, "build", "leftmost.elf"))
    ap.add_argument("--cmdline", default="", help="boot parameters added to leftmost's boots")
    ap.add_argument("--cpu", default=CPU, help=f"the QEMU CPU model both kernels boot on (default {CPU})")
    ap.add_argument("--out", help="the file the section goes into (default: bench.md next to the ELF)")
    ap.add_argument("--log", action="append", help="a run's log to read instead of booting (once per run)")
    for _, tag, _ in LINUXES:
        ap.add_argument(f"--{tag}-log", help=f"run-linux-peer.sh's output to read ({tag}) instead of booting")
    a = ap.parse_args(argv)
    if a.runs < 1:
        ap.error("--runs must be at least 1")
    outdir = os.path.dirname(os.path.abspath(a.elf))
    out = a.out or os.path.join(outdir, "bench.md")

    cpu = ["-cpu", a.cpu]
    logs = a.log or bench.boot(a.elf, a.runs, [init_cmdline(a.cmdline)], outdir, "bench-ring3", qemu_args=cpu)
    ours = {f.id: side([results.parse(bench.read(log)) for log in logs], f) for f in FIGURES}

    # Linux boots only when no log was given: re-reading boots nothing.
    given = [getattr(a, f"{tag.replace('-', '_')}_log") for _, tag, _ in LINUXES]
    reread = bool(a.log or any(given))
    missing = "no log given" if reread else linux_missing()
    linuxes, notes = [], []
    for (name, tag, options), log in zip(LINUXES, given):
        if log is None and missing is None:
            suite_file = os.path.join(outdir, "bench-ring3.suite.sh")
            with open(suite_file, "w") as f:
                f.write(suite())
            extra = ["--bins", os.path.join(outdir, "user", "bench"), "--suite", suite_file, *options]
            log = bench.boot_linux(a.runs, os.path.join(outdir, f"bench-ring3.{tag}.log"), extra, cpu)
        runs = bench.peer_runs(bench.read(log)) if log else []
        linuxes.append({f.id: side(runs, f) for f in FIGURES} if runs else None)
        notes.append(f"{name}: " + (f"{len(runs)} run(s), {os.path.relpath(log, bench.ROOT)}" if runs
                                    else f"no '# run' section in {log}" if log else f"not measured: {missing}"))

    table_rows = rows(ours, linuxes)
    text = table(table_rows)
    write_section(out, f"{HEADING}\n\n"
                  f"user/bench/ (docs/userspace.md), static musl binaries; QEMU TCG, -smp 4, -cpu {a.cpu} for both; "
                  "ns per operation, median over the runs, min–max and how many runs gave it. "
                  "A goal is judged on the medians, against each Linux.\n\n"
                  f"leftmost: {len(logs)} run(s), {', '.join(os.path.relpath(log, bench.ROOT) for log in logs)}; "
                  f"{'; '.join(notes)}.\n\n" + text)
    print(text, end="")
    print(f"bench: ring 3 written to {os.path.relpath(out, bench.ROOT)}; {'; '.join(notes)}")
    for line in result_lines(table_rows):
        print(line)


if __name__ == "__main__":
    main()
