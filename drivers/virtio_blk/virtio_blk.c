/* The virtio-blk driver: a user-space process that finds the i-th
 * virtio-blk PCI device (its argument, 0 if none), sets it up through the
 * modern virtio transport (one split virtqueue, INTx interrupts delivered
 * as a notification, the line possibly shared with other devices' drivers)
 * and serves it as /dev/vd('a' + i), minors 16 i.., through the block
 * layer (drivers/block). One process per disk: the block layer's state is
 * the process's. Without such a device it exits with status 0 and says
 * nothing, so init can start drivers 0, 1, ... until one finds none. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "abi/blk.h"
#include "blk.h"
#include "virtio.h"

/* descriptors: a grant read's requests (BLK_READ_GRANT) take one per
 * page, 34 each, so 256 keep a whole 512 KiB window in flight */
#define QUEUE_MAX 256
#define SEGS_MAX 32	/* data segments of one request (BLK_REQ_MAX / a 4 KiB size_max) */

static struct vpci vpci;
static struct virtq vq;
static srvlock_t vq_lock;
static int irq_notif;
static uint32_t seg_size = 1u << 31;	/* size_max, if the device has one */
static struct vblk_hdr *hdrs;		/* one header and status byte per head */
static uint8_t *statuses;
static uint64_t hdrs_phys, statuses_phys;
static unsigned disk_index;		/* the argument: vda is 0 */
static struct blk_dev disk = { .major = BLK_VIRTIO_MAJOR };

/* Queues r as header, data segments and status: 0, or -EBUSY when the
 * ring has no room (the block layer retries after a completion). */
static int vblk_queue_rq(struct blk_dev *d, struct blk_req *r)
{
	struct vq_seg segs[SEGS_MAX + 2];
	int n = 1;
	(void)d;
	if (r->nsg) { /* the block layer cut the pieces to SEGS_MAX of seg_size */
		for (uint32_t i = 0; i < r->nsg && n <= SEGS_MAX; i++, n++)
			segs[n] = (struct vq_seg){ r->sg[i].phys, r->sg[i].len, r->op == BLK_OP_READ };
	}
	for (uint32_t at = 0; !r->nsg && at < r->bytes && n <= SEGS_MAX; n++) {
		uint32_t len = r->bytes - at < seg_size ? r->bytes - at : seg_size;
		segs[n] = (struct vq_seg){ r->phys + at, len, r->op == BLK_OP_READ };
		at += len;
	}
	srvlock_lock(&vq_lock);
	if (vq.nfree < n + 1) {
		srvlock_unlock(&vq_lock);
		return -EBUSY;
	}
	uint16_t head = vq.free_head;	/* virtq_add takes the chain from here */
	hdrs[head] = (struct vblk_hdr){ r->op == BLK_OP_READ ? VIRTIO_BLK_T_IN :
					r->op == BLK_OP_WRITE ? VIRTIO_BLK_T_OUT : VIRTIO_BLK_T_FLUSH,
					0, r->sector };
	statuses[head] = 0xff;
	segs[0] = (struct vq_seg){ hdrs_phys + head * sizeof(struct vblk_hdr), sizeof(struct vblk_hdr), false };
	segs[n] = (struct vq_seg){ statuses_phys + head, 1, true };
	int h = virtq_add(&vq, segs, n + 1, r);
	srvlock_unlock(&vq_lock);
	return h < 0 ? h : 0;
}

static const struct blk_ops vblk_ops = { .queue_rq = vblk_queue_rq };

/* Completions: the device's status byte decides each request's fate
 * alone, so a failed request (EIO) never holds up the others. The line
 * may be shared: a notification for another device's interrupt finds the
 * ISR 0 and nothing used, and is acknowledged all the same (the kernel
 * unmasks the line once every driver on it has acked). */
