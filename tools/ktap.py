#!/usr/bin/env python3
"""Parse KTAP version 1 (and TAP 13/14) test results from a serial log.

  tools/ktap.py [-v] LOG        (LOG may be - for stdin)

prints the results and exits 1 if a test failed or the KTAP was malformed.

A KTAP report looks like this (nested tests are indented 2 or 4 spaces):

    KTAP version 1
    1..2
      KTAP version 1
      # Subtest: mm
      1..2
      ok 1 alloc_free
      not ok 2 big_alloc
      # big_alloc: expected 0, got -12
    not ok 1 mm
    ok 2 sched # SKIP needs 2 CPUs

Kernel log lines start with "[    1.234567] cpu2: ", which is stripped
first. Lines that are not KTAP (other kernel messages, firmware and GRUB
output) are kept as the log of the test that was running, not judged.

Importable: parse(text) returns the root Test; runtests.py uses it.
"""

import re
import sys
from dataclasses import dataclass, field

PREFIX = re.compile(r"^\[\s*\d+\.\d+\] cpu\d+: ")
ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")      # terminal codes (GRUB)

VERSION = re.compile(r"^(KTAP|TAP) version (\d+)\s*$")
SUBTEST = re.compile(r"^# Subtest: (.*)$")
PLAN = re.compile(r"^1\.\.(\d+)\s*(#.*)?$")
RESULT = re.compile(r"^(ok|not ok) (\d+)(?: -)?(?: (.*))?$")
BAIL = re.compile(r"^Bail out!(.*)$")


def strip_prefix(line):
    """A log line without its "[  1.2] cpuN: " prefix, \\r and escape codes."""
    return PREFIX.sub("", ESCAPE.sub("", line.rstrip("\r\n")))


@dataclass
class Test:
    """One test: a leaf test case, or a suite with subtests."""
    name: str = ""
    number: int = 0
    # "ok", "not ok", "skip"; "crashed": its subtests started but its own
    # result line never came; "missing": in the plan but never reported.
    result: str = ""
    reason: str = ""                                 # after "# SKIP" etc.
    plan: int = None                                 # from "1..N"
    subtests: list = field(default_factory=list)
    diagnostics: list = field(default_factory=list)  # "# ..." lines
    log: list = field(default_factory=list)          # other lines meanwhile
    errors: list = field(default_factory=list)       # malformed KTAP

    def counts(self):
        """(passed, failed, skipped), counting leaf tests only.

        A suite that failed or crashed although no leaf failed counts as
        one failure itself (e.g. its set-up failed)."""
        if not self.subtests:
            if self.result == "ok":
                return 1, 0, 0
            if self.result == "skip":
                return 0, 0, 1
            if self.result == "":                # the root with no tests
                return 0, 0, 0
            return 0, 1, 0
        passed = failed = skipped = 0
        for t in self.subtests:
            p, f, s = t.counts()
            passed, failed, skipped = passed + p, failed + f, skipped + s
        if self.result in ("not ok", "crashed") and failed == 0:
            failed = 1
        return passed, failed, skipped

    def walk(self, path=""):
        """Yield (path, test) for this test and every test below it."""
        yield path, self
        for t in self.subtests:
            name = t.name or f"#{t.number}"
            yield from t.walk(f"{path}.{name}" if path else name)

    def problems(self):
        """Human-readable list of failures and KTAP errors."""
        out = []
        for path, t in self.walk():
            where = path or "KTAP"
            out += [f"error: {where}: {e}" for e in t.errors]
            if t.result in ("not ok", "crashed", "missing"):
                out.append(f"{t.result.upper()}: {where}")
        return out

    def ok(self):
        return self.counts()[1] == 0 and not any(t.errors for _, t in self.walk())


@dataclass
class Line:
    indent: int
    text: str        # without prefix and indentation
    kind: str        # version, subtest, plan, result, bail, diag, noise


def classify(raw):
    s = strip_prefix(raw)
    text = s.lstrip(" ")
    indent = len(s) - len(text)
    for kind, rx in (("version", VERSION), ("subtest", SUBTEST), ("plan", PLAN),
                     ("result", RESULT), ("bail", BAIL)):
        if rx.match(text):
            return Line(indent, text, kind)
    return Line(indent, text, "diag" if text.startswith("#") else "noise")


