"""The `linux=NAME` check of tools/runtests.py: the program user/tests/NAME.c,
run on leftmost by an init=/tests/NAME boot, must print what the very same
binary prints on the host's Linux kernel, line for line.

Each program prints its cases as lines that start with "NAME: "; only those
are compared (the console also carries the kernel's log). Each line that
matches counts as a passed test; the first that differs fails, with both
versions shown. The host's run is kept in build/test-logs/NAME.linux.txt.
"""

import os
import subprocess

import ktap

TIMEOUT = 120


def case_lines(name, text_lines):
    prefix = name + ": "
    return [line.rstrip("\r") for line in text_lines if line.startswith(prefix)]


def host_run(binary):
    """The program's output on the host's Linux, or raise RuntimeError."""
    if not os.path.exists(binary):
        raise RuntimeError(f"{binary} is not built")
    try:
        out = subprocess.run([binary], capture_output=True, text=True, timeout=TIMEOUT,
                             stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"{binary} ran past {TIMEOUT} s on the host")
    return out.stdout


def check(r, name, build_dir, log_lines, log_dir):
    """Compare; add to r (runtests' Result) one test per line."""
    binary = os.path.join(build_dir, "user", "tests", name)
    try:
        host_text = host_run(binary)
    except RuntimeError as e:
        r.verdict, r.reason, r.failed = "FAIL", str(e), r.failed + 1
        return
    with open(os.path.join(log_dir, name + ".linux.txt"), "w") as f:
        f.write(host_text)
    linux = case_lines(name, host_text.splitlines())
    leftmost = case_lines(name, [ktap.strip_prefix(line) for line in log_lines])
    for i in range(max(len(linux), len(leftmost))):
        a = linux[i] if i < len(linux) else "(nothing)"
        b = leftmost[i] if i < len(leftmost) else "(nothing)"
        if a == b:
            r.passed += 1
            continue
        r.verdict, r.failed = "FAIL", r.failed + 1
        r.reason = f"line {i + 1} differs from Linux's"
        r.details += [f"  Linux:    {a}", f"  leftmost: {b}"]
        return
    if not linux:
        r.verdict, r.failed, r.reason = "FAIL", r.failed + 1, f"no '{name}: ' lines on Linux"
