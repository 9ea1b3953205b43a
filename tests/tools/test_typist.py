"""Unit tests for tools/typist.py: python3 tests/tools/test_typist.py"""
import os
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import typist  # noqa: E402


def steps_of(text):
    with tempfile.NamedTemporaryFile("w", suffix=".keys", delete=False) as f:
        f.write(text)
    try:
        return typist.load(f.name)
    finally:
        os.unlink(f.name)


class TypistTest(unittest.TestCase):
    def test_escapes_become_bytes(self):
        steps = steps_of("# a comment\n> ready\n< ab\\x7fc\\r\nsleep 0.5\n")
        self.assertEqual(steps, [("wait", "ready"), ("type", b"ab\x7fc\r"), ("sleep", 0.5)])

    def test_a_bad_line_is_refused(self):
        with self.assertRaises(SystemExit):
            steps_of("type this\n")

    def test_it_types_only_after_the_text_it_waits_for(self):
        t = typist.Typist([("wait", "ready for a"), ("type", b"1"),
                           ("wait", "ready for b"), ("type", b"2")])
        self.assertEqual(t.keys(), b"")
        t.heard(b"...ready for")
        self.assertEqual(t.keys(), b"")            # text split across two reads
        t.heard(b" a\r\nready for b")
        self.assertEqual(t.keys(), b"12")
        self.assertTrue(t.done())

    def test_text_seen_before_a_match_does_not_count_again(self):
        t = typist.Typist([("wait", "ready"), ("type", b"1"), ("wait", "ready"), ("type", b"2")])
        t.heard(b"ready")
        self.assertEqual(t.keys(), b"1")
        self.assertEqual(t.keys(), b"")            # the same "ready" is used up
        t.heard(b" ready")
        self.assertEqual(t.keys(), b"2")

    def test_sleep_holds_the_keys_back(self):
        t = typist.Typist([("sleep", 0.2), ("type", b"x")])
        self.assertEqual(t.keys(), b"")
        self.assertEqual(t.waiting_for(), ("sleep", 0.2))
        time.sleep(0.25)
        self.assertEqual(t.keys(), b"x")


if __name__ == "__main__":
    unittest.main()
