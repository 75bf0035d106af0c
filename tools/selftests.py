#!/usr/bin/env python3
"""Linux's own cgroup selftests (tools/testing/selftests/cgroup of Linux
6.1, from Debian's linux-source-6.1 package) built unchanged with
tools/arbor-cc and run in Arbor (issue 22, docs/testing.md).

    tools/selftests.py [--build DIR] [--timeout S] [--only TEST] [--linux TOOLS]

Extracts the tests' sources (the cgroup folder and the headers it takes
from its neighbours) from /usr/src/linux-source-6.1.tar.xz into
BUILD/selftests/src once, builds each test program with the flags of
upstream's Makefile (-O0 as lib.mk leaves it, -Wall -pthread) and no other
change, runs each one in Arbor (tools/arbor-run, as root, cgroup2 at
/sys/fs/cgroup) and reads its kselftest TAP lines. Each sub-test's result
is compared with tests/cgroup/selftests.txt, the table of what Arbor is
known to do (pass, fail, skip, or nobuild: the program does not build),
with the reason for each that does not pass: a sub-test that does other
than the table says is a failure, either way, so the table stays true.
With --linux TOOLS (the directory of linux-cc and linux-run), the same
sources run on Linux 6.1 in the same QEMU instead, for the table's Linux
column (not part of make test).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARBALL = "/usr/src/linux-source-6.1.tar.xz"
TOP = "linux-source-6.1/tools/testing/selftests"
# the cgroup tests and what they include from their neighbours
MEMBERS = [TOP + "/cgroup", TOP + "/kselftest.h", TOP + "/clone3/clone3_selftests.h",
           TOP + "/pidfd/pidfd.h"]
TESTS = ["test_core", "test_cpu", "test_freezer", "test_kill", "test_kmem", "test_memcontrol"]
TABLE = os.path.join(ROOT, "tests", "cgroup", "selftests.txt")
# run once more with their working directory on an ext2 disk
# (tests/cgroup/ondisk.c): the page-cache sub-tests need a file system
# with a page cache, and the boot archive's root is a tmpfs on both sides
ON_EXT2 = ["test_memcontrol"]
# sub-tests that measure CPU time over wall time: a failure is run again once
TIMING_TESTS = ["test_cpu"]
EXT2_SUFFIX = "@ext2"
EXT2_MIB = 640
TAP = re.compile(r"^(ok|not ok) \d+ (# SKIP )?(\S+)")


def extract(build):
    """The cgroup selftests' folder under build (extracted once)."""
    out = os.path.join(build, "selftests", "src")
    src = os.path.join(out, TOP, "cgroup")
    stamp = os.path.join(out, ".extracted")
    if os.path.exists(stamp):
        return src
    if not os.path.exists(TARBALL):
        sys.exit(f"selftests: {TARBALL} is missing: tools/deps.sh test installs linux-source-6.1")
    os.makedirs(out, exist_ok=True)
    subprocess.run(["tar", "-xJf", TARBALL, "-C", out] + MEMBERS, check=True)
    open(stamp, "w").close()
    return src


