"""Tests of the ring-3 workloads that measure shares of a CPU, run on this
host's Linux: fairness (hogs on one CPU, nice weights), smpbalance (hogs
across the CPUs), massive_intr (processes that compute and sleep), fiftyp
(copies at 50% duty beside hogs) and thud (children that burst together):

    BIN=/tmp/wl python3 tests/userland/test_workload_fairness.py

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
from workload import CPUS, OTHER_CPU, Quiet, Workload, floats, started, window_ms  # noqa: E402
# Each test module of the workloads makes its process the subreaper of all it starts.
from workload import setUpModule, tearDownModule  # noqa: E402,F401


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


if __name__ == "__main__":
    unittest.main()
