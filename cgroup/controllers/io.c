/* The io controller, as Linux's cgroup v2 io files (a domain controller):
 *
 * io.stat (also in the root): per device with activity, the bytes and
 * requests the block layer completed for this subtree, "MAJ:MIN
 * rbytes=N wbytes=N rios=N wios=N dbytes=N dios=N". Counted per device
 * request (a client call cut into several counts each piece, as Linux
 * counts a split bio's pieces as ios).
 *
 * io.max: "MAJ:MIN rbps=N wbps=N riops=N wiops=N", "max" for none; a
 * write gives any subset of the keys and keeps the others (decimal values
 * as Linux's sscanf reads them); 0 is ERANGE,
 * an unknown device ENODEV, anything malformed EINVAL. Lines only for
 * devices with a limit. Enforced by the block layer through token
 * buckets kept here (io_dev.c): a request waits for every ancestor's.
 *
 * io.weight: "default N" and "MAJ:MIN N" overrides, 1..10000 (EINVAL
 * outside, as Linux). The block layer's weighted fair queue asks for
 * them (blkio_weights, io_dev.c) and shares the disk by them
 * (drivers/block/blk_sched.c, docs/block.md).
 *
 * Disabling the controller in a parent drops the child's limits and
 * weights, as its files go. */
#include "io.h"
#include "controller.h"
#include "abi/errno.h"
#include "kstring.h"
#include "percpu_alloc.h"
#include "timer.h"

#define IO_WEIGHT_DEFAULT 100

extern struct cg_controller cg_io;

static const char *const io_limit_keys[IO_LIMITS] = { "rbps", "wbps", "riops", "wiops" };

struct io_state *io_of(const struct cgroup *cg)
{
	return cg_state(cg, &cg_io);
}

static int io_state_init(void *state)
{
	((struct io_state *)state)->weight_default = IO_WEIGHT_DEFAULT;
	return 0;
}

static void io_state_free(void *state)
{
	io_dev_states_free(state);
}

static int io_show_stat(struct cgroup *cg, struct cgfs_buf *out)
{
	struct io_state *s = io_of(cg);
	for (int i = 0; i < IO_DEVS_MAX; i++) {
		struct io_dev_state *d = __atomic_load_n(&s->dev[i], __ATOMIC_ACQUIRE);
		uint32_t major, minor;
		if (!d || !io_dev_number(i, &major, &minor))
			continue;
		uint64_t b[IO_DIRS], n[IO_DIRS], any = 0;
		for (int k = 0; k < IO_DIRS; k++) {
			b[k] = (uint64_t)percpu_sum_s64(&d->stat->bytes[k]);
			n[k] = (uint64_t)percpu_sum_s64(&d->stat->ios[k]);
			any |= n[k];
		}
		if (any)
			cgfs_printf(out, "%u:%u rbytes=%llu wbytes=%llu rios=%llu wios=%llu dbytes=%llu dios=%llu\n",
				    major, minor, (unsigned long long)b[IO_READ], (unsigned long long)b[IO_WRITE],
				    (unsigned long long)n[IO_READ], (unsigned long long)n[IO_WRITE],
				    (unsigned long long)b[IO_DISCARD], (unsigned long long)n[IO_DISCARD]);
	}
	return 0;
}

