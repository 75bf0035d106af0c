#!/usr/bin/env python3
"""The experiments' check in `make test` (tools/run-tests.py, docs/experiments.md):
each example of experiments/ in a short form (tools/arbor-exp --scale: every
time in the file multiplied, a few seconds each), its CSV checked for the
cgroups and keys it must have and for a coarse expected outcome (the order
of a weight split, a throttle's bound, an OOM kill, ...), and the
determinism check: the weights example run a second time under
--deterministic, its samples.csv and events.csv byte for byte the first
run's (by their sha256).

    python3 tools/expcheck.py [--build DIR] [NAME...]

run(build, tally, names) is what run-tests.py calls; alone it prints the
same `ok` / `FAIL` lines and exits 1 on a failure. The bounds are wide:
these run under TCG on a host other QEMUs load, where a share can move by
a few percent."""
import argparse
import csv
import hashlib
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIB = 1 << 20


class Samples:
    """One run's samples.csv and events.csv."""

    def __init__(self, out):
        self.rows = {}  # (cgroup, file, key) -> [(t, value text)]
        with open(os.path.join(out, "samples.csv"), newline="") as f:
            for r in csv.DictReader(f):
                self.rows.setdefault((r["cgroup"], r["file"], r["key"]), []).append((float(r["time_s"]), r["value"]))
        with open(os.path.join(out, "events.csv"), newline="") as f:
            self.events = [(float(r["time_s"]), r["event"]) for r in csv.DictReader(f)]
        with open(os.path.join(out, "summary.txt")) as f:
            self.summary = f.read()

    def has(self, cg, file, key):
        return (cg, file, key) in self.rows

    def at(self, cg, file, key, t):
        """The value of the last sample at or before t (0 before the first)."""
        v = 0.0
        for ts, val in self.rows.get((cg, file, key), []):
            if ts > t:
                break
            v = float(val)
        return v

    def delta(self, cg, file, key, t0, t1):
        return self.at(cg, file, key, t1) - self.at(cg, file, key, t0)

    def peak(self, cg, file, key):
        return max((float(v) for _, v in self.rows.get((cg, file, key), [])), default=0.0)

    def event(self, prefix):
        return any(text.startswith(prefix) for _, text in self.events)


def usage(s, cg, t0, t1):
    """cg's share of one CPU between t0 and t1 (cpu.stat usage_usec)."""
    return s.delta(cg, "cpu.stat", "usage_usec", t0, t1) / ((t1 - t0) * 1e6)


def keys_present(s, want):
    missing = [f"{cg}/{f}:{k}" for cg, f, k in want if not s.has(cg, f, k)]
    return ("the cgroups and keys are in the CSV", not missing, "missing " + ", ".join(missing[:5]) if missing else "")


def check_weights(s):
    """scale 0.3: C frozen at 1.2 s, B's weight 50 at 2.1 s, C thawed at 2.7 s."""
    a, b, c = (usage(s, x, 0.3, 1.2) for x in "ABC")
    a2, b2, c2 = (usage(s, x, 1.4, 2.1) for x in "ABC")
    a3, b3 = (usage(s, x, 2.25, 2.7) for x in "AB")
    return [
        keys_present(s, [(x, "cpu.stat", "usage_usec") for x in "ABCP"] +
                     [(x, "cpu.pressure", "some.avg10") for x in "ABC"] +
                     [("P", "load:probe", "wakeup_late_us"), ("exp.sampler", "cpu.stat", "usage_usec")]),
        ("weights 100:200:300 order the shares C > B > A", c > b > a > 0.05 and c > 1.8 * a,
         f"A {a:.2f} B {b:.2f} C {c:.2f}"),
        ("frozen C gets nothing, B gets more than A", c2 < 0.02 and b2 > 1.3 * a2,
         f"A {a2:.2f} B {b2:.2f} C {c2:.2f}"),
        ("B at weight 50 gets less than A", a3 > 1.3 * b3, f"A {a3:.2f} B {b3:.2f}"),
        ("the sampler's cost is reported", "sampler cpu " in s.summary, s.summary.splitlines()[0]),
    ]


