#!/usr/bin/env python3
"""Boot a leftmost ISO in QEMU: the one way make run, the tests and gdb boot.

  tools/qemu.py --iso PATH [--smp N] [--mem SIZE] [--accel auto|kvm|tcg]
                [--machine pc|q35] [--uefi] [--timeout SECONDS] [--log FILE]
                [--gdb [PORT]] [--paused] [--dry-run] [-- extra qemu args]

The serial console goes to stdout (and to --log FILE). When stdin is a
terminal you can type to the kernel; Ctrl-A X quits, Ctrl-A C switches to
the QEMU monitor. Exit status: QEMU's own, which for the kernel's
isa-debug-exit write of v to port 0xf4 is (v << 1) | 1:
  33 pass (v=0x10), 35 failure (v=0x11), 37 panic (v=0x12),
  0 QEMU stopped without a verdict (e.g. triple fault under -no-reboot),
  124 --timeout expired, 130/143 interrupted (Ctrl-C / SIGTERM).

runtests.py imports this file and uses boot().
"""

import argparse
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import threading
import time

TIMEOUT_STATUS = 124        # like coreutils timeout(1)
KVM_STALL_SECONDS = 15      # auto-KVM boot with no serial output: use TCG

# QEMU processes now running, so that an interrupted caller can kill them.
running = set()
lock = threading.Lock()
closing = False             # kill_all() was called: start no more


def kvm_problem():
    """Return why KVM can't be used here, or None if it can."""
    if os.path.isdir("/sys/module/kvm_pvm"):
        return "/dev/kvm is PVM (kvm_pvm), which runs only PVM guests"
    try:
        os.close(os.open("/dev/kvm", os.O_RDWR))
    except OSError as e:
        return f"cannot open /dev/kvm: {e.strerror}"
    return None


def choose_accel(requested, gdb=False):
    """Return (accel, automatic) for --accel auto|kvm|tcg.

    automatic is True when auto chose KVM (then a silent boot falls back
    to TCG). Prints a warning when an explicit kvm can't be had."""
    if gdb:
        # Breakpoints and single-stepping behave the same everywhere.
        return "tcg", False
    if requested == "tcg":
        return "tcg", False
    problem = kvm_problem()
    if problem is None:
        return "kvm", requested == "auto"
    if requested == "kvm":
        print(f"qemu: warning: {problem}; using TCG", file=sys.stderr)
    return "tcg", False


def ovmf_args(tmpdir):
    """QEMU arguments for UEFI firmware (Debian's ovmf package).

    Prefers the CODE/VARS pair, with a writable copy of VARS in tmpdir."""
    pairs = [("/usr/share/OVMF/OVMF_CODE_4M.fd", "/usr/share/OVMF/OVMF_VARS_4M.fd"),
             ("/usr/share/OVMF/OVMF_CODE.fd", "/usr/share/OVMF/OVMF_VARS.fd")]
    for code, vars_ in pairs:
        if os.path.exists(code) and os.path.exists(vars_):
            copy = os.path.join(tmpdir, "OVMF_VARS.fd")
            shutil.copyfile(vars_, copy)
            return ["-drive", f"if=pflash,format=raw,unit=0,readonly=on,file={code}",
                    "-drive", f"if=pflash,format=raw,unit=1,file={copy}"]
    if os.path.exists("/usr/share/ovmf/OVMF.fd"):
        return ["-bios", "/usr/share/ovmf/OVMF.fd"]
    raise SystemExit("qemu: no UEFI firmware: install the ovmf package "
                     "(tools/deps.sh run)")


def build_command(iso, smp=4, mem="512M", accel="tcg", machine="pc",
                  firmware=(), gdb=None, paused=False, extra=()):
    """Return the QEMU command line as a list. firmware: from ovmf_args().
    gdb: the TCP port for QEMU's gdb stub, or None."""
    cmd = ["qemu-system-x86_64",
           "-machine", machine, "-m", str(mem), "-smp", str(smp),
           "-no-reboot", "-display", "none",
           "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
           # Serial port and monitor share stdio: Ctrl-A X quits, Ctrl-A C
           # switches between them (QEMU's "mux").
           "-chardev", "stdio,id=con0,mux=on",
           "-serial", "chardev:con0", "-mon", "chardev=con0,mode=readline",
           "-boot", "d", "-cdrom", iso]
    if accel == "kvm":
        cmd += ["-accel", "kvm", "-cpu", "host"]
    else:
        cmd += ["-accel", "tcg,thread=multi", "-cpu", "max"]
    cmd += list(firmware)
    if gdb:
        cmd += ["-gdb", f"tcp::{gdb}"]
    if paused:
        cmd += ["-S"]               # wait for gdb's "continue"
    return cmd + list(extra)


