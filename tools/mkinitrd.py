#!/usr/bin/env python3
"""Packs a directory into a "newc" cpio archive (the format of cpio -H newc)
for Arbor's boot archive.

    python3 tools/mkinitrd.py OUT.cpio DIR

Every regular file and directory under DIR is stored with its path relative
to DIR (no leading "./"), depth first in sorted order with each directory
before its contents, then the "TRAILER!!!" entry. Modes come from the file
system; uid, gid and mtime are 0 and inodes are numbered from 1, so the same
tree always gives the same bytes. Symlinks and special files are skipped
with a warning. lib/initrd.c is the reader.
"""
import os
import stat
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


def build(root, skip):
    parts = []
    ino = 1
    for rel, st in walk(root, "", skip):
        if stat.S_ISDIR(st.st_mode):
            parts.append(entry(ino, st.st_mode, 2, rel, b""))
        else:
            with open(os.path.join(root, rel), "rb") as f:
                parts.append(entry(ino, st.st_mode, 1, rel, f.read()))
        ino += 1
    parts.append(entry(0, 0, 1, TRAILER, b""))
    return b"".join(parts)


def main(argv):
    if len(argv) != 3:
        print("usage: mkinitrd.py OUT.cpio DIR", file=sys.stderr)
        return 2
    out, root = argv[1], argv[2]
    if not os.path.isdir(root):
        print(f"mkinitrd: {root} is not a directory", file=sys.stderr)
        return 1
    tmp = out + ".tmp"
    try:
        data = build(root, {os.path.realpath(out), os.path.realpath(tmp)})
        # Write then rename, so a failed run never leaves half an archive.
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, out)
    except (OSError, ValueError) as e:
        print(f"mkinitrd: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
