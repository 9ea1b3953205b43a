#!/usr/bin/env python3
"""Unit tests for tools/bochs.py and tools/emulator.py:  python3 tests/tools/test_bochs.py
Bochs itself never runs here: made-up logs, and small shell commands in its place."""

import contextlib
import io
import os
import sys
import tempfile
import unittest
import unittest.mock

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import bench  # noqa: E402
import bochs  # noqa: E402
import emulator  # noqa: E402
import results  # noqa: E402
import runtests  # noqa: E402
import testproc  # noqa: E402

OFF = "00001p[ACPI  ] >>PANIC<< " + bochs.POWER_OFF


def log(*lines):
    return "".join(f"[    1.{n:06d}] cpu0: {line}\n" for n, line in enumerate(lines))


class Verdict(unittest.TestCase):
    def test_the_kernels_verdict_lines(self):
        self.assertEqual(bochs.verdict(log("ok 1 smp", "test: all passed", "power: off"), OFF), 33)
        self.assertEqual(bochs.verdict(log("not ok 1 smp", "test: FAILED"), OFF), 35)

    def test_a_panic_wins_over_everything(self):
        self.assertEqual(bochs.verdict(log("test: all passed", "PANIC: page fault at 0x0"), OFF), 37)

    def test_the_last_verdict_counts(self):
        self.assertEqual(bochs.verdict(log("test: FAILED", "test: all passed"), OFF), 33)

    def test_no_verdict(self):
        self.assertEqual(bochs.verdict(log("power: off (ACPI S5)"), OFF), 0)     # like QEMU's 0
        self.assertEqual(bochs.verdict(log("booting"), "e[CPU0 ] triple fault"), 1)


class Config(unittest.TestCase):
    def test_sizes(self):
        self.assertEqual([bochs.megabytes(s) for s in ("512", "512M", "2G", "1g")], [512, 512, 2048, 1024])
        with self.assertRaises(SystemExit):
            bochs.megabytes("5T")

    def test_bochsrc(self):
        text = bochs.config("x.iso", 2, "1G", "corei7_haswell_4770", 1000, 7, "/t/serial", "/t/b.log")
        for want in ["megs: 1024", "model=corei7_haswell_4770, count=2, ips=1000",
                     "reset_on_triple_fault=0", "path=" + os.path.abspath("x.iso"),
                     "com1: enabled=1, mode=file, dev=/t/serial", "display_library: term",
                     "log: /t/b.log", "clock: sync=none, time0=7"]:
            self.assertIn(want, text)

    def test_bochs_log_next_to_the_serial_log(self):
        self.assertEqual(bochs.bochs_log_path("build/test-logs/x.log"), "build/test-logs/x.bochs.log")
        self.assertEqual(bochs.bochs_log_path("out"), "out.bochs.log")

    def test_the_options(self):
        a = bochs.parse_args(["--iso", "x.iso", "--smp", "2", "--time0", "5"])
        self.assertEqual((a.smp, a.mem, a.cpu, a.ips, a.time0), (2, "512M", bochs.CPU, bochs.IPS, 5))


class Run(unittest.TestCase):
    """emulator.run with a shell command as the emulator."""

    def run_sh(self, script, **kw):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "log")
            out = io.BytesIO()
            with unittest.mock.patch.object(sys, "stdout", unittest.mock.Mock(buffer=out)):
                status = emulator.run(["sh", "-c", script], log=path, **kw)
            with open(path, "rb") as f:
                return status, f.read(), out.getvalue()

    def test_output_to_log_and_stdout_and_the_status(self):
        self.assertEqual(self.run_sh("echo hello; exit 3"), (3, b"hello\n", b"hello\n"))

    def test_timeout(self):
        # Long enough, on a busy host too, for the echo to come first.
        status, logged, _ = self.run_sh("echo up; sleep 30", timeout=testproc.budget(1))
        self.assertEqual((status, logged), (emulator.TIMEOUT_STATUS, b"up\n"))

    def test_stall(self):
        self.assertIsNone(self.run_sh("sleep 30", stall=1)[0])

    def test_serial_from_a_descriptor_and_a_screen_drained(self):
        """Bochs's way: the serial port on a FIFO held open, the screen on another descriptor."""
        with tempfile.TemporaryDirectory() as tmp:
            fifo_path = os.path.join(tmp, "serial")
            os.mkfifo(fifo_path)
            fifo = os.open(fifo_path, os.O_RDWR | os.O_NONBLOCK)
            screen_r, screen_w = os.pipe()
            try:
                status, logged, _ = self.run_sh(f"echo screen; echo serial > {fifo_path}; exit 1",
                                                echo=False, serial=fifo, drain=[screen_r], stdout=screen_w)
            finally:
                for fd in (fifo, screen_r, screen_w):
                    os.close(fd)
        self.assertEqual((status, logged), (1, b"serial\n"))


