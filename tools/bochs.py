#!/usr/bin/env python3
"""Boot a leftmost ISO in Bochs, headless: slow, but exact and repeatable.

  tools/bochs.py --iso PATH [--smp N] [--mem SIZE] [--cpu MODEL] [--ips N]
                 [--time0 SECONDS] [--timeout SECONDS] [--log FILE] [--dry-run]

The serial console goes to stdout (and to --log FILE; Bochs's own log then
goes to FILE with .bochs.log in place of .log). Bochs emulates one
instruction after another and, with `clock: sync=none`, its virtual time
follows the instruction count (--ips instructions make a second): the same
ISO and options give the same run, to the nanosecond (docs/emulators.md).
Keys typed on the terminal do not reach the kernel.

Bochs has no isa-debug-exit device: the kernel powers off through ACPI at
the end of a test boot, and the verdict is read from the serial output, to
give the exit statuses of tools/qemu.py:
  33 "test: all passed", 35 "test: FAILED", 37 a "PANIC:" line,
  0 powered off without a verdict, 1 Bochs stopped on its own (its log's
  last lines are printed), 124 --timeout expired, 130/143 interrupted.
"""

import os
import pty
import re
import shlex
import subprocess
import sys
import tempfile

import emulator
import ktap

# Debian's bochs, bochsbios and vgabios packages (tools/deps.sh bochs).
BIOS = "/usr/share/bochs/BIOS-bochs-latest"
VGABIOS = "/usr/share/bochs/VGABIOS-lgpl-latest"
CPU = "corei7_sandy_bridge_2600k"
IPS = 200_000_000           # the guest measures a 200 MHz TSC
TIME0 = 1_000_000_000       # the RTC's start (seconds since 1970): fixed, as all else
POWER_OFF = "ACPI control: soft power off"


def megabytes(size):
    """QEMU's -m syntax (512, 512M, 2G) in MiB."""
    m = re.fullmatch(r"(\d+)([MG]?)", size.upper())
    if not m:
        raise SystemExit(f"bochs: --mem {size}: give MiB or GiB, e.g. 512M or 2G")
    return int(m.group(1)) * (1024 if m.group(2) == "G" else 1)


def config(iso, smp, mem, cpu, ips, time0, serial, log):
    """The bochsrc text."""
    return "\n".join([
        f"megs: {megabytes(mem)}",
        # A triple fault ends the run, as QEMU's -no-reboot.
        f"cpu: model={cpu}, count={smp}, ips={ips}, reset_on_triple_fault=0",
        f"romimage: file={BIOS}",
        f"vgaromimage: file={VGABIOS}",
        f"ata0-master: type=cdrom, path={os.path.abspath(iso)}, status=inserted",
        "boot: cdrom",
        f"com1: enabled=1, mode=file, dev={serial}",
        # The only display of Debian's build that needs no X: a curses screen
        # on the pseudo-terminal run() drains.
        "display_library: term",
        f"log: {log}",
        "panic: action=fatal",
        "error: action=report",
        "info: action=ignore",
        # Time follows the instruction count, from a fixed start: no host
        # clock reaches the guest.
        f"clock: sync=none, time0={time0}",
        ""])


def verdict(serial, bochs_log):
    """The exit status for a Bochs run that ended (see the module's doc)."""
    lines = [ktap.strip_prefix(line) for line in serial.splitlines()]
    if any("PANIC:" in line for line in lines):
        return emulator.PANIC
    for line in reversed(lines):
        if line.startswith("test: all passed"):
            return emulator.PASS
        if line.startswith("test: FAILED"):
            return emulator.FAIL
    return 0 if POWER_OFF in bochs_log else 1


def bochs_log_path(log):
    root, ext = os.path.splitext(log)
    return root + ".bochs" + (ext or ".log")


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return ""


def boot(iso, smp=4, mem="512M", cpu=CPU, ips=IPS, time0=TIME0, timeout=None,
         log=None, echo=True, quiet=False, dry_run=False):
    """Boot the ISO in Bochs; returns the exit status (see the module's doc).
    echo: copy the serial output to stdout. quiet: no "bochs:" notes."""
    if not os.path.exists(iso):
        raise SystemExit(f"bochs: {iso}: no such file")
    with tempfile.TemporaryDirectory(prefix="leftmost-bochs-") as tmp:
        serial = os.path.join(tmp, "serial")
        log = log or os.path.join(tmp, "serial.log")
        blog = bochs_log_path(log)
        rc, commands = os.path.join(tmp, "bochsrc"), os.path.join(tmp, "commands")
        with open(rc, "w") as f:
            f.write(config(iso, smp, mem, cpu, ips, time0, serial, blog))
        with open(commands, "w") as f:
            f.write("c\n")          # Bochs starts in its debugger: continue
        cmd = ["bochs", "-q", "-f", rc, "-rc", commands]
        if dry_run:
            print(read(rc) + shlex.join(cmd))
            return 0
        if not quiet:
            print(f"bochs: smp={smp} mem={mem} cpu={cpu} ips={ips} time0={time0} "
                  "(keys do not reach the kernel; Ctrl-C stops Bochs)", file=sys.stderr)
        # A FIFO, held open for writing too so that it never reads as ended.
        os.mkfifo(serial)
        fifo = os.open(serial, os.O_RDWR | os.O_NONBLOCK)
        screen, term = pty.openpty()
        try:
            status = emulator.run(cmd, timeout, log, echo, serial=fifo, drain=[screen],
                                  stdin=term, stdout=term, stderr=term, start_new_session=True,
                                  env=dict(os.environ, TERM="vt100"))
        finally:
            for fd in (fifo, screen, term):
                os.close(fd)
        if status == emulator.TIMEOUT_STATUS:
            if not quiet:
                print(f"bochs: timeout after {timeout:g} s", file=sys.stderr)
            return status
        if status in (130, 143):
            return status
        bochs_said = read(blog)
        status = verdict(read(log), bochs_said)
        if status == 1:
            print("bochs: stopped with no verdict; the end of its log:", file=sys.stderr)
            print("\n".join(bochs_said.splitlines()[-10:]), file=sys.stderr)
        return status


def parse_args(argv):
    p = emulator.parser("bochs.py", "Boot a leftmost ISO in Bochs (exact, repeatable runs).")
    p.add_argument("--cpu", default=CPU, help=f"Bochs CPU model (default {CPU}; bochs -help cpu)")
    p.add_argument("--ips", type=int, default=IPS,
                   help=f"instructions per virtual second (default {IPS})")
    p.add_argument("--time0", type=int, default=TIME0,
                   help=f"the RTC's start, seconds since 1970 (default {TIME0})")
    return p.parse_args(argv)


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    return emulator.main(lambda: boot(a.iso, a.smp, a.mem, a.cpu, a.ips, a.time0, a.timeout,
                                      a.log, dry_run=a.dry_run), a.log, run=a.run_status)


if __name__ == "__main__":
    sys.exit(main())
