#!/bin/sh
# Builds newlib 3.3.0 (Debian's newlib-source) for Arbor's user space, with
# Arbor's overlay of Linux-valued headers (user/newlib/overlay) copied over
# the sources first, so newlib and programs agree with the kernel's ABI.
# Usage: tools/build-newlib.sh OUTDIR    (installs into OUTDIR/install)
# The result is cached by the Makefile; this takes 1.5-3 minutes.
set -e
out=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
tarball=/usr/src/newlib/newlib-3.3.0.tar.xz
if [ ! -f "$tarball" ]; then
	echo "build-newlib: $tarball is missing: run 'sudo apt-get install newlib-source' (or 'make deps')." >&2
	exit 1
fi
rm -rf "$out"
mkdir -p "$out/bin" "$out/build"
tar xf "$tarball" -C "$out"
cp -R "$root/user/newlib/overlay/." "$out/newlib-salsa/"

# newlib's build calls x86_64-elf-* tools: the host's, freestanding.
cat > "$out/bin/x86_64-elf-gcc" <<WRAP
#!/bin/sh
exec gcc -nostdinc -isystem "$(gcc -print-file-name=include)" -fno-pie -fno-pic "\$@"
WRAP
cp "$out/bin/x86_64-elf-gcc" "$out/bin/x86_64-elf-cc"
for t in ar as ld nm ranlib objcopy objdump strip readelf; do
	printf '#!/bin/sh\nexec %s "$@"\n' "$t" > "$out/bin/x86_64-elf-$t"
done
chmod +x "$out/bin"/*
export PATH="$out/bin:$PATH"

# --enable-newlib-retargetable-locking: newlib's locks (heap, stdio,
# environment, ...) call __retarget_lock_*, which user/libc/newlib_lock.c makes
# real; without it they are empty macros and threads break the heap.
# HAVE_MKDIR: mkdtemp makes its directory (without it, ENOSYS).
# GETREENT_PROVIDED: __getreent() is Arbor's (user/libc/pthread.c: the
# calling thread's struct _reent), not newlib's (always the main one's).
cd "$out/build"
../newlib-salsa/configure --target=x86_64-elf --prefix="$out/install" --disable-multilib \
	--disable-newlib-supplied-syscalls --enable-newlib-io-long-long \
	--enable-newlib-io-c99-formats --enable-newlib-iconv --enable-newlib-retargetable-locking \
	CFLAGS_FOR_TARGET="-O2 -g -ffreestanding -fno-stack-protector -mno-red-zone -DHAVE_MKDIR -DGETREENT_PROVIDED" \
	> "$out/configure.log" 2>&1 || { tail -20 "$out/configure.log"; exit 1; }
make -j2 all-target-newlib > "$out/make.log" 2>&1 || { tail -40 "$out/make.log"; exit 1; }
make install-target-newlib > "$out/install.log" 2>&1 || { tail -20 "$out/install.log"; exit 1; }
# newlib's install copies only the header directories it knows (sys/,
# machine/, ...): Arbor's own (linux/, Linux's interface headers) too
for d in "$root"/user/newlib/overlay/newlib/libc/include/*/; do
	name=$(basename "$d")
	[ -d "$out/install/x86_64-elf/include/$name" ] || cp -R "$d" "$out/install/x86_64-elf/include/$name"
done

# newlib's own POSIX regex, glob and fnmatch (libc/posix), which its
# configure builds only for some targets: compiled here against the
# installed headers and added to libc.a (docs/libc.md).
inst="$out/install/x86_64-elf"
posix="$out/newlib-salsa/newlib/libc/posix"
mkdir -p "$out/posix"
for f in regcomp regexec regerror regfree glob fnmatch collate collcmp; do
	x86_64-elf-gcc -O2 -g -ffreestanding -fno-stack-protector -mno-red-zone -D_GNU_SOURCE \
		-isystem "$inst/include" -I "$posix" -c "$posix/$f.c" -o "$out/posix/lib_a-$f.o" \
		>> "$out/make.log" 2>&1 || { tail -20 "$out/make.log"; exit 1; }
done
x86_64-elf-ar rs "$inst/lib/libc.a" "$out/posix"/*.o
# Headers newlib installs that no program can use (each includes a
# machine header this target lacks, or declares a library newlib does
# not build): a program is told at compile time, not at link time.
for h in regdef.h sys/custom_file.h sys/iconvnls.h threads.h utmp.h; do
	rm -f "$inst/include/$h"
done
echo "newlib installed in $out/install/x86_64-elf"
