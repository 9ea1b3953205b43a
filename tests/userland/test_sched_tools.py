"""The scheduling tools of user/bin, run on the host's Linux: nice, renice,
chrt and taskset.

    BIN=build/user/bin python3 tests/userland/test_sched_tools.py

BIN is the directory of the built programs (userbin.py); where they are
not built, the tests are skipped, saying so.
"""
import os
import re
import tempfile
import unittest

from userbin import BIN, NOT_A_PID, ToolTest, missing, program, run

TOOLS = "nice renice chrt taskset sleep cat".split()


def setUpModule():
    if missing(TOOLS):
        raise unittest.SkipTest("not built in %s: %s" % (BIN, " ".join(missing(TOOLS))))


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


class NiceTest(ToolTest):
    def test_without_a_command_prints_the_niceness(self):
        r = run("nice")
        self.assertEqual(r.stdout, b"%d\n" % os.getpriority(os.PRIO_PROCESS, 0))

    def test_the_command_runs_at_the_adjusted_niceness(self):
        base = os.getpriority(os.PRIO_PROCESS, 0)
        r = run("nice", "-n", "5", program("cat"), "/proc/self/stat")
        self.assertEqual(r.returncode, 0, r)
        self.assertEqual(int(proc_stat_field(r.stdout.decode(), 19)), min(base + 5, 19))
        r = run("nice", program("nice"))
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
            r = run("chrt", option, "0", program("cat"), "/proc/self/stat")
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
        r = run("taskset", *args, program("cat"), "/proc/self/status")
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


if __name__ == "__main__":
    unittest.main()