static long vblk_irq_thread(void *arg)
{
	(void)arg;
	for (;;) {
		sys_notif_wait(irq_notif, 0);
		(void)vr8(vpci.isr, 0);	/* reading the ISR lowers the line */
		for (;;) {
			uint16_t head = 0;
			srvlock_lock(&vq_lock);
			struct blk_req *r = virtq_pop(&vq, &head);
			int status = r ? statuses[head] : 0;
			srvlock_unlock(&vq_lock);
			if (!r)
				break;
			blk_complete(&disk, r, status == VIRTIO_BLK_S_OK ? 0 : -EIO);
		}
		sys_irq_ack(vpci.irq);
	}
	return 0;
}

long __arbor_thread_start(long (*fn)(void *), void *arg);

static int vblk_setup(void)
{
	uint32_t bdf;
	uint64_t features;
	if (vpci_find(disk_index, &bdf) || vpci_map(&vpci, bdf))
		return -ENODEV;
	uint64_t want = 1ull << VIRTIO_BLK_F_SIZE_MAX | 1ull << VIRTIO_BLK_F_SEG_MAX |
			1ull << VIRTIO_BLK_F_RO | 1ull << VIRTIO_BLK_F_FLUSH;
	int err = vpci_negotiate(&vpci, want, &features);
	if (!err)
		err = virtq_init(&vq, &vpci, 0, QUEUE_MAX);
	long hp = err ? -1 : sys_dma_alloc(QUEUE_MAX * (sizeof(struct vblk_hdr) + 1), &hdrs_phys);
	long n = sys_notif_create();
	if (err || hp < 0 || n < 0)
		return err ? err : -ENOMEM;
	hdrs = (struct vblk_hdr *)hp;
	statuses = (uint8_t *)(hp + QUEUE_MAX * sizeof(struct vblk_hdr));
	statuses_phys = hdrs_phys + QUEUE_MAX * sizeof(struct vblk_hdr);
	irq_notif = (int)n;
	if (features & 1ull << VIRTIO_BLK_F_SIZE_MAX && vr32(vpci.device, VBLK_CFG_SIZE_MAX) >= 4096)
		seg_size = vr32(vpci.device, VBLK_CFG_SIZE_MAX) & ~(BLK_SECTOR - 1);
	disk.sectors = vpci_cfg64(&vpci, VBLK_CFG_CAPACITY);
	disk.read_only = features & 1ull << VIRTIO_BLK_F_RO;
	disk.can_flush = features & 1ull << VIRTIO_BLK_F_FLUSH;
	disk.ops = &vblk_ops;
	disk.sg_max = SEGS_MAX;
	disk.sg_bytes = seg_size;
	long b = sys_irq_bind(vpci.irq, irq_notif, 1);
	if (b < 0)
		return (int)b;
	vpci_driver_ok(&vpci);
	return __arbor_thread_start(vblk_irq_thread, NULL) < 0 ? -ENOMEM : 0;
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		char *end;
		unsigned long i = strtoul(argv[1], &end, 10);
		if (!*argv[1] || *end || i >= BLK_MAX_DISKS) {
			printf("virtio_blk: usage: virtio_blk [DISK_INDEX 0..%d]\n", BLK_MAX_DISKS - 1);
			return 2;
		}
		disk_index = (unsigned)i;
	}
	snprintf(disk.name, sizeof(disk.name), "vd%c", 'a' + disk_index);
	disk.minor = disk_index * BLK_MINORS_PER_DISK;
	int err = vblk_setup();
	if (err == -ENODEV && !vpci.common)
		return 0;	/* no such disk attached */
	if (err) {
		printf("virtio_blk: cannot set up %s (error %d)\n", disk.name, -err);
		return 1;
	}
	printf("virtio_blk: %s, %llu sectors (%llu MiB), irq %u\n", disk.name, (unsigned long long)disk.sectors,
	       (unsigned long long)(disk.sectors >> 11), vpci.irq);
	return blk_serve(&disk);
}
