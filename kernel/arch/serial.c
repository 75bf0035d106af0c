/* 16550 UART on COM1 (COM2 with console=ttyS1), polled, output only. Line endings become CRLF
 * because QEMU puts the host terminal in raw mode.
 *
 * The receive side is the console driver's (drivers/serial): the kernel
 * never reads it and never writes the FIFO control register, since
 * turning the FIFO on or clearing it drops the bytes the UART holds.
 * QEMU's UART takes input only while it has room, so what is typed or
 * piped in before the driver starts waits, none of it lost. */
#include "serial.h"
#include "arch/x86.h"

#define COM1 SERIAL_COM1
#define COM2 0x2f8
#define LSR_THR_EMPTY 0x20

/* The kernel console's UART: COM1 until console=ttyS1 moves it. */
static uint16_t serial_port = COM1;

static void serial_setup_port(uint16_t port)
{
	outb(port + 1, 0x00); /* no UART interrupts yet */
	outb(port + 3, 0x80); /* DLAB on */
	outb(port + 0, 0x01); /* divisor 1: 115200 baud */
	outb(port + 1, 0x00);
	outb(port + 3, 0x03); /* 8N1, DLAB off; the FIFO as it is (above) */
	outb(port + 4, 0x03); /* DTR, RTS */
}

void serial_init(void)
{
	serial_setup_port(COM1);
}

void serial_use_com2(void)
{
	/* COM2 is output only for the kernel: its receive side is unused. */
	serial_setup_port(COM2);
	serial_port = COM2;
}

static void serial_port_put(uint16_t port, char c)
{
	while (!(inb(port + 5) & LSR_THR_EMPTY))
		cpu_pause();
	outb(port, (uint8_t)c);
}

static void serial_put_raw(char c)
{
	serial_port_put(serial_port, c);
}

void serial_com1_raw(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		serial_port_put(COM1, s[i]);
}

void serial_putc(char c)
{
	if (c == '\n')
		serial_put_raw('\r');
	serial_put_raw(c);
}

void serial_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		serial_putc(s[i]);
}
