#!/usr/bin/env python3
"""`make bench`: boots the kernel with bench=all twice and prints
`name value unit` lines. Once under -icount shift=0,sleep=off, where guest
time counts instructions (stable on a busy machine): unit `insns`. Once in
plain TCG: unit `ns`, which depends on the host and its load. The logs go
to BUILD/bench/, and tools/arbor-plot draws the cpu experiments' traces
(from the icount run, whose figures are the ones printed) as charts there.
Both boots get a fresh scratch disk (BUILD/bench/disk.img, /dev/vda);
its throughput (unit MiB/s) is shown from the plain TCG boot, in real
time, since guest time under icount says nothing about the host's I/O.

Then the fuzzer (tests/fuzz -L, on the kcov kernel when built) runs
--fuzz-seconds per mode, unprivileged then root, under -icount (guest
time: the host's load does not count), beside a probe in a cgroup of its
own that sleeps 1 ms in a loop: `fuzz_probe_worst_delay` is the latest
wake-up it saw in either run (issue 16: at most 10 ms), `fuzz_probe_p99`
the larger p99, and the runs' calls/s and kernel coverage follow.

posix/fileops (the file operations of issue 18) also runs on Linux 6.1 in
the same QEMU (linux-cc and linux-run: LINUX_TOOLS, or ../shared/tools);
fileops_OP_arbor, _linux and _ratio compare the plain TCG figures, since
linux-run has no -icount. Without linux-run that part is skipped, saying
so. --only-fileops runs just that comparison. user/bench/pollwake.c (issue
21 item 6: a pipe write reaching a poller's return) is compared the same
way: pollwake_N_arbor, _linux and _ratio; --only-pollwake runs just that.

user/bench/e2bench.c (issue 19: ext2 on a disk) runs the same way on both
sides, each on a fresh ext2 image made by the host's mke2fs: e2_OP_arbor,
_linux (ms) and _ratio, and e2_OP_busy_arbor/_linux, the machine's busy
time around each (/proc/uptime); --only-ext2 runs just that (--ext2-mib
and --ext2-files shrink it). --ext2-icount runs Arbor's side alone under
-icount, where that busy time counts guest instructions (e2_OP_busy_insns,
millions), whatever the host's load; --ext2-opts passes mount options
(nogrant: fills by copy, to compare).

tests/cgroup/kcontain.c (issue 27 item 2: a uid-1000 subtree under
memory.max 8M making kernel objects until each loop ends) runs in the
benchmark boots (bench=kcontain: its counts and peaks, and the bystander's
slowdown in guest instructions from the icount boot) and on Linux 6.1 in
the same QEMU (linux-run, same memory, wall clock): each kcontain_NAME
figure again as kcontain_NAME_arbor and _linux; --only-kcontain runs just
that.

user/bench/wbbench.c (issue 20: writeback charged to the dirtier, at the
issue's sizes) runs the same way on both sides on a fresh ext2 image:
wb_NAME_arbor and _linux, and arbor-plot's charts of its `trace wb`
samples (dirty pages, write and io rates of two cgroups over time);
--only-wb runs just that (--wb-mib scales its 64 MiB down).

user/bench/ctlbench.c (issue 22 item 4: memory.high's throttle, the OOM
kill's latency, cpu.max's share at 1 ms and 50 ms per 100 ms, io.max's
rate over the first second and over 3 s) runs the same way on both sides
with a scratch disk: ctl_NAME_arbor and ctl_NAME_linux; --only-ctl runs
just that."""
import argparse
import importlib.util
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH_RE = re.compile(r"^bench (\S+) (-?[0-9.]+) (\S+)\r?$")


def run(kernel, initrd, icount, timeout, log, which="all", smp=1):
    disk = os.path.join(os.path.dirname(log), "disk.img")
    if os.path.exists(disk):
        os.remove(disk)
    args = [os.path.join(ROOT, "tools", "qemu.sh"), "--serial", "stdio", "--kernel", kernel, "--smp", str(smp),
            "--initrd", initrd, "--append", "bench=" + which, "--disk", disk] + (["--icount"] if icount else [])
    p = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=timeout, text=True, errors="replace")
    with open(log, "w") as f:
        f.write(p.stdout)
    found = [m.groups() for m in map(BENCH_RE.match, p.stdout.splitlines()) if m]
    if p.returncode != 33 or not found:
        sys.stderr.write(p.stdout[-3000:])
        raise SystemExit(f"bench: the kernel's benchmark boot failed (QEMU exit {p.returncode})")
    return found


