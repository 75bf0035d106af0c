/* Values the kernel writes to QEMU's isa-debug-exit port (0xf4). QEMU exits
 * with status (value << 1) | 1, so 0 (a triple fault) is never success. */
#ifndef ARBOR_ABI_QEMU_EXIT_H
#define ARBOR_ABI_QEMU_EXIT_H

#define QEMU_EXIT_PORT     0xf4
#define QEMU_EXIT_SUCCESS  0x10 /* host sees 33 */
#define QEMU_EXIT_FAILURE  0x11 /* host sees 35 */
#define QEMU_EXIT_PANIC    0x12 /* host sees 37 */

#endif
