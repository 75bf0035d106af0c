/* The io controller, as Linux's cgroup v2 io files (a domain controller):
 *
 * io.stat (also in the root): per device with activity, the bytes and
 * requests the block layer completed for this subtree, "MAJ:MIN
 * rbytes=N wbytes=N rios=N wios=N dbytes=N dios=N". Counted per device
 * request (a client call cut into several counts each piece, as Linux
 * counts a split bio's pieces as ios).
 *
 * io.max: "MAJ:MIN rbps=N wbps=N riops=N wiops=N", "max" for none; a
 * write gives any subset of the keys and keeps the others; 0 is ERANGE,
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
#include "timer.h"

#define IO_WEIGHT_DEFAULT 100

extern struct cg_controller cg_io;

static const char *const io_limit_keys[IO_LIMITS] = { "rbps", "wbps", "riops", "wiops" };

struct io_state *io_of(const struct cgroup *cg)
{
	return cg_state(cg, &cg_io);
}

static void io_state_init(void *state)
{
	((struct io_state *)state)->weight_default = IO_WEIGHT_DEFAULT;
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
			b[k] = __atomic_load_n(&d->bytes[k], __ATOMIC_RELAXED);
			n[k] = __atomic_load_n(&d->ios[k], __ATOMIC_RELAXED);
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

/* "MAJ:MIN" (decimal) at *text, which moves past it: the device's index,
 * -EINVAL malformed, -ENODEV not a device the kernel knows. */
static int io_parse_dev(char **text)
{
	uint64_t v[2] = { 0, 0 };
	char *s = *text;
	for (int part = 0; part < 2; part++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		for (; *s >= '0' && *s <= '9'; s++)
			if ((v[part] = v[part] * 10 + (uint64_t)(*s - '0')) > 0xffffffffull)
				return -EINVAL;
		if (part == 0 && *s++ != ':')
			return -EINVAL;
	}
	if (*s && *s != ' ' && *s != '\t')
		return -EINVAL;
	*text = s;
	int i = io_dev_index((uint32_t)v[0], (uint32_t)v[1]);
	return i < 0 ? -ENODEV : i;
}

/* The next space-separated token of *text (NUL-terminated in place), or
 * NULL at the end. */
static char *io_token(char **text)
{
	char *s = *text;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return NULL;
	char *t = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = '\0';
	*text = s;
	return t;
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
	for (char *tok; (tok = io_token(&text));) {
		char *eq = strchr(tok, '=');
		int k = 0;
		if (!eq)
			return -EINVAL;
		*eq = '\0';
		while (k < IO_LIMITS && strcmp(tok, io_limit_keys[k]))
			k++;
		if (k == IO_LIMITS || eq[1] == '-')
			return -EINVAL;
		if (strcmp(eq + 1, "max") == 0) {
			value[k] = IO_UNLIMITED;
		} else {
			int64_t v;
			int err = cgfs_parse_s64(eq + 1, &v);
			if (err)
				return err;
			if (v == 0)
				return -ERANGE;	/* Linux: a limit of 0 would stall forever */
			value[k] = (uint64_t)v;
		}
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

/* A weight, 1..10000: out of range is EINVAL too (Linux's io.weight). */
static int io_parse_weight(const char *text, uint32_t *out)
{
	int64_t v;
	if (cgfs_parse_s64(text, &v) || v < CG_WEIGHT_MIN || v > CG_WEIGHT_MAX)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/* "N", "default N", "MAJ:MIN N" or "MAJ:MIN default" (drops the
 * override). */
static int io_write_weight(struct cgroup *cg, char *text, const struct k_cgwriter *w)
{
	struct io_state *s = io_of(cg);
	uint32_t weight = 0;
	(void)w;
	if (!strchr(text, ':')) {
		char *tok = io_token(&text);
		if (tok && strcmp(tok, "default") == 0)
			tok = io_token(&text);
		if (!tok || io_token(&text) || io_parse_weight(tok, &weight))
			return -EINVAL;
		cg_lock();
		s->weight_default = weight;
		cg_unlock();
		return 0;
	}
	int i = io_parse_dev(&text);
	if (i < 0)
		return i;
	char *tok = io_token(&text);
	if (!tok || io_token(&text) || (strcmp(tok, "default") && io_parse_weight(tok, &weight)))
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
	{ .name = "io.max", .mode = 0644, .flags = CFT_NOT_ON_ROOT, .show = io_show_max, .write = io_write_max },
	{ .name = "io.stat", .mode = 0444, .show = io_show_stat },
	{ .name = "io.weight", .mode = 0644, .flags = CFT_NOT_ON_ROOT,
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
};
