#!/usr/bin/env python3
"""Boot the kernel in each test configuration and judge the results.

  tools/runtests.py [--suite default|matrix|all] [--only NAME[,NAME]]
                    [-j|--jobs N=1] [--list] [--elf PATH] [--configs FILE] [-v]

Configurations come from tests/kernel-suites.txt (its header explains the
format). For each one: build build/iso/NAME.iso with tools/mkiso.sh, boot
it with tools/qemu.py (or tools/bochs.py), keep the serial log in
build/test-logs/NAME.log and judge it. Prints one line per configuration,
then "N passed, N failed" counting KTAP leaf tests. With --jobs N, up to N
emulators at once, but a configuration flagged alone by itself.
make test runs this through tools/testall.py, after the other stages.
Exit status 1 if anything failed.
"""

import argparse
import io
import os
import queue
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

TOOLS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TOOLS)
sys.path.insert(0, TOOLS)
import bochs  # noqa: E402
import emulator  # noqa: E402
import ktap  # noqa: E402
import linuxcompare  # noqa: E402
import results  # noqa: E402
import qemu  # noqa: E402
import sched_debug  # noqa: E402
import tracecheck  # noqa: E402
import tracefile  # noqa: E402
import typist  # noqa: E402
from emulator import PASS, FAIL, PANIC, TIMEOUT_STATUS  # noqa: E402

SUITES_FILE = os.path.join(ROOT, "tests", "kernel-suites.txt")
stopping = False                         # set on Ctrl-C: start no more runs


@dataclass
class Config:
    name: str
    suite: str
    emu: str            # "qemu" or "bochs"
    opts: list          # tools/qemu.py's or tools/bochs.py's options
    cmdline: str
    expect: str         # "ktap", "run" or "panic:REGEX"
    timeout: float
    flags: list


@dataclass
class Result:
    verdict: str        # PASS, FAIL or SKIP
    reason: str = ""
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    seconds: float = 0
    details: list = None  # lines to print under the verdict


def load_configs(path=SUITES_FILE):
    configs = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            cols = [c.strip() for c in re.split(r"\s+\|\s+", line.strip())]
            cols = ["" if c == "-" else c for c in cols]
            if len(cols) not in (6, 7) or cols[1] not in ("default", "matrix") \
                    or not (cols[4] in ("ktap", "run") or cols[4].startswith("panic:")):
                raise SystemExit(f"{path}:{n}: bad line: {line.strip()}")
            name, suite, opts, cmdline, expect, timeout = cols[:6]
            flags = cols[6].split() if len(cols) == 7 else []
            try:
                emu, opts = emulator_options(shlex.split(opts))
            except SystemExit:                 # argparse said what is wrong
                raise SystemExit(f"{path}:{n}: bad emulator options: {opts}")
            configs.append(Config(name, suite, emu, opts, cmdline,
                                  expect, float(timeout), flags))
    return configs


def emulator_options(words):
    """("bochs", words without --emu bochs) for "--emu bochs ..." (bochs.py's
    options), else ("qemu", words) (qemu.py's); checks them."""
    emu = "qemu"
    if words[:2] == ["--emu", "bochs"]:
        emu, words = "bochs", words[2:]
    (bochs if emu == "bochs" else qemu).parse_args(["--iso", "-"] + words)
    return emu, words


def tail(lines, n=20):
    """The last n non-blank lines of the log, indented."""
    return [f"last {n} lines of the log:"] + \
        ["  " + line for line in lines if line.strip()][-n:]


def panic_report(lines):
    """The panic message and what follows it (registers, backtrace)."""
    for i, line in enumerate(lines):
        if "PANIC:" in line:
            return ["  " + line for line in lines[i:i + 30]]
    return tail(lines)


