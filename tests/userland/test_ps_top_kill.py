"""Tests of the ring-3 tools ps, top and kill (user/bin/), run on this
host's Linux: python3 tests/userland/test_ps_top_kill.py

The binaries come from the directory in $BIN (userbin.py). They read only
what leftmost's /proc provides too, so what passes here is what they do
there.
"""
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from testproc import budget, end, start  # noqa: E402
from userbin import BIN, missing, read, tool  # noqa: E402

TOOLS = ("ps", "top", "kill")
HZ = os.sysconf("SC_CLK_TCK")
NO_SUCH_PID = 4194304          # pid_max's ceiling: never a pid
BUSY_LOOP = ["sh", "-c", "while :; do :; done"]
THREADS = """
import threading, time
stop = threading.Event()
for _ in range(3):
    threading.Thread(target=stop.wait, daemon=True).start()
print("ready", flush=True)
time.sleep(60)
"""


def setUpModule():
    if missing(TOOLS):
        raise AssertionError("no %s in %s: build them first, or set BIN" % (", ".join(missing(TOOLS)), BIN))


def cpu_ticks(pid):
    f = stat_fields(pid)
    return int(f[14]) + int(f[15])


def stat_fields(pid):
    """/proc/PID/stat's fields numbered as in proc(5): [3] is the state."""
    text = read("/proc/%d/stat" % pid)
    return [None, None, None] + text[text.rindex(")") + 2:].split()


def table(output):
    """ps's output as (header, [row, ...]), a row split in as many cells as
    the header has (the last one keeps its spaces)."""
    lines = output.splitlines()
    header = lines[0].split()
    return header, [line.split(None, len(header) - 1) for line in lines[1:]]


class Children:
    """Processes a test starts (with default signals: kill's cases send them
    SIGINT and SIGQUIT too), their groups killed and reaped when it ends."""

    def __init__(self, test):
        self.procs = []
        test.addCleanup(self.end_all)

    def start(self, argv, wait_for_comm=None, **kwargs):
        p = start(argv, stdin=subprocess.DEVNULL, **kwargs)
        self.procs.append(p)
        if wait_for_comm:                   # until it has run its execve
            deadline = time.monotonic() + budget(5)
            while read("/proc/%d/comm" % p.pid).strip() != wait_for_comm:
                if time.monotonic() > deadline:
                    raise AssertionError("%s never started" % wait_for_comm)
                time.sleep(0.01)
        return p

    def sleeper(self, **kwargs):
        """sleep 30, once it sleeps."""
        p = self.start(["sleep", "30"], "sleep", **kwargs)
        deadline = time.monotonic() + budget(5)
        while stat_fields(p.pid)[3] != "S":
            if time.monotonic() > deadline:
                raise AssertionError("sleep never slept")
            time.sleep(0.01)
        return p

    def threaded(self):
        """A process of four threads, once they are all there."""
        p = self.start([sys.executable, "-c", THREADS], stdout=subprocess.PIPE, text=True)
        if p.stdout.readline().strip() != "ready":
            raise AssertionError("the threaded child did not start")
        return p

    def end_all(self):
        for p in self.procs:
            end(p)


def pin_and_nice(cpu, nice):
    def setup():
        os.sched_setaffinity(0, {cpu})
        os.nice(nice)
    return setup


