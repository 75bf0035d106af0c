/* mount(2) and umount(2) as on Linux (Arbor: the VFS server does them). */
#ifndef _SYS_MOUNT_H
#define _SYS_MOUNT_H

#ifdef __cplusplus
extern "C" {
#endif

#define MS_RDONLY	1
#define MS_NOSUID	2
#define MS_NODEV	4
#define MS_NOEXEC	8

#define MNT_FORCE	1
#define MNT_DETACH	2
#define MNT_EXPIRE	4
#define UMOUNT_NOFOLLOW	8

int mount(const char *source, const char *target, const char *fstype, unsigned long flags,
	  const void *data);
int umount(const char *target);
int umount2(const char *target, int flags);

#ifdef __cplusplus
}
#endif

#endif
