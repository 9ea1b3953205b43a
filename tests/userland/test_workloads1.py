#!/usr/bin/env python3
"""Tests of the ring-3 workloads pingpong, spawn, fairness, smpbalance, wakeup
and massive_intr (user/workloads/), run on this host's Linux:

    BIN=/tmp/wl python3 tools/test_workloads1.py

BIN is the directory of the built programs (default build/user/workloads),
BENCH_BIN that of user/bench/'s benchmarks, which share their helpers
(default build/user/bench); a program not built there is skipped. Each one
is checked for a RESULT line with every key and plausible, self-consistent
figures, for status 2 and the usage on a bad word, and for leaving no
process behind: this test process becomes the "subreaper" of everything it
starts, so a child a workload failed to reap, or left running, is
re-parented here and found. The bounds are loose: the host is small, and
other programs may share its CPUs (time limits grow with the load, see
tools/testproc.py).
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


class Pingpong(Workload):
    KEYS = "cpu_a cpu_b rounds elapsed_ms ns_per_roundtrip via"

    def check(self, cpu_b):
        # Its own cap on the time (10 s by default) as long as a busy host needs.
        max_ms = int(testproc.budget(10) * 1000)
        r = self.result("pingpong", "rounds=3000", "warmup=100", f"cpu_b={cpu_b}", f"max_ms={max_ms}")
        self.assert_keys(r, self.KEYS)
        self.assertEqual((r["cpu_a"], r["cpu_b"], r["rounds"], r["via"]), ("0", str(cpu_b), "3000", "pipe"))
        self.assertGreater(float(r["ns_per_roundtrip"]), 100)
        self.assertAlmostEqual(float(r["ns_per_roundtrip"]) * 3000 / 1e6, float(r["elapsed_ms"]), delta=0.2)

    def test_one_cpu(self):
        self.check(cpu_b=0)

    @unittest.skipIf(CPUS < 2, "one CPU")
    def test_two_cpus(self):
        self.check(cpu_b=1)

    def test_max_ms_cuts_the_rounds_short(self):
        r = self.result("pingpong", "rounds=1000000000", "warmup=0", "max_ms=20")
        rounds = int(r["rounds"])
        self.assertLess(rounds, 1000000000)
        self.assertEqual(rounds % 256, 0)    # the clock is read every 256 rounds
        self.assertLess(float(r["elapsed_ms"]), testproc.budget(2) * 1000)


class Spawn(Workload):
    def test_result(self):
        for cpu in (-1, 0):
            r = self.result("spawn", "count=200", "warmup=10", f"cpu={cpu}")
            self.assert_keys(r, "cpu count elapsed_ms us_per_spawn via")
            self.assertEqual((r["cpu"], r["count"], r["via"]), (str(cpu), "200", "fork"))
            self.assertGreater(float(r["us_per_spawn"]), 1)
            self.assertAlmostEqual(float(r["us_per_spawn"]) * 200 / 1e3, float(r["elapsed_ms"]), delta=0.2)


class Fairness(Workload):
    KEYS = "cpu hogs nice_last ms shares ideal max_dev cpu_max_dev ratio cpu_ratio ideal_ratio"

    def run_fairness(self, *words):
        r = self.result("fairness", f"ms={window_ms(400)}", "warmup_ms=100", *words)
        self.assert_keys(r, self.KEYS)
        shares, ideal = floats(r["shares"]), floats(r["ideal"])
        self.assertEqual(len(shares), int(r["hogs"]))
        self.assertEqual(len(ideal), int(r["hogs"]))
        self.assertAlmostEqual(sum(shares), 1, delta=0.001)
        worst = max(abs(s - i) / i for s, i in zip(shares, ideal))
        self.assertAlmostEqual(float(r["max_dev"]), worst, delta=0.002)
        self.assertLess(float(r["max_dev"]), 0.25)
        self.assertLess(float(r["cpu_max_dev"]), 0.25)
        return r

    def test_even_split(self):
        r = self.run_fairness("hogs=4")
        self.assertEqual(r["ideal"], "0.2500,0.2500,0.2500,0.2500")
        self.assertEqual(r["ideal_ratio"], "1.000")
        self.assertLess(abs(float(r["cpu_ratio"]) - 1), 0.5)

    def test_nice_weights(self):
        r = self.run_fairness("hogs=2", "nice_last=5", "cpu=1" if CPUS > 1 else "cpu=0")
        self.assertEqual((r["ideal"], r["ideal_ratio"]), ("0.7535,0.2465", "3.057"))
        self.assertGreater(float(r["cpu_ratio"]), 2.2)
        self.assertLess(float(r["cpu_ratio"]), 4.2)
        self.assertGreater(float(r["ratio"]), 2)

    @unittest.skipIf(os.geteuid() != 0, "needs root, to become nobody")
    def test_a_hog_that_cannot_start_spoils_the_run(self):
        err = self.run_as_nobody("fairness", "hogs=2", "nice_last=-5", "ms=100", "warmup_ms=10",
                                 status=1).stderr
        self.assertIn("ended early", err)

    def test_killed_from_outside_its_hogs_die_too(self):
        proc = testproc.start([self.path_of("fairness"), "hogs=3", "ms=60000"], stdout=subprocess.DEVNULL)
        self.addCleanup(testproc.end, proc)
        hogs = started(proc.pid, 3, hogs=3)
        proc.kill()
        proc.wait()
        for pid in hogs:             # re-parented here: each one's exit is ours to see
            _, status = os.waitpid(pid, 0)
            self.assertEqual(os.waitstatus_to_exitcode(status), -signal.SIGKILL)


class Smpbalance(Workload):
    def check(self, hogs, ideal):
        r = self.result("smpbalance", f"hogs={hogs}", "ms=400", "warmup_ms=100")
        self.assert_keys(r, "cpus hogs ms shares ideal max_dev min_share max_share iter_max_dev")
        self.assertEqual((r["cpus"], r["hogs"], r["ideal"]), (str(CPUS), str(hogs), ideal))
        shares = floats(r["shares"])
        self.assertEqual(len(shares), hogs)
        self.assertTrue(all(0 < s <= 1.02 for s in shares), shares)
        self.assertEqual((float(r["min_share"]), float(r["max_share"])), (min(shares), max(shares)))
        worst = max(abs(s - float(ideal)) / float(ideal) for s in shares)
        self.assertAlmostEqual(float(r["max_dev"]), worst, delta=0.002)
        self.assertLess(float(r["iter_max_dev"]), 0.5)

    def test_as_many_hogs_as_cpus(self):
        self.check(CPUS, "1.0000")

    def test_one_hog_more(self):
        self.check(CPUS + 1, f"{CPUS / (CPUS + 1):.4f}")


class Wakeup(Workload):
    KEYS = "policy prio cpu hogs_per_cpu hog_cpus period_us samples p50_us p99_us max_us mean_us overruns"

    def check(self, *words, policy="other", prio="0", hog_cpus="1"):
        r = self.result("wakeup", "samples=200", "warmup_ms=50", *words)
        self.assert_keys(r, self.KEYS)
        self.assertEqual((r["policy"], r["prio"], r["hog_cpus"], r["samples"], r["period_us"]),
                         (policy, prio, hog_cpus, "200", "1000"))
        p50, p99, top, mean = (float(r[k]) for k in ("p50_us", "p99_us", "max_us", "mean_us"))
        self.assertTrue(0 <= p50 <= p99 <= top, r)
        self.assertLessEqual(mean, top)
        self.assertLess(p50, 1000)
        self.assertLessEqual(int(r["overruns"]), 200)

    def test_one_loaded_cpu(self):
        self.check("hog_cpus=1")

    def test_idle(self):
        self.check("hogs_per_cpu=0", "nice=3", prio="3", hog_cpus=str(CPUS))

    @unittest.skipUnless(fifo_allowed(), "SCHED_FIFO is not allowed here (not root, or a container without CAP_SYS_NICE)")
    def test_fifo(self):
        self.check("hog_cpus=1", "fifo=1", "rt_prio=20", policy="fifo", prio="20")

    def test_fifo_refused(self):
        words = ("hog_cpus=1", "fifo=1")
        if os.geteuid() == 0:
            err = self.run_as_nobody("wakeup", *words, status=1).stderr
        else:
            err = self.run_program("wakeup", *words, status=1).stderr
        self.assertIn("cannot have policy=fifo prio=50", err)

    def test_too_many_hog_cpus(self):
        err = self.run_program("wakeup", f"hog_cpus={CPUS + 1}", status=1).stderr
        self.assertIn("CPUs are online", err)


class MassiveIntr(Workload):
    def test_result(self):
        r = self.result("massive_intr", "procs=4", "ms=500", "warmup_ms=100", "work_ms=4")
        self.assert_keys(r, "procs ms work_ms sleep_ms loops_per_ms min avg max spread")
        self.assertEqual((r["procs"], r["ms"], r["work_ms"], r["sleep_ms"]), ("4", "500", "4", "1"))
        lo, avg, hi = int(r["min"]), float(r["avg"]), int(r["max"])
        self.assertGreater(int(r["loops_per_ms"]), 1000)
        self.assertTrue(0 < lo <= avg <= hi, r)
        self.assertAlmostEqual(float(r["spread"]), hi / lo, delta=0.001)
        self.assertLess(hi / lo, 3)


class BadWords(Workload):
    """Every program: a bad value or key prints the usage and exits 2."""
    # A key of each program with its range, and a value just outside it.
    CASES = {
        "pingpong": ("rounds", "1..1000000000", "0"),
        "spawn": ("cpu", "-1..1023", "-2"),
        "fairness": ("hogs", "2..16", "99"),
        "smpbalance": ("hogs", "1..32", "33"),
        "wakeup": ("samples", "1..20000", "20001"),
        "massive_intr": ("procs", "1..1024", "1025"),
    }

    def test_bad_words(self):
        self.check_bad_words(self.CASES, ("{key}=12x", "{key}", "{KEY}=1"))

    def test_an_offline_cpu_is_an_error(self):
        self.check_offline_cpu((("pingpong", "cpu_b"), ("spawn", "cpu"), ("fairness", "cpu"), ("wakeup", "cpu")))


class Bench(Workload):
    """The benchmarks' RESULT lines, exactly as tools/bench_ring3.py reads them."""
    bin = BENCH_BIN

    def check(self, name, *words, keys="iterations ns_per_op cpus", cpus="1"):
        r = self.result(name, "iterations=50", *words)
        self.assert_keys(r, keys)
        self.assertEqual((r["iterations"], r["cpus"]), ("50", cpus))
        self.assertGreater(float(r["ns_per_op"]), 0)
        self.assertRegex(r["ns_per_op"], r"^\d+\.\d$")
        return r

    def test_lines(self):
        self.check("nullcall")
        r = self.check("clockcall", "syscall=1", keys="iterations ns_per_op cpus syscall")
        self.assertEqual(r["syscall"], "1")
        self.check("forkwait", cpus=str(CPUS))
        self.check("threadjoin", cpus=str(CPUS))
        keys = "iterations ns_per_op cpus cpu_a cpu_b"
        self.check("pipepingpong", keys=keys)
        if CPUS > 1:
            self.assertEqual(self.check("pipepingpong", "cpu_b=1", keys=keys, cpus="2")["cpu_b"], "1")

    def test_bad_words(self):
        for name in ("nullcall", "clockcall", "forkwait", "threadjoin", "pipepingpong"):
            with self.subTest(name=name):
                for word in ("iterations=0", "iterations=x", "bogus=1"):
                    err = self.run_program(name, word, status=2).stderr
                    self.assertIn("iterations=1..1000000000", err)


if __name__ == "__main__":
    unittest.main()
