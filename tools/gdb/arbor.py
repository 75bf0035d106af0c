# Arbor's gdb extension: the kernel's processes, threads and cgroups read
# from its tables, and debugging one user program among many that share
# the same user addresses (docs/debugging.md, "Debugging your own program").
#
# Loaded by `tools/arbor-run --gdb` and `make debug` (source tools/gdb/arbor.py).
# Commands:
#   arbor ps                processes and their threads, with their cgroups
#   arbor current           what the CPU runs now
#   arbor cgroup PATH       a cgroup's interface files, from kernel state
#   arbor target NAME       debug program NAME: stop at its main and at its
#                           faults (SIGSEGV...), and from then on make user
#                           breakpoints fire in its process only
#   arbor next|step|finish  gdb's next/step/finish kept inside the target's
#                           thread (aliases anext, astep, afinish); after
#                           gdb's own, a note when they ended outside it
# `bt` in kernel code goes on through the entry code's trap frame into the
# user frames of the target (TrapUnwinder below).
# Convenience functions: $arbor_pid() (the current process's pid, 0 for
# kernel threads), $arbor_tid(), $arbor_in_target() (1 when the current
# process is the target).
#
# Everything is read from kernel memory through the kernel's symbols (the
# gdb stub sees the machine, not processes): the running thread is
# cpus[N].current (kernel/arch/gdt.c), processes are found through the pid
# table (kernel/proc/proc.c) and cgroups from cg_root down.

import gdb
try:
    import gdb.unwinder
except ImportError:  # a gdb without Python unwinders: no backtraces into user frames
    pass

USER_TOP = 0x0000800000000000	# user addresses are below (docs/memory.md)


# -- reading kernel memory -------------------------------------------------

def _kernel_objfile():
    """The kernel's ELF: the main file (the program's symbols are added)."""
    name = gdb.current_progspace().filename
    o = gdb.lookup_objfile(name) if name else None
    if o is None:
        raise gdb.GdbError("arbor: the kernel's ELF is not loaded (gdb build/arbor.elf)")
    return o


def _sym(name):
    """The value of kernel variable name (a global, else a file's static),
    looked up in the kernel's symbols only: the program may use the name."""
    o = _kernel_objfile()
    s = o.lookup_global_symbol(name) or o.lookup_static_symbol(name)
    if s is None:
        raise gdb.GdbError(f"arbor: no kernel symbol {name} (is the kernel's ELF loaded?)")
    return s.value()


_types = {}
# A kernel symbol from the file that defines each type the extension reads:
# the type is looked up from that file's scope, since elsewhere it may be
# only declared, and gdb completes a declared type by name from any file,
# the program's too (a program with its own `struct thread` is enough).
_TYPE_HOMES = {"struct thread": "proc_find_locked", "struct proc": "proc_find_locked",
               "struct cgroup": "cg_root", "struct trap_frame": "trap_dispatch",
               "struct pids_state": "cg_pids"}


def _ktype(name):
    """Kernel type name (e.g. "struct proc"), from the kernel's debug
    information only: the program may define a type of the same name."""
    if name not in _types:
        o = _kernel_objfile()
        home = _TYPE_HOMES.get(name, "kmain")
        sym = o.lookup_global_symbol(home) or o.lookup_static_symbol(home)
        if sym is None:
            raise gdb.GdbError(f"arbor: no kernel symbol {home} to find {name} by")
        _types[name] = gdb.lookup_type(name, sym.symtab.static_block())
    return _types[name]


def _as(ptr, name):
    """Pointer ptr as the kernel's struct name (a value), or None for NULL."""
    return ptr.cast(_ktype(name).pointer()).dereference() if int(ptr) else None


def _offsetof(struct, field):
    t = _ktype(struct)
    for f in t.fields():
        if f.name == field:
            return f.bitpos // 8
    raise gdb.GdbError(f"arbor: {struct} has no field {field}")


def _container(ptr, struct, field):
    """The struct holding list_head ptr as field (container_of)."""
    addr = int(ptr) - _offsetof(struct, field)
    return gdb.Value(addr).cast(_ktype(struct).pointer()).dereference()


def _list(head, struct, field):
    """The entries of the list at head (a struct list_head value)."""
    first = head.address
    node = head["next"]
    n = 0
    while int(node) != int(first):
        if not int(node):  # not set up yet (early boot: the list is zeroed)
            return
        yield _container(node, struct, field)
        node = node["next"]
        n += 1
        if n > 1000000:
            raise gdb.GdbError("arbor: a list that does not end (corrupt or changing)")


