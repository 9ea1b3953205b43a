"""What the tests of the ring-3 workloads (user/workloads/) and of the
benchmarks (user/bench/) share, run on this host's Linux: where the
programs are, and Workload, the base of their tests.

BIN is the directory of the built programs (default build/user/workloads),
BENCH_BIN that of user/bench/'s benchmarks, which share their helpers
(default build/user/bench); a program not built there is skipped. Each one
is checked for a RESULT line with every key and plausible, self-consistent
figures, for status 2 and the usage on a bad word, and for leaving no
process behind: a test module that imports setUpModule and tearDownModule
from here makes its process the "subreaper" of everything it starts, so a
child a workload failed to reap, or left running, is re-parented here and
found. The bounds are loose: the host is small, and other programs may
share its CPUs (time limits grow with the load, see tools/testproc.py).
"""

import ctypes
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import testproc  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("BIN", os.path.join(ROOT, "build", "user", "workloads"))
BENCH_BIN = os.environ.get("BENCH_BIN", os.path.join(ROOT, "build", "user", "bench"))
PR_SET_CHILD_SUBREAPER = 36
NOBODY = 65534
CPUS = len(os.sched_getaffinity(0))
OTHER_CPU = "1" if CPUS > 1 else "0"


def set_subreaper(on):
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def setUpModule():
    set_subreaper(True)


def tearDownModule():
    set_subreaper(False)             # the other tests of a discover run keep init's


def children_of(parent):
    """The processes whose parent is parent (zombies too)."""
    pids = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except (FileNotFoundError, ProcessLookupError):
            continue                 # it has just been reaped
        # pid (comm) state ppid ...: comm may hold spaces, so split after ')'.
        if int(stat.rsplit(")", 1)[1].split()[1]) == parent:
            pids.append(int(entry))
    return pids


def reap(pids):
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass


def comm(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except (FileNotFoundError, ProcessLookupError):
        return None


def started(parent, children, hogs):
    """Waits until parent has its children, hogs of them past the gate that
    starts a run (named "hog" then): every child has set itself up, so each
    one dies of its parent's death, none of finding it gone (status 1)."""
    deadline = time.monotonic() + testproc.budget(5)
    while time.monotonic() < deadline:
        pids = children_of(parent)
        if len(pids) == children and sum(comm(pid) == "hog" for pid in pids) == hogs:
            return pids
        time.sleep(0.02)
    raise AssertionError(f"{parent} did not start {children} children, {hogs} hogs: {children_of(parent)}")


def as_nobody():
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)


def world_searchable(path):
    """Whether every directory above path lets anybody through."""
    path = os.path.dirname(os.path.abspath(path))
    while True:
        if not os.stat(path).st_mode & 0o001:
            return False
        if path == "/":
            return True
        path = os.path.dirname(path)


def fifo_allowed():
    """Whether a process of ours may become SCHED_FIFO (root alone is not
    enough in a container without CAP_SYS_NICE)."""
    probe = "import os; os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))"
    return subprocess.run([sys.executable, "-c", probe], capture_output=True).returncode == 0


class Workload(unittest.TestCase):
    """Runs programs and checks, after every test, that none left a process."""
    bin = BIN                        # where the programs are

    def tearDown(self):
        left = children_of(os.getpid())
        reap(left)
        self.assertEqual(left, [], "processes left behind")

    def check_bad_words(self, cases, more_words):
        """cases: {program: (key, "low..high", a value just outside)}; each of
        those, an empty value, a bogus key and more_words (formats of key and
        KEY) print the usage and exit 2."""
        for name, (key, span, outside) in cases.items():
            with self.subTest(name=name):
                low, high = span.split("..")
                err = self.assert_usage(name, f"{key}={outside}")
                self.assertIn(f"{key} takes a whole number from {low} to {high}", err)
                self.assertIn(f"  {key}={span}  ", err)
                for word in (f"{key}=", "bogus=1", *(w.format(key=key, KEY=key.upper()) for w in more_words)):
                    self.assert_usage(name, word)

    def check_offline_cpu(self, programs):
        """programs: (name, key) pairs; a CPU past the last online one is an error (exit 1)."""
        for name, key in programs:
            with self.subTest(name=name):
                err = self.run_program(name, f"{key}={CPUS}", status=1).stderr
                self.assertIn(f"{name}: {key}={CPUS}: CPUs 0 to {CPUS - 1} are online", err)

    def path_of(self, name):
        path = os.path.join(self.bin, name)
        if not os.access(path, os.X_OK):
            self.skipTest(f"{path} is not built")
        return path

    def path_for_nobody(self, name):
        """A copy of the program that nobody can run: the tree may sit in a
        directory only its owner enters (a clone in mktemp -d, or in /root).
        In a directory of 0755 made for it, removed when the test ends."""
        where = tempfile.mkdtemp(prefix="leftmost-nobody-")
        self.addCleanup(shutil.rmtree, where)
        os.chmod(where, 0o755)
        if not world_searchable(where):
            self.skipTest(f"nobody cannot reach {where}: a directory above it is closed to others")
        path = shutil.copy(self.path_of(name), where)
        os.chmod(path, 0o755)
        return path

    def run_program(self, name, *words, status=0, path=None, **kwargs):
        argv = [path or self.path_of(name), *words]
        proc = testproc.run(argv, capture_output=True, text=True, timeout=30, **kwargs)
        self.assertEqual(proc.returncode, status, f"{name} {' '.join(words)}: {proc.stderr}")
        return proc

    def run_as_nobody(self, name, *words, status=0):
        try:
            return self.run_program(name, *words, status=status, path=self.path_for_nobody(name),
                                    preexec_fn=as_nobody)
        except PermissionError as e:     # /tmp mounted noexec, say
            self.skipTest(f"nobody cannot run a copy of {name}: {e}")

    def result(self, name, *words):
        """The RESULT line's keys and values, as strings."""
        lines = self.run_program(name, *words).stdout.splitlines()
        self.assertEqual(len(lines), 1, lines)
        fields = lines[0].split()
        self.assertEqual(fields[:2], ["RESULT", f"name={name}"])
        return dict(field.split("=", 1) for field in fields[2:])

    def assert_keys(self, r, keys):
        self.assertEqual(list(r), keys.split())

    def assert_usage(self, name, word):
        err = self.run_program(name, word, status=2).stderr
        self.assertIn(f"usage: {name} ", err)
        return err


def window_ms(ms):
    """A measuring window of ms on an idle host, as long as a busy host
    needs to give the programs as many turns on the CPU (up to ten times)."""
    return int(ms * min(10, testproc.slowdown()))


def floats(text):
    return [float(x) for x in text.split(",")]


class Quiet(Workload):
    """Also: a run that succeeds says nothing on stderr."""

    def run_program(self, name, *words, status=0, **kwargs):
        proc = super().run_program(name, *words, status=status, **kwargs)
        if status == 0:
            self.assertEqual(proc.stderr, "", f"{name} {' '.join(words)}")
        return proc
