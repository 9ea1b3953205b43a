"""The small tools of user/bin, run on the host's Linux: nice, renice, chrt,
taskset, sleep, cat, echo, ls, true, false, yes, uname and help; poweroff
and reboot are only checked to be built, never run (this host would go
down).

    BIN=build/user/bin python3 -m unittest tools/test_user_tools2.py

BIN is the directory of the built programs (build/user/bin of this tree if
unset); where they are not built, the tests are skipped, saying so.
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

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("BIN", os.path.join(ROOT, "build", "user", "bin"))
TOOLS = ("nice renice chrt taskset sleep cat echo ls true false yes uname help "
         "poweroff reboot").split()
NOT_A_PID = "999999999"         # above any pid_max


def setUpModule():
    missing = [t for t in TOOLS if not os.access(os.path.join(BIN, t), os.X_OK)]
    if missing:
        raise unittest.SkipTest("not built in %s: %s" % (BIN, " ".join(missing)))


def tool(name):
    return os.path.join(BIN, name)


def run(name, *args, stdin=b"", env=None):
    """The tool's run, its output as bytes."""
    return testproc.run([tool(name), *args], input=stdin, capture_output=True, timeout=10, env=env)


def proc_stat_field(text, number):
    """Field `number` of a /proc/PID/stat line, counted from 1 as in proc(5)."""
    after_name = text[text.rindex(")") + 2:].split()
    return after_name[number - 3]


def cpus_of_list(text):
    """The CPUs of a list such as "0-2,5"."""
    cpus = set()
    for item in text.split(","):
        first, _, last = item.partition("-")
        cpus.update(range(int(first), int(last or first) + 1))
    return cpus


def util_linux_list(cpus):
    """A CPU list as util-linux prints it: runs of three or more as ranges."""
    items, cpus = [], sorted(cpus)
    i = 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        if j - i >= 2:
            items.append("%d-%d" % (cpus[i], cpus[j]))
            i = j + 1
        else:
            items.append(str(cpus[i]))
            i += 1
    return ",".join(items)


def mask_of(cpus):
    return "%x" % sum(1 << c for c in cpus)


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
        p = testproc.start([tool("sleep"), "30"])
        self.addCleanup(testproc.end, p)
        return p.pid


class NiceTest(ToolTest):
    def test_without_a_command_prints_the_niceness(self):
        r = run("nice")
        self.assertEqual(r.stdout, b"%d\n" % os.getpriority(os.PRIO_PROCESS, 0))

    def test_the_command_runs_at_the_adjusted_niceness(self):
        base = os.getpriority(os.PRIO_PROCESS, 0)
        r = run("nice", "-n", "5", tool("cat"), "/proc/self/stat")
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(int(proc_stat_field(r.stdout.decode(), 19)), min(base + 5, 19))
        r = run("nice", tool("nice"))
        self.assertEqual(r.stdout, b"%d\n" % min(base + 10, 19), "10 without -n")

    def test_bad_usage_is_status_125(self):
        self.assertUsage(run("nice", "-Z", "true"), 125)
        self.assertEqual(run("nice", "-n", "x", "true").returncode, 125)
        self.assertEqual(run("nice", "-n", "5").returncode, 125, "an adjustment needs a command")

    def test_a_command_that_cannot_run(self):
        self.assertEqual(run("nice", "/no/such/command").returncode, 127)
        with tempfile.NamedTemporaryFile() as f:
            self.assertEqual(run("nice", f.name).returncode, 126, "not executable")


class ReniceTest(ToolTest):
    def test_sets_and_reports_the_niceness(self):
        # Going up needs no privilege: from ours to two higher ones.
        pid, base = self.spawn_sleeper(), os.getpriority(os.PRIO_PROCESS, 0)
        first, second = min(base + 4, 19), min(base + 6, 19)
        for args, old, new in ((["-n", str(first), "-p"], base, first), ([str(second)], first, second)):
            r = run("renice", *args, str(pid))
            self.assertEqual(r.stdout.decode(),
                             "%d (process ID) old priority %d, new priority %d\n" % (pid, old, new))
            self.assertEqual(os.getpriority(os.PRIO_PROCESS, pid), new)

    def test_a_missing_process_fails_after_the_others(self):
        pid = self.spawn_sleeper()
        r = run("renice", "19", NOT_A_PID, str(pid))
        self.assertFails(r, NOT_A_PID.encode())
        self.assertIn(b"%d (process ID)" % pid, r.stdout)

    def test_bad_usage_is_status_1(self):
        for args in ([], ["5"], ["-x", "5"], ["5", "-p"]):
            self.assertUsage(run("renice", *args), 1)


