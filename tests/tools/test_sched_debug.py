#!/usr/bin/env python3
"""Unit tests for tools/sched_debug.py:  python3 tests/tools/test_sched_debug.py"""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import sched_debug  # noqa: E402


def row(pid, key, running=False, name="hog", prio=120, policy="NORMAL"):
    return (f"{'R' if running else ' '} {name:>15} {pid:5d} {key:.6f} -1.000000 10.000000"
            f"        53    0 {prio:4d} {policy}")


def rq(cpu, rows, curr=None, nr=None, fair=None, rt=None):
    """One runqueue's part of a dump; the counts default to the rows'."""
    n_rt = sum(r.split()[-1] in ("FIFO", "RR") for r in rows)
    return [f"cpu#{cpu}", f"  .nr_running            : {len(rows) if nr is None else nr}",
            "  .load                  : 2048", f"  .curr->pid             : {curr or 0} (x)",
            f"cfs_rq[{cpu}]:", f"  .nr_running            : {len(rows) - n_rt if fair is None else fair}",
            f"rt_rq[{cpu}]:", f"  .rt_nr_running         : {n_rt if rt is None else rt}",
            "runnable tasks:",
            "             task   PID         tree-key     wait-runtime     exec-runtime  switches nice prio policy",
            *rows]


def dump(*rqs, end=True):
    lines = ["Sched Debug Version: leftmost 1, now at 1000.000000 msecs"]
    for i, part in enumerate(rqs):
        lines += [f"[    1.{i:06d}] cpu{i}: {line}" for line in part]
        lines.append("[    1.000001] cpu3: a line another CPU printed meanwhile")
    return lines + (["End of Sched Debug"] if end else [])


GOOD = dump(rq(0, [row(40, 0, running=True, name="rt", prio=49, policy="FIFO"),
                   row(8, 1.0), row(10, 2.5), row(11, 9.0)], curr=40),
            rq(1, [row(4, 3.0, running=True), row(5, 3.0)], curr=4))


class Checks(unittest.TestCase):
    def errors(self, lines, expect=None):
        return sched_debug.check_log(lines, expect, min_dumps=1)[1]

    def test_a_consistent_dump_passes(self):
        self.assertEqual(self.errors(GOOD, "hog*5"), [])

    def test_a_task_on_two_runqueues(self):
        bad = dump(rq(0, [row(8, 1.0)]), rq(1, [row(8, 1.0)]))
        self.assertIn("pid 8 is listed on cpu0 and cpu1", " ".join(self.errors(bad)))

    def test_the_tree_out_of_key_order(self):
        bad = dump(rq(0, [row(11, 9.0, running=True), row(10, 2.5), row(8, 1.0)], curr=11))
        self.assertIn("not in key order", " ".join(self.errors(bad)))

    def test_counts_that_disagree_with_the_rows(self):
        for counts in ({"nr": 3}, {"fair": 1}, {"rt": 1}):
            with self.subTest(counts=counts):
                bad = dump(rq(0, [row(8, 1.0), row(10, 2.0)], **counts))
                self.assertTrue(self.errors(bad))

    def test_running_mark_must_be_curr(self):
        bad = dump(rq(0, [row(8, 1.0, running=True)], curr=9))
        self.assertIn("curr is 9", " ".join(self.errors(bad)))

    def test_rt_after_fair_or_out_of_priority(self):
        fifo = dict(name="rt", policy="FIFO")
        for rows in ([row(8, 1.0), row(40, 0, prio=49, **fifo)],
                     [row(40, 0, prio=60, **fifo), row(41, 0, prio=49, **fifo)]):
            with self.subTest(rows=rows):
                self.assertTrue(self.errors(dump(rq(0, rows))))

    def test_an_unfinished_dump(self):
        self.assertIn("no end line", " ".join(self.errors(dump(rq(0, [row(8, 1.0)]), end=False))))

    def test_expected_tasks_missing_or_too_many(self):
        self.assertIn("no dump lists all 6", " ".join(self.errors(GOOD, "hog*6")))
        self.assertIn("more than 4", " ".join(self.errors(GOOD, "hog*4")))

    def test_sd_and_o1_parts_and_columns(self):
        """SD's rows show prio and quota, O(1)'s prio, slice and sleep_avg;
        their lists are not in CFS's key order, and RT rows show "- -"."""
        def other(part, place):
            lines = rq(0, [row(40, 0, running=True, name="rt", prio=49, policy="FIFO"), row(8, 1.0),
                           row(10, 0.5)], curr=40)
            lines[4] = f"{part}[0]:"
            return [line.replace("0.000000 -1.000000", "- -").replace("1.000000 -1.000000", place)
                    .replace("0.500000 -1.000000", place) for line in lines]
        for part, place in (("sd_rq", "139 8.000000"), ("o1_rq", "125 100.000000 0.000000")):
            with self.subTest(part=part):
                self.assertEqual(self.errors(dump(other(part, place)), "hog*2"), [])
                wrong = [line.replace(": 2", ": 3") if line.startswith("  .nr_running  ") and i > 2 else line
                         for i, line in enumerate(other(part, place))]
                self.assertIn(f"{part}.nr_running is 3", " ".join(self.errors(dump(wrong))))

    def test_too_few_dumps(self):
        self.assertTrue(sched_debug.check_log(["nothing here"], None, min_dumps=1)[1])


if __name__ == "__main__":
    unittest.main()
