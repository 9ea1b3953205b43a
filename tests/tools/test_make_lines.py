"""The make lines of README.md, tools/README.md and docs/*.md, run as written.

Every `make run|debug|trace|bench|soak|fuzz ...` line there (in code, or in
`...` in the text) is split as bash splits it and given to make, with two
hooks so that nothing is built or booted: tools/mkiso.sh's MKISO_PRINT
records the command line the ISO would carry, and PYTHON= a recorder in
place of the Python tools (qemu.py, bochs.py, bench.py, ...). Each line must
parse, and give mkiso.sh (or bench.py) exactly the text between the shell's
quotes. Lines with a placeholder (N, ..., PATH) are left out; a `make debug`
line gets GDB=0, so that no GDB starts. Then one documented line boots, as
written: the run= list of docs/workloads.md.
"""

import concurrent.futures
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import test_make_run_keys       # noqa: E402
import testproc                 # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = ["README.md", "tools/README.md"] + sorted(
    os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))
GOALS = {"run", "debug", "trace", "bench", "soak", "fuzz"}
PLACEHOLDER = re.compile(r"(^|=)N$|\.\.\.|…|^\[|path/to|PATH|PARAMETERS")

# Quoting a person may type, beyond the documents: (make arguments after
# the goal, the command line mkiso.sh must get).
TYPED = [
    ("run", ['CMDLINE=msg="a b" x=1'], 'msg="a b" x=1'),
    ("run", ['CMDLINE=run="fairness hogs=2; spawn"'], 'run="fairness hogs=2; spawn"'),
    ("run", ['CMDLINE=run=\\"fairness hogs=2\\"'], 'run="fairness hogs=2"'),      # the older form
    ("run", ["CMDLINE=a=$HOME b=$$c d=$(SMP) e=`x` f=#g h=;&|<>"], "a=$HOME b=$$c d=$(SMP) e=`x` f=#g h=;&|<>"),
    ("run", ["CMDLINE=  spaced   out  "], "spaced   out  "),     # make drops the leading blanks
    ("debug", ['CMDLINE=init="/bin/yield 10"', "GDB=0"], 'init="/bin/yield 10"'),
    ("soak", ['SOAK_CMDLINE=run="a b"', "MINUTES=2"], 'ktest=stress stress_seconds=120 run="a b"'),
    ("trace", ["RUN=fairness hogs=3; pingpong rounds=10", "TRACE_SIZE=64"],
     'trace=sched trace_size=64 run="fairness hogs=3; pingpong rounds=10"'),
]
RECORDER = """import json, os, sys
with open(os.environ["PYTHON_RECORD"], "a") as f:
    f.write(json.dumps(sys.argv[1:]) + "\\n")
"""


def documented_lines():
    """[(where, text)] of every make line for GOALS in the documents."""
    found = []
    for doc in DOCS:
        with open(os.path.join(ROOT, doc)) as f:
            text = f.read()
        for m in re.finditer(r"`(?:\$ )?(make\s[^`]*)`", text):
            found.append((f"{doc}:{text.count(chr(10), 0, m.start()) + 1}", " ".join(m.group(1).split())))
        fenced = False
        for n, line in enumerate(text.splitlines(), 1):
            if line.startswith("```"):
                fenced = not fenced
            m = re.match(r"(?: {4,}|\t)?(?:\$ )?(make\s.*)$", line)
            if m and (fenced or line.startswith(("    ", "\t", "$ "))):
                found.append((f"{doc}:{n}", m.group(1)))
    lines = []
    for where, text in found:
        try:
            argv = shlex.split(text, comments=True)
        except ValueError:
            continue                                    # prose, not a command
        goals = [a for a in argv[1:] if "=" not in a and not a.startswith("-")]
        if goals and set(goals) <= GOALS and not any(PLACEHOLDER.search(a) for a in argv):
            lines.append((where, argv))
    return lines


def kernel_words(cmdline):
    """The words the kernel receives (mkiso.sh's rule): split on blanks
    outside double quotes, the quotes dropped."""
    words, word, quoted, have = [], "", False, False
    for c in cmdline:
        if c == '"':
            quoted, have = not quoted, True
        elif c in " \t" and not quoted:
            if have:
                words.append(word)
            word, have = "", False
        else:
            word, have = word + c, True
    if have:
        words.append(word)
    return words


