"""Tests of the words every ring-3 workload takes, run on this host's
Linux: a bad value or key prints the usage and exits 2, a CPU that is not
online is an error (exit 1):

    BIN=/tmp/wl python3 tests/userland/test_workload_words.py

BIN is the directory of the built programs (default build/user/workloads;
workload.py says more); a program not built there is skipped. The runs are
short and the bounds loose: the host is small, and other programs may
share its CPUs.
"""
import unittest

from workload import Quiet, Workload
# Each test module of the workloads makes its process the subreaper of all it starts.
from workload import setUpModule, tearDownModule  # noqa: F401


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


class BadWordsAndDroppedKeys(Quiet):
    """Every program: a bad value or key prints the usage and exits 2, and
    so do the keys their kernel-task versions had (depth, reps)."""
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