def _str(chars):
    return chars.string(errors="replace") if chars.type.code == gdb.TYPE_CODE_PTR else \
        bytes(int(chars[i]) for i in range(chars.type.sizeof)).split(b"\0")[0].decode("utf-8", "replace")


def _cpu_index():
    th = gdb.selected_thread()
    return th.num - 1 if th is not None else 0   # QEMU: one gdb thread per vCPU


def current_thread():
    """The running thread of the selected CPU (a struct thread value) or None."""
    return _as(_sym("cpus")[_cpu_index()]["current"], "struct thread")


def current_proc():
    t = current_thread()
    return _as(t["proc"], "struct proc") if t is not None else None


def _pc():
    return int(gdb.parse_and_eval("$pc")) & 0xffffffffffffffff


def _sp():
    return int(gdb.parse_and_eval("$sp")) & 0xffffffffffffffff


def procs():
    """Every process in the pid table, by pid."""
    table = _sym("pid_hash")
    lo, hi = table.type.range()
    found = [p for i in range(lo, hi + 1) for p in _list(table[i], "struct proc", "hash_link")]
    return sorted(found, key=lambda p: int(p["pid"]))


def cgroup_path(cg):
    """The path of cgroup cg (a struct cgroup value or pointer) from the root."""
    if cg.type.code == gdb.TYPE_CODE_PTR:
        cg = _as(cg, "struct cgroup")
        if cg is None:
            return "?"
    parts = []
    while int(cg["parent"]):
        parts.append(_str(cg["name"]))
        cg = _as(cg["parent"], "struct cgroup")
    return "/" + "/".join(reversed(parts))


def cgroup_find(path):
    cg = _sym("cg_root").cast(_ktype("struct cgroup"))
    for part in [x for x in path.split("/") if x]:
        for child in _list(cg["children"], "struct cgroup", "sibling"):
            if _str(child["name"]) == part:
                cg = child
                break
        else:
            raise gdb.GdbError(f"arbor: no cgroup {path}")
    return cg


THREAD_STATES = {0: "runnable", 1: "blocked", 2: "dead", 3: "in-call"}


def _state_name(v):
    return THREAD_STATES.get(int(v), str(int(v)))


# -- the target process -------------------------------------------------------

class Target:
    name = None	# the program's name (its process's name after execve)
    pid = 0		# its process once it reached main
    tid = 0		# the thread being stepped (its main thread until another stops)


def in_target():
    """Whether the CPU runs the target's process (False when unreadable:
    a condition that raised would stop gdb in any process)."""
    try:
        p = current_proc()
        return p is not None and Target.pid != 0 and int(p["pid"]) == Target.pid
    except gdb.error:
        return False


class _Pid(gdb.Function):
    """$arbor_pid(): the pid of the current process (0: a kernel thread)."""

    def __init__(self):
        super().__init__("arbor_pid")

    def invoke(self):
        p = current_proc()
        return int(p["pid"]) if p is not None else -1


class _Tid(gdb.Function):
    """$arbor_tid(): the tid of the running thread."""

    def __init__(self):
        super().__init__("arbor_tid")

    def invoke(self):
        t = current_thread()
        return int(t["tid"]) if t is not None else -1


class _InTarget(gdb.Function):
    """$arbor_in_target(): 1 when the CPU runs the target process (arbor target)."""

    def __init__(self):
        super().__init__("arbor_in_target")

    def invoke(self):
        return 1 if in_target() else 0


TARGET_COND = "$arbor_in_target()"


class MainBreakpoint(gdb.Breakpoint):
    """The target's main: stops in the first process of that name to get
    there, which becomes the target; other programs' code at the same
    address and other processes of the same program do not stop."""

    def __init__(self, name):
        super().__init__("main", type=gdb.BP_BREAKPOINT, temporary=True)
        self.name = name

    def stop(self):
        try:
            return self._stop()
        except gdb.error as e:  # an exception would stop gdb wherever it is
            gdb.write(f"arbor: reading the kernel's state failed at main: {e}\n")
            return False

    def _stop(self):
        p = current_proc()
        if p is None or _str(p["name"]) != self.name or _pc() >= USER_TOP:
            return False
        if Target.pid and int(p["pid"]) != Target.pid:
            return False
        Target.pid = int(p["pid"])
        Target.tid = int(current_thread()["tid"])
        return True


