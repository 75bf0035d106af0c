/* ext2: the on-disk format (revision 0 and 1) as this core reads and
 * writes it. Every multi-byte field is little-endian on disk; Arbor and its
 * host tests run on x86_64 only, so the structures below are used in place
 * (their fields are naturally aligned; the layout is checked at compile
 * time) without byte swapping. */
#ifndef ARBOR_EXT2_DISK_H
#define ARBOR_EXT2_DISK_H

#include <stddef.h>
#include <stdint.h>

#define EXT2_SUPER_MAGIC        0xEF53
#define EXT2_SUPER_OFFSET       1024u   /* byte offset of the superblock */
#define EXT2_SUPER_SIZE         1024u
#define EXT2_GOOD_OLD_REV       0
#define EXT2_DYNAMIC_REV        1
#define EXT2_GOOD_OLD_INODE_SIZE 128u
#define EXT2_GOOD_OLD_FIRST_INO 11u

#define EXT2_VALID_FS           0x0001  /* s_state: unmounted cleanly */
#define EXT2_ERROR_FS           0x0002  /* s_state: errors detected */

/* Feature bits: only the ones this core acts on are named. */
#define EXT2_FEATURE_COMPAT_EXT_ATTR       0x0008
#define EXT2_FEATURE_COMPAT_RESIZE_INODE   0x0010
#define EXT2_FEATURE_COMPAT_DIR_INDEX      0x0020
#define EXT2_FEATURE_INCOMPAT_FILETYPE     0x0002
#define EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER 0x0001
#define EXT2_FEATURE_RO_COMPAT_LARGE_FILE  0x0002
#define EXT2_FEATURE_RO_COMPAT_BTREE_DIR   0x0004  /* never used by anyone */
#define EXT2_KNOWN_INCOMPAT     (EXT2_FEATURE_INCOMPAT_FILETYPE)
#define EXT2_KNOWN_RO_COMPAT    (EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER | \
				 EXT2_FEATURE_RO_COMPAT_LARGE_FILE | \
				 EXT2_FEATURE_RO_COMPAT_BTREE_DIR)

/* Reserved inode numbers. */
#define EXT2_BAD_INO            1
#define EXT2_ROOT_INO           2
#define EXT2_RESIZE_INO         7

#define EXT2_NDIR_BLOCKS        12
#define EXT2_IND_BLOCK          12
#define EXT2_DIND_BLOCK         13
#define EXT2_TIND_BLOCK         14
#define EXT2_N_BLOCKS           15

#define EXT2_INDEX_FL           0x00001000  /* hash-indexed directory */
#define EXT2_LINK_MAX           32000
#define EXT2_NAME_LEN           255
#define EXT2_FAST_SYMLINK_MAX   (EXT2_N_BLOCKS * 4 - 1)  /* 59 bytes + NUL */

/* Directory entry file types (with the filetype feature). */
#define EXT2_FT_UNKNOWN         0
#define EXT2_FT_REG_FILE        1
#define EXT2_FT_DIR             2
#define EXT2_FT_CHRDEV          3
#define EXT2_FT_BLKDEV          4
#define EXT2_FT_FIFO            5
#define EXT2_FT_SOCK            6
#define EXT2_FT_SYMLINK         7
#define EXT2_FT_MAX             8

#define EXT2_XATTR_MAGIC        0xEA020000u

struct ext2_super {
	uint32_t s_inodes_count;
	uint32_t s_blocks_count;
	uint32_t s_r_blocks_count;
	uint32_t s_free_blocks_count;
	uint32_t s_free_inodes_count;
	uint32_t s_first_data_block;
	uint32_t s_log_block_size;
	uint32_t s_log_frag_size;
	uint32_t s_blocks_per_group;
	uint32_t s_frags_per_group;
	uint32_t s_inodes_per_group;
	uint32_t s_mtime;
	uint32_t s_wtime;
	uint16_t s_mnt_count;
	int16_t  s_max_mnt_count;
	uint16_t s_magic;
	uint16_t s_state;
	uint16_t s_errors;
	uint16_t s_minor_rev_level;
	uint32_t s_lastcheck;
	uint32_t s_checkinterval;
	uint32_t s_creator_os;
	uint32_t s_rev_level;
	uint16_t s_def_resuid;
	uint16_t s_def_resgid;
	/* revision 1 */
	uint32_t s_first_ino;
	uint16_t s_inode_size;
	uint16_t s_block_group_nr;
	uint32_t s_feature_compat;
	uint32_t s_feature_incompat;
	uint32_t s_feature_ro_compat;
	uint8_t  s_uuid[16];
	char     s_volume_name[16];
	char     s_last_mounted[64];
	uint32_t s_algorithm_usage_bitmap;
	uint8_t  s_prealloc_blocks;
	uint8_t  s_prealloc_dir_blocks;
	uint16_t s_reserved_gdt_blocks;
	uint8_t  s_journal_uuid[16];
	uint32_t s_journal_inum;
	uint32_t s_journal_dev;
	uint32_t s_last_orphan;
	uint32_t s_hash_seed[4];
	uint8_t  s_def_hash_version;
	uint8_t  s_jnl_backup_type;
	uint16_t s_desc_size;
	uint32_t s_default_mount_opts;
	uint32_t s_first_meta_bg;
	uint32_t s_mkfs_time;
	uint32_t s_jnl_blocks[17];
	uint32_t s_blocks_count_hi;
	uint32_t s_r_blocks_count_hi;
	uint32_t s_free_blocks_hi;
	uint16_t s_min_extra_isize;
	uint16_t s_want_extra_isize;
	uint8_t  s_rest[1024 - 352];    /* kept as read */
};

