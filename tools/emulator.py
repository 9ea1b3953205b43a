"""What tools/qemu.py and tools/bochs.py share: exit statuses, running an
emulator while its serial output is copied out, stopping it.

Both give a test boot the same exit status, so runtests.py and bench.py
treat the emulators alike:
  33 pass, 35 failure, 37 panic (QEMU: the kernel's isa-debug-exit write;
  Bochs: read from the serial log), 124 timeout, 130/143 interrupted.
"""

import argparse
import os
import selectors
import signal
import subprocess
import sys
import termios
import threading
import time

PASS, FAIL, PANIC = 33, 35, 37
TIMEOUT_STATUS = 124        # like coreutils timeout(1)

# Emulators now running, so that an interrupted caller can kill them.
running = set()
lock = threading.Lock()
closing = False             # kill_all() was called: start no more


def stop(proc):
    """End an emulator: SIGTERM, then SIGKILL if it lingers."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def kill_all():
    """Stop every emulator started by run(), and start no more (on Ctrl-C)."""
    global closing
    with lock:
        closing = True
        procs = list(running)
    for proc in procs:
        stop(proc)


def read_some(fd):
    """Up to 4 KiB from fd; b"" at its end (a pty whose other side closed
    says EIO), None if nothing is there now."""
    try:
        return os.read(fd, 4096)
    except BlockingIOError:
        return None
    except OSError:
        return b""


def run(cmd, timeout=None, log=None, echo=True, stall=None, serial=None,
        drain=(), typist=None, **popen):
    """Run an emulator, copying the guest's serial output to stdout (if echo)
    and to log, until the emulator has ended and its output is read.

    serial: the file descriptor the serial output arrives on; by default the
    emulator's stdout (a pipe). drain: descriptors to read and throw away
    (Bochs's screen). typist: a tools/typist.py Typist that hears the
    serial output and types at the emulator's stdin (the serial input).
    popen: subprocess.Popen's arguments.
    Returns the exit status, TIMEOUT_STATUS if timeout seconds passed, or
    None if stall is set and nothing came in stall seconds (the emulator is
    killed) or it ended without any output."""
    with lock:
        if closing:
            return 130
        if serial is None:
            popen["stdout"] = subprocess.PIPE
        if typist:
            popen["stdin"] = subprocess.PIPE
        proc = subprocess.Popen(cmd, **popen)
        running.add(proc)
    if serial is None:
        serial = proc.stdout.fileno()
    os.set_blocking(serial, False)
    start = time.monotonic()
    got_output = False
    logf = open(log, "wb") if log else None
    sel = selectors.DefaultSelector()
    sel.register(serial, selectors.EVENT_READ, True)
    for fd in drain:
        os.set_blocking(fd, False)
        sel.register(fd, selectors.EVENT_READ, False)
    try:
        while True:
            now = time.monotonic() - start
            if timeout is not None and now >= timeout:
                stop(proc)
                return TIMEOUT_STATUS
            if stall is not None and not got_output and now >= stall:
                stop(proc)
                return None
            ended = proc.poll() is not None
            keys = typist.keys() if typist and not ended else b""
            if keys:
                try:
                    proc.stdin.write(keys)
                    proc.stdin.flush()
                except BrokenPipeError:
                    pass                    # it is ending: the verdict will say why
            events = sel.select(0 if ended else 0.1 if typist else 0.5)
            if ended and not events:
                break
            serial_closed = False
            for key, _ in events:
                data = read_some(key.fd)
                if data == b"":
                    sel.unregister(key.fd)
                    serial_closed |= key.data
                if not data or not key.data:
                    continue
                got_output = True
                if typist:
                    typist.heard(data)
                if echo:
                    sys.stdout.buffer.write(data)
                    sys.stdout.buffer.flush()
                if logf:
                    logf.write(data)
                    logf.flush()
            if serial_closed:           # QEMU closed stdout: it is done
                break
        status = proc.wait()
        if stall is not None and not got_output:
            return None                     # e.g. KVM failed to start
        return status if status >= 0 else 128 - status     # killed by a signal
    finally:
        sel.close()
        stop(proc)
        if proc.stdout:
            proc.stdout.close()
        if typist and proc.stdin:
            proc.stdin.close()
        running.discard(proc)
        if logf:
            logf.close()


def common_args(p):
    """The options qemu.py and bochs.py both take."""
    p.add_argument("--iso", required=True, help="ISO image to boot")
    p.add_argument("--smp", type=int, default=4, help="CPUs (default 4)")
    p.add_argument("--mem", default="512M", help="memory (default 512M)")
    p.add_argument("--timeout", type=float, help="kill the emulator after SECONDS (exit 124)")
    p.add_argument("--log", help="also write the serial output to FILE")
    p.add_argument("--dry-run", action="store_true", help="print the command, run nothing")
    p.add_argument("--run-status", action="store_true",
                   help="exit 0 when the kernel powered off cleanly or passed (make run), else "
                        "the status, said in words")
    return p


def parser(prog, description, epilog=None):
    return common_args(argparse.ArgumentParser(prog=prog, description=description, epilog=epilog))


# What a status means to someone at `make run` (0: ACPI power-off, or QEMU
# quit with Ctrl-A X).
MEANINGS = {FAIL: "the kernel reported a failure (an init= program, a workload or a test failed)",
            PANIC: "the kernel panicked", TIMEOUT_STATUS: "the run timed out",
            130: "interrupted", 143: "terminated"}


def run_status(status):
    """(exit status, message or None) for `make run`: a clean power-off or
    a passing run= is success, 0; anything else is the status itself."""
    if status in (0, PASS):
        return 0, None
    return status, f"run: exit status {status}: {MEANINGS.get(status, 'the emulator failed')}"


def main(boot, log=None, run=False):
    """A command's main around boot(): SIGTERM, SIGHUP and Ctrl-C stop the
    emulator; the terminal's settings are restored. run: the status as
    run_status() gives it."""
    if run:
        status, message = run_status(main(boot, log))
        if message:
            print(message, file=sys.stderr)
        return status
    if log:
        os.makedirs(os.path.dirname(os.path.abspath(log)), exist_ok=True)

    def on_signal(signum, frame):
        raise SystemExit(128 + signum)     # unwinds through run(): the emulator is stopped
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    saved_tty = termios.tcgetattr(0) if os.isatty(0) else None
    try:
        return boot()
    except KeyboardInterrupt:
        return 130
    finally:
        kill_all()
        if saved_tty is not None:          # QEMU sets the tty raw; undo it
            termios.tcsetattr(0, termios.TCSADRAIN, saved_tty)