PROBE_RE = re.compile(r"fuzz: probe (\d+) sleeps of 1 ms: late by at most (\d+) us, p99 under (\d+) us")
PASS_RE = re.compile(r"fuzz: PASS \w+ mode: .* \((\d+)/s\), kernel coverage (\d+) PCs in (\d+) functions")


def run_tests_module():
    """tools/run-tests.py as a module (its boot() runs QEMU the way the tests do)."""
    spec = importlib.util.spec_from_file_location("run_tests", os.path.join(ROOT, "tools", "run-tests.py"))
    rt = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rt)
    return rt


def fuzz_probe(build, initrd, seconds, log):
    """The fuzzer beside the latency probe, one boot per mode; prints the
    figures (or exits non-zero if a run failed)."""
    rt = run_tests_module()
    kernel = os.path.join(build, "kcov", "arbor.elf")
    if not os.path.exists(kernel):
        kernel = os.path.join(build, "arbor.elf")
    worst = p99 = 0
    for mode in ("unpriv", "root"):
        b = rt.boot(["--kernel", kernel, "--initrd", initrd, "--mem", "256", "--icount", "--append",
                     f"run=tests/fuzz -m {mode} -s 1 -t {seconds} -L"], 20 * seconds + 300, idle=300,
                    until="arbor-run: ")
        text = "\n".join(b.lines)
        with open(f"{log}-{mode}.log", "w") as f:
            f.write(text + "\n")
        probe, verdict = PROBE_RE.search(text), PASS_RE.search(text)
        if not probe or not verdict or "arbor-run: exited 0" not in b.lines:
            sys.stderr.write(text[-3000:] + "\n")
            raise SystemExit(f"bench: the fuzzer's {mode} run failed (see {log}-{mode}.log)")
        worst = max(worst, int(probe.group(2)))
        p99 = max(p99, int(probe.group(3)))
        print(f"fuzz_{mode}_calls {verdict.group(1)} calls/s", flush=True)
        print(f"fuzz_{mode}_coverage {verdict.group(3)} functions", flush=True)
    print(f"fuzz_probe_worst_delay {worst / 1000:.2f} ms", flush=True)
    print(f"fuzz_probe_p99 {p99 / 1000:.2f} ms", flush=True)


def linux_tools():
    """The directory of linux-cc and linux-run (LINUX_TOOLS, or the shared
    tools next to the checkout), or None."""
    for d in (os.environ.get("LINUX_TOOLS"), os.path.join(ROOT, "..", "shared", "tools"),
              os.path.join(ROOT, "..", "..", "shared", "tools")):
        if d and os.access(os.path.join(d, "linux-run"), os.X_OK) and os.access(os.path.join(d, "linux-cc"), os.X_OK):
            return os.path.abspath(d)
    return None