class ChrtTest(ToolTest):
    def test_shows_a_process_policy(self):
        pid = self.spawn_sleeper()
        self.assertEqual(run("chrt", "-p", str(pid)).stdout.decode(),
                         "pid %d's current scheduling policy: SCHED_OTHER\n"
                         "pid %d's current scheduling priority: 0\n" % (pid, pid))

    def test_runs_a_command_under_a_policy(self):
        for option, policy in (("-b", os.SCHED_BATCH), ("-i", os.SCHED_IDLE), ("-o", os.SCHED_OTHER)):
            r = run("chrt", option, "0", tool("cat"), "/proc/self/stat")
            self.assertEqual(r.returncode, 0, r)
            self.assertEqual(int(proc_stat_field(r.stdout.decode(), 41)), policy, option)

    def test_changes_a_process_policy(self):
        pid = self.spawn_sleeper()
        self.assertEqual(run("chrt", "-i", "-p", "0", str(pid)).returncode, 0)
        self.assertEqual(os.sched_getscheduler(pid), os.SCHED_IDLE)
        self.assertIn(b"policy: SCHED_IDLE\n", run("chrt", "-p", str(pid)).stdout)

    def test_a_priority_outside_the_policy_range_fails(self):
        self.assertFails(run("chrt", "-f", "100", "true"), b"100")
        self.assertFails(run("chrt", "-b", "1", "true"), b"SCHED_BATCH")
        self.assertFails(run("chrt", "-o", "x", "true"))

    def test_lists_the_priority_ranges(self):
        out = run("chrt", "-m").stdout.decode()
        self.assertIn("SCHED_OTHER min/max priority\t: 0/0\n", out)
        self.assertIn("SCHED_FIFO min/max priority\t: 1/99\n", out)

    def test_failures(self):
        self.assertFails(run("chrt", "-p", NOT_A_PID), b"No such process")
        self.assertEqual(run("chrt", "-o", "0", "/no/such/command").returncode, 127)
        for args in ([], ["-Z"], ["-p"], ["-p", "1", "2", "3"], ["5"]):
            self.assertUsage(run("chrt", *args), 1)


class TasksetTest(ToolTest):
    def setUp(self):
        self.cpus = os.sched_getaffinity(0)
        self.first = min(self.cpus)

    def allowed_list(self, *args):
        """The Cpus_allowed_list of a cat that taskset ran so."""
        r = run("taskset", *args, tool("cat"), "/proc/self/status")
        self.assertEqual(r.returncode, 0, r)
        return re.search(r"^Cpus_allowed_list:\s*(\S+)$", r.stdout.decode(), re.M).group(1)

    def test_runs_a_command_on_the_cpus_given(self):
        last = max(self.cpus)
        self.assertEqual(self.allowed_list("-c", str(last)), str(last))
        self.assertEqual(self.allowed_list(mask_of({last})), str(last))
        self.assertEqual(self.allowed_list("0x" + mask_of({self.first})), str(self.first))

    def test_a_list_with_a_stride(self):
        even = {c for c in self.cpus if c % 2 == 0}
        if not even:
            self.skipTest("no even CPU to run on")
        self.assertEqual(cpus_of_list(self.allowed_list("-c", "0-63:2")), even)

    def test_shows_a_process_affinity(self):
        pid = self.spawn_sleeper()
        self.assertEqual(run("taskset", "-p", str(pid)).stdout.decode(),
                         "pid %d's current affinity mask: %s\n" % (pid, mask_of(self.cpus)))
        self.assertEqual(run("taskset", "-cp", str(pid)).stdout.decode(),
                         "pid %d's current affinity list: %s\n" % (pid, util_linux_list(self.cpus)))

    def test_changes_a_process_affinity(self):
        pid = self.spawn_sleeper()
        r = run("taskset", "-p", mask_of({self.first}), str(pid))
        self.assertEqual(r.stdout.decode(), "pid %d's current affinity mask: %s\n"
                         "pid %d's new affinity mask: %s\n"
                         % (pid, mask_of(self.cpus), pid, mask_of({self.first})))
        self.assertEqual(os.sched_getaffinity(pid), {self.first})
        r = run("taskset", "-c", "-p", ",".join(map(str, sorted(self.cpus))), str(pid))
        self.assertEqual(r.stdout.decode(), "pid %d's current affinity list: %d\n"
                         "pid %d's new affinity list: %s\n"
                         % (pid, self.first, pid, util_linux_list(self.cpus)))
        self.assertEqual(os.sched_getaffinity(pid), self.cpus)

    def test_bad_cpus_fail(self):
        for args in (["-c", "9-2"], ["-c", "x"], ["-c", "1-3:0"], ["-c", "1,"], ["-c", ""],
                     ["-c", "4096"], ["x"], ["0x"], [""], ["1" + "0" * 300]):
            self.assertFails(run("taskset", *args, "true"), b"failed to parse CPU")

    def test_failures(self):
        self.assertFails(run("taskset", "-p", NOT_A_PID), b"No such process")
        self.assertEqual(run("taskset", mask_of(self.cpus), "/no/such/command").returncode, 127)
        for args in ([], ["-Z"], ["-p"], ["1"], ["-p", "1", "2", "3"]):
            self.assertUsage(run("taskset", *args), 1)


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
            self.assertEqual(testproc.run([tool("ls"), *args], stdout=slave, timeout=10).returncode, 0)
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
            r = testproc.run("'%s'%s | head -%d" % (tool("yes"), args, lines), shell=True,
                             capture_output=True, timeout=10)
            self.assertEqual(r.stdout, out)

    def test_stops_quietly_when_the_reader_goes(self):
        # Python ignores SIGPIPE, and so does the child unless restored:
        # then the write fails with EPIPE.
        for restore in (True, False):
            p = subprocess.Popen([tool("yes")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
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
        for command in TOOLS + ["ps", "top", "sysctl", "kill", "time", "sh", "demo"]:
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
            self.assertTrue(os.access(tool(name), os.X_OK), name)


if __name__ == "__main__":
    unittest.main()
