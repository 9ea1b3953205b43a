#!/usr/bin/env python3
"""Tests of the ring-3 workloads schedcost, fiftyp, thud, chew, ring_test and
hackbench (user/workloads/), run on this host's Linux:

    BIN=/tmp/wl python3 tools/test_workloads2.py

BIN is the directory of the built programs (default build/user/workloads);
a program not built there is skipped. The harness is test_workloads1's: this
process becomes the subreaper of all it starts, and after every test no
process may be left. Each program is checked for its RESULT keys with
plausible, self-consistent figures and nothing on stderr, and for status 2
and the usage on a bad word (among them the parameters of the kernel-task
versions that the programs dropped: depth, reps). The runs are short and
the bounds loose: the host is small, and other programs may share its CPUs
(then every share here shrinks). About 5 s in all.
"""

import os
import signal
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import testproc  # noqa: E402
from test_workloads1 import BIN, CPUS, Workload, floats, setUpModule, started, window_ms  # noqa: F401

OTHER_CPU = "1" if CPUS > 1 else "0"


class Quiet(Workload):
    """Also: a run that succeeds says nothing on stderr."""

    def run_program(self, name, *words, status=0, **kwargs):
        proc = super().run_program(name, *words, status=status, **kwargs)
        if status == 0:
            self.assertEqual(proc.stderr, "", f"{name} {' '.join(words)}")
        return proc


class Schedcost(Quiet):
    def lines(self, *words):
        """Every RESULT line's keys and values."""
        out = self.run_program("schedcost", *words).stdout.splitlines()
        for line in out:
            self.assertTrue(line.startswith("RESULT name=schedcost "), line)
        return [dict(field.split("=", 1) for field in line.split()[2:]) for line in out]

    def test_every_level(self):
        # Up to 100 hogs and 500 switches: with 1,000 SCHED_IDLE hogs on one
        # CPU of a busy 2-core host, 2,000 switches took minutes, not seconds.
        # What the switches cost is the host's own scheduler's business here:
        # the kernel's bound is workloads3's (schedcost#5.ratio, 1,000 hogs).
        *levels, last = self.lines("switches=500", f"cpu={OTHER_CPU}", "max_tasks=100")
        self.assertEqual([list(r) for r in levels], [["tasks", "switch_ns"]] * 3)
        self.assertEqual([r["tasks"] for r in levels], ["0", "10", "100"])
        cost = [int(r["switch_ns"]) for r in levels]
        self.assertTrue(all(100 < c < 1000000 for c in cost), cost)
        self.assert_keys(last, "ratio switch_ns switches")
        self.assertEqual((last["switch_ns"], last["switches"]), (str(cost[0]), "500"))
        self.assertAlmostEqual(float(last["ratio"]), cost[-1] / cost[0], delta=0.006)

    def test_max_tasks_caps_the_levels(self):
        *levels, last = self.lines("switches=250", "max_tasks=99")
        self.assertEqual([r["tasks"] for r in levels], ["0", "10"])
        self.assertEqual(last["switches"], "200")      # whole batches of 100
        *levels, last = self.lines("switches=100", "max_tasks=0")
        self.assertEqual([r["tasks"] for r in levels], ["0"])
        self.assertEqual(last["ratio"], "1.00")


class Fiftyp(Quiet):
    def run_fiftyp(self, *words):
        return self.result("fiftyp", "ms=400", "warmup_ms=100", "probe_us=1000", *words)

    def assert_probe(self, r, samples_at_least):
        p50, p99, top = (float(r[k]) for k in ("probe_p50_us", "probe_p99_us", "probe_max_us"))
        self.assertTrue(0 <= p50 <= p99 <= top, r)
        self.assertGreaterEqual(int(r["probe_samples"]), samples_at_least)

    def test_copies_and_hogs(self):
        r = self.run_fiftyp()
        self.assert_keys(r, "cpu copies hogs run_ms sleep_ms ms shares fair copy_ratio mean_copy_ratio "
                            "hog_shares hog_ratio probe_p50_us probe_p99_us probe_max_us probe_samples")
        self.assertEqual((r["cpu"], r["copies"], r["hogs"], r["fair"]), ("0", "4", "2", "0.1667"))
        copies, hogs, fair = floats(r["shares"]), floats(r["hog_shares"]), 1 / 6
        self.assertEqual((len(copies), len(hogs)), (4, 2))
        self.assertTrue(0.05 < sum(copies) + sum(hogs) <= 1.02, r)
        self.assertAlmostEqual(float(r["copy_ratio"]), max(copies) / fair, delta=0.002)
        self.assertAlmostEqual(float(r["mean_copy_ratio"]), sum(copies) / 4 / fair, delta=0.002)
        self.assertAlmostEqual(float(r["hog_ratio"]), min(hogs) / fair, delta=0.002)
        self.assertLess(float(r["copy_ratio"]), 1.5)
        self.assertGreater(float(r["hog_ratio"]), 0)
        self.assert_probe(r, 100)       # 500 ms at one wake-up a ms, less the late ones

    def test_without_hogs_the_copies_get_their_demand(self):
        r = self.run_fiftyp("copies=1", "hogs=0", "run_ms=5", "sleep_ms=15", f"cpu={OTHER_CPU}")
        self.assertNotIn("hog_ratio", r)
        self.assertEqual(r["fair"], "0.2500")
        self.assertTrue(0 < float(r["shares"]) < 0.3, r)


class Thud(Quiet):
    def test_bursts(self):
        r = self.result("thud", "sleep_ms=100", "burn_ms=200", "rounds=2", "probe_us=1000")
        self.assert_keys(r, "cpu children hogs sleep_ms burn_ms rounds child_share fair share_ratio "
                            "max_stall_us probe_p50_us probe_p99_us probe_max_us probe_samples")
        self.assertEqual((r["children"], r["hogs"], r["fair"]), ("4", "1", "0.2000"))
        share = float(r["child_share"])
        self.assertAlmostEqual(float(r["share_ratio"]), share / 0.2, delta=0.003)
        self.assertTrue(0 < share <= 0.3, r)
        self.assertEqual(r["max_stall_us"], r["probe_max_us"])
        self.assertLess(float(r["max_stall_us"]), 200000)       # never the whole burst
        self.assertGreater(int(r["probe_samples"]), 100)


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


class BadWords(Quiet):
    """Every program: a bad value or key prints the usage and exits 2."""
    # A key of each program with its range, and a value just outside it.
    CASES = {
        "schedcost": ("switches", "100..10000000", "99"),
        "fiftyp": ("copies", "1..8", "9"),
        "thud": ("children", "1..64", "0"),
        "chew": ("threshold_us", "1..1000000", "0"),
        "ring_test": ("cpu", "-1..1023", "-2"),
        "hackbench": ("fds", "1..100", "101"),
    }

    def test_bad_words(self):
        self.check_bad_words(self.CASES, ("{key}=1.5", "depth=64", "reps=11"))

    def test_an_offline_cpu_is_an_error(self):
        self.check_offline_cpu((name, "cpu") for name in ("schedcost", "fiftyp", "thud", "chew", "ring_test"))


if __name__ == "__main__":
    unittest.main()
