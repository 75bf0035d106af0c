/* The console protocol: what the serial console driver (drivers/serial),
 * published as "console", answers over IPC. */
#ifndef ARBOR_ABI_CONSOLE_H
#define ARBOR_ABI_CONSOLE_H

#define CONSOLE_NAME "console"
/* With console.stderr=ttyS2 on the command line the driver also publishes
 * a write-only channel to COM3 (bytes as written, no output processing),
 * which init makes the run= program's descriptor 2: tools/arbor-run gets
 * the program's stderr apart from its stdout (docs/klog.md). */
#define CONSOLE_ERR_NAME "console.err"
#define CONSOLE_ERR_OPTION "console.stderr=ttyS2"

#include "abi/fs.h"

/* The console speaks the file protocol (abi/fs.h). */
/* Write the call's send buffer; w[0] of the reply = bytes written, after
 * output processing (OPOST: ONLCR, OCRNL). */
#define CONSOLE_WRITE FILE_WRITE
/* Read into the call's receive buffer through the line discipline:
 * canonical mode (ICANON) gives at most one line, non-canonical mode
 * follows VMIN/VTIME as Linux; w[0] of the reply = bytes read. */
#define CONSOLE_READ FILE_READ

/* Terminal control: a Linux ioctl request on the terminal (docs/console.md).
 * w0 = the request (TCGETS ... in <sys/ioctl.h>, Linux's numbers), w1 =
 * an integer argument (TCSBRK, TCFLSH); a pointer argument is the call's
 * send buffer (requests that set) or receive buffer (requests that get),
 * so the kernel and the driver check it (EFAULT). TCGETS fills 36 bytes
 * (Linux's kernel struct termios) or, with a 60-byte buffer, glibc's
 * struct termios (c_cc[19..31] 0, c_ispeed and c_ospeed from c_cflag).
 * Unknown requests are ENOTTY, as Linux. */
#define CONSOLE_IOCTL 0x204

/* The terminal state the driver keeps: Linux's kernel struct termios
 * (x86_64, 36 bytes), the prefix of the C library's struct termios. */
#define CONSOLE_NCCS 19
struct console_termios {
	uint32_t iflag, oflag, cflag, lflag;
	uint8_t line;
	uint8_t cc[CONSOLE_NCCS];
};
/* The same with glibc's tail (what tcgetattr reads in one call). */
struct console_termios_full {
	struct console_termios k;
	uint8_t cc_rest[32 - CONSOLE_NCCS];
	uint8_t pad[3];
	uint32_t ispeed, ospeed;
};
_Static_assert(sizeof(struct console_termios) == 36, "Linux's struct termios");
_Static_assert(sizeof(struct console_termios_full) == 60, "glibc's struct termios");

/* The requests (Linux's numbers, as <sys/ioctl.h>). */
#define CONSOLE_TCGETS     0x5401
#define CONSOLE_TCSETS     0x5402
#define CONSOLE_TCSETSW    0x5403
#define CONSOLE_TCSETSF    0x5404
#define CONSOLE_TCSBRK     0x5409
#define CONSOLE_TCFLSH     0x540B
#define CONSOLE_TIOCGPGRP  0x540F
#define CONSOLE_TIOCSPGRP  0x5410
#define CONSOLE_TIOCOUTQ   0x5411
#define CONSOLE_TIOCGWINSZ 0x5413
#define CONSOLE_TIOCSWINSZ 0x5414
#define CONSOLE_FIONREAD   0x541B

#endif
