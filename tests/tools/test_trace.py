#!/usr/bin/env python3
"""Unit tests for the trace tools (tracefile, schedstat, tracecheck,
trace2svg, render_check):  python3 tests/tools/test_trace.py  (make test runs it).

The fixture tests/trace/good.txt is a hand-made trace whose numbers are
known; each broken variant below must be rejected.
"""

import importlib.machinery
import importlib.util
import io
import os
import struct
import sys
import unittest
import xml.etree.ElementTree as ElementTree
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "tools")
sys.path.insert(0, TOOLS)
import render_check  # noqa: E402
import tracecheck  # noqa: E402
import tracefile  # noqa: E402


def load_script(name):
    """Import a tool that has no .py suffix (trace2svg, schedstat)."""
    loader = importlib.machinery.SourceFileLoader(name, os.path.join(TOOLS, name))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(name, loader))
    loader.exec_module(module)
    return module


trace2svg = load_script("trace2svg")
schedstat = load_script("schedstat")

with open(os.path.join(ROOT, "tests", "trace", "good.txt")) as f:
    GOOD = f.read()


def failures(text):
    """The failed checks' messages for a trace text."""
    return [e for _, errors in tracecheck.check(tracefile.parse(text)) for e in errors]


def replace_once(text, old, new):
    assert text.count(old) == 1, old
    return text.replace(old, new)


class Parse(unittest.TestCase):
    def test_fields_times_and_header(self):
        t = tracefile.parse(GOOD)
        self.assertEqual(len(t.events), 16)
        self.assertEqual(t.ncpus, 2)
        self.assertEqual(t.lost, {0: 0, 1: 0})
        self.assertEqual(t.runtime, {1: 5000000, 2: 5000000, 3: 777})
        sw = [e for e in t.events if e.name == "sched_switch"][2]
        self.assertEqual((sw.ts, sw.cpu, sw.comm, sw.pid), (1003100000, 0, "a", 1))   # 6 decimals read as us
        self.assertEqual(sw.args["prev_state"], "S")
        self.assertEqual(sw.args["next_comm"], "idle/0")

    def test_not_an_event(self):
        with self.assertRaises(ValueError):
            tracefile.parse(GOOD + "this is no event\n")

    def test_extract_from_a_serial_log(self):
        lines = ["[    0.100000] cpu2: booting", "[    1.500000] cpu1: trace: begin (16 events, 0 lost)"]
        for i, line in enumerate(GOOD.splitlines()):
            lines.append(f"[    1.{i:06d}] cpu1: {line}")
            if i == 5:
                lines.append("[    1.600000] cpu3: demo: another message in between")
        lines += ["[    2.000000] cpu1: trace: end", "[    2.100000] cpu1: test: all passed"]
        self.assertEqual(tracefile.extract("\r\n".join(lines) + "\r\n"), GOOD)

    def test_extract_needs_the_end_marker(self):
        with self.assertRaises(ValueError):
            tracefile.extract("[    1.5] cpu1: trace: begin\n[    1.6] cpu1: # tracer: nop\n")


class Check(unittest.TestCase):
    def test_good_passes(self):
        self.assertEqual(failures(GOOD), [])
        slices, problems = tracefile.timeline(tracefile.parse(GOOD))
        self.assertEqual(problems, [])
        ran = {}
        for s in slices:
            ran[s.pid] = ran.get(s.pid, 0) + s.end - s.start
        self.assertEqual((ran[1], ran[2]), (5000000, 5000000))

    def test_wrong_pairing_is_rejected(self):
        bad = replace_once(GOOD, "1.004250000: sched_switch: prev_comm=idle/0 prev_pid=0",
                           "1.004250000: sched_switch: prev_comm=b prev_pid=2")
        self.assertIn("1.004250000 cpu0: switch from b-2, but idle/0-0 was running there", failures(bad))

    def test_task_on_two_cpus_is_rejected(self):
        bad = replace_once(GOOD, "==> next_comm=b next_pid=2", "==> next_comm=a next_pid=1")
        self.assertTrue(any("a-1 switched in while running on cpu0" in e for e in failures(bad)), failures(bad))

    def test_lost_events_are_rejected(self):
        bad = replace_once(GOOD, "# lost cpu=1 events=0", "# lost cpu=1 events=3")
        self.assertTrue(any("cpu1 lost 3 events" in e for e in failures(bad)))
        self.assertTrue(failures(replace_once(GOOD, "# lost cpu=1 events=0\n", "").replace("# lost cpu=0 events=0\n", "")))

    def test_runtime_must_agree_within_one_percent(self):
        off = replace_once(GOOD, "pid=2 prio=120 runtime_ns=5000000", "pid=2 prio=120 runtime_ns=5100000")
        self.assertTrue(any("b-2" in e and "1.96% apart" in e for e in failures(off)), failures(off))
        near = replace_once(GOOD, "pid=2 prio=120 runtime_ns=5000000", "pid=2 prio=120 runtime_ns=5040000")
        self.assertEqual(failures(near), [])

    def test_idle_balance_time_is_nobodys(self):
        # a sleeps at 1.0031, but its CPU balanced from 1.0030 on: the kernel charged a until then.
        charged = replace_once(GOOD, "pid=1 prio=120 runtime_ns=5000000", "pid=1 prio=120 runtime_ns=4900000")
        self.assertTrue(any("a-1" in e for e in failures(charged)))
        balanced = replace_once(charged, "               a-1     [000] d..2     1.003100: sched_switch",
                                "               a-1     [000] d..2     1.003000000: sched_idle_balance: cpu=0 "
                                "busiest_cpu=1\n               a-1     [000] d..2     1.003100: sched_switch")
        self.assertEqual(failures(balanced), [])

    def test_no_task_to_compare_is_a_failure(self):
        unborn = GOOD.replace("sched_wakeup_new", "sched_wakeup")
        self.assertTrue(any("no task to compare" in e for e in failures(unborn)))


