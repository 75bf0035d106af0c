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

/* Linux's brk: asking for a new break returns the break in force after the
 * call (the old one if the request cannot be met); 0 asks for the current
 * one. The heap is one area from the end of the program image. */
long sys_brk(uint64_t addr)
{
	struct addrspace *as = current_thread()->proc->as;
	if (!as)
		return -EINVAL;
	if (addr < as->brk_start || addr >= USER_STACK_TOP - USER_STACK_SIZE)
		return (long)as->brk;
	if (vm_area_set_end(as, as->brk_start, ALIGN_UP(addr, PAGE_SIZE)) == 0)
		as->brk = addr;
	return (long)as->brk;
}

long sys_mem_protect(uint64_t addr, size_t len, int prot)
{
	struct addrspace *as = current_thread()->proc->as;
	return as ? vm_protect(as, addr, len, (uint32_t)prot) : -EINVAL;
}
