"""The `linux=NAME` check of tools/runtests.py: the program tests/user/NAME.c,
run on leftmost by an init=/tests/NAME boot, must print what the very same
binary prints on the host's Linux kernel, line for line.

Each program prints its cases as lines that start with "NAME: "; only those
are compared (the console also carries the kernel's log). Each line that
matches counts as a passed test; the first that differs fails, with both
versions shown. The host's run is kept in build/test-logs/NAME.linux.txt.

A program that tests the terminal is typed at (keys=FILE, tools/typist.py):
on leftmost at the serial console, on the host at a pseudo-terminal that
is its controlling terminal, as a session leader, as leftmost's first
program is.
"""

import os
import pty
import select
import subprocess
import time

import ktap
import typist

TIMEOUT = 120


def case_lines(name, text_lines):
    prefix = name + ": "
    return [line.rstrip("\r") for line in text_lines if line.startswith(prefix)]


def typed_run(binary, keys):
    """The program's output on a pseudo-terminal, typed at as keys says."""
    t = typist.Typist(typist.load(keys))
    pid, master = pty.fork()
    if pid == 0:
        try:
            os.execv(binary, [binary])
        finally:
            os._exit(127)
    out = b""
    deadline = time.monotonic() + TIMEOUT
    try:
        while time.monotonic() < deadline:
            typed = t.keys()
            if typed:
                os.write(master, typed)
            if not select.select([master], [], [], 0.1)[0]:
                continue
            try:
                data = os.read(master, 4096)
            except OSError:               # EIO: the program and its children are gone
                data = b""
            if not data:
                break
            out += data
            t.heard(data)
        else:
            raise RuntimeError(f"{binary} ran past {TIMEOUT} s on the host "
                               f"(the typist waits for {t.waiting_for()})")
    finally:
        os.close(master)
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
    return out.decode("utf-8", "replace")


def host_run(binary, keys=None):
    """The program's output on the host's Linux, or raise RuntimeError."""
    if not os.path.exists(binary):
        raise RuntimeError(f"{binary} is not built")
    if keys:
        return typed_run(binary, keys)
    try:
        out = subprocess.run([binary], capture_output=True, text=True, timeout=TIMEOUT,
                             stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"{binary} ran past {TIMEOUT} s on the host")
    return out.stdout


def check(r, name, build_dir, log_lines, log_dir, keys=None):
    """Compare; add to r (runtests' Result) one test per line."""
    binary = os.path.join(build_dir, "user", "tests", name)
    try:
        host_text = host_run(binary, keys)
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
