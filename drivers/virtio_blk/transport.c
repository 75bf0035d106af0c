/* The modern virtio PCI transport: reset, status handshake, feature
 * negotiation, device configuration reads. */
#include <errno.h>
#include "arbor/syscalls.h"
#include "virtio.h"

static void status_set(struct vpci *v, uint8_t bits)
{
	vw8(v->common, VC_STATUS, (uint8_t)(vr8(v->common, VC_STATUS) | bits));
}

/* Resets the device, then offers it the features of wanted it has;
 * VERSION_1 is required. *got is what was agreed. */
int vpci_negotiate(struct vpci *v, uint64_t wanted, uint64_t *got)
{
	vw8(v->common, VC_STATUS, 0);
	while (vr8(v->common, VC_STATUS) != 0) /* reset completes when status reads 0 */
		sys_yield();
	status_set(v, VS_ACKNOWLEDGE);
	status_set(v, VS_DRIVER);
	uint64_t offered = 0;
	for (uint32_t half = 0; half < 2; half++) {
		vw32(v->common, VC_DEVICE_FEATURE_SELECT, half);
		offered |= (uint64_t)vr32(v->common, VC_DEVICE_FEATURE) << (32 * half);
	}
	uint64_t take = offered & (wanted | 1ull << VIRTIO_F_VERSION_1);
	if (!(take & 1ull << VIRTIO_F_VERSION_1)) {
		status_set(v, VS_FAILED);
		return -ENODEV;
	}
	for (uint32_t half = 0; half < 2; half++) {
		vw32(v->common, VC_DRIVER_FEATURE_SELECT, half);
		vw32(v->common, VC_DRIVER_FEATURE, (uint32_t)(take >> (32 * half)));
	}
	status_set(v, VS_FEATURES_OK);
	if (!(vr8(v->common, VC_STATUS) & VS_FEATURES_OK)) {
		status_set(v, VS_FAILED);
		return -ENODEV;
	}
	*got = take;
	return 0;
}

/* A 64-bit field of the device configuration, read consistently (the
 * generation counter changes if the device updated it meanwhile). */
uint64_t vpci_cfg64(struct vpci *v, unsigned off)
{
	uint8_t gen;
	uint64_t x;
	do {
		gen = vr8(v->common, VC_CONFIG_GENERATION);
		x = vr32(v->device, off) | (uint64_t)vr32(v->device, off + 4) << 32;
	} while (gen != vr8(v->common, VC_CONFIG_GENERATION));
	return x;
}

void vpci_driver_ok(struct vpci *v)
{
	status_set(v, VS_DRIVER_OK);
}
