#!/usr/bin/env python3
"""make stress: the suite again and again on many CPUs, until it fails.

    tools/stress.py [--build DIR] [--runs N] [--smp N] [--timeout S]
                    [--tests NAME,NAME] [--keep-going] [HOST_TEST ...]

Without --tests, each run is the whole of `make test` (tools/run-tests.py,
every boot with --smp N CPUs that all schedule), its output in
BUILD/stress/runK.log; each run prints one line, its `N passed, N failed`.
With --tests, each run is one boot of those kernel self-tests (`test=` on
the command line, the names of kernel/test/*.c; a list longer than the
kernel keeps of its command line is split over several boots), which is
how one chases a race: `make stress TESTS=posix_pthreads RUNS=100`.

Stops at the first failing run (with --keep-going, goes on and counts).
Exit status 0 only if every run passed. `make stress` runs 20 whole runs
on 4 CPUs, issue 23's bar; that is hours, so `make test` does not run it.
"""
import argparse
import importlib.util
import os
import subprocess
import sys
import time

sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Every CPU schedules in every boot (the words go first on each -kernel
# command line: tools/qemu.sh).
APPEND = "smp_sched=1"


def runner():
    """tools/run-tests.py as a module, for its boot() and Boot."""
    spec = importlib.util.spec_from_file_location("run_tests", os.path.join(ROOT, "tools", "run-tests.py"))
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    spec.loader.exec_module(mod)
    return mod


# The kernel keeps 511 bytes of its command line (BOOT_CMDLINE_MAX) and
# cuts the rest: a longer list of names is split over several boots.
NAMES_MAX = 400


def name_groups(names):
    """names in groups whose "test=a,b,..." fits NAMES_MAX bytes."""
    groups, cur = [], []
    for n in names:
        if cur and len(",".join(cur + [n])) > NAMES_MAX:
            groups.append(cur)
            cur = []
        cur.append(n)
    return groups + ([cur] if cur else [])


def one_boot(rt, args, k):
    """One run of the chosen self-tests (a boot per name group): (ok, summary)."""
    passed = failed = 0
    for g, names in enumerate(name_groups(args.tests.split(","))):
        b = rt.boot(["--kernel", os.path.join(args.build, "arbor.elf"), "--initrd",
                     os.path.join(args.build, "initrd.cpio"), "--smp", str(args.smp), "--mem", "512",
                     "--append", f"{APPEND} test={','.join(names)}"], 8 * args.timeout)  # as run-tests' smp boots
        bad = [n for n, ok in b.results if not ok]
        missing = [n for n in names if not any(r == n for r, _ in b.results)]
        ok = b.status == rt.EXIT_SUCCESS and not bad and not missing and not b.panic_text()
        passed += len(b.results) - len(bad)
        failed += len(bad)
        if not ok:
            why = b.crash or ("failed: " + ",".join(bad) if bad else "") or \
                ("did not run: " + ",".join(missing) if missing else "")
            log = os.path.join(args.build, "stress", f"boot{k}.{g + 1}.log")
            with open(log, "w") as f:
                f.write(b.text() + "\n")
            return False, f"{passed} passed, {failed} failed; {why} (log: {log})"
    return True, f"{passed} passed, {failed} failed"


def one_suite(args, k):
    """One whole make test: (ok, its last line)."""
    log = os.path.join(args.build, "stress", f"run{k}.log")
    env = dict(os.environ, ARBOR_APPEND=(APPEND + " " + os.environ.get("ARBOR_APPEND", "")).strip())
    cmd = [sys.executable, os.path.join(ROOT, "tools", "run-tests.py"), "--build", args.build,
           "--timeout", str(args.timeout), "--smp", str(args.smp)] + args.host_tests
    with open(log, "w") as f:
        rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env).returncode
    with open(log) as f:
        lines = [l.rstrip("\n") for l in f if l.strip()]
    last = lines[-1] if lines else "(no output)"
    fails = [l.strip() for l in lines if l.startswith("    FAIL ")]
    return rc == 0, last + (f" (log: {log}; first: {fails[0][5:].strip()})" if fails else f" (log: {log})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--smp", type=int, default=4)
    ap.add_argument("--timeout", type=int, default=60, help="seconds per boot (run-tests' unit)")
    ap.add_argument("--tests", default="", help="kernel self-tests for one boot a run (more if the names are long)")
    ap.add_argument("--keep-going", action="store_true")
    ap.add_argument("host_tests", nargs="*")
    args = ap.parse_args()
    if not 1 <= args.smp <= 8 or args.runs < 1:
        ap.error("--smp takes 1 to 8, --runs at least 1")
    args.build = os.path.abspath(args.build)
    os.makedirs(os.path.join(args.build, "stress"), exist_ok=True)
    rt = runner() if args.tests else None
    what = f"boots of test={args.tests}" if args.tests else "runs of the whole suite"
    print(f"stress: {args.runs} {what} on {args.smp} CPUs ({APPEND})", flush=True)
    green = 0
    t0 = time.monotonic()
    for k in range(1, args.runs + 1):
        t = time.monotonic()
        ok, summary = one_boot(rt, args, k) if args.tests else one_suite(args, k)
        green += ok
        print(f"stress: run {k}/{args.runs} {'ok  ' if ok else 'FAIL'} {time.monotonic() - t:.0f} s: {summary}",
              flush=True)
        if not ok and not args.keep_going:
            break
    print(f"stress: {green} of {args.runs} runs green in a row" if green == args.runs else
          f"stress: {green} of {k} runs green ({args.runs} asked), {time.monotonic() - t0:.0f} s", flush=True)
    return 0 if green == args.runs else 1


if __name__ == "__main__":
    sys.exit(main())
