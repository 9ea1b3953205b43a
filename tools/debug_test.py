#!/usr/bin/env python3
"""make debug-test: the GDB helpers, checked against the kernel under QEMU.

  tools/debug_test.py [--elf PATH] [--timeout SECONDS] [-v]

Boots the kernel (TCG, 4 CPUs, demo=cfs) paused with a gdb stub on a free
port and runs GDB in batch mode: tools/gdb/gdbinit, `lm-connect PORT`
(which stops in kmain), then tools/gdb/selftest.py, whose checks print TAP
style "ok N - ..." / "not ok N - ..." lines and a "debug-test: P passed,
F failed" summary. Passes only if that summary is there with no failure
and GDB printed no Python error. GDB's whole output goes to
debug-test.gdb.log and the kernel's serial output to debug-test.serial.log,
both next to the ELF (build/ by default). Exit status 1 on failure.
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
CMDLINE = "demo=cfs"        # hogs, a sleeper and an RT task on every CPU: a busy pick path


def free_port():
    """A TCP port nobody listens on now (another QEMU may hold 1234)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_session(elf, iso, timeout, out_dir):
    """Boot QEMU paused, run the GDB session; return GDB's output."""
    port = free_port()
    qemu = subprocess.Popen(
        [sys.executable, os.path.join(ROOT, "tools", "qemu.py"), "--iso", iso, "--accel", "tcg",
         "--smp", "4", "--gdb", str(port), "--paused", "--timeout", str(timeout + 10),
         "--log", os.path.join(out_dir, "debug-test.serial.log")],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # -nx: no ~/.gdbinit, so the session is the same on every machine.
        gdb = subprocess.run(
            ["gdb", "-q", "-batch", "-nx", elf, "-x", "tools/gdb/gdbinit",
             "-ex", f"lm-connect {port}", "-x", "tools/gdb/selftest.py", "-ex", "kill"],
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
    iso = os.path.join(out_dir, "iso", "debug-test.iso")
    subprocess.run([os.path.join(ROOT, "tools", "mkiso.sh"), elf, iso, CMDLINE], check=True)
    start = time.monotonic()
    out = run_session(elf, iso, a.timeout, out_dir)
    seconds = time.monotonic() - start
    log = os.path.join(out_dir, "debug-test.gdb.log")
    with open(log, "w") as f:
        f.write(out)
    if a.verbose:
        print(out)
    passed, failed, problems = judge(out)
    for p in problems:
        print(f"debug-test: {p}")
    verdict = "PASS" if not problems else "FAIL"
    print(f"debug-test: {verdict}: {passed} passed, {failed} failed in {seconds:.1f} s "
          f"(GDB's output: {os.path.relpath(log, ROOT)})")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