class PsTest(unittest.TestCase):
    def setUp(self):
        self.children = Children(self)

    def test_it_lists_every_process_by_pid_and_itself(self):
        p = start([os.path.join(BIN, "ps")], stdout=subprocess.PIPE, text=True)
        self.addCleanup(end, p)
        out, _ = p.communicate(timeout=budget(20))
        self.assertEqual(p.returncode, 0)
        header, rows = table(out)
        self.assertEqual(header, ["PID", "CLS", "PRI", "NI", "PSR", "S", "%CPU", "TIME", "CMD"])
        pids = [int(r[0]) for r in rows]
        self.assertEqual(pids, sorted(pids))
        self.assertIn(1, pids)
        self.assertIn(os.getpid(), pids)
        me = rows[pids.index(p.pid)]
        self.assertEqual(me[-1], os.path.join(BIN, "ps"))
        self.assertEqual(me[5], "R")
        for r in rows:
            self.assertRegex(r[7], r"^(\d+-)?\d\d:\d\d:\d\d$")
            self.assertRegex(r[6], r"^\d+\.\d$")

    def test_nice_policy_and_cpu_of_a_sleeping_child(self):
        cpu = max(os.sched_getaffinity(0))
        child = self.children.sleeper(preexec_fn=pin_and_nice(cpu, 5))
        r = tool("ps", "-p", child.pid)
        self.assertEqual(r.returncode, 0, r.stderr)
        _, rows = table(r.stdout)
        self.assertEqual(len(rows), 1)
        share = rows[0].pop(6)              # what exec took: a tick perhaps
        self.assertEqual(rows[0], [str(child.pid), "TS", "14", "5", str(cpu), "S", "00:00:00", "sleep 30"])
        self.assertRegex(share, r"^\d+\.\d$")

    def test_batch_and_idle_policies(self):
        for policy, name in ((os.SCHED_BATCH, "B"), (os.SCHED_IDLE, "IDL")):
            child = self.children.start(["sleep", "30"], "sleep",
                                        preexec_fn=lambda: os.sched_setscheduler(0, policy, os.sched_param(0)))
            r = tool("ps", "-p", child.pid, "-o", "pid,cls,rtprio,comm")
            self.assertEqual(table(r.stdout)[1], [[str(child.pid), name, "-", "sleep"]])

    def test_a_realtime_child(self):
        def fifo():
            os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
        try:
            child = self.children.sleeper(preexec_fn=fifo)
        except (PermissionError, subprocess.SubprocessError):
            self.skipTest("SCHED_FIFO is not allowed here")
        r = tool("ps", "-p", child.pid, "-o", "cls,pri,ni,rtprio")
        self.assertEqual(table(r.stdout)[1], [["FF", "41", "-", "1"]])

    def test_cpu_share_and_time_agree_with_proc(self):
        child = self.children.start(BUSY_LOOP, "sh")
        time.sleep(0.5)
        child.send_signal(signal.SIGSTOP)      # its CPU time stays as it is
        self.addCleanup(child.send_signal, signal.SIGCONT)
        time.sleep(0.05)
        f = stat_fields(child.pid)
        ticks = int(f[14]) + int(f[15])
        # ps divides by the time since the child started as it found it: after
        # before, and before after (which a busy host may make much later).
        before = float(read("/proc/uptime").split()[0]) - int(f[22]) / HZ
        r = tool("ps", "-p", child.pid, "-o", "s,time,%cpu")
        after = float(read("/proc/uptime").split()[0]) - int(f[22]) / HZ
        _, rows = table(r.stdout)
        state, cputime, share = rows[0]
        self.assertEqual(state, "T")
        self.assertEqual(cputime, time.strftime("%H:%M:%S", time.gmtime(ticks // HZ)))
        cpu = 100 * ticks / HZ
        self.assertTrue(cpu / (after + 0.02) - 0.5 <= float(share) <= cpu / max(before - 0.02, 0.01) + 0.5,
                        (share, cpu / after, cpu / before))
        self.assertGreater(float(share), 0)

    def test_threads_with_L(self):
        child = self.children.threaded()
        r = tool("ps", "-L", "-p", child.pid)
        header, rows = table(r.stdout)
        self.assertEqual(header[:2], ["PID", "TID"])
        self.assertEqual(len(rows), 4)
        self.assertEqual({row[0] for row in rows}, {str(child.pid)})
        tids = [int(row[1]) for row in rows]
        self.assertEqual(len(set(tids)), 4)
        self.assertEqual(tids[0], child.pid)
        self.assertEqual(sorted(tids), sorted(int(t) for t in os.listdir("/proc/%d/task" % child.pid)))
        without = tool("ps", "-p", child.pid, "-o", "pid,nlwp")
        self.assertEqual(table(without.stdout)[1], [[str(child.pid), "4"]])

    def test_pid_lists(self):
        a = self.children.sleeper()
        b = self.children.sleeper()
        want = sorted([str(a.pid), str(b.pid)], key=int)
        for args in (["-p", "%d,%d" % (b.pid, a.pid)], ["-p", "%d %d" % (a.pid, b.pid)],
                     ["-p", a.pid, "-p", b.pid], ["-e", "-p", "%d,%d" % (a.pid, b.pid)]):
            r = tool("ps", *args, "-o", "pid")
            self.assertEqual([row[0] for row in table(r.stdout)[1]], want, args)

    def test_no_process_found(self):
        r = tool("ps", "-p", NO_SUCH_PID)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(len(r.stdout.splitlines()), 1)

    def test_usage_errors(self):
        for args, message in ((["-Z"], ""), (["-p", "12x"], "process ID list syntax error"),
                              (["-o", "pid,nosuch"], "unknown column"), (["extra"], "unexpected argument")):
            r = tool("ps", *args)
            self.assertEqual(r.returncode, 1, args)
            self.assertIn(message, r.stderr)
            self.assertIn("Usage: ps", r.stderr)
        r = tool("ps", "-h")
        self.assertEqual(r.returncode, 0)
        self.assertIn("Usage: ps", r.stdout)


def frames(output):
    """top -b's frames, each a list of lines."""
    parts = re.split(r"(?m)^(?=top - )", output)
    return [p.rstrip("\n").split("\n") for p in parts if p]


def cpu_count():
    with open("/proc/stat") as f:
        return sum(1 for line in f if re.match(r"cpu\d", line))


class TopTest(unittest.TestCase):
    def setUp(self):
        self.children = Children(self)

    def check_frame(self, frame, label="Tasks"):
        self.assertRegex(frame[0], r"^top - \d\d:\d\d:\d\d up .+,  load average: [\d.]+, [\d.]+, [\d.]+$")
        m = re.match(r"^%s: +(\d+) total, +(\d+) running, +(\d+) sleeping, +(\d+) stopped, +(\d+) zombie$" % label,
                     frame[1])
        self.assertTrue(m, frame[1])
        ncpus = cpu_count()
        for i in range(ncpus):
            self.assertRegex(frame[2 + i], r"^%%Cpu%-3d: +[\d.]+ us, +[\d.]+ sy, +[\d.]+ ni, +[\d.]+ id$" % i)
        self.assertRegex(frame[2 + ncpus], r"^MiB Mem : +[\d.]+ total, +[\d.]+ free, +[\d.]+ avail$")
        self.assertEqual(frame[3 + ncpus], "")
        self.assertEqual(frame[4 + ncpus].split(), ["PID", "PR", "NI", "S", "%CPU", "TIME+", "P", "COMMAND"])
        rows = [line.split(None, 7) for line in frame[5 + ncpus:]]
        self.assertEqual(len(rows), int(m.group(1)))
        shares = [float(r[4]) for r in rows]
        self.assertEqual(shares, sorted(shares, reverse=True))
        for r in rows:
            self.assertRegex(r[5], r"^\d+:\d\d\.\d\d$")
        return rows

    def test_batch_frames_put_a_busy_child_first(self):
        # Other programs may load the machine too: the busy child must have
        # had most of a CPU for the test to count, and any row before it is
        # as busy.
        for attempt in range(3):
            busy = self.children.start(BUSY_LOOP, "sh")
            time.sleep(0.3)
            start, ticks = time.monotonic(), cpu_ticks(busy.pid)
            r = tool("top", "-b", "-n", 2, "-d", 0.2)
            share = 100 * (cpu_ticks(busy.pid) - ticks) / HZ / (time.monotonic() - start)
            busy.kill()
            self.assertEqual(r.returncode, 0, r.stderr)
            got = frames(r.stdout)
            self.assertEqual(len(got), 2)
            self.check_frame(got[0])
            rows = self.check_frame(got[1])
            if share > 80:
                break
        else:
            self.skipTest("the machine is too busy: the busy child had %.0f%% of a CPU" % share)
        index = [row[0] for row in rows].index(str(busy.pid))
        self.assertGreater(float(rows[index][4]), 50)
        self.assertEqual(rows[index][7], "sh")
        self.assertIn(int(rows[index][6]), os.sched_getaffinity(0))
        self.assertTrue(all(float(row[4]) > 50 for row in rows[:index]), rows[:index + 1])

    def test_nice_and_cpu_of_a_child(self):
        cpu = max(os.sched_getaffinity(0))
        child = self.children.sleeper(preexec_fn=pin_and_nice(cpu, 5))
        r = tool("top", "-b", "-n", 1)
        rows = self.check_frame(frames(r.stdout)[0])
        mine = [row for row in rows if row[0] == str(child.pid)]
        self.assertEqual(len(mine), 1)
        pid, priority, nice, state, share, cputime, last_cpu, command = mine[0]
        self.assertEqual((priority, nice, state, last_cpu, command), ("25", "5", "S", str(cpu), "sleep"))

    def test_threads_with_H(self):
        child = self.children.threaded()
        r = tool("top", "-b", "-H", "-n", 1)
        rows = self.check_frame(frames(r.stdout)[0], "Threads")
        tids = {int(t) for t in os.listdir("/proc/%d/task" % child.pid)}
        self.assertEqual(len(tids), 4)
        self.assertLessEqual(tids, {int(row[0]) for row in rows})

    def test_usage_errors(self):
        for args in (["-Z"], ["-d", "soon"], ["-d", "-1"], ["-n", "0"], ["-n", "2x"], ["extra"]):
            r = tool("top", "-b", *args)
            self.assertEqual(r.returncode, 1, args)
            self.assertIn("Usage: top", r.stderr)


class TopOnATerminalTest(unittest.TestCase):
    """top full-screen on a pseudo-terminal of 15 rows of 70 columns."""
    ROWS, COLUMNS = 15, 70

    def setUp(self):
        self.master, self.slave = pty.openpty()
        self.addCleanup(os.close, self.master)
        self.addCleanup(os.close, self.slave)
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", self.ROWS, self.COLUMNS, 0, 0))
        self.before = termios.tcgetattr(self.slave)
        self.top = start([os.path.join(BIN, "top"), "-d", "0.2"],
                         stdin=self.slave, stdout=self.slave, stderr=self.slave)
        self.addCleanup(end, self.top)
        self.screen = b""

    def read_until(self, done, timeout=10):
        deadline = time.monotonic() + budget(timeout)
        while not done() and time.monotonic() < deadline:
            if select.select([self.master], [], [], 0.1)[0]:
                self.screen += os.read(self.master, 65536)

    def frames_drawn(self):
        return self.screen.count(b"\x1b[J")

    def end_with(self, how):
        self.read_until(lambda: self.frames_drawn() >= 2)
        self.assertGreaterEqual(self.frames_drawn(), 2)
        mode = termios.tcgetattr(self.slave)
        self.assertFalse(mode[3] & (termios.ICANON | termios.ECHO))
        how()
        self.read_until(lambda: self.top.poll() is not None)
        self.assertEqual(self.top.wait(timeout=budget(5)), 0)
        self.assertEqual(termios.tcgetattr(self.slave), self.before)

    def test_q_quits_and_the_frame_fits_the_screen(self):
        self.end_with(lambda: os.write(self.master, b"q"))
        frame = self.screen.split(b"\x1b[H")[2].split(b"\x1b[J")[0].decode()
        lines = [re.sub(r"\x1b\[K|\r", "", line) for line in frame.split("\n")]
        self.assertEqual(len(lines), self.ROWS)
        self.assertTrue(lines[0].startswith("top - "))
        self.assertTrue(all(len(line) <= self.COLUMNS for line in lines))

    def test_ctrl_c_quits(self):
        self.end_with(lambda: os.write(self.master, b"\x03"))

    def test_sigterm_quits(self):
        self.end_with(lambda: self.top.send_signal(signal.SIGTERM))


class KillTest(unittest.TestCase):
    def setUp(self):
        self.children = Children(self)

    def test_signals_by_name_and_number(self):
        for args, sig in (([], signal.SIGTERM), (["-s", "HUP"], signal.SIGHUP), (["-s", "2"], signal.SIGINT),
                          (["-KILL"], signal.SIGKILL), (["-SIGUSR1"], signal.SIGUSR1), (["-usr2"], signal.SIGUSR2),
                          (["-9"], signal.SIGKILL), (["--"], signal.SIGTERM)):
            child = self.children.sleeper()
            r = tool("kill", *args, child.pid)
            self.assertEqual((r.returncode, r.stderr), (0, ""), args)
            self.assertEqual(child.wait(timeout=budget(5)), -sig, args)

    def test_signal_0_only_checks(self):
        child = self.children.sleeper()
        self.assertEqual(tool("kill", "-0", child.pid).returncode, 0)
        self.assertIsNone(child.poll())
        self.assertEqual(tool("kill", "-s", "0", NO_SUCH_PID).returncode, 1)

    def test_a_process_group(self):
        for args in (["--"], ["-9"]):
            leader = self.children.start(["sh", "-c", "sleep 30 & sleep 30 & wait"])
            deadline = time.monotonic() + budget(5)
            while len(self.group(leader.pid)) < 3 and time.monotonic() < deadline:
                time.sleep(0.01)
            self.assertEqual(len(self.group(leader.pid)), 3)
            r = tool("kill", *args, -leader.pid)
            self.assertEqual(r.returncode, 0, r.stderr)
            leader.wait(timeout=budget(5))
            deadline = time.monotonic() + budget(5)
            while self.group(leader.pid) and time.monotonic() < deadline:
                time.sleep(0.01)
            self.assertEqual(self.group(leader.pid), [])

    @staticmethod
    def group(pgid):
        """The live processes of a group (zombies, being reaped, are gone)."""
        found = []
        for name in os.listdir("/proc"):
            try:
                f = stat_fields(int(name))
            except (ValueError, OSError):
                continue
            if int(f[5]) == pgid and f[3] != "Z":
                found.append(int(name))
        return found

    def test_failures_are_per_pid(self):
        child = self.children.sleeper()
        r = tool("kill", NO_SUCH_PID, child.pid, "12abc")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr, "kill: (%d) - No such process\nkill: failed to parse argument: '12abc'\n"
                         % NO_SUCH_PID)
        self.assertEqual(child.wait(timeout=budget(5)), -signal.SIGTERM)

    def test_list(self):
        r = tool("kill", "-l")
        names = r.stdout.split()
        self.assertEqual(names[:3], ["HUP", "INT", "QUIT"])
        self.assertEqual(names[8], "KILL")
        self.assertIn("TERM", names)
        self.assertTrue(all(len(line) <= 80 for line in r.stdout.splitlines()))
        for arg, want in (("9", "KILL"), ("137", "KILL"), ("15", "TERM"), ("TERM", "15"), ("sigkill", "9")):
            r = tool("kill", "-l", arg)
            self.assertEqual((r.returncode, r.stdout), (0, want + "\n"), arg)
        r = tool("kill", "-l", "NOSUCH")
        self.assertEqual(r.returncode, 1)
        self.assertIn("unknown signal", r.stderr)

    def test_usage_errors(self):
        for args in ([], ["-9"], ["-NOSUCH", "1"], ["-s"], ["-s", "NOSUCH", "1"]):
            r = tool("kill", *args)
            self.assertEqual(r.returncode, 1, args)
            self.assertIn("Usage: kill", r.stderr)


if __name__ == "__main__":
    unittest.main()