class Schedstat(unittest.TestCase):
    def test_rows(self):
        rows = schedstat.summary(tracefile.parse(GOOD))
        self.assertEqual([(r[0], r[1], r[2], r[3]) for r in rows], [("a", 1, 5000000, 2), ("b", 2, 5000000, 1)])
        self.assertEqual(rows[0][4], [(100000, 1000100000), (250000, 1004250000)])
        self.assertEqual(rows[1][4], [(300000, 1000500000)])

    def test_report(self):
        out = io.StringIO()
        schedstat.report(tracefile.parse(GOOD), out)
        a = next(line for line in out.getvalue().splitlines() if line.startswith(" a:1 "))
        self.assertEqual(a.split("|")[1:6], ["        5.000 ", "        2 ", "        0.175 ", "        0.250 ",
                                             "      1.004250 "])


class Svg(unittest.TestCase):
    def test_well_formed_with_bars_delays_axis_and_legend(self):
        root = ElementTree.fromstring(trace2svg.draw(tracefile.parse(GOOD)))
        ns = "{http://www.w3.org/2000/svg}"
        self.assertEqual(root.tag, ns + "svg")
        titles = [t.text for t in root.iter(ns + "title")]
        self.assertIn("a-1 on cpu0: 1.000100 s, ran 3.000 ms", titles)
        self.assertTrue(any(t == "a-1: woken at 1.004000 s, ran 0.250 ms later" for t in titles), titles)
        texts = [t.text for t in root.iter(ns + "text")]
        self.assertIn("a-1: 5.000 ms", texts)
        self.assertIn("cpu1", texts)
        self.assertNotIn("script", trace2svg.draw(tracefile.parse(GOOD)))

    def test_colour_is_stable_and_differs(self):
        self.assertEqual(trace2svg.colour("hog", 5), trace2svg.colour("hog", 5))
        self.assertNotEqual(trace2svg.colour("hog", 5), trace2svg.colour("hog", 6))


def png(width, height, rows, filters):
    """A tiny RGB PNG with the given per-row filter types (rows already filtered)."""
    raw = b"".join(bytes([f]) + bytes(r) for f, r in zip(filters, rows))
    chunk = lambda kind, body: (struct.pack(">I", len(body)) + kind + body +  # noqa: E731
                                struct.pack(">I", zlib.crc32(kind + body)))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


class Render(unittest.TestCase):
    def test_decode_and_count_coloured_pixels(self):
        # Row 0 raw: red, white. Row 1 with "up": same as row 0 plus (0,0,0) -> red, white.
        rows = [[255, 0, 0, 255, 255, 255], [0, 0, 0, 0, 0, 0]]
        w, h, pixels = render_check.decode_png(png(2, 2, rows, [0, 2]))
        self.assertEqual((w, h), (2, 2))
        self.assertEqual(pixels[1], [b"\xff\x00\x00", b"\xff\xff\xff"])
        self.assertEqual(render_check.colour_fraction(pixels), 0.5)

    def test_sub_filter(self):
        # "sub": each byte adds the pixel to its left: (10,20,30) then +(5,5,5).
        w, h, pixels = render_check.decode_png(png(2, 1, [[10, 20, 30, 5, 5, 5]], [1]))
        self.assertEqual(pixels[0], [bytes([10, 20, 30]), bytes([15, 25, 35])])


if __name__ == "__main__":
    unittest.main()
