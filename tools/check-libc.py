#!/usr/bin/env python3
"""The C library is complete for what it declares (issue 21, docs/libc.md).

Takes every function the installed headers declare (newlib with Arbor's
overlay, build/newlib/install/x86_64-elf/include), compiled as tools/arbor-cc
compiles (the host gcc, so __linux__ is defined; once as is and once with
_GNU_SOURCE, which newlib's <sys/features.h> turns into every
_DEFAULT_SOURCE/XSI/POSIX extension), links one program that takes the
address of each with the C library, and lists the ones the link finds
missing. Every missing function must be in tools/libc-missing.txt, and
every line of that list must still be missing (so it is emptied as
functions arrive). A POSIX.1-2008 base function may be listed only with the
owner (another branch) that is adding it; any other declared-but-missing
function is taken out of the headers instead, so configure scripts and
#ifdef see the truth.

  tools/check-libc.py --build build            check (exit 1 on a failure)
  tools/check-libc.py --build build --list     print every missing function
  tools/check-libc.py --build build --docs F   write docs/libc.md to F
  tools/check-libc.py --build build --docs F --check   fail if F is stale
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MISSING_LIST = os.path.join(ROOT, "tools", "libc-missing.txt")
# Headers that are not meant to be included by programs on their own (the
# compiler's fortify wrappers; a machine header each public one includes).
SKIP_DIRS = ("ssp/", "machine/")
MODES = ([], ["-D_GNU_SOURCE"])


def headers(inc):
    out = []
    for d, _, files in os.walk(inc):
        for f in files:
            if f.endswith(".h"):
                rel = os.path.relpath(os.path.join(d, f), inc)
                if not rel.startswith(SKIP_DIRS):
                    out.append(rel)
    return sorted(out)


def cflags(inc):
    gccinc = subprocess.check_output(["gcc", "-print-file-name=include"], text=True).strip()
    return ["-nostdinc", "-isystem", gccinc, "-isystem", inc, "-fno-pie", "-fno-pic",
            "-fno-stack-protector", "-D__arbor__"]


DECL = re.compile(r"^/\* (.*?):(\d+):([NO])([CF]) \*/ (.*)$")


def decl_name(text):
    """The function's name in one -aux-info declaration: the first
    identifier followed by its parameter list (not by "(*", which is a
    function-pointer return type: void (*signal (int, ...))(int))."""
    for m in re.finditer(r"(\w+) \(", text):
        rest = text[m.end():]
        if not rest.startswith("*") and m.group(1) not in ("extern", "static", "inline"):
            return m.group(1)
    return None


# Declaring files that are not what a program includes: the public header
# that includes each.
PUBLIC = {"sys/unistd.h": "unistd.h", "sys/signal.h": "signal.h", "sys/_default_fcntl.h": "fcntl.h",
          "sys/string.h": "string.h", "sys/stdio.h": "stdio.h", "sys/errno.h": "errno.h",
          "sys/sched.h": "sched.h", "sys/termios.h": "termios.h", "sys/poll.h": "poll.h",
          "sys/fenv.h": "fenv.h", "sys/dirent.h": "dirent.h"}


def public_header(where, including):
    if where in PUBLIC:
        return PUBLIC[where]
    base = os.path.basename(where)
    if where.startswith("machine/") or base.startswith("_"):
        return including
    return where


def symbols_of(h, found, flags, mode, work):
    """The linker symbol each C name of header h stands for (an asm label
    or a macro may rename it: <libgen.h>'s basename is __xpg_basename,
    whose symbol is "basename"): {C name: symbol}."""
    src = os.path.join(work, "s.c")
    obj = os.path.join(work, "s.o")
    with open(src, "w") as f:
        f.write(f"#include <{h}>\n")
        for n in sorted(found):
            f.write(f"void *const ref_{n} __attribute__((used, section(\".data.ref.{n}\"))) = "
                    f"(void *)&{n};\n")
    p = subprocess.run(["gcc", *flags, *mode, "-w", "-fno-builtin", "-c", src, "-o", obj],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        return {n: n for n in found}
    out = subprocess.check_output(["readelf", "-rW", obj], text=True)
    syms, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"Relocation section '\.rela\.data\.ref\.(\w+)'", line)
        if m:
            cur = m.group(1)
            continue
        parts = line.split()
        if cur and len(parts) >= 5 and re.match(r"^[0-9a-f]{8,}$", parts[0]):
            syms[cur] = parts[4]
            cur = None
    return {n: syms.get(n, n) for n in found}


def declared(inc, work):
    """{symbol: (header a program includes, C name)} of every function
    declared by every header in both modes; and the headers that do not
    compile on their own."""
    names, broken = {}, []
    flags = cflags(inc)
    for h in headers(inc):
        for mode in MODES:
            src = os.path.join(work, "h.c")
            aux = os.path.join(work, "h.aux")
            with open(src, "w") as f:
                f.write(f"#include <{h}>\n")
            if os.path.exists(aux):
                os.remove(aux)
            p = subprocess.run(["gcc", *flags, *mode, "-fsyntax-only", "-aux-info", aux, src],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if p.returncode != 0:
                broken.append((h, " ".join(mode) or "default",
                               next((l for l in p.stdout.splitlines() if "error" in l),
                                    p.stdout.strip()[-200:])))
                continue
            found = {}
            with open(aux) as f:
                for line in f:
                    m = DECL.match(line.rstrip("\n"))
                    if not m or m.group(4) != "C":   # a definition (static inline) links anyway
                        continue
                    path = m.group(1)
                    if not path.startswith(inc + "/") or m.group(5).startswith("static "):
                        continue
                    name = decl_name(m.group(5))
                    if name is not None:
                        found[name] = public_header(os.path.relpath(path, inc), h)
            for n, sym in symbols_of(h, found, flags, mode, work).items():
                if sym not in names or names[sym][0] != found[n] and found[n] == h:
                    names[sym] = (found[n], n)
    return names, broken


def link_missing(names, build, work):
    """The names a program taking each one's address fails to link."""
    src = os.path.join(work, "refs.c")
    with open(src, "w") as f:
        f.write("/* generated by tools/check-libc.py */\n")
        for i, n in enumerate(sorted(names)):
            f.write(f"extern char ref_{i}[] __asm__(\"{n}\");\n")
        f.write("void *const arbor_refs[] = {\n")
        for i, n in enumerate(sorted(names)):
            f.write(f"\tref_{i},\n")
        f.write("};\nint main(void) { return arbor_refs[0] == 0; }\n")
    # Linked as tools/arbor-cc links (its arbor-cc.conf), without its
    # "make libc" first: the check only reads the build it is given.
    conf = {}
    with open(os.path.join(build, "libc", "arbor-cc.conf")) as f:
        for line in f:
            k, _, v = line.strip().partition("=")
            conf[k] = v
    newlib = os.path.dirname(conf["NEWLIB_INCLUDE"])
    libgcc = subprocess.check_output(["gcc", "-print-libgcc-file-name"], text=True).strip()
    obj = os.path.join(work, "refs.o")
    subprocess.check_call(["gcc", "-c", "-fno-pie", "-fno-builtin", "-w", src, "-o", obj])
    def link(*extra):
        return subprocess.run(["gcc", "-static", "-no-pie", "-nostdlib", "-Wl,-Ttext-segment=0x400000",
                               "-o", os.path.join(work, "refs"), conf["CRT0"], obj,
                               "-Wl,--warn-unresolved-symbols", "-Wl,--no-demangle", *extra,
                               "-Wl,--start-group", conf["PORT_LIB"], os.path.join(newlib, "lib", "libc.a"),
                               os.path.join(newlib, "lib", "libm.a"), libgcc, "-Wl,--end-group"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    p = link()
    # A symbol both the port and a newlib member define: a program that
    # needs something else of that member does not link.
    twice = set(re.findall(r"multiple definition of `([^']+)'", p.stdout))
    if twice:
        p = link("-Wl,--allow-multiple-definition")
    if p.returncode != 0:
        sys.exit("check-libc: the link itself failed:\n" + p.stdout[-2000:])
    # ld names the function of each reference ("in function `F'"), once
    # per object: the generated program's are the declared names; the
    # others are a library function's that would not link either.
    missing, inside, func = set(), {}, None
    for line in p.stdout.splitlines():
        m = re.search(r"in function `([^']+)'", line)
        if m:
            func = m.group(1) if "refs.c" not in line and "refs.o" not in line else None
            continue
        m = re.search(r"undefined reference to `([^']+)'", line)
        if not m:
            continue
        if "refs.c" in line or "refs.o" in line.split(":")[0] or func is None:
            missing.add(m.group(1))
        else:
            inside.setdefault(m.group(1), set()).add(func)
    for t in twice:
        inside.setdefault(t, set()).add("(defined twice: the port's and a newlib member's)")
    return missing, inside


def defined_in(build):
    """{symbol: where} from the archives a program links: user/libc/FILE.c
    (the Arbor port) or newlib (libc.a, libm.a)."""
    where = {}
    port = os.path.join(build, "libc", "libarbor-c.a")
    newlib = os.path.join(build, "newlib", "install", "x86_64-elf", "lib")
    for lib, label in ((port, None), (os.path.join(newlib, "libc.a"), "newlib"),
                       (os.path.join(newlib, "libm.a"), "newlib libm")):
        out = subprocess.check_output(["nm", "-A", "--defined-only", lib], text=True,
                                      stderr=subprocess.DEVNULL)
        for line in out.splitlines():
            parts = line.split()
            if len(parts) < 3 or parts[-2] not in "TWiVD":
                continue
            member = parts[0].split(":")[1] if ":" in parts[0] else ""
            if label is None:
                # user_libc_io.c.o -> user/libc/io.c; the Makefile names objects by path
                m = re.match(r"(.*)\.c\.o$", member)
                what = "user/libc/" + (m.group(1) if m else member)
                if not what.endswith(".c"):
                    what += ".c"
            else:
                what = label
            where.setdefault(parts[-1], what)
    return where


def syscall_names():
    """The system calls' names (abi/syscalls.tbl: "N | name | args | ...")."""
    out = set()
    with open(os.path.join(ROOT, "abi", "syscalls.tbl")) as f:
        for line in f:
            m = re.match(r"^\d+\s*\|\s*(\w+)\s*\|", line)
            if m:
                out.add(m.group(1))
    return out


def read_missing_list(path):
    """tools/libc-missing.txt: NAME CLASS OWNER -- WHY (CLASS posix or ext;
    OWNER the branch adding it, or - for none)."""
    entries = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            head = line.split("--", 1)[0].split()
            if len(head) != 3 or head[1] not in ("posix", "ext"):
                sys.exit(f"{path}:{n}: want NAME posix|ext OWNER -- why")
            entries[head[0]] = (head[1], head[2])
    return entries


def docs_text(names, missing, where, calls):
    by_header = {}
    for n, (h, _) in names.items():
        by_header.setdefault(h, []).append(n)
    lines = ["# The C library: what it offers",
             "",
             "<!-- generated by tools/check-libc.py --docs docs/libc.md from the installed headers",
             "     and the library archives; make test fails when this file is stale. -->",
             "",
             "Arbor's C library is newlib 3.3.0 with Arbor's port: Linux-valued headers",
             "(`user/newlib/overlay`, copied over newlib's sources before it is built,",
             "`tools/build-newlib.sh`) and the functions a bare newlib lacks (`user/libc/*.c`,",
             "`libarbor-c.a`, linked before newlib so its definitions win). Programs build with",
             "`tools/arbor-cc`, which defines `__linux__` (the host gcc) and `__arbor__`.",
             "",
             "Every function a header declares links: `tools/check-libc.py` (the test",
             "`libc: every declared function links`) takes each one the headers declare,",
             "plain and with `_GNU_SOURCE`, and links a program that calls it.",
             "The functions still missing are in `tools/libc-missing.txt`, each with the",
             "branch that adds it; a missing function nobody adds is taken out of its header.",
             "",
             "Where a function lives: **newlib** (newlib's own code, `libc.a`/`libm.a`),",
             "**user/libc/FILE.c** (Arbor's port), and **kernel** when the port's function is",
             "the system call of that name (`abi/syscalls.tbl`, `docs/syscalls.md`);",
             "the others in `user/libc` are done in the library, over the servers' protocols",
             "(`docs/vfs.md`) or other calls.",
             "",
             f"{len(names)} functions declared, {len(names) - len(missing)} link, "
             f"{len(missing)} missing.",
             ""]
    for h in sorted(by_header):
        lines.append(f"## <{h}>")
        lines.append("")
        groups = {}
        for n in sorted(by_header[h], key=lambda sym: (names[sym][1], sym)):
            if n in missing:
                w = "missing (tools/libc-missing.txt)"
            else:
                w = where.get(n, "newlib")
                if w.startswith("user/libc/") and n in calls:
                    w = "kernel (" + w + ")"
            c = names[n][1]
            groups.setdefault(w, []).append(f"`{c}`" if c == n else f"`{c}` (symbol `{n}`)")
        for w in sorted(groups):
            lines.append(f"- {w}: " + ", ".join(groups[w]))
        lines.append("")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--docs")
    ap.add_argument("--check", action="store_true", help="with --docs: fail if F is stale, else check")
    ap.add_argument("--work", help="keep the generated program in this folder")
    ap.add_argument("--missing-list", default=MISSING_LIST, help="instead of tools/libc-missing.txt")
    ap.add_argument("--declare", action="append", default=[],
                    help="count NAME as declared (by <check-libc>): the check's own test")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    inc = os.path.join(build, "newlib", "install", "x86_64-elf", "include")
    with tempfile.TemporaryDirectory() as tmp:
        work = a.work or tmp
        os.makedirs(work, exist_ok=True)
        names, broken = declared(inc, work)
        for n in a.declare:
            names[n] = ("check-libc", n)
        missing, inside = link_missing(names, build, work)
    if a.list:
        for n in sorted(missing):
            print(f"{n}\t{names[n][0]}")
        for n in sorted(inside):
            print(f"{n}\t(needed by {', '.join(sorted(inside[n]))})")
        print(f"{len(missing)} of {len(names)} declared functions missing", file=sys.stderr)
        return 0
    if a.docs:
        text = docs_text(names, missing, defined_in(build), syscall_names())
        try:
            with open(a.docs) as f:
                old = f.read()
        except OSError:
            old = ""
        if not a.check:
            with open(a.docs, "w") as f:
                f.write(text)
            return 0
    fail = []
    if a.docs and old != text:
        fail.append(f"{a.docs} is stale: run tools/check-libc.py --docs {a.docs}")
    for h, mode, err in broken:
        fail.append(f"<{h}> ({mode}) does not compile on its own: {err}")
    listed = read_missing_list(a.missing_list)
    for n in sorted(missing - set(listed)):
        fail.append(f"{n} (<{names[n][0]}>) is declared but not in the library: implement it, or "
                    "take it out of the header")
    for n in sorted(set(inside) - set(listed)):
        fail.append(f"{n} is missing, and {', '.join(sorted(inside[n]))} in the library call it")
    for n in sorted(set(listed) - missing - set(inside)):
        fail.append(f"{n} is in tools/libc-missing.txt but " +
                    ("links now: take it off the list" if n in names else "no header declares it"))
    for n, (cls, owner) in sorted(listed.items()):
        if owner == "-":
            fail.append(f"{n}: " + ("a POSIX.1-2008 function must exist (or be listed with the "
                                    "branch adding it)" if cls == "posix" else
                                    "an extension nobody adds is taken out of its header"))
    print(f"{len(names)} functions declared, {len(missing)} missing, {len(inside)} more that "
          f"library functions call "
          f"({len(listed)} listed in tools/libc-missing.txt)")
    for f in fail:
        print("  " + f)
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
