"""Tests of /bin/demo and /bin/init (user/bin/demo.c, user/bin/init.c), run
on this host's Linux: python3 tests/userland/test_demo_init.py

The binaries come from the directory in $BIN (build/user/bin by default).
demo runs as it does on leftmost: its tables, the nice levels' shares of a
CPU, the keys on a terminal (a pseudo-terminal here, which it controls) and
its children gone when it ends. init runs with the programs it starts
replaced through INIT_DEMO and INIT_SH by small scripts that tell what
they were given: their arguments, and whether they had the terminal.
"""
import fcntl
import os
import pty
import re
import select
import signal
import subprocess
import sys
import tempfile
import termios
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import testproc  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, os.environ.get("BIN", "build/user/bin"))
DEMO, INIT = os.path.join(BIN, "demo"), os.path.join(BIN, "init")
HEADER = "  PID NAME            CPU POLICY    %CPU   RUNTIME(s)  WAKE-UP LATE avg/max (us)"
ROW = re.compile(r"^ *(\d+) (\S+) +(-?\d+) (\S+) +(\d+\.\d) +(\d+\.\d{3})  (-|\d+ / \d+)$")
CPUS = len(os.sched_getaffinity(0))


def setUpModule():
    missing = [p for p in (DEMO, INIT) if not os.access(p, os.X_OK)]
    if missing:
        raise AssertionError("no %s: build them first, or set BIN" % ", ".join(missing))


def tables(output):
    """The tables in demo's output: lists of rows (pid, name, cpu, policy,
    %cpu, runtime, late), each row checked against the columns' format."""
    found = []
    for line in output.splitlines():
        if line == HEADER:
            found.append([])
        elif found:
            m = ROW.match(line)
            if not m:
                raise AssertionError("not a row of the table: %r" % line)
            pid, name, cpu, policy, share, runtime, late = m.groups()
            found[-1].append((int(pid), name, int(cpu), policy, float(share), float(runtime), late))
    return found


def gone(pids):
    """Those of pids that are no more (they have been reaped)."""
    return [pid for pid in pids if not os.path.exists("/proc/%d" % pid)]


