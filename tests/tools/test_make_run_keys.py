"""make run on a pseudo-terminal, as a person's terminal is: Ctrl-C, Ctrl-Z
and Ctrl-\\ reach the program in the foreground in the guest, QEMU lives on,
and Ctrl-A X then leaves it (README.md, "Running it").

The shell test of tests/kernel-suites.txt types through a pipe, where the
host's terminal plays no part; here the host's line discipline is the one a
person has (ISIG on), so a key it turned into a signal would end make and
QEMU ("terminating on signal 2") instead of reaching the guest.

Boots QEMU once (about 15 s under TCG, after make has built the kernel if
it had to); everything it starts is in one process group, killed and reaped
whatever happens.
"""

import errno
import os
import pty
import re
import select
import signal
import subprocess
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUDGET = 180                    # seconds for one boot, from make run to its end
PROMPT = "$ "


class Terminal:
    """A program run on a new pseudo-terminal, as its controlling terminal
    and in the foreground, with the settings a terminal starts with."""

    def __init__(self, argv, env):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:                       # the child: a session of its own
            try:
                os.chdir(ROOT)
                os.execvpe(argv[0], argv, env)
            finally:
                os._exit(127)
        self.seen = ""                          # all output so far
        self.at = 0                             # where the next expect() looks from
        self.status = None
        self.deadline = time.monotonic() + BUDGET

    def read(self, timeout):
        """Read what comes within timeout seconds; False at the end (EOF)."""
        ready, _, _ = select.select([self.fd], [], [], max(0, timeout))
        if not ready:
            return True
        try:
            data = os.read(self.fd, 4096)
        except OSError as e:                    # EIO: the other side has closed
            if e.errno != errno.EIO:
                raise
            data = b""
        self.seen += data.decode("latin-1")
        return bool(data)

    def expect(self, pattern, seconds=30):
        """Wait until the output after the last match matches the regular
        expression pattern; return the match. Fails with the output's tail."""
        end = min(time.monotonic() + seconds, self.deadline)
        while True:
            m = re.compile(pattern).search(self.seen, self.at)
            if m:
                self.at = m.end()
                return m
            if time.monotonic() >= end or not self.read(end - time.monotonic()):
                raise AssertionError(f"waited for {pattern!r}; the terminal shows, at its end:\n"
                                     + self.seen[-1500:])

    def type(self, keys):
        os.write(self.fd, keys.encode("latin-1"))

    def alive(self):
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
        return self.status is None

    def wait(self, seconds):
        """The exit status once it has ended (output drained); None if not in time."""
        end = time.monotonic() + seconds
        while self.alive() and time.monotonic() < end:
            self.read(0.2)
        return self.status

    def close(self):
        """Kill the process group (make, python, QEMU) and reap make."""
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if self.status is None:
            os.waitpid(self.pid, 0)
        os.close(self.fd)


def build_kernel():
    """Build what make run boots, beforehand and in parallel, so that the
    boots' time limits time boots (make run itself builds it too, but
    outside make's jobserver at one job at a time)."""
    build = os.environ.get("BUILD", "build")
    subprocess.run(["make", "--no-print-directory", f"-j{os.cpu_count() or 2}",
                    f"{build}/leftmost.elf", f"{build}/initrd.cpio"], cwd=ROOT, env=make_env(),
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=True, timeout=1800)


def make_env():
    """The environment of a person's shell: no make of ours around it."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
    env["TERM"] = "xterm"
    return env


class MakeRunKeys(unittest.TestCase):
    def test_job_control_keys_reach_the_guest(self):
        build_kernel()
        build = os.environ.get("BUILD", "build")
        t = Terminal(["make", "--no-print-directory", "run", "SMP=2", "CMDLINE=demo=none",
                      f"ISO={build}/iso/make-run-keys.iso"], make_env())
        try:
            t.expect(r"Ctrl-T h lists", BUDGET)
            t.expect(re.escape(PROMPT), 60)
            # Ctrl-C: sleep ends by SIGINT (status 130), the shell prompts again.
            t.type("sleep 100\r")
            time.sleep(1)                       # sleep is in the foreground, in nanosleep
            t.type("\x03")
            t.expect(re.escape(PROMPT))
            t.type("echo after-C $?\r")
            t.expect(r"after-C 130")
            # Ctrl-\: SIGQUIT, which the shell reports.
            t.type("sleep 100\r")
            time.sleep(1)
            t.type("\x1c")
            t.expect(r"Quit")
            t.type("echo after-Q $?\r")
            t.expect(r"after-Q 131")
            # Ctrl-Z: stopped, a job the shell lists; then ended from the shell.
            t.type("sleep 100\r")
            time.sleep(1)
            t.type("\x1a")
            t.expect(r"\[1\]\+\s+Stopped\s+sleep 100")
            t.type("jobs\r")
            t.expect(r"\[1\]\+\s+Stopped\s+sleep 100")
            t.type("fg\r")
            t.expect(r"sleep 100")
            time.sleep(1)
            t.type("\x03")
            t.expect(re.escape(PROMPT))
            t.type("echo after-fg $?\r")
            t.expect(r"after-fg 130")
            t.type('echo "ali""ve"\r')
            t.expect(r"\nalive\r")
            self.assertTrue(t.alive(), "make run ended")
            self.assertNotIn("terminating on signal", t.seen)
            # The way out: Ctrl-A X ends QEMU, and make run with status 0.
            t.type("\x01x")
            self.assertEqual(t.wait(30), 0, "make run's status after Ctrl-A X; the terminal "
                             "shows:\n" + t.seen[-800:])
        finally:
            t.close()


if __name__ == "__main__":
    unittest.main()
