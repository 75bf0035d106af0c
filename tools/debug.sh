#!/bin/sh
# Starts QEMU halted at the first instruction with a gdb stub, then gdb with
# the kernel's symbols, stopped at a breakpoint on kmain (the C entry).
# Usage: tools/debug.sh KERNEL.elf INITRD CMDLINE MEM GDBPORT
set -e
kernel=$1 initrd=$2 cmdline=$3 mem=$4 port=$5
log=$(dirname "$kernel")/serial.log
: > "$log"
tools/qemu.sh --kernel "$kernel" --initrd "$initrd" --append "$cmdline" --mem "$mem" --gdb "$port" \
	--serial "file:$log" &
qemu=$!
trap 'kill $qemu 2>/dev/null || true' EXIT INT TERM
echo "QEMU is stopped at the first instruction; the serial console goes to $log"
echo "(watch it with: tail -f $log). gdb stops at kmain; 'continue' runs on."
gdb -q "$kernel" \
	-ex "source tools/gdb/arbor.py" \
	-ex "target remote 127.0.0.1:$port" \
	-ex "break kmain" \
	-ex "continue" \
	${GDB_BATCH:+-batch -ex "$GDB_BATCH"}