SIGNALS = {4: "SIGILL", 5: "SIGTRAP", 7: "SIGBUS", 8: "SIGFPE", 11: "SIGSEGV"}


class FaultBreakpoint(gdb.Breakpoint):
    """The kernel's signal_fault (kernel/proc/signal.c), where a fault of a
    user thread becomes a signal: stops when the thread is the target's,
    before the kernel kills it or runs its handler, as gdb stops a native
    program that receives SIGSEGV. `bt` then goes through the trap frame
    into the program (TrapUnwinder); `continue` lets the signal happen."""

    def __init__(self):
        super().__init__("kernel/proc/signal.c:signal_fault", type=gdb.BP_BREAKPOINT)

    def stop(self):
        if not in_target():
            return False
        try:
            f = gdb.selected_frame()
            sig, addr = int(f.read_var("sig")), int(f.read_var("addr"))
            tf = f.read_var("tf").dereference()
            gdb.write(f"arbor: the target (pid {Target.pid}) gets {SIGNALS.get(sig, sig)} for a fault "
                      f"at ip {int(tf['rip']):#x} (vector {int(tf['vector'])}, address {addr:#x}); "
                      "bt shows where, 'continue' lets it happen\n")
        except (gdb.error, ValueError):
            pass
        return True


def _user_locations(bp):
    locs = getattr(bp, "locations", None)
    if locs is None:  # gdb before 13: judge by the location's text
        return True
    return any(l.address is not None and int(l.address) < USER_TOP for l in locs)


def _on_breakpoint_created(bp):
    """A breakpoint in user code while a target is set fires only in the
    target's process: the same addresses hold every program's code."""
    if Target.name is None or bp.number <= 0 or isinstance(bp, (MainBreakpoint, FaultBreakpoint, _Until)):
        return
    if bp.type != gdb.BP_BREAKPOINT and bp.type != getattr(gdb, "BP_HARDWARE_BREAKPOINT", -1):
        return
    if bp.condition is None and _user_locations(bp):
        bp.condition = TARGET_COND


# -- stepping inside one thread ---------------------------------------------------
#
# QEMU's gdb stub steps one instruction with interrupts held off, but every
# other way of moving on (a breakpoint at a return address, a continue over
# a system call or a page fault) lets the timer switch to other processes,
# which run the same user addresses and would stop on gdb's own internal
# breakpoints. So these commands single-step themselves and run on only
# with breakpoints whose stop() checks the thread (and the stack depth).

class _Until(gdb.Breakpoint):
    """An internal breakpoint at addr that stops only in thread tid, with
    the stack pointer at least min_sp, and (user_cs) only on its way to
    user mode (iretq with a user CS in the frame)."""

    def __init__(self, addr, tid, min_sp=0, user_cs=False):
        super().__init__(f"*{addr:#x}", type=gdb.BP_BREAKPOINT, internal=True)
        self.addr = addr
        self.tid, self.min_sp, self.user_cs, self.fired = tid, min_sp, user_cs, False

    def stop(self):
        try:
            return self._stop()
        except gdb.error:
            return False

    def _stop(self):
        t = current_thread()
        if t is None or int(t["tid"]) != self.tid or _sp() < self.min_sp:
            return False
        if self.user_cs:
            cs = int(gdb.parse_and_eval("*(unsigned long *)($sp + 8)"))
            if cs & 3 != 3:
                return False
        self.fired = True
        return True


def _asm_addr(label, insn):
    """The address of the first insn (mnemonic) at or after kernel label."""
    start = int(gdb.parse_and_eval(f"(unsigned long)&{label}"))
    arch = gdb.selected_frame().architecture()
    for d in arch.disassemble(start, count=64):
        if d["asm"].split()[0] == insn:
            return d["addr"]
    raise gdb.GdbError(f"arbor: no {insn} after {label}")


def _on_stop(event):
    """After gdb's own stepping commands: say when they ended outside the
    target (another process at the same address, or the kernel's entry
    after a fault), which gdb cannot tell."""
    if _Quiet.active or Target.pid == 0 or isinstance(event, (gdb.BreakpointEvent, gdb.SignalEvent)):
        return
    try:
        p = current_proc()
        pid = int(p["pid"]) if p is not None else 0
        pc = _pc()
    except gdb.error:
        return
    if pid != Target.pid:
        gdb.write(f"arbor: note: this is process {pid}, not the target {Target.pid}: gdb's own "
                  "next/step/finish follow the machine; arbor next/step/finish stay in the target\n")
    elif pc >= USER_TOP:
        gdb.write("arbor: note: the target is in the kernel now (a fault, a system call or an "
                  "interrupt); arbor next/step/finish step over those\n")


