#!/usr/bin/env python3
"""Makes an ext2 disk image for Arbor with the host's e2fsprogs
(mke2fs -t ext2 -d DIR), the files owned by root (mke2fs copies the
host's owners, which would depend on who runs it).

    tools/mkext2.py IMAGE [--size MiB] [--block-size 1024|2048|4096] [--dir DIR] [--root]

Without --dir the image is empty (lost+found only). `make disk` makes
build/disk.img from the boot archive's tree (/bin, the tools, the tests);
boot it with `make run DISK=build/disk.img` and `mount -t ext2 /dev/vda /mnt`.
--root adds what a root file system needs (root=/dev/vda on the kernel
command line): the mount points /dev, /proc, /sys/fs/cgroup, /boot/initrd
and a sticky /tmp; `make rootdisk` makes build/root.img so.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile


def tool(name):
    """An e2fsprogs program: on PATH or in /sbin, /usr/sbin."""
    for d in [None, "/sbin", "/usr/sbin"]:
        p = shutil.which(name, path=d) if d else shutil.which(name)
        if p:
            return p
    sys.exit(f"mkext2: {name} not found (tools/deps.sh installs e2fsprogs)")


ROOT_DIRS = [("dev", 0o755), ("proc", 0o755), ("sys", 0o755), ("sys/fs", 0o755),
             ("sys/fs/cgroup", 0o755), ("boot", 0o755), ("boot/initrd", 0o755), ("tmp", 0o1777)]


def make_image(image, size_mib, block_size=4096, src=None, root=False):
    """IMAGE of size_mib MiB (more if src's tree needs it) holding src's tree (owned by root); with
    root, also the directories a root file system needs (ROOT_DIRS)."""
    if root:
        with tempfile.TemporaryDirectory() as tmp:
            tree = os.path.join(tmp, "root")
            if src:
                shutil.copytree(src, tree, symlinks=True)
            else:
                os.mkdir(tree)
            for d, mode in ROOT_DIRS:
                p = os.path.join(tree, d)
                os.makedirs(p, exist_ok=True)
                os.chmod(p, mode)
            return make_image(image, size_mib, block_size, tree)
    if os.path.exists(image):
        os.remove(image)
    if src:
        # room for the tree whatever it has grown to: its bytes rounded up
        # to blocks, a quarter more for the file system's own, 16 MiB free
        need = 0
        for root, dirs, files in os.walk(src):
            for n in dirs + files:
                st = os.lstat(os.path.join(root, n))
                need += (st.st_size + block_size - 1) // block_size * block_size + block_size
        size_mib = max(size_mib, (need * 5 // 4 >> 20) + 16)
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
    ap.add_argument("--root", action="store_true", help="add a root file system's mount points and /tmp")
    a = ap.parse_args()
    make_image(a.image, a.size, a.block_size, a.dir, a.root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
