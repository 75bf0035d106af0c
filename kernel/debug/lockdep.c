/* The lock-order checker of the debug kernel (CONFIG_LOCKDEP: make kcov's
 * build), after Linux's lockdep. Locks are grouped in classes by name
 * (SPINLOCK_INIT's); each acquisition records, for every class this CPU
 * holds, that it comes before the new one. A new order that closes a
 * cycle (A before B somewhere, B before A here) is a possible deadlock:
 * the kernel panics with the chain, the stack that first took each step
 * of it, and this stack — whether or not the deadlock happened this time.
 * Also: a class taken inside an interrupt handler and elsewhere with
 * interrupts on (the handler could spin on its own CPU's holder), and
 * releasing a lock this CPU does not hold. Same-class nesting is not
 * checked (no nesting annotations yet). Unnamed locks are not tracked.
 * Contract in spinlock.h; docs/locking.md, "The checker". */
#include "spinlock.h"
#include "arch/x86.h"
#include "kstring.h"
#include "panic.h"
#include "percpu.h"
#include "printk.h"
#include "ksyms.h"
#include "bootinfo.h"
#include "format.h"

#ifdef CONFIG_LOCKDEP

#define LD_CLASSES 256
#define LD_WORDS   (LD_CLASSES / 64)
#define LD_EDGES   2048
#define LD_DEPTH   32	/* locks one CPU may hold at once */
#define LD_PCS     8	/* return addresses kept per recorded stack */

struct ld_stack {
	uint64_t pc[LD_PCS];
};

struct ld_class {
	const char *name;
	bool in_irq, irqs_on;		/* ever taken in a handler / with interrupts on */
	struct ld_stack irq_stack, on_stack; /* the first of each */
};

struct ld_edge {
	uint16_t from, to;
	uint32_t cpu;
	struct ld_stack stack;		/* where "to" was first taken holding "from" */
};

struct ld_cpu {
	struct spinlock *held[LD_DEPTH];
	unsigned n, overflow, irq_depth;
};

static struct ld_class ld_class[LD_CLASSES]; /* [0] unused: class 0 is "not looked up" */
static unsigned ld_nr_classes = 1;
static uint64_t ld_after[LD_CLASSES][LD_WORDS]; /* ld_after[a] has b: a was held taking b */
static struct ld_edge ld_edge[LD_EDGES];
static unsigned ld_nr_edges;
static struct ld_cpu ld_cpu[MAX_CPUS];
static volatile uint32_t ld_graph_lock; /* the tables' writers; a raw lock, itself untracked */
static bool ld_ready, ld_off;
static bool ld_warn; /* lockdep=warn: report every finding and go on */
static unsigned ld_warnings;

void lockdep_init(void)
{
	ld_ready = true;
}

void lockdep_setup(const char *cmdline)
{
	char v[8];
	if (cmdline_get(cmdline, "lockdep", v, sizeof(v)) && strcmp(v, "warn") == 0)
		ld_warn = true;
}

/* A finding: the panic (or, with lockdep=warn, the same report and on). */
static void ld_report(void (*print)(void *), void *arg, const char *what)
{
	if (!ld_warn) {
		ld_off = true;
		panic_report(print, arg, "lockdep: %s", what);
	}
	ld_warnings++;
	printk_panic("lockdep warning %u: %s\n", ld_warnings, what);
	print(arg);
	backtrace_print((uint64_t)__builtin_frame_address(0), (uint64_t)__builtin_return_address(0));
}

static void ld_lock(void)
{
	while (__atomic_exchange_n(&ld_graph_lock, 1, __ATOMIC_ACQUIRE))
		cpu_pause();
}

static void ld_unlock(void)
{
	__atomic_store_n(&ld_graph_lock, 0, __ATOMIC_RELEASE);
}

/* noinline, as ld_order and ld_irq_state: the frames it skips are
 * theirs and lockdep_acquire's. */
static __attribute__((noinline)) void ld_save_stack(struct ld_stack *s)
{
	uint64_t rbp = (uint64_t)__builtin_frame_address(0);
	memset(s, 0, sizeof(*s));
	/* skip lockdep's own frames: start where spin_lock was called */
	for (int i = 0, skip = 2; i < LD_PCS + skip && rbp >= 0xffff800000000000ull && !(rbp & 7); i++) {
		const uint64_t *frame = (const uint64_t *)rbp;
		if (!frame[1])
			break;
		if (i >= skip)
			s->pc[i - skip] = frame[1] - 1;
		if (frame[0] <= rbp)
			break;
		rbp = frame[0];
	}
}