class OnATerminal:
    """A program whose controlling terminal is a pseudo-terminal's slave,
    in the foreground there, as a shell would start it."""

    def __init__(self, test, argv, env=None):
        self.master, self.slave = pty.openpty()
        test.addCleanup(os.close, self.master)
        test.addCleanup(os.close, self.slave)
        self.modes_before = termios.tcgetattr(self.slave)
        self.proc = testproc.start(argv, stdin=self.slave, stdout=self.slave, stderr=self.slave, env=env,
                                   preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        test.addCleanup(testproc.end, self.proc, session=True)     # init's shells too
        self.output = ""

    def read_until(self, done, timeout=10):
        """Reads what the program writes until done() or the timeout: done()."""
        deadline = time.monotonic() + testproc.budget(timeout)
        while not done() and time.monotonic() < deadline:
            if select.select([self.master], [], [], 0.05)[0]:
                self.output += os.read(self.master, 65536).decode(errors="replace").replace("\r\n", "\n")
        return done()

    def type(self, keys):
        os.write(self.master, keys)

    def wait(self, timeout):
        """Its exit status, reading meanwhile so that it never blocks on a full terminal."""
        self.read_until(lambda: self.proc.poll() is not None, timeout)
        return self.proc.poll()


class DemoTest(unittest.TestCase):
    def run_demo(self, *args):
        p = testproc.run([DEMO, *args], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=20)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout

    def test_cfs_nice_levels_share_a_cpu_by_weight(self):
        out = self.run_demo("cfs", "seconds=3")
        self.assertEqual(out.splitlines()[0],
                         "demo: cfs: %d tasks on %d CPUs; a table every second" % (6 * CPUS, CPUS))
        found = tables(out)
        self.assertGreaterEqual(len(found), 2)
        names = ["hog"] * 4 + ["interactive", "fifo-periodic"]
        woke = set()
        for table in found:
            self.assertEqual([row[1] for row in table], names * CPUS)
            pins = [cpu for cpu in sorted(os.sched_getaffinity(0)) for _ in names]
            self.assertEqual([row[2] for row in table], pins)
            for pid, name, cpu, policy, share, runtime, late in table:
                # A hog never sleeps; a sleeper that a busy host kept from
                # waking in a second has a "-" there, but not in every one.
                if name == "hog":
                    self.assertEqual(late, "-")
                elif late != "-":
                    woke.add(pid)
                self.assertIn(policy, ("FIFO/50", "OTHER/0") if name == "fifo-periodic" else
                              ("OTHER/0", "OTHER/5", "OTHER/-5"))
        self.assertEqual(woke, {row[0] for row in found[0] if row[1] != "hog"})
        # The hogs of the first CPU, by the nice level they could get, with
        # their shares summed over every table.
        shares = {}
        for table in found:
            for pid, name, cpu, policy, share, runtime, late in table[:4]:
                shares.setdefault(policy, []).append(share)
        average = {policy: sum(s) / len(s) for policy, s in shares.items()}
        self.assertIn("OTHER/5", average)
        # Weights 3121 : 1024 : 335: a factor of 3 from one level to the next.
        self.assertGreater(average["OTHER/0"], 1.5 * average["OTHER/5"], average)
        if "OTHER/-5" in average:           # below 0 takes privilege
            self.assertGreater(average["OTHER/-5"], 1.5 * average["OTHER/0"], average)
        self.assertEqual(gone(row[0] for row in found[0]), [row[0] for row in found[0]])

    def test_balance_has_a_hog_more_than_cpus(self):
        out = self.run_demo("seconds=2", "balance")
        self.assertEqual(out.splitlines()[0],
                         "demo: balance: %d tasks on %d CPUs; a table every second" % (CPUS + 1, CPUS))
        found = tables(out)
        self.assertEqual(len(found), 2)
        for table in found:
            self.assertEqual([(row[1], row[3], row[6]) for row in table], [("hog", "OTHER/0", "-")] * (CPUS + 1))

    def test_sigterm_ends_it_and_its_children(self):
        p = testproc.start([DEMO, "balance"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
        self.addCleanup(testproc.end, p)
        lines = [p.stdout.readline() for _ in range(CPUS + 3)]
        pids = [row[0] for row in tables("".join(lines))[0]]
        p.send_signal(signal.SIGTERM)
        self.assertEqual(p.wait(timeout=testproc.budget(5)), 128 + signal.SIGTERM)
        p.stdout.close()
        self.assertEqual(gone(pids), pids)

    def test_bad_arguments(self):
        for args in (["bogus"], ["seconds=x"], ["seconds=-1"], ["cfs", "balance"], ["seconds=1", "seconds=2"]):
            p = testproc.run([DEMO, *args], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=10)
            self.assertEqual(p.returncode, 2, args)
            self.assertIn("usage: demo [cfs|balance] [seconds=N]", p.stderr)
            self.assertEqual(p.stdout, "")


class DemoOnATerminalTest(unittest.TestCase):
    def stop_with(self, keys):
        term = OnATerminal(self, [DEMO])
        self.assertTrue(term.read_until(lambda: HEADER in term.output), term.output)
        self.assertIn("demo: cfs: %d tasks on %d CPUs; a table every second; q stops it "
                      "(Ctrl-T h: the kernel's debug keys)\n" % (6 * CPUS, CPUS), term.output)
        modes = termios.tcgetattr(term.slave)
        self.assertFalse(modes[3] & (termios.ICANON | termios.ECHO))
        self.assertTrue(modes[3] & termios.ISIG)
        self.assertTrue(term.read_until(lambda: term.output.count(HEADER) == 2), term.output)
        pids = [row[0] for row in tables(term.output[:term.output.rindex(HEADER)])[0]]
        self.assertEqual(len(pids), 6 * CPUS)
        started = time.monotonic()
        term.type(keys)
        self.assertEqual(term.wait(timeout=2), 0)
        self.assertLess(time.monotonic() - started, testproc.budget(2))
        self.assertEqual(termios.tcgetattr(term.slave), term.modes_before)
        self.assertEqual(gone(pids), pids)

    def test_q_stops_it(self):
        self.stop_with(b"q")

    def test_ctrl_c_stops_it(self):
        self.stop_with(b"\x03")


FAKE = """#!{python}
import os, sys
print("{name}", sys.argv[1:], "foreground" if os.tcgetpgrp(0) == os.getpgrp() == os.getpid() else "background",
      flush=True)
"""


def demo_on_this_command_line():
    """The demo init reads from /proc/cmdline: its last demo=, or cfs."""
    with open("/proc/cmdline") as f:
        names = [word[5:] for word in f.read().split() if word.startswith("demo=")]
    return names[-1] if names else "cfs"


class InitTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def fake(self, name):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            f.write(FAKE.format(python=sys.executable, name=name))
        os.chmod(path, 0o755)
        return path

    def init(self, demo, sh):
        return OnATerminal(self, [INIT], env=dict(os.environ, INIT_DEMO=demo, INIT_SH=sh))

    def test_it_greets_runs_the_demo_then_shell_after_shell(self):
        if demo_on_this_command_line() == "none":
            self.skipTest("this host's command line has demo=none")
        term = self.init(self.fake("fake-demo"), self.fake("fake-sh"))
        self.assertTrue(term.read_until(lambda: len(re.findall(r"^fake-sh .*\n", term.output, re.M)) >= 2),
                        term.output)
        screen = term.output[:term.output.index("fake-demo")]
        self.assertTrue(5 <= len(screen.strip().splitlines()) <= 8, screen)
        for words in ("leftmost", "demo", "q stops it", "shell", "help", "Ctrl-T h", "poweroff"):
            self.assertIn(words, screen)
        after = term.output[len(screen):].splitlines()
        self.assertEqual(after[:4], ["fake-demo ['%s'] foreground" % demo_on_this_command_line(),
                                     "fake-sh [] foreground",
                                     "init: the shell ended; here is a new one",
                                     "fake-sh [] foreground"])
        self.assertIsNone(term.proc.poll())

    def test_a_shell_that_cannot_run_is_not_tried_again(self):
        missing = os.path.join(self.dir.name, "missing")
        term = self.init(missing, missing)
        self.assertTrue(term.read_until(lambda: "waiting for ever\n" in term.output), term.output)
        self.assertIn("init: cannot run %s: No such file or directory\n" % missing, term.output)
        self.assertIn("init: cannot run %s: No such file or directory; waiting for ever\n" % missing, term.output)
        time.sleep(1)
        self.assertIsNone(term.proc.poll())
        with open("/proc/%d/stat" % term.proc.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])        # utime and stime
        self.assertLess(ticks / os.sysconf("SC_CLK_TCK"), 0.2)

    def test_arguments_are_refused(self):
        p = testproc.run([INIT, "x"], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=10)
        self.assertEqual(p.returncode, 2)
        self.assertEqual(p.stderr, "usage: init\n")


if __name__ == "__main__":
    unittest.main()