def judge(cfg, status, text):
    """Decide PASS/FAIL for one finished run from its exit status and log."""
    raw = text.splitlines()
    lines = [ktap.strip_prefix(line) for line in raw]
    panicked = status == PANIC or any("PANIC:" in line for line in lines)
    warnings = [line.rstrip("\r") for line in raw
                if ktap.PREFIX.match(line) and ktap.strip_prefix(line).startswith("WARNING:")]
    r = Result("PASS", details=warnings)
    if warnings and "nowarn" in cfg.flags:
        r.verdict, r.reason = "FAIL", f"{len(warnings)} warning(s) (nowarn)"

    def fail(reason, details=()):
        """The reason shown is a panic or a timeout if there was one (what
        failed after it is its consequence), else the last; the others go
        to the details."""
        first = reason == "kernel panic" or reason.startswith("timeout")
        if r.reason and (first or not (r.reason == "kernel panic" or r.reason.startswith("timeout"))):
            r.details.append("  " + r.reason)
        elif r.reason:
            r.details.append("  " + reason)
            reason = r.reason
        r.verdict, r.reason = "FAIL", reason
        r.details += list(details)

    log_misses = 0
    for flag in cfg.flags:                 # log=REGEX: the log must say this
        if flag.startswith("log=") and not re.search(flag[4:], "\n".join(lines)):
            fail(f"the log does not match {flag[4:]!r}")
            log_misses += 1

    checks = [0, 0]                        # check=SCRIPT: its "ok"/"not ok" lines
    for flag in cfg.flags:
        if flag.startswith("check="):
            oks, misses = run_checker(flag[len("check="):], lines)
            checks[0] += oks
            checks[1] += len(misses)
            for miss in misses:
                fail(f"{os.path.basename(flag[len('check='):])}: {miss}")

    for flag in cfg.flags:                 # sched_debug=NAME*N: consistent dumps
        if flag.startswith("sched_debug="):
            _, errors = sched_debug.check_log(lines, flag[len("sched_debug="):])
            if errors:
                fail(f"sched_debug: {len(errors)} inconsistencies", errors[:10])

    if status == TIMEOUT_STATUS:
        fail(f"timeout after {cfg.timeout:g} s", tail(lines))
    if cfg.expect.startswith("panic:"):
        # The one test here is the panic itself.
        if status == TIMEOUT_STATUS:
            pass
        elif status != PANIC or not panicked:
            fail(f"expected a panic, got exit status {status}", tail(lines))
        elif not re.search(cfg.expect[len("panic:"):], "\n".join(lines)):
            fail(f"panic output does not match {cfg.expect[len('panic:'):]!r}",
                 panic_report(lines))
        r.passed, r.failed = (1, 0) if r.verdict == "PASS" else (0, 1)
        return r

    if cfg.expect == "run":
        return judge_run(cfg, status, lines, r, fail, log_misses, checks)

    root = ktap.parse(text)
    r.passed, r.failed, r.skipped = root.counts()
    if status == TIMEOUT_STATUS:
        pass
    elif panicked:
        fail("kernel panic", panic_report(lines))
    elif status == FAIL:
        fail("kernel reported failure (exit status 35)")
    elif status == 0:
        fail("the emulator stopped with no verdict (triple fault or reset?)", tail(lines))
    elif status != PASS:
        fail(f"emulator exit status {status}", tail(lines))
    elif not root.ok():
        fail("exit status 33 but the KTAP results have failures")
    if r.verdict == "FAIL":
        if not root.ok():                  # what failed, from the KTAP summary
            out = io.StringIO()
            ktap.report(root, out=out)
            r.details += ["  " + line for line in out.getvalue().splitlines()[:-1]
                          if not line.lstrip().startswith("PASS ")]
        r.failed = max(r.failed, 1)        # a failed run is at least 1 failure
    return r


def run_checker(script, lines):
    """The check=SCRIPT flag: SCRIPT (from the top of the tree) reads the
    stripped log and prints "ok WHAT" or "not ok WHAT: why" per check.
    Returns how many passed, and the failures."""
    out = subprocess.run([sys.executable, os.path.join(ROOT, script)], input="\n".join(lines),
                         capture_output=True, text=True).stdout.splitlines()
    misses = [line[len("not ok "):] for line in out if line.startswith("not ok ")]
    oks = sum(line.startswith("ok ") for line in out)
    return oks, misses if oks or misses else [f"printed no check: {out[-3:]!r}"]


