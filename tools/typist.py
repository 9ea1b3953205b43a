"""Type at a terminal as a person would, from a keys file, so that a test of
the terminal runs the same on leftmost (keys sent to the serial console) and
on the host's Linux (keys sent to a pseudo-terminal's master).

A keys file has one step per line; "#" starts a comment line:

  > TEXT      wait until the program has printed TEXT (after the last match)
  < KEYS      type KEYS; Python escapes: \\r is Enter, \\x03 Ctrl-C, \\x7f Backspace
  sleep S     wait S seconds (a program that must be inside read() first)

Used by tools/runtests.py (keys=FILE), tools/emulator.py and
tools/linuxcompare.py.
"""

import codecs
import time


def load(path):
    """The steps of a keys file: ("wait", str), ("type", bytes), ("sleep", float)."""
    steps = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            if line.startswith("> "):
                steps.append(("wait", line[2:]))
            elif line.startswith("< "):
                keys = codecs.decode(line[2:], "unicode_escape").encode("latin-1")
                steps.append(("type", keys))
            elif line.startswith("sleep "):
                steps.append(("sleep", float(line.split()[1])))
            else:
                raise SystemExit(f"{path}:{n}: not a step: {line}")
    return steps


class Typist:
    """Feed it what the program prints (heard); ask it what to type now (keys)."""

    def __init__(self, steps):
        self.steps = list(steps)
        self.seen = ""
        self.sleep_until = None

    def heard(self, data):
        self.seen += data.decode("latin-1")

    def keys(self):
        """The keys to type now (b"" if none): steps run until one must wait."""
        out = b""
        while self.steps:
            kind, arg = self.steps[0]
            if kind == "wait":
                at = self.seen.find(arg)
                if at < 0:
                    break
                self.seen = self.seen[at + len(arg):]
            elif kind == "type":
                out += arg
            elif self.sleep_until is None:
                self.sleep_until = time.monotonic() + arg
                break
            elif time.monotonic() < self.sleep_until:
                break
            else:
                self.sleep_until = None
            self.steps.pop(0)
        return out

    def done(self):
        return not self.steps

    def waiting_for(self):
        return self.steps[0] if self.steps else None
