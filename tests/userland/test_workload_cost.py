"""Tests of the ring-3 workloads and benchmarks that measure what an
operation costs, run on this host's Linux: spawn (fork, exit and wait),
schedcost (a switch beside idle hogs) and the benchmarks of user/bench/
(their RESULT lines, as tools/bench_ring3.py reads them):

    BIN=/tmp/wl BENCH_BIN=/tmp/bench python3 tests/userland/test_workload_cost.py

BIN is the directory of the built programs (default build/user/workloads;
workload.py says more); a program not built there is skipped. The runs are
short and the bounds loose: the host is small, and other programs may
share its CPUs.
"""
import unittest

from workload import BENCH_BIN, CPUS, OTHER_CPU, Quiet, Workload
# Each test module of the workloads makes its process the subreaper of all it starts.
from workload import setUpModule, tearDownModule  # noqa: F401


class Spawn(Workload):
    def test_result(self):
        for cpu in (-1, 0):
            r = self.result("spawn", "count=200", "warmup=10", f"cpu={cpu}")
            self.assert_keys(r, "cpu count elapsed_ms us_per_spawn via")
            self.assertEqual((r["cpu"], r["count"], r["via"]), (str(cpu), "200", "fork"))
            self.assertGreater(float(r["us_per_spawn"]), 1)
            self.assertAlmostEqual(float(r["us_per_spawn"]) * 200 / 1e3, float(r["elapsed_ms"]), delta=0.2)


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