def judge_run(cfg, status, lines, r, fail, log_misses, checks=(0, 0)):
    """A run= (or init=) boot: every RESULT line must parse, each
    assert=NAME[#N].KEY<=V flag hold, and QEMU end with 33 (every workload
    ran). Each RESULT line, each assertion, each log= check and each check
    of a check= script counts as a test; log_misses of those failed
    (checked of the scripts' passed)."""
    try:
        found = results.parse("\n".join(lines))
    except ValueError as e:
        fail(str(e))
        found = []
    errors = [e for e in (results.check(found, f[len("assert="):])
                          for f in cfg.flags if f.startswith("assert=")) if e]
    asserts = sum(f.startswith("assert=") for f in cfg.flags)
    if status == TIMEOUT_STATUS:
        pass
    elif status == PANIC or any("PANIC:" in line for line in lines):
        fail("kernel panic", panic_report(lines))
    elif status != (FAIL if "fails" in cfg.flags else 0 if "off" in cfg.flags else PASS):
        fail(f"exit status {status} (33: every workload ran, 35: some did not, "
             f"0: powered off)", tail(lines))
    for e in errors:
        fail(e)
    logs = sum(f.startswith("log=") for f in cfg.flags)
    r.passed = len(found) + asserts - len(errors) + logs - log_misses + checks[0]
    failures = len(errors) + log_misses + checks[1]
    r.failed = failures + (1 if r.verdict == "FAIL" and not failures else 0)
    return r


def run_config(cfg, elf, echo):
    """Build the ISO, boot it, judge it. Returns a Result."""
    try:
        return try_config(cfg, elf, echo)
    except (Exception, SystemExit) as e:   # e.g. no OVMF: fail this one only
        return Result("FAIL", str(e) or type(e).__name__, failed=1, details=[])


def keys_file(cfg):
    """The keys=FILE flag's file (from the top of the tree), or None."""
    keys = [f[len("keys="):] for f in cfg.flags if f.startswith("keys=")]
    return os.path.join(ROOT, keys[0]) if keys else None


def boot(cfg, iso, log, echo):
    """Boot the configuration's ISO in its emulator; the exit status."""
    keys = keys_file(cfg)
    if cfg.emu == "bochs":
        if keys:
            raise SystemExit("keys= needs QEMU: Bochs's serial input is not wired")
        o = bochs.parse_args(["--iso", iso] + cfg.opts)
        return bochs.boot(iso, o.smp, o.mem, o.cpu, o.ips, o.time0, cfg.timeout, log,
                          echo=echo, quiet=not echo)
    o = qemu.parse_args(["--iso", iso] + cfg.opts)
    return qemu.boot(iso, o.smp, o.mem, o.accel, o.machine, o.uefi, cfg.timeout, log,
                     extra=o.extra, echo=echo, quiet=not echo, stderr=subprocess.STDOUT,
                     interactive=False, typist=typist.Typist(typist.load(keys)) if keys else None)


def compare_runs(r, first, second):
    """The "same" flag: two boots' RESULT lines and scheduler traces must be
    identical. Each is one test in r."""
    texts = [read(first), read(second)]
    checks = [("RESULT lines", *([line for line in map(ktap.strip_prefix, t.splitlines())
                                  if line.startswith("RESULT ")] for t in texts))]
    try:
        checks.append(("scheduler traces", *(tracefile.extract(t).splitlines() for t in texts)))
    except ValueError as e:
        r.verdict, r.failed, r.reason = "FAIL", r.failed + 1, f"scheduler trace: {e}"
    for what, a, b in checks:
        if a == b and a:
            r.passed += 1
            continue
        r.verdict, r.failed = "FAIL", r.failed + 1
        r.reason = f"the two boots' {what} differ"
        diff = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        r.details += [f"  {what}: {len(a)} and {len(b)} lines; first difference at line {diff + 1}:",
                      f"    {a[diff] if diff < len(a) else '(none)'}",
                      f"    {b[diff] if diff < len(b) else '(none)'}"]