def check_cpumax(s):
    """scale 0.3: B's burst 0 at 1.5 s, A's cpu.max 50000 at 2.4 s."""
    a = usage(s, "A", 0.3, 1.5)
    thr_a = s.delta("A", "cpu.stat", "throttled_usec", 0.3, 1.5)
    # (B's first bursts, before unused quota has piled up, are throttled)
    thr_b = s.delta("B", "cpu.stat", "throttled_usec", 0.45, 1.5)
    thr_b2 = s.delta("B", "cpu.stat", "throttled_usec", 1.6, 2.4)
    a3 = usage(s, "A", 2.6, 3.3)
    return [
        keys_present(s, [(x, "cpu.stat", k) for x in "ABC" for k in ("usage_usec", "throttled_usec", "nr_bursts")]),
        ("cpu.max 20000 100000 holds A near 20% and throttles it", 0.12 < a < 0.26 and thr_a > 0,
         f"A {a:.2f}, throttled {thr_a:.0f} us"),
        ("B's bursts, once it has saved quota, use its burst, unthrottled", s.at("B", "cpu.stat", "nr_bursts", 1.5) >= 1 and thr_b < 20000,
         f"nr_bursts {s.at('B', 'cpu.stat', 'nr_bursts', 1.5):.0f}, throttled {thr_b:.0f} us"),
        ("without the burst B is throttled", thr_b2 > 0, f"throttled {thr_b2:.0f} us"),
        ("A's quota raised to 50% gives it more", a3 > a + 0.08, f"A {a:.2f} then {a3:.2f}"),
    ]


def check_memory(s):
    """scale 0.5: A's memory.high lifted at 4 s."""
    return [
        keys_present(s, [(x, f, k) for x in "AB" for f, k in (("memory.current", "value"), ("memory.events", "high"),
                                                                ("memory.events", "oom_kill"),
                                                                ("memory.pressure", "some.total"))]),
        ("memory.max OOM-kills B", s.event("exit toucher-b signal 9") and s.peak("B", "memory.events", "oom_kill") >= 1,
         f"oom_kill {s.peak('B', 'memory.events', 'oom_kill'):.0f}"),
        ("memory.high throttles A, which lives", s.peak("A", "memory.events", "high") >= 1 and
         not s.event("exit toucher-a signal") and s.peak("A", "memory.pressure", "some.total") > 0,
         f"high {s.peak('A', 'memory.events', 'high'):.0f}, some.total {s.peak('A', 'memory.pressure', 'some.total'):.0f}"),
        ("A held near 24M, then past it once lifted", s.at("A", "memory.current", "value", 3.9) < 32 * MIB and
         s.peak("A", "memory.current", "value") > 30 * MIB,
         f"{s.at('A', 'memory.current', 'value', 3.9) / MIB:.1f} MiB, peak {s.peak('A', 'memory.current', 'value') / MIB:.1f}"),
    ]


def check_io(s):
    """scale 0.3: C stops at 1.2 s, A's io.max 20 MiB/s at 2.1 s."""
    rb = lambda cg, t0, t1: s.delta(cg, "io.stat", "253:0.rbytes", t0, t1) / (t1 - t0) / MIB
    a, b, c = (rb(x, 0.2, 1.2) for x in "ABC")
    a3, b3 = rb("A", 2.3, 3.0), rb("B", 2.3, 3.0)
    return [
        keys_present(s, [(x, "io.stat", "253:0." + k) for x in "ABC" for k in ("rbytes", "rios", "wbytes")]),
        ("io.weight 100:200:400 orders the readers C > B > A", c > b > a > 0 and c > 1.8 * a,
         f"A {a:.1f} B {b:.1f} C {c:.1f} MiB/s"),
        ("io.max rbps=20M holds A, B takes more", a3 < 30 and b3 > a3, f"A {a3:.1f} B {b3:.1f} MiB/s"),
    ]