class _Quiet:
    """Keeps gdb's own stop reports (each stepi, each internal breakpoint)
    off the terminal while a command steps (gdb 12's
    suppress-cli-notifications; gdb prints them even under
    gdb.execute(to_string=True))."""

    active = False

    def __enter__(self):
        _Quiet.active = True
        gdb.execute("set suppress-cli-notifications on", to_string=True)

    def __exit__(self, *exc):
        gdb.execute("set suppress-cli-notifications off", to_string=True)
        _Quiet.active = False
        return False


class Interrupted(Exception):
    """The run stopped elsewhere (a user breakpoint, ^C, the end)."""


def _stop_reason(event):
    """What a gdb stop event says stopped the machine, in words."""
    if isinstance(event, gdb.BreakpointEvent):
        return "breakpoint " + ",".join(str(b.number) for b in event.breakpoints)
    if isinstance(event, gdb.SignalEvent):
        return "signal " + event.stop_signal
    return type(event).__name__


def _step_one():
    """gdb's stepi, again while the machine stood still: QEMU's TCG stub now
    and then ends a single step before the instruction ran (seen on a
    loaded host); a person would type stepi again."""
    before = (_pc(), _sp())
    for _ in range(8):
        gdb.execute("stepi", to_string=True)
        if (_pc(), _sp()) != before:
            return


def _breakpoint_here():
    """Whether an enabled breakpoint of the session sits at the pc."""
    pc = _pc()
    return any(b.enabled and any(loc.enabled and loc.address == pc for loc in b.locations)
               for b in gdb.breakpoints() if b.type == gdb.BP_BREAKPOINT)


def _run(bps):
    """Continue until one of bps stops (deleted afterwards either way).
    From a pc holding a breakpoint, gdb steps over it with one single step
    first, and that step can end before the instruction ran (_step_one):
    gdb then reports the same breakpoint again, nothing having run. So
    such a step is made here first, checked."""
    seen = []
    record = seen.append
    gdb.events.stop.connect(record)
    try:
        out = ""
        if _breakpoint_here():
            _step_one()
        # the step may have reached one of bps: gdb checks only where it stops
        if not any(b.addr == _pc() and b.stop() for b in bps):
            out = gdb.execute("continue", to_string=True)
    except gdb.error as e:
        raise Interrupted(str(e))
    finally:
        gdb.events.stop.disconnect(record)
        fired = any(b.fired for b in bps)
        for b in bps:
            if b.is_valid():
                b.delete()
    if not fired:
        why = ", ".join(_stop_reason(e) for e in seen) or "no stop event"
        raise Interrupted(f"a breakpoint or ^C stopped it first: {why}; gdb said {out.strip()!r}")


def _run_to(addr, tid, min_sp=0):
    _run([_Until(addr, tid, min_sp)])


def _back_to_user(tid):
    """Thread tid is in the kernel (a system call, a fault, an interrupt):
    run until it returns to user mode, then step once into user code."""
    _run([_Until(_asm_addr("trap_return", "iretq"), tid, user_cs=True),
          _Until(_asm_addr("syscall_return", "sysretq"), tid)])
    _step_one()


def _insn():
    d = gdb.selected_frame().architecture().disassemble(_pc())[0]
    return d["asm"].split()[0], d["length"]


def _stepi(tid, over_calls):
    """One instruction of thread tid in user mode; a call (over_calls) and
    a syscall run whole, a fault or interrupt back to user mode."""
    pc, sp = _pc(), _sp()
    op, length = _insn()
    if op == "syscall":
        _run_to(pc + length, tid, sp)
        return
    if over_calls and op.startswith("call"):
        _run_to(pc + length, tid, sp)
        return
    _step_one()
    if _pc() >= USER_TOP:
        _back_to_user(tid)


def _line(pc):
    sal = gdb.find_pc_line(pc)
    return sal if sal.symtab is not None and sal.line else None


def _func_start(pc):
    """The block of the function holding pc (its .start and .end), or None."""
    try:
        b = gdb.block_for_pc(pc)
    except RuntimeError:
        return None
    while b is not None and b.function is None:
        b = b.superblock
    return b


def _after_prologue(pc):
    """Where `step` stops in the function entered at pc: the start of its
    second line-table entry (the first one is the prologue, as gdb's
    skip_prologue_using_sal finds it), or None without line information."""
    b = _func_start(pc)
    sal = _line(pc)
    if b is None or sal is None or sal.last is None:
        return None
    after = sal.last + 1
    return after if b.start <= after < b.end else None


