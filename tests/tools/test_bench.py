#!/usr/bin/env python3
"""Unit tests for tools/bench.py:  python3 tests/tools/test_bench.py  (or -m unittest).
Every log here is made up: nothing boots."""

import contextlib
import io
import os
import sys
import tempfile
import unittest
import unittest.mock

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import bench  # noqa: E402
import bench_ring3  # noqa: E402
import results  # noqa: E402


def result(name, prefix=True, **fields):
    """A RESULT line as the kernel prints it (with its log prefix) or as the
    peer prints it (without)."""
    line = "RESULT name=" + name + "".join(f" {k}={v}" for k, v in fields.items())
    return ("[   12.345678] cpu1: " if prefix else "") + line + "\n"


def pingpong(ns, cpu_b=0, prefix=True):
    return result("pingpong", prefix, cpu_a=0, cpu_b=cpu_b, rounds=50000, ns_per_roundtrip=ns)


def wakeup(p50, hog_cpus=1, policy="other", hogs_per_cpu=1, prefix=True):
    return result("wakeup", prefix, policy=policy, cpu=0, hogs_per_cpu=hogs_per_cpu, hog_cpus=hog_cpus,
                  p50_us=p50, p99_us=p50 * 3)


def runs_of(*texts):
    return [results.parse(t) for t in texts]


class Stats(unittest.TestCase):
    def test_odd_number_of_runs(self):
        self.assertEqual(bench.stats([30.0, 10.0, 11.0]), bench.Stats(11.0, 10.0, 30.0, 3, 3))

    def test_even_number_of_runs_takes_the_middle_pair(self):
        self.assertEqual(bench.stats([4.0, 1.0, 3.0, 1.0]), bench.Stats(2.0, 1.0, 4.0, 4, 4))

    def test_a_run_without_the_figure_is_counted_not_dropped(self):
        s = bench.stats([5.0, None, 7.0])
        self.assertEqual((s.median, s.lo, s.hi, s.n, s.runs), (6.0, 5.0, 7.0, 2, 3))
        self.assertEqual(bench.spread(s), "5–7 (2/3)")

    def test_no_run_has_the_figure(self):
        s = bench.stats([None, None])
        self.assertEqual(s, bench.Stats(None, None, None, 0, 2))
        self.assertEqual((bench.median_text(s), bench.spread(s)), ("missing", "— (0/2)"))

    def test_figures_reads_each_run(self):
        ours = bench.figures(runs_of(pingpong(300), pingpong(100) + pingpong(900, cpu_b=1), pingpong(200)))
        self.assertEqual(ours["pingpong_1cpu"], bench.Stats(200.0, 100.0, 300.0, 3, 3))
        self.assertEqual(ours["pingpong_2cpu"], bench.Stats(900.0, 900.0, 900.0, 1, 3))

    def test_figures_pick_the_variant_by_its_fields_not_its_place(self):
        # Linux's suite runs two wake-up variants with a hog on every CPU
        # between the idle one and those with a hog on CPU 0 only.
        text = (wakeup(80, hog_cpus=4, hogs_per_cpu=0) + wakeup(700, hog_cpus=4)
                + wakeup(650, hog_cpus=4, policy="fifo") + wakeup(105) + wakeup(99, policy="fifo"))
        ours = bench.figures(runs_of(text))
        self.assertEqual(ours["wakeup_idle_p50"].median, 80)
        self.assertEqual(ours["wakeup_hog_p50"].median, 105)
        self.assertEqual(ours["wakeup_hog_p99"].median, 315)
        self.assertEqual(ours["wakeup_fifo_p50"].median, 99)