def read(path):
    with open(path, errors="replace") as f:
        return f.read()


def try_config(cfg, elf, echo):
    start = time.monotonic()
    if cfg.emu == "qemu" and qemu.parse_args(["--iso", "-"] + cfg.opts).accel == "kvm" \
            and qemu.kvm_problem():
        return Result("SKIP", f"KVM is not usable: {qemu.kvm_problem()}")
    for flag in cfg.flags:
        needed = os.path.join(os.path.dirname(os.path.abspath(elf)), flag[len("needs="):])
        if flag.startswith("needs=") and not os.path.exists(needed):
            return Result("SKIP", f"{needed} is not built")
    iso = os.path.join(ROOT, "build", "iso", cfg.name + ".iso")
    log = os.path.join(ROOT, "build", "test-logs", cfg.name + ".log")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    # Every test boot checks lock order (docs/debugging.md): a report is a
    # WARNING line, which fails nowarn configurations. First, so that a
    # configuration's own lockdep= wins.
    cmdline = ("lockdep=on " + cfg.cmdline).strip()
    mk = subprocess.run([os.path.join(TOOLS, "mkiso.sh"), elf, iso, cmdline],
                        capture_output=True, text=True)
    if mk.returncode != 0:
        return Result("FAIL", "mkiso.sh failed", failed=1,
                      details=["  " + line for line in mk.stderr.splitlines()])
    if stopping:
        return Result("SKIP", "interrupted")
    status = boot(cfg, iso, log, echo)
    r = judge(cfg, status, read(log))
    if "trace" in cfg.flags:
        tracecheck.check_boot(r, log, cfg.name)
    for flag in cfg.flags:
        if flag.startswith("linux="):
            linuxcompare.check(r, flag[len("linux="):], os.path.dirname(os.path.abspath(elf)),
                               read(log).splitlines(), os.path.dirname(log), keys_file(cfg))
    if "same" in cfg.flags and r.verdict == "PASS" and not stopping:
        again = os.path.join(ROOT, "build", "test-logs", cfg.name + ".again.log")
        second = judge(cfg, boot(cfg, iso, again, echo), read(again))
        if second.verdict != "PASS":
            r.verdict, r.reason, r.failed = "FAIL", f"the second boot: {second.reason}", r.failed + 1
        else:
            compare_runs(r, log, again)
    r.seconds = time.monotonic() - start
    return r


def summary_line(cfg, r):
    if r.verdict == "SKIP":
        return f"SKIP {cfg.name}: {r.reason}"
    n = r.passed + r.failed + r.skipped
    counts = f"{n} test{'s' if n != 1 else ''}"
    if r.failed:
        counts = f"{r.passed} passed, {r.failed} failed"
    if r.skipped:
        counts += f", {r.skipped} skipped"
    reason = f": {r.reason}" if r.reason else ""
    return f"{r.verdict} {cfg.name}{reason} ({counts}, {r.seconds:.1f} s)"


def run_order(configs, jobs):
    """The order in which run_configs starts the configurations: the file's
    with one emulator at a time; with more, those flagged alone first (each
    by itself), then the rest longest first (the timeout stands for the
    length), so that the last to finish are short ones."""
    if jobs <= 1:
        return list(configs)
    alone = [c for c in configs if "alone" in c.flags]
    rest = [c for c in configs if "alone" not in c.flags]
    return alone + sorted(rest, key=lambda c: -c.timeout)


