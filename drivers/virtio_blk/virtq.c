/* One split virtqueue in a single DMA allocation: the descriptor table,
 * then the driver (available) ring, then, on the next page, the device
 * (used) ring. The caller serializes virtq_add and virtq_pop. */
#include <errno.h>
#include "arbor/syscalls.h"
#include "virtio.h"

#define PAGE 4096u

static void vw64(volatile uint8_t *b, unsigned o, uint64_t x)
{
	vw32(b, o, (uint32_t)x);	/* low half first, as the spec allows */
	vw32(b, o + 4, (uint32_t)(x >> 32));
}

int virtq_init(struct virtq *q, struct vpci *v, uint16_t index, uint16_t max_size)
{
	vw16(v->common, VC_QUEUE_SELECT, index);
	uint16_t size = vr16(v->common, VC_QUEUE_SIZE);
	if (size == 0)
		return -ENODEV;
	while (size > max_size)
		size /= 2;	/* queue sizes are powers of two */
	unsigned avail_at = 16u * size, used_at = (avail_at + 6 + 2u * size + PAGE - 1) & ~(PAGE - 1);
	uint64_t phys;
	long mem = sys_dma_alloc(used_at + 6 + 8u * size, &phys);
	if (mem < 0)
		return (int)mem;
	q->v = v;
	q->index = index;
	q->size = size;
	q->desc = (struct vring_desc *)mem;
	q->avail = (volatile uint16_t *)(mem + avail_at);
	q->used = (volatile uint16_t *)(mem + used_at);
	for (uint16_t i = 0; i < size; i++)
		q->desc[i].next = (uint16_t)(i + 1);
	q->free_head = 0;
	q->nfree = size;
	vw16(v->common, VC_QUEUE_SIZE, size);
	vw16(v->common, VC_QUEUE_MSIX_VECTOR, VIRTIO_NO_VECTOR);	/* INTx */
	vw64(v->common, VC_QUEUE_DESC, phys);
	vw64(v->common, VC_QUEUE_DRIVER, phys + avail_at);
	vw64(v->common, VC_QUEUE_DEVICE, phys + used_at);
	q->notify = (volatile uint16_t *)(v->notify + vr16(v->common, VC_QUEUE_NOTIFY_OFF) * v->notify_mult);
	vw16(v->common, VC_QUEUE_ENABLE, 1);
	return 0;
}

int virtq_add(struct virtq *q, const struct vq_seg *segs, int n, void *token)
{
	if (n <= 0 || n > q->nfree)
		return -EBUSY;
	uint16_t head = q->free_head, i = head;
	for (int k = 0; k < n; k++) {
		struct vring_desc *d = &q->desc[i];
		d->addr = segs[k].phys;
		d->len = segs[k].len;
		d->flags = (uint16_t)((segs[k].device_writes ? VRING_DESC_F_WRITE : 0) |
				      (k + 1 < n ? VRING_DESC_F_NEXT : 0));
		if (k + 1 < n)
			i = d->next;
	}
	q->free_head = q->desc[i].next;
	q->nfree = (uint16_t)(q->nfree - n);
	q->token[head] = token;
	q->avail[2 + q->avail_idx % q->size] = head;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);	/* the ring entry before the index */
	q->avail[1] = ++q->avail_idx;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);	/* the index before the doorbell */
	*q->notify = q->index;
	return head;
}

void *virtq_pop(struct virtq *q, uint16_t *headp)
{
	if (q->last_used == q->used[1])
		return NULL;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);	/* the index before the element */
	const volatile struct vring_used_elem *e =
		(const volatile struct vring_used_elem *)(q->used + 2) + q->last_used % q->size;
	uint16_t head = (uint16_t)e->id, tail = head;
	q->last_used++;
	uint16_t n = 1;
	while (q->desc[tail].flags & VRING_DESC_F_NEXT) {
		tail = q->desc[tail].next;
		n++;
	}
	q->desc[tail].next = q->free_head;	/* the chain goes back on the free list */
	q->free_head = head;
	q->nfree = (uint16_t)(q->nfree + n);
	*headp = head;
	void *t = q->token[head];
	q->token[head] = NULL;
	return t;
}
