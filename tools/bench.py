#!/usr/bin/env python3
"""`make bench`: boots the kernel with bench=all twice and prints
`name value unit` lines. Once under -icount shift=0,sleep=off, where guest
time counts instructions (stable on a busy machine): unit `insns`. Once in
plain TCG: unit `ns`, which depends on the host and its load. The logs go
to BUILD/bench/, and tools/arbor-plot draws the cpu experiments' traces
(from the icount run, whose figures are the ones printed) as charts there.
Both boots get a fresh scratch disk (BUILD/bench/disk.img, /dev/vda);
its throughput (unit MiB/s) is shown from the plain TCG boot, in real
time, since guest time under icount says nothing about the host's I/O."""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH_RE = re.compile(r"^bench (\S+) ([0-9.]+) (\S+)\r?$")


def run(kernel, initrd, icount, timeout, log):
    disk = os.path.join(os.path.dirname(log), "disk.img")
    if os.path.exists(disk):
        os.remove(disk)
    args = [os.path.join(ROOT, "tools", "qemu.sh"), "--serial", "stdio", "--kernel", kernel,
            "--initrd", initrd, "--append", "bench=all", "--disk", disk] + (["--icount"] if icount else [])
    p = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=timeout, text=True, errors="replace")
    with open(log, "w") as f:
        f.write(p.stdout)
    found = [m.groups() for m in map(BENCH_RE.match, p.stdout.splitlines()) if m]
    if p.returncode != 33 or not found:
        sys.stderr.write(p.stdout[-3000:])
        raise SystemExit(f"bench: the kernel's benchmark boot failed (QEMU exit {p.returncode})")
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--timeout", type=int, default=1200)
    a = ap.parse_args()
    kernel = os.path.join(a.build, "arbor.elf")
    initrd = os.path.join(a.build, "initrd.cpio")
    # Under icount one guest nanosecond is one guest instruction, so time
    # figures become instruction counts; other units (ratios) print once.
    out = os.path.join(a.build, "bench")
    os.makedirs(out, exist_ok=True)
    for icount in (True, False):
        log = os.path.join(out, "icount.log" if icount else "tcg.log")
        for name, value, unit in run(kernel, initrd, icount, a.timeout, log):
            if unit in ("MiB/s", "IOPS") or name.startswith("blk_"):
                if icount:
                    continue
            elif unit == "ns" and icount:
                unit = "insns"
            elif unit != "ns" and not icount and not name.startswith("blk_"):
                continue
            print(f"{name} {value} {unit}", flush=True)
    # the cpu and memory traces from the icount run; the disk's (trace
    # io, real time) from the plain TCG run
    for log in ("icount.log", "tcg.log"):
        subprocess.run([os.path.join(ROOT, "tools", "arbor-plot"), "--out", out, "--only",
                        "cpu,mem" if log == "icount.log" else "io", os.path.join(out, log)], check=True)


if __name__ == "__main__":
    main()