def run_configs(configs, elf, jobs=1, echo=False, run=None):
    """Boot and judge each configuration, up to jobs emulators at once, but
    one flagged alone with no other of them (its bounds want the host's
    cores). Yields (cfg, Result) as each finishes. Ctrl-C or SIGTERM stops
    the emulators and raises KeyboardInterrupt. run(cfg, elf, echo) does one
    configuration (run_config; the tests pass their own)."""
    global stopping
    run = run or run_config
    pending = run_order(configs, jobs)
    cond = threading.Condition()
    state = {"running": 0, "alone": False}
    done = queue.Queue()

    def eligible(cfg):
        if "alone" in cfg.flags:
            return state["running"] == 0
        return not state["alone"]

    def worker():
        while True:
            with cond:
                while True:
                    if stopping or not pending:
                        return
                    cfg = next((c for c in pending if eligible(c)), None)
                    if cfg is not None:
                        break
                    cond.wait()
                pending.remove(cfg)
                state["running"] += 1
                state["alone"] = "alone" in cfg.flags
            try:
                r = run(cfg, elf, echo)
            except BaseException as e:         # reported, not lost with the thread
                r = Result("FAIL", f"{type(e).__name__}: {e}", failed=1, details=[])
            with cond:
                state["running"] -= 1
                state["alone"] = False
                cond.notify_all()
            done.put((cfg, r))

    def on_signal(signum, frame):
        raise KeyboardInterrupt
    old = signal.signal(signal.SIGTERM, on_signal) \
        if threading.current_thread() is threading.main_thread() else None
    threads = [threading.Thread(target=worker, daemon=True)
               for _ in range(max(1, min(jobs, len(configs))))]
    try:
        for t in threads:
            t.start()
        for _ in configs:
            yield done.get()
    except (KeyboardInterrupt, GeneratorExit):
        with cond:
            stopping = True
            cond.notify_all()
        emulator.kill_all()
        raise
    finally:
        if old is not None:
            signal.signal(signal.SIGTERM, old)
    for t in threads:
        t.join()


def main(argv=None):
    ap = argparse.ArgumentParser(description="Boot and judge the kernel test configurations.")
    ap.add_argument("--suite", choices=["default", "matrix", "all"], default="default")
    ap.add_argument("--only", help="comma-separated configuration names (any suite)")
    ap.add_argument("-j", "--jobs", type=int, default=1,
                    help="emulators at once (default 1); a configuration flagged alone "
                         "always runs by itself")
    ap.add_argument("--list", action="store_true", help="list the configurations")
    ap.add_argument("--elf", default=os.path.join(ROOT, "build", "leftmost.elf"))
    ap.add_argument("--configs", metavar="FILE", default=SUITES_FILE,
                    help="configuration list (default tests/kernel-suites.txt)")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="show the serial output (with --jobs 1)")
    a = ap.parse_args(argv)

    configs = load_configs(a.configs)
    if a.only:
        names = a.only.split(",")
        unknown = set(names) - {c.name for c in configs}
        if unknown:
            raise SystemExit(f"runtests: no configuration named {', '.join(sorted(unknown))}")
        configs = [c for c in configs if c.name in names]
    elif a.suite != "all":
        configs = [c for c in configs if c.suite == a.suite]
    if a.list:
        for c in configs:
            opts = shlex.join((["--emu", "bochs"] if c.emu == "bochs" else []) + c.opts)
            print(f"{c.name:12} {c.suite:8} {opts:24} {c.cmdline:20} "
                  f"{c.expect} ({c.timeout:g} s)")
        return 0
    if not os.path.exists(a.elf):
        raise SystemExit(f"runtests: {a.elf} not found (build the kernel first: make)")

    alone = " (those flagged alone by themselves)" if a.jobs > 1 else ""
    print(f"runtests: {len(configs)} configuration(s), {a.jobs} at a time{alone}, "
          f"logs in build/test-logs/", flush=True)
    passed = failed = skipped = skipped_configs = 0
    echo = a.verbose and a.jobs == 1
    try:
        for cfg, r in run_configs(configs, a.elf, a.jobs, echo):
            print(summary_line(cfg, r))
            for line in r.details or []:
                print(f"    {line}")
            sys.stdout.flush()
            passed, failed = passed + r.passed, failed + r.failed
            skipped += r.skipped
            skipped_configs += r.verdict == "SKIP"
    except KeyboardInterrupt:
        print("runtests: interrupted", file=sys.stderr)
        return 130
    if skipped or skipped_configs:
        print(f"skipped (not counted below): {skipped} tests, "
              f"{skipped_configs} configurations")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
