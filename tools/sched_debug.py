"""Read the kernel's sched_debug dumps (sched/debug.c) out of a serial log
and check that each is consistent: every runnable task listed exactly once,
each runqueue's rows matching its counts, CFS's timeline in key order. The
normal class's part is cfs_rq, sd_rq or o1_rq, as sched= chose it.

    python3 tools/sched_debug.py LOG [--expect NAME*N]

prints one line per dump and exits 1 if any check fails. tools/runtests.py
runs the same checks for a configuration with the flag sched_debug=NAME*N.
"""
import argparse
import re
import sys

import ktap

# name, pid, the class's own columns (CFS: key and wait-runtime; "- -" for
# RT), exec-runtime, switches, nice, prio, policy.
ROW = re.compile(r"^([R ]) +(\S+) +(\d+) +(\S+(?: +\S+)*?) +(-?\d+\.\d+) "
                 r"+(\d+) +(-?\d+) +(\d+) +(NORMAL|BATCH|IDLE|FIFO|RR)$")
NORMAL_PARTS = ("cfs_rq", "sd_rq", "o1_rq")
FIELD = re.compile(r"^\s+\.(\w+(?:->\w+)?)\s+: (\S+)")
FAIR_POLICIES = ("NORMAL", "BATCH", "IDLE")


class Dump:
    def __init__(self, at):
        self.at = at                  # "now at" in ms, as printed
        self.cpus = {}                # cpu -> {"fields": {...}, "rows": [...]}
        self.complete = False


def parse(lines):
    """The dumps in a log (prefixes may be present or already stripped).
    Lines other CPUs print meanwhile are skipped: only rows and fields count."""
    dumps, dump, cpu, part = [], None, None, None
    for line in lines:
        line = ktap.strip_prefix(line.rstrip("\r"))
        m = re.match(r"Sched Debug Version: .* now at (\S+) msecs", line)
        if m:
            dump = Dump(m.group(1))
            dumps.append(dump)
            continue
        if dump is None or dump.complete:
            continue
        if line == "End of Sched Debug":
            dump.complete = True
            continue
        m = re.match(r"^(cpu#|cfs_rq\[|sd_rq\[|o1_rq\[|rt_rq\[)(\d+)", line)
        if m:
            cpu, part = int(m.group(2)), m.group(1).rstrip("#[")
            dump.cpus.setdefault(cpu, {"fields": {}, "rows": []})
            continue
        if cpu is None:
            continue
        m = FIELD.match(line)
        if m:
            dump.cpus[cpu]["fields"][f"{part}.{m.group(1)}"] = m.group(2)
            continue
        m = ROW.match(line)
        if m:
            place = m.group(4).split()
            dump.cpus[cpu]["rows"].append({
                "running": m.group(1) == "R", "name": m.group(2), "pid": int(m.group(3)),
                "key": None if place[0] == "-" else float(place[0]), "prio": int(m.group(8)),
                "policy": m.group(9)})
    return dumps


def check(dump):
    """The inconsistencies in one dump, as sentences (none: it is consistent)."""
    errors, seen = [], {}
    if not dump.complete:
        return [f"dump at {dump.at} ms has no end line"]
    for cpu, rq in sorted(dump.cpus.items()):
        rows, f = rq["rows"], rq["fields"]
        where = f"dump at {dump.at} ms, cpu{cpu}"
        fair = [r for r in rows if r["policy"] in FAIR_POLICIES]
        rt = [r for r in rows if r["policy"] not in FAIR_POLICIES]
        normal = next((p for p in NORMAL_PARTS if f"{p}.nr_running" in f), "cfs_rq")
        expected = {"cpu.nr_running": len(rows), f"{normal}.nr_running": len(fair),
                    "rt_rq.rt_nr_running": len(rt)}
        for field, n in expected.items():
            if field not in f:
                errors.append(f"{where}: no {field} line")
            elif int(f[field]) != n:
                errors.append(f"{where}: {field} is {f[field]} but {n} tasks are listed")
        if rows != rt + fair:
            errors.append(f"{where}: RT tasks are not listed before fair ones")
        if [r["prio"] for r in rt] != sorted(r["prio"] for r in rt):
            errors.append(f"{where}: RT tasks are not in priority order")
        running = [r for r in rows if r["running"]]
        if len(running) > 1:
            errors.append(f"{where}: {len(running)} tasks are marked running")
        curr = f.get("cpu.curr->pid")
        if running and curr is not None and int(curr) != running[0]["pid"]:
            errors.append(f"{where}: pid {running[0]['pid']} is marked running but curr is {curr}")
        queued = [r for r in fair if not r["running"]]
        keys = [r["key"] for r in queued]
        if normal == "cfs_rq" and keys != sorted(keys):
            errors.append(f"{where}: the fair tree is not in key order: {keys}")
        for r in rows:
            if r["pid"] in seen:
                errors.append(f"dump at {dump.at} ms: pid {r['pid']} is listed on cpu{seen[r['pid']]} "
                              f"and cpu{cpu}")
            seen[r["pid"]] = cpu
    return errors


def check_log(lines, expect=None, min_dumps=2):
    """Check every dump in a log. expect "NAME*N": N tasks named NAME run
    for a while, so at least one dump must list exactly N of them, and none
    more than N. Returns (number of dumps, errors)."""
    dumps = parse(lines)
    errors = [e for d in dumps for e in check(d)]
    if len(dumps) < min_dumps:
        errors.append(f"{len(dumps)} sched_debug dump(s) in the log, expected at least {min_dumps}")
    if expect:
        name, n = expect.rsplit("*", 1)
        counts = [sum(r["name"] == name for rq in d.cpus.values() for r in rq["rows"]) for d in dumps]
        if int(n) not in counts:
            errors.append(f"no dump lists all {n} tasks named {name} (counts: {counts})")
        if any(c > int(n) for c in counts):
            errors.append(f"a dump lists more than {n} tasks named {name} (counts: {counts})")
    return len(dumps), errors


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("log")
    ap.add_argument("--expect", help="NAME*N: N tasks named NAME must appear in some dump")
    args = ap.parse_args(argv)
    with open(args.log, errors="replace") as f:
        n, errors = check_log(f.read().splitlines(), args.expect, min_dumps=1)
    print(f"{n} sched_debug dump(s)")
    for e in errors:
        print("  " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
