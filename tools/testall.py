#!/usr/bin/env python3
"""make test and make check: every stage runs, then one summary.

  tools/testall.py [--only NAME[,NAME]] [--suite default|matrix] [-j N]
                   [--boots-only] [--make MAKE] [--elf PATH] [--initrd PATH]

The stages, each one's output in build/test-logs/STAGE.log:
  host-test    lib/ and the scheduler on the host, in the simulator (tests/)
  layers       no #include points up a layer (tools/layers.py)
  clang-build  the kernel built with clang
  build        the kernel and the initramfs, built with gcc: what is booted
  tools-test   tests/tools/: the host tools; tests/userland/: the ring-3 programs on Linux
  debug-test   the scripted GDB session (one QEMU)
then the boots of the suite in tests/kernel-suites.txt (tools/runtests.py),
up to -j at once, but those flagged alone by themselves.

A stage that fails does not stop the others; the debug-test and the boots
need the build, and when it failed say so ("build failed") instead of
running. With -j 2 or more layers, clang-build and build run side by side,
with the build of the host tests; then the host tests (each has a time
limit), the tools' tests (whose workloads measure the host) and the GDB
session run one at a time.
--only runs the named stages and configurations (of any suite), and the
build when a boot needs it.

The end is a summary: each stage's counts and seconds, each boot's seconds
(longest first), the failed checks each with its log, and as the last line
"N passed, N failed" (.ci/run adds these up). A check is a host test, a
tools test, a KTAP or RESULT test of a boot, and 1 for each of layers,
clang-build and build. Exit status 1 if anything failed, 130 if stopped.
"""

import argparse
import os
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

TOOLS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TOOLS)
sys.path.insert(0, TOOLS)
import runtests  # noqa: E402

LOGS = os.path.join(ROOT, "build", "test-logs")


@dataclass
class Stage:
    name: str
    cmd: list               # what runs it, from the top of the tree
    count: object           # count(text, status) -> (passed, failed, failures)
    needs_build: bool = False
    by_itself: bool = False  # runs with no other stage beside it
    prepare: list = None    # a build that may run beside the others first


@dataclass
class Outcome:
    name: str
    verdict: str            # PASS, FAIL or SKIP
    passed: int = 0
    failed: int = 0
    seconds: float = 0
    log: str = ""
    reason: str = ""
    failures: list = field(default_factory=list)   # names of the failed checks


def count_summary(text, status):
    """A program that ends with "N passed, N failed" and says "not ok ..."
    for each failure (make host-test, tools/debug_test.py)."""
    found = re.findall(r"(\d+) passed, (\d+) failed", text)
    names = [m.strip() for m in re.findall(r"^(?:debug-test: )?not ok \d+ (.*)$", text, re.M)]
    if not found:
        return 0, 1, ["no 'N passed, N failed' line (it stopped early)"]
    passed, failed = map(int, found[-1])
    if status != 0 and failed == 0:
        return passed, 1, [f"exit status {status}"]
    return passed, failed, names


def count_unittest(text, status):
    """Python's unittest, run once or more (make tools-test runs tests/tools/
    then tests/userland/): each run's "Ran N tests", then "OK" or "FAILED
    (failures=N, errors=N, skipped=N)", added up; each failure is named by
    a "FAIL: test (where)" or "ERROR: ..." line."""
    runs = re.findall(r"^Ran (\d+) tests? in .*\n(?:.*\n)*?(OK|FAILED)\b(?: \((.*)\))?$", text, re.M)
    if not runs:
        return 0, 1, [f"no 'Ran N tests' line: it stopped early (exit status {status})"]
    ran = failed = skipped = 0
    for count, _, details in runs:
        kinds = dict(kv.split("=") for kv in details.split(", ")) if details else {}
        ran += int(count)
        failed += sum(int(kinds.get(k, 0)) for k in ("failures", "errors", "unexpected successes"))
        skipped += int(kinds.get("skipped", 0))
    names = re.findall(r"^(?:FAIL|ERROR|UNEXPECTED SUCCESS): (.+)$", text, re.M)
    if status != 0 and failed == 0:
        failed, names = 1, names or [f"exit status {status}"]
    return ran - skipped - failed, failed, names


def count_one(text, status):
    """One check: the command succeeded."""
    return (1, 0, []) if status == 0 else (0, 1, [f"exit status {status}"])


def make_stages(make, jobs, elf, initrd):
    mk = [make, "--no-print-directory"]
    build_jobs = [f"-j{max(1, jobs)}"]
    return [
        # Its tests have a time limit each (30 s): they run by themselves,
        # after their build has run beside the others.
        Stage("host-test", mk + ["host-test"], count_summary, by_itself=True,
              prepare=mk + build_jobs + ["host-test-build"]),
        Stage("layers", mk + ["layers"], count_one),
        Stage("clang-build", mk + build_jobs + ["clang-build"], count_one),
        Stage("build", mk + build_jobs + [elf, initrd], count_one),
        Stage("tools-test", mk + build_jobs + ["tools-test"], count_unittest, by_itself=True),
        Stage("debug-test", mk + ["debug-test"], count_summary, needs_build=True, by_itself=True),
    ]


