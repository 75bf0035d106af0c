#!/usr/bin/env python3
"""Checks docs/security.md against the system-call table (run by `make test`
through tools/run-tests.py, as the test "security table").

It fails (exit status 1, the reasons on stderr) if
- a system call of abi/syscalls.tbl has no row in the table,
  or a row names a call that is not in syscalls.tbl, or a call has two rows;
- a row claims a check (its rights or credentials column is not "—") but
  names no test;
- a row names a test that does not exist: each `name` in backquotes in the
  Tests column must be a test (a KTEST(name) in kernel/, or a host test
  tests/SUBJECT/test_name.c), and each "quoted text" must occur verbatim in a
  test program's source (user/, drivers/, kernel/test/, tests/): the TAP
  text of the check that proves the row's claim.

Usage: tools/check-security.py [--tbl FILE] [--doc FILE] [--root DIR]"""
import argparse
import os
import re
import sys

NONE = {"—", "-", ""}


def syscall_names(tbl):
    names = []
    with open(tbl) as f:
        for line in f:
            m = re.match(r"^\s*(\d+)\s*\|\s*(\w+)\s*\|", line)
            if m:
                names.append(m.group(2))
    return names


def table_rows(doc):
    """The rows of the table whose header starts "| Call |": (line, cells)."""
    rows, inside = [], False
    with open(doc) as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if s.startswith("| Call |"):
                inside = True
                continue
            if inside and not s.startswith("|"):
                inside = False
            if not inside or re.match(r"^\|[-\s|:]+\|$", s):
                continue
            cells = [c.strip() for c in s.strip("|").split("|")]
            rows.append((n, cells))
    return rows


def known_tests(root):
    tests = set()
    for d, _, files in os.walk(os.path.join(root, "kernel")):
        for fn in files:
            if fn.endswith(".c"):
                with open(os.path.join(d, fn), errors="replace") as f:
                    tests.update(re.findall(r"^KTEST\((\w+)\)", f.read(), re.M))
    # host unit tests: tests/SUBJECT/test_NAME.c is the test NAME
    for d, _, files in os.walk(os.path.join(root, "tests")):
        tests.update(fn[5:-2] for fn in files if fn.startswith("test_") and fn.endswith(".c"))
    return tests


def test_sources(root):
    text = []
    for top in ("user", "drivers", os.path.join("kernel", "test"), "tests"):
        for d, _, files in os.walk(os.path.join(root, top)):
            for fn in files:
                if fn.endswith((".c", ".h", ".sh", ".py")):
                    with open(os.path.join(d, fn), errors="replace") as f:
                        text.append(f.read())
    return "\n".join(text)


def check(tbl, doc, root):
    errors = []
    names = syscall_names(tbl)
    rows = table_rows(doc)
    if not names:
        errors.append(f"{tbl}: no system calls found")
    if not rows:
        errors.append(f"{doc}: no table with a '| Call |' header")
    tests, sources = known_tests(root), test_sources(root)
    seen = {}
    for n, cells in rows:
        where = f"{doc}:{n}"
        if len(cells) != 4:
            errors.append(f"{where}: a row has 4 columns (call, rights, credentials, tests), this one {len(cells)}")
            continue
        call = cells[0].strip("`")
        if call in seen:
            errors.append(f"{where}: {call} has a row already (line {seen[call]})")
        seen[call] = n
        if call not in names:
            errors.append(f"{where}: {call} is not a system call in {tbl}")
        named = re.findall(r"`(\w+)`", cells[3])
        texts = re.findall(r'"([^"]+)"', cells[3])
        if (cells[1] not in NONE or cells[2] not in NONE) and not named:
            errors.append(f"{where}: {call} claims a check but names no test")
        for t in named:
            if t not in tests:
                errors.append(f"{where}: {call}: no test named {t} (KTEST or tests/SUBJECT/test_{t}.c)")
        for t in texts:
            if t not in sources:
                errors.append(f"{where}: {call}: no test program checks \"{t}\"")
    for name in names:
        if name not in seen:
            errors.append(f"{doc}: system call {name} ({tbl}) has no row")
    return errors, len(rows)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser()
    ap.add_argument("--tbl", default=os.path.join(root, "abi", "syscalls.tbl"))
    ap.add_argument("--doc", default=os.path.join(root, "docs", "security.md"))
    ap.add_argument("--root", default=root)
    a = ap.parse_args()
    errors, n = check(a.tbl, a.doc, a.root)
    for e in errors:
        sys.stderr.write(e + "\n")
    if not errors:
        print(f"security table: {n} rows, one per system call, each check with an existing test")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
