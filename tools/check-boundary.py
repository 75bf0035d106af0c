#!/usr/bin/env python3
"""Fails the build if user-side code reaches a kernel-private header.

User space (user/, drivers/, and the test programs of tests/: everything
there but the host unit tests, tests/SUBJECT/test_NAME.c, and their harness
tests/host/, which link kernel code on the host on purpose) may include
only the ABI (abi/), the shared library (lib/), its own folders, the
generated headers of the build folder and the C library's. Everything else of the repository, kernel/, cgroup/
and boot/ above all, is the kernel's: its layout may change without
breaking a program. The Makefile's include paths already leave kernel/
out; this check catches what they cannot:

- an #include whose name starts in a kernel folder ("kernel/include/x.h")
  or climbs into one ("../../kernel/include/x.h");
- with --build, any header a user-side object was actually compiled with
  (the compiler's .d files under BUILD/user and BUILD/libc/obj) that lies
  in the repository outside the allowed folders, however it got there (an
  include path added back to the Makefile, a symbolic link).

Usage: tools/check-boundary.py [--root DIR] [--build DIR]"""
import argparse
import os
import re
import sys

USER_DIRS = ["user", "drivers", "tests"]
ALLOWED = ["abi", "lib", "user", "drivers", "tests"]
PRIVATE = ["kernel", "cgroup", "boot"]
# Host-side code under tests/: the host unit tests and their harness (tap.h,
# the shim stand-ins for kernel headers). Not user space.
HOST_SIDE_DIRS = ["tests/host"]
HOST_SIDE_NAME = re.compile(r"^test_\w+\.c$")
SOURCE_EXT = (".c", ".h", ".S")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]')


def inside(path, folder):
    return path == folder or path.startswith(folder + os.sep)


def host_side(rel):
    """A host unit test or its harness: path relative to the root."""
    return any(inside(rel, h) for h in HOST_SIDE_DIRS) or \
        (inside(rel, "tests") and HOST_SIDE_NAME.match(os.path.basename(rel)) is not None)


def repo_rel(root, path):
    """path relative to root if it lies in the repository, else None."""
    real = os.path.realpath(path)
    if not inside(real, root):
        return None
    return os.path.relpath(real, root)


def scan_sources(root):
    errors = []
    for top in USER_DIRS:
        for d, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith(SOURCE_EXT):
                    continue
                path = os.path.join(d, name)
                if host_side(os.path.relpath(path, root)):
                    continue
                with open(path, errors="replace") as f:
                    for n, line in enumerate(f, 1):
                        m = INCLUDE_RE.match(line)
                        if not m:
                            continue
                        inc = m.group(1)
                        where = f"{os.path.relpath(path, root)}:{n}"
                        first = inc.split("/")[0]
                        target = os.path.relpath(os.path.normpath(os.path.join(d, inc)), root)
                        if first in PRIVATE or any(inside(target, p) for p in PRIVATE):
                            errors.append(f"{where}: includes \"{inc}\", a kernel-private header")
    return errors


def scan_depfiles(root, build):
    errors = []
    build_real = os.path.realpath(build)
    for top in ("user", os.path.join("libc", "obj")):
        for d, _, files in os.walk(os.path.join(build, top)):
            for name in sorted(files):
                if not name.endswith(".d"):
                    continue
                path = os.path.join(d, name)
                with open(path) as f:
                    text = f.read().replace("\\\n", " ")
                # An object whose source is gone (moved or removed) is stale:
                # the build no longer makes or links it.
                first = text.split(":", 1)[1].split() if ":" in text else []
                if first and not os.path.exists(os.path.join(root, first[0])) and \
                        not os.path.isabs(first[0]):
                    continue
                obj = None
                for line in text.splitlines():
                    if ":" not in line:
                        continue
                    target, deps = line.split(":", 1)
                    if obj is None:
                        obj = target.strip()
                    for dep in deps.split():
                        if inside(os.path.realpath(dep), build_real):
                            continue
                        rel = repo_rel(root, dep)
                        if rel is None or (any(inside(rel, a) for a in ALLOWED) and not host_side(rel)):
                            continue
                        errors.append(f"{obj}: compiled with {rel}, which user space may not include")
    return sorted(set(errors))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--build")
    a = ap.parse_args()
    root = os.path.realpath(a.root)
    errors = scan_sources(root)
    if a.build:
        errors += scan_depfiles(root, a.build)
    for e in errors:
        print(f"check-boundary: {e}", file=sys.stderr)
    if errors:
        print("check-boundary: user space may include abi/, lib/ and its own headers only "
              "(docs/contributing.md)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