def make_env():
    """The environment for the stages' makes: MAKEFLAGS without the parent's
    job server, whose descriptors a child of this script does not have (each
    stage gets its own -j); the variables given to make stay."""
    env = dict(os.environ)
    words = env.get("MAKEFLAGS", "").split()
    keep = [w for w in words if not re.match(r"(-j\d*|--jobserver-(auth|fds)=.*)$", w)]
    env["MAKEFLAGS"] = " ".join(keep)
    return env


def run_stage(stage, logs, env=None):
    log = os.path.join(logs, stage.name + ".log")
    start = time.monotonic()
    with open(log, "w") as f:
        status = subprocess.run(stage.cmd, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, env=env).returncode
    if status < 0:                           # killed by a signal: Ctrl-C
        raise KeyboardInterrupt
    with open(log, errors="replace") as f:
        text = f.read()
    passed, failed, names = stage.count(text, status)
    return Outcome(stage.name, "FAIL" if failed else "PASS", passed, failed,
                   time.monotonic() - start, log, failures=names)


def rel(path):
    return os.path.relpath(path, ROOT) if path.startswith(ROOT) else path


def report_stage(o, out):
    if o.verdict == "SKIP":
        print(f"SKIP {o.name}: {o.reason}", file=out)
    else:
        print(f"{o.verdict} {o.name}: {o.passed} passed, {o.failed} failed "
              f"({o.seconds:.1f} s, {rel(o.log)})", file=out)
        if o.failed:
            for name in o.failures[:20]:
                print(f"    {name}", file=out)
            with open(o.log, errors="replace") as f:
                lines = [line.rstrip() for line in f if line.strip()]
            print(f"    the end of {rel(o.log)}:", file=out)
            for line in lines[-6:]:
                print(f"      {line}", file=out)
    out.flush()


def run_stages(stages, jobs, logs, out, env=None, build_ok=None):
    """Run the stages: with jobs > 1 first side by side those that are not
    by_itself and do not need the build, with the builds (prepare) of the
    others; then the others, one at a time, in order. Returns the outcomes,
    in the stages' order."""
    outcomes = {}
    lock = threading.Lock()

    def one(stage):
        if stage.needs_build and not build_ok(outcomes):
            o = Outcome(stage.name, "SKIP", reason="build failed")
        else:
            o = run_stage(stage, logs, env)
        with lock:
            outcomes[stage.name] = o
            report_stage(o, out)

    together = [s for s in stages if not s.by_itself and not s.needs_build] if jobs > 1 else []
    after = [s for s in stages if s not in together]
    errors = []

    def guarded(stage):
        try:
            if stage.prepare:                # its own run reports a failure
                subprocess.run(stage.prepare, cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, env=env)
            else:
                one(stage)
        except BaseException as e:           # the main thread re-raises it
            errors.append(e)
    preparing = [s for s in after if s.prepare] if jobs > 1 else []
    threads = [threading.Thread(target=guarded, args=(s,), daemon=True)
               for s in preparing + together]
    for t in threads:
        t.start()
    for t in threads:
        while t.is_alive():
            t.join(0.5)                      # stays open to Ctrl-C
    if errors:
        raise errors[0]
    for stage in after:
        one(stage)
    return [outcomes[s.name] for s in stages]


def build_ok(outcomes):
    o = outcomes.get("build")
    return o is None or o.verdict == "PASS"


def run_boots(configs, elf, jobs, out, run=None, skip_reason=""):
    """Boot each configuration (runtests.run_configs); returns [(cfg, Result)]."""
    if skip_reason:
        print(f"SKIP {len(configs)} boot(s): {skip_reason}", file=out)
        return [(c, runtests.Result("SKIP", skip_reason)) for c in configs]
    alone = " (those flagged alone by themselves)" if jobs > 1 else ""
    print(f"boots: {len(configs)} configuration(s), {jobs} at a time{alone}, "
          f"logs in build/test-logs/", file=out, flush=True)
    results = []
    for cfg, r in runtests.run_configs(configs, elf, jobs, False, run):
        print(runtests.summary_line(cfg, r), file=out)
        for line in r.details or []:
            print(f"    {line}", file=out)
        out.flush()
        results.append((cfg, r))
    order = {c.name: i for i, c in enumerate(configs)}
    return sorted(results, key=lambda cr: order[cr[0].name])


def minutes(seconds):
    return f"{int(seconds // 60)} min {seconds % 60:.0f} s" if seconds >= 60 else f"{seconds:.1f} s"