static void ld_print_stack(const struct ld_stack *s)
{
	for (int i = 0; i < LD_PCS && s->pc[i]; i++) {
		uint64_t off = 0;
		const char *name = ksyms_lookup(s->pc[i], &off);
		printk_panic("    [<%p>] %s+0x%lx\n", (void *)s->pc[i], name ? name : "?", off);
	}
}

/* The class of l, found (or made) by name on its first acquisition. */
static unsigned ld_class_of(struct spinlock *l)
{
	if (l->ld_class)
		return l->ld_class;
	unsigned c;
	ld_lock();
	for (c = 1; c < ld_nr_classes; c++)
		if (ld_class[c].name == l->name || strcmp(ld_class[c].name, l->name) == 0)
			break;
	if (c == ld_nr_classes) {
		if (c == LD_CLASSES) {
			ld_unlock();
			return 0; /* the table is full: untracked */
		}
		ld_class[c].name = l->name;
		ld_nr_classes++;
	}
	ld_unlock();
	l->ld_class = (uint16_t)c;
	return c;
}

static bool ld_has(unsigned a, unsigned b)
{
	return (__atomic_load_n(&ld_after[a][b / 64], __ATOMIC_RELAXED) >> (b % 64)) & 1;
}

static struct ld_edge *ld_edge_find(unsigned a, unsigned b)
{
	for (unsigned i = 0; i < ld_nr_edges; i++)
		if (ld_edge[i].from == a && ld_edge[i].to == b)
			return &ld_edge[i];
	return NULL;
}

enum ld_goal { LD_CLASS, LD_IRQ_SAFE, LD_IRQ_UNSAFE };

static bool ld_goal_met(unsigned c, enum ld_goal goal, unsigned to)
{
	return goal == LD_CLASS ? c == to : goal == LD_IRQ_SAFE ? ld_class[c].in_irq : ld_class[c].irqs_on;
}

/* Breadth first (so the shortest) along the recorded orders from `from`,
 * forward (classes taken while it is held) or backward (classes held
 * while it is taken), to the first class that meets goal (the class
 * `to`, or one taken in a handler, or one taken with interrupts on).
 * The path's classes go into path[0..return) in order (an order's holder
 * before what it takes); 0 if none. ld_lock held. */
static unsigned ld_search(unsigned from, bool forward, enum ld_goal goal, unsigned to, uint16_t *path)
{
	static uint16_t queue[LD_CLASSES], parent[LD_CLASSES];
	static uint64_t seen[LD_WORDS];
	unsigned head = 0, tail = 0;

	memset(seen, 0, sizeof(seen));
	queue[tail++] = (uint16_t)from;
	seen[from / 64] |= 1ull << (from % 64);
	while (head < tail) {
		unsigned c = queue[head++];
		if (ld_goal_met(c, goal, to)) {
			unsigned n = 0;
			for (unsigned x = c; x != from; x = parent[x])
				path[n++] = (uint16_t)x;
			path[n++] = (uint16_t)from;
			if (forward) /* collected backward: reverse it */
				for (unsigned i = 0; i < n / 2; i++) {
					uint16_t t = path[i];
					path[i] = path[n - 1 - i];
					path[n - 1 - i] = t;
				}
			return n;
		}
		for (unsigned next = 1; next < ld_nr_classes; next++)
			if ((forward ? ld_has(c, next) : ld_has(next, c)) && !(seen[next / 64] >> (next % 64) & 1)) {
				seen[next / 64] |= 1ull << (next % 64);
				parent[next] = (uint16_t)c;
				queue[tail++] = (uint16_t)next;
			}
	}
	return 0;
}

static void ld_print_chain(const uint16_t *path, unsigned n)
{
	for (unsigned i = 0; i + 1 < n; i++) {
		const struct ld_edge *e = ld_edge_find(path[i], path[i + 1]);
		printk_panic("  \"%s\" taken while holding \"%s\" (CPU %u), first at:\n",
			     ld_class[path[i + 1]].name, ld_class[path[i]].name, e ? e->cpu : 0);
		if (e)
			ld_print_stack(&e->stack);
	}
}

struct ld_inversion {
	unsigned held, taking;
	uint16_t path[LD_CLASSES];
	unsigned n;
};

