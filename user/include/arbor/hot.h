/* ARBOR_HOT marks the functions a file operation runs on its way through
 * the C library and a file-system server (a direct call's route and path
 * arithmetic, the server's loop and walk). GCC places hot functions in
 * .text.hot, which the linker puts together at the start of .text.
 *
 * Why: QEMU's TCG flushes its whole software TLB at every address-space
 * switch, and a direct call switches twice; each code page touched
 * afterwards costs a page walk (docs/architecture.md, "Hot path layout",
 * the kernel's side of the same idea). Spread over a server's or a
 * program's .text these functions touched 9 to 10 code pages between two
 * switches. A missing mark costs only speed. */
#ifndef ARBOR_HOT_H
#define ARBOR_HOT_H

#define ARBOR_HOT __attribute__((hot))

#endif
