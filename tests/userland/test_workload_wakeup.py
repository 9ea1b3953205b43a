"""Tests of the ring-3 workloads that measure wake-ups and waits, run on
this host's Linux: wakeup (a periodic sleeper beside hogs), pingpong (a
byte's round trip over pipes), chew (a probe's gaps off the CPU), ring_test
(a token around a ring of processes) and hackbench (senders and receivers
over pipes):

    BIN=/tmp/wl python3 tests/userland/test_workload_wakeup.py

BIN is the directory of the built programs (default build/user/workloads;
workload.py says more); a program not built there is skipped. The runs are
short and the bounds loose: the host is small, and other programs may
share its CPUs.
"""
import os
import signal
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import testproc  # noqa: E402
from workload import BIN, CPUS, OTHER_CPU, Quiet, Workload, fifo_allowed, started, window_ms  # noqa: E402
# Each test module of the workloads makes its process the subreaper of all it starts.
from workload import setUpModule, tearDownModule  # noqa: E402,F401


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


class Chew(Quiet):
    def test_gaps_and_runs(self):
        # A gap is a wait between two of its turns: a busy host gives it fewer a second.
        ms = window_ms(400)
        r = self.result("chew", "hogs=3", f"ms={ms}", f"cpu={OTHER_CPU}")
        self.assert_keys(r, "cpu hogs ms gaps out_avg_us out_p50_us out_max_us ran_avg_us ran_p50_us "
                            "per_avg_us share")
        self.assertEqual((r["cpu"], r["hogs"], r["ms"]), (OTHER_CPU, "3", str(ms)))
        us = {k: float(v) for k, v in r.items() if k.endswith("_us")}
        self.assertGreater(int(r["gaps"]), 4)
        self.assertLessEqual(us["out_p50_us"], us["out_max_us"])
        self.assertLessEqual(us["out_avg_us"], us["out_max_us"])
        self.assertGreater(us["out_p50_us"], 200)               # the threshold
        self.assertAlmostEqual(us["per_avg_us"], us["out_avg_us"] + us["ran_avg_us"],
                               delta=0.2 * us["per_avg_us"])
        self.assertTrue(0 < float(r["share"]) < 0.35, r)      # 1/4 is fair

    def test_alone_it_runs_on(self):
        r = self.result("chew", "hogs=0", "ms=50", "threshold_us=1000000")
        self.assertEqual((r["gaps"], r["out_max_us"], r["share"]), ("0", "0.0", "1.0000"))


class RingTest(Quiet):
    KEYS = "cpu tasks hogs work_us ms hops hops_per_s ring_share hog_share fair hog_ratio max_wait_us via"

    def check(self, cpu, fair):
        r = self.result("ring_test", "tasks=20", "ms=400", "warmup_ms=100", "work_us=20", f"cpu={cpu}")
        self.assert_keys(r, self.KEYS)
        self.assertEqual((r["cpu"], r["tasks"], r["fair"], r["via"]), (cpu, "20", fair, "pipe"))
        hops = int(r["hops"])
        self.assertGreater(hops, 40)
        # Over the interval as it was: at least the 400 ms asked for.
        self.assertTrue(hops / 0.8 < int(r["hops_per_s"]) <= hops / 0.4 + 1, r)
        ring, hog = float(r["ring_share"]), float(r["hog_share"])
        self.assertGreater(ring, hops * 20e-6 / 0.4)     # 20 us of work a hop
        self.assertGreater(hog, 0)
        self.assertAlmostEqual(float(r["hog_ratio"]), hog / float(fair), delta=0.002)
        self.assertLessEqual(ring + hog, 1.05 * (1 if cpu != "-1" else CPUS))
        self.assertGreater(float(r["max_wait_us"]), 0)

    def test_one_cpu(self):
        self.check("0", "0.5000")

    def test_not_pinned(self):
        self.check("-1", f"{min(1, CPUS / 2):.4f}")

    def test_without_hogs(self):
        r = self.result("ring_test", "tasks=2", "hogs=0", "ms=100", "warmup_ms=0")
        self.assert_keys(r, "cpu tasks hogs work_us ms hops hops_per_s ring_share max_wait_us via")

    def test_killed_from_outside_the_ring_dies_too(self):
        path = os.path.join(BIN, "ring_test")
        if not os.access(path, os.X_OK):
            self.skipTest(f"{path} is not built")
        proc = testproc.start([path, "tasks=50", "hogs=2", "ms=60000"], stdout=subprocess.DEVNULL)
        self.addCleanup(testproc.end, proc)
        ring_and_hogs = started(proc.pid, 52, hogs=2)
        proc.kill()
        proc.wait()
        for pid in ring_and_hogs:       # re-parented here: each one's end is ours to see
            _, status = os.waitpid(pid, 0)
            self.assertEqual(os.waitstatus_to_exitcode(status), -signal.SIGKILL)


class Hackbench(Quiet):
    def test_messages(self):
        r = self.result("hackbench", "groups=2", "fds=10", "loops=20", "datasize=64")
        self.assert_keys(r, "groups fds tasks loops datasize messages time_ms via switches switches_per_message idle_share")
        self.assertEqual((r["tasks"], r["messages"], r["via"]), ("40", str(2 * 10 * 10 * 20), "pipe"))
        self.assertTrue(0 < float(r["time_ms"]) < 20000, r)
        # Each receiver blocks at least once, so at least a switch each (the host's others count too).
        self.assertGreaterEqual(int(r["switches"]), 20, r)
        # Printed to two places: half a unit off at most (500 switches print 0.12).
        self.assertAlmostEqual(float(r["switches_per_message"]), int(r["switches"]) / 4000, delta=0.00501)
        self.assertTrue(0 <= float(r["idle_share"]) <= 1, r)

    def test_too_many_processes(self):
        err = self.run_program("hackbench", "groups=11", "fds=100", "loops=1", status=1).stderr
        self.assertIn("hackbench: groups=11 fds=100 make 2200 processes; at most 2000", err)


if __name__ == "__main__":
    unittest.main()