static void ld_print_inversion(void *arg)
{
	const struct ld_inversion *v = arg;
	printk_panic("lockdep: this CPU holds \"%s\" and takes \"%s\", but the opposite order was seen:\n",
		     ld_class[v->held].name, ld_class[v->taking].name);
	ld_print_chain(v->path, v->n);
	printk_panic("  and now \"%s\" while holding \"%s\": the backtrace below\n",
		     ld_class[v->taking].name, ld_class[v->held].name);
}

static void ld_check_safe_unsafe(unsigned held, unsigned taking);

/* held is held and taking is being taken: record the order, or report
 * the cycle it would close. */
static __attribute__((noinline)) void ld_order(unsigned held, unsigned taking)
{
	if (held == taking || ld_has(held, taking))
		return;
	static struct ld_inversion v;
	ld_lock();
	if (ld_has(held, taking)) { /* another CPU recorded it meanwhile */
		ld_unlock();
		return;
	}
	unsigned n = ld_search(taking, true, LD_CLASS, held, v.path);
	if (n) {
		v.held = held;
		v.taking = taking;
		v.n = n;
		static char what[160];
		fmt_snprintf(what, sizeof(what), "possible deadlock: \"%s\" and \"%s\" taken in both orders",
			     ld_class[held].name, ld_class[taking].name);
		ld_report(ld_print_inversion, &v, what);
	}
	if (ld_nr_edges < LD_EDGES) {
		struct ld_edge *e = &ld_edge[ld_nr_edges++];
		e->from = (uint16_t)held;
		e->to = (uint16_t)taking;
		e->cpu = this_cpu()->id;
		ld_save_stack(&e->stack);
	}
	__atomic_fetch_or(&ld_after[held][taking / 64], 1ull << (taking % 64), __ATOMIC_RELAXED);
	ld_check_safe_unsafe(held, taking);
	ld_unlock();
}

/* A class taken in a handler ("irq-safe": it must be, since a handler
 * takes it) held, directly or along a chain of orders, while a class
 * taken elsewhere with interrupts on ("irq-unsafe") is taken: CPU A
 * holds the unsafe one, interrupts on; its handler spins on the safe one,
 * whose holder on CPU B waits along the chain for A's. Reported when the
 * last piece of that appears, whichever it is. */
struct ld_chain_report {
	uint16_t path[2 * LD_CLASSES];
	unsigned n;
};

static void ld_print_safe_unsafe(void *arg)
{
	const struct ld_chain_report *r = arg;
	const struct ld_class *safe = &ld_class[r->path[0]], *unsafe = &ld_class[r->path[r->n - 1]];
	printk_panic("lockdep: \"%s\" is taken in an interrupt handler, first at:\n", safe->name);
	ld_print_stack(&safe->irq_stack);
	printk_panic("\"%s\" is taken with interrupts on, first at:\n", unsafe->name);
	ld_print_stack(&unsafe->on_stack);
	printk_panic("and the first is held while the second is taken:\n");
	ld_print_chain(r->path, r->n);
}

static void ld_safe_unsafe_found(struct ld_chain_report *r)
{
	static char what[200];
	fmt_snprintf(what, sizeof(what),
		     "\"%s\" (taken in interrupt handlers) is held while \"%s\" (taken with interrupts on) is taken",
		     ld_class[r->path[0]].name, ld_class[r->path[r->n - 1]].name);
	ld_report(ld_print_safe_unsafe, r, what);
}

/* After the order held -> taking is recorded, or a class's interrupt
 * state changed (held == taking == that class): a chain from an irq-safe
 * class to an irq-unsafe one through it? ld_lock held. */
static void ld_check_safe_unsafe(unsigned held, unsigned taking)
{
	static struct ld_chain_report r;
	static uint16_t back[LD_CLASSES], fwd[LD_CLASSES];
	unsigned nb = ld_search(held, false, LD_IRQ_SAFE, 0, back);
	if (!nb)
		return;
	unsigned nf = ld_search(taking, true, LD_IRQ_UNSAFE, 0, fwd);
	if (!nf || (nb == 1 && nf == 1 && held == taking))
		return; /* one class both ways: ld_irq_state's own report */
	/* back runs from the safe class to held; fwd from taking on */
	r.n = 0;
	for (unsigned i = 0; i < nb; i++)
		r.path[r.n++] = back[i];
	for (unsigned i = held == taking ? 1 : 0; i < nf; i++)
		r.path[r.n++] = fwd[i];
	ld_safe_unsafe_found(&r);
}

