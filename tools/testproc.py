"""What the host tests (tests/tools/, tests/userland/) share for the
processes they start.

Wherever the tree is cloned and however the tests are started, a child
starts as a terminal's would and never outlives its test:

- start() and run() give it every signal's default action. A job started
  in the background of a script has SIGINT and SIGQUIT ignored, and what
  it starts would inherit that: a test that sends them would wait for a
  child that never dies. The signals this process ignores are caught, by
  a handler that does nothing, while the child starts: exec sets a caught
  signal back to its default. (A preexec_fn would do it in the child, but
  costs a fork of this whole process: 30-70 ms a child, not 7.)
- start() runs it in a session of its own, and end() kills its process
  group (or the whole session, where a shell's jobs have groups of their
  own) and reaps the leader: the tests call it in a clean-up, and run() on
  a timeout or any error.
- budget() scales a time limit by how busy the host is, measured when the
  first limit is asked for and again (the load average) at each one: a
  limit is for a child that hangs, not for one that a busy host slowed.
"""
import contextlib
import os
import signal
import subprocess
import threading
import time

_share = None


def cpu_share():
    """The part of a CPU this process gets now: 0.1 s of wall clock spent
    busy, and how much of it the process ran (1 on an idle host)."""
    wall, cpu = time.monotonic(), time.thread_time()
    while time.monotonic() - wall < 0.1:
        pass
    return max(0.01, (time.thread_time() - cpu) / (time.monotonic() - wall))


def slowdown():
    """How many times longer than on an idle host things take now: the
    larger of the CPU share measured once and the load average per CPU."""
    global _share
    if _share is None:
        _share = cpu_share()
    per_cpu = os.getloadavg()[0] / len(os.sched_getaffinity(0))
    return min(30.0, max(1.0, 1 / _share, per_cpu))


def budget(seconds):
    """A time limit of `seconds` on an idle host, stretched by slowdown()."""
    return seconds * slowdown()


# SIGPIPE and SIGXFSZ are subprocess's (restore_signals, on unless a test
# wants them as Python leaves them).
SIGNALS = [s for s in range(1, signal.NSIG)
           if s not in (signal.SIGKILL, signal.SIGSTOP, signal.SIGPIPE, signal.SIGXFSZ)]


def _caught(signum, frame):
    pass                                # as ignored as before, meanwhile


@contextlib.contextmanager
def default_signals_in_children():
    """Children started inside get the default action of every signal this
    process ignores; this process goes on ignoring them."""
    if threading.current_thread() is not threading.main_thread():
        yield                           # only the main thread may set handlers
        return
    ignored = [s for s in SIGNALS if signal.getsignal(s) == signal.SIG_IGN]
    for s in ignored:
        signal.signal(s, _caught)
    try:
        yield
    finally:
        for s in ignored:
            signal.signal(s, signal.SIG_IGN)


def default_signals():
    """In a child of os.fork or pty.fork: every signal's default action,
    none blocked."""
    for sig in range(1, signal.NSIG):
        if sig not in (signal.SIGKILL, signal.SIGSTOP):
            try:
                signal.signal(sig, signal.SIG_DFL)
            except (OSError, ValueError):
                pass                    # not a signal on this system
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


def start(argv, **kwargs):
    """subprocess.Popen in a session of its own, with default signals."""
    with default_signals_in_children():
        return subprocess.Popen(argv, start_new_session=True, **kwargs)


def kill_session(sid):
    """SIGKILL to every process of session sid (what its leader left running
    too, in any group)."""
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            # pid (comm) state ppid pgrp session ...: comm may hold spaces.
            if int(stat.rsplit(")", 1)[1].split()[3]) == sid:
                os.kill(int(entry), signal.SIGKILL)
        except (FileNotFoundError, ProcessLookupError):
            pass                        # it has just ended


def end(p, session=False):
    """Kills p's process group, or with session its whole session, and reaps p."""
    if session:
        kill_session(p.pid)
    else:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass                        # all of it has ended
    p.wait()
    for f in (p.stdin, p.stdout, p.stderr):
        if f:
            f.close()


def run(argv, input=None, timeout=20, **kwargs):
    """subprocess.run through start(): the group is killed and the child
    reaped on return, on a timeout (budget(timeout)) and on any error."""
    if input is not None:
        kwargs["stdin"] = subprocess.PIPE
    if kwargs.pop("capture_output", False):
        kwargs["stdout"] = kwargs["stderr"] = subprocess.PIPE
    p = start(argv, **kwargs)
    try:
        out, err = p.communicate(input, timeout=budget(timeout))
    finally:
        end(p)
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)
