#!/usr/bin/env python3
"""tools/testall.py (make test's driver) with stages and boots that are
stand-ins: a failing stage stops nothing, the summary names each failure,
and runtests.run_configs keeps an alone configuration by itself."""

import io
import os
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import runtests  # noqa: E402
import testall  # noqa: E402


def stage(name, out, status=0, **kw):
    """A stage that prints out and ends with status."""
    code = f"import sys; sys.stdout.write({out!r}); sys.exit({status})"
    return testall.Stage(name, [sys.executable, "-c", code], kw.pop("count", testall.count_one), **kw)


def config(name, flags=()):
    return runtests.Config(name, "default", "qemu", [], "ktest=all", "ktap", 60.0, list(flags))


class FakeBoots:
    """Stands in for runtests.run_config: each boot passes 3 tests after
    sleep seconds, and the runs are recorded (who ran beside whom)."""

    def __init__(self, sleep=0.0, fail=()):
        self.sleep, self.fail = sleep, set(fail)
        self.ran, self.running, self.overlaps = [], set(), []
        self.lock = threading.Lock()

    def __call__(self, cfg, elf, echo):
        with self.lock:
            if self.running:
                self.overlaps.append((cfg.name, sorted(self.running)))
            self.running.add(cfg.name)
            self.ran.append(cfg.name)
        time.sleep(self.sleep)
        with self.lock:
            self.running.discard(cfg.name)
        if cfg.name in self.fail:
            return runtests.Result("FAIL", "kernel panic", passed=1, failed=1, seconds=self.sleep, details=[])
        return runtests.Result("PASS", passed=3, seconds=self.sleep, details=[])


class DriverTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.logs = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def drive(self, stages, configs, boots, jobs=2):
        out = io.StringIO()
        status = testall.test_all(stages, configs, "leftmost.elf", jobs, out=out, logs=self.logs, run=boots)
        return status, out.getvalue()

    def test_a_failing_host_test_lets_every_boot_run(self):
        host = stage("host-test", "ok 1 rbtree_insert\nnot ok 2 planted_failure\n#   tests/x.c:1: no\n"
                     "1 passed, 1 failed\n", 1, count=testall.count_summary)
        stages = [host, stage("layers", "layers: ok\n"), stage("build", ""),
                  stage("debug-test", "debug-test: 5 passed, 0 failed\n", count=testall.count_summary,
                        needs_build=True, by_itself=True)]
        configs = [config("smp1", ["alone"]), config("smp4", ["alone"]), config("ring3"), config("fuzz")]
        boots = FakeBoots()
        status, out = self.drive(stages, configs, boots)
        self.assertEqual(status, 1)
        self.assertEqual(sorted(boots.ran), ["fuzz", "ring3", "smp1", "smp4"])
        last = out.splitlines()[-1]
        self.assertRegex(last, r"^[0-9]+ passed, [0-9]+ failed$")
        # host 1 + layers 1 + build 1 + debug 5 + 4 boots of 3; 1 failure
        self.assertEqual(last, "20 passed, 1 failed")
        log = os.path.join(self.logs, "host-test.log")
        self.assertIn(f"host-test: planted_failure  ({log})", out)
        self.assertIn("FAIL host-test: 1 passed, 1 failed", out)
        self.assertRegex(out, r"(?m)^  host-test +1 passed, 1 failed +\d+\.\d s")
        self.assertIn("boot seconds, longest first:", out)

    def test_a_failed_build_skips_what_needs_it_and_says_so(self):
        stages = [stage("host-test", "3 passed, 0 failed\n", count=testall.count_summary),
                  stage("build", "cc: error\n", 2),
                  stage("tools-test", "Ran 2 tests in 0.1s\n\nOK\n", count=testall.count_unittest,
                        by_itself=True),
                  stage("debug-test", "", needs_build=True, by_itself=True)]
        boots = FakeBoots()
        status, out = self.drive(stages, [config("smp4"), config("ring3")], boots)
        self.assertEqual(status, 1)
        self.assertEqual(boots.ran, [])
        self.assertIn("SKIP debug-test: build failed", out)
        self.assertIn("SKIP 2 boot(s): build failed", out)
        self.assertIn("2 boot(s) skipped: build failed", out)
        self.assertIn("PASS tools-test: 2 passed, 0 failed", out)
        self.assertIn("build: exit status 2", out)
        self.assertEqual(out.splitlines()[-1], "5 passed, 1 failed")

    def test_a_failed_boot_is_named_with_its_log(self):
        boots = FakeBoots(fail=["smp4"])
        status, out = self.drive([stage("build", "")], [config("smp4"), config("ring3")], boots, jobs=1)
        self.assertEqual(status, 1)
        self.assertIn(f"smp4: kernel panic  ({os.path.join(self.logs, 'smp4.log')})", out)
        self.assertEqual(out.splitlines()[-1], "5 passed, 1 failed")

    def test_all_passing_exits_0(self):
        status, out = self.drive([stage("layers", "ok\n")], [config("a")], FakeBoots(), jobs=1)
        self.assertEqual((status, out.splitlines()[-1]), (0, "4 passed, 0 failed"))


