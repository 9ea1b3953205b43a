"""Tests of the ring-3 tool time (user/bin/), run on this host's Linux:
python3 tests/userland/test_time.py

The binary comes from the directory in $BIN (userbin.py).
"""
import os
import re
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from testproc import budget  # noqa: E402
from userbin import BIN, missing, tool  # noqa: E402

TOOLS = ("time",)


def setUpModule():
    if missing(TOOLS):
        raise AssertionError("no %s in %s: build them first, or set BIN" % (", ".join(missing(TOOLS)), BIN))


REPORT = re.compile(r"real (\d+\.\d\d) s  user (\d+\.\d\d) s  sys (\d+\.\d\d) s  "
                    r"switches: (\d+) voluntary, (\d+) involuntary\n$")


class TimeTest(unittest.TestCase):
    def test_a_sleep_takes_real_time_and_little_cpu(self):
        r = tool("time", "sleep", "0.2")
        self.assertEqual((r.returncode, r.stdout), (0, ""))
        real, user, sys_, voluntary, involuntary = REPORT.fullmatch(r.stderr).groups()
        self.assertGreaterEqual(float(real), 0.2)
        self.assertLess(float(real), budget(5))
        self.assertLess(float(user) + float(sys_), 0.15)

    def test_a_busy_loop_takes_cpu_time(self):
        busy = "import time\nwhile time.process_time() < 0.2: pass\n"
        r = tool("time", sys.executable, "-c", busy)
        real, user, sys_, voluntary, involuntary = REPORT.fullmatch(r.stderr).groups()
        self.assertGreaterEqual(float(user) + float(sys_), 0.19)
        self.assertGreaterEqual(float(real), float(user) + float(sys_) - 0.02)
        self.assertGreaterEqual(int(involuntary), 0)
        self.assertGreaterEqual(int(voluntary), 0)

    def test_posix_format(self):
        r = tool("time", "-p", "sleep", "0.1")
        self.assertEqual(r.returncode, 0)
        self.assertRegex(r.stderr, r"^real \d+\.\d\d\nuser \d+\.\d\d\nsys \d+\.\d\d\n$")

    def test_the_commands_options_and_output_are_its_own(self):
        r = tool("time", "ls", "-d", "/")
        self.assertEqual((r.returncode, r.stdout), (0, "/\n"))
        self.assertRegex(r.stderr, REPORT)

    def test_exit_status_and_signal(self):
        r = tool("time", "sh", "-c", "exit 3")
        self.assertEqual(r.returncode, 3)
        self.assertTrue(r.stderr.startswith("Command exited with non-zero status 3\n"))
        r = tool("time", "sh", "-c", "kill -9 $$")
        self.assertEqual(r.returncode, 128 + 9)
        self.assertTrue(r.stderr.startswith("Command terminated by signal 9\n"))

    def test_not_found_and_not_executable(self):
        r = tool("time", "/no/such/program")
        self.assertEqual(r.returncode, 127)
        self.assertIn("time: cannot run /no/such/program: No such file or directory", r.stderr)
        with tempfile.NamedTemporaryFile() as f:
            r = tool("time", f.name)
            self.assertEqual(r.returncode, 126)
            self.assertIn("Permission denied", r.stderr)

    def test_usage_errors(self):
        for args in ([], ["-Z", "true"]):
            r = tool("time", *args)
            self.assertEqual(r.returncode, 125, args)
            self.assertIn("Usage: time", r.stderr)


if __name__ == "__main__":
    unittest.main()
