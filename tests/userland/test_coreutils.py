"""The small tools of user/bin, run on the host's Linux: sleep, cat, echo,
ls, true, false, yes, uname and help; poweroff and reboot are only checked
to be built, never run (this host would go down).

    BIN=build/user/bin python3 tests/userland/test_coreutils.py

BIN is the directory of the built programs (userbin.py); where they are
not built, the tests are skipped, saying so.
"""
import fcntl
import os
import pty
import re
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import termios
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import testproc  # noqa: E402
from userbin import BIN, ToolTest, missing, program, run  # noqa: E402

TOOLS = ("sleep cat echo ls true false yes uname help poweroff reboot").split()


def setUpModule():
    if missing(TOOLS):
        raise unittest.SkipTest("not built in %s: %s" % (BIN, " ".join(missing(TOOLS))))


class SleepTest(ToolTest):
    def test_sleeps_the_sum_of_its_durations(self):
        for args, seconds in ((["0.1"], 0.1), (["0.05", "0.05s"], 0.1), (["0.001m"], 0.06)):
            start = time.monotonic()
            self.assertEqual(run("sleep", *args).returncode, 0)
            took = time.monotonic() - start
            self.assertGreaterEqual(took, seconds, args)
            self.assertLess(took, seconds + testproc.budget(2), args)

    def test_bad_durations_fail(self):
        for duration in ("x", "1q", "1ss", "", "nan", "s"):
            self.assertFails(run("sleep", duration), b"invalid time interval")
        self.assertUsage(run("sleep"), 1)
        self.assertUsage(run("sleep", "-1"), 1)


class CatTest(ToolTest):
    def setUp(self):
        d = tempfile.TemporaryDirectory()
        self.addCleanup(d.cleanup)
        self.a, self.b = os.path.join(d.name, "a"), os.path.join(d.name, "b")
        with open(self.a, "wb") as f:
            f.write(b"one\ntwo")
        with open(self.b, "wb") as f:
            f.write(bytes(range(256)) + b"\n\nend\n")

    def test_concatenates(self):
        r = run("cat", self.a, "-", self.b, stdin=b"in\n")
        self.assertEqual(r.stdout, b"one\ntwoin\n" + bytes(range(256)) + b"\n\nend\n")
        self.assertEqual(run("cat", stdin=b"only stdin").stdout, b"only stdin")

    def test_numbers_lines_across_files(self):
        r = run("cat", "-n", self.a, self.a)
        self.assertEqual(r.stdout, b"     1\tone\n     2\ttwoone\n     3\ttwo")

    def test_a_missing_file_is_reported_and_the_others_copied(self):
        r = run("cat", self.a, "/no/such/file", self.a)
        self.assertFails(r, b"/no/such/file: No such file or directory")
        self.assertEqual(r.stdout, b"one\ntwoone\ntwo")

    def test_bad_option(self):
        self.assertUsage(run("cat", "-Z"), 1)


class EchoTest(ToolTest):
    def test_echo(self):
        for args, out in ((["a", "b"], b"a b\n"), ([], b"\n"), (["-n", "a"], b"a"),
                          (["a\\tb"], b"a\\tb\n"), (["-e", "a\\tb\\n"], b"a\tb\n\n"),
                          (["-e", "\\a\\b\\e\\f\\r\\v\\\\"], b"\a\b\033\f\r\v\\\n"),
                          (["-e", "\\0101\\102\\x43\\x4a", "\\q\\x"], b"ABCJ \\q\\x\n"),
                          (["-e", "a\\cb", "c"], b"a"), (["-neE", "a\\n"], b"a\\n"),
                          (["-x", "-n"], b"-x -n\n"), (["--", "a"], b"-- a\n"), (["-"], b"-\n")):
            r = run("echo", *args)
            self.assertEqual((r.returncode, r.stdout), (0, out), args)