class RunConfigsTest(unittest.TestCase):
    def test_alone_runs_by_itself_and_the_rest_two_at_once(self):
        configs = [config("a1", ["alone"]), config("p1"), config("p2"), config("a2", ["alone"]),
                   config("p3"), config("p4")]
        boots = FakeBoots(sleep=0.2)
        done = [c.name for c, r in runtests.run_configs(configs, "elf", 2, run=boots)]
        self.assertEqual(sorted(done), sorted(c.name for c in configs))
        for name, beside in boots.overlaps:
            self.assertNotIn(name, ("a1", "a2"))
            self.assertFalse({"a1", "a2"} & set(beside), (name, beside))
        self.assertTrue(boots.overlaps, "the others never ran two at once")

    def test_one_at_a_time_keeps_the_file_order(self):
        configs = [config("b"), config("a", ["alone"]), config("c")]
        boots = FakeBoots()
        list(runtests.run_configs(configs, "elf", 1, run=boots))
        self.assertEqual(boots.ran, ["b", "a", "c"])
        self.assertEqual(boots.overlaps, [])


class JudgeTest(unittest.TestCase):
    def test_a_panic_is_the_reason_not_what_it_left_undone(self):
        cfg = runtests.Config("x", "default", "qemu", [], "", "run", 60.0,
                              ["log=all\\sdone", "assert=w.n>=1"])
        log = "[    1.0] cpu1: PANIC: mm_destroy: in use\n[    1.0] cpu1: backtrace:\n"
        r = runtests.judge(cfg, runtests.PANIC, log)
        self.assertEqual((r.verdict, r.reason), ("FAIL", "kernel panic"))
        self.assertIn("  the log does not match 'all\\\\sdone'", r.details)
        self.assertTrue(any("no RESULT line" in d for d in r.details), r.details)


class CountTest(unittest.TestCase):
    def test_unittest_counts(self):
        text = ("FAIL: test_x (test_a.A.test_x)\nERROR: test_y (test_a.A.test_y)\n"
                "Ran 10 tests in 3.2s\n\nFAILED (failures=1, errors=1, skipped=2)\n")
        self.assertEqual(testall.count_unittest(text, 1),
                         (6, 2, ["test_x (test_a.A.test_x)", "test_y (test_a.A.test_y)"]))
        self.assertEqual(testall.count_unittest("Ran 4 tests in 1s\n\nOK (skipped=1)\n", 0), (3, 0, []))
        self.assertEqual(testall.count_unittest("Traceback\n", 1)[:2], (0, 1))

    def test_unittest_runs_add_up(self):
        # make tools-test runs tests/tools/, then tests/userland/: both count.
        text = ("Ran 5 tests in 1s\n\nOK (skipped=1)\n"
                "FAIL: test_x (test_b.B.test_x)\nRan 7 tests in 2s\n\nFAILED (failures=1)\n")
        self.assertEqual(testall.count_unittest(text, 2), (10, 1, ["test_x (test_b.B.test_x)"]))

    def test_summary_counts(self):
        self.assertEqual(testall.count_summary("ok 1 a\nnot ok 2 b\n1 passed, 1 failed\n", 1), (1, 1, ["b"]))
        self.assertEqual(testall.count_summary("cc: error\n", 2)[:2], (0, 1))
        self.assertEqual(testall.count_summary("4 passed, 0 failed\n", 139), (4, 1, ["exit status 139"]))


class SelectTest(unittest.TestCase):
    stages = [testall.Stage(n, [], testall.count_one) for n in ("host-test", "layers", "build", "debug-test")]
    configs = [config("smp4"), runtests.Config("q35", "matrix", "qemu", [], "", "ktap", 1, [])]

    def names(self, only, suite="default"):
        stages, configs = testall.select(only, self.stages, self.configs, suite)
        return [s.name for s in stages], [c.name for c in configs]

    def test_only(self):
        self.assertEqual(self.names(""), (["host-test", "layers", "build", "debug-test"], ["smp4"]))
        self.assertEqual(self.names("layers"), (["layers"], []))
        self.assertEqual(self.names("q35,host-test"), (["host-test", "build"], ["q35"]))
        with self.assertRaisesRegex(SystemExit, "no stage or configuration named nosuch"):
            self.names("smp4,nosuch")

    def test_make_flags_lose_the_job_server(self):
        old = os.environ.get("MAKEFLAGS")
        os.environ["MAKEFLAGS"] = "k -j2 --jobserver-auth=3,4 -- BUILD=b"
        try:
            self.assertEqual(testall.make_env()["MAKEFLAGS"], "k -- BUILD=b")
        finally:
            if old is None:
                del os.environ["MAKEFLAGS"]
            else:
                os.environ["MAKEFLAGS"] = old


if __name__ == "__main__":
    unittest.main()