def _print_stop(same_function):
    if gdb.selected_thread() is None:  # the connection closed: QEMU is gone
        gdb.write("the machine stopped (the program ended, or QEMU quit)\n")
        return
    sal = _line(_pc())
    if same_function and sal is not None and sal.pc == _pc():
        try:
            text = open(sal.symtab.fullname(), errors="replace").read().split("\n")[sal.line - 1]
        except (OSError, IndexError):
            text = ""
        gdb.write(f"{sal.line}\t{text}\n")
    else:
        gdb.write(gdb.execute("frame", to_string=True).split("  ", 1)[-1])


def _target_tid():
    if gdb.selected_thread() is None:
        raise gdb.GdbError("arbor: not connected to Arbor (the program ended, or QEMU quit)")
    if Target.pid == 0:
        raise gdb.GdbError("arbor: no target process yet (arbor target NAME, then continue to main)")
    if not in_target():
        raise gdb.GdbError("arbor: the CPU is not in the target process (continue to one of its breakpoints)")
    if _pc() >= USER_TOP:
        raise gdb.GdbError("arbor: stopped in the kernel; these commands step user code "
                           "(use stepi/next for kernel code, docs/debugging.md)")
    return int(current_thread()["tid"])


def step_line(over_calls):
    """gdb's next (over_calls) or step, kept inside the current thread."""
    tid = _target_tid()
    Target.tid = tid
    start = _line(_pc())
    frame = gdb.newest_frame()
    func = _func_start(_pc())
    if start is None:
        return finish()  # no line information: as gdb, run to the caller
    lo, hi = start.pc, (start.last + 1 if start.last is not None else start.pc + 1)
    entry_sp = _sp()
    try:
        with _Quiet():
            stop = _step_loop(tid, over_calls, start, frame, func, lo, hi, entry_sp)
        _print_stop(stop)
    except Interrupted as e:
        gdb.write(f"arbor: stepping stopped ({e}):\n")
        _print_stop(False)


def _step_loop(tid, over_calls, start, frame, func, lo, hi, entry_sp):
    """step_line's steps; whether it stopped in the function it started in."""
    while True:
        pc_before = _pc()
        op, length = _insn()
        calling = op.startswith("call")
        _stepi(tid, over_calls)
        pc = _pc()
        if calling and not over_calls and pc != pc_before + length:
            # stepped into a function: stop after its prologue if it
            # has lines, else run it whole back to the call's next insn
            target = _after_prologue(pc) if _line(pc) else None
            if target is None:
                _run_to(pc_before + length, tid, _sp() + 8)
                continue
            while _pc() < target and _func_start(_pc()) is not None and \
                    _func_start(_pc()).start == _func_start(pc).start:
                _stepi(tid, True)
            return False
        if not frame.is_valid() or _sp() > entry_sp + 8 and gdb.newest_frame() != frame:
            return False  # returned to the caller: stop there, as gdb
        if lo <= pc < hi:
            continue
        sal = _line(pc)
        if sal is None:
            continue
        # the start of another line, or back at the start of this one (a loop)
        if sal.pc == pc and (sal.line != start.line or sal.symtab.filename != start.symtab.filename
                             or pc == start.pc):
            return func is not None and _func_start(pc) is not None and \
                _func_start(pc).start == func.start
        lo, hi = sal.pc, (sal.last + 1 if sal.last is not None else sal.pc + 1)


def finish():
    """gdb's finish in the current thread: run until the selected frame returns."""
    tid = _target_tid()
    frame = gdb.selected_frame()
    caller = frame.older()
    if caller is None:
        raise gdb.GdbError("arbor: \"finish\" not meaningful in the outermost frame.")
    fn = frame.function()
    gdb.write("Run till exit from " + gdb.execute("frame", to_string=True).split("\n")[0] + "\n")
    sp = int(frame.read_register("rsp"))
    try:
        with _Quiet():
            _run_to(caller.pc(), tid, sp + 8)
    except Interrupted as e:
        gdb.write(f"arbor: finish stopped ({e}):\n")
        _print_stop(False)
        return
    _print_stop(False)
    rtype = fn.type.target() if fn is not None and fn.type is not None else None
    if rtype is not None and rtype.code not in (gdb.TYPE_CODE_VOID,) and \
            rtype.code in (gdb.TYPE_CODE_INT, gdb.TYPE_CODE_PTR, gdb.TYPE_CODE_ENUM,
                           gdb.TYPE_CODE_BOOL, gdb.TYPE_CODE_CHAR):
        gdb.write("Value returned is " + gdb.execute(f"print ({rtype}) $rax", to_string=True))


