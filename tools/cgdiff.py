#!/usr/bin/env python3
"""The differential cgroup fuzzer's driver (tests/cgroup/cgfuzz.c, issue 27).

  tools/cgdiff.py live SEEDS [-n OPS]   SEEDS "A-B": cgfuzz on Arbor (arbor-run) and
                                        on Linux 6.1 (linux-run) in the same QEMU; for
                                        each sequence that differs, its first divergence
                                        and a minimal replay (make cgdiff SEEDS=A-B)
  tools/cgdiff.py record                the fixed seeds on Linux into
                                        tests/cgroup/cgfuzz.linux (the transcript)
  tools/cgdiff.py check                 the fixed seeds on Arbor against the transcript
                                        (make test runs this)

A replay is a seed spec "S=I,J,K" (seed S, operations I, J and K only: each
operation depends on the seed and its index alone): `tools/arbor-run
build/cgdiff/cgfuzz S=I,J,K` and the same with linux-run print it on each
system. Minimising runs every candidate in one boot per system:
first the prefix up to the divergence without each single operation, then
the removals that kept the divergence, cumulatively; the longest that still
diverges is the replay. LINUX_TOOLS names the directory of linux-cc and
linux-run (default: ../shared/tools beside the checkout).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "tests", "cgroup", "cgfuzz.c")
TRANSCRIPT = os.path.join(ROOT, "tests", "cgroup", "cgfuzz.linux")
CHUNK = 250  # seeds per boot


def linux_tools():
    """(linux-cc, linux-run) or None."""
    bases = [os.environ.get("LINUX_TOOLS")] if os.environ.get("LINUX_TOOLS") else []
    bases += [os.path.join(ROOT, "..", "shared", "tools"), os.path.join(ROOT, "..", "..", "shared", "tools")]
    for b in bases:
        cc, run = os.path.join(b, "linux-cc"), os.path.join(b, "linux-run")
        if os.access(cc, os.X_OK) and os.access(run, os.X_OK):
            return cc, run
    return None


def build(cc, out):
    """Builds cgfuzz with cc (arbor-cc or linux-cc) into out; None or the error."""
    os.makedirs(os.path.dirname(out), exist_ok=True)
    p = subprocess.run([cc, "-O2", "-Wall", "-Wextra", "-Werror", "-o", out, SRC, "-lpthread"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return None if p.returncode == 0 else p.stdout.decode("utf-8", "replace")


def run_arbor(exe, specs, nops, timeout):
    """cgfuzz's output on Arbor for the specs (on standard input: the
    kernel's command line is short); (exit status, text)."""
    klog = os.path.join(os.path.dirname(exe), "arbor.klog")  # kept for a failed run
    args = [os.path.join(ROOT, "tools", "arbor-run"), "--timeout", str(timeout), "--klog", klog, exe]
    args += (["-n", str(nops)] if nops else []) + (["-"] if specs else [])
    p = subprocess.run(args, input=" ".join(specs).encode(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def run_linux(tools, exe, specs, nops, timeout):
    args = [tools[1], "--timeout", str(timeout), exe] + (["-n", str(nops)] if nops else []) + specs
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout.decode("utf-8", "replace").replace("\r", "")


def sequences(text):
    """{spec: [lines]} in order, from cgfuzz's output."""
    out, cur = {}, None
    for line in text.splitlines():
        if line.startswith("## seed "):
            cur = out.setdefault(line[len("## seed "):].strip(), [])
        elif cur is not None:
            cur.append(line)
    return out


def first_divergence(a, b):
    """Index of the first line that differs (or where one ends), or None."""
    for i in range(max(len(a), len(b))):
        if i >= len(a) or i >= len(b) or a[i] != b[i]:
            return i
    return None


def op_index(line):
    m = re.match(r"(\d+) ", line or "")
    return int(m.group(1)) if m else None


def compare(linux, arbor, out=print):
    """Prints the first divergence of each sequence; returns (sequences,
    operations compared, [diverging specs with their first divergence])."""
    bad, nops = [], 0
    for spec, lines in linux.items():
        other = arbor.get(spec)
        if other is None:
            out(f"seed {spec}: missing on Arbor")
            bad.append((spec, None))
            continue
        i = first_divergence(lines, other)
        if i is None:
            nops += sum(1 for l in lines if op_index(l) is not None)
            continue
        nops += i
        lw = lines[i] if i < len(lines) else "(end)"
        aw = other[i] if i < len(other) else "(end)"
        out(f"seed {spec}: first divergence at line {i + 1}\n  linux: {lw}\n  arbor: {aw}")
        bad.append((spec, op_index(lw if i < len(lines) else aw)))
    return len(linux), nops, bad


def check(out_dir=None, out=print, timeout=240):
    """make test's part: the fixed seeds (cgfuzz with no spec) on Arbor
    against the Linux transcript; (ok, summary)."""
    out_dir = out_dir or os.path.join(ROOT, "build", "cgdiff")
    exe = os.path.join(out_dir, "cgfuzz-arbor")
    err = build(os.path.join(ROOT, "tools", "arbor-cc"), exe)
    if err:
        return False, "build failed: " + err[:300]
    code, text = run_arbor(exe, [], 0, timeout)
    want = sequences(open(TRANSCRIPT).read())
    got = sequences(text)
    nseq, nops, bad = compare(want, got, out)
    ok = code == 0 and not bad and len(want) > 0
    return ok, f"{nseq} sequences, {nops} operations as Linux printed; {len(bad)} diverge; exit {code}"


def parse_seeds(s):
    a, _, b = s.partition("-")
    a, b = int(a), int(b or a)
    return a, b


def minimise(tools, aexe, lexe, bad, nops, timeout):
    """For each (spec, op) that diverges at operation op, the smallest
    replay spec found; {spec: (replay, linux lines, arbor lines)}."""
    base = {spec: (int(spec), d) for spec, d in bad if d is not None and spec.isdigit()}
    if not base:
        return {}
    # Round 1: the prefix, and the prefix without each earlier operation.
    cands = []
    for spec, (seed, d) in base.items():
        cands.append(f"{seed}:{d}")
        cands += [f"{seed}:{d}-{i}" for i in range(d)]
    l1, a1 = both(tools, aexe, lexe, cands, nops, timeout)

    def diverges(c, d, ls, as_):
        """c still diverges, first at operation d."""
        i = first_divergence(ls.get(c, []), as_.get(c, [])) if c in ls and c in as_ else None
        return i is not None and i < len(ls[c]) and op_index(ls[c][i]) == d

    # Round 2: the removals that kept it, one more each time.
    cands2, chains = [], {}
    for spec, (seed, d) in base.items():
        removable = [i for i in range(d) if diverges(f"{seed}:{d}-{i}", d, l1, a1)]
        chain = [f"{seed}:{d}" + "".join(f"-{i}" for i in removable[:k]) for k in range(1, len(removable) + 1)]
        chains[spec] = chain
        cands2 += chain
    l2, a2 = both(tools, aexe, lexe, cands2, nops, timeout) if cands2 else ({}, {})
    result = {}
    for spec, (seed, d) in base.items():
        best, lines = f"{seed}:{d}", (l1.get(f"{seed}:{d}", []), a1.get(f"{seed}:{d}", []))
        for c in chains[spec]:
            if diverges(c, d, l2, a2):
                best, lines = c, (l2[c], a2[c])
        gone = {int(x) for x in best.split(":")[1].split("-")[1:]}
        keep = f"{seed}=" + ",".join(str(i) for i in range(d + 1) if i not in gone)
        result[spec] = (keep, lines[0], lines[1])
    return result


def both(tools, aexe, lexe, specs, nops, timeout):
    """cgfuzz on both systems at once; ({spec: lines} linux, arbor)."""
    import concurrent.futures
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        lf = ex.submit(run_linux, tools, lexe, specs, nops, timeout)
        af = ex.submit(run_arbor, aexe, specs, nops, timeout)
        (lc, lt), (ac, at) = lf.result(), af.result()
    if lc != 0 or ac != 0:
        print(f"(exit status: linux {lc}, arbor {ac}; Arbor's kernel log: "
              f"{os.path.relpath(os.path.join(os.path.dirname(aexe), 'arbor.klog'), ROOT)}; its last lines:)")
        for line in at.splitlines()[-3:]:
            print("  | " + line)
    return sequences(lt), sequences(at)


def live(seeds, nops, timeout):
    tools = linux_tools()
    if not tools:
        sys.exit("cgdiff: no linux-cc/linux-run (LINUX_TOOLS)")
    out_dir = os.path.join(ROOT, "build", "cgdiff")
    aexe, lexe = os.path.join(out_dir, "cgfuzz"), os.path.join(out_dir, "cgfuzz-linux")
    for cc, exe in ((os.path.join(ROOT, "tools", "arbor-cc"), aexe), (tools[0], lexe)):
        err = build(cc, exe)
        if err:
            sys.exit(err)
    a, b = parse_seeds(seeds)
    total_seq, total_ops, all_bad = 0, 0, []
    for lo in range(a, b + 1, CHUNK):
        hi = min(b, lo + CHUNK - 1)
        l, r = both(tools, aexe, lexe, [f"{lo}-{hi}"], nops, timeout)
        nseq, nop, bad = compare(l, r)
        total_seq, total_ops, all_bad = total_seq + nseq, total_ops + nop, all_bad + bad
    print(f"cgdiff: seeds {a}-{b}, {nops or 40} operations each: {total_seq} sequences, "
          f"{total_ops} operations compared before any divergence; {len(all_bad)} sequences diverge")
    if not all_bad:
        return 0
    print("minimising (two boots of each system) ...", flush=True)
    for spec, (replay, ll, al) in minimise(tools, aexe, lexe, all_bad, nops, timeout).items():
        n = f"-n {nops} " if nops else ""
        print(f"\nseed {spec}: replay {replay} ({len([x for x in ll if op_index(x) is not None])} operations)\n"
              f"  tools/arbor-run {os.path.relpath(aexe, ROOT)} {n}{replay}\n"
              f"  $LINUX_TOOLS/linux-run {os.path.relpath(lexe, ROOT)} {n}{replay}")
        i = first_divergence(ll, al)
        for k, line in enumerate(ll):
            print(("  > " if k == i else "    ") + line)
        if i is not None and i < len(al):
            print("  arbor instead: " + al[i])
        elif i is not None:
            print("  arbor instead: (end)")
    return 1


def record(timeout):
    tools = linux_tools()
    if not tools:
        sys.exit("cgdiff: no linux-cc/linux-run (LINUX_TOOLS)")
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "cgfuzz")
        err = build(tools[0], exe)
        if err:
            sys.exit(err)
        code, text = run_linux(tools, exe, [], 0, timeout)
    if code != 0:
        sys.exit(f"cgdiff: cgfuzz exited {code} on Linux:\n{text[-2000:]}")
    with open(TRANSCRIPT, "w") as f:
        f.write(text)
    print(f"recorded {os.path.relpath(TRANSCRIPT, ROOT)}: {len(sequences(text))} sequences")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["live", "record", "check"])
    ap.add_argument("seeds", nargs="?", default="1-100")
    ap.add_argument("-n", dest="nops", type=int, default=0, help="operations per sequence (default 40)")
    ap.add_argument("--timeout", type=int, default=600)
    a = ap.parse_args()
    if a.mode == "live":
        return live(a.seeds, a.nops, a.timeout)
    if a.mode == "record":
        return record(a.timeout)
    ok, summary = check()
    print(summary)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
