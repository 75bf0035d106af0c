#!/bin/sh
# Emit the kernel's function symbol table as assembly for the .ksyms section.
# Usage: gen-ksyms.sh [KERNEL.elf] > ksyms.S   (no argument: an empty table)
set -e
echo '	.section .ksyms, "a"'
echo '	.balign 8'
echo '	.globl ksyms_nr, ksyms_table, ksyms_strtab'
if [ -z "$1" ]; then
	printf 'ksyms_nr:\n\t.quad 0\nksyms_table:\nksyms_strtab:\n\t.byte 0\n'
else
	nm -n --defined-only "$1" | awk 'BEGIN { n = 0 }
		$2 ~ /^[tTwW]$/ && $1 ~ /^ffffffff8/ { addr[n] = $1; name[n] = $3; n++ }
		END {
			printf "ksyms_nr:\n\t.quad %d\nksyms_table:\n", n
			off = 0
			for (i = 0; i < n; i++) {
				printf "\t.quad 0x%s\n\t.long %d, 0\n", addr[i], off
				off += length(name[i]) + 1
			}
			printf "ksyms_strtab:\n"
			for (i = 0; i < n; i++)
				printf "\t.asciz \"%s\"\n", name[i]
		}'
fi
echo '	.section .note.GNU-stack, "", @progbits'
