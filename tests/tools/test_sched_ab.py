#!/usr/bin/env python3
"""Unit tests for tools/sched_ab.py:  python3 tests/tools/test_sched_ab.py  (or -m unittest).
Every log here is made up: nothing boots."""

import argparse
import contextlib
import io
import os
import sys
import tempfile
import unittest
import unittest.mock

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import bench  # noqa: E402
import results  # noqa: E402
import sched_ab  # noqa: E402


def result(name, prefix=True, **fields):
    line = "RESULT name=" + name + "".join(f" {k}={v}" for k, v in fields.items())
    return ("[    0.224551] cpu0: " if prefix else "") + line + "\n"


def massive(procs, lo, avg, hi, prefix=False):
    spread = "inf" if lo == 0 else f"{hi / lo:.3f}"
    return result("massive_intr", prefix, procs=procs, ms=10000, work_ms=8, sleep_ms=1, loops_per_ms=490000,
                  min=lo, avg=avg, max=hi, spread=spread)


def run_log(max_dev=0.002, ratio=3.06, mi10=(229, 239.6, 251), mi200=(8, 12.8, 17), ring=0.97,
            pick=(494, 442), stall=11000.0, prefix=False):
    """One run's log of one scheduler: a few of each boot's lines, then the
    ktest's, which has the kernel's prefix."""
    return (result("fairness", prefix, cpu=0, hogs=4, nice_last=0, max_dev=max_dev)
            + result("fairness", prefix, cpu=0, hogs=2, nice_last=5, ratio=ratio)
            + result("wakeup", prefix, policy="other", hogs_per_cpu=1, hog_cpus=1, p50_us=19.4, p99_us=80.5)
            + massive(10, *mi10, prefix=prefix)
            + result("thud", prefix, max_stall_us=stall, share_ratio=1.0)
            + result("ring_test", prefix, hog_ratio=ring, hops_per_s=16000)
            + massive(200, *mi200, prefix=prefix)
            + result("sched_cost", True, **{"class": "fair", "pick_10": pick[0], "pick_100": pick[0],
                                           "pick_1000": pick[1], "pick_10000": pick[1],
                                           "ratio": f"{pick[1] / pick[0]:.2f}"}))


def figs(*texts):
    return sched_ab.figures([results.parse(t) for t in texts])


class Figures(unittest.TestCase):
    def test_shares_are_derived_from_min_avg_max(self):
        found = sched_ab.derive(results.parse(massive(200, 0, 21.9, 146)))
        self.assertAlmostEqual(float(found[0]["max_share"]), 146 / (21.9 * 200))
        self.assertEqual(float(found[0]["min_share"]), 0.0)

    def test_the_two_massive_intr_lines_are_told_apart_by_procs(self):
        f = figs(massive(200, 8, 12.8, 17) + massive(10, 229, 239.6, 251))
        self.assertEqual(f["massive_intr_spread"].median, 1.096)
        self.assertEqual(f["massive_intr200_spread"].median, 2.125)
        self.assertAlmostEqual(f["massive_intr200_max_share"].median, 17 / 2560)

    def test_the_ktest_line_gives_the_pick_costs(self):
        f = figs(run_log(pick=(100, 90)), run_log(pick=(120, 130)), run_log(pick=(110, 110)))
        self.assertEqual(f["sched_cost_pick10"], bench.Stats(110.0, 100.0, 120.0, 3, 3))
        self.assertEqual(f["sched_cost_pick10000"].median, 110.0)

    def test_cells(self):
        self.assertEqual(sched_ab.cell(bench.stats([3.0, 1.0, 2.0])), "2 (1–3)")
        self.assertEqual(sched_ab.cell(bench.stats([0.0016])), "0.0016")
        self.assertEqual(sched_ab.cell(bench.stats([3.06, 3.06])), "3.06")
        self.assertEqual(sched_ab.cell(bench.stats([5.0, None, 7.0])), "6 (5–7) [2/3]")
        self.assertEqual(sched_ab.cell(bench.stats([None, None])), "missing [0/2]")


def row(row_id):
    return next(r for r in sched_ab.ROWS if r.id == row_id)


def cols(**medians):
    return {name: bench.stats([v]) for name, v in medians.items()}


