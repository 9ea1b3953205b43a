"""Unit tests for tools/layers.py: python3 -m unittest discover -s tools -p 'test_*.py'"""
import os
import tempfile
import unittest

import layers


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
        root = self.tree({"kernel/b.c": '#include "arch/x86_64/io.h"\n#include <stdint.h>\n#include "lib/string.h"\n'})
        self.assertEqual(layers.check(root), [])

    def test_services_may_be_used_from_below(self):
        root = self.tree({"arch/x86_64/lapic.c": '#include "kernel/printk.h"\n#include "kernel/percpu.h"\n'})
        self.assertEqual([p[2] for p in layers.check(root)], ["kernel/percpu.h"])

    def test_lib_may_include_only_lib(self):
        root = self.tree({"lib/x.c": '#include "kernel/printk.h"\n#include "arch/x86_64/io.h"\n'})
        self.assertEqual([p[2] for p in layers.check(root)], ["arch/x86_64/io.h"])

    def test_the_kernel_reaches_sched_only_through_its_public_headers(self):
        root = self.tree({"kernel/t.c": '#include "sched/api.h"\n#include "sched/fair.h"\n'})
        self.assertEqual([(p[0], p[2]) for p in layers.check(root)], [("kernel/t.c", "sched/fair.h")])

    def test_sched_reaches_the_kernel_only_through_the_platform(self):
        root = self.tree({"sched/core.c": '#include "kernel/time/timer.h"\n#include "kernel/task/kthread.h"\n'})
        self.assertEqual([p[2] for p in layers.check(root)], ["kernel/task/kthread.h"])

    def test_programs_and_the_kernel_include_nothing_of_each_other(self):
        root = self.tree({"kernel/entry/main.c": '#include "user/demo.h"\n',
                          "user/bin/ps.c": '#include "kernel/task/kthread.h"\n#include "user/lib/proc.h"\n#include <stdio.h>\n'})
        self.assertEqual([(p[0], p[2]) for p in layers.check(root)],
                         [("kernel/entry/main.c", "user/demo.h"), ("user/bin/ps.c", "kernel/task/kthread.h")])


if __name__ == "__main__":
    unittest.main()