# -- backtraces across the user/kernel boundary ----------------------------------
#
# The kernel's entry code (kernel/arch/syscall.S, isr.S) has no unwind
# tables: it pushes a struct trap_frame and calls C with the stack pointer
# at it. This unwinder takes the frame at each return address of those
# calls and gives its caller the registers the trap frame saved: the user
# program's (a system call, a fault) or the interrupted kernel code's, so
# `bt` in the kernel goes on into the program's frames (main at the bottom).

class _FrameId:
    """What gdb identifies a frame by (both must be gdb.Values)."""

    def __init__(self, sp, pc):
        ulong = gdb.lookup_type("unsigned long")
        self.sp, self.pc = gdb.Value(sp).cast(ulong), gdb.Value(pc).cast(ulong)


class TrapUnwinder(gdb.unwinder.Unwinder if hasattr(gdb, "unwinder") else object):
    REGS = ("r15", "r14", "r13", "r12", "r11", "r10", "r9", "r8", "rbp", "rdi", "rsi",
            "rdx", "rcx", "rbx", "rax", "rip", "rsp")

    def __init__(self):
        super().__init__("arbor-trap-frame")
        self.sites = None
        self.busy = False

    def _return_sites(self):
        """The return addresses of the entry code's calls into C."""
        sites = {}
        arch = gdb.selected_inferior().architecture()
        for label in ("syscall_entry", "isr_common"):
            try:
                start = int(gdb.parse_and_eval(f"(unsigned long)&{label}"))
            except gdb.error:
                continue
            for d in arch.disassemble(start, count=80):
                op = d["asm"].split()[0]
                if op.startswith("call"):
                    sites[d["addr"] + d["length"]] = start
                if op in ("iretq", "sysretq") and label == "isr_common":
                    break
        return sites

    def __call__(self, pending):
        if self.busy:
            return None
        self.busy = True
        try:
            if self.sites is None:
                self.sites = self._return_sites()
            pc = int(pending.read_register("rip")) & 0xffffffffffffffff
            if pc not in self.sites:
                return None
            sp = int(pending.read_register("rsp")) & 0xffffffffffffffff
            tf = gdb.Value(sp).cast(_ktype("struct trap_frame").pointer()).dereference()
            info = pending.create_unwind_info(_FrameId(sp, self.sites[pc]))
            # another process's user code: the symbols loaded are the
            # target's, which would name its addresses wrongly; pc 0 ends
            # the backtrace at the boundary instead
            other = int(tf["cs"]) & 3 == 3 and Target.pid and not in_target()
            for r in self.REGS:
                info.add_saved_register(r, tf[r] if not (other and r == "rip")
                                        else gdb.Value(0).cast(tf[r].type))
            return info
        except gdb.error:
            return None
        finally:
            self.busy = False


# -- commands ------------------------------------------------------------------

class ArborCmd(gdb.Command):
    """Arbor's kernel state and user-program debugging: arbor ps, arbor current,
arbor cgroup PATH, arbor target NAME, arbor next, arbor step, arbor finish."""

    def __init__(self):
        super().__init__("arbor", gdb.COMMAND_USER, prefix=True)


