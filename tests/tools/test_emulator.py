"""Unit tests for tools/emulator.py: python3 tests/tools/test_emulator.py"""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import emulator  # noqa: E402


class RunStatus(unittest.TestCase):
    def test_a_clean_power_off_and_a_pass_are_success(self):
        self.assertEqual(emulator.run_status(0), (0, None))               # ACPI, or Ctrl-A X
        self.assertEqual(emulator.run_status(emulator.PASS), (0, None))   # run= or ktest= passed

    def test_a_failure_keeps_its_status_and_says_what_it_means(self):
        status, message = emulator.run_status(emulator.FAIL)
        self.assertEqual(status, 35)
        self.assertIn("failure", message)
        self.assertIn("an init= program", message)        # init= passes its program's verdict on
        self.assertIn("panicked", emulator.run_status(emulator.PANIC)[1])
        self.assertIn("timed out", emulator.run_status(emulator.TIMEOUT_STATUS)[1])
        self.assertEqual(emulator.run_status(1), (1, "run: exit status 1: the emulator failed"))


if __name__ == "__main__":
    unittest.main()
