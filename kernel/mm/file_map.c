/* mmap of files and msync (docs/memory.md "File mappings"): a descriptor
 * served by the page cache maps its object (addrspace.c's VM_FILE areas,
 * kernel/pcache/map.c); every other descriptor is -ENODEV, as a Linux
 * file without an mmap operation (pipes, the console, cgroup files). */
#include "abi/errno.h"
#include "abi/fcntl.h"
#include "addrspace.h"
#include "ipc.h"
#include "kobj.h"
#include "pcache.h"
#include "proc.h"
#include "syscall.h"

#define FILE_MAP_BASE 0x0000100000000000ull /* where the kernel places maps */

/* What descriptor h may be mapped for, Linux's order: -EBADF, then
 * -EACCES (a shared writable map of a descriptor not open for writing,
 * any map of one not open for reading; O_APPEND does not matter: Linux
 * refuses only append-only inodes, chattr +a), then
 * -ENODEV (no page cache object). The object (a reference) in *out;
 * *may_write: whether the descriptor was open for writing. */
static long file_map_object(int h, bool shared, int prot, struct pcache_obj **out, bool *may_write)
{
	long err;
	uint32_t have;
	struct kobj *o = handle_get_rights_of(current_thread()->proc, h, KOBJ_KINDS_ANY, 0, &err, &have);
	if (!o)
		return err;
	struct pcache_obj *pc = NULL;
	bool rd = have & HANDLE_RIGHT_READ, wr = have & HANDLE_RIGHT_WRITE;
	if (o->type == KOBJ_CHANNEL) {
		struct channel *ch = container_of(o, struct channel, obj);
		pc = __atomic_load_n(&ch->pc, __ATOMIC_ACQUIRE);
		uint32_t fl = __atomic_load_n(&ch->fst.flags, __ATOMIC_RELAXED);
		if (fl & O_PATH) {
			kobj_put(o);
			return -EBADF; /* Linux's mmap takes no O_PATH file */
		}
		if (pc) {
			rd = (fl & O_ACCMODE) != O_WRONLY;
			wr = (fl & O_ACCMODE) != O_RDONLY;
		} else {
			rd = wr = true; /* a server's file: no mmap operation */
		}
	} else if (o->type != KOBJ_PIPE && o->type != KOBJ_CGFS_FILE) {
		rd = wr = true;
	}
	if (pc && !(have & HANDLE_RIGHT_CALL))
		err = -EPERM; /* as every call on the descriptor */
	else if ((shared && (prot & PROT_WRITE) && !wr) || !rd)
		err = -EACCES;
	else if (!pc)
		err = -ENODEV;
	else {
		pcache_obj_get(pc);
		*out = pc;
		*may_write = wr;
	}
	kobj_put(o);
	return err;
}

long sys_fd_mmap(int fd, uint64_t addr, size_t len, int prot, int flags, uint64_t off)
{
	struct addrspace *as = current_thread()->proc->as;
	if (!as || (off & (PAGE_SIZE - 1)))
		return -EINVAL;
	if (prot & ~(PROT_READ | PROT_WRITE | PROT_EXEC))
		return -EINVAL;
	int type = flags & K_MAP_TYPE;
	if (flags & ~(K_MAP_TYPE | K_MAP_FIXED))
		return type == K_MAP_SHARED_VALIDATE ? -EOPNOTSUPP : -EINVAL;
	bool shared = type == K_MAP_SHARED || type == K_MAP_SHARED_VALIDATE;
	struct pcache_obj *o = NULL;
	bool may_write = false;
	long r = file_map_object(fd, shared, prot, &o, &may_write);
	if (r && r != -EACCES && r != -ENODEV)
		return r; /* -EBADF first */
	uint64_t pages = (len + PAGE_SIZE - 1) >> PAGE_SHIFT;
	if (!r && len == 0)
		r = -EINVAL;
	else if (!r && (len > USER_TOP || (off >> PAGE_SHIFT) + pages < (off >> PAGE_SHIFT)))
		r = len > USER_TOP ? -ENOMEM : -EOVERFLOW;
	else if (!r && !shared && type != K_MAP_PRIVATE)
		r = -EINVAL;
	else if (r == -EACCES || r == -ENODEV) {
		/* Linux looks at the length and the type before the file */
		if (len == 0 || (type != K_MAP_SHARED && type != K_MAP_SHARED_VALIDATE && type != K_MAP_PRIVATE))
			r = -EINVAL;
	}
	if (r) {
		if (o)
			pcache_obj_put(o);
		return r;
	}
	len = pages << PAGE_SHIFT;
	if (flags & K_MAP_FIXED) {
		if ((addr & (PAGE_SIZE - 1)) || !addr)
			r = -EINVAL;
		else if (!(r = vm_area_remove(as, addr, len)) || r == -EINVAL)
			r = 0; /* what was there goes (a range outside user space fails below) */
	} else if (!(addr = vm_find_free(as, addr ? ALIGN_UP(addr, PAGE_SIZE) : FILE_MAP_BASE, len)) &&
		   !(addr = vm_find_free(as, FILE_MAP_BASE, len))) {
		r = -ENOMEM;
	}
	uint32_t vflags = (uint32_t)prot | (shared ? VM_SHARED : 0) | (shared && !may_write ? VM_NOMAYWRITE : 0);
	if (!r)
		r = vm_map_file(as, addr, len, vflags, o, off >> PAGE_SHIFT);
	pcache_obj_put(o); /* the area holds its own */
	return r ? r : (long)addr;
}

long sys_mem_sync(uint64_t addr, size_t len, int flags)
{
	struct addrspace *as = current_thread()->proc->as;
	if (!as || (flags & ~(K_MS_ASYNC | K_MS_INVALIDATE | K_MS_SYNC)) || (addr & (PAGE_SIZE - 1)) ||
	    ((flags & K_MS_ASYNC) && (flags & K_MS_SYNC)))
		return -EINVAL;
	uint64_t end = addr + ALIGN_UP(len, PAGE_SIZE);
	if (end < addr || (len && ALIGN_UP(len, PAGE_SIZE) == 0))
		return -ENOMEM;
	if (end == addr)
		return 0;
	if (!user_range_ok(addr, end - addr) || !vm_range_mapped(as, addr, end))
		return -ENOMEM;
	/* Page cache objects without a backing store (tmpfs) have nothing
	 * to write back; their mappings already share the cache's frames,
	 * so MS_INVALIDATE has no stale copy to drop. */
	return 0;
}
