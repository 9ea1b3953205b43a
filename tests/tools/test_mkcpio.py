"""Unit tests for tools/mkcpio.py: python3 tests/tools/test_mkcpio.py"""
import os
import stat
import subprocess
import sys
import tempfile
import unittest

TOOLS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools")
sys.path.insert(0, TOOLS)
import mkcpio  # noqa: E402


def read_newc(data):
    """[(name, mode, nlink, data)] up to the trailer: a reader of its own,
    written from the format's description, not from mkcpio's code."""
    entries, at = [], 0
    while True:
        if at % 4:
            raise AssertionError("entry at %d is not 4-byte aligned" % at)
        if data[at:at + 6] != b"070701":
            raise AssertionError("no magic at %d" % at)
        numbers = [int(data[at + 6 + 8 * i:at + 14 + 8 * i], 16) for i in range(13)]
        mode, nlink, size, namesize = numbers[1], numbers[4], numbers[6], numbers[11]
        name_end = at + 110 + namesize
        if data[name_end - 1] != 0:
            raise AssertionError("name at %d has no NUL" % at)
        name = data[at + 110:name_end - 1].decode()
        start = (name_end + 3) & ~3
        if name == "TRAILER!!!":
            if start != len(data):
                raise AssertionError("%d bytes after the trailer" % (len(data) - start))
            return entries
        entries.append((name, mode, nlink, data[start:start + size]))
        at = (start + size + 3) & ~3


class MkcpioTest(unittest.TestCase):
    def test_round_trip_with_every_padding(self):
        files = [("bin/%s" % ("x" * n), bytes(range(n)), 0o755) for n in range(1, 9)]
        entries = read_newc(mkcpio.archive(files))
        self.assertEqual(entries[0], ("bin", stat.S_IFDIR | 0o755, 2, b""))
        self.assertEqual(entries[1:], [(p, stat.S_IFREG | 0o755, 1, d) for p, d, _ in files])

    def test_each_directory_once_before_its_first_file(self):
        names = [e[0] for e in read_newc(mkcpio.archive(
            [("/a/b/c", b"1", 0o644), ("a/d", b"2", 0o600), ("e/f", b"", 0o644)]))]
        self.assertEqual(names, ["a", "a/b", "a/b/c", "a/d", "e", "e/f"])

    def test_same_files_same_bytes(self):
        files = [("bin/hello", b"\x7fELF", 0o755)]
        self.assertEqual(mkcpio.archive(files), mkcpio.archive(files))

    def test_empty_archive_is_only_the_trailer(self):
        data = mkcpio.archive([])
        self.assertEqual(read_newc(data), [])
        self.assertEqual(len(data), 124)      # 110 + "TRAILER!!!\0", padded to 4

    def test_bad_paths_are_refused(self):
        for files in ([("a", b"", 0o644), ("/a", b"", 0o644)],     # twice
                      [("a", b"", 0o644), ("a/b", b"", 0o644)],    # a file as a directory
                      [("a/b", b"", 0o644), ("a", b"", 0o644)],    # a directory as a file
                      [("a//b", b"", 0o644)], [("", b"", 0o644)]):
            with self.assertRaises(ValueError, msg=files):
                mkcpio.archive(files)

    def test_command_line_takes_the_files_permissions(self):
        with tempfile.TemporaryDirectory() as tmp:
            run, secret, out = (os.path.join(tmp, n) for n in ("run", "secret", "out.cpio"))
            for path, perm in ((run, 0o755), (secret, 0o640)):
                with open(path, "wb") as f:
                    f.write(b"data of " + path.encode())
                os.chmod(path, perm)
            cmd = [sys.executable, os.path.join(TOOLS, "mkcpio.py"), out, "bin/run=" + run, "etc/secret=" + secret]
            subprocess.run(cmd, check=True)
            with open(out, "rb") as f:
                entries = read_newc(f.read())
            self.assertEqual([(e[0], oct(e[1])) for e in entries],
                             [("bin", oct(stat.S_IFDIR | 0o755)), ("bin/run", oct(stat.S_IFREG | 0o755)),
                              ("etc", oct(stat.S_IFDIR | 0o755)), ("etc/secret", oct(stat.S_IFREG | 0o640))])
            self.assertEqual(entries[1][3], b"data of " + run.encode())
            self.assertFalse(os.path.exists(out + ".tmp"))

    def test_command_line_usage(self):
        cmd = [sys.executable, os.path.join(TOOLS, "mkcpio.py"), "out", "no-equals-sign"]
        result = subprocess.run(cmd, capture_output=True, text=True)
        self.assertEqual(result.returncode, 2)
        self.assertIn("Usage:", result.stderr)


if __name__ == "__main__":
    unittest.main()