class Goals(unittest.TestCase):
    def verdict(self, *texts):
        return bench.verdicts(bench.figures(runs_of(*texts)))

    def test_judged_on_the_median_not_the_mean_or_an_extreme(self):
        # goal: <= 16510.8 ns; mean 36667 and max 90000 miss it, the median meets it
        self.assertEqual(self.verdict(pingpong(10000), pingpong(90000), pingpong(10000))["pingpong_1cpu"], "yes")
        # the best run alone would meet it, the median does not
        self.assertEqual(self.verdict(pingpong(90000), pingpong(10000), pingpong(90000))["pingpong_1cpu"], "no")

    def test_fifo_is_judged_against_the_fair_sleepers_median(self):
        runs = [wakeup(100) + wakeup(fifo, policy="fifo") for fifo in (90, 95, 200)]
        self.assertEqual(self.verdict(*runs)["wakeup_fifo_p50"], "yes")
        runs = [wakeup(100) + wakeup(fifo, policy="fifo") for fifo in (90, 150, 200)]
        self.assertEqual(self.verdict(*runs)["wakeup_fifo_p50"], "no")

    def test_within_one_percent(self):
        nice = [result("fairness", nice_last=5, ratio=r) for r in ("3.07", "3.20", "3.08")]
        self.assertEqual(self.verdict(*nice)["fairness_nice5"], "yes")
        nice = [result("fairness", nice_last=5, ratio=r) for r in ("3.20", "3.00", "3.15")]
        self.assertEqual(self.verdict(*nice)["fairness_nice5"], "no")

    def test_missing_everywhere_is_not_met_and_report_rows_have_no_verdict(self):
        v = self.verdict("", "")
        self.assertEqual(v["pingpong_1cpu"], "no")
        self.assertEqual(v["schedcost_switch"], "-")


PEER_LOG = ("# run 1/2 kernel=linux-image-6.1.0-57-amd64 accel=tcg smp=4 mem=1G log=a.log\n"
            + result("env", prefix=False, kernel="6.1.0-57-amd64", cpus=4)
            + pingpong(66500, prefix=False) + pingpong(131000, cpu_b=1, prefix=False)
            + wakeup(79, hog_cpus=4, hogs_per_cpu=0, prefix=False) + wakeup(900, hog_cpus=4, prefix=False)
            + wakeup(800, hog_cpus=4, policy="fifo", prefix=False)
            + wakeup(103, prefix=False) + wakeup(100, policy="fifo", prefix=False)
            + result("spawn", prefix=False, count=2000, us_per_spawn=1745.0)
            + "# run 2/2 kernel=linux-image-6.1.0-57-amd64 accel=tcg smp=4 mem=1G log=b.log\n"
            + pingpong(67000, prefix=False) + wakeup(109, prefix=False))


class Peer(unittest.TestCase):
    def test_runs_split_on_the_headers(self):
        runs = bench.peer_runs(PEER_LOG)
        self.assertEqual([len(r) for r in runs], [9, 2])
        linux = bench.figures(runs)
        self.assertEqual(linux["pingpong_1cpu"], bench.Stats(66750.0, 66500.0, 67000.0, 2, 2))
        self.assertEqual(linux["wakeup_hog_p50"], bench.Stats(106.0, 103.0, 109.0, 2, 2))
        self.assertEqual(linux["wakeup_fifo_p50"], bench.Stats(100.0, 100.0, 100.0, 1, 2))
        self.assertEqual(linux["spawn_us"].n, 1)
        self.assertEqual(linux["hackbench_ms"].n, 0)

    def test_the_linux_cell_names_its_source(self):
        linux = bench.figures(bench.peer_runs(PEER_LOG))
        row = bench.ROWS[0]
        self.assertEqual(bench.linux_text(row, linux), "66750, 66500–67000 (2/2) (peer)")
        self.assertEqual(bench.linux_text(row, None), "best 66043, 66.0-67.6 us (reference)")
        self.assertEqual(bench.linux_text(bench.ROWS[-1], linux), "—")

    def test_lines_before_the_first_header_are_no_run(self):
        self.assertEqual(bench.peer_runs(pingpong(1) + pingpong(2)), [])


