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

cd "$out/build"
../newlib-salsa/configure --target=x86_64-elf --prefix="$out/install" --disable-multilib \
	--disable-newlib-supplied-syscalls --enable-newlib-io-long-long \
	--enable-newlib-io-c99-formats \
	CFLAGS_FOR_TARGET="-O2 -g -ffreestanding -fno-stack-protector -mno-red-zone" \
	> "$out/configure.log" 2>&1 || { tail -20 "$out/configure.log"; exit 1; }
make -j2 all-target-newlib > "$out/make.log" 2>&1 || { tail -40 "$out/make.log"; exit 1; }
make install-target-newlib > "$out/install.log" 2>&1 || { tail -20 "$out/install.log"; exit 1; }
# newlib installs only its own include folders: the overlay's Linux uapi
# headers (<linux/...>) go in by hand.
mkdir -p "$out/install/x86_64-elf/include/linux"
cp "$root/user/newlib/overlay/newlib/libc/include/linux/"*.h "$out/install/x86_64-elf/include/linux/"
echo "newlib installed in $out/install/x86_64-elf"