class LsTest(ToolTest):
    def setUp(self):
        d = tempfile.TemporaryDirectory()
        self.addCleanup(d.cleanup)
        self.dir = d.name
        for name, data in (("b", b""), ("a", b"hello\n"), (".hidden", b"x")):
            with open(os.path.join(self.dir, name), "wb") as f:
                f.write(data)
        os.mkdir(os.path.join(self.dir, "sub"))
        os.chmod(os.path.join(self.dir, "b"), 0o4750)
        old = time.mktime((2020, 1, 2, 3, 4, 5, 0, 0, -1))
        os.utime(os.path.join(self.dir, "b"), (old, old))

    def ls(self, *args):
        r = run("ls", *args, env=dict(os.environ, TZ="UTC"))
        self.assertEqual(r.returncode, 0, r)
        return r.stdout.decode()

    def test_names_sorted_hidden_ones_with_a(self):
        self.assertEqual(self.ls("-1", self.dir), "a\nb\nsub\n")
        self.assertEqual(self.ls(self.dir), "a\nb\nsub\n", "not a terminal: one per line")
        self.assertEqual(self.ls("-a", "-1", self.dir), ".\n..\n.hidden\na\nb\nsub\n")

    def test_long(self):
        lines = self.ls("-l", self.dir).splitlines()
        self.assertEqual([line.split()[-1] for line in lines], ["a", "b", "sub"])
        for line in lines:
            name = line.split()[-1]
            st = os.lstat(os.path.join(self.dir, name))
            when = time.gmtime(st.st_mtime)
            date = time.strftime("%b %e  %Y" if when.tm_year == 2020 else "%b %e %H:%M", when)
            mode = re.escape(stat.filemode(st.st_mode))
            self.assertRegex(line, r"^%s +%d +%d %s %s$" % (mode, st.st_nlink, st.st_size, date, name))
        self.assertTrue(lines[1].startswith("-rwsr-x--- "), lines[1])

    def test_files_then_directories_under_headings(self):
        a, sub = os.path.join(self.dir, "a"), os.path.join(self.dir, "sub")
        self.assertEqual(self.ls(sub, self.dir, a),
                         "%s\n\n%s:\na\nb\nsub\n\n%s:\n" % (a, self.dir, sub))

    def test_failures_are_status_2(self):
        r = run("ls", self.dir, "/no/such/path")
        self.assertEqual(r.returncode, 2)
        self.assertIn(b"/no/such/path", r.stderr)
        self.assertEqual(r.stdout.decode(), "%s:\na\nb\nsub\n" % self.dir, "two paths: headings")
        self.assertUsage(run("ls", "-Z"), 2)

    def on_terminal(self, width, *args):
        """ls's output on a terminal `width` columns wide."""
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, width, 0, 0))
        try:
            self.assertEqual(testproc.run([program("ls"), *args], stdout=slave, timeout=10).returncode, 0)
        finally:
            os.close(slave)
        out = b""
        try:
            while chunk := os.read(master, 4096):
                out += chunk
        except OSError:                 # EIO: the terminal's other end is closed
            pass
        os.close(master)
        return out.decode().replace("\r\n", "\n")

    def test_columns_on_a_terminal(self):
        for name in ("n1", "n2", "n3", "n4", "longer5", "n6"):
            open(os.path.join(self.dir, "sub", name), "w").close()
        sub = os.path.join(self.dir, "sub")
        self.assertEqual(self.on_terminal(80, sub), "longer5  n1  n2  n3  n4  n6\n")
        self.assertEqual(self.on_terminal(20, sub), "longer5  n2  n4\nn1       n3  n6\n")
        self.assertEqual(self.on_terminal(20, "-1", sub), "longer5\nn1\nn2\nn3\nn4\nn6\n")


class TrueFalseTest(ToolTest):
    def test_statuses(self):
        self.assertEqual(run("true").returncode, 0)
        self.assertEqual(run("true", "-x", "--help").returncode, 0)
        self.assertEqual(run("false").returncode, 1)
        self.assertEqual(run("false", "-x").returncode, 1)


class YesTest(ToolTest):
    def test_into_head(self):
        for args, lines, out in (("", 3, b"y\ny\ny\n"), (" a -b", 2, b"a -b\na -b\n")):
            r = testproc.run("'%s'%s | head -%d" % (program("yes"), args, lines), shell=True,
                             capture_output=True, timeout=10)
            self.assertEqual(r.stdout, out)

    def test_stops_quietly_when_the_reader_goes(self):
        # Python ignores SIGPIPE, and so does the child unless restored:
        # then the write fails with EPIPE.
        for restore in (True, False):
            p = subprocess.Popen([program("yes")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 restore_signals=restore, start_new_session=True)
            self.addCleanup(testproc.end, p)
            self.assertEqual(p.stdout.read(4), b"y\ny\n")
            p.stdout.close()
            self.assertEqual(p.wait(timeout=testproc.budget(10)), -signal.SIGPIPE if restore else 1)
            self.assertEqual(p.stderr.read(), b"")
            p.stderr.close()

    def test_bad_option(self):
        self.assertUsage(run("yes", "-x"), 1)


class UnameTest(ToolTest):
    def test_fields(self):
        u = os.uname()
        self.assertEqual(run("uname").stdout.decode(), u.sysname + "\n")
        self.assertEqual(run("uname", "-s").stdout.decode(), u.sysname + "\n")
        self.assertEqual(run("uname", "-m", "-n").stdout.decode(), "%s %s\n" % (u.nodename, u.machine))
        everything = (u.sysname, u.nodename, u.release, u.version, u.machine, u.sysname)
        self.assertEqual(run("uname", "-a").stdout.decode(), " ".join(everything) + "\n")

    def test_bad_usage(self):
        self.assertUsage(run("uname", "-x"), 1)
        self.assertUsage(run("uname", "extra"), 1)


class HelpTest(ToolTest):
    def test_lists_the_commands_in_one_screen(self):
        out = run("help").stdout.decode()
        self.assertLess(len(out.splitlines()), 40)
        commands = {line.split()[0] for line in out.splitlines() if line.startswith("  ")}
        for command in TOOLS + ["nice", "renice", "chrt", "taskset", "ps", "top", "sysctl",
                                "kill", "time", "sh", "demo"]:
            self.assertIn(command, commands)
        for text in ("Ctrl-T", "/proc/sched_debug", "/proc/PID/sched", "/proc/sys/kernel/sched_"):
            self.assertIn(text, out)

    def test_bad_usage(self):
        self.assertUsage(run("help", "-h"), 1)
        self.assertUsage(run("help", "x"), 1)


class PowerTest(unittest.TestCase):
    def test_built_never_run(self):
        # Running them here could turn this very machine off.
        for name in ("poweroff", "reboot"):
            self.assertTrue(os.access(program(name), os.X_OK), name)


if __name__ == "__main__":
    unittest.main()
