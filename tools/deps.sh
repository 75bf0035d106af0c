#!/bin/sh
# Finds the host tools a make target needs and installs the Debian packages
# that provide any that are missing (apt-get, through sudo when not root).
# Usage: tools/deps.sh PROFILE...   profiles: build iso boot run test bench debug all
# (boot: what tools/arbor-run needs, the build and QEMU, no ISO tools)
set -e

# "command package" pairs per profile. A path stands for a file check.
need_build="gcc:gcc ld:binutils make:make awk:mawk /usr/include/stdio.h:libc6-dev xz:xz-utils /usr/src/newlib/newlib-3.3.0.tar.xz:newlib-source"
need_iso="grub-mkrescue:grub-common /usr/lib/grub/i386-pc:grub-pc-bin xorriso:xorriso mformat:mtools"
need_qemu="qemu-system-x86_64:qemu-system-x86"
need_test="python3:python3 /usr/sbin/mke2fs:e2fsprogs /usr/sbin/debugfs:e2fsprogs /usr/src/linux-source-6.1.tar.xz:linux-source-6.1 gnuplot:gnuplot-nox"
need_debug="gdb:gdb"
need_bench="gnuplot:gnuplot-nox"

missing_pkgs= wants_qemu=
add_missing() {
	case " $missing_pkgs " in *" $1 "*) ;; *) missing_pkgs="$missing_pkgs $1" ;; esac
}
check() {
	for pair in $*; do
		tool=${pair%%:*} pkg=${pair#*:}
		case "$tool" in
		/*) [ -e "$tool" ] || add_missing "$pkg" ;;
		*) command -v "$tool" >/dev/null 2>&1 || add_missing "$pkg" ;;
		esac
	done
}

for profile in "$@"; do
	case "$profile" in
	build) check "$need_build" ;;
	iso) check "$need_build $need_iso" ;;
	boot) check "$need_build $need_qemu"; wants_qemu=1 ;;
	run) check "$need_build $need_iso $need_qemu"; wants_qemu=1 ;;
	test) check "$need_build $need_iso $need_qemu $need_test $need_debug"; wants_qemu=1 ;;
	bench) check "$need_build $need_qemu $need_test $need_bench"; wants_qemu=1 ;;
	debug) check "$need_build $need_qemu $need_debug"; wants_qemu=1 ;;
	all) check "$need_build $need_iso $need_qemu $need_test $need_bench $need_debug"; wants_qemu=1 ;;
	*) echo "deps.sh: unknown profile '$profile'" >&2; exit 2 ;;
	esac
done

if [ -n "$missing_pkgs" ]; then
	if ! command -v apt-get >/dev/null 2>&1; then
		echo "Arbor needs these packages, and this machine has no apt-get to install them:$missing_pkgs" >&2
		exit 1
	fi
	if [ "$(id -u)" = 0 ]; then sudo=
	elif command -v sudo >/dev/null 2>&1; then sudo=sudo
	else
		echo "Arbor needs these packages; install them as root: apt-get install --no-install-recommends$missing_pkgs" >&2
		exit 1
	fi
	echo "Installing missing packages:$missing_pkgs" >&2
	export DEBIAN_FRONTEND=noninteractive
	log=$(mktemp)
	if ! { $sudo apt-get update -q && $sudo apt-get install -y -q --no-install-recommends $missing_pkgs; } >"$log" 2>&1; then
		tail -n 20 "$log" >&2
		rm -f "$log"
		echo "Could not install:$missing_pkgs. Install them by hand: sudo apt-get install --no-install-recommends$missing_pkgs" >&2
		exit 1
	fi
	rm -f "$log"
	echo "Installed:$missing_pkgs" >&2
fi

# QEMU older than 4.0 cannot boot a PVH kernel with -kernel.
if [ -n "$wants_qemu" ]; then
	if command -v qemu-system-x86_64 >/dev/null 2>&1; then
		v=$(qemu-system-x86_64 --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p' | head -n1)
		if [ -n "$v" ] && [ "$v" -lt 4 ]; then
			echo "QEMU $v is too old: Arbor needs QEMU 4.0 or newer (Debian 12 ships 7.2); upgrade qemu-system-x86." >&2
			exit 1
		fi
	fi
fi
exit 0
