"""What the GDB sessions of tools/debug_test.py check with (tools/gdb/selftest.py,
tools/gdb/selftest_prog.py): one "ok N - what" or "not ok N - what: detail"
line per check (TAP style), then a "debug-test: P passed, F failed" line,
by which debug_test.py judges.
"""

import gdb

results = []


def check(ok, what, detail=""):
    results.append(bool(ok))
    gdb.write(f"{'ok' if ok else 'not ok'} {len(results)} - {what}{'' if ok else ': ' + detail}\n")


def run(command):
    return gdb.execute(command, to_string=True)


def error_of(command):
    """The message command fails with, or None if it succeeds."""
    try:
        run(command)
    except gdb.error as e:
        return str(e)
    return None


def value(expression):
    return int(gdb.parse_and_eval(expression))


def summary():
    gdb.write(f"debug-test: {sum(results)} passed, {len(results) - sum(results)} failed\n")