def summary(outcomes, boots, boot_seconds, jobs, total, logs, out):
    """The closing summary; returns (passed, failed)."""
    print("\n== summary ==", file=out)
    passed = failed = 0
    failures = []
    for o in outcomes:
        if o.verdict == "SKIP":
            print(f"  {o.name:12} skipped: {o.reason}", file=out)
            continue
        print(f"  {o.name:12} {o.passed:5} passed, {o.failed} failed {o.seconds:8.1f} s  {rel(o.log)}",
              file=out)
        passed, failed = passed + o.passed, failed + o.failed
        if o.failed:
            failures += [(o.name, name, o.log) for name in o.failures or ["failed"]]
    if boots:
        ran = [(c, r) for c, r in boots if r.verdict != "SKIP"]
        bp = sum(r.passed for _, r in boots)
        bf = sum(r.failed for _, r in boots)
        passed, failed = passed + bp, failed + bf
        skipped = [(c, r) for c, r in boots if r.verdict == "SKIP"]
        print(f"  {'boots':12} {bp:5} passed, {bf} failed {boot_seconds:8.1f} s  "
              f"{len(ran)} configuration(s), {jobs} at a time; each one's seconds "
              f"add up to {sum(r.seconds for _, r in ran):.0f}", file=out)
        if ran:
            longest = sorted(ran, key=lambda cr: -cr[1].seconds)
            words = [f"{c.name} {r.seconds:.0f}" for c, r in longest]
            print("  boot seconds, longest first:", file=out)
            for i in range(0, len(words), 6):
                print("    " + ", ".join(words[i:i + 6]), file=out)
        if skipped:
            reasons = sorted({r.reason for _, r in skipped})
            print(f"  {len(skipped)} boot(s) skipped: {'; '.join(reasons)}", file=out)
        for c, r in boots:
            if r.verdict == "FAIL":
                failures.append((c.name, r.reason or "failed", os.path.join(logs, c.name + ".log")))
    if failures:
        print(f"failed ({len(failures)}):", file=out)
        for where, what, log in failures:
            print(f"  {where}: {what}  ({rel(log)})", file=out)
    print(f"took {minutes(total)}", file=out)
    print(f"{passed} passed, {failed} failed", file=out)
    out.flush()
    return passed, failed


def select(only, stages, configs, suite):
    """The stages and configurations --only names (all of the suite's without it)."""
    if not only:
        return stages, [c for c in configs if c.suite == suite]
    names = [n for n in only.split(",") if n]
    known = {s.name for s in stages} | {c.name for c in configs}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SystemExit(f"testall: no stage or configuration named {', '.join(unknown)} "
                         f"(stages: {', '.join(s.name for s in stages)}; "
                         f"configurations: tools/runtests.py --suite all --list)")
    chosen = [c for c in configs if c.name in names]
    wanted = set(names) | ({"build"} if chosen or "debug-test" in names else set())
    return [s for s in stages if s.name in wanted], chosen


def test_all(stages, configs, elf, jobs, out=sys.stdout, logs=LOGS, env=None, run=None):
    """Every stage, then every boot, then the summary; the exit status."""
    os.makedirs(logs, exist_ok=True)
    clash = {s.name for s in stages} & {c.name for c in configs}
    if clash:
        raise SystemExit(f"testall: {', '.join(clash)} is both a stage and a configuration")
    start = time.monotonic()
    try:
        outcomes = run_stages(stages, jobs, logs, out, env, build_ok)
        boot_start = time.monotonic()
        skip = "" if build_ok({o.name: o for o in outcomes}) else "build failed"
        boots = run_boots(configs, elf, jobs, out, run, skip) if configs else []
    except KeyboardInterrupt:
        print("testall: interrupted", file=sys.stderr)
        return 130
    passed, failed = summary(outcomes, boots, time.monotonic() - boot_start, jobs,
                             time.monotonic() - start, logs, out)
    return 1 if failed else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description="Run every test stage and boot; one summary.")
    ap.add_argument("--only", default="", help="comma-separated stages and configurations")
    ap.add_argument("--suite", choices=["default", "matrix"], default="default")
    ap.add_argument("-j", "--jobs", type=int, default=0,
                    help="emulators (and stages) at once; default 2 if the host has 2 cores")
    ap.add_argument("--boots-only", action="store_true",
                    help="of the stages only the build (make test-matrix)")
    ap.add_argument("--make", default="make")
    ap.add_argument("--elf", default="build/leftmost.elf")
    ap.add_argument("--initrd", default="build/initrd.cpio")
    a = ap.parse_args(argv)
    jobs = a.jobs or (2 if (os.cpu_count() or 1) >= 2 else 1)
    stages = make_stages(a.make, jobs, a.elf, a.initrd)
    if a.boots_only:
        stages = [s for s in stages if s.name == "build"]
    stages, configs = select(a.only, stages, runtests.load_configs(), a.suite)
    return test_all(stages, configs, os.path.join(ROOT, a.elf), jobs, env=make_env())


if __name__ == "__main__":
    sys.exit(main())