static void ld_print_irq(void *arg)
{
	const struct ld_class *k = arg;
	printk_panic("lockdep: \"%s\" first taken in an interrupt handler at:\n", k->name);
	ld_print_stack(&k->irq_stack);
	printk_panic("and first taken with interrupts on at:\n");
	ld_print_stack(&k->on_stack);
}

/* A class taken in a handler must never be held with interrupts on: the
 * handler, run on the holder's CPU, would spin on it for ever. */
static __attribute__((noinline)) void ld_irq_state(unsigned c, struct ld_cpu *cpu, bool irqs_on)
{
	struct ld_class *k = &ld_class[c];
	bool in_irq = cpu->irq_depth > 0, on = !in_irq && irqs_on;

	if ((in_irq && k->in_irq) || (on && k->irqs_on) || (!in_irq && !on))
		return;
	ld_lock();
	if (in_irq && !k->in_irq) {
		ld_save_stack(&k->irq_stack);
		k->in_irq = true;
	}
	if (on && !k->irqs_on) {
		ld_save_stack(&k->on_stack);
		k->irqs_on = true;
	}
	if (k->in_irq && k->irqs_on) {
		static char what[160];
		fmt_snprintf(what, sizeof(what), "\"%s\" is taken in an interrupt handler and with interrupts on",
			     k->name);
		ld_report(ld_print_irq, k, what);
	} else {
		ld_check_safe_unsafe(c, c);
	}
	ld_unlock();
}

static bool ld_active(const struct spinlock *l)
{
	return ld_ready && !ld_off && l->name && !panic_in_progress();
}

/* Interrupts stay off inside the checker: a handler taking a lock here
 * would find this CPU's held stack half pushed, or spin on the graph lock
 * this CPU holds. (Its interrupt state is read before: ld_irq_state gets
 * the caller's.) */
void lockdep_acquire(struct spinlock *l)
{
	if (!ld_active(l))
		return;
	bool irqs_on = read_rflags() & RFLAGS_IF;
	uint64_t f = irq_save();
	unsigned c = ld_class_of(l);
	if (!c) {
		irq_restore(f);
		return;
	}
	struct ld_cpu *cpu = &ld_cpu[this_cpu()->id];
	ld_irq_state(c, cpu, irqs_on);
	for (unsigned i = 0; i < cpu->n; i++)
		if (cpu->held[i]->ld_class)
			ld_order(cpu->held[i]->ld_class, c);
	if (cpu->n < LD_DEPTH)
		cpu->held[cpu->n++] = l;
	else
		cpu->overflow++;
	irq_restore(f);
}

void lockdep_acquired(struct spinlock *l)
{
	if (ld_ready)
		l->ld_owner = (int16_t)(this_cpu()->id + 1);
}

void lockdep_release(struct spinlock *l)
{
	if (!ld_ready)
		return;
	if (l->name && !ld_off && !panic_in_progress() && l->ld_owner != (int16_t)(this_cpu()->id + 1)) {
		ld_off = true;
		panic("lockdep: releasing \"%s\", which this CPU does not hold (owner %d)",
		      l->name, l->ld_owner - 1);
	}
	l->ld_owner = 0;
	uint64_t f = irq_save(); /* as in lockdep_acquire */
	struct ld_cpu *cpu = &ld_cpu[this_cpu()->id];
	for (unsigned i = cpu->n; i-- > 0;) {
		if (cpu->held[i] != l)
			continue;
		memmove(&cpu->held[i], &cpu->held[i + 1], (cpu->n - i - 1) * sizeof(cpu->held[0]));
		cpu->n--;
		irq_restore(f);
		return;
	}
	if (cpu->overflow)
		cpu->overflow--;
	irq_restore(f);
}

bool lockdep_held(const struct spinlock *l)
{
	return !ld_ready || l->ld_owner == (int16_t)(this_cpu()->id + 1);
}

void lockdep_irq_enter(void)
{
	if (ld_ready)
		ld_cpu[this_cpu()->id].irq_depth++;
}

void lockdep_irq_exit(void)
{
	if (ld_ready)
		ld_cpu[this_cpu()->id].irq_depth--;
}

#endif /* CONFIG_LOCKDEP */
