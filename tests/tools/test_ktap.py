#!/usr/bin/env python3
"""Unit tests for tools/ktap.py:  python3 tests/tools/test_ktap.py  (or -m unittest)."""

import io
import os
import sys
import textwrap
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import ktap  # noqa: E402


def log(text, prefix=True):
    """Dedent a sample; give each line a kernel prefix unless it starts with '!'
    (which marks a line printed by something else, e.g. GRUB)."""
    out = []
    for i, line in enumerate(textwrap.dedent(text).strip("\n").splitlines()):
        if line.startswith("!"):
            out.append(line[1:])
        elif prefix:
            out.append(f"[{i:5d}.{i * 1234 % 1000000:06d}] cpu{i % 4}: {line}")
        else:
            out.append(line)
    return "\r\n".join(out) + "\r\n"


GOOD = """
    KTAP version 1
    1..2
      KTAP version 1
      # Subtest: mm
      1..3
      ok 1 alloc_free
      ok 2 big_alloc
      ok 3 huge # SKIP no 2M pages
    ok 1 mm
      KTAP version 1
      # Subtest: sched
      1..1
      ok 1 yield
    ok 2 sched
"""


class Parse(unittest.TestCase):
    def test_prefix_stripped(self):
        self.assertEqual(ktap.strip_prefix("[    1.234567] cpu2:   ok 1 x\r"), "  ok 1 x")
        self.assertEqual(ktap.strip_prefix("[12345.000001] cpu13: hi"), "hi")
        self.assertEqual(ktap.strip_prefix("no prefix"), "no prefix")

    def test_good_run(self):
        root = ktap.parse(log(GOOD))
        self.assertTrue(root.ok(), root.problems())
        self.assertEqual(root.plan, 2)
        self.assertEqual([s.name for s in root.subtests], ["mm", "sched"])
        mm = root.subtests[0]
        self.assertEqual(mm.plan, 3)
        self.assertEqual([t.result for t in mm.subtests], ["ok", "ok", "skip"])
        self.assertEqual(mm.subtests[2].reason, "no 2M pages")
        self.assertEqual(root.counts(), (3, 0, 1))

    def test_without_prefix_and_four_space_indent(self):
        text = log(GOOD.replace("  ", "    "), prefix=False)
        root = ktap.parse(text)
        self.assertTrue(root.ok(), root.problems())
        self.assertEqual(root.counts(), (3, 0, 1))

    def test_tap14_subtest_header_and_dashes(self):
        root = ktap.parse(log("""
            TAP version 14
            1..1
                # Subtest: lib
                1..2
                ok 1 - strlen
                ok 2 - memcpy
            ok 1 - lib
        """))
        self.assertTrue(root.ok(), root.problems())
        self.assertEqual(root.subtests[0].name, "lib")
        self.assertEqual([t.name for t in root.subtests[0].subtests], ["strlen", "memcpy"])

    def test_noise_between_lines(self):
        root = ktap.parse(log("""
            !\x1b[H\x1b[J  Booting `leftmost'
            !
            leftmost 0.1 booting
            cpu1 online
            KTAP version 1
            1..1
            timer: calibrated 1000 Hz
              KTAP version 1
              # Subtest: mm
            ok, not a result: just a message
              1..2
            !garbage from somewhere
              ok 1 a
            mm: freed 12 pages
              ok 2 b
            ok 1 mm
            all done
        """))
        self.assertTrue(root.ok(), root.problems())
        self.assertEqual(root.counts(), (2, 0, 0))
        self.assertIn("mm: freed 12 pages", root.subtests[0].subtests[1].log)

    def test_diagnostic_at_any_indent(self):
        root = ktap.parse(log("""
            KTAP version 1
            1..1
              KTAP version 1
              1..2
              ok 1 a
            # a message from another CPU
              ok 2 b
            ok 1 mm
        """))
        self.assertTrue(root.ok(), root.problems())
        self.assertEqual(root.counts(), (2, 0, 0))

    def test_failure_keeps_diagnostics(self):
        root = ktap.parse(log("""
            KTAP version 1
            1..1
              KTAP version 1
              # Subtest: mm
              1..2
              ok 1 a
              # b: EXPECT_EQ(x, 3) failed: x is 4
              not ok 2 b
            not ok 1 mm
        """))
        self.assertFalse(root.ok())
        self.assertEqual(root.counts(), (1, 1, 0))
        b = root.subtests[0].subtests[1]
        self.assertEqual(b.result, "not ok")
        self.assertEqual(b.diagnostics, ["# b: EXPECT_EQ(x, 3) failed: x is 4"])
        self.assertIn("NOT OK: mm.b", root.problems())

    def test_suite_failure_without_failed_case(self):
        root = ktap.parse(log("""
            KTAP version 1
            1..1
              KTAP version 1
              1..1
              ok 1 a
            not ok 1 mm # init failed
        """))
        self.assertEqual(root.counts(), (1, 1, 0))

    def test_flat_tests(self):
        root = ktap.parse(log("""
            KTAP version 1
            1..3
            ok 1 one
            not ok 2 two
            ok 3 three # skip later
        """))
        self.assertEqual(root.counts(), (1, 1, 1))

    def test_missing_version(self):
        root = ktap.parse(log("""
            1..1
            ok 1 a
        """))
        self.assertFalse(root.ok())
        self.assertIn("missing KTAP version line", root.errors)

    def test_no_ktap_at_all(self):
        root = ktap.parse(log("booting\nPANIC: oops\n"))
        self.assertFalse(root.ok())
        self.assertEqual(root.errors, ["no KTAP output"])
        self.assertEqual(root.counts(), (0, 0, 0))

    def test_missing_results(self):
        root = ktap.parse(log("""
            KTAP version 1
            1..4
            ok 1 a
            ok 2 b
        """))
        self.assertFalse(root.ok())
        self.assertEqual(root.counts(), (2, 2, 0))
        self.assertIn("planned 4 tests, only 2 reported", root.errors)
        self.assertEqual([t.result for t in root.subtests[2:]], ["missing", "missing"])

    def test_extra_results(self):
        root = ktap.parse(log("""
            KTAP version 1
            1..1
            ok 1 a
            ok 2 b
        """))
        self.assertFalse(root.ok())
        self.assertIn("planned 1 tests, got 2", root.errors)

    def test_numbering_error(self):
        root = ktap.parse(log("""
            KTAP version 1
            1..3
            ok 1 a
            ok 3 c
            ok 2 b
        """))
        self.assertFalse(root.ok())
        self.assertEqual(root.errors, ["test 'c' is number 3, expected 2",
                                       "test 'b' is number 2, expected 4"])

    def test_crash_in_the_middle(self):
        root = ktap.parse(log("""
            KTAP version 1
            1..3
              KTAP version 1
              # Subtest: mm
              1..1
              ok 1 a
            ok 1 mm
              KTAP version 1
              # Subtest: sched
              1..3
              ok 1 yield
            PANIC: page fault at 0x0 in sched_sleep_test
            RIP: 0xffffffff80012345
            backtrace:
              #0 sched_sleep_test+0x12
        """))
        self.assertFalse(root.ok())
        sched = root.subtests[1]
        self.assertEqual((sched.name, sched.result), ("sched", "crashed"))
        self.assertIn("PANIC: page fault at 0x0 in sched_sleep_test", sched.log)
        # mm 1 passed; sched: 1 passed + 2 missing; suite 3 missing.
        self.assertEqual(root.counts(), (2, 3, 0))
        self.assertEqual(root.subtests[2].result, "missing")
        problems = root.problems()
        self.assertIn("CRASHED: sched", problems)
        self.assertIn("error: KTAP: no result line for subtest 'sched'", problems)

    def test_skipped_suite(self):
        root = ktap.parse(log("""
            KTAP version 1
            1..2
            ok 1 smp # SKIP needs 2 CPUs
              KTAP version 1
              1..1
              ok 1 a
            ok 2 mm
        """))
        self.assertTrue(root.ok(), root.problems())
        self.assertEqual(root.counts(), (1, 0, 1))
        self.assertEqual(root.subtests[0].reason, "needs 2 CPUs")

    def test_deep_nesting(self):
        root = ktap.parse(log("""
            KTAP version 1
            1..1
              KTAP version 1
              1..1
                KTAP version 1
                1..2
                ok 1 x
                ok 2 y
              ok 1 inner
            ok 1 outer
        """))
        self.assertTrue(root.ok(), root.problems())
        self.assertEqual(root.counts(), (2, 0, 0))
        self.assertEqual([p for p, _ in root.walk()],
                         ["", "outer", "outer.inner", "outer.inner.x", "outer.inner.y"])


class Command(unittest.TestCase):
    def test_report(self):
        out = io.StringIO()
        ktap.report(ktap.parse(log(GOOD)), out=out)
        lines = out.getvalue().splitlines()
        self.assertIn("PASS mm (2 passed, 0 failed, 1 skipped)", lines)
        self.assertIn("  SKIP huge: no 2M pages", lines)
        self.assertEqual(lines[-1], "3 passed, 0 failed, 1 skipped")

    def test_main_exit_status(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            good, bad = os.path.join(d, "good.log"), os.path.join(d, "bad.log")
            with open(good, "w") as f:
                f.write(log(GOOD))
            with open(bad, "w") as f:
                f.write(log(GOOD.replace("ok 1 yield", "not ok 1 yield")))
            sys.stdout, saved = io.StringIO(), sys.stdout
            try:
                self.assertEqual(ktap.main([good]), 0)
                self.assertEqual(ktap.main([bad]), 1)
            finally:
                sys.stdout = saved


if __name__ == "__main__":
    unittest.main()