class Parser:
    def __init__(self, text):
        self.lines = [classify(raw) for raw in text.splitlines()]
        self.i = 0

    def parse(self):
        root = Test()
        # The report starts at the first KTAP line; what comes before is noise.
        while self.i < len(self.lines) and self.lines[self.i].kind in ("noise", "diag"):
            root.log.append(self.lines[self.i].text)
            self.i += 1
        if self.i == len(self.lines):
            root.errors.append("no KTAP output")
            return root
        first = self.lines[self.i]
        if first.kind != "version":
            root.errors.append("missing KTAP version line")
        self.block(root, first.indent, top=True)
        return root

    def block(self, test, indent, top=False):
        """Parse the lines of test's block (its header and subtests' results)
        at this indentation, up to a KTAP line indented less, or the end."""
        expected = 1         # number of the next result
        pending = None       # a subtest whose block ended, awaiting its result
        started = False      # seen a result or a subtest yet?
        diags, log = [], []  # lines since the last result: the next test's
        while self.i < len(self.lines):
            ln = self.lines[self.i]
            if ln.kind in ("noise", "diag"):     # whatever their indentation
                (log if ln.kind == "noise" else diags).append(ln.text)
                self.i += 1
                continue
            if ln.indent < indent:
                if not top:
                    break                        # the parent's line
                test.log.append(ln.text)         # outside the whole report
                self.i += 1
                continue
            if ln.indent > indent:               # a subtest's own block
                if pending:
                    expected = self.close(test, pending, expected)
                pending = Test()
                self.block(pending, ln.indent)
                started = True
                continue
            self.i += 1
            if ln.kind == "version":
                if started or test.plan is not None:
                    test.errors.append(f"unexpected '{ln.text}' after the tests began")
            elif ln.kind == "subtest":
                if started or test.name:
                    test.diagnostics.append(ln.text)
                else:
                    test.name = SUBTEST.match(ln.text).group(1).strip()
            elif ln.kind == "plan":
                if test.plan is not None:
                    test.errors.append(f"second plan '{ln.text}'")
                else:
                    test.plan = int(PLAN.match(ln.text).group(1))
            elif ln.kind == "bail":
                test.errors.append(ln.text)
            elif ln.kind == "result":
                t = pending or Test()
                pending = None
                self.set_result(t, ln.text)
                t.diagnostics += diags
                t.log += log
                diags, log = [], []
                if t.number != expected:
                    test.errors.append(f"test '{t.name}' is number {t.number}, "
                                       f"expected {expected}")
                expected = t.number + 1
                test.subtests.append(t)
                started = True
        # Lines after the last result (e.g. a crash) belong to this block.
        test.diagnostics += diags
        test.log += log
        if pending:
            self.close(test, pending, expected)
        self.check_plan(test)

    @staticmethod
    def set_result(t, text):
        """Fill in t from a line like "not ok 3 name # SKIP reason"."""
        m = RESULT.match(text)
        name, _, directive = (m.group(3) or "").partition("#")
        t.number = int(m.group(2))
        if name.strip():
            t.name = name.strip()
        t.result = m.group(1)
        directive = directive.strip()
        if directive[:4].upper() == "SKIP":
            t.result = "skip"
            t.reason = directive[4:].strip()
        elif directive:
            t.reason = directive

    @staticmethod
    def close(test, sub, number):
        """A subtest whose result line never came: the kernel crashed in it."""
        sub.number, sub.result = number, "crashed"
        test.errors.append(f"no result line for subtest '{sub.name or number}'")
        test.subtests.append(sub)
        return number + 1

    @staticmethod
    def check_plan(test):
        if test.plan is None:
            return
        got = len(test.subtests)
        if got > test.plan:
            test.errors.append(f"planned {test.plan} tests, got {got}")
        for n in range(got + 1, test.plan + 1):
            test.subtests.append(Test(name=f"#{n}", number=n, result="missing"))
        if got < test.plan:
            test.errors.append(f"planned {test.plan} tests, only {got} reported")


def parse(text):
    """Parse a serial log; return the root Test (its subtests: the suites)."""
    return Parser(text).parse()


def report(root, verbose=False, out=None):
    """Print one line per suite, the failures in detail, and the totals."""
    out = out or sys.stdout
    for path, t in root.walk():
        if not path:
            continue
        depth = path.count(".")
        p, f, s = t.counts()
        status = {"ok": "PASS", "skip": "SKIP"}.get(t.result, "FAIL")
        if f:
            status = "FAIL"
        if t.subtests:                           # a suite: always shown
            print(f"{'  ' * depth}{status} {t.name or path} "
                  f"({p} passed, {f} failed, {s} skipped)", file=out)
            if t.result == "crashed":            # what it printed last
                for d in t.log[-10:]:
                    print(f"{'  ' * depth}    {d}", file=out)
        elif verbose or status != "PASS":
            why = f": {t.reason}" if t.reason else f" ({t.result})" if status == "FAIL" else ""
            print(f"{'  ' * depth}{status} {t.name}{why}", file=out)
            if status == "FAIL":
                for d in t.diagnostics + t.log[-10:]:
                    print(f"{'  ' * depth}    {d}", file=out)
    for path, t in root.walk():
        for e in t.errors:
            print(f"error: {path or 'KTAP'}: {e}", file=out)
    p, f, s = root.counts()
    print(f"{p} passed, {f} failed, {s} skipped", file=out)


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(description="Summarise KTAP results in a serial log.")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every test")
    ap.add_argument("log", help="serial log file, or - for stdin")
    a = ap.parse_args(argv)
    if a.log == "-":
        text = sys.stdin.read()
    else:
        with open(a.log, errors="replace") as f:
            text = f.read()
    root = parse(text)
    report(root, a.verbose)
    return 0 if root.ok() else 1


if __name__ == "__main__":
    sys.exit(main())
