/* The virtio 1.x PCI transport (modern interface), split virtqueues and
 * the block device's numbers, from the virtio specification. */
#ifndef ARBOR_VIRTIO_H
#define ARBOR_VIRTIO_H

#include <stdbool.h>
#include <stdint.h>

#define VIRTIO_VENDOR 0x1af4
#define VIRTIO_BLK_TRANSITIONAL 0x1001
#define VIRTIO_BLK_MODERN 0x1042	/* 0x1040 + device type 2 */

/* PCI vendor capability (id 0x09): cfg_type at +3, bar at +4, offset at
 * +8, length at +12; the notify capability adds its multiplier at +16. */
#define PCI_CAP_VENDOR 0x09
#define VIRTIO_CAP_COMMON 1
#define VIRTIO_CAP_NOTIFY 2
#define VIRTIO_CAP_ISR 3
#define VIRTIO_CAP_DEVICE 4

/* The common configuration structure. */
#define VC_DEVICE_FEATURE_SELECT 0x00
#define VC_DEVICE_FEATURE 0x04
#define VC_DRIVER_FEATURE_SELECT 0x08
#define VC_DRIVER_FEATURE 0x0c
#define VC_NUM_QUEUES 0x12
#define VC_STATUS 0x14
#define VC_CONFIG_GENERATION 0x15
#define VC_QUEUE_SELECT 0x16
#define VC_QUEUE_SIZE 0x18
#define VC_QUEUE_MSIX_VECTOR 0x1a
#define VC_QUEUE_ENABLE 0x1c
#define VC_QUEUE_NOTIFY_OFF 0x1e
#define VC_QUEUE_DESC 0x20
#define VC_QUEUE_DRIVER 0x28
#define VC_QUEUE_DEVICE 0x30

/* Device status bits. */
#define VS_ACKNOWLEDGE 1
#define VS_DRIVER 2
#define VS_DRIVER_OK 4
#define VS_FEATURES_OK 8
#define VS_FAILED 128

#define VIRTIO_F_VERSION_1 32
#define VIRTIO_NO_VECTOR 0xffff

/* virtio-blk features, configuration and requests. */
#define VIRTIO_BLK_F_SIZE_MAX 1
#define VIRTIO_BLK_F_SEG_MAX 2
#define VIRTIO_BLK_F_RO 5
#define VIRTIO_BLK_F_FLUSH 9
#define VBLK_CFG_CAPACITY 0	/* le64, 512-byte sectors */
#define VBLK_CFG_SIZE_MAX 8	/* le32 */
#define VBLK_CFG_SEG_MAX 12	/* le32 */
#define VIRTIO_BLK_T_IN 0
#define VIRTIO_BLK_T_OUT 1
#define VIRTIO_BLK_T_FLUSH 4
#define VIRTIO_BLK_S_OK 0

struct vblk_hdr {
	uint32_t type;
	uint32_t reserved;
	uint64_t sector;
};

/* Split virtqueue layout. */
#define VRING_DESC_F_NEXT 1
#define VRING_DESC_F_WRITE 2
struct vring_desc {
	uint64_t addr;
	uint32_t len;
	uint16_t flags;
	uint16_t next;
};
struct vring_used_elem {
	uint32_t id;
	uint32_t len;
};

/* The transport: the mapped capability regions of one device. */
struct vpci {
	uint32_t bdf;
	volatile uint8_t *common, *isr, *device, *notify;
	uint32_t notify_mult;
	unsigned irq;
};

/* pci.c */
long vpci_find(unsigned index, uint32_t *bdf);
int vpci_map(struct vpci *v, uint32_t bdf);

/* transport.c */
static inline uint8_t vr8(volatile uint8_t *b, unsigned o) { return *(volatile uint8_t *)(b + o); }
static inline uint16_t vr16(volatile uint8_t *b, unsigned o) { return *(volatile uint16_t *)(b + o); }
static inline uint32_t vr32(volatile uint8_t *b, unsigned o) { return *(volatile uint32_t *)(b + o); }
static inline void vw8(volatile uint8_t *b, unsigned o, uint8_t x) { *(volatile uint8_t *)(b + o) = x; }
static inline void vw16(volatile uint8_t *b, unsigned o, uint16_t x) { *(volatile uint16_t *)(b + o) = x; }
static inline void vw32(volatile uint8_t *b, unsigned o, uint32_t x) { *(volatile uint32_t *)(b + o) = x; }
int vpci_negotiate(struct vpci *v, uint64_t wanted, uint64_t *got);
uint64_t vpci_cfg64(struct vpci *v, unsigned off);
void vpci_driver_ok(struct vpci *v);

/* virtq.c: one split virtqueue. */
struct virtq {
	struct vpci *v;
	uint16_t index, size;
	struct vring_desc *desc;
	volatile uint16_t *avail;	/* flags, idx, ring[size], used_event */
	volatile uint16_t *used;	/* flags, idx, then the elements */
	volatile uint16_t *notify;
	uint16_t free_head, nfree, last_used, avail_idx;
	void *token[256];
};
struct vq_seg {
	uint64_t phys;
	uint32_t len;
	bool device_writes;
};
int virtq_init(struct virtq *q, struct vpci *v, uint16_t index, uint16_t max_size);
/* Adds a chain of n segments carrying token: its head, or -EBUSY. */
int virtq_add(struct virtq *q, const struct vq_seg *segs, int n, void *token);
/* The next finished chain's token (and its head), or NULL. */
void *virtq_pop(struct virtq *q, uint16_t *head);

#endif
