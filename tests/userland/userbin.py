"""What the tests of user/bin's programs share, run on the host's Linux:
where the programs are, how a test runs one, and the base of the small
tools' tests.

The programs come from the directory in $BIN (build/user/bin of this tree
by default; a relative $BIN is taken from the tree's top).
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import testproc  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, os.environ.get("BIN", "build/user/bin"))
NOT_A_PID = "999999999"         # above any pid_max


def missing(names):
    """Those of names that are not built in BIN."""
    return [t for t in names if not os.access(os.path.join(BIN, t), os.X_OK)]


def program(name):
    """Where user/bin's name is built."""
    return os.path.join(BIN, name)


def tool(name, *args, timeout=20):
    """The tool's run, its output as text."""
    return testproc.run([program(name)] + [str(a) for a in args], capture_output=True, text=True,
                        timeout=timeout)


def run(name, *args, stdin=b"", env=None):
    """The tool's run, its output as bytes."""
    return testproc.run([program(name), *args], input=stdin, capture_output=True, timeout=10, env=env)


def read(path):
    with open(path) as f:
        return f.read()


class ToolTest(unittest.TestCase):
    def assertUsage(self, result, status):
        self.assertEqual(result.returncode, status, result)
        self.assertIn(b"usage:", result.stderr)

    def assertFails(self, result, message=b""):
        """Status 1 and a message on standard error (containing `message`)."""
        self.assertEqual(result.returncode, 1, result)
        self.assertIn(message, result.stderr)
        self.assertNotEqual(result.stderr, b"")

    def spawn_sleeper(self):
        """A process that sleeps until the test ends: its pid."""
        p = testproc.start([program("sleep"), "30"])
        self.addCleanup(testproc.end, p)
        return p.pid
