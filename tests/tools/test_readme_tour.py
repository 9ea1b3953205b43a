"""README.md's tour, typed as written: `make run` on a pseudo-terminal, q to
leave the demo, then each command of the "Five things to try" block, and
what the text after it promises is checked: top shows the two hogs on CPU 1,
the nice 0 one with clearly more of it than the nice 5 one; chrt's cat is
FIFO with no place on the fair timeline; sysctl sets the tunable; fairness
reports its ratio near 1024/335. Then `poweroff`, and make run's status 0.

Boots QEMU once at make run's 4 CPUs (about 40 s under TCG); everything it
starts is killed and reaped whatever happens (test_make_run_keys.Terminal).
"""

import os
import re
import sys
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))

import session_check
from test_make_run_keys import BUDGET, ROOT, Terminal, build_kernel, make_env

PROMPT = r"\$ "


def tour():
    """The commands of README.md's tour, as written, comments dropped."""
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    block = text.split("Five things to try there:\n\n", 1)[1].split("\n\n", 1)[0]
    return [re.split(r"\s+#\s", line[len("    $ "):], 1)[0].rstrip() for line in block.splitlines()]


def lines(text):
    """The terminal's text with plain line ends (the guest's \\r\\n passes the
    host's terminal, which adds a \\r of its own)."""
    return re.sub(r"\r+\n", "\n", text)


def output_of(t, command):
    """What command printed: the text between its echo and the next prompt."""
    at = t.seen.rfind(command)
    if at < 0:
        return ""
    return "\n".join(session_check.clean(lines(t.seen[at + len(command):])))


class ReadmeTour(unittest.TestCase):
    def check_top(self, shown):
        """top's last whole frame (each starts at the cursor's home, ESC [ H)."""
        frames = [f for f in shown.split("\x1b[H") if f.startswith("top - ") and "\x1b[J" in f]
        self.assertTrue(frames, "top drew no whole frame")
        rows = session_check.last_top_frame(session_check.clean(lines(frames[-1])))
        hogs = {ni: (cpu_pct, cpu) for pid, pr, ni, state, cpu_pct, cpu, command in rows
                if command == "yes"}
        self.assertEqual(sorted(hogs), [0, 5], f"top's last frame: {rows}")
        self.assertEqual({cpu for _, cpu in hogs.values()}, {1}, f"both on CPU 1: {rows}")
        self.assertGreater(hogs[0][0], 1.5 * hogs[5][0], f"nice 0 against nice 5: {rows}")

    def test_the_tour_shows_what_it_says(self):
        commands = tour()
        self.assertEqual(len(commands), 5, commands)
        build_kernel()
        t = Terminal(["make", "--no-print-directory", "run",
                      f"ISO={os.environ.get('BUILD', 'build')}/iso/readme-tour.iso"], make_env())
        try:
            t.expect(r"WAKE-UP LATE", BUDGET)
            t.type("q")
            t.expect(PROMPT, 60)
            for command in commands:
                name = command.split()[0]
                start = t.at
                t.type(command + "\r")
                if command == "top":
                    for _ in range(3):              # the first frame counts since boot
                        t.expect(r"top - ")
                    t.expect(r"P COMMAND")
                    time.sleep(0.5)                 # the frame's rows
                    t.type("q")
                    t.expect(PROMPT)
                    self.check_top(t.seen[start:t.at])
                    continue
                t.expect(PROMPT, 60)
                said = output_of(t, command)
                if " yes " in command:
                    self.assertNotIn("usage", said)
                elif name == "chrt":
                    self.assertRegex(said, r"(?m)^policy\s+: FIFO")
                    self.assertNotIn("se.fair_key", said)
                elif name == "sysctl":
                    self.assertIn("kernel.sched_granularity_ns = 4000000", said)
                elif name == "fairness":
                    m = re.search(r"RESULT name=fairness .*nice_last=5 .* ratio=([\d.]+)", said)
                    self.assertTrue(m, said)
                    self.assertTrue(2.0 <= float(m.group(1)) <= 4.5, m.group(0))
                else:
                    self.fail(f"README's tour has a command this test does not know: {command}")
            t.type("poweroff\r")
            self.assertEqual(t.wait(60), 0, "make run's status after poweroff:\n" + t.seen[-800:])
        finally:
            t.close()


if __name__ == "__main__":
    unittest.main()
