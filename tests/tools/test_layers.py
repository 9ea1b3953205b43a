"""Unit tests for tools/layers.py: python3 tests/tools/test_layers.py"""
import io
import os
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import layers  # noqa: E402


class LayersTest(unittest.TestCase):
    def tree(self, files):
        root = tempfile.mkdtemp()
        for path, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        return root

    def test_an_include_up_a_layer_is_reported_with_file_line_and_rule(self):
        root = self.tree({"arch/x86_64/trap.c": '#include "arch/x86_64/cpu.h"\n#include "sched/core.h"\n'})
        self.assertEqual(layers.check(root), [
            ("arch/x86_64/trap.c", 2, "sched/core.h",
             "it is internal to sched/ (the public headers: SCHED_PUBLIC in tools/layers.py)")])

    def test_down_and_sideways_are_fine(self):
        root = self.tree({"kernel/mm/b.c": '#include "arch/x86_64/io.h"\n#include <stdint.h>\n#include "lib/string.h"\n'})
        self.assertEqual(layers.check(root), [])

    def test_services_may_be_used_from_below(self):
        root = self.tree({"arch/x86_64/lapic.c": '#include "kernel/printk.h"\n#include "kernel/percpu.h"\n'})
        self.assertEqual([p[2] for p in layers.check(root)], ["kernel/percpu.h"])

    def test_lib_may_include_only_lib(self):
        root = self.tree({"lib/x.c": '#include "kernel/printk.h"\n#include "arch/x86_64/io.h"\n'})
        self.assertEqual([p[2] for p in layers.check(root)], ["arch/x86_64/io.h"])

    def test_the_kernel_reaches_sched_only_through_its_public_headers(self):
        root = self.tree({"kernel/entry/t.c": '#include "sched/api.h"\n#include "sched/fair.h"\n'})
        self.assertEqual([(p[0], p[2]) for p in layers.check(root)], [("kernel/entry/t.c", "sched/fair.h")])

    def test_sched_reaches_the_kernel_only_through_the_platform(self):
        root = self.tree({"sched/core.c": '#include "kernel/time/timer.h"\n#include "kernel/task/kthread.h"\n'})
        self.assertEqual([p[2] for p in layers.check(root)], ["kernel/task/kthread.h"])

    def test_programs_and_the_kernel_include_nothing_of_each_other(self):
        root = self.tree({"kernel/entry/main.c": '#include "user/demo.h"\n',
                          "user/bin/ps.c": '#include "kernel/task/kthread.h"\n#include "user/lib/proc.h"\n#include <stdio.h>\n'})
        self.assertEqual([(p[0], p[2]) for p in layers.check(root)],
                         [("kernel/entry/main.c", "user/demo.h"), ("user/bin/ps.c", "kernel/task/kthread.h")])

    def test_kernel_subsystems_include_down_and_within_their_own_folders(self):
        root = self.tree({"kernel/task/fork.c": '#include "kernel/mm/pmm.h"\n#include "kernel/fs/file.h"\n#include "kernel/printk.h"\n',
                          "kernel/fs/ramfs/ramfs.c": '#include "kernel/fs/file.h"\n',
                          "kernel/fs/file.c": '#include "kernel/fs/ramfs/ramfs.h"\n',
                          "kernel/entry/main.c": '#include "kernel/tty/tty.h"\n#include "kernel/task/process.h"\n'})
        self.assertEqual(layers.check(root), [])

    def test_an_include_up_the_kernel_subsystems_is_reported_with_file_line_and_rule(self):
        root = self.tree({"kernel/mm/vmm.c": '#include "kernel/mm/pmm.h"\n#include "kernel/task/process.h"\n',
                          "kernel/spinlock.c": '#include "kernel/time/timer.h"\n'})
        self.assertEqual(layers.check(root), [
            ("kernel/mm/vmm.c", 2, "kernel/task/process.h",
             "kernel/mm/ may not include kernel/task/ (a higher subsystem: KERNEL_ORDER, CROSSINGS in tools/layers.py)"),
            ("kernel/spinlock.c", 1, "kernel/time/timer.h",
             "kernel/ may not include kernel/time/ (a higher subsystem: KERNEL_ORDER, CROSSINGS in tools/layers.py)")])

    def test_a_planted_upward_include_fails_the_real_tree(self):
        here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # the repository
        root = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, root)
        for d in ["lib", "arch", "kernel", "sched", "user", "tests/user", "tests/kernel"]:
            shutil.copytree(os.path.join(here, d), os.path.join(root, d))
        self.assertEqual(layers.check(root), [])
        with open(os.path.join(root, "kernel/mm/vmm.c"), "a+") as f:
            f.write('#include "kernel/task/signal/signal.h"\n')
            f.seek(0)
            lines = len(f.readlines())
        out = io.StringIO()
        with redirect_stdout(out):
            self.assertEqual(layers.main(["layers.py", root]), 1)
        self.assertEqual(out.getvalue().splitlines(), [
            "layers: kernel/mm/vmm.c:%d includes kernel/task/signal/signal.h: kernel/mm/ may not include kernel/task/"
            " (a higher subsystem: KERNEL_ORDER, CROSSINGS in tools/layers.py)" % lines,
            "layers: 1 include(s) point up a layer"])

    def test_an_included_test_is_held_to_its_sources_subsystem(self):
        root = self.tree({"kernel/mm/pmm.c": '#include "tests/kernel/included/pmm_test.c"\n',
                          "tests/kernel/included/pmm_test.c": '#include "kernel/debug/ktest.h"\n#include "kernel/task/kthread.h"\n'})
        self.assertEqual([(p[0], p[2]) for p in layers.check(root)],
                         [("tests/kernel/included/pmm_test.c", "kernel/task/kthread.h")])

    def test_a_system_call_may_use_any_subsystem_but_the_entry(self):
        root = self.tree({"kernel/mm/sys_mm.c": '#include "kernel/task/process.h"\n#include "kernel/fs/file.h"\n'
                                                '#include "kernel/entry/run.h"\n'})
        self.assertEqual([p[2] for p in layers.check(root)], ["kernel/entry/run.h"])

    def test_a_named_crossing_is_allowed_and_one_no_longer_made_is_reported(self):
        root = self.tree({"kernel/printk.c": '#include "kernel/tty/serial.h"\n',
                          "kernel/power.c": '#include "kernel/printk.h"\n'})
        self.assertEqual(layers.check(root), [
            ("kernel/power.c", 0, "kernel/debug/trace_buffer.h",
             "CROSSINGS in tools/layers.py names it, but it is gone: remove it there")])

    def test_an_internal_header_is_for_its_own_folder(self):
        root = self.tree({"kernel/task/process_wait.c": '#include "kernel/task/process_internal.h"\n',
                          "kernel/fs/proc/process_info.c": '#include "kernel/task/process_internal.h"\n'})
        self.assertEqual([(p[0], p[3]) for p in layers.check(root)],
                         [("kernel/fs/proc/process_info.c", "kernel/task/process_internal.h is private to kernel/task/")])

    def test_two_sources_with_one_name_fail(self):
        root = self.tree({"arch/x86_64/smp.c": "", "kernel/entry/smp.c": "", "kernel/task/smp.h": "",
                          "kernel/mm/vdso.c": "", "arch/x86_64/vdso/vdso.c": "", "user/bin/smp.c": ""})
        self.assertEqual(layers.shared_names(root), [
            ("smp.c", ["arch/x86_64/smp.c", "kernel/entry/smp.c"]),
            ("vdso.c", ["arch/x86_64/vdso/vdso.c", "kernel/mm/vdso.c"])])
        out = io.StringIO()
        with redirect_stdout(out):
            self.assertEqual(layers.main(["layers.py", root]), 1)
        self.assertIn("layers: smp.c names 2 files (arch/x86_64/smp.c, kernel/entry/smp.c): give each a name of its own",
                      out.getvalue().splitlines())

    def test_the_tree_has_no_two_sources_of_one_name(self):
        here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # the repository
        self.assertEqual(layers.shared_names(here), [])


if __name__ == "__main__":
    unittest.main()
