#!/usr/bin/env python3
"""Makes an ext2 disk image for Arbor with the host's e2fsprogs
(mke2fs -t ext2 -d DIR), the files owned by root (mke2fs copies the
host's owners, which would depend on who runs it).

    tools/mkext2.py IMAGE [--size MiB] [--block-size 1024|2048|4096] [--dir DIR]

Without --dir the image is empty (lost+found only). `make disk` makes
build/disk.img from the boot archive's tree (/bin, the tools, the tests);
boot it with `make run DISK=build/disk.img` and `mount -t ext2 /dev/vda /mnt`.
"""
import argparse
import os
import shutil
import subprocess
import sys


def tool(name):
    """An e2fsprogs program: on PATH or in /sbin, /usr/sbin."""
    for d in [None, "/sbin", "/usr/sbin"]:
        p = shutil.which(name, path=d) if d else shutil.which(name)
        if p:
            return p
    sys.exit(f"mkext2: {name} not found (tools/deps.sh installs e2fsprogs)")


def make_image(image, size_mib, block_size=4096, src=None):
    """IMAGE of size_mib MiB holding src's tree (owned by root)."""
    if os.path.exists(image):
        os.remove(image)
    args = [tool("mke2fs"), "-q", "-F", "-t", "ext2", "-b", str(block_size)]
    if src:
        args += ["-d", src]
    args += [image, f"{size_mib}M"]
    subprocess.run(args, check=True)
    if src:
        cmds = []
        for root, dirs, files in os.walk(src):
            rel = "/" + os.path.relpath(root, src) if root != src else "/"
            cmds.append(f"sif {rel} uid 0")
            cmds.append(f"sif {rel} gid 0")
            for n in dirs + files:
                p = (rel.rstrip("/") + "/" + n)
                cmds.append(f"sif {p} uid 0")
                cmds.append(f"sif {p} gid 0")
        cmdfile = image + ".debugfs"
        with open(cmdfile, "w") as f:
            f.write("\n".join(cmds) + "\n")
        subprocess.run([tool("debugfs"), "-w", "-f", cmdfile, image], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.remove(cmdfile)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("image")
    ap.add_argument("--size", type=int, default=64, help="MiB")
    ap.add_argument("--block-size", type=int, default=4096, choices=[1024, 2048, 4096])
    ap.add_argument("--dir", default=None)
    a = ap.parse_args()
    make_image(a.image, a.size, a.block_size, a.dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