static bool io_blank(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static char *io_skip_blanks(char *s)
{
	while (io_blank(*s))
		s++;
	return s;
}

/* "MAJ:MIN" at *text (the file's text as written), as Linux's
 * blkg_conf_prep reads it: sscanf "%u:%u" (blanks before each number, the
 * numbers cut to 32 bits), then a blank (a newline counts), which *text
 * moves past with the blanks after it. The device's index, -EINVAL
 * malformed, -ENODEV not a device the kernel knows. */
static int io_parse_dev(char **text)
{
	uint32_t v[2] = { 0, 0 };
	char *s = *text;
	for (int part = 0; part < 2; part++) {
		s = io_skip_blanks(s);
		if (*s < '0' || *s > '9')
			return -EINVAL;
		for (; *s >= '0' && *s <= '9'; s++)
			v[part] = v[part] * 10 + (uint32_t)(*s - '0');
		if (part == 0 && *s++ != ':')
			return -EINVAL;
	}
	if (!io_blank(*s))
		return -EINVAL;
	*text = io_skip_blanks(s);
	int i = io_dev_index(v[0], v[1]);
	return i < 0 ? -ENODEV : i;
}

/* The next token as sscanf "%26s" takes it (blanks skipped; a longer word
 * is cut in pieces), into tok; false at the end. */
static bool io_token26(char **text, char tok[27])
{
	char *s = io_skip_blanks(*text);
	size_t n = 0;
	for (; s[n] && !io_blank(s[n]) && n < 26; n++)
		tok[n] = s[n];
	tok[n] = '\0';
	*text = s + n;
	return n > 0;
}

/* A number as Linux reads these files' values (sscanf "%llu"): decimal
 * digits up to the first other character ("0x10" is 0, "010" is 10, "7k"
 * is 7), wrapping past 2^64; false if there is no digit. */
static bool io_scan_u64(const char *s, uint64_t *out)
{
	if (*s < '0' || *s > '9')
		return false;
	uint64_t v = 0;
	for (; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (uint64_t)(*s - '0');
	*out = v;
	return true;
}

static void io_show_value(struct cgfs_buf *out, const char *key, uint64_t v)
{
	if (v == IO_UNLIMITED)
		cgfs_printf(out, " %s=max", key);
	else
		cgfs_printf(out, " %s=%llu", key, (unsigned long long)v);
}

static int io_show_max(struct cgroup *cg, struct cgfs_buf *out)
{
	struct io_state *s = io_of(cg);
	cg_lock();
	for (int i = 0; i < IO_DEVS_MAX; i++) {
		struct io_dev_state *d = s->dev[i];
		uint32_t major, minor;
		bool any = false;
		for (int k = 0; d && k < IO_LIMITS; k++)
			any |= d->limit[k] != IO_UNLIMITED;
		if (!any || !io_dev_number(i, &major, &minor))
			continue;
		cgfs_printf(out, "%u:%u", major, minor);
		for (int k = 0; k < IO_LIMITS; k++)
			io_show_value(out, io_limit_keys[k], d->limit[k]);
		cgfs_printf(out, "\n");
	}
	cg_unlock();
	return 0;
}

static int io_write_max(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	uint64_t value[IO_LIMITS];
	unsigned set = 0;
	(void)w;
	int i = io_parse_dev(&text);
	if (i < 0)
		return i;
	/* As Linux's blk-throttle: tokens of at most 26 characters, the value
	 * checked (0: ERANGE) before the key; iops above 2^32 - 1 are that,
	 * which like 2^64 - 1 for bytes means max. */
	for (char tok[27]; io_token26(&text, tok);) {
		char *eq = strchr(tok, '=');
		int k = 0;
		uint64_t v = IO_UNLIMITED;
		if (!eq || (!io_scan_u64(eq + 1, &v) && strcmp(eq + 1, "max")))
			return -EINVAL;
		if (v == 0)
			return -ERANGE;	/* Linux: a limit of 0 would stall forever */
		*eq = '\0';
		while (k < IO_LIMITS && strcmp(tok, io_limit_keys[k]))
			k++;
		if (k == IO_LIMITS)
			return -EINVAL;
		value[k] = k >= 2 && v >= UINT32_MAX ? IO_UNLIMITED : v;
		set |= 1u << k;
	}
	struct io_dev_state *d = io_dev_state_get(cg, i);
	if (!d)
		return -ENOMEM;
	uint64_t now = clock_ns();
	cg_lock();
	for (int k = 0; k < IO_LIMITS; k++) {
		if (!(set & 1u << k))
			continue;
		d->limit[k] = value[k];
		io_bucket_reset(&d->bucket[k], value[k], now);
	}
	cg_unlock();
	return 0;
}

static int io_show_weight(struct cgroup *cg, struct cgfs_buf *out)
{
	struct io_state *s = io_of(cg);
	cg_lock();
	cgfs_printf(out, "default %u\n", s->weight_default);
	for (int i = 0; i < IO_DEVS_MAX; i++) {
		uint32_t major, minor;
		if (s->dev[i] && s->dev[i]->weight && io_dev_number(i, &major, &minor))
			cgfs_printf(out, "%u:%u %u\n", major, minor, s->dev[i]->weight);
	}
	cg_unlock();
	return 0;
}

/* A weight as Linux's iocost reads it (sscanf "%u": blanks, then a number
 * stored in 32 bits, io_scan_u64), 1..10000: EINVAL if none or out of
 * range. */
static int io_parse_weight(char *text, uint32_t *out)
{
	uint64_t v;
	if (!io_scan_u64(io_skip_blanks(text), &v) || (uint32_t)v < CG_WEIGHT_MIN || (uint32_t)v > CG_WEIGHT_MAX)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/* "N", "default N", "MAJ:MIN N" or "MAJ:MIN default" (drops the
 * override), read as Linux's ioc_weight_write does, from the text as
 * written (sscanf "default %u", else "%u": " 50" is 50, " default 50"
 * EINVAL): what follows the number is ignored. */
static int io_write_weight(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	struct io_state *s = io_of(cg);
	uint32_t weight = 0;
	(void)w;
	if (!strchr(text, ':')) {
		char *num = text;
		if (strncmp(num, "default", 7) == 0)
			num += 7;
		if (io_parse_weight(num, &weight))
			return -EINVAL;
		cg_lock();
		s->weight_default = weight;
		cg_unlock();
		return 0;
	}
	int i = io_parse_dev(&text);
	if (i < 0)
		return i;
	if (strncmp(text, "default", 7) && io_parse_weight(text, &weight))
		return -EINVAL;
	struct io_dev_state *d = io_dev_state_get(cg, i);
	if (!d)
		return -ENOMEM;
	cg_lock();
	d->weight = weight;
	cg_unlock();
	return 0;
}

/* The parent stopped passing io on: limits and weights go. */
static void io_disable(struct cgroup *cg)
{
	struct io_state *s = io_of(cg);
	s->weight_default = IO_WEIGHT_DEFAULT;
	for (int i = 0; i < IO_DEVS_MAX; i++) {
		for (int k = 0; s->dev[i] && k < IO_LIMITS; k++)
			s->dev[i]->limit[k] = IO_UNLIMITED;
		if (s->dev[i])
			s->dev[i]->weight = 0;
	}
}

static const struct cftype io_files[] = {
	{ .name = "io.max", .mode = 0644, .flags = CFT_NOT_ON_ROOT | CFT_RAW, .show = io_show_max,
	  .write = io_write_max },
	{ .name = "io.stat", .mode = 0444, .show = io_show_stat },
	{ .name = "io.weight", .mode = 0644, .flags = CFT_NOT_ON_ROOT | CFT_RAW,
	  .show = io_show_weight, .write = io_write_weight },
};

struct cg_controller cg_io = {
	.name = "io",
	.files = io_files,
	.nfiles = ARRAY_SIZE(io_files),
	.state_size = sizeof(struct io_state),
	.state_init = io_state_init,
	.state_free = io_state_free,
	.offline = io_forget,
	.disable = io_disable,
	/* Linux's io_cgrp_subsys.depends_on: a child with io passed on has a
	 * memory cgroup, hidden when memory is not: "-memory" with io kept
	 * keeps its memory.oom.group and events (its limits reset) */
	.depends_on = "memory",
};