class MakeLines(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="leftmost-make-lines-")
        cls.recorder = os.path.join(cls.tmp.name, "record.py")
        with open(cls.recorder, "w") as f:
            f.write(RECORDER)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def make(self, args):
        """Run make with args, nothing built or booted: (status, output,
        [(iso, cmdline, words)] mkiso.sh got, [argv] of each Python tool)."""
        variables = dict(a.split("=", 1) for a in args if "=" in a and not a.startswith("-"))
        build = variables.get("BUILD", os.environ.get("BUILD", "build"))
        progs = variables.get("PROGS")
        if progs:                       # stand-ins, so that make finds the files
            stand_ins, where = [], tempfile.mkdtemp(dir=self.tmp.name)
            for p in progs.split():
                path = os.path.join(where, os.path.basename(p))
                open(path, "w").close()
                stand_ins.append(path)
            args = [a for a in args if not a.startswith("PROGS=")] + ["PROGS=" + " ".join(stand_ins)]
        record = tempfile.mkdtemp(dir=self.tmp.name)
        isos, tools = os.path.join(record, "isos"), os.path.join(record, "tools")
        for path in (isos, tools):
            open(path, "w").close()
        env = dict(test_make_run_keys.make_env(), MKISO_PRINT=isos, PYTHON_RECORD=tools)
        p = subprocess.run(["make", "--no-print-directory", "-o", "deps", "-o", f"{build}/leftmost.elf",
                            "-o", f"{build}/initrd.cpio", f"PYTHON={sys.executable} {self.recorder}"]
                           + args, cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
        with open(isos, "rb") as f:
            fields = f.read().decode().split("\0")[:-1]
        with open(tools) as f:
            argvs = [json.loads(line) for line in f]
        return p.returncode, p.stdout, list(zip(fields[0::3], fields[1::3], fields[2::3])), argvs

    def check_all(self, cases):
        """check() each (where, args, want), the makes two at a time."""
        cases = [(where, args + ["GDB=0"] if args[0] == "debug" and
                  not any(a.startswith("GDB=") for a in args) else args, want)
                 for where, args, want in cases]
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            results = list(pool.map(lambda case: self.make(case[1]), cases))
        for (where, args, want), result in zip(cases, results):
            with self.subTest(where=where, line=shlex.join(args)):
                self.check(where, args, want, result)

    def check(self, where, args, want, result):
        """make args (goal first) must have passed want (None: what the
        arguments say) to mkiso.sh or the bench tools; result: make()'s."""
        goal = args[0]
        variables = dict(a.split("=", 1) for a in args if "=" in a)
        status, output, isos, tools = result
        said = f"{where}: make {shlex.join(args)}\n{output}"
        if goal != "soak":          # soak fails on the stand-in QEMU's status 0
            self.assertEqual(status, 0, said)
        if goal in ("run", "debug", "trace", "soak"):
            if want is None:
                want = {"trace": f'trace=sched trace_size={variables.get("TRACE_SIZE", "4096")} '
                                 f'run="{variables.get("RUN")}"',
                        "soak": f'ktest=stress stress_seconds={int(variables.get("MINUTES", 10)) * 60} '
                                f'{variables.get("SOAK_CMDLINE", "")}'}.get(goal, variables.get("CMDLINE", ""))
            self.assertEqual(len(isos), 1, said)
            iso, cmdline, words = isos[0]
            self.assertEqual(cmdline, want, said)
            self.assertEqual(re.findall(r"'([^']*)'", words), kernel_words(want), said)
        if goal in ("run", "debug"):
            tool = "tools/bochs.py" if variables.get("EMU") == "bochs" else "tools/qemu.py"
            self.assertEqual([argv[0] for argv in tools], [tool], said)
            argv = tools[0]
            self.assertEqual(argv[argv.index("--iso") + 1], iso, said)
            self.assertEqual(argv[argv.index("--smp") + 1], variables.get("SMP", "4"), said)
        if goal == "bench":
            self.assertTrue(tools, said)
            for argv in tools:
                self.assertEqual(argv[argv.index("--cmdline") + 1],
                                 want if want is not None else variables.get("BENCH_CMDLINE", ""), said)
                if "SCHED" in variables:
                    self.assertEqual(argv[argv.index("--sched") + 1], variables["SCHED"], said)

    def test_the_documented_lines(self):
        lines = documented_lines()
        wanted = {("run", "CMDLINE=run=\"fairness hogs=2 nice_last=5; smpbalance hogs=5\""),
                  ("trace", "RUN=fairness hogs=3 ms=1000"), ("bench", "BENCH_CMDLINE=nohz=off")}
        seen = {(a[1], b) for _, a in lines for b in a[2:]}
        self.assertLessEqual(wanted, seen, "the extraction missed documented lines")
        unique = {}
        for where, argv in lines:
            unique.setdefault(tuple(argv), []).append(where)
        self.check_all([(", ".join(wheres), list(argv[1:]), None) for argv, wheres in unique.items()])

    def test_quoting_a_person_may_type(self):
        self.check_all([("typed", [goal] + args, want) for goal, args, want in TYPED])

    def test_bench_passes_its_command_line_whole(self):
        self.check_all([("typed", ["bench", 'BENCH_CMDLINE=nohz=off msg="a b"'], None),
                        ("typed", ["bench", "SCHED=cfs,o1", "RUNS=1", "BENCH_CMDLINE=hz=100 x=$y"], None),
                        ("typed", ["bench", 'BENCH_CMDLINE=msg=\\"a b\\"'], 'msg="a b"')])

    def test_a_documented_run_list_boots_as_written(self):
        """docs/workloads.md's run= list boots with make run as written
        (about 25 s under TCG) and both workloads report."""
        [(where, argv)] = [(w, a) for w, a in documented_lines()
                           if w.startswith("docs/workloads.md") and a[1:2] == ["run"]
                           and any(x.startswith("CMDLINE=run=") for x in a)]
        test_make_run_keys.build_kernel()
        build = os.environ.get("BUILD", "build")
        p = testproc.run(argv + ["--no-print-directory", f"ISO={build}/iso/make-lines.iso"], timeout=300,
                         cwd=ROOT, env=test_make_run_keys.make_env(), stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        output = p.stdout
        said = f"{where}: {shlex.join(argv)}\n{output[-2000:]}"
        self.assertEqual(p.returncode, 0, said)
        self.assertRegex(output, r"RESULT name=fairness .*hogs=2 nice_last=5", said)
        self.assertRegex(output, r"RESULT name=smpbalance .*hogs=5", said)


if __name__ == "__main__":
    unittest.main()