def build_tests(src, out, cc, tests):
    """Builds each test: {name: (binary or None, first error line)}."""
    os.makedirs(out, exist_ok=True)
    built = {}
    for t in tests:
        exe = os.path.join(out, t)
        srcs = [t + ".c"] + (["cgroup_util.c"] if t != "wait_inotify" else [])
        p = subprocess.run(cc + ["-O0", "-Wall", "-pthread", "-o", exe] + srcs, cwd=src,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode == 0:
            built[t] = (exe, "")
        else:
            errs = [l for l in p.stdout.splitlines() if "error" in l or "undefined reference" in l]
            built[t] = (None, (errs or p.stdout.splitlines() or ["?"])[0].strip())
    return built


def parse_tap(text):
    """{sub-test: 'pass' | 'fail' | 'skip'} from kselftest TAP output."""
    res = {}
    for line in text.splitlines():
        m = TAP.match(line.strip())
        if m:
            res[m.group(3)] = "skip" if m.group(2) else ("pass" if m.group(1) == "ok" else "fail")
    return res


def run_test(run, argv, timeout, disk=None):
    """Runs argv (a program and its arguments) in Arbor (or Linux), with
    disk as /dev/vda if given: (exit status, its output: its stdout,
    where the TAP lines are, then its stderr). The two are read apart:
    arbor-run brings them from two serial lines, so a debug line on stderr
    could land in the middle of a TAP line if they were one stream."""
    p = subprocess.run(run + ["--timeout", str(timeout)] + (["--disk", disk] if disk else []) + argv,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                       timeout=timeout + 120)
    out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    return p.returncode, out + ("\n# stderr:\n" + err if err else "")


def read_table():
    """tests/cgroup/selftests.txt: [(test, sub-test, Arbor's state, reason)]
    (its Linux column is for the reader)."""
    rows = []
    for line in open(TABLE):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split(None, 4)
        rows.append((parts[0], parts[1], parts[2], parts[4] if len(parts) > 4 else ""))
    return rows


def run_all(build, timeout, only=None, linux=None):
    """Builds and runs the tests: {test: (build error, status, {sub: state}, output)}."""
    src = extract(build)
    tests = [t for t in TESTS if not only or t == only]
    if linux:
        cc, run = [os.path.join(linux, "linux-cc")], [os.path.join(linux, "linux-run")]
        out = os.path.join(build, "selftests", "linux")
    else:
        cc, run = [os.path.join(ROOT, "tools", "arbor-cc")], [os.path.join(ROOT, "tools", "arbor-run"), "-n"]
        out = os.path.join(build, "selftests", "arbor")
    built = build_tests(src, out, cc, tests)
    results = {}
    for t in tests:
        exe, err = built[t]
        if exe is None:
            results[t] = (err, None, {}, "")
            continue
        status, text = run_test(run, [exe], timeout)
        with open(os.path.join(out, t + ".log"), "w") as f:
            f.write(text)
        results[t] = ("", status, parse_tap(text), text)
    for t in [t for t in ON_EXT2 if t in tests]:
        results[t + EXT2_SUFFIX] = run_on_ext2(cc, run, out, built[t], t, timeout)
    return results


def run_on_ext2(cc, run, out, built, t, timeout):
    """t once more, its working directory on a fresh ext2 disk (mke2fs -d
    with the program on it) that tests/cgroup/ondisk.c mounts; the image
    must be clean for the host's e2fsck -fn afterwards: (build error,
    status, {sub: state}, output), the e2fsck verdict as the sub-test
    "e2fsck_clean"."""
    exe, err = built
    wrapper = os.path.join(out, "ondisk")
    w = subprocess.run(cc + ["-O2", "-Wall", "-o", wrapper, os.path.join(ROOT, "tests", "cgroup", "ondisk.c")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if exe is None or w.returncode != 0:
        return (err or (w.stdout.splitlines() or ["ondisk does not build"])[0], None, {}, "")
    root, img = os.path.join(out, t + "-ext2"), os.path.join(out, t + "-ext2.img")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    shutil.copy(exe, os.path.join(root, t))
    if os.path.exists(img):
        os.remove(img)
    subprocess.run([shutil.which("mke2fs") or "/sbin/mke2fs", "-q", "-F", "-t", "ext2", "-d", root, img, f"{EXT2_MIB}M"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    status, text = run_test(run, [wrapper, "/dev/vda", "/mnt", "/mnt/" + t], timeout, disk=img)
    fsck = subprocess.run([shutil.which("e2fsck") or "/sbin/e2fsck", "-fn", img], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    text += "\n# e2fsck -fn:\n" + fsck.stdout
    with open(os.path.join(out, t + EXT2_SUFFIX + ".log"), "w") as f:
        f.write(text)
    subs = parse_tap(text)
    subs["e2fsck_clean"] = "pass" if fsck.returncode == 0 else "fail"
    os.remove(img)
    return ("", status, subs, text)


def check(build, timeout, tally, only=None):
    """make test's part: each sub-test of the table, as the table says."""
    env_build = os.path.abspath(build)
    os.environ["ARBOR_BUILD"] = env_build
    results = run_all(env_build, timeout, only)
    rows = [r for r in read_table() if not only or r[0] in (only, only + EXT2_SUFFIX)]
    # Timing-bound programs (test_cpu measures CPU shares over a second of
    # guest time, which a host that stalls QEMU inflates): one whose
    # expected pass failed runs once more, and the second run decides.
    again = {t for t, sub, want, _ in rows if want == "pass" and t in TIMING_TESTS and
             not results[t][0] and results[t][2].get(sub) == "fail"}
    for t in sorted(again):
        first = {sub for sub, got in results[t][2].items() if got == "fail"}
        results.update(run_all(env_build, timeout, t))
        print(f"    {t}: {', '.join(sorted(first))} failed; run again (timing on a loaded host)", flush=True)
    known = {(t, s) for t, s, _, _ in rows}
    counts = {"pass": 0, "fail": 0, "skip": 0, "nobuild": 0}
    for t, sub, want, reason in rows:
        err, status, subs, _ = results[t]
        got = "nobuild" if err else subs.get(sub, "missing")
        counts[got] = counts.get(got, 0) + 1
        name = f"selftest {t}: {sub}"
        if want == "pass":
            tally.result(name, got == "pass", "" if got == "pass" else f"{got}{': ' + err if err else ''}")
        elif got != want:
            tally.result(name + f" (the table says {want}: {reason})", False,
                         f"it did {got}" + (f": {err}" if err else "") + ": update tests/cgroup/selftests.txt")
        else:
            print(f"    known {want}: {name} ({reason})", flush=True)
    for t, (err, status, subs, text) in results.items():
        for sub in subs:
            if (t, sub) not in known:
                tally.result(f"selftest {t}: {sub} (not in tests/cgroup/selftests.txt)", False, subs[sub])
        if not err and status not in (0, 1) and status != 4:
            # kselftest: 0 all passed, 1 some failed, 4 skipped; else it crashed or hung
            tally.result(f"selftest {t}: ends by itself (exit {status})", False, text[-300:])
    print(f"  selftests: {counts['pass']} sub-tests pass, {counts['fail']} fail, {counts['skip']} skip, "
          f"{counts['nobuild']} in programs that do not build (tests/cgroup/selftests.txt says why)", flush=True)
    return counts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--only", help="one test program, e.g. test_core")
    ap.add_argument("--linux", help="the directory of linux-cc and linux-run: run on Linux instead")
    a = ap.parse_args()
    results = run_all(os.path.abspath(a.build), a.timeout, a.only, a.linux)
    for t, (err, status, subs, _) in results.items():
        if err:
            print(f"{t} nobuild {err}")
            continue
        for sub, state in subs.items():
            print(f"{t} {sub} {state}")
        print(f"{t} exit {status}")


if __name__ == "__main__":
    main()
