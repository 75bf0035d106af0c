#!/bin/sh
# Records what Linux 6.1 prints for each tests/SUBJECT/linux_NAME.c (a
# program whose behaviour needs a real Linux to compare with, such as the
# cgroup files' parsing, which the host's own cgroups cannot show): built
# with linux-cc and run with linux-run (root, cgroup2 at /sys/fs/cgroup, in
# the same QEMU as Arbor), its stdout saved as tests/SUBJECT/linux_NAME.out.
# make test runs the program on Arbor and compares byte for byte.
# Usage: tools/record-linux.sh TOOLS [tests/SUBJECT/linux_NAME.c ...]
#   TOOLS: the directory of linux-cc and linux-run (../shared/tools here)
set -e
tools=$(cd "$1" && pwd)
shift
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || set -- "$root"/tests/*/linux_*.c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for src in "$@"; do
	name=$(basename "$src" .c)
	"$tools/linux-cc" -O2 -o "$tmp/$name" "$src"
	"$tools/linux-run" --timeout 120 "$tmp/$name" > "${src%.c}.out"
	echo "recorded ${src%.c}.out"
done