class Verdicts(unittest.TestCase):
    def test_who_meets_who_fails_and_by_how_much(self):
        text = sched_ab.verdict(row("fairness_4hogs"), cols(cfs=0.0016, sd=0.0085, o1=0.94))
        self.assertEqual(text, "meets it: cfs; sd fails: 0.0085, 1.7x the bound; "
                               "o1 fails: 0.94, 188.0x the bound; best: cfs (0.0016)")

    def test_o1_starves_the_many(self):
        # 2007: 4 of 200 took 98%; the largest got a quarter of all rounds
        text = sched_ab.verdict(row("massive_intr200_max_share"), cols(cfs=0.0066, sd=0.0069, o1=0.245))
        self.assertIn("meets it: cfs, sd; o1 starves: top 4 of 200 got up to 98% (fair 2.0%)", text)

    def test_a_bound_from_below_and_a_target(self):
        self.assertIn("o1 fails: 0.025, 3% of the bound",
                      sched_ab.verdict(row("ring_hog"), cols(cfs=0.968, o1=0.025)))
        text = sched_ab.verdict(row("fairness_nice5"), cols(cfs=3.084, sd=3.04, o1=1.304))
        self.assertEqual(text, "meets it: cfs, sd; o1 fails: 1.304, -57.3% off; best: sd (3.04)")

    def test_all_meet_and_ties(self):
        self.assertEqual(sched_ab.verdict(row("sched_cost_ratio"), cols(cfs=1.0, sd=1.0, o1=0.89)),
                         "all meet it; best: o1 (0.89)")
        self.assertIn("best: cfs, sd (2.125)",
                      sched_ab.verdict(row("massive_intr200_spread"), cols(cfs=2.125, sd=2.125, o1=3.0)))

    def test_no_round_at_all(self):
        self.assertIn("o1 fails: inf, a process made no round",
                      sched_ab.verdict(row("massive_intr200_spread"), cols(cfs=1.2, o1=float("inf"))))

    def test_report_rows_give_lowest_and_highest(self):
        self.assertEqual(sched_ab.verdict(row("thud_stall"), cols(cfs=10955.4, sd=44974.8, o1=4357.4)),
                         "lowest: o1 (4357.4), highest: sd (44974.8, 10.3x)")
        self.assertEqual(sched_ab.verdict(row("sched_cost_pick10"), cols(sd=130, o1=130)), "all alike (130)")

    def test_missing_figures(self):
        c = {"cfs": bench.stats([0.001]), "o1": bench.stats([None])}
        self.assertEqual(sched_ab.verdict(row("fairness_4hogs"), c), "meets it: cfs; no figure: o1")
        self.assertEqual(sched_ab.verdict(row("fairness_4hogs"), {"o1": bench.stats([None])}), "no figures")


class Boots(unittest.TestCase):
    def test_each_boot_gets_the_scheduler_and_the_ktest_comes_last(self):
        lines = sched_ab.cmdlines("nohz=off", "o1")
        self.assertEqual(len(lines), len(bench.BOOTS) + 2)
        self.assertTrue(all(line.startswith("nohz=off sched=o1 ") for line in lines))
        self.assertEqual(lines[-2], 'nohz=off sched=o1 run="massive_intr procs=200 ms=10000"')
        self.assertEqual(lines[-1], "nohz=off sched=o1 ktest=sched_cost")
        self.assertEqual(sched_ab.cmdlines("", "sd")[-1], "sched=sd ktest=sched_cost")

    def test_sched_lists(self):
        self.assertEqual(sched_ab.sched_list("all"), ["cfs", "sd", "o1"])
        self.assertEqual(sched_ab.sched_list("o1,cfs"), ["cfs", "o1"])
        for bad in ("bfs", ",", "cfs,bfs"):
            with self.assertRaises(argparse.ArgumentTypeError):
                sched_ab.sched_list(bad)

    def test_booting_logs_each_scheduler_apart_and_linux_runs_the_ab_list_too(self):
        calls = []
        fake_boot = lambda elf, runs, lines, outdir, name: calls.append((name, lines)) or [f"{name}.log.1"]  # noqa
        with tempfile.TemporaryDirectory() as tmp, \
                unittest.mock.patch.object(bench, "boot", fake_boot), \
                unittest.mock.patch.object(bench, "peer_ready", lambda kernel="6.1": kernel == "6.12"), \
                unittest.mock.patch.object(bench, "boot_linux", return_value="linux.log") as boot_linux:
            a = argparse.Namespace(elf=os.path.join(tmp, "x.elf"), runs=2, cmdline="", log=None)
            logs = sched_ab.boot_all(a, ["cfs", "o1"], tmp)
            linux = sched_ab.linux_logs(a, {}, tmp)
            with open(os.path.join(tmp, "sched-ab.suite")) as f:
                suite = f.read()
        self.assertEqual(logs, {"cfs": ["bench-cfs.log.1"], "o1": ["bench-o1.log.1"]})
        self.assertEqual([c[0] for c in calls], ["bench-cfs", "bench-o1"])
        self.assertEqual(linux, {"6.12": "linux.log"})
        self.assertEqual(boot_linux.call_args.kwargs, {"kernel": "6.12"})
        self.assertIn("run massive_intr procs=200 ms=10000\n", suite)
        self.assertIn("run hackbench\n", suite)


