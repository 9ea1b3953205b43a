"""leftmost's GDB helpers: `source tools/gdb/leftmost.py` (make debug does).

In the style of Linux's scripts/gdb: one module per topic, each registering
its commands when imported. `apropos lm-` lists them; `help lm-rq` etc.
explain each. They read the kernel through its debug information, so they
need build/leftmost.elf loaded (gdb build/leftmost.elf).
"""

import os
import sys

import gdb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

if not hasattr(gdb, "lookup_static_symbol"):
    raise gdb.GdbError("leftmost's helpers need GDB 10 or newer")

import tasks        # noqa: E402,F401  lm-tasks, lm-task, $lm_task, $lm_current, $lm_cpu
import rq           # noqa: E402,F401  lm-rq, lm-class
import tree         # noqa: E402,F401  lm-tree
import log          # noqa: E402,F401  lm-log
import breakpoints  # noqa: E402,F401  lm-break-pick
import prog         # noqa: E402,F401  lm-prog
