"""Tests of tools/testproc.py, what the host tests share for the processes
they start: python3 tests/tools/test_testproc.py"""
import os
import signal
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import testproc  # noqa: E402


def alive(pid):
    """Whether pid runs still (not ended, nor a zombie for init to reap)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def ignored_signals(pid):
    with open("/proc/%d/status" % pid) as f:
        mask = int(next(line for line in f if line.startswith("SigIgn:")).split()[1], 16)
    return {s for s in range(1, 65) if mask & (1 << (s - 1))}


class Signals(unittest.TestCase):
    def setUp(self):
        # As in a job started in the background of a script.
        for s in (signal.SIGINT, signal.SIGQUIT):
            self.addCleanup(signal.signal, s, signal.signal(s, signal.SIG_IGN))

    def test_children_start_with_default_actions(self):
        p = testproc.start(["sleep", "30"], stdout=subprocess.DEVNULL)
        self.addCleanup(testproc.end, p)
        deadline = time.monotonic() + testproc.budget(5)
        while open("/proc/%d/comm" % p.pid).read().strip() != "sleep" and time.monotonic() < deadline:
            time.sleep(0.01)
        self.assertFalse(ignored_signals(p.pid) & {signal.SIGINT, signal.SIGQUIT, signal.SIGPIPE})
        os.kill(p.pid, signal.SIGINT)
        self.assertEqual(p.wait(timeout=testproc.budget(5)), -signal.SIGINT)
        self.assertEqual(signal.getsignal(signal.SIGINT), signal.SIG_IGN)   # this process: as it was

    def test_run_too(self):
        r = testproc.run(["sh", "-c", "kill -INT $$; echo survived"], capture_output=True, text=True)
        self.assertEqual((r.returncode, r.stdout), (-signal.SIGINT, ""))

    def test_a_forked_child_resets_them_itself(self):
        pid = os.fork()
        if pid == 0:
            testproc.default_signals()
            os.kill(os.getpid(), signal.SIGQUIT)
            os._exit(0)
        _, status = os.waitpid(pid, 0)
        self.assertEqual(os.waitstatus_to_exitcode(status), -signal.SIGQUIT)


class Ending(unittest.TestCase):
    def test_run_leaves_no_process_of_its_group(self):
        r = testproc.run(["sh", "-c", "sleep 30 >/dev/null 2>&1 & echo $!"], capture_output=True, text=True)
        pid = int(r.stdout)
        deadline = time.monotonic() + testproc.budget(5)
        while alive(pid) and time.monotonic() < deadline:
            time.sleep(0.01)
        self.assertFalse(alive(pid))

    def test_a_timeout_kills_the_group(self):
        with self.assertRaises(subprocess.TimeoutExpired):
            testproc.run(["sh", "-c", "sleep 30; sleep 30"], timeout=0.2)

    def test_a_session_with_groups_of_its_own(self):
        p = testproc.start(["sh", "-c", "sleep 30 & set -m; sleep 30 & wait"])
        deadline = time.monotonic() + testproc.budget(5)
        while len(self.session(p.pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        members = self.session(p.pid)
        self.assertGreaterEqual(len(members), 2)
        testproc.end(p, session=True)
        deadline = time.monotonic() + testproc.budget(5)
        while any(map(alive, members)) and time.monotonic() < deadline:
            time.sleep(0.01)
        self.assertFalse([m for m in members if alive(m)])

    @staticmethod
    def session(sid):
        found = []
        for entry in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open("/proc/%s/stat" % entry) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == sid and fields[0] != "Z":
                found.append(int(entry))
        return found


class Budget(unittest.TestCase):
    def test_at_least_the_idle_figure(self):
        self.assertGreaterEqual(testproc.budget(2), 2)
        self.assertLessEqual(testproc.budget(2), 60)
        self.assertTrue(0 < testproc.cpu_share() <= 1.05)


if __name__ == "__main__":
    unittest.main()
