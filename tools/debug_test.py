#!/usr/bin/env python3
"""make debug-test: the GDB helpers, checked against the kernel under QEMU.

  tools/debug_test.py [--elf PATH] [--timeout SECONDS] [-v]

Four sessions. Each boots the kernel (TCG, 4 CPUs) paused with a gdb stub
on a free port and runs GDB in batch mode: tools/gdb/gdbinit, `lm-connect
PORT` (which stops in kmain), then a script whose checks print TAP style
"ok N - ..." / "not ok N - ..." lines and a "debug-test: P passed, F
failed" summary (tools/gdb/checks.py). The first boots demo=cfs and runs
tools/gdb/selftest.py (the helpers on a busy pick path); the second boots
init=/bin/yield and runs tools/gdb/selftest_prog.py (from a program's
sched_yield() into the pick); the third and fourth boot demo=cfs with
sched=sd and sched=o1 and run tools/gdb/selftest_normal.py (lm-tree, lm-rq
and the others show that class's structures, not CFS's; a few seconds
each). Passes only if each summary is there with no failure and GDB
printed no Python error. GDB's whole output goes to
debug-test[-NAME].gdb.log and the kernel's serial output to
debug-test[-NAME].serial.log, next to the ELF (build/ by default). Exit
status 1 on failure.
"""

import argparse
import os
import re
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
# (name, kernel command line, GDB script, GDB commands run before the script)
SESSIONS = [
    ("", "demo=cfs", "tools/gdb/selftest.py", []),   # hogs, a sleeper and an RT task on every CPU
    ("-program", 'init="/bin/yield 1000000000"', "tools/gdb/selftest_prog.py", []),
    # The same demo under the other normal classes: the script learns which
    # one to expect from $lm_expect, not from the kernel it checks.
    ("-sd", "demo=cfs sched=sd", "tools/gdb/selftest_normal.py", ['set $lm_expect = "sd"']),
    ("-o1", "demo=cfs sched=o1", "tools/gdb/selftest_normal.py", ['set $lm_expect = "o1"']),
]


def free_port():
    """A TCP port nobody listens on now (another QEMU may hold 1234)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_session(elf, iso, timeout, out_dir, name, script, commands):
    """Boot QEMU paused, run the GDB script; return GDB's output."""
    port = free_port()
    qemu = subprocess.Popen(
        [sys.executable, os.path.join(ROOT, "tools", "qemu.py"), "--iso", iso, "--accel", "tcg",
         "--smp", "4", "--gdb", str(port), "--paused", "--timeout", str(timeout + 10),
         "--log", os.path.join(out_dir, f"debug-test{name}.serial.log")],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # -nx: no ~/.gdbinit, so the session is the same on every machine.
        gdb = subprocess.run(
            ["gdb", "-q", "-batch", "-nx", elf, "-x", "tools/gdb/gdbinit",
             "-ex", f"lm-connect {port}", *[arg for c in commands for arg in ("-ex", c)],
             "-x", script, "-ex", "kill"],
            cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, timeout=timeout)
        return gdb.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return out + f"\ndebug-test: GDB did not finish in {timeout:g} s\n"
    finally:
        qemu.terminate()            # qemu.py stops QEMU on SIGTERM
        qemu.wait(15)


def judge(out):
    """(passed, failed, problems) from the session's output."""
    oks = re.findall(r"^ok \d+ - ", out, re.M)
    not_oks = re.findall(r"^not ok \d+ - .*$", out, re.M)
    summary = re.search(r"^debug-test: (\d+) passed, (\d+) failed$", out, re.M)
    problems = list(not_oks)
    if not summary:
        problems.append("no summary line: the session stopped early")
    elif int(summary[1]) != len(oks) or int(summary[2]) != len(not_oks):
        problems.append("the summary does not match the ok/not ok lines")
    for bad in ("Python Exception", "Traceback", "Error occurred in Python"):
        if bad in out:
            problems.append(f"GDB printed '{bad}': a helper raised an unexpected error")
    return len(oks), len(not_oks), problems


def main(argv=None):
    ap = argparse.ArgumentParser(description="Check the GDB helpers against the kernel under QEMU.")
    ap.add_argument("--elf", default=os.path.join(BUILD, "leftmost.elf"))
    ap.add_argument("--timeout", type=float, default=90, help="for the whole GDB session (default 90)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print GDB's whole output")
    a = ap.parse_args(argv)

    # Next to the ELF: mkiso.sh keeps an ISO that is newer than the ELF, so
    # two ELFs (gcc's, clang's) must not share one.
    elf = os.path.abspath(a.elf)
    out_dir = os.path.dirname(elf)
    failed_any = False
    total_passed = total_failed = 0
    for name, cmdline, script, commands in SESSIONS:
        iso = os.path.join(out_dir, "iso", f"debug-test{name}.iso")
        subprocess.run([os.path.join(ROOT, "tools", "mkiso.sh"), elf, iso, cmdline], check=True)
        start = time.monotonic()
        out = run_session(elf, iso, a.timeout, out_dir, name, script, commands)
        seconds = time.monotonic() - start
        log = os.path.join(out_dir, f"debug-test{name}.gdb.log")
        with open(log, "w") as f:
            f.write(out)
        if a.verbose:
            print(out)
        passed, failed, problems = judge(out)
        for p in problems:
            print(f"debug-test: {p}")
        verdict = "PASS" if not problems else "FAIL"
        failed_any |= bool(problems)
        total_passed += passed
        total_failed += max(failed, 1 if problems else 0)
        print(f"debug-test: {verdict}: {os.path.basename(script)} ({cmdline}): {passed} passed, {failed} failed "
              f"in {seconds:.1f} s (GDB's output: {os.path.relpath(log, ROOT)})")
    print(f"debug-test: {total_passed} passed, {total_failed} failed")   # the line make test counts
    return 1 if failed_any else 0


if __name__ == "__main__":
    sys.exit(main())