def check_server(s):
    """scale 0.3: A's weight 300 at 1.5 s."""
    a, b = usage(s, "A", 0.2, 1.5), usage(s, "B", 0.2, 1.5)
    root, smp = usage(s, "root", 0.2, 1.5), usage(s, "exp.sampler", 0.2, 1.5)
    a2, b2 = usage(s, "A", 1.7, 2.7), usage(s, "B", 1.7, 2.7)
    return [
        keys_present(s, [(x, "cpu.stat", "usage_usec") for x in ("A", "B", "root", "exp.sampler")]),
        ("the client's cgroup, servers' work included, gets its half", 0.35 < a < 0.65 and 0.35 < b < 0.65,
         f"A {a:.2f} B {b:.2f}"),
        ("little time is left outside the cgroups (the servers' is A's)", a + b + smp > 0.9 * root,
         f"A+B+sampler {a + b + smp:.2f} of root {root:.2f}"),
        ("A at weight 300 gets more than twice B", a2 > 2 * b2, f"A {a2:.2f} B {b2:.2f}"),
    ]


def check_writeback(s):
    wa, wb = s.at("A", "io.stat", "253:0.wbytes", 99), s.at("B", "io.stat", "253:0.wbytes", 99)
    return [
        keys_present(s, [(x, f, k) for x in "AB" for f, k in (("io.stat", "253:0.wbytes"), ("memory.stat", "file_dirty"),
                                                                ("memory.stat", "file_writeback"),
                                                                ("memory.events", "dirty_throttled"))]),
        ("A's writeback is in A's io.stat, more than B's", wa > 2 * MIB and wa > wb > 0,
         f"A {wa / MIB:.1f} MiB, B {wb / MIB:.1f} MiB"),
        ("A's dirty pages are A's, under its dirty limit", 0 < s.peak("A", "memory.stat", "file_dirty") < 14 * MIB and
         s.peak("B", "memory.stat", "file_dirty") < 1 * MIB,
         f"A {s.peak('A', 'memory.stat', 'file_dirty') / MIB:.1f} MiB, B {s.peak('B', 'memory.stat', 'file_dirty') / MIB:.1f} MiB"),
    ]


# (name, --scale, check, deterministic): the examples without disks run
# under --deterministic, where guest time is instructions and a stall of a
# loaded host (which TCG would charge to whatever runs) cannot move a
# share; those with disks cannot (an idle guest waiting for the disk skips
# to its next timer: docs/experiments.md) and run in plain TCG, their checks
# being ratios of bytes.
EXAMPLES = [("weights", 0.3, check_weights, True), ("cpumax", 0.3, check_cpumax, True),
            ("memory", 0.5, check_memory, True), ("io", 0.3, check_io, False),
            ("server", 0.3, check_server, True), ("writeback", 0.3, check_writeback, False)]