def peer_log(*runs):
    return "".join(f"# run {i}/{len(runs)} kernel=linux-image-6.1.0-57-amd64 accel=tcg smp=4\n" + r
                   for i, r in enumerate(runs, 1))


class Main(unittest.TestCase):
    def run_ab(self, logs, linux=()):
        """sched_ab.main on made-up logs: logs {sched: [texts]}, linux [(kernel, text)]."""
        with tempfile.TemporaryDirectory() as tmp:
            argv = ["--out", os.path.join(tmp, "sched-ab.md")]
            for key, texts in list(logs.items()) + [(k, [t]) for k, t in linux]:
                for i, text in enumerate(texts):
                    path = os.path.join(tmp, f"{key}.{i}")
                    with open(path, "w") as f:
                        f.write(text)
                    argv.append(f"--log={key}={path}" if key in sched_ab.SCHEDS else f"--linux-log={key}={path}")
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                sched_ab.main(argv)
            with open(os.path.join(tmp, "sched-ab.md")) as f:
                return f.read(), out.getvalue()

    def test_table_verdicts_and_result_lines(self):
        md, out = self.run_ab({"cfs": [run_log(), run_log(max_dev=0.004), run_log(max_dev=0.001)],
                               "o1": [run_log(max_dev=0.9, mi200=(0, 21.9, 1341), ring=0.02, prefix=True)]})
        self.assertIn("Regenerate: `make bench SCHED=cfs,o1 RUNS=3` (boots), or from these logs: "
                      "`tools/sched_ab.py --log=cfs=", md)
        self.assertIn("| figure | key | goal | cfs | o1 | Linux 6.1 | verdict |", md)
        self.assertNotIn("Linux 6.12 |", md)
        self.assertIn("| fairness, 4 hogs | max_dev | <= 0.005 | 0.002 (0.001–0.004) | 0.9 | "
                      "best 0.0045, 0.0045-0.0066 (ref.) | meets it: cfs; o1 fails: 0.9, 180.0x the bound; "
                      "best: cfs (0.002) |", md)
        self.assertIn("o1 starves: top 4 of 200 got up to 100% (fair 2.0%)", md)
        self.assertIn("| hackbench, 400 tasks, ms | time_ms | report | missing [0/3] | missing [0/1] | — | "
                      "no figures |", md)
        self.assertIn("| sched_cost ktest, pick at 10,000 / at 10 | ratio | <= 3 | ", md)
        self.assertIn(" | — (a leftmost ktest) | ", md)
        lines = [r for r in results.parse(out) if r["name"] == "sched_ab"]
        self.assertEqual(len(lines), 2 * len(sched_ab.ROWS))
        cell = next(r for r in lines if r["sched"] == "cfs" and r["figure"] == "fairness_4hogs")
        self.assertEqual((cell["median"], cell["min"], cell["max"], cell["n"], cell["runs"], cell["met"]),
                         ("0.002", "0.001", "0.004", "3", "3", "yes"))
        missing = next(r for r in lines if r["sched"] == "o1" and r["figure"] == "hackbench_ms")
        self.assertNotIn("median", missing)

    def test_linux_columns_from_peer_logs(self):
        linux = peer_log(run_log(max_dev=0.0039), run_log(max_dev=0.0052))
        md, out = self.run_ab({"sd": [run_log()]}, [("6.1", linux), ("6.12", peer_log(run_log(max_dev=0.01)))])
        self.assertIn("| sd | Linux 6.1 | Linux 6.12 | verdict |", md)
        self.assertIn("| 0.002 | 0.0046 (0.0039–0.0052) | 0.01 | all meet it |", md)
        self.assertIn("Linux 6.1: 2 run(s) of run-linux-peer.sh", md)
        self.assertIn("| thud, probe max stall us | max_stall_us | report | 11000 | 11000 | 11000 | — |", md)
        self.assertIn("--linux-log=6.12=", md)
        found = {(r["sched"], r["figure"]): r for r in results.parse(out) if r["name"] == "sched_ab"}
        self.assertEqual(found[("linux-6.1", "fairness_4hogs")]["median"], "0.0046")
        self.assertNotIn("met", found[("linux-6.12", "fairness_4hogs")])

    def test_a_log_needs_its_scheduler(self):
        with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
            sched_ab.main(["--log", "/tmp/none"])


if __name__ == "__main__":
    unittest.main()
