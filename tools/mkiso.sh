#!/bin/sh
# Builds a GRUB (multiboot2) boot ISO for the kernel.
# Usage: tools/mkiso.sh KERNEL.elf INITRD.cpio CMDLINE OUT.iso
set -e
kernel=$1 initrd=$2 cmdline=$3 out=$4
if [ ! -d /usr/lib/grub/i386-pc ]; then
	echo "mkiso: GRUB's BIOS modules are missing: run 'sudo apt-get install grub-pc-bin' (or 'make deps')." >&2
	exit 1
fi
dir=$(mktemp -d)
log=$(mktemp) # outside $dir: xorriso fails if a file it packs grows meanwhile
trap 'rm -rf "$dir" "$log"' EXIT
mkdir -p "$dir/boot/grub"
cp "$kernel" "$dir/boot/arbor.elf"
cp "$initrd" "$dir/boot/initrd.cpio"
# No menu, and GRUB never touches the serial line: its `serial` command
# turns the UART's FIFO on (dropping the byte the UART holds) and
# `terminal_input serial` would read what is typed or piped in for the
# shell as menu keys. Input waits in the UART for the console driver
# (docs/drivers.md); GRUB's own messages go to the (absent) screen.
cat > "$dir/boot/grub/grub.cfg" <<CFG
set timeout=0
set default=0
menuentry "Arbor" {
	multiboot2 /boot/arbor.elf $cmdline
	module2 /boot/initrd.cpio initrd
	boot
}
CFG
if ! grub-mkrescue -o "$out" "$dir" \
	--install-modules="multiboot2 normal part_msdos iso9660 biosdisk" \
	--fonts= --locales= --themes= >"$log" 2>&1; then
	cat "$log" >&2
	echo "mkiso: grub-mkrescue could not build $out (see above); is xorriso installed? ('make deps')" >&2
	exit 1
fi
