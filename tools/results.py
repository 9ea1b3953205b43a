#!/usr/bin/env python3
"""Read `RESULT name=<workload> key=value ...` lines out of a serial log.

Used by tools/runtests.py (to check a run= boot) and tools/bench.py.
  tools/results.py LOG     prints each result as name: key=value ...
"""
import re
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
import ktap  # noqa: E402

TOKEN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=\S+$")


def parse_line(line):
    """A dict of the line's key=value pairs, or None if it is no RESULT line.
    Raises ValueError on a malformed RESULT line."""
    line = ktap.strip_prefix(line.rstrip("\r\n"))
    if not line.startswith("RESULT "):
        return None
    fields = {}
    for token in line.split()[1:]:
        if not TOKEN.match(token):
            raise ValueError(f"malformed RESULT field {token!r} in: {line}")
        key, value = token.split("=", 1)
        fields[key] = value
    if "name" not in fields:
        raise ValueError(f"RESULT line without name=: {line}")
    return fields


def parse(text):
    """Every RESULT line of a log, in order, as dicts."""
    results = []
    for line in text.splitlines():
        r = parse_line(line)
        if r is not None:
            results.append(r)
    return results


def select(results, name, index=1):
    """The index-th (1-based) result of the named workload, or None."""
    matching = [r for r in results if r["name"] == name]
    return matching[index - 1] if 0 < index <= len(matching) else None


def find(results, name, key, where=None):
    """The first result of the named workload that has key and whose fields
    equal every item of where (e.g. {"hog_cpus": "1"}), or None. Unlike
    select(), it does not depend on the order of the list, which differs
    between leftmost's benchmark boots and the Linux peer's suite."""
    for r in results:
        if r["name"] == name and key in r and all(r.get(k) == v for k, v in (where or {}).items()):
            return r
    return None


FIELD = r"(\w+)(?:#(\d+))?\.(\w+)"
ASSERTION = re.compile(r"^" + FIELD + r"(<=|>=|==)(?:(-?[0-9.]+)|([0-9.]+)\*" + FIELD + r")$")


def value_of(results, name, index, key):
    """The number at name[#index].key, or an error string."""
    r = select(results, name, int(index or 1))
    if r is None:
        return f"no RESULT line for {name}" + (f" #{index}" if index else "")
    if key not in r:
        return f"{name} has no {key}"
    try:
        return float(r[key])
    except ValueError:
        return f"{key}={r[key]} is not a number"


def check(results, assertion):
    """Check one `name[#n].key<=value`, or `...<=factor*name[#n].key` (also
    >=, ==); returns an error string or None."""
    m = ASSERTION.match(assertion)
    if not m:
        return f"cannot read assertion {assertion!r}"
    name, index, key, op, number, factor, name2, index2, key2 = m.groups()
    value = value_of(results, name, index, key)
    bound = float(number) if number is not None else value_of(results, name2, index2, key2)
    for v in (value, bound):
        if isinstance(v, str):
            return f"{assertion}: {v}"
    if factor is not None:
        bound *= float(factor)
    ok = {"<=": value <= bound, ">=": value >= bound, "==": value == bound}[op]
    return None if ok else f"{assertion}: {value:g} against {bound:g}"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1], errors="replace") as f:
        for r in parse(f.read()):
            print(r["name"] + ": " + " ".join(f"{k}={v}" for k, v in r.items() if k != "name"))


if __name__ == "__main__":
    main()
