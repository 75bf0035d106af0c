#!/bin/sh
# Starts QEMU the way every Arbor target does (TCG only, headless, serial
# on stdio, isa-debug-exit for the kernel's exit status).
# Usage: tools/qemu.sh (--iso FILE | --kernel ELF) [--append CMDLINE]
#        [--initrd FILE] [--mem MIB] [--smp N] [--icount] [--gdb PORT] [--serial DEST]
#        [--disk FILE]... [-- extra qemu args]
# --disk attaches FILE as a raw virtio-blk PCI disk (/dev/vda, then vdb...);
# a missing FILE is created as an empty 64 MiB image. QEMU_DISK_OPTS adds
# -drive options to each (e.g. cache=none,aio=threads, as linux-run's).
# --smp N gives the guest N CPUs (1-8; default: $ARBOR_SMP, else 1), each
# its own host thread (multi-threaded TCG) unless --icount serializes them.
# ARBOR_APPEND puts words first in every -kernel boot's command line (e.g.
# ARBOR_APPEND=smp_sched=0 make test: the whole suite with CPU 0 alone
# scheduling).
# Exit status: QEMU's, i.e. (v << 1) | 1 for a kernel exit value v.
set -e
QEMU=${QEMU:-qemu-system-x86_64}
mem=256 smp=${ARBOR_SMP:-1} serial=mon:stdio boot= append= initrd= icount= gdb= disks= ndisks=0
while [ $# -gt 0 ]; do
	case "$1" in
	--iso) boot="-cdrom $2 -boot d"; shift 2 ;;
	--kernel) boot="-kernel $2"; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--initrd) initrd=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--icount) icount="-icount shift=0,sleep=off"; shift ;;
	--gdb) gdb="-S -gdb tcp::$2"; shift 2 ;;
	--serial) serial=$2; shift 2 ;;
	--disk)
		case "$2" in *,*|*" "*|"") echo "qemu.sh: --disk needs a file name without commas or spaces" >&2; exit 2 ;; esac
		[ -e "$2" ] || truncate -s 64M "$2"
		disks="$disks -drive file=$2,if=none,id=d$ndisks,format=raw${QEMU_DISK_OPTS:+,$QEMU_DISK_OPTS} -device virtio-blk-pci,drive=d$ndisks"
		ndisks=$((ndisks + 1)); shift 2 ;;
	--) shift; break ;;
	*) echo "qemu.sh: unknown option '$1'" >&2; exit 2 ;;
	esac
done
case "$smp" in [1-8]) ;; *) echo "qemu.sh: --smp (or ARBOR_SMP) takes 1 to 8 CPUs, not '$smp'" >&2; exit 2 ;; esac
[ -n "$boot" ] || { echo "qemu.sh: give --iso or --kernel" >&2; exit 2; }
accel=tcg
[ "$smp" = 1 ] || [ -n "$icount" ] || accel=tcg,thread=multi
set -- -accel "$accel" -smp "$smp" -m "$mem" -display none -vga none -nic none -no-reboot \
	-serial "$serial" -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	$boot $icount $gdb $disks "$@"
[ -z "$initrd" ] || set -- "$@" -initrd "$initrd"
# -append is only valid with -kernel; the ISO's grub.cfg carries its own.
[ -z "$ARBOR_APPEND" ] || append="$ARBOR_APPEND${append:+ $append}" # first: a program's arguments end the line
case "$boot" in -kernel*) set -- "$@" -append "$append" ;; esac
exec "$QEMU" "$@"