class PeerScript(unittest.TestCase):
    """The peer boots only with its cache filled; a stub stands in for it."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.peer = tmp.name
        patch = unittest.mock.patch.object(bench, "PEER", self.peer)
        patch.start()
        self.addCleanup(patch.stop)

    def write(self, path, text, mode=0o644):
        path = os.path.join(self.peer, path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, mode)

    def test_ready_only_with_kernel_and_busybox(self):
        self.assertFalse(bench.peer_ready())
        self.write("cache/kernel/linux-image-6.1.0-57-amd64/vmlinuz", "bzImage")
        self.assertFalse(bench.peer_ready())
        self.write("cache/busybox", "", 0o755)
        self.assertTrue(bench.peer_ready())
        self.write("cache/kernel/linux-image-6.1.0-57-amd64/vmlinuz", "")
        self.assertFalse(bench.peer_ready())

    def test_each_kernel_series_needs_its_own_kernel(self):
        self.write("cache/busybox", "", 0o755)
        self.write("cache/kernel/linux-image-6.12.38+deb12-amd64/vmlinuz", "bzImage")
        self.assertFalse(bench.peer_ready())            # 6.1's glob must not take 6.12
        self.assertTrue(bench.peer_ready("6.12"))

    def test_another_series_is_asked_for_by_name(self):
        self.write("run-linux-peer.sh", f"#!/bin/sh\n[ \"$*\" = '--runs 1 --kernel 6.12 --suite s' ] || exit 1\n"
                   f"cat <<'EOF'\n{PEER_LOG}EOF\n", 0o755)
        log = os.path.join(self.peer, "out.log")
        with contextlib.redirect_stdout(io.StringIO()):
            bench.boot_linux(1, log, ["--suite", "s"], kernel="6.12")
        with open(log) as f:
            self.assertEqual(len(bench.peer_runs(f.read())), 2)

    def test_its_output_is_kept_and_read(self):
        self.write("run-linux-peer.sh", f"#!/bin/sh\n[ \"$*\" = '--runs 2' ] || exit 1\ncat <<'EOF'\n{PEER_LOG}EOF\n",
                   0o755)
        log = os.path.join(self.peer, "out.log")
        with contextlib.redirect_stdout(io.StringIO()):
            bench.boot_linux(2, log)
        with open(log) as f:
            self.assertEqual(len(bench.peer_runs(f.read())), 2)


class Main(unittest.TestCase):
    """bench.py --log ... end to end, on made-up logs."""

    def run_bench(self, texts, linux=None):
        with tempfile.TemporaryDirectory() as tmp:
            argv = ["--out", os.path.join(tmp, "bench.md")]
            for i, text in enumerate(texts + ([linux] if linux else [])):
                path = os.path.join(tmp, f"log{i}")
                with open(path, "w") as f:
                    f.write(text)
                argv += ["--log" if i < len(texts) else "--linux-log", path]
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                bench.main(argv)
            with open(os.path.join(tmp, "bench.md")) as f:
                return f.read(), out.getvalue()

    def test_table_and_result_lines(self):
        md, out = self.run_bench([pingpong(12000) + wakeup(100), pingpong(14000), pingpong(20000) + wakeup(90)])
        self.assertIn("| pingpong, one CPU | ns_per_roundtrip | 14000 | 12000–20000 (3/3) | "
                      "best 66043, 66.0-67.6 us (reference) | <= 16510.8 | yes |", md)
        self.assertIn("| wakeup, hog on CPU 0, p50 us | p50_us | 95 | 90–100 (2/3) |", md)
        self.assertIn("(reference)", md.split("|")[0])
        found = {r["figure"]: r for r in results.parse(out) if r["name"] == "bench"}
        self.assertEqual(len(found), len(bench.ROWS))
        self.assertEqual(found["pingpong_1cpu"], {"name": "bench", "figure": "pingpong_1cpu",
                                                  "key": "ns_per_roundtrip", "runs": "3", "n": "3",
                                                  "median": "14000", "min": "12000", "max": "20000",
                                                  "met": "yes"})
        self.assertEqual((found["wakeup_hog_p50"]["n"], found["wakeup_hog_p50"]["runs"]), ("2", "3"))
        self.assertNotIn("median", found["hackbench_ms"])
        self.assertIn("figures missing from some of the 3 run(s)", out)

    def test_linux_from_a_peer_log(self):
        md, out = self.run_bench([pingpong(12000)], linux=PEER_LOG)
        self.assertIn("| 66750, 66500–67000 (2/2) (peer) |", md)
        self.assertIn("Linux 6.1: 2 run(s) of run-linux-peer.sh", md)
        line = [r for r in results.parse(out) if r.get("figure") == "pingpong_1cpu"][0]
        self.assertEqual((line["linux_median"], line["linux_n"], line["linux_runs"]), ("66750", "2", "2"))

    def test_a_peer_log_without_runs_falls_back_to_the_reference(self):
        md, out = self.run_bench([pingpong(12000)], linux=pingpong(66000, prefix=False))
        self.assertIn("best 66043, 66.0-67.6 us (reference)", md)
        self.assertIn("no '# run' section", out)


# The ring-3 programs (tools/bench_ring3.py): leftmost's lines come from the
# console, Linux's from the peer's output.
def ring3_run(null=480, pipe1=95000, pipe2=67000, fork=1000000, thread=None, prefix=False):
    text = (result("nullcall", prefix, iterations=1000000, ns_per_op=null, cpus=1)
            + result("clockcall", prefix, iterations=1000000, ns_per_op=50.5, cpus=1, syscall=0)
            + result("clockcall", prefix, iterations=1000000, ns_per_op=500.5, cpus=1, syscall=1)
            + result("pipepingpong", prefix, iterations=6000, ns_per_op=pipe1, cpus=1, cpu_a=0, cpu_b=0)
            + result("pipepingpong", prefix, iterations=6000, ns_per_op=pipe2, cpus=2, cpu_a=0, cpu_b=1)
            + result("forkwait", prefix, iterations=400, ns_per_op=fork, cpus=4))
    if thread is None:
        return text + result("threadjoin", prefix, iterations=400, error="EAGAIN")
    return text + result("threadjoin", prefix, iterations=400, ns_per_op=thread, cpus=4)


def ring3_peer_log(*runs):
    return "".join(f"# run {i}/{len(runs)} kernel=linux-image-6.1.0-57-amd64 accel=tcg smp=4\n"
                   + result("env", prefix=False, cpus=4) + run for i, run in enumerate(runs, 1))


class Ring3(unittest.TestCase):
    def sides(self, *texts):
        runs = runs_of(*texts)
        return {f.id: bench_ring3.side(runs, f) for f in bench_ring3.FIGURES}

    def test_leftmost_and_linux_run_the_same_commands_in_the_same_order(self):
        cmdline = bench_ring3.init_cmdline("nohz=off")
        self.assertTrue(cmdline.startswith('nohz=off init="/bin/runlist /bench/nullcall ; /bench/clockcall syscall=0 ; '
                                           '/bench/clockcall syscall=1 ; /bench/pipepingpong cpu_a=0 cpu_b=0 ; '))
        init = cmdline.split('init="')[1].rstrip('"')
        ours = [c.strip().replace("/bench/", "") for c in init.replace("/bin/runlist ", "").split(";")]
        theirs = [line[len("run "):] for line in bench_ring3.suite().splitlines() if line.startswith("run ")]
        self.assertEqual(ours, theirs)
        self.assertLessEqual(len(cmdline.split(" ", 1)[1]), 1024)    # one word, CMDLINE_MAX_WORD

    def test_each_figure_is_picked_by_its_arguments(self):
        s = self.sides(ring3_run(pipe1=90000, pipe2=60000), ring3_run(pipe1=100000, pipe2=70000),
                       ring3_run(pipe1=95000, pipe2=65000))
        self.assertEqual(s["pipe_1cpu"].stats, bench.Stats(95000.0, 90000.0, 100000.0, 3, 3))
        self.assertEqual(s["pipe_2cpu"].stats.median, 65000.0)
        self.assertEqual(bench_ring3.cell(s["pipe_2cpu"]), "65000, 60000–70000 (3/3)")

    def test_an_error_line_is_not_supported_and_a_missing_line_is_missing(self):
        s = self.sides(ring3_run(prefix=True), "")
        self.assertEqual(s["threadjoin"], bench_ring3.Side(bench.Stats(None, None, None, 0, 2), "EAGAIN"))
        self.assertEqual(bench_ring3.cell(s["threadjoin"]), "not supported (EAGAIN)")
        self.assertEqual(bench_ring3.cell(s["nullcall"]), "480, 480–480 (1/2)")
        self.assertEqual(bench_ring3.cell(self.sides("")["nullcall"]), "missing (0/1)")
        self.assertEqual(bench_ring3.cell(None), "—")

    def test_goals_are_fractions_of_each_linux_median(self):
        ours = self.sides(ring3_run(null=240, fork=500000))
        linux = self.sides(ring3_run(null=480, fork=1000000, thread=100000))
        rows = {r[0].id: r for r in bench_ring3.rows(ours, [linux, None])}
        self.assertEqual(rows["nullcall"][3:], ([0.5, None], ["yes", "-"]))     # 1/2: just met
        self.assertEqual(rows["forkwait"][3:], ([0.5, None], ["no", "-"]))      # 1/4: missed
        self.assertEqual(rows["threadjoin"][3:], ([None, None], ["no", "-"]))   # not supported: missed
        self.assertEqual(rows["clockcall"][4], ["-", "-"])                      # reported only
        self.assertEqual(ours["clockcall_syscall"].stats.median, 500.5)         # picked by syscall=1

    def test_table_and_result_lines(self):
        ours = self.sides(ring3_run(null=400))
        linux = self.sides(ring3_run(null=1000, thread=200000))
        rows = bench_ring3.rows(ours, [linux, linux])
        text = bench_ring3.table(rows)
        self.assertEqual(text.count("\n"), len(bench_ring3.FIGURES) + 2)
        self.assertIn("| null system call, getpid() | 400, 400–400 (1/1) | 1000, 1000–1000 (1/1) | "
                      "1000, 1000–1000 (1/1) | 0.40, 0.40 | <= 0.5 of Linux's | yes, yes |", text)
        self.assertIn("| thread create + join | not supported (EAGAIN) | 200000, 200000–200000 (1/1) |", text)
        lines = {r["figure"]: r for r in results.parse("\n".join(bench_ring3.result_lines(rows)))}
        self.assertEqual(lines["nullcall"], {"name": "bench_ring3", "figure": "nullcall", "median": "400",
                                             "linux_median": "1000", "linux_nomitig_median": "1000",
                                             "met": "yes,yes"})
        self.assertEqual(lines["threadjoin"]["error"], "EAGAIN")

    def test_the_section_replaces_an_older_one_after_benchs_table(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "bench.md")
            bench_ring3.write_section(out, bench_ring3.HEADING + "\n\nfirst\n")
            with open(out) as f:
                self.assertEqual(f.read(), bench_ring3.HEADING + "\n\nfirst\n")
            with open(out, "w") as f:
                f.write("# bench\n\n| table |\n")
            for text in ("second\n", "third\n"):
                bench_ring3.write_section(out, bench_ring3.HEADING + "\n\n" + text)
            with open(out) as f:
                self.assertEqual(f.read(), "# bench\n\n| table |\n\n" + bench_ring3.HEADING + "\n\nthird\n")

    def test_without_the_peer_linux_is_skipped_with_a_reason(self):
        with tempfile.TemporaryDirectory() as tmp, unittest.mock.patch.object(bench, "PEER", tmp):
            self.assertIn("run-linux-peer.sh", bench_ring3.linux_missing())
            open(os.path.join(tmp, "run-linux-peer.sh"), "w").close()
            self.assertIn("no Linux 6.1 kernel", bench_ring3.linux_missing())

    def test_main_reads_logs(self):
        with tempfile.TemporaryDirectory() as tmp:
            paths = {}
            for name, text in [("run1", ring3_run(null=500, prefix=True)), ("run2", ring3_run(null=300)),
                               ("linux", ring3_peer_log(ring3_run(null=1000, thread=9), ring3_run(null=1200)))]:
                paths[name] = os.path.join(tmp, name)
                with open(paths[name], "w") as f:
                    f.write(text)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                bench_ring3.main(["--out", os.path.join(tmp, "bench.md"), "--log", paths["run1"],
                                  "--log", paths["run2"], "--linux-log", paths["linux"]])
            with open(os.path.join(tmp, "bench.md")) as f:
                md = f.read()
        self.assertTrue(md.startswith(bench_ring3.HEADING))
        self.assertIn("Linux 6.1: 2 run(s)", md)
        self.assertIn("Linux 6.1 mitigations=off: not measured: no log given", md)
        self.assertIn("| null system call, getpid() | 400, 300–500 (2/2) | 1100, 1000–1200 (2/2) | — | "
                      "0.36, — | <= 0.5 of Linux's | yes, - |", md)
        self.assertIn("| thread create + join | not supported (EAGAIN) | 9, 9–9 (1/2) |", md)
        self.assertIn("RESULT name=bench_ring3 figure=nullcall median=400 linux_median=1100 met=yes,-",
                      out.getvalue())


if __name__ == "__main__":
    unittest.main()
