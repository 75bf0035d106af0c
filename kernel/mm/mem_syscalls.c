/* Anonymous memory for user processes. */
#include "abi/errno.h"
#include "addrspace.h"
#include "proc.h"
#include "syscall.h"

#define MEM_MAP_BASE 0x0000100000000000ull /* where the kernel places maps */

long sys_mem_map(uint64_t addr, size_t len, int prot)
{
	struct addrspace *as = current_thread()->proc->as;
	if (!as || len == 0 || (len & (PAGE_SIZE - 1)) || (prot & ~(VM_READ | VM_WRITE | VM_EXEC)))
		return -EINVAL;
	if (addr == 0 && !(addr = vm_find_free(as, MEM_MAP_BASE, len)))
		return -ENOMEM;
	int err = vm_area_add(as, addr, len, (uint32_t)prot, 0);
	return err ? err : (long)addr;
}

long sys_mem_unmap(uint64_t addr, size_t len)
{
	struct addrspace *as = current_thread()->proc->as;
	if (!as)
		return -EINVAL;
	return vm_area_remove(as, addr, len);
}