struct ext2_group_desc {
	uint32_t bg_block_bitmap;
	uint32_t bg_inode_bitmap;
	uint32_t bg_inode_table;
	uint16_t bg_free_blocks_count;
	uint16_t bg_free_inodes_count;
	uint16_t bg_used_dirs_count;
	uint16_t bg_pad;
	uint8_t  bg_reserved[12];
};

/* The 128-byte base inode and the extra fields of larger inodes (revision
 * 1, i_extra_isize bytes of them are in use). */
struct ext2_inode {
	uint16_t i_mode;
	uint16_t i_uid;
	uint32_t i_size;
	uint32_t i_atime;
	uint32_t i_ctime;
	uint32_t i_mtime;
	uint32_t i_dtime;
	uint16_t i_gid;
	uint16_t i_links_count;
	uint32_t i_blocks;              /* 512-byte units, metadata included */
	uint32_t i_flags;
	uint32_t i_osd1;
	uint32_t i_block[EXT2_N_BLOCKS];
	uint32_t i_generation;
	uint32_t i_file_acl;            /* extended-attribute block or 0 */
	uint32_t i_size_high;           /* i_dir_acl: regular files only */
	uint32_t i_faddr;
	uint16_t i_blocks_hi;           /* osd2 (Linux): frag/fsize in ext2 */
	uint16_t i_file_acl_high;
	uint16_t i_uid_high;
	uint16_t i_gid_high;
	uint16_t i_checksum_lo;
	uint16_t i_reserved;
	/* extra fields (inode size > 128) */
	uint16_t i_extra_isize;
	uint16_t i_checksum_hi;
	uint32_t i_ctime_extra;
	uint32_t i_mtime_extra;
	uint32_t i_atime_extra;
	uint32_t i_crtime;
	uint32_t i_crtime_extra;
	uint32_t i_version_hi;
	uint32_t i_projid;
};

#define EXT2_INODE_EXTRA_END    160u    /* sizeof(struct ext2_inode) */

struct ext2_dirent {
	uint32_t inode;                 /* 0: unused record */
	uint16_t rec_len;               /* to the next record, multiple of 4 */
	uint8_t  name_len;
	uint8_t  file_type;             /* name_len's high byte without filetype */
	char     name[];
} __attribute__((packed));

#define EXT2_DIRENT_HEAD        8u
/* The smallest record that holds a name of n bytes. */
#define EXT2_DIRENT_LEN(n)      ((EXT2_DIRENT_HEAD + (n) + 3u) & ~3u)

_Static_assert(sizeof(struct ext2_super) == 1024, "superblock size");
_Static_assert(offsetof(struct ext2_super, s_feature_compat) == 92, "sb");
_Static_assert(offsetof(struct ext2_super, s_reserved_gdt_blocks) == 206, "sb");
_Static_assert(offsetof(struct ext2_super, s_want_extra_isize) == 350, "sb");
_Static_assert(sizeof(struct ext2_group_desc) == 32, "group descriptor size");
_Static_assert(offsetof(struct ext2_inode, i_block) == 40, "inode");
_Static_assert(offsetof(struct ext2_inode, i_uid_high) == 120, "inode");
_Static_assert(offsetof(struct ext2_inode, i_extra_isize) == 128, "inode");
_Static_assert(sizeof(struct ext2_inode) == EXT2_INODE_EXTRA_END, "inode size");

#endif
