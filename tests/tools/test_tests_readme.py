"""tests/README.md names every test under tests/, so that its tables stay
the way to find them: python3 tests/tools/test_tests_readme.py

A test file (test_*.py, *_test.c, a case of tests/user/, a keys file, a
trace fixture, the suite list) must be named by its path from the top of
the tree, `tests/...`; any other file there (a runner, a helper) at least
by its name, where its folder's row says what it is.
"""
import fnmatch
import os
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TESTS = ("test_*.py", "*_test.c", "tests/user/*.c", "tests/user/*.sh", "tests/user/*.keys",
         "tests/*.keys", "tests/trace/*", "tests/kernel-suites.txt")


def files_under_tests():
    """Every file of tests/, as a path from the top (not Python's caches,
    not hidden files)."""
    found = []
    for where, dirs, names in os.walk(os.path.join(ROOT, "tests")):
        dirs[:] = [d for d in dirs if d != "__pycache__" and not d.startswith(".")]
        found += [os.path.relpath(os.path.join(where, n), ROOT) for n in names if not n.startswith(".")]
    return sorted(found)


def is_test(path):
    return any(fnmatch.fnmatch(os.path.basename(path), p) if "/" not in p else fnmatch.fnmatch(path, p)
               for p in TESTS) and path != "tests/user/cases.h"


class ReadmeTest(unittest.TestCase):
    maxDiff = None

    def test_every_file_under_tests_is_named(self):
        with open(os.path.join(ROOT, "tests", "README.md")) as f:
            readme = f.read()
        files = [p for p in files_under_tests() if p != "tests/README.md"]
        self.assertGreater(len(files), 50)
        unnamed = [p for p in files if is_test(p) and f"`{p}`" not in readme]
        self.assertEqual(unnamed, [], "test files that tests/README.md does not name by their path")
        unnamed = [p for p in files if not is_test(p) and f"`{os.path.basename(p)}`" not in readme
                   and f"`{p}`" not in readme]
        self.assertEqual(unnamed, [], "files that tests/README.md does not name")


if __name__ == "__main__":
    unittest.main()
