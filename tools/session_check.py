#!/usr/bin/env python3
"""Check what the shell session of tests/shell.keys showed (the `shell`
configuration of tests/kernel-suites.txt): the shares, policies and CPUs
that top, ps and /proc/PID/sched gave the four hogs the session started,
and the shell's answers to Ctrl-C and to mistakes.

  tools/session_check.py < LOG

LOG is the serial log with the kernel's "[s.us] cpuN: " prefixes stripped
(runtests.py's check= flag passes it so). One line per check, "ok WHAT" or
"not ok WHAT: why"; the exit status is 1 if any failed. The bounds are
wide where the emulator's stalls bend a share (a ratio, not a time).
"""
import re
import sys

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
TOP_ROW = re.compile(r"^\s*(\d+)\s+(-?\d+|rt)\s+(-?\d+)\s+(\w)\s+([\d.]+)\s+\S+\s+(\d+)\s+(\S+)\s*$")
PS_HEADER = re.compile(r"^\s*PID\s+CLS\s+PRI\s+NI\s+PSR\s+S\s")


def clean(text):
    """The log as a terminal would show it, near enough: escapes gone, and
    of a line the line editor redrew, only what came after its last \\r."""
    return [ANSI.sub("", line).split("\r")[-1] for line in text.splitlines()]


def last_top_frame(lines):
    """The rows (pid, pr, ni, state, cpu%, cpu, command) of top's last frame."""
    starts = [i for i, line in enumerate(lines) if line.startswith("top - ")]
    if not starts:
        return []
    rows = []
    for line in lines[starts[-1]:]:
        if rows and not TOP_ROW.match(line):
            break
        m = TOP_ROW.match(line)
        if m:
            pid, pr, ni, state, cpu_pct, cpu, command = m.groups()
            rows.append((int(pid), pr, int(ni), state, float(cpu_pct), int(cpu), command))
    return rows


def ps_rows(lines):
    """{pid: {column: value}} from the last ps table."""
    starts = [i for i, line in enumerate(lines) if PS_HEADER.match(line)]
    if not starts:
        return {}
    header = lines[starts[-1]].split()
    rows = {}
    for line in lines[starts[-1] + 1:]:
        words = line.split()
        if len(words) < len(header) or not words[0].isdigit():
            break
        rows[int(words[0])] = dict(zip(header, words))
    return rows


def checks(text):
    """[(ok, what, why)] for the session's log."""
    lines = clean(text)
    joined = "\n".join(lines)
    out = []

    def check(ok, what, why=""):
        out.append((bool(ok), what, why))

    moved = re.findall(r"^moved (\d+)$", joined, re.M)
    moved = int(moved[-1]) if moved else None
    starts = [i for i, line in enumerate(lines) if line.startswith("top - ")]
    cpu_lines = [line for line in lines[starts[-1]:starts[-1] + 80] if line.startswith("%Cpu")] if starts else []
    check([line.split()[0] for line in cpu_lines] == ["%Cpu0", "%Cpu1", "%Cpu2", "%Cpu3"],
          "top's last frame has a %CpuN line for each of the 4 CPUs", repr(cpu_lines[:6]))
    hogs = [r for r in last_top_frame(lines) if r[6] == "yes"]
    check(len(hogs) == 4, "top's last frame shows the four hogs", f"{len(hogs)} rows named yes")
    on1 = sorted((r for r in hogs if r[5] == 1), key=lambda r: r[2])
    if len(on1) == 2 and on1[0][2] == 0 and on1[1][2] == 5:
        ratio = on1[0][4] / max(on1[1][4], 0.1)
        check(2.0 <= ratio <= 4.5, "on CPU 1 the nice-0 hog has about 3.06 times the nice-5 one's share",
              f"{on1[0][4]}% / {on1[1][4]}% = {ratio:.2f}")
        check(on1[0][4] + on1[1][4] >= 70, "the two hogs on CPU 1 fill it", f"{on1[0][4] + on1[1][4]}%")
    else:
        check(False, "CPU 1 runs a nice-0 and a nice-5 hog", repr(on1))
    fifo = [r for r in hogs if r[5] == 2]
    check(len(fifo) == 1 and fifo[0][1] == "-11" and fifo[0][4] >= 70,
          "the hog on CPU 2 runs SCHED_FIFO 10 (PR -11) and has the CPU", repr(fifo))
    on3 = [r for r in hogs if r[5] == 3]
    check(len(on3) == 1 and on3[0][0] == moved and on3[0][4] >= 70,
          "the hog moved by taskset -p runs on CPU 3 and has it", f"{on3!r}, moved {moved}")

    ps = ps_rows(lines)
    classes = sorted(row["CLS"] for row in ps.values() if row.get("CMD") == "yes")
    check(classes == ["FF", "TS", "TS", "TS"], "ps shows one FF hog and three TS ones", repr(classes))
    nices = sorted(row["NI"] for row in ps.values() if row.get("CMD") == "yes")
    check(nices == ["-", "0", "0", "5"], "ps shows one hog at nice 5 (and the FIFO one without)", repr(nices))
    check(moved in ps and ps[moved]["PSR"] == "3", "ps shows the moved hog on CPU 3", repr(ps.get(moved)))

    sched = re.search(r"^yes \((\d+), #threads: 1\)\n-+\n((?:.+ : .+\n)+)", joined + "\n", re.M)
    fields = dict(re.findall(r"^(\S+)\s+: (.+)$", sched.group(2), re.M)) if sched else {}
    check(sched and int(sched.group(1)) == moved and fields.get("policy") == "NORMAL" and fields.get("cpu") == "3",
          "/proc/PID/sched of the moved hog: NORMAL, on CPU 3", repr(fields)[:200])
    check(re.search(r"^interrupted 130$", joined, re.M), "Ctrl-C ends a foreground hog: $? is 130")
    check(re.search(r"^sh: nosuchcommand: not found$", joined, re.M), "a bad command: sh says not found")
    check(re.search(r"^ps said 1$", joined, re.M) and re.search(r"^[Uu]sage: ps", joined, re.M),
          "a bad option: ps prints its usage and exits 1")
    check(re.search(r"^sh: syntax error", joined, re.M), "a syntax error: sh says so")
    check(re.search(r"^still here$", joined, re.M), "the shell answers after all of it")
    return out


def main():
    results = checks(sys.stdin.read())
    for ok, what, why in results:
        print(f"ok {what}" if ok else f"not ok {what}: {why}")
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