def fileops_compare(arbor, out, timeout, prog_name="fileops"):
    """posix/fileops (or posix/PROG_NAME, a portable user/bench program) on Linux 6.1 in the same QEMU (linux-run, same memory,
    plain TCG: linux-run has no -icount, so both sides are wall clock),
    beside Arbor's figures from its plain TCG boot (arbor: name -> ns):
    fileops_OP_arbor, _linux (microseconds per operation) and _ratio."""
    label = prog_name
    tools = linux_tools()
    if not tools:
        print(f"{label}: linux-run not found (set LINUX_TOOLS to the directory of linux-cc and "
              "linux-run): the Linux side is skipped", flush=True)
        return
    prog = os.path.join(out, f"{label}-linux")
    cc = subprocess.run([os.path.join(tools, "linux-cc"), "-O2", "-o", prog,
                         os.path.join(ROOT, "user", "bench", f"{label}.c")],
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if cc.returncode != 0:
        print(f"{label}: linux-cc failed: the Linux side is skipped\n" + cc.stdout[-1000:], flush=True)
        return
    p = subprocess.run([os.path.join(tools, "linux-run"), "--mem", "256", "--timeout", str(timeout), prog],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, errors="replace")
    with open(os.path.join(out, f"{label}-linux.log"), "w") as f:
        f.write(p.stdout)
    linux = {m.group(1): float(m.group(2)) for m in map(BENCH_RE.match, p.stdout.splitlines()) if m}
    if p.returncode != 0 or not linux:
        print(f"{label}: the Linux run failed (exit {p.returncode}, see {out}/{label}-linux.log): "
              "the Linux side is skipped", flush=True)
        return
    for name, ns in arbor.items():
        if name in linux:
            print(f"{name}_arbor {ns / 1000:.1f} us", flush=True)
            print(f"{name}_linux {linux[name] / 1000:.1f} us", flush=True)
            print(f"{name}_ratio {ns / linux[name]:.2f} x", flush=True)


def kcontain_compare(arbor, out, timeout):
    """tests/cgroup/kcontain.c on Linux 6.1 in the same QEMU (linux-run,
    256 MiB as Arbor's bench boots), beside Arbor's figures (arbor: name ->
    (value, unit), from the icount boot): kcontain_NAME_arbor and _linux.
    What each loop made before it ended, the subtree's memory.peak, how the
    loop ended (the errno, or an OOM kill of the looper) and the
    bystander's slowdown (Linux: wall clock under TCG, so noisier)."""
    tools = linux_tools()
    if not tools:
        print("kcontain: linux-run not found (set LINUX_TOOLS to the directory of linux-cc and "
              "linux-run): the Linux side is skipped", flush=True)
        return
    prog = os.path.join(out, "kcontain-linux")
    cc = subprocess.run([os.path.join(tools, "linux-cc"), "-O2", "-I", os.path.join(ROOT, "tests", "include"),
                         "-o", prog, os.path.join(ROOT, "tests", "cgroup", "kcontain.c"), "-lpthread"],
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if cc.returncode != 0:
        print("kcontain: linux-cc failed: the Linux side is skipped\n" + cc.stdout[-1000:], flush=True)
        return
    p = subprocess.run([os.path.join(tools, "linux-run"), "--mem", "256", "--timeout", str(timeout), prog],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, errors="replace")
    with open(os.path.join(out, "kcontain-linux.log"), "w") as f:
        f.write(p.stdout)
    linux = {m.group(1): (m.group(2), m.group(3)) for m in map(BENCH_RE.match, p.stdout.splitlines()) if m}
    if not linux:
        print(f"kcontain: the Linux run failed (exit {p.returncode}, see {out}/kcontain-linux.log): "
              "the Linux side is skipped", flush=True)
        return
    for line in p.stdout.splitlines():
        if line.startswith("# ") and " ended: " in line:
            print(f"kcontain: linux {line[2:]}", flush=True)
    for name, (value, unit) in linux.items():
        if name in arbor and name != "kcontain_bystander_alone":
            print(f"{name}_arbor {arbor[name][0]} {arbor[name][1]}", flush=True)
            print(f"{name}_linux {value} {unit}", flush=True)


E2_OPS = ("seq_write", "seq_read", "reread", "create", "delete", "walk_cold", "walk_warm", "fsync_4k")


def disk_run(side, tools, linux_prog, arbor_prog, args, img, build, initrd, timeout, icount=False):
    """One side's run of a disk benchmark with img as its disk, 1 GiB of
    memory: Linux 6.1 through linux-run (linux_prog, built by linux-cc), or
    Arbor booting /arbor_prog. Returns (output text, whether it exited 0)."""
    if side == "linux":
        p = subprocess.run([os.path.join(tools, "linux-run"), "--mem", "1024", "--timeout", str(timeout),
                            "--disk", img, linux_prog] + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, errors="replace")
        return p.stdout, p.returncode == 0
    b = run_tests_module().boot(["--kernel", os.path.join(build, "arbor.elf"), "--initrd", initrd, "--mem", "1024",
                 "--append", f"run={arbor_prog} " + " ".join(args), "--disk", img] + (["--icount"] if icount else []),
                timeout, until="arbor-run: ")
    return "\n".join(b.lines), "arbor-run: exited 0" in b.lines


def ext2_compare(build, initrd, out, timeout, mib=256, nfiles=10000, runs=2):
    """user/bench/e2bench.c on an empty ext2 image (mke2fs -t ext2, 4 KiB
    blocks) in Arbor (posix/e2bench, plain TCG, real time) and on Linux
    6.1 in the same QEMU (linux-run, same memory, a fresh image each run):
    e2_OP_arbor, _linux (ms) and _ratio (Arbor / Linux: under 1 is Arbor
    faster), the sequential rates in MiB/s, and whether the host's
    e2fsck -fn finds every image clean afterwards. The two sides take
    turns, `runs` times each, and each figure is the side's best: the
    host's load (other QEMUs) moves single runs by 2x."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import mkext2
    tools = linux_tools()
    if not tools:
        print("e2bench: linux-run not found (set LINUX_TOOLS to the directory of linux-cc and "
              "linux-run): skipped", flush=True)
        return
    size = max(1024, mib * 2 + 256)
    args = ["/dev/vda", "/mnt/e2bench", "-s", str(mib), "-n", str(nfiles)]
    results = {}
    fsck_clean = {}
    # Linux first: a build failure there skips the whole comparison.
    prog = os.path.join(out, "e2bench-linux")
    cc = subprocess.run([os.path.join(tools, "linux-cc"), "-O2", "-o", prog,
                         os.path.join(ROOT, "user", "bench", "e2bench.c")],
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if cc.returncode != 0:
        print("e2bench: linux-cc failed: skipped\n" + cc.stdout[-1000:], flush=True)
        return
    for side in ("linux", "arbor") * runs:  # taking turns
        img = os.path.join(out, f"e2bench-{side}.img")
        mkext2.make_image(img, size, 4096)
        log = os.path.join(out, f"e2bench-{side}.log")
        text, ok = disk_run(side, tools, prog, "posix/e2bench", args, img, build, initrd, timeout)
        with open(log, "w") as f:
            f.write(text + "\n")
        found = {m.group(1): (float(m.group(2)), m.group(3)) for m in map(BENCH_RE.match, text.splitlines()) if m}
        if not ok or not found:
            print(f"e2bench: the {side} run failed (see {log})", flush=True)
            return
        best = results.setdefault(side, {})
        for name, (value, unit) in found.items():  # less time, or more MiB/s
            if name not in best or (value > best[name][0] if unit == "MiB/s" else value < best[name][0]):
                best[name] = (value, unit)
        fsck = subprocess.run([mkext2.tool("e2fsck"), "-fn", img], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT)
        fsck_clean[side] = fsck_clean.get(side, True) and fsck.returncode == 0
        os.remove(img)
    arbor, linux = results["arbor"], results["linux"]
    for op in E2_OPS:
        name = "e2_" + op
        if name in arbor and name in linux:
            a, l = arbor[name][0], linux[name][0]
            print(f"{name}_arbor {a:.2f} ms", flush=True)
            print(f"{name}_linux {l:.2f} ms", flush=True)
            print(f"{name}_ratio {a / l if l else 0:.2f} x", flush=True)
        busy = name + "_busy"
        if busy in arbor and busy in linux:
            print(f"{busy}_arbor {arbor[busy][0]:.1f} ms", flush=True)
            print(f"{busy}_linux {linux[busy][0]:.1f} ms", flush=True)
        rate = name + "_rate"
        if rate in arbor and rate in linux:
            print(f"{rate}_arbor {arbor[rate][0]:.1f} MiB/s", flush=True)
            print(f"{rate}_linux {linux[rate][0]:.1f} MiB/s", flush=True)
    for side, clean in fsck_clean.items():
        print(f"e2bench: e2fsck -fn of the {side} images: {'clean' if clean else 'NOT CLEAN'}", flush=True)


def ext2_icount(build, initrd, out, timeout, mib, nfiles, runs, opts):
    """Arbor's side of e2bench alone under -icount shift=0,sleep=off, where
    a guest millisecond is a million instructions: each operation's
    e2_OP_busy (/proc/uptime's busy time around it, e2bench.c) is the
    guest's work in millions of instructions, whatever the host's load;
    the best of `runs`. opts: e2bench's -o (the mount's options, e.g.
    nogrant to compare fills by copy)."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import mkext2
    size = max(1024, mib * 2 + 256)
    args = ["/dev/vda", "/mnt/e2bench", "-s", str(mib), "-n", str(nfiles)] + (["-o", opts] if opts else [])
    best = {}
    for _ in range(runs):
        img = os.path.join(out, "e2bench-icount.img")
        mkext2.make_image(img, size, 4096)
        log = os.path.join(out, "e2bench-icount.log")
        text, ok = disk_run("arbor", None, None, "posix/e2bench", args, img, build, initrd, timeout, icount=True)
        with open(log, "w") as f:
            f.write(text + "\n")
        if not ok:
            raise SystemExit(f"e2bench: the icount run failed (see {log})")
        for m in map(BENCH_RE.match, text.splitlines()):
            if m and m.group(1).endswith("_busy"):
                v = float(m.group(2))
                best[m.group(1)] = min(v, best.get(m.group(1), v))
        fsck = subprocess.run([mkext2.tool("e2fsck"), "-fn", img], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        print(f"e2bench: e2fsck -fn of the icount image: {'clean' if fsck.returncode == 0 else 'NOT CLEAN'}",
              flush=True)
        os.remove(img)
    for name, v in best.items():
        print(f"{name}_insns {v:.1f} M", flush=True)


WB_FIGURES = ("wb_a_rate", "wb_b_alone", "wb_b_beside", "wb_b_ratio", "wb_a_wbytes", "wb_b_wbytes",
              "wb_root_wbytes", "wb_weight_100_rate", "wb_weight_400_rate", "wb_weight_ratio", "wb_weight_ratio_all", "wb_max32_time",
              "wb_max32_oom_kills", "wb_max32_peak", "wb_max32_dirty_most", "wb_max32_dirty_limit",
              "wb_fsync4k_a_dirty", "wb_fsync4k_a_rate", "wb_fsync4k_alone", "wb_fsync4k_beside",
              "wb_fsync4k_ratio", "wb_readback")


def ctl_compare(build, initrd, out, timeout):
    """user/bench/ctlbench.c (issue 22 item 4: how strictly memory.high,
    memory.max's OOM kill, cpu.max and io.max hold) on both sides, each
    with a fresh 64 MiB scratch disk for io.max, plain TCG (wall clock):
    ctl_NAME_arbor and ctl_NAME_linux, the same program's figures."""
    tools = linux_tools()
    sides = {}
    for side in ("arbor", "linux"):
        if side == "linux" and not tools:
            print("ctlbench: linux-run not found: the Linux side is skipped", flush=True)
            break
        img = os.path.join(out, f"ctl-{side}.img")
        with open(img, "wb") as f:
            f.truncate(64 << 20)
        prog = None
        if side == "linux":
            prog = os.path.join(out, "ctlbench-linux")
            cc = subprocess.run([os.path.join(tools, "linux-cc"), "-O2", "-o", prog,
                                 os.path.join(ROOT, "user", "bench", "ctlbench.c")],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if cc.returncode != 0:
                print("ctlbench: linux-cc failed: the Linux side is skipped\n" + cc.stdout[-1000:], flush=True)
                break
        text, ok = disk_run(side, tools, prog, "posix/ctlbench", ["/dev/vda"], img, build, initrd, timeout)
        with open(os.path.join(out, f"ctl-{side}.log"), "w") as f:
            f.write(text)
        os.remove(img)
        found = [(m.group(1), m.group(2), m.group(3)) for m in map(BENCH_RE.match, text.splitlines()) if m]
        if not ok or not found:
            print(f"ctlbench: the {side} run failed (see {out}/ctl-{side}.log)", flush=True)
            continue
        sides[side] = found
    for name, value, unit in sides.get("arbor", []):
        print(f"{name}_arbor {value} {unit}", flush=True)
        for lname, lvalue, lunit in sides.get("linux", []):
            if lname == name:
                print(f"{name}_linux {lvalue} {lunit}", flush=True)


def wb_compare(build, initrd, out, timeout, mib=64, exps="", sides_wanted=("arbor", "linux"), icount=False):
    """user/bench/wbbench.c on an empty ext2 image in Arbor (posix/wbbench,
    plain TCG, real time: io.max is wall-clock) and on Linux 6.1 in the
    same QEMU (linux-run, same memory and image size): every figure as
    NAME_arbor and NAME_linux, whether the host's e2fsck -fn finds each
    image clean, and the charts of Arbor's traces (arbor-plot). exps:
    wbbench's -e (only those experiments; all if empty); sides_wanted:
    which sides run; icount: Arbor's side under -icount (guest time
    counts instructions, whatever the host's load; io.max's rate is then
    per guest second)."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import mkext2
    scale = mib / 64.0
    args = ["/dev/vda", "/mnt/wbbench", "-s", str(mib), "-w", str(max(1, int(128 * scale))),
            "-b", str(max(1, int(256 * scale)))] + (["-e", exps] if exps else [])
    size = max(256, int(1024 * scale))
    tools = linux_tools() if "linux" in sides_wanted else None
    sides = ["arbor"] if "arbor" in sides_wanted else []
    prog = os.path.join(out, "wbbench-linux")
    if tools:
        cc = subprocess.run([os.path.join(tools, "linux-cc"), "-O2", "-o", prog,
                             os.path.join(ROOT, "user", "bench", "wbbench.c")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if cc.returncode == 0:
            sides.append("linux")
        else:
            print("wbbench: linux-cc failed: the Linux side is skipped\n" + cc.stdout[-1000:], flush=True)
    elif "linux" in sides_wanted:
        print("wbbench: linux-run not found: the Linux side is skipped", flush=True)
    results = {}
    for side in sides:
        img = os.path.join(out, f"wbbench-{side}.img")
        mkext2.make_image(img, size, 4096)
        log = os.path.join(out, f"wbbench-{side}.log")
        text, ok = disk_run(side, tools, prog, "posix/wbbench", args, img, build, initrd, timeout,
                            icount=icount and side == "arbor")
        with open(log, "w") as f:
            f.write(text + "\n")
        results[side] = {m.group(1): (float(m.group(2)), m.group(3)) for m in map(BENCH_RE.match, text.splitlines())
                         if m}
        fsck = subprocess.run([mkext2.tool("e2fsck"), "-fn", img], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        print(f"wbbench: the {side} run {'passed' if ok else 'FAILED'} (see {log}); e2fsck -fn of its image: "
              f"{'clean' if fsck.returncode == 0 else 'NOT CLEAN'}", flush=True)
        os.remove(img)
        if side == "arbor":
            subprocess.run([os.path.join(ROOT, "tools", "arbor-plot"), "--out", out, "--only", "wb", log])
    # then where B's time went alone and beside A (wb_b_alone_cpu_a ...)
    extra = [n for side in sides for n in results.get(side, {}) if n.startswith(("wb_b_alone_", "wb_b_beside_"))]
    for name in WB_FIGURES + tuple(dict.fromkeys(extra)):
        for side in sides:
            if name in results.get(side, {}):
                value, unit = results[side][name]
                print(f"{name}_{side} {value:.3f} {unit}", flush=True)


def smp_compare(build, out, timeout):
    """Issue 23's table: user/bench/smpbench.c (pipe round trips on one CPU
    and across two, fork+exit+wait and cgroup operations from 1, 2 and 4
    workers) built with arbor-cc and linux-cc and run on 2 and 4 vCPUs,
    Arbor (tools/arbor-run, every CPU scheduling) beside Linux 6.1
    (linux-run), plain TCG on both sides: smp_NAME_Ncpu_arbor, _linux and
    _ratio; then the kernel's own cpu.weight and cpu.max figures across
    CPUs (bench=cpu_smp, Arbor only: Linux's come from its cgroup files the
    same way only with a shell)."""
    tools = linux_tools()
    progs = {"arbor": os.path.join(out, "smpbench-arbor"), "linux": os.path.join(out, "smpbench-linux")}
    src = os.path.join(ROOT, "user", "bench", "smpbench.c")
    ccs = {"arbor": os.path.join(ROOT, "tools", "arbor-cc")}
    if tools:
        ccs["linux"] = os.path.join(tools, "linux-cc")
    else:
        print("smpbench: linux-run not found: the Linux side is skipped", flush=True)
    for side, cc in ccs.items():
        r = subprocess.run([cc, "-O2", "-o", progs[side], src], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            print(f"smpbench: {side}'s build failed\n" + r.stdout[-1000:], flush=True)
            return
    for ncpu in (2, 4):
        found = {}
        for side in ccs:
            cmd = ([os.path.join(ROOT, "tools", "arbor-run"), "--cmdline", "smp_sched=1"] if side == "arbor"
                   else [os.path.join(tools, "linux-run")])
            p = subprocess.run(cmd + ["--smp", str(ncpu), "--mem", "512", "--timeout", str(timeout), progs[side]],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, errors="replace")
            with open(os.path.join(out, f"smpbench-{side}-{ncpu}.log"), "w") as f:
                f.write(p.stdout)
            found[side] = {m.group(1): (float(m.group(2)), m.group(3)) for m in
                           (re.match(r"bench (\S+) (\S+) (\S+)", l) for l in p.stdout.splitlines()) if m}
            if p.returncode != 0 or not found[side]:
                print(f"smpbench: the {side} run on {ncpu} CPUs failed (exit {p.returncode}, "
                      f"see {out}/smpbench-{side}-{ncpu}.log)", flush=True)
        for name, (value, unit) in found.get("arbor", {}).items():
            print(f"{name}_{ncpu}cpu_arbor {value:.0f} {unit}", flush=True)
            if name in found.get("linux", {}):
                lv = found["linux"][name][0]
                print(f"{name}_{ncpu}cpu_linux {lv:.0f} {unit}", flush=True)
                if lv:
                    print(f"{name}_{ncpu}cpu_ratio {value / lv:.2f} x", flush=True)
    for ncpu in (2, 4):
        for name, value, unit in run(os.path.join(build, "arbor.elf"), os.path.join(build, "initrd.cpio"), False,
                                     timeout, os.path.join(out, f"cpu_smp-{ncpu}.log"), "cpu_smp smp_sched=1",
                                     smp=ncpu):
            print(f"{name}_{ncpu}cpu {value} {unit}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--timeout", type=int, default=1200)
    ap.add_argument("--fuzz-seconds", type=int, default=30, help="per mode (0: no fuzz run)")
    ap.add_argument("--only-fuzz", action="store_true", help="only the fuzzer's probe run")
    ap.add_argument("--only-fileops", action="store_true",
                    help="only the file operations, Arbor (plain TCG) beside Linux")
    ap.add_argument("--only-pollwake", action="store_true",
                    help="only poll's wake-up latency, Arbor (icount and plain TCG) beside Linux")
    ap.add_argument("--only-kcontain", action="store_true",
                    help="only the kernel-memory containment (icount), Arbor beside Linux")
    ap.add_argument("--only-ext2", action="store_true",
                    help="only the ext2 benchmark, Arbor (plain TCG) beside Linux")
    ap.add_argument("--ext2-mib", type=int, default=256, help="the ext2 benchmark's file size")
    ap.add_argument("--ext2-files", type=int, default=10000, help="the ext2 benchmark's file count")
    ap.add_argument("--ext2-runs", type=int, default=2, help="runs per side (the best counts)")
    ap.add_argument("--ext2-icount", action="store_true",
                    help="only Arbor's side of the ext2 benchmark, under -icount: guest instructions per operation")
    ap.add_argument("--ext2-opts", default="", help="the ext2 benchmark's mount options (Arbor: e.g. nogrant)")
    ap.add_argument("--only-ctl", action="store_true",
                    help="only the controllers' strictness (memory.high, OOM, cpu.max, io.max), Arbor beside Linux")
    ap.add_argument("--only-wb", action="store_true",
                    help="only the writeback benchmark (issue 20), Arbor beside Linux")
    ap.add_argument("--wb-mib", type=int, default=64, help="the writeback benchmark's per-writer size")
    ap.add_argument("--wb-exp", default="", help="the writeback benchmark's experiments (wbbench -e: "
                    "throttle,weight,max32,fsync4k; all by default)")
    ap.add_argument("--wb-side", default="arbor,linux", help="the writeback benchmark's sides (arbor,linux)")
    ap.add_argument("--wb-icount", action="store_true", help="the writeback benchmark's Arbor side under -icount")
    ap.add_argument("--only-smp", action="store_true",
                    help="only the many-CPU benchmark (issue 23), Arbor beside Linux on 2 and 4 vCPUs")
    a = ap.parse_args()
    kernel = os.path.join(a.build, "arbor.elf")
    initrd = os.path.join(a.build, "initrd.cpio")
    # Under icount one guest nanosecond is one guest instruction, so time
    # figures become instruction counts; other units (ratios) print once.
    out = os.path.join(a.build, "bench")
    os.makedirs(out, exist_ok=True)
    if a.only_fuzz:
        fuzz_probe(a.build, initrd, a.fuzz_seconds, os.path.join(out, "fuzz"))
        return
    if a.only_ctl:
        ctl_compare(a.build, initrd, out, a.timeout)
        return
    if a.only_smp:
        smp_compare(a.build, out, a.timeout)
        return
    if a.only_wb:
        wb_compare(a.build, initrd, out, a.timeout, a.wb_mib, a.wb_exp, a.wb_side.split(","),
                   a.wb_icount)
        return
    if a.ext2_icount:
        ext2_icount(a.build, initrd, out, a.timeout, a.ext2_mib, a.ext2_files, a.ext2_runs, a.ext2_opts)
        return
    if a.only_ext2:
        ext2_compare(a.build, initrd, out, a.timeout, a.ext2_mib, a.ext2_files, a.ext2_runs)
        return
    if a.only_pollwake:
        for icount in (True, False):
            found = run(kernel, initrd, icount, a.timeout,
                        os.path.join(out, "pollwake-icount.log" if icount else "pollwake.log"), "pollwake")
            for name, value, unit in found:
                print(f"{name} {value} {'insns' if icount else unit}", flush=True)
        fileops_compare({n: float(v) for n, v, u in found if n.startswith("pollwake_")}, out, a.timeout,
                        "pollwake")
        return
    if a.only_kcontain:
        found = run(kernel, initrd, True, a.timeout, os.path.join(out, "kcontain-icount.log"), "kcontain")
        for name, value, unit in found:
            print(f"{name} {value} {'insns' if unit == 'ns' else unit}", flush=True)
        kcontain_compare({n: (v, u) for n, v, u in found if n.startswith("kcontain_")}, out, a.timeout)
        return
    if a.only_fileops:
        found = run(kernel, initrd, False, a.timeout, os.path.join(out, "fileops.log"), "fileops")
        fileops_compare({n: float(v) for n, v, u in found if n.startswith("fileops_")}, out, a.timeout)
        return
    arbor_fileops, arbor_pollwake, arbor_kcontain = {}, {}, {}
    for icount in (True, False):
        log = os.path.join(out, "icount.log" if icount else "tcg.log")
        for name, value, unit in run(kernel, initrd, icount, a.timeout, log):
            if name.startswith("kcontain_") and icount and unit != "ns":
                arbor_kcontain[name] = (value, unit)
            if name.startswith("fileops_") and not icount:
                arbor_fileops[name] = float(value)
            if name.startswith("pollwake_") and not icount:
                arbor_pollwake[name] = float(value)
            if unit in ("MiB/s", "IOPS") or name.startswith("blk_"):
                if icount:
                    continue
            elif unit == "ns" and icount:
                unit = "insns"
            elif unit != "ns" and not icount and not name.startswith("blk_"):
                continue
            print(f"{name} {value} {unit}", flush=True)
    # a cross-CPU call's round trip: plain TCG on 2 CPUs (under -icount
    # QEMU runs the CPUs in turn, one at a time)
    for name, value, unit in run(kernel, initrd, False, a.timeout, os.path.join(out, "smp.log"), "smp", smp=2):
        print(f"{name} {value} {unit}", flush=True)
    # the cpu and memory traces from the icount run; the disk's (trace
    # io, real time) from the plain TCG run
    for log in ("icount.log", "tcg.log"):
        subprocess.run([os.path.join(ROOT, "tools", "arbor-plot"), "--out", out, "--only",
                        "cpu,mem" if log == "icount.log" else "io", os.path.join(out, log)], check=True)
    fileops_compare(arbor_fileops, out, a.timeout)
    fileops_compare(arbor_pollwake, out, a.timeout, "pollwake")
    kcontain_compare(arbor_kcontain, out, a.timeout)
    ext2_compare(a.build, initrd, out, a.timeout, a.ext2_mib, a.ext2_files, a.ext2_runs)
    wb_compare(a.build, initrd, out, a.timeout, a.wb_mib)
    ctl_compare(a.build, initrd, out, a.timeout)
    smp_compare(a.build, out, a.timeout)
    if a.fuzz_seconds:
        fuzz_probe(a.build, initrd, a.fuzz_seconds, os.path.join(out, "fuzz"))


if __name__ == "__main__":
    main()
