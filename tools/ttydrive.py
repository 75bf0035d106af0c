#!/usr/bin/env python3
"""Drives Arbor's console as a person at a terminal does.

Boots Arbor (qemu -kernel) with QEMU's serial port on a Unix socket, so
that bytes reach the guest's UART exactly as typed, one at a time or in a
burst, and waits for what the console prints back. tools/run-tests.py uses
it for the terminal tests (echo, erase, Ctrl-C, raw mode, stty); by hand:

    tools/ttydrive.py [--build DIR] [--append CMDLINE] STEP...

where a STEP is `-t TEXT` (type TEXT, with Python escapes: \\r Enter,
\\x03 Ctrl-C, \\x7f Backspace), `-d SECONDS` (the delay between keys for
the steps after it, 0: a burst) or `-e REGEX` (wait up to --timeout
seconds for REGEX in the output since the last -e). It prints the whole
transcript and exits 0 if every -e matched, 1 if one did not.
"""
import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QEMU_SH = os.path.join(ROOT, "tools", "qemu.sh")
PROMPT = re.compile(rb"(?:^|\n)# $")


class Console:
    """One boot with the serial line on a socket: type() and expect()."""

    def __init__(self, kernel, initrd, append="", mem=256):
        self.tmp = tempfile.mkdtemp(prefix="ttydrive.")
        path = os.path.join(self.tmp, "serial.sock")
        self.qemu = subprocess.Popen(
            [QEMU_SH, "--kernel", kernel, "--initrd", initrd, "--mem", str(mem), "--append", append,
             "--serial", f"unix:{path},server=on,wait=on"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        deadline = time.monotonic() + 30
        while True:
            try:
                self.sock.connect(path)
                break
            except OSError:
                if time.monotonic() > deadline or self.qemu.poll() is not None:
                    raise RuntimeError("ttydrive: QEMU did not open the serial socket: " +
                                       self.qemu.stdout.read().decode("utf-8", "replace"))
                time.sleep(0.05)
        self.sock.setblocking(False)
        self.transcript = b""  # everything the console printed
        self.mark = 0          # expect() looks from here on

    def _pump(self, timeout):
        """Reads what the console printed within timeout seconds."""
        import select
        ready, _, _ = select.select([self.sock], [], [], max(timeout, 0))
        if ready:
            try:
                data = self.sock.recv(65536)
            except BlockingIOError:
                return
            if not data:
                raise EOFError("the serial line closed (QEMU ended)")
            self.transcript += data

    def type(self, text, delay=0.0):
        """Sends text (str or bytes); with delay, one byte every delay s."""
        data = text.encode("latin-1") if isinstance(text, str) else text
        if not delay:
            self.sock.sendall(data)
            return
        for i in range(len(data)):
            self.sock.sendall(data[i:i + 1])
            end = time.monotonic() + delay
            while time.monotonic() < end:
                try:
                    self._pump(end - time.monotonic())
                except EOFError:  # QEMU ended (poweroff): nothing more to read
                    time.sleep(max(end - time.monotonic(), 0))

    def expect(self, pattern, timeout=20.0):
        """Waits until pattern (a regex, str or bytes) is in the output since
        the last expect; returns the match (the mark moves past it), or None
        on a timeout or when QEMU ends."""
        rx = re.compile(pattern.encode("latin-1") if isinstance(pattern, str) else pattern)
        deadline = time.monotonic() + timeout
        while True:
            m = rx.search(self.transcript, self.mark)
            if m:
                self.mark = m.end()
                return m
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                self._pump(min(left, 0.2))
            except EOFError:
                return None

    def settle(self, seconds):
        """Collects output for seconds; returns what came since the mark."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                self._pump(end - time.monotonic())
            except EOFError:
                break
        return self.transcript[self.mark:]

    def since_mark(self):
        return self.transcript[self.mark:]

    def skip(self):
        """Moves the mark to the end of what has been printed."""
        self.mark = len(self.transcript)

    def close(self):
        try:
            self.sock.close()
        finally:
            if self.qemu.poll() is None:
                self.qemu.kill()
            self.qemu.wait()
            shutil.rmtree(self.tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--append", default="")
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("-t", dest="steps", action="append", type=lambda s: ("t", s))
    ap.add_argument("-e", dest="steps", action="append", type=lambda s: ("e", s))
    ap.add_argument("-d", dest="steps", action="append", type=lambda s: ("d", s))
    a = ap.parse_args()
    con = Console(os.path.join(a.build, "arbor.elf"), os.path.join(a.build, "initrd.cpio"), a.append)
    ok, delay = True, 0.0
    try:
        for kind, arg in a.steps or []:
            if kind == "d":
                delay = float(arg)
            elif kind == "t":
                con.type(arg.encode("latin-1").decode("unicode_escape").encode("latin-1"), delay)
            elif con.expect(arg, a.timeout) is None:
                ok = False
                print(f"ttydrive: no {arg!r} within {a.timeout} s", file=sys.stderr)
                break
        con.settle(0.3)
    finally:
        sys.stdout.write(con.transcript.decode("utf-8", "replace"))
        con.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