class PsCmd(gdb.Command):
    """arbor ps: every process (pid, parent, state, cgroup, name) and its threads."""

    def __init__(self):
        super().__init__("arbor ps", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        cur = current_thread()
        cur_addr = int(cur.address) if cur is not None else 0
        gdb.write(f"{'PID':>5} {'PPID':>5} {'STATE':<7} {'CGROUP':<20} NAME\n")
        for p in procs():
            parent = int(_as(p["parent"], "struct proc")["pid"]) if int(p["parent"]) else 0
            state = "zombie" if int(p["state"]) == 1 else "alive"
            mark = "  <- target" if Target.pid and int(p["pid"]) == Target.pid else ""
            gdb.write(f"{int(p['pid']):>5} {parent:>5} {state:<7} {cgroup_path(p['cgroup']):<20} "
                      f"{_str(p['name'])}{mark}\n")
            for t in _list(p["threads"], "struct thread", "proc_link"):
                run = "  <- running" if int(t.address) == cur_addr else ""
                gdb.write(f"{'':>5}   tid {int(t['tid']):<5} {_state_name(t['state']):<9} "
                          f"{cgroup_path(t['cgroup']):<20} {_str(t['name'])}{run}\n")


class CurrentCmd(gdb.Command):
    """arbor current: the running process and thread, its cgroup, and the mode."""

    def __init__(self):
        super().__init__("arbor current", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        if gdb.selected_thread() is None:
            gdb.write("not connected to Arbor (target remote, or tools/arbor-run --gdb)\n")
            return
        t = current_thread()
        if t is None:
            gdb.write("no thread yet (early boot)\n")
            return
        p = _as(t["proc"], "struct proc")
        pc = _pc()
        mode = "user" if pc < USER_TOP else "kernel"
        where = gdb.execute(f"info symbol {pc:#x}", to_string=True).strip()
        gdb.write(f"cpu {_cpu_index()}: pid {int(p['pid'])} ({_str(p['name'])}) tid {int(t['tid'])} "
                  f"({_str(t['name'])}), cgroup {cgroup_path(t['cgroup'])}, {mode} mode at {pc:#x}"
                  f" ({where})\n")


def _max(v, unlimited, scale=1):
    return "max" if int(v) >= unlimited else str(int(v) * scale)


class CgroupCmd(gdb.Command):
    """arbor cgroup PATH: a cgroup's interface files as the kernel would show
them, read from its state (cgroup.*, and the enabled controllers' knobs and counters)."""

    def __init__(self):
        super().__init__("arbor cgroup", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        path = arg.strip() or "/"
        cg = cgroup_find(path)
        root = not int(cg["parent"])
        ctrls = _sym("cg_controllers")
        n = int(_sym("cg_nr_controllers"))
        names = {int(ctrls[i]["bit"]): ctrls[i]["name"].string() for i in range(n)}

        def mask(m):
            return " ".join(nm for bit, nm in sorted(names.items()) if int(m) & bit)
        enabled = set(names.values()) if root else \
            set(mask(_as(cg["parent"], "struct cgroup")["subtree_control"]).split())
        out = []
        # as the files show them: without the kernel's process (pid 0)
        procs_here = [str(int(p["pid"])) for p in _list(cg["procs"], "struct proc", "cg_link")
                      if int(p["pid"]) > 0]
        threads_here = [str(int(t["tid"])) for t in _list(cg["threads"], "struct thread", "cg_link")
                        if int(_as(t["proc"], "struct proc")["pid"]) > 0]
        out.append(("cgroup.procs", " ".join(procs_here)))
        out.append(("cgroup.threads", " ".join(threads_here)))
        out.append(("cgroup.controllers", " ".join(nm for nm in names.values() if nm in enabled)))
        out.append(("cgroup.subtree_control", mask(cg["subtree_control"])))
        populated = int(cg["nr_threads"]) + int(cg["nr_populated_domain_children"]) + \
            int(cg["nr_populated_threaded_children"]) > 0
        if not root:
            out.append(("cgroup.events", f"populated {int(populated)} frozen {int(cg['frozen'])}"))
            out.append(("cgroup.freeze", str(int(cg["freeze"]))))
        out.append(("cgroup.max.depth", _max(cg["max_depth"], 0x7fffffff)))
        out.append(("cgroup.max.descendants", _max(cg["max_descendants"], 0x7fffffff)))
        out.append(("cgroup.stat", f"nr_descendants {int(cg['nr_descendants'])} "
                    f"nr_dying_descendants {int(cg['nr_dying_descendants'])}"))
        g = cg["sched"]
        if "cpu" in enabled and not root:
            # weights are scaled: the root's is cpu.weight 100's (SCHED_NICE0_WEIGHT,
            # kernel/include/sched_fair.h), as sched_cpu_weight_from_weight divides
            nice0 = int(_sym("cg_root").cast(_ktype("struct cgroup"))["sched"]["weight"]) or (1024 << 10)
            w = int(g["weight"])
            out.append(("cpu.weight", "0" if bool(g["idle"]) else str((w * 100 + nice0 // 2) // nice0)))
            bw = g["bw"]
            quota = "max" if int(bw["quota"]) == 0xffffffffffffffff else str(int(bw["quota"]) // 1000)
            out.append(("cpu.max", f"{quota} {int(bw['period']) // 1000}"))
            out.append(("cpu.max.burst", str(int(bw["burst"]) // 1000)))
            out.append(("cpu.idle", str(int(bool(g["idle"])))))
        if "memory" in enabled:
            m = cg["memory"]
            unl = 0x7fffffffffffffff // 4096
            out.append(("memory.current", str(int(m["usage"]) * 4096)))
            if not root:
                out.append(("memory.min", str(int(m["min"]) * 4096)))
                out.append(("memory.low", str(int(m["low"]) * 4096)))
                out.append(("memory.high", _max(m["high"], unl, 4096)))
                out.append(("memory.max", _max(m["max"], unl, 4096)))
                out.append(("memory.peak", str(int(m["peak"]) * 4096)))
        if "pids" in enabled:
            idx = [i for i in range(n) if ctrls[i]["name"].string() == "pids"][0]
            bit = int(ctrls[idx]["bit"])
            st = cg["cstate"][bit.bit_length() - 1]
            if int(st):
                ps = st.cast(_ktype("struct pids_state").pointer()).dereference()
                out.append(("pids.current", str(int(ps["current"]))))
                if not root:
                    out.append(("pids.max", _max(ps["max"], 0xffffffffffffffff)))
                    out.append(("pids.peak", str(int(ps["peak"]))))
                    out.append(("pids.events", f"max {int(ps['events'])}"))
        # the controllers' files this cgroup has, from their tables
        # (cgroup/fs/cgfs.h: CFT_NOT_ON_ROOT 1, CFT_ONLY_ON_ROOT 2)
        present = []
        for i in range(n):
            c = ctrls[i]
            tables = [(c["core_files"], int(c["ncore_files"]))]
            if c["name"].string() in enabled:
                tables.append((c["files"], int(c["nfiles"])))
            for files, count in tables:
                for j in range(count if int(files) else 0):
                    flags = int(files[j]["flags"])
                    if not (flags & (1 if root else 2)):
                        present.append(files[j]["name"].string())
        out = [(k, v) for k, v in out if k.startswith("cgroup.") or k in present]
        shown = {k for k, _ in out}
        gdb.write(f"cgroup {cgroup_path(cg)} (id {int(cg['id'])}):\n")
        for k, v in out:
            gdb.write(f"  {k:<24} {v}\n")
        rest = [f for f in present if f not in shown]
        if rest:
            gdb.write(f"  (not read here: {' '.join(rest)})\n")


class TargetCmd(gdb.Command):
    """arbor target NAME: debug the program named NAME: a breakpoint at main
stops in the first process of that name to reach it, and from then on every
breakpoint in user code gets the condition $arbor_in_target()."""

    def __init__(self):
        super().__init__("arbor target", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        name = arg.strip()
        if not name:
            gdb.write(f"target: {Target.name or '(none)'} pid {Target.pid}\n")
            return
        Target.name, Target.pid, Target.tid = name[:31], 0, 0
        MainBreakpoint(Target.name)
        try:
            FaultBreakpoint()
        except gdb.error as e:  # a kernel without it: no stop at faults
            gdb.write(f"arbor: no stop at the target's faults ({e})\n")


class StepCmd(gdb.Command):
    """arbor step: gdb's step, inside the target's current thread (other
processes at the same addresses, interrupts, system calls and faults do not stop it)."""

    def __init__(self, name, over):
        super().__init__(name, gdb.COMMAND_RUNNING)
        self.over = over

    def invoke(self, arg, from_tty):
        for _ in range(int(arg) if arg.strip() else 1):
            step_line(self.over)


class NextCmd(StepCmd):
    """arbor next: gdb's next, inside the target's current thread (other
processes at the same addresses, interrupts, system calls and faults do not stop it)."""


class FinishCmd(gdb.Command):
    """arbor finish: gdb's finish, inside the target's current thread."""

    def __init__(self):
        super().__init__("arbor finish", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        finish()


def _init():
    _Pid()
    _Tid()
    _InTarget()
    ArborCmd()
    PsCmd()
    CurrentCmd()
    CgroupCmd()
    TargetCmd()
    StepCmd("arbor step", False)
    NextCmd("arbor next", True)
    FinishCmd()
    for alias, cmd in (("astep", "arbor step"), ("anext", "arbor next"), ("afinish", "arbor finish")):
        gdb.execute(f"alias {alias} = {cmd}")
    gdb.events.breakpoint_created.connect(_on_breakpoint_created)
    gdb.events.stop.connect(_on_stop)
    if hasattr(gdb, "unwinder"):
        gdb.unwinder.register_unwinder(None, TrapUnwinder(), replace=True)


_init()