def check_chart(out, tally):
    """arbor-plot's CSV mode on the weights run: a PNG with a panel per
    quantity (gnuplot is `make bench`'s, tools/deps.sh bench: without it
    the chart is not checked, and the line says so)."""
    import shutil
    title = "arbor-plot --csv charts an experiment (PNG)"
    if not shutil.which("gnuplot"):
        print(f"    skip {title}  (no gnuplot: tools/deps.sh bench)", flush=True)
        return
    png = os.path.join(out, "weights.png")
    if os.path.exists(png):
        os.remove(png)
    p = subprocess.run([os.path.join(ROOT, "tools", "arbor-plot"), "--csv", os.path.join(out, "samples.csv"),
                        "--events", os.path.join(out, "events.csv"), "--title", "weights", "--out", out, "--exclude", "exp.sampler",
                        "--panel", "cpu.stat:usage_usec:pct", "--panel", "load:probe:wakeup_late_us"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with open(os.path.join(out, "weights.dat")) if os.path.exists(os.path.join(out, "weights.dat")) else open(os.devnull) as f:
        blocks = f.read().count("# ")
    ok = p.returncode == 0 and os.path.exists(png) and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    tally.result(title, ok and blocks == 5, f"exit {p.returncode}, {blocks} lines (want 4 cgroups + the probe)")


def arbor_exp(build, out, name, scale, *flags):
    env = dict(os.environ, ARBOR_BUILD=os.path.abspath(build))
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "arbor-exp"), "--quiet", "--no-plot",
                        "--scale", str(scale), "--out", out, *flags, os.path.join(ROOT, "experiments", name + ".ini")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, timeout=300)
    return p.returncode, p.stdout


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def check_refusals(build, base, tally):
    """A mistake in the file is refused before any boot (exit 2, the key
    named); a setting the kernel refuses fails the run (exit 1) with the
    errno's message in stderr.log."""
    os.makedirs(base, exist_ok=True)
    bad = os.path.join(base, "bad-key.ini")
    with open(bad, "w") as f:
        f.write("[experiment]\nduration = 1s\nbogus = 1\n[cgroup A]\n")
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "arbor-exp"), "--quiet", bad],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    tally.result("arbor-exp refuses an unknown key before booting (exit 2)",
                 p.returncode == 2 and "unknown key 'bogus'" in p.stdout, f"exit {p.returncode}: {p.stdout.strip()[-200:]}")
    # the example in docs/experiments.md is a valid file
    with open(os.path.join(ROOT, "docs", "experiments.md")) as f:
        doc = f.read()
    block = doc[doc.index("```ini\n") + 7:]
    example = os.path.join(base, "doc-example.ini")
    with open(example, "w") as f:
        f.write(block[:block.index("```")])
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "arbor-exp"), "--check", example],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    tally.result("the example file of docs/experiments.md passes arbor-exp --check",
                 p.returncode == 0 and "event\t10500\tstart\tlate-one" in p.stdout,
                 "" if p.returncode == 0 else p.stdout.strip()[-200:])
    bad = os.path.join(base, "bad-setting.ini")
    with open(bad, "w") as f:
        f.write("[experiment]\nduration = 1s\n[cgroup A]\ncpu.weight = 0\n")
    out = os.path.join(base, "bad-setting")
    env = dict(os.environ, ARBOR_BUILD=os.path.abspath(build))
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "arbor-exp"), "--quiet", "--no-plot",
                        "--out", out, bad], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                       timeout=300)
    err = open(os.path.join(out, "stderr.log"), errors="replace").read() if os.path.exists(
        os.path.join(out, "stderr.log")) else ""
    tally.result("a setting the kernel refuses fails the run (cpu.weight 0: ERANGE)",
                 p.returncode == 1 and "exprun: write cpu.weight: Result too large" in err,
                 f"exit {p.returncode}, stderr.log {err.strip()[-120:]!r}")


KINDS_INI = """[experiment]
name = kinds
duration = 2s
period = 100ms
sample = cpu.stat, pids.current, pids.events, memory.current, io.stat

[disk vda]
size = 16M

[cgroup F]
pids.max = 3

[cgroup W]

[workload storm]
kind = fork
cgroup = F
count = 2

[workload toucher]
kind = mem
cgroup = W
args = -s 4M -r 0 -k

[workload reader]
kind = file
cgroup = W
args = -f /tmp/kinds -s 256K -b 4K -m read

[workload writer]
kind = file
cgroup = W
args = -f /tmp/kinds-w -s 256K -b 4K -y 8 -r 4

[workload disk]
kind = blk
cgroup = W
args = -f /dev/vda -s 4M -b 64K -m write -D

[workload opener]
kind = ipc
cgroup = W
args = -f /tmp/kinds-o -m open

[workload probe]
kind = probe
cgroup = W
args = -P 20

[workload duty]
kind = cpu
cgroup = W
args = -d 30 -P 50
start = 0.5s
"""