def stop(proc):
    """End a QEMU process: SIGTERM, then SIGKILL if it lingers."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def run(cmd, timeout=None, log=None, echo=True, stall=None, stderr=None,
        interactive=False):
    """Run QEMU, copying its output to stdout (if echo) and to log.

    Returns QEMU's exit status, TIMEOUT_STATUS if timeout seconds passed,
    or None if stall is set and QEMU printed nothing in stall seconds (it is
    killed) or ended without printing anything.
    stderr: where QEMU's stderr goes (default: ours).
    interactive: give QEMU our stdin (a terminal) so the user can type."""
    with lock:
        if closing:
            return 130
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=stderr,
                                stdin=None if interactive else subprocess.DEVNULL)
        running.add(proc)
    start = time.monotonic()
    got_output = False
    logf = open(log, "wb") if log else None
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    try:
        while True:
            now = time.monotonic() - start
            if timeout is not None and now >= timeout:
                stop(proc)
                return TIMEOUT_STATUS
            if stall is not None and not got_output and now >= stall:
                stop(proc)
                return None
            if not sel.select(0.5):
                continue
            data = os.read(proc.stdout.fileno(), 4096)
            if not data:                    # QEMU closed stdout: it is done
                break
            got_output = True
            if echo:
                sys.stdout.buffer.write(data)
                sys.stdout.buffer.flush()
            if logf:
                logf.write(data)
                logf.flush()
        status = proc.wait()
        if stall is not None and not got_output:
            return None                     # e.g. KVM failed to start
        return status if status >= 0 else 128 - status     # killed by a signal
    finally:
        sel.close()
        stop(proc)
        proc.stdout.close()
        running.discard(proc)
        if logf:
            logf.close()


def kill_all():
    """Stop every QEMU started by run(), and start no more (on Ctrl-C)."""
    global closing
    with lock:
        closing = True
        procs = list(running)
    for proc in procs:
        stop(proc)


def boot(iso, smp=4, mem="512M", accel="auto", machine="pc", uefi=False,
         timeout=None, log=None, gdb=None, paused=False, extra=(),
         echo=True, quiet=False, dry_run=False, stderr=None, interactive=None):
    """Choose the accelerator, boot the ISO, return the exit status.

    echo: copy the serial output to stdout. quiet: no "qemu:" notes.
    interactive: let the user type (default: if echo and stdin is a tty)."""
    if interactive is None:
        interactive = echo and os.isatty(0)
    if not os.path.exists(iso):
        raise SystemExit(f"qemu: {iso}: no such file")
    accel, automatic = choose_accel(accel, gdb)
    with tempfile.TemporaryDirectory(prefix="leftmost-qemu-") as tmpdir:
        firmware = ovmf_args(tmpdir) if uefi else []
        while True:
            cmd = build_command(iso, smp, mem, accel, machine, firmware,
                                gdb, paused, extra)
            if dry_run:
                print(shlex.join(cmd))
                return 0
            if not quiet:
                hint = " (quit: Ctrl-A X)" if interactive else ""
                print(f"qemu: {accel} smp={smp} mem={mem} machine={machine} "
                      f"{'uefi' if uefi else 'bios'}{hint}", file=sys.stderr)
                if gdb:
                    print(f"qemu: gdb stub on tcp::{gdb} (gdb: target remote :{gdb})",
                          file=sys.stderr)
            # Only an automatic KVM choice may fall back (not with -S).
            stall = KVM_STALL_SECONDS if automatic and not paused else None
            status = run(cmd, timeout, log, echo, stall, stderr, interactive)
            if status is not None:
                if status == TIMEOUT_STATUS and not quiet:
                    print(f"qemu: timeout after {timeout:g} s", file=sys.stderr)
                return status
            print("qemu: the KVM boot showed no sign of life (no serial output); "
                  "trying again under TCG", file=sys.stderr)
            accel, automatic = "tcg", False


def parse_args(argv):
    """Parse qemu.py's options; what follows -- goes to .extra."""
    extra = []
    if "--" in argv:                        # everything after -- goes to QEMU
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    p = argparse.ArgumentParser(prog="qemu.py", description="Boot a leftmost ISO in QEMU.",
                                epilog="Arguments after -- are passed to QEMU.")
    p.add_argument("--iso", required=True, help="ISO image to boot")
    p.add_argument("--smp", type=int, default=4, help="CPUs (default 4)")
    p.add_argument("--mem", default="512M", help="memory (default 512M)")
    p.add_argument("--accel", choices=["auto", "kvm", "tcg"], default="auto")
    p.add_argument("--machine", choices=["pc", "q35"], default="pc")
    p.add_argument("--uefi", action="store_true", help="boot with OVMF")
    p.add_argument("--timeout", type=float, help="kill QEMU after SECONDS (exit 124)")
    p.add_argument("--log", help="also write the serial output to FILE")
    p.add_argument("--gdb", nargs="?", type=int, const=1234, metavar="PORT",
                   help="gdb stub on PORT, default 1234 (uses TCG)")
    p.add_argument("--paused", action="store_true", help="start paused (-S)")
    p.add_argument("--dry-run", action="store_true", help="print the QEMU command")
    a = p.parse_args(argv)
    a.extra = extra
    return a


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    if a.log:
        os.makedirs(os.path.dirname(os.path.abspath(a.log)), exist_ok=True)

    def on_signal(signum, frame):
        raise SystemExit(128 + signum)     # unwinds through run(): QEMU is stopped
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    saved_tty = termios.tcgetattr(0) if os.isatty(0) else None
    try:
        return boot(a.iso, a.smp, a.mem, a.accel, a.machine, a.uefi, a.timeout,
                    a.log, a.gdb, a.paused, a.extra, dry_run=a.dry_run)
    except KeyboardInterrupt:
        return 130
    finally:
        kill_all()
        if saved_tty is not None:          # QEMU sets the tty raw; undo it
            termios.tcsetattr(0, termios.TCSADRAIN, saved_tty)


if __name__ == "__main__":
    sys.exit(main())