class Exact(unittest.TestCase):
    """bench.py --emu bochs: figures next to their ideals."""

    def test_cells(self):
        found = results.parse("RESULT name=fairness hogs=2 nice_last=5 ratio=3.06 ideal_ratio=3.057\n"
                              "RESULT name=fairness hogs=3 nice_last=0 max_dev=0.0070\n"
                              "RESULT name=massive_intr spread=1.016\n")
        rows = {row.label: row for row in bench.EXACT_ROWS}
        value, ideal, error, met = bench.exact_cells(rows["fairness, nice 0 vs 5: ratio"], found)
        self.assertEqual((value, ideal, met), (3.06, 3.057, "yes"))
        self.assertAlmostEqual(error, 0.003 / 3.057)
        self.assertEqual(bench.exact_cells(rows["fairness, 3 hogs: largest share error"], found),
                         (0.007, 0, 0.007, "no"))
        self.assertEqual(bench.exact_cells(rows["massive_intr, 10 tasks: spread"], found)[3], "yes")
        self.assertEqual(bench.exact_cells(rows["fairness, 2 hogs: largest share error"], found),
                         (None, None, None, "no"))
        self.assertEqual(bench.exact_cells(rows["chew: out max us"], found)[3], "-")

    def test_table_counts_goals(self):
        text, met, goals = bench.exact_table([])
        self.assertEqual((met, goals), (0, sum(1 for row in bench.EXACT_ROWS if row.goal)))
        self.assertEqual(text.count("\n"), len(bench.EXACT_ROWS) + 2)

    def test_every_boot_fits_a_command_line(self):
        self.assertTrue(all(len(c) <= 2047 for c in bench.run_cmdlines("", bench.EXACT_BOOTS)))


class Same(unittest.TestCase):
    """runtests.py's "same" flag."""

    def compare(self, first, second):
        with tempfile.TemporaryDirectory() as tmp:
            paths = [os.path.join(tmp, "a"), os.path.join(tmp, "b")]
            for path, text in zip(paths, (first, second)):
                with open(path, "w") as f:
                    f.write(text)
            r = runtests.Result("PASS", details=[])
            runtests.compare_runs(r, *paths)
            return r

    TRACE = ["trace: begin (1 events, 0 lost)", "# tracer: nop",
             "  <idle>-0     [000] d..2     0.307417214: sched_switch: prev_comm=idle/0", "trace: end"]

    def test_identical(self):
        text = log("RESULT name=spawn count=2", *self.TRACE)
        r = self.compare(text, text)
        self.assertEqual((r.verdict, r.passed, r.failed), ("PASS", 2, 0))

    def test_a_result_or_an_event_differs(self):
        other = [line.replace("0.307417214", "0.307417215") for line in self.TRACE]
        r = self.compare(log("RESULT name=spawn count=2", *self.TRACE),
                         log("RESULT name=spawn count=3", *other))
        self.assertEqual((r.verdict, r.passed, r.failed), ("FAIL", 0, 2))
        self.assertIn("    RESULT name=spawn count=3", r.details)

    def test_no_trace_is_a_failure(self):
        text = log("RESULT name=spawn count=2")
        r = self.compare(text, text)
        self.assertEqual((r.verdict, r.passed, r.failed), ("FAIL", 1, 1))

    def test_the_emulator_column(self):
        self.assertEqual(runtests.emulator_options(["--emu", "bochs", "--smp", "2"]), ("bochs", ["--smp", "2"]))
        self.assertEqual(runtests.emulator_options(["--smp", "2", "--", "-x"]), ("qemu", ["--smp", "2", "--", "-x"]))
        with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
            runtests.emulator_options(["--emu", "bochs", "--uefi"])


if __name__ == "__main__":
    unittest.main()
