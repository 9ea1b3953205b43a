"""Tests of the ring-3 tool sysctl (user/bin/), run on this host's Linux:
python3 tests/userland/test_sysctl.py

The binary comes from the directory in $BIN (userbin.py). It reads only
what leftmost's /proc/sys provides too. No sysctl is ever written: the
writes tried are ones the kernel refuses.
"""
import os
import re
import unittest

from userbin import BIN, missing, read, tool

TOOLS = ("sysctl",)


def setUpModule():
    if missing(TOOLS):
        raise AssertionError("no %s in %s: build them first, or set BIN" % (", ".join(missing(TOOLS)), BIN))


class SysctlTest(unittest.TestCase):
    def test_read_a_name_with_dots_or_slashes(self):
        value = read("/proc/sys/kernel/ostype").strip()
        for name in ("kernel.ostype", "kernel/ostype"):
            r = tool("sysctl", name)
            self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "kernel.ostype = %s\n" % value, ""))
        self.assertEqual(tool("sysctl", "-n", "kernel.ostype").stdout, value + "\n")
        self.assertEqual(tool("sysctl", "-N", "kernel/ostype").stdout, "kernel.ostype\n")

    def test_several_names(self):
        r = tool("sysctl", "-n", "kernel.ostype", "kernel.osrelease")
        self.assertEqual(r.stdout, "%s\n%s\n" % (os.uname().sysname, os.uname().release))

    def test_a_directory_and_all(self):
        r = tool("sysctl", "kernel")
        lines = r.stdout.splitlines()
        self.assertIn("kernel.ostype = Linux", lines)
        self.assertTrue(all(line.startswith("kernel.") for line in lines))
        r = tool("sysctl", "-a")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertGreater(len(lines), 100)
        self.assertIn("kernel.ostype = Linux", lines)
        self.assertTrue(all(re.match(r"^[\w.\-/]+ = ", line) for line in lines))
        names = tool("sysctl", "-a", "-N").stdout.splitlines()
        self.assertEqual(names, sorted(names, key=lambda n: n.split(".")))
        self.assertIn("kernel.ostype", names)

    def test_an_unknown_name(self):
        r = tool("sysctl", "kernel.no_such_key")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr, "sysctl: cannot stat /proc/sys/kernel/no_such_key: No such file or directory\n")
        r = tool("sysctl", "-e", "kernel.no_such_key", "kernel.ostype")
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "kernel.ostype = Linux\n", ""))

    def test_writes_the_kernel_refuses(self):
        r = tool("sysctl", "-w", "kernel.no_such_key=1")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr, "sysctl: cannot stat /proc/sys/kernel/no_such_key: No such file or directory\n")
        r = tool("sysctl", "kernel=1")
        self.assertEqual((r.returncode, r.stderr), (1, 'sysctl: setting key "kernel": Is a directory\n'))
        r = tool("sysctl", "-w", "kernel.ostype")
        self.assertEqual(r.returncode, 1)
        self.assertIn("name=value", r.stderr)
        self.assertEqual(tool("sysctl", "-e", "-w", "kernel.no_such_key=1").returncode, 0)

    def test_writing_a_read_only_key(self):
        path = "/proc/sys/kernel/osrelease"
        if os.access(path, os.W_OK):
            self.skipTest("%s is writable here" % path)
        before = read(path)
        r = tool("sysctl", "-w", "kernel.osrelease=leftmost")
        self.assertEqual(r.returncode, 1)
        self.assertRegex(r.stderr, r'^sysctl: setting key "kernel.osrelease": (Permission denied|Operation not permitted)\n$')
        self.assertEqual(read(path), before)

    def test_usage_errors(self):
        for args in (["-Z"], []):
            r = tool("sysctl", *args)
            self.assertEqual(r.returncode, 1, args)
            self.assertIn("Usage: sysctl", r.stderr)


if __name__ == "__main__":
    unittest.main()
