/* A file being executed is not written (Linux's deny_write_access): an
 * address space running a program from a page cache object holds an
 * "exec" count on it; descriptors open for writing and shared mappings
 * that may write hold a "write" count. Each excludes the other: opening a
 * running program for writing (or truncating it) is -ETXTBSY, and so is
 * executing a file open for writing. Both counts live under obj->lock. */
#include "pcache.h"
#include "abi/errno.h"

int pcache_deny_write(struct pcache_obj *o)
{
	spin_lock(&o->lock);
	int r = o->writers ? -ETXTBSY : 0;
	if (!r)
		o->execs++;
	spin_unlock(&o->lock);
	if (!r)
		pcache_obj_get(o);
	return r;
}

void pcache_deny_write_dup(struct pcache_obj *o)
{
	spin_lock(&o->lock);
	o->execs++;
	spin_unlock(&o->lock);
	pcache_obj_get(o);
}

void pcache_allow_write(struct pcache_obj *o)
{
	spin_lock(&o->lock);
	o->execs--;
	spin_unlock(&o->lock);
	pcache_obj_put(o);
}

int pcache_get_write(struct pcache_obj *o)
{
	spin_lock(&o->lock);
	int r = o->execs ? -ETXTBSY : 0;
	if (!r)
		o->writers++;
	spin_unlock(&o->lock);
	return r;
}

void pcache_get_write_dup(struct pcache_obj *o)
{
	spin_lock(&o->lock);
	o->writers++;
	spin_unlock(&o->lock);
}

void pcache_put_write(struct pcache_obj *o)
{
	spin_lock(&o->lock);
	o->writers--;
	spin_unlock(&o->lock);
}
