#!/usr/bin/env python3
"""Boot a leftmost ISO in QEMU: the one way make run, the tests and gdb boot.

  tools/qemu.py --iso PATH [--smp N] [--mem SIZE] [--accel auto|kvm|tcg]
                [--machine pc|q35] [--uefi] [--timeout SECONDS] [--log FILE]
                [--gdb [PORT]] [--paused] [--dry-run] [-- extra qemu args]

The serial console goes to stdout (and to --log FILE). When stdin is a
terminal you can type to the kernel, every key, Ctrl-C and Ctrl-Z too;
Ctrl-A X quits, Ctrl-A C switches to the QEMU monitor. Exit status: QEMU's own, which for the kernel's
isa-debug-exit write of v to port 0xf4 is (v << 1) | 1 (tools/bochs.py
gives Bochs's boots the same statuses; tools/emulator.py is their common part):
  33 pass (v=0x10), 35 failure (v=0x11), 37 panic (v=0x12),
  0 QEMU stopped without a verdict (e.g. triple fault under -no-reboot),
  124 --timeout expired, 130/143 interrupted (Ctrl-C / SIGTERM).

runtests.py imports this file and uses boot().
"""

import os
import shlex
import shutil
import subprocess
import sys
import tempfile

import emulator

KVM_STALL_SECONDS = 15      # auto-KVM boot with no serial output: use TCG


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
           # switches between them (QEMU's "mux"). signal=off: the terminal
           # no longer turns Ctrl-C, Ctrl-Z and Ctrl-\ into signals that
           # would end QEMU; they reach the guest's terminal as keys.
           "-chardev", "stdio,id=con0,mux=on,signal=off",
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


def boot(iso, smp=4, mem="512M", accel="auto", machine="pc", uefi=False,
         timeout=None, log=None, gdb=None, paused=False, extra=(),
         echo=True, quiet=False, dry_run=False, stderr=None, interactive=None,
         typist=None):
    """Choose the accelerator, boot the ISO, return the exit status.

    echo: copy the serial output to stdout. quiet: no "qemu:" notes.
    interactive: let the user type (default: if echo and stdin is a tty).
    typist: a tools/typist.py Typist types instead (not interactive)."""
    if interactive is None:
        interactive = echo and os.isatty(0) and not typist
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
            stdin = {} if typist else {"stdin": None if interactive else subprocess.DEVNULL}
            status = emulator.run(cmd, timeout, log, echo, stall, stderr=stderr,
                                  typist=typist, **stdin)
            if status is not None:
                if status == emulator.TIMEOUT_STATUS and not quiet:
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
    p = emulator.parser("qemu.py", "Boot a leftmost ISO in QEMU.",
                        epilog="Arguments after -- are passed to QEMU.")
    p.add_argument("--accel", choices=["auto", "kvm", "tcg"], default="auto")
    p.add_argument("--machine", choices=["pc", "q35"], default="pc")
    p.add_argument("--uefi", action="store_true", help="boot with OVMF")
    p.add_argument("--gdb", nargs="?", type=int, const=1234, metavar="PORT",
                   help="gdb stub on PORT, default 1234 (uses TCG)")
    p.add_argument("--paused", action="store_true", help="start paused (-S)")
    a = p.parse_args(argv)
    a.extra = extra
    return a


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    return emulator.main(lambda: boot(a.iso, a.smp, a.mem, a.accel, a.machine, a.uefi, a.timeout,
                                      a.log, a.gdb, a.paused, a.extra, dry_run=a.dry_run), a.log,
                         run=a.run_status)


if __name__ == "__main__":
    sys.exit(main())
