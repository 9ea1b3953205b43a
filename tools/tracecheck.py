#!/usr/bin/env python3
"""Check that a scheduler trace is consistent, and agrees with the kernel.

  tools/tracecheck.py TRACE [--svg SVG] [--tolerance 0.01]

TRACE is ftrace text or a serial log holding a dump. The checks:
  - no event was lost (the buffer never overflowed);
  - the switches pair up: each switch leaves the task the previous switch
    on that CPU ran (so no CPU ever runs nothing, not even its idle task),
    and no task is switched in while it runs on another CPU;
  - every task whose whole life is in the trace (its sched_wakeup_new is
    there) and which is not running at the end has the CPU time the
    kernel charged it (its "# runtime" line or sched_process_exit event)
    within the tolerance (1%) of what its switches add up to;
  - with --svg, the picture is well-formed XML with an <svg> root and bars.
Prints what it checked and each failure; exit status 1 on a failure.

tools/runtests.py runs these for a configuration flagged `trace`
(check_boot()), and also draws the SVG and renders it in Chromium
(tools/render_check.py).
"""

import argparse
import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

TOOLS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, TOOLS)
import tracefile  # noqa: E402
import render_check  # noqa: E402


def check(trace, tolerance=0.01):
    """[(what was checked, [what is wrong])], one entry per check."""
    lost = [f"cpu{cpu} lost {n} events (the buffer was full: raise trace_size=)"
            for cpu, n in sorted(trace.lost.items()) if n]
    if not trace.lost:
        lost.append("the trace says nothing about lost events (no '# lost' lines)")

    slices, problems = tracefile.timeline(trace)
    switches = sum(e.name == "sched_switch" for e in trace.events)
    pairing = problems[:20] + ([f"... and {len(problems) - 20} more"] if len(problems) > 20 else [])
    if not switches:
        pairing.append("no sched_switch events")

    born = {int(e.args["pid"]) for e in trace.events if e.name == "sched_wakeup_new"}
    running = tracefile.running_at_end(trace)
    ran = {}
    for s in slices:
        ran[s.pid] = ran.get(s.pid, 0) + s.end - s.start
    runtime, compared, worst = [], 0, 0.0
    for pid, kernel_ns in sorted(trace.runtime.items()):
        if pid not in born or pid in running or not kernel_ns:
            continue
        got = ran.get(pid, 0)
        off = abs(got - kernel_ns) / kernel_ns
        worst = max(worst, off)
        compared += 1
        if off > tolerance and len(runtime) < 20:
            runtime.append(f"{trace.names.get(pid, '?')}-{pid}: the switches give {got / 1e6:.3f} ms, "
                           f"the kernel charged {kernel_ns / 1e6:.3f} ms ({off:.2%} apart)")
    wrong = sum(abs(ran.get(pid, 0) - ns) > tolerance * ns for pid, ns in trace.runtime.items()
                if pid in born and pid not in running and ns)
    if wrong > len(runtime):
        runtime.append(f"... {wrong} tasks in all")
    if not compared:
        runtime.append("no task to compare (none both born in the trace and off the CPUs at its end)")
    return [(f"no event lost on {len(trace.lost)} CPUs", lost),
            (f"{switches} switches on {trace.ncpus} CPUs pair up", pairing),
            (f"{compared} tasks' runtimes match the kernel's within {tolerance:.0%} (worst {worst:.4%})", runtime)]


def check_svg(path):
    """(what was checked, [what is wrong]): XML, an svg root, task bars."""
    what = f"{path} is well-formed SVG with task bars"
    try:
        root = ElementTree.parse(path).getroot()
    except (OSError, ElementTree.ParseError) as e:
        return what, [f"{path}: not well-formed XML: {e}"]
    if root.tag != "{http://www.w3.org/2000/svg}svg":
        return what, [f"{path}: the root is {root.tag}, not svg"]
    bars = [r for r in root.iter("{http://www.w3.org/2000/svg}rect")
            if r.find("{http://www.w3.org/2000/svg}title") is not None]
    return what, [] if bars else [f"{path}: no task bars"]


def check_boot(result, log, name):
    """For tools/runtests.py: write build/trace/NAME.txt, .svg and .png from
    a traced boot's serial log, run every check and add them to result as
    one test each (a render that cannot run is skipped, with the reason)."""
    out = os.path.join(os.path.dirname(TOOLS), "build", "trace")
    os.makedirs(out, exist_ok=True)
    txt, svg, png = (os.path.join(out, name + ext) for ext in (".txt", ".svg", ".png"))
    try:
        with open(log, errors="replace") as f:
            text = tracefile.extract(f.read())
        with open(txt, "w") as f:
            f.write(text)
        checks = check(tracefile.parse(text))
    except (OSError, ValueError) as e:
        checks = [("the log holds a trace", [str(e)])]
    else:
        draw = subprocess.run([sys.executable, os.path.join(TOOLS, "trace2svg"), txt, "-o", svg],
                              capture_output=True, text=True)
        if draw.returncode:
            checks.append(("trace2svg draws it", [draw.stderr.strip()]))
        else:
            checks.append(check_svg(svg))
            verdict, why = render_check.render_and_check(svg, png)
            if verdict == "SKIP":
                result.skipped += 1
                result.details.append(f"trace: SKIP render in Chromium: {why}")
            else:
                checks.append((f"render in Chromium: {why}", [] if verdict == "PASS" else [why]))
    for what, errors in checks:
        result.details.append(f"trace: {'FAIL' if errors else 'ok'} {what}")
        result.details += [f"    {e}" for e in errors]
        result.passed += not errors
        result.failed += bool(errors)
        if errors and result.verdict == "PASS":
            result.verdict, result.reason = "FAIL", f"trace: {errors[0]}"


def main(argv=None):
    ap = argparse.ArgumentParser(description="Check a scheduler trace for consistency and against the kernel.")
    ap.add_argument("trace", help="ftrace text, or a serial log holding a trace dump")
    ap.add_argument("--svg", help="also check this SVG (from tools/trace2svg)")
    ap.add_argument("--tolerance", type=float, default=0.01, help="runtime agreement, a fraction (default 0.01)")
    a = ap.parse_args(argv)
    try:
        checks = check(tracefile.read(a.trace), a.tolerance)
    except (OSError, ValueError) as e:
        raise SystemExit(f"tracecheck: {a.trace}: {e}")
    if a.svg:
        checks.append(check_svg(a.svg))
    for what, errors in checks:
        print(f"{'FAIL' if errors else 'ok'} {what}")
        for e in errors:
            print(f"    {e}")
    failed = sum(bool(errors) for _, errors in checks)
    print(f"{len(checks) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
