#!/usr/bin/env python3
"""Packs a directory into a "newc" cpio archive (the format of cpio -H newc)
for Arbor's boot archive.

    python3 tools/mkinitrd.py [--strip-cache CACHE [--cached-only]] OUT.cpio DIR

Every regular file and directory under DIR is stored with its path relative
to DIR (no leading "./"), depth first in sorted order with each directory
before its contents, then the "TRAILER!!!" entry. Modes come from the file
system; uid, gid and mtime are 0 and inodes are numbered from 1, so the same
tree always gives the same bytes. Symlinks and special files are skipped
with a warning. lib/initrd.c is the reader.

With --strip-cache, an ELF file is stored without its debugging sections
(objcopy --strip-debug: its symbols stay, for backtraces): the programs
are about a fifth of their size, and the archive that every boot loads,
keeps and unpacks into its root a third (32 MiB of 98; build/initrd keeps
them whole, for gdb).
Stripped copies are kept in CACHE by their content's hash; make's run
drops the ones it did not use. --cached-only (tools/arbor-run, which packs
a copy of build/initrd and a program of its own) strips only what is
cached: anything else is stored whole, with no objcopy run.
"""
import hashlib
import os
import stat
import subprocess
import sys

MAGIC = b"070701"
TRAILER = "TRAILER!!!"
MAX_FIELD = 0xFFFFFFFF  # every header field is 8 hex digits


def pad4(n):
    return (4 - n % 4) % 4


def entry(ino, mode, nlink, name, data):
    """One header + name + data, each padded to 4 bytes. The archive starts
    at offset 0 and every entry is a multiple of 4 long, so padding each
    entry on its own equals padding from the start of the archive."""
    name_b = os.fsencode(name) + b"\0"
    if len(data) > MAX_FIELD:
        raise ValueError(f"{name}: {len(data)} bytes is too large for cpio newc")
    fields = [ino, mode, 0, 0, nlink, 0, len(data), 0, 0, 0, 0, len(name_b), 0]
    hdr = MAGIC + b"".join(b"%08X" % v for v in fields)
    out = hdr + name_b
    out += b"\0" * pad4(len(out))
    return out + data + b"\0" * pad4(len(data))


def walk(root, rel, skip):
    """Yields (relative path, lstat) depth first, sorted, dirs first;
    skip holds real paths to leave out."""
    path = os.path.join(root, rel) if rel else root
    for name in sorted(os.listdir(path)):
        r = f"{rel}/{name}" if rel else name
        full = os.path.join(root, r)
        st = os.lstat(full)
        if os.path.realpath(full) in skip:
            continue  # never pack the output into itself
        if stat.S_ISDIR(st.st_mode):
            yield r, st
            yield from walk(root, r, skip)
        elif stat.S_ISREG(st.st_mode):
            yield r, st
        else:
            print(f"mkinitrd: skipping {full}: not a regular file or directory",
                  file=sys.stderr)


class Stripper:
    """ELF files without their debugging sections, cached by content hash
    in folder cache (None: files as they are)."""

    def __init__(self, cache, cached_only):
        self.cache, self.cached_only, self.used = cache, cached_only, set()

    def __call__(self, data):
        if self.cache is None or not data.startswith(b"\x7fELF"):
            return data
        key = hashlib.sha256(data).hexdigest()
        path = os.path.join(self.cache, key)
        try:
            with open(path, "rb") as f:
                self.used.add(key)
                return f.read()
        except OSError:
            if self.cached_only:
                return data
        os.makedirs(self.cache, exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        p = subprocess.run(["objcopy", "--strip-debug", tmp], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        if p.returncode != 0:
            os.unlink(tmp)
            raise ValueError("objcopy --strip-debug failed: " + p.stdout.strip())
        os.replace(tmp, path)
        self.used.add(key)
        with open(path, "rb") as f:
            return f.read()

    def prune(self):
        """Drops the cached copies this run did not use."""
        for name in os.listdir(self.cache) if self.cache and os.path.isdir(self.cache) else ():
            if name not in self.used:
                os.unlink(os.path.join(self.cache, name))


def build(root, skip, strip=lambda data: data):
    parts = []
    ino = 1
    for rel, st in walk(root, "", skip):
        if stat.S_ISDIR(st.st_mode):
            parts.append(entry(ino, st.st_mode, 2, rel, b""))
        else:
            with open(os.path.join(root, rel), "rb") as f:
                parts.append(entry(ino, st.st_mode, 1, rel, strip(f.read())))
        ino += 1
    parts.append(entry(0, 0, 1, TRAILER, b""))
    return b"".join(parts)


def main(argv):
    args, cache, cached_only = argv[1:], None, False
    while args and args[0].startswith("--"):
        if args[0] == "--strip-cache" and len(args) > 1:
            cache, args = args[1], args[2:]
        elif args[0] == "--cached-only":
            cached_only, args = True, args[1:]
        else:
            args = []
    if len(args) != 2:
        print("usage: mkinitrd.py [--strip-cache CACHE [--cached-only]] OUT.cpio DIR", file=sys.stderr)
        return 2
    out, root = args
    if not os.path.isdir(root):
        print(f"mkinitrd: {root} is not a directory", file=sys.stderr)
        return 1
    tmp = out + ".tmp"
    strip = Stripper(cache, cached_only)
    try:
        data = build(root, {os.path.realpath(out), os.path.realpath(tmp)}, strip)
        # Write then rename, so a failed run never leaves half an archive.
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, out)
        if not cached_only:
            strip.prune()
    except (OSError, ValueError) as e:
        print(f"mkinitrd: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