def check_kinds(build, base, tally):
    """Every kind of /bin/arbor-load at work for 2 s: each reports work done
    (its `ops` at SIGTERM), the fork storm runs into pids.max 3 (two
    forkers and their children: refused forks, pids.events max), the
    toucher's 4 MiB is in memory.current, the O_DIRECT writer's bytes in
    io.stat, the late start comes at 0.5 s."""
    os.makedirs(base, exist_ok=True)
    ini = os.path.join(base, "kinds.ini")
    with open(ini, "w") as f:
        f.write(KINDS_INI)
    out = os.path.join(base, "kinds")
    env = dict(os.environ, ARBOR_BUILD=os.path.abspath(build))
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "arbor-exp"), "--quiet", "--no-plot",
                        "--out", out, ini], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       env=env, timeout=300)
    title = "arbor-load: every kind does its work"
    if p.returncode != 0:
        tally.result(title, False, f"arbor-exp exit {p.returncode}")
        tally.explain(title, p.stdout.splitlines()[-20:])
        return
    s = Samples(out)
    names = ["storm.1", "storm.2", "toucher", "reader", "writer", "disk", "opener", "probe", "duty"]
    ops = {n: s.peak("F" if n.startswith("storm") else "W", f"load:{n}", "ops") for n in names}
    # the two forkers share pids.max 3's one free place: one of them may
    # take it every time (a loaded host's scheduling), so the storm counts
    # as one worker
    ops["storm"] = ops.pop("storm.1") + ops.pop("storm.2")
    idle = [n for n, v in ops.items() if v <= 0]
    tally.result(title, not idle, "no ops from " + ", ".join(idle) if idle else
                 ", ".join(f"{n} {v:.0f}" for n, v in ops.items()))
    late = [t for t, e in s.events if e.startswith("start duty ")]
    refused = s.peak("F", "pids.events", "max")
    tally.result("arbor-load: fork storm held by pids.max, memory and io charged, a timed start",
                 refused > 0 and s.peak("F", "pids.current", "value") <= 3 and
                 s.peak("W", "memory.current", "value") >= 4 * MIB and
                 s.peak("W", "io.stat", "253:0.wbytes") > 0 and late and 0.5 <= late[0] < 0.6 and
                 s.has("W", "load:probe", "wakeup_late_us"),
                 f"pids.events max {refused:.0f}, pids.current peak {s.peak('F', 'pids.current', 'value'):.0f}, "
                 f"memory {s.peak('W', 'memory.current', 'value') / MIB:.1f} MiB, "
                 f"wbytes {s.peak('W', 'io.stat', '253:0.wbytes') / MIB:.1f} MiB, start {late}")


def run(build, tally, names=None):
    base = os.path.abspath(os.path.join(build, "exptests"))
    print("[experiments] the examples of experiments/ in short form, determinism", flush=True)
    if not names or "kinds" in names:
        check_refusals(build, base, tally)
        check_kinds(build, base, tally)
    for name, scale, check, det in EXAMPLES:
        if names and name not in names:
            continue
        out = os.path.join(base, name)
        code, text = arbor_exp(build, out, name, scale, *(["--deterministic"] if det else []))
        title = f"experiment {name} (--scale {scale}{' --deterministic' if det else ''})"
        if code != 0:
            tally.result(title, False, f"arbor-exp exit {code}")
            tally.explain(title, text.splitlines()[-20:])
            continue
        for what, ok, detail in check(Samples(out)):
            tally.result(f"{title}: {what}", ok, detail)
        if name == "weights":
            check_chart(out, tally)
            check_determinism(build, out, tally)


def check_determinism(build, first, tally):
    """The weights example once more under --deterministic: the same bytes
    as the first run's."""
    title = "experiment weights --deterministic twice: byte-identical CSV"
    out = os.path.join(os.path.dirname(first), "weights-again")
    code, text = arbor_exp(build, out, "weights", 0.3, "--deterministic")
    if code != 0:
        tally.result(title, False, f"arbor-exp exit {code}")
        tally.explain(title, text.splitlines()[-20:])
        return
    a = [sha256(os.path.join(first, f)) for f in ("samples.csv", "events.csv")]
    b = [sha256(os.path.join(out, f)) for f in ("samples.csv", "events.csv")]
    tally.result(title, a == b and os.path.getsize(os.path.join(out, "samples.csv")) > 1000,
                 f"samples.csv sha256 {a[0][:16]} / {b[0][:16]}, events.csv {a[1][:16]} / {b[1][:16]}")


class _Tally:
    def __init__(self):
        self.failed = []

    def result(self, name, ok, detail=""):
        print(("    ok   " if ok else "    FAIL ") + name + (f"  ({detail})" if detail else ""), flush=True)
        if not ok:
            self.failed.append(name)

    def explain(self, name, lines):
        print("\n".join("      | " + l for l in lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("names", nargs="*", help="examples to run (weights includes the determinism check, kinds "
                    "the refusals and every workload kind); default all")
    a = ap.parse_args()
    t = _Tally()
    run(a.build, t, a.names)
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main())
